//! Opening positions: one per line, a FEN (six fields), an EPD (four, then operations such as
//! `id "..."`; see [`EpdRecord`]) or `startpos`, optionally followed by `moves m1 m2 ...` in
//! ICCS text (ranks 0-9). Blank lines and lines starting with `#` are skipped. Every line is
//! checked when the file is loaded, so a bad file fails before any game.

use engine_core::{Move, Position, RankBase};
use std::path::Path;

use crate::tools::epd::{EpdRecord, Operation};

/// A validated opening: where the game starts and the book moves played before the engines move.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position of the FEN field.
    pub start: Position,
    /// Book moves from `start` (played into the game record, marked as book).
    pub moves: Vec<Move>,
    /// The line's EPD operations (`bm`, `am`, `id`, ...), for a test suite.
    pub operations: Vec<Operation>,
}

impl Opening {
    /// The normal start position with no book moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            operations: Vec::new(),
        }
    }

    /// Parses one line; `None` for comments and blank lines.
    pub fn parse_line(line: &str) -> Option<Result<Opening, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        Some(Self::parse(line).and_then(|o| {
            if o.final_position().has_legal_move() {
                Ok(o)
            } else {
                Err("the position has no legal move".into())
            }
        }))
    }

    /// Parses one line like [`Opening::parse_line`], a finished position included (for the
    /// analysis, which reports its result).
    pub fn parse_line_finished_too(line: &str) -> Option<Result<Opening, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        Some(Self::parse(line))
    }

    /// The position after the moves.
    fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        pos
    }

    fn parse(line: &str) -> Result<Opening, String> {
        let record = EpdRecord::parse(line)?;
        let fen = record.fen;
        let start = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for text in &record.moves {
            let mv = pos
                .parse_move(text, RankBase::Zero)
                .map_err(|e| format!("move after the FEN: {e}"))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        Ok(Opening {
            start,
            moves,
            operations: record.operations,
        })
    }
}

/// Loads and validates an opening file; errors name the file and line.
pub fn load_openings(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read opening file {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(parsed) = Opening::parse_line(line) {
            openings.push(parsed.map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
        }
    }
    if openings.is_empty() {
        return Err(format!("opening file {} has no positions", path.display()));
    }
    Ok(openings)
}

/// Picks the opening order: file order, or a shuffle that depends only on `seed` so that a
/// resumed run uses the same openings.
pub fn opening_order(count: usize, random: bool, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..count).collect();
    if random {
        // Fisher-Yates with splitmix64: small, deterministic, no dependency.
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        for i in (1..count).rev() {
            let j = (next() % (i as u64 + 1)) as usize;
            idx.swap(i, j);
        }
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::START_FEN;

    #[test]
    fn fen_forms_and_moves() {
        let o = Opening::parse_line(&format!("{START_FEN} moves h2e2 h9g7"))
            .unwrap()
            .unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.start.to_fen(), START_FEN);
        let epd = Opening::parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -; c0 \"x\"",
        )
        .unwrap()
        .unwrap();
        assert_eq!(epd.start.to_fen(), START_FEN);
        assert!(Opening::parse_line("# comment").is_none());
        assert!(Opening::parse_line("   ").is_none());
    }

    #[test]
    fn standard_epd_lines_are_openings() {
        let o = Opening::parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"a\";",
        )
        .unwrap()
        .unwrap();
        assert_eq!(o.start.to_fen(), START_FEN);
        assert!(o.moves.is_empty());
        assert_eq!(o.operations.len(), 2);
        assert_eq!(o.operations[1].operands, ["a"]);
    }

    #[test]
    fn bad_lines_are_errors() {
        assert!(Opening::parse_line("not a fen").unwrap().is_err());
        assert!(Opening::parse_line(&format!("{START_FEN} moves h2h8"))
            .unwrap()
            .is_err());
        assert!(Opening::parse_line(&format!("{START_FEN} moves zz"))
            .unwrap()
            .is_err());
        assert!(load_openings(Path::new("/nonexistent/openings.txt")).is_err());
    }

    #[test]
    fn shuffle_is_a_deterministic_permutation() {
        let a = opening_order(50, true, 7);
        assert_eq!(a, opening_order(50, true, 7));
        assert_ne!(a, opening_order(50, true, 8));
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_eq!(opening_order(3, false, 7), vec![0, 1, 2]);
    }
}
