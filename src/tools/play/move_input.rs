//! The player's move as typed, in any notation the engine reads (`炮二平五`, `C2=5`, `h2e2`,
//! `P2-5`): read by engine-core's PGN movetext reader, which tries every notation as `cotuong
//! judge` does, and when nothing fits, a one-line hint with some legal moves to copy.

use engine_core::pgn::{read_movetext, PgnErrorKind};
use engine_core::{Move, Notation, Position};

use super::super::pgn_file::NotationChoice;

/// Legal moves the hint on bad input shows.
const HINT_MOVES: usize = 6;

/// The move `text` names in `pos`, read in the first notation that fits; the error says why
/// none does.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, String> {
    let notations = NotationChoice::Auto.candidates(None);
    match read_movetext(pos.clone(), text, &notations) {
        Ok(game) => match game.moves.as_slice() {
            [one] => Ok(one.mv),
            [] => Err(format!("'{}' is not a move or a command", text.trim())),
            _ => Err("one move at a time, please".to_string()),
        },
        Err(e) => Err(match e.kind {
            PgnErrorKind::BadMove { error, .. } => error.to_string(),
            kind => format!("'{}' is not a move: {kind}", text.trim()),
        }),
    }
}

/// The one-line answer to input that is neither a command nor a legal move: why, the notations
/// tried and a few legal moves in `notation`.
pub fn bad_input_hint(pos: &Position, why: &str, notation: Notation) -> String {
    let mut examples: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| notation.format(pos, m))
        .collect();
    examples.sort();
    examples.dedup();
    let total = examples.len();
    examples.truncate(HINT_MOVES);
    let legal = if total == 0 {
        "there is no legal move here".to_string()
    } else {
        format!(
            "legal moves here include {}{}",
            examples.join(", "),
            if total > HINT_MOVES { ", ..." } else { "" }
        )
    };
    format!(
        "? {why} (tried {}); {legal}; 'help' lists the commands",
        Notation::NAMES.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reads_and_bad_text_gets_a_hint() {
        let pos = Position::startpos();
        let h2e2 = read_move(&pos, "h2e2").expect("ICCS");
        for text in ["炮二平五", "C2=5", "P2-5", "P2=5", "c2.5", " H2-E2 "] {
            assert_eq!(read_move(&pos, text), Ok(h2e2), "{text}");
        }
        assert!(read_move(&pos, "h2e2 h9g7").is_err());
        let why = read_move(&pos, "xyzzy").unwrap_err();
        let hint = bad_input_hint(&pos, &why, Notation::Chinese);
        assert!(hint.starts_with("? "), "{hint}");
        assert!(hint.contains("tried iccs, wxf, chinese"), "{hint}");
        assert!(hint.contains("legal moves here include "), "{hint}");
        assert!(!hint.contains('\n'));
        assert!(
            read_move(&pos, "a0a5").is_err(),
            "illegal moves are refused"
        );
    }
}
