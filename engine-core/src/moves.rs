//! Compact moves and fixed-capacity move lists.

use crate::square::Square;
use arrayvec::ArrayVec;
use std::fmt;

/// A move packed into 16 bits: `from` in bits 0-6, `to` in bits 7-13. Small enough to store in
/// transposition-table entries and killer slots; the piece and capture are read from the position.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// "No move" (a0a0, which is never a real move): empty TT slots, null-move markers.
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7F) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as u8)
    }

    /// Whether this is [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The packed 16-bit form (for hash tables and files).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Unpacks a 16-bit form, rejecting values whose squares are off the board. The result is only
    /// a pair of squares: check it with `Position::is_legal` before playing it.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        let from = raw & 0x7F;
        let to = (raw >> 7) & 0x7F;
        if raw >> 14 != 0 || from >= 90 || to >= 90 {
            None
        } else {
            Some(Move(raw))
        }
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates with ranks 0-9 (`h2e2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Upper bound on pseudo-legal moves in any xiangqi position (2x17 chariot + 2x17 cannon +
/// 2x8 horse + 5x3 soldier + 4 + 2x4 + 2x4 = 119).
pub const MAX_MOVES: usize = 128;

/// A move list on the stack: no allocation in the search's hot path.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
