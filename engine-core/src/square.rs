//! Board coordinates.
//!
//! Files `a`..`i` run from Red's left to Red's right, ranks `0`..`9` from Red's back rank to Black's.
//! A square's index is `rank * 9 + file`, so one rank occupies 9 consecutive bits of a [`Bitboard`](crate::Bitboard)
//! and rank occupancy can be read with a single shift.

use std::fmt;

/// Number of files (a..i).
pub const FILES: u8 = 9;
/// Number of ranks (0..9).
pub const RANKS: u8 = 10;

const fn build_coordinates() -> ([u8; 90], [u8; 90]) {
    let mut files = [0u8; 90];
    let mut ranks = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        files[i] = (i % 9) as u8;
        ranks[i] = (i / 9) as u8;
        i += 1;
    }
    (files, ranks)
}

/// File and rank of each index: table lookups are cheaper than division by 9 in move generation.
static COORDINATES: ([u8; 90], [u8; 90]) = build_coordinates();

/// One of the 90 intersections. The invariant `index < 90` is upheld by every constructor,
/// so tables indexed by a `Square` never need bounds checks to be correct.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 90;

    /// The square on `file` (0 = a) and `rank` (0 = Red's back rank), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with this index (`rank * 9 + file`), if it is below 90.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Internal constructor for indices already known to be valid (table builders, bit scans of
    /// 90-bit boards). Checked in debug builds.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// Index in `0..90`, usable for table lookups.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 (a) to 8 (i).
    #[inline(always)]
    pub fn file(self) -> u8 {
        COORDINATES.0[self.0 as usize]
    }

    /// Rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline(always)]
    pub fn rank(self) -> u8 {
        COORDINATES.1[self.0 as usize]
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self.0 % FILES) as i8 + df;
        let r = (self.0 / FILES) as i8 + dr;
        if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
            Some(Square((r as u8) * FILES + f as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (rank `r` becomes `9 - r`); used for
    /// colour-symmetric tables.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.0 / FILES) * FILES + self.0 % FILES)
    }

    /// The same square in the mirror image of the board (file `f` becomes `8 - f`, same rank).
    /// Xiangqi's rules are symmetric under this mirror, so a position and its mirror image have
    /// the same value.
    #[inline]
    pub const fn flip_file(self) -> Square {
        Square((self.0 / FILES) * FILES + (FILES - 1 - self.0 % FILES))
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// Parses ICCS-style text such as `e0` (with `rank_base` 0) or `e1` (with `rank_base` 1).
    pub fn parse(text: &str, rank_base: u8) -> Option<Square> {
        let bytes = text.as_bytes();
        let (&f, digits) = bytes.split_first()?;
        let file = f.to_ascii_lowercase().wrapping_sub(b'a');
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut number: u8 = 0;
        for d in digits {
            number = number * 10 + (d - b'0');
        }
        if digits.len() == 2 && digits[0] == b'0' {
            return None;
        }
        let rank = number.checked_sub(rank_base)?;
        Square::new(file, rank)
    }

    /// Writes the square as `file letter` + `rank + rank_base`.
    pub fn write_text(self, out: &mut String, rank_base: u8) {
        out.push((b'a' + self.file()) as char);
        let number = self.rank() + rank_base;
        if number >= 10 {
            out.push('1');
            out.push((b'0' + number - 10) as char);
        } else {
            out.push((b'0' + number) as char);
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), Some(sq));
            let mut s = String::new();
            sq.write_text(&mut s, 1);
            assert_eq!(Square::parse(&s, 1), Some(sq));
            assert_eq!(Square::parse(&sq.to_string(), 0), Some(sq));
        }
        assert_eq!(Square::parse("a10", 1), Square::new(0, 9));
        assert_eq!(Square::parse("a10", 0), None);
        assert_eq!(Square::parse("j0", 0), None);
        assert_eq!(Square::parse("a01", 1), None);
        assert_eq!(Square::parse("a0", 1), None);
    }
}
