//! The words `cotuong play` understands between moves. A line whose first word is not one of
//! them is a move, read by [`super::move_input`].

use engine_core::Color;
use std::path::PathBuf;

use super::limits::TimeControl;

/// The engine's strength, as the option table will be told it (the table checks the value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// `Skill Level` 0-20.
    Skill(String),
    /// `UCI_Elo`, with `UCI_LimitStrength` on.
    Elo(String),
}

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Nothing typed.
    Empty,
    /// A move, in any notation.
    Move(String),
    /// Take back the last move of each side.
    Undo,
    /// The engine's suggestion for the player.
    Hint,
    /// A new game from the initial position.
    New,
    /// Play this side (`None`: the other one).
    Side(Option<Color>),
    /// The engine's strength.
    Level(Level),
    /// The engine's thinking limit.
    Time(TimeControl),
    /// A new game from a position (`startpos` or a FEN); `None`: show the current FEN.
    Fen(Option<String>),
    /// Write the game as PGN.
    Save(PathBuf),
    /// Turn the board round.
    Flip,
    /// Give up.
    Resign,
    /// Offer a draw, or accept the engine's.
    Draw,
    /// The list of commands.
    Help,
    /// Leave.
    Quit,
}

/// The help text, one command a line.
pub const HELP: &[&str] = &[
    "Moves: any notation, e.g. 炮二平五, C2=5, h2e2, P2-5 (Vietnamese).",
    "  undo             take back your last move and the engine's reply",
    "  hint             the engine's suggestion for you",
    "  new              a new game from the initial position",
    "  side red|black   play that side (side alone: change sides)",
    "  level N          engine strength, Skill Level 0-20 (20: full strength)",
    "  level elo N      engine strength as an Elo rating (UCI_Elo)",
    "  time BASE+INC    the engine's clock in seconds, e.g. time 60+1",
    "  movetime MS      the engine thinks MS milliseconds a move (the default: 1000)",
    "  nodes N          the engine searches N nodes a move",
    "  fen [FEN|startpos]  a new game from a position (fen alone: show the position)",
    "  save FILE        write the game as PGN, with the engine's level and time",
    "  flip             turn the board round",
    "  draw             offer a draw, or accept the engine's offer",
    "  resign           give up the game",
    "  help             this list",
    "  quit             leave (end of input too); an unsaved game asks first",
];

/// A whole number of `what`, for the error message.
fn number(text: &str, what: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a number of {what}"))
}

/// Reads one line. An error is a command with a bad argument; anything else that is not a
/// command comes back as a [`Command::Move`].
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    let args: Vec<&str> = rest.split_whitespace().collect();
    let none = |cmd: Command| {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(format!("'{word}' takes no argument"))
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Ok(Command::Empty),
        "undo" | "takeback" => none(Command::Undo),
        "hint" => none(Command::Hint),
        "new" => none(Command::New),
        "flip" => none(Command::Flip),
        "resign" => none(Command::Resign),
        "draw" => none(Command::Draw),
        "help" | "?" => none(Command::Help),
        "quit" | "exit" => none(Command::Quit),
        "side" => match args.as_slice() {
            [] => Ok(Command::Side(None)),
            [s] if s.eq_ignore_ascii_case("red") => Ok(Command::Side(Some(Color::Red))),
            [s] if s.eq_ignore_ascii_case("black") => Ok(Command::Side(Some(Color::Black))),
            _ => Err("write side red or side black".into()),
        },
        "level" => match args.as_slice() {
            [n] => Ok(Command::Level(Level::Skill(n.to_string()))),
            [e, n] if e.eq_ignore_ascii_case("elo") => {
                Ok(Command::Level(Level::Elo(n.to_string())))
            }
            _ => Err("write level N (0-20) or level elo N".into()),
        },
        "time" => match args.as_slice() {
            [tc] => tc.parse().map(Command::Time),
            _ => Err("write time BASE+INC in seconds, e.g. time 60+1".into()),
        },
        "movetime" => match args.as_slice() {
            [ms] => number(ms, "milliseconds")
                .and_then(|ms| {
                    (ms > 0)
                        .then_some(ms)
                        .ok_or_else(|| "the move time must be above 0".to_string())
                })
                .map(|ms| Command::Time(TimeControl::MoveTime(ms))),
            _ => Err("write movetime MS, e.g. movetime 1000".into()),
        },
        "nodes" => match args.as_slice() {
            [n] => number(n, "nodes")
                .and_then(|n| {
                    (n > 0)
                        .then_some(n)
                        .ok_or_else(|| "the node count must be above 0".to_string())
                })
                .map(|n| Command::Time(TimeControl::Nodes(n))),
            _ => Err("write nodes N, e.g. nodes 20000".into()),
        },
        "fen" => Ok(Command::Fen((!rest.is_empty()).then(|| rest.to_string()))),
        "save" => {
            if rest.is_empty() {
                Err("write save FILE".into())
            } else {
                Ok(Command::Save(PathBuf::from(rest)))
            }
        }
        _ => Ok(Command::Move(line.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(parse("  "), Ok(Command::Empty));
        assert_eq!(parse("UNDO"), Ok(Command::Undo));
        assert_eq!(parse("side black"), Ok(Command::Side(Some(Color::Black))));
        assert_eq!(parse("side"), Ok(Command::Side(None)));
        assert!(parse("side green").is_err());
        assert_eq!(
            parse("level elo 1500"),
            Ok(Command::Level(Level::Elo("1500".into())))
        );
        assert_eq!(
            parse("time 60+1"),
            Ok(Command::Time(TimeControl::Clock {
                base_ms: 60_000,
                inc_ms: 1_000
            }))
        );
        assert_eq!(
            parse("movetime 200"),
            Ok(Command::Time(TimeControl::MoveTime(200)))
        );
        assert!(parse("movetime 0").is_err());
        assert!(parse("nodes many").is_err());
        assert_eq!(
            parse("fen startpos"),
            Ok(Command::Fen(Some("startpos".into())))
        );
        assert_eq!(parse("fen"), Ok(Command::Fen(None)));
        assert_eq!(
            parse("save my game.pgn"),
            Ok(Command::Save(PathBuf::from("my game.pgn")))
        );
        assert!(parse("save").is_err());
        assert!(parse("hint now").is_err());
        assert_eq!(parse("炮二平五"), Ok(Command::Move("炮二平五".into())));
        assert_eq!(parse(" h2e2 "), Ok(Command::Move("h2e2".into())));
    }
}
