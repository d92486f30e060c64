//! A board packed into 32 bytes: a 90-bit occupancy and one 4-bit piece code per occupied square.
//!
//! The same packing serves the game-record header (the start position) and the in-memory training
//! positions ([`crate::data::PackedPosition`]), so there is one encoder and one decoder.

use engine_core::{Color, Piece, PieceKind, Position, Square};
use std::fmt::Write as _;

/// Bytes of the piece-code field: 32 nibbles, one per piece (a side has at most 16 pieces).
pub const PIECE_CODE_BYTES: usize = 16;
/// The most pieces a board holds (the most nibbles in the piece-code field).
pub const MAX_PIECES: usize = 2 * PIECE_CODE_BYTES;
/// Mask of the 90 valid occupancy bits.
const VALID_SQUARES: u128 = (1u128 << Square::COUNT) - 1;

/// The 4-bit code of a piece: `colour * 8 + kind` (Red 0-6, Black 8-14), the same numbering as
/// [`Piece::index`].
#[inline(always)]
pub fn piece_code(piece: Piece) -> u8 {
    piece.index() as u8
}

/// The piece with this 4-bit code, if the code names one (7 and 15 do not).
#[inline(always)]
pub fn piece_from_code(code: u8) -> Option<Piece> {
    let color = match code >> 3 {
        0 => Color::Red,
        1 => Color::Black,
        _ => return None,
    };
    let kind = *PieceKind::ALL.get(usize::from(code & 7))?;
    Some(Piece::new(color, kind))
}

/// Why 32 bytes are not a packed board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// An occupancy bit beyond square 89 is set.
    OccupancyBeyondBoard,
    /// More than [`MAX_PIECES`] squares are occupied.
    TooManyPieces(u32),
    /// The nibble for the `n`-th occupied square (0-based) is 7 or 15, which names no piece.
    BadPieceCode {
        /// Which occupied square, in ascending square order.
        nth: usize,
        /// The code found.
        code: u8,
    },
    /// A nibble after the last piece is not zero.
    NonZeroPadding,
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::OccupancyBeyondBoard => {
                write!(f, "occupancy has a bit set beyond square 89")
            }
            BoardError::TooManyPieces(n) => {
                write!(f, "{n} occupied squares, at most {MAX_PIECES} possible")
            }
            BoardError::BadPieceCode { nth, code } => {
                write!(
                    f,
                    "piece code {code} (of occupied square {nth}) names no piece"
                )
            }
            BoardError::NonZeroPadding => write!(f, "unused piece-code nibbles are not zero"),
        }
    }
}

/// A board: which squares are occupied and by what. Only placement; side to move and counters
/// are kept by the containers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedBoard {
    /// Bit `s` set when square `s` (`rank * 9 + file`) is occupied; bits 90-127 are zero.
    pub occupancy: u128,
    /// One 4-bit [`piece_code`] per occupied square in ascending square order; the first in the
    /// low nibble of byte 0. Unused nibbles are zero.
    pub codes: [u8; PIECE_CODE_BYTES],
}

impl PackedBoard {
    /// Packs the placement of `pos`.
    pub fn from_position(pos: &Position) -> PackedBoard {
        PackedBoard::from_sorted_pieces(
            pos.occupied()
                .filter_map(|sq| pos.piece_at(sq).map(|piece| (sq, piece))),
        )
    }

    /// Packs pieces given in ascending square order (at most [`MAX_PIECES`]).
    fn from_sorted_pieces(pieces: impl Iterator<Item = (Square, Piece)>) -> PackedBoard {
        let mut board = PackedBoard {
            occupancy: 0,
            codes: [0; PIECE_CODE_BYTES],
        };
        for (n, (sq, piece)) in pieces.take(MAX_PIECES).enumerate() {
            board.occupancy |= 1u128 << sq.index();
            board.codes[n / 2] |= piece_code(piece) << (4 * (n % 2));
        }
        board
    }

    /// The mirror image of this board (every piece on [`Square::flip_file`] of its square).
    pub fn mirrored_files(&self) -> PackedBoard {
        let mut mirrored: arrayvec::ArrayVec<(Square, Piece), MAX_PIECES> =
            self.pieces().map(|(sq, p)| (sq.flip_file(), p)).collect();
        mirrored.sort_unstable_by_key(|&(sq, _)| sq.index());
        PackedBoard::from_sorted_pieces(mirrored.into_iter())
    }

    /// Checks the invariants a decoder relies on.
    pub fn validate(&self) -> Result<(), BoardError> {
        if self.occupancy & !VALID_SQUARES != 0 {
            return Err(BoardError::OccupancyBeyondBoard);
        }
        let count = self.occupancy.count_ones();
        if count as usize > MAX_PIECES {
            return Err(BoardError::TooManyPieces(count));
        }
        for nth in 0..MAX_PIECES {
            let code = self.code(nth);
            if nth < count as usize {
                if piece_from_code(code).is_none() {
                    return Err(BoardError::BadPieceCode { nth, code });
                }
            } else if code != 0 {
                return Err(BoardError::NonZeroPadding);
            }
        }
        Ok(())
    }

    /// The nibble of the `nth` occupied square.
    #[inline(always)]
    fn code(&self, nth: usize) -> u8 {
        (self.codes[nth / 2] >> (4 * (nth % 2))) & 0xF
    }

    /// The pieces and their squares in ascending square order. Codes that name no piece are
    /// skipped (a validated board has none).
    #[inline]
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occ = self.occupancy & VALID_SQUARES;
        let mut nth = 0usize;
        std::iter::from_fn(move || {
            while occ != 0 && nth < MAX_PIECES {
                let index = occ.trailing_zeros() as usize;
                occ &= occ - 1;
                let code = self.code(nth);
                nth += 1;
                if let (Some(sq), Some(piece)) = (Square::from_index(index), piece_from_code(code))
                {
                    return Some((sq, piece));
                }
            }
            None
        })
    }

    /// Number of pieces on the board.
    #[inline]
    pub fn piece_count(&self) -> u32 {
        (self.occupancy & VALID_SQUARES).count_ones()
    }

    /// The board field of a FEN (Black's back rank first).
    pub fn fen_board(&self) -> String {
        let mut mailbox = [None; Square::COUNT];
        for (sq, piece) in self.pieces() {
            mailbox[sq.index()] = Some(piece);
        }
        let mut out = String::with_capacity(64);
        for rank in (0..10usize).rev() {
            let mut empty = 0;
            for file in 0..9usize {
                match mailbox[rank * 9 + file] {
                    Some(piece) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The whole FEN of this board with the given side to move and counters.
    pub fn fen(&self, side: Color, no_capture_plies: u16, fullmove: u16) -> String {
        let side = match side {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        format!(
            "{} {side} - - {no_capture_plies} {fullmove}",
            self.fen_board()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::START_FEN;

    #[test]
    fn packs_and_unpacks_the_start_position() {
        let pos = Position::from_fen(START_FEN).unwrap();
        let board = PackedBoard::from_position(&pos);
        board.validate().unwrap();
        assert_eq!(board.piece_count(), 32);
        assert_eq!(board.fen(Color::Red, 0, 1), START_FEN);
        let pieces: Vec<_> = board.pieces().collect();
        assert_eq!(pieces.len(), 32);
        for (sq, piece) in pieces {
            assert_eq!(pos.piece_at(sq), Some(piece));
        }
    }

    #[test]
    fn every_code_round_trips() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(piece_from_code(piece_code(p)), Some(p));
            }
        }
        assert_eq!(piece_from_code(7), None);
        assert_eq!(piece_from_code(15), None);
        assert_eq!(piece_from_code(16), None);
    }

    #[test]
    fn validation_names_the_problem() {
        let pos = Position::from_fen(START_FEN).unwrap();
        let good = PackedBoard::from_position(&pos);
        let mut b = good;
        b.occupancy |= 1 << 100;
        assert_eq!(b.validate(), Err(BoardError::OccupancyBeyondBoard));
        let mut b = good;
        b.codes[3] = 0x7F;
        assert_eq!(
            b.validate(),
            Err(BoardError::BadPieceCode { nth: 6, code: 15 })
        );
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        let mut b = PackedBoard::from_position(&bare);
        b.validate().unwrap();
        b.codes[5] = 1;
        assert_eq!(b.validate(), Err(BoardError::NonZeroPadding));
    }
}
