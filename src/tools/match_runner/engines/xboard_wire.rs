//! The XBoard (CECP v2) side of the runner's wire: the `feature` lines an engine announces, the
//! commands of a game (`level`/`st`/`sd`/`nps`, `time`/`otim`, `setboard`, moves) and the
//! engine's replies (`move m`, `resign`, thinking lines). The exchange itself is in
//! `xboard_engine.rs`; this file only knows the text.

use super::super::games::TimeControl;
use super::wire::{Dialect, FenLetters, GoLimits, InfoFields, Score};
use engine_core::{move_text, Move, Position, RankBase};
use std::time::Duration;

/// XBoard's mate scores start here (`100000 + N`: mate in N moves).
const XBOARD_MATE: i32 = 100_000;

/// What an engine announced with `feature` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `usermove=1`: moves are sent as `usermove m`.
    pub usermove: bool,
    /// `setboard=1`: positions are sent with `setboard`, not `edit`.
    pub setboard: bool,
    /// `ping=1`.
    pub ping: bool,
    /// `nps=1`: node limits can be given as `nps`.
    pub nps: bool,
    /// `memory=1`: the `memory` command sets the hash size.
    pub memory: bool,
    /// `smp=1`: the `cores` command sets the threads.
    pub smp: bool,
    /// `variants="..."`, as listed.
    pub variants: Vec<String>,
    /// The names of the `option="NAME -type ..."` features, in order.
    pub options: Vec<String>,
    /// `done=1` was seen.
    pub done: bool,
}

/// Splits the rest of a `feature` line into `name=value` pairs (values may be quoted).
fn feature_pairs(rest: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut chars = rest.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let name: String = chars.by_ref().take_while(|&c| c != '=').collect();
        if name.is_empty() {
            break;
        }
        let value: String = if chars.peek() == Some(&'"') {
            chars.next();
            chars.by_ref().take_while(|&c| c != '"').collect()
        } else {
            chars.by_ref().take_while(|c| !c.is_whitespace()).collect()
        };
        pairs.push((name.trim().to_string(), value));
    }
    pairs
}

impl Features {
    /// Reads one `feature ...` line; returns the names of the features on it (the GUI answers
    /// each with `accepted NAME`). Other lines give nothing.
    pub fn read(&mut self, line: &str) -> Vec<String> {
        let Some(rest) = line.trim().strip_prefix("feature ") else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for (name, value) in feature_pairs(rest) {
            let on = value == "1";
            match name.as_str() {
                "usermove" => self.usermove = on,
                "setboard" => self.setboard = on,
                "ping" => self.ping = on,
                "nps" => self.nps = on,
                "memory" => self.memory = on,
                "smp" => self.smp = on,
                "done" => self.done = self.done || on,
                "variants" => {
                    self.variants = value.split(',').map(|v| v.trim().to_string()).collect()
                }
                "option" => {
                    let option = value.split(" -").next().unwrap_or("").trim();
                    if !option.is_empty() {
                        self.options.push(option.to_string());
                    }
                }
                _ => {}
            }
            names.push(name);
        }
        names
    }

    /// Whether the engine offers an option called `name` (XBoard option names as the engine
    /// wrote them; compared without regard to case).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }
}

/// Seconds as XBoard writes them: whole numbers plainly, fractions with up to 3 decimals.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

/// The command that sets an engine option other than `memory` and `cores`.
pub fn option_command(name: &str, value: &str) -> String {
    Dialect::Xboard.setoption(name, value)
}

/// The time-control commands of a game, sent after `new`: `level MPS M:SS INC`, `st S`,
/// `st 1` + `nps N` for a node budget, or `sd N` (with a generous `st`, as no clock runs).
pub fn time_control_commands(tc: &TimeControl) -> Vec<String> {
    match tc {
        TimeControl::Clock { base, inc, moves } => {
            let secs = base.as_secs();
            vec![format!(
                "level {} {}:{:02} {}",
                moves.unwrap_or(0),
                secs / 60,
                secs % 60,
                seconds(*inc)
            )]
        }
        TimeControl::MoveTime(t) => vec![format!("st {}", seconds(*t))],
        TimeControl::Nodes(n) => vec!["st 1".to_string(), format!("nps {n}")],
        TimeControl::Depth(d) => vec!["st 3600".to_string(), format!("sd {d}")],
    }
}

/// `time` and `otim` (centiseconds) before a `go` on a clock; nothing for other limits.
pub fn clock_commands(limits: &GoLimits) -> Vec<String> {
    match limits {
        GoLimits::Clock {
            own_time, opp_time, ..
        } => vec![
            format!("time {}", own_time.as_millis() / 10),
            format!("otim {}", opp_time.as_millis() / 10),
        ],
        _ => Vec::new(),
    }
}

/// `setboard FEN` as XBoard writes it: H/E letters (or the engine's `letters=`), no castling or
/// e.p. fields.
pub fn setboard_command(start: &Position, letters: FenLetters) -> String {
    let fen = letters.convert(&start.to_fen());
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let kept: Vec<&str> = fields
        .iter()
        .enumerate()
        .filter(|&(i, f)| !((i == 2 || i == 3) && *f == "-"))
        .map(|(_, f)| *f)
        .collect();
    format!("setboard {}", kept.join(" "))
}

/// A move for the engine: `usermove h2e2` or `h2e2` (ranks 0-9).
pub fn move_command(mv: Move, usermove: bool) -> String {
    let text = move_text(mv, RankBase::Zero);
    if usermove {
        format!("usermove {text}")
    } else {
        text
    }
}

/// One line from an XBoard engine, as far as a game is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `move m` (also the old `N. ... m` form).
    Move(String),
    /// `resign`.
    Resign,
    /// `Illegal move ...` or `Error ...`: the engine refused what it was sent.
    Refusal(String),
    /// A thinking line `depth score time nodes pv`.
    Thinking(InfoFields),
    /// Anything else (claims, comments, `offer draw`, `pong`).
    Other,
}

/// Reads one engine line.
pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["move", m, ..] => return Reply::Move(m.to_string()),
        [n, "...", m] if n.ends_with('.') => return Reply::Move(m.to_string()),
        ["resign", ..] => return Reply::Resign,
        _ => {}
    }
    if line.starts_with("Illegal move") || line.starts_with("Error") {
        return Reply::Refusal(line.to_string());
    }
    if let [depth, score, _time, _nodes, ..] = words.as_slice() {
        if let (Ok(d), Ok(s)) = (
            depth.trim_end_matches(['.', '&']).parse::<u32>(),
            score.parse::<i32>(),
        ) {
            let score = if s.abs() >= XBOARD_MATE {
                let n = s.abs() - XBOARD_MATE;
                Score::Mate(if s > 0 { n } else { -n })
            } else {
                Score::Cp(s)
            };
            return Reply::Thinking(InfoFields {
                depth: Some(d),
                score: Some(score),
            });
        }
    }
    Reply::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_sjaak_and_maxqi() {
        let mut f = Features::default();
        f.read("feature setboard=1 time=1 ping=1 memory=1 nps=1 myname=\"Sjaak II 1.4.1\" variants=\"fide_chess,xiangqi,normal\"");
        f.read("feature option=\"MultiPV -spin 1 1 256\"");
        f.read("feature option=\"Claim repetitions -check 1\"");
        f.read("feature done=1");
        assert!(f.setboard && f.ping && f.nps && f.memory && f.done && !f.usermove);
        assert!(f.variants.contains(&"xiangqi".to_string()));
        assert!(f.has_option("multipv") && f.has_option("Claim repetitions"));
        assert!(!f.has_option("SkilLevel"));
        let mut m = Features::default();
        m.read("feature setboard=0 ping=1 done=0");
        assert!(!m.done);
        m.read("feature variants=\"xiangqi\" done=1");
        assert!(m.done && !m.setboard);
    }

    #[test]
    fn commands_and_replies() {
        let clock = TimeControl::Clock {
            base: Duration::from_secs(10),
            inc: Duration::from_millis(100),
            moves: None,
        };
        assert_eq!(time_control_commands(&clock), vec!["level 0 0:10 0.1"]);
        assert_eq!(
            time_control_commands(&TimeControl::MoveTime(Duration::from_millis(1500))),
            vec!["st 1.5"]
        );
        let start = Position::startpos();
        assert_eq!(
            setboard_command(&start, FenLetters::HE),
            "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1"
        );
        let mv = start.parse_move("h2e2", RankBase::Zero).unwrap();
        assert_eq!(move_command(mv, true), "usermove h2e2");
        assert_eq!(parse_reply("move b0c2"), Reply::Move("b0c2".into()));
        assert_eq!(parse_reply("resign"), Reply::Resign);
        assert!(matches!(
            parse_reply("Illegal move: a0a0"),
            Reply::Refusal(_)
        ));
        assert_eq!(
            parse_reply("  5   -18      7      8361  2. Hc2 Ch1"),
            Reply::Thinking(InfoFields {
                depth: Some(5),
                score: Some(Score::Cp(-18))
            })
        );
        assert_eq!(
            parse_reply("9 100003 20 5000 h2e2"),
            Reply::Thinking(InfoFields {
                depth: Some(9),
                score: Some(Score::Mate(3))
            })
        );
        assert_eq!(parse_reply("1-0 {Red mates}"), Reply::Other);
        assert_eq!(parse_reply("pong 3"), Reply::Other);
    }
}
