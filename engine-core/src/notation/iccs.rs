//! ICCS coordinates: the origin and destination squares, files `a`-`i` from Red's left and ranks
//! 0-9 from Red's side (`h2e2`, UCI as in Pikafish, UCCI; `H2-E2` in ICCS game records) or 1-10
//! (`h3e3`, `a10a9`: cutechess and Fairy-Stockfish).

use super::{MoveTextError, Notation};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Which number the first rank gets in move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub enum RankBase {
    /// Ranks 0-9 (ICCS, UCCI, Pikafish).
    #[default]
    Zero,
    /// Ranks 1-10 (cutechess, Fairy-Stockfish).
    One,
}

impl RankBase {
    /// The number printed for rank 0.
    pub const fn offset(self) -> u8 {
        match self {
            RankBase::Zero => 0,
            RankBase::One => 1,
        }
    }
}

/// Parses `h2e2` / `H2-E2` (base 0) or `h3e3` / `a10a9` (base 1) into a move, without checking
/// legality.
pub fn parse_move(text: &str, base: RankBase) -> Result<Move, MoveTextError> {
    let malformed = || MoveTextError::malformed(text, Notation::Iccs(base));
    let t = text.trim();
    if !t.is_ascii() {
        return Err(malformed());
    }
    // Split after the first square: a letter followed by one or two digits.
    let bytes = t.as_bytes();
    let digits = bytes
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return Err(malformed());
    }
    // With two digits the square could be "a1" + "0..." only if the next char were a digit of
    // the destination file, which is a letter; so the longest digit run is the rank.
    let (first, rest) = t.split_at(1 + digits);
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let from = Square::parse(first, base.offset()).ok_or_else(malformed)?;
    let to = Square::parse(rest, base.offset()).ok_or_else(malformed)?;
    if from == to {
        return Err(malformed());
    }
    Ok(Move::new(from, to))
}

/// Formats `mv` with the given rank base.
pub fn move_text(mv: Move, base: RankBase) -> String {
    let mut s = String::with_capacity(6);
    mv.from().write_text(&mut s, base.offset());
    mv.to().write_text(&mut s, base.offset());
    s
}

impl Position {
    /// Parses coordinate move text and checks that the move is legal here.
    pub fn parse_move(&self, text: &str, base: RankBase) -> Result<Move, MoveTextError> {
        let mv = parse_move(text, base)?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(MoveTextError::illegal(text, Notation::Iccs(base), None))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_rank_bases() {
        let pos = Position::startpos();
        let a = pos.parse_move("h2e2", RankBase::Zero).unwrap();
        let b = pos.parse_move("h3e3", RankBase::One).unwrap();
        assert_eq!(a, b);
        assert_eq!(move_text(a, RankBase::Zero), "h2e2");
        assert_eq!(move_text(a, RankBase::One), "h3e3");
        assert_eq!(pos.parse_move("H2-E2", RankBase::Zero), Ok(a));
        let m = parse_move("a10a9", RankBase::One).unwrap();
        assert_eq!(move_text(m, RankBase::Zero), "a9a8");
        assert_eq!(move_text(m, RankBase::One), "a10a9");
        assert!(matches!(
            pos.parse_move("h2h8", RankBase::Zero),
            Err(MoveTextError::Illegal { .. })
        ));
        for bad in [
            "", "h2", "h2e", "z2e2", "h2e2x", "h22e2", "h-2e2", "é2e2", "h2h2", "a10a9",
        ] {
            assert!(
                matches!(
                    parse_move(bad, RankBase::Zero),
                    Err(MoveTextError::Malformed { .. })
                ),
                "{bad}"
            );
        }
    }
}
