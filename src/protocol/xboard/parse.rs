//! The XBoard/WinBoard dialect (CECP v2, H.G. Muller's `engine-intf.html`): one input line to an
//! [`XCommand`] (declared in [`command`](super::command)). Parsing never fails here: a line that is not
//! a command, or a command with a bad argument, becomes [`XCommand::Bad`], which the session
//! answers with `Error (...): ...` and goes on. Move text stays text (ranks 0-9 on this wire,
//! `h2e2`); the session parses it against the position.

use super::command::XCommand;
use crate::protocol::command::{excerpt, Command};

fn bad(reason: &str, line: &str) -> XCommand {
    XCommand::Bad {
        reason: reason.to_string(),
        line: excerpt_long(line),
    }
}

/// At most 80 characters of a line, for `Error (...)` answers.
fn excerpt_long(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        s.push_str("...");
    }
    s
}

/// Whether `word` has the shape of a coordinate move (`h2e2`, `a0a9`): XBoard sends moves
/// without `usermove` to engines that did not ask for it, and this engine accepts both.
pub fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 4
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
}

/// Seconds as sent by `st`, `level` increments (`0.5`, `10`), in milliseconds.
fn seconds_ms(text: &str) -> Option<u64> {
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as u64)
}

/// The base time of `level`: minutes, or `minutes:seconds`, in milliseconds.
fn base_ms(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            let s: u64 = s.parse().ok()?;
            Some((m * 60 + s) * 1000)
        }
        None => {
            let m: f64 = text.parse().ok()?;
            (m.is_finite() && m >= 0.0).then(|| (m * 60_000.0).round() as u64)
        }
    }
}

/// Parses one line of the XBoard dialect (`quit` is the shared [`Command::Quit`]).
pub fn parse(line: &str) -> Command {
    let line = line.trim();
    let Some(word) = line.split_whitespace().next() else {
        return Command::Nothing;
    };
    let rest = line[word.len()..].trim();
    let args: Vec<&str> = rest.split_whitespace().collect();
    let number = || -> Option<i64> { args.first().and_then(|t| t.parse::<i64>().ok()) };
    let x = match word {
        "quit" => return Command::Quit,
        "xboard" => XCommand::Xboard,
        "protover" => match number() {
            Some(n) if n >= 0 => XCommand::Protover(u32::try_from(n).unwrap_or(u32::MAX)),
            _ => bad("protover needs a number", line),
        },
        "new" => XCommand::New,
        "variant" => match args.first() {
            Some(v) => XCommand::Variant(v.to_string()),
            None => bad("variant needs a name", line),
        },
        "force" => XCommand::Force,
        "go" => XCommand::Go,
        "playother" => XCommand::PlayOther,
        "usermove" => match args.first() {
            Some(m) => XCommand::UserMove(m.to_string()),
            None => bad("usermove needs a move", line),
        },
        "time" | "otim" => match number() {
            Some(n) if word == "time" => XCommand::Time(n),
            Some(n) => XCommand::Otim(n),
            None => bad("needs centiseconds", line),
        },
        "level" => {
            let parsed = match args.as_slice() {
                [mps, base, inc] => mps
                    .parse::<u32>()
                    .ok()
                    .zip(base_ms(base))
                    .zip(seconds_ms(inc))
                    .map(|((mps, base_ms), inc_ms)| XCommand::Level {
                        mps,
                        base_ms,
                        inc_ms,
                    }),
                _ => None,
            };
            parsed.unwrap_or_else(|| bad("level needs MPS BASE INC", line))
        }
        "st" => match args.first().and_then(|t| seconds_ms(t)) {
            Some(ms) => XCommand::St(ms),
            None => bad("st needs seconds", line),
        },
        "sd" => match number() {
            Some(n) if n >= 1 => XCommand::Sd(u32::try_from(n).unwrap_or(u32::MAX)),
            _ => bad("sd needs a depth of at least 1", line),
        },
        "nps" => match number() {
            Some(n) if n >= 0 => XCommand::Nps(n as u64),
            _ => bad("nps needs a number", line),
        },
        "setboard" => {
            if rest.is_empty() {
                bad("setboard needs a FEN", line)
            } else {
                XCommand::SetBoard(rest.to_string())
            }
        }
        "undo" => XCommand::Undo,
        "remove" => XCommand::Remove,
        "result" => XCommand::Result(rest.to_string()),
        "draw" => XCommand::Draw,
        "hard" => XCommand::Hard,
        "easy" => XCommand::Easy,
        "post" => XCommand::Post,
        "nopost" => XCommand::NoPost,
        "memory" => match number() {
            Some(n) if n >= 0 => XCommand::Memory(n as u64),
            _ => bad("memory needs megabytes", line),
        },
        "cores" => match number() {
            Some(n) if n >= 1 => XCommand::Cores(n as u64),
            _ => bad("cores needs a number of at least 1", line),
        },
        "option" => {
            if rest.is_empty() {
                bad("option needs NAME=VALUE", line)
            } else {
                match rest.split_once('=') {
                    Some((name, value)) => XCommand::SetOption {
                        name: name.trim().to_string(),
                        value: Some(value.trim().to_string()),
                    },
                    None => XCommand::SetOption {
                        name: rest.to_string(),
                        value: None,
                    },
                }
            }
        }
        "ping" => XCommand::Ping(rest.to_string()),
        "?" => XCommand::MoveNow,
        "hint" => XCommand::Hint,
        "analyze" => XCommand::Analyze,
        "exit" => XCommand::Exit,
        "." => XCommand::Status,
        "help" => XCommand::Help,
        "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "white"
        | "black" | "otherclock" | "easyclock" => XCommand::Ignored,
        w if looks_like_move(w) && args.is_empty() => XCommand::UserMove(w.to_string()),
        w => XCommand::Bad {
            reason: "unknown command".into(),
            line: if w.len() == line.len() {
                excerpt(w)
            } else {
                excerpt_long(line)
            },
        },
    };
    Command::Xboard(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(line: &str) -> XCommand {
        match parse(line) {
            Command::Xboard(x) => x,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn commands_and_arguments() {
        assert_eq!(x("protover 2"), XCommand::Protover(2));
        assert_eq!(x("usermove h2e2"), XCommand::UserMove("h2e2".into()));
        assert_eq!(x("h2e2"), XCommand::UserMove("h2e2".into()));
        assert_eq!(x("time 1010"), XCommand::Time(1010));
        assert_eq!(x("otim -5"), XCommand::Otim(-5));
        assert_eq!(
            x("level 40 0:20 0.2"),
            XCommand::Level {
                mps: 40,
                base_ms: 20_000,
                inc_ms: 200
            }
        );
        assert_eq!(
            x("level 0 2 12"),
            XCommand::Level {
                mps: 0,
                base_ms: 120_000,
                inc_ms: 12_000
            }
        );
        assert_eq!(x("st 0.5"), XCommand::St(500));
        assert_eq!(x("sd 7"), XCommand::Sd(7));
        assert_eq!(
            x("option Skill Level=3"),
            XCommand::SetOption {
                name: "Skill Level".into(),
                value: Some("3".into())
            }
        );
        assert_eq!(
            x("option Clear Hash"),
            XCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            x("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"),
            XCommand::SetBoard(
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1".into()
            )
        );
        assert_eq!(x("ping 7"), XCommand::Ping("7".into()));
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse("  "), Command::Nothing);
    }

    #[test]
    fn bad_lines_are_commands_too() {
        assert!(matches!(x("foo"), XCommand::Bad { reason, .. } if reason == "unknown command"));
        assert!(matches!(x("level 40 x 0"), XCommand::Bad { .. }));
        assert!(matches!(x("sd 0"), XCommand::Bad { .. }));
        assert!(matches!(x("time"), XCommand::Bad { .. }));
        assert!(matches!(x("h2"), XCommand::Bad { .. }));
        // Move-shaped text is a move: the session answers `Illegal move` if it is not one.
        assert_eq!(x("h2x2"), XCommand::UserMove("h2x2".into()));
    }
}
