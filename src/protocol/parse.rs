//! One input line to a [`Command`], in the session's dialect: the commands UCI and UCCI share
//! first (`command`), then the dialect's own (`uci`, `ucci`); XBoard has a command set of its
//! own (`xboard`).

use super::command::{common, Command};
use super::dialect::Dialect;
use super::{ucci, uci, xboard};

/// Parses one line in `dialect`.
pub fn parse(line: &str, dialect: Dialect) -> Result<Command, String> {
    if dialect == Dialect::Xboard {
        return Ok(xboard::parse(line));
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&word, rest)) = tokens.split_first() else {
        return Ok(Command::Nothing);
    };
    if let Some(c) = common(word, rest) {
        return c;
    }
    match dialect {
        Dialect::Uci => uci::parse(word, rest),
        Dialect::Ucci => ucci::parse(word, rest),
        Dialect::Xboard => Ok(xboard::parse(line)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::PositionSpec;

    #[test]
    fn position_with_fen_and_moves() {
        let c = parse(
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0d0 e9d9",
            Dialect::Uci,
        )
        .unwrap();
        assert_eq!(
            c,
            Command::Position(PositionSpec {
                fen: Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into()),
                moves: vec!["e0d0".into(), "e9d9".into()],
            })
        );
        assert!(matches!(
            parse("position", Dialect::Uci),
            Ok(Command::BadPosition(_))
        ));
        assert!(matches!(
            parse("position banana", Dialect::Ucci),
            Ok(Command::BadPosition(_))
        ));
    }

    #[test]
    fn setoption_in_both_forms() {
        assert_eq!(
            parse("setoption name Move Overhead value 50", Dialect::Uci).unwrap(),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }
        );
        assert_eq!(
            parse("setoption usemillisec true", Dialect::Ucci).unwrap(),
            Command::SetOption {
                name: "usemillisec".into(),
                value: Some("true".into())
            }
        );
        assert_eq!(
            parse("setoption newgame", Dialect::Ucci).unwrap(),
            Command::SetOption {
                name: "newgame".into(),
                value: None
            }
        );
    }
}
