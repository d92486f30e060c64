//! Zobrist hashing keys, generated at compile time from a fixed seed so keys (and thus bench
//! signatures and opening-book hashes) are identical on every build.

use crate::piece::{Color, Piece};
use crate::square::Square;

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_keys() -> ([[u64; 90]; 16], u64) {
    let mut keys = [[0u64; 90]; 16];
    let mut state = 0x00C0_7001_u64;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            let (next, value) = splitmix64(state);
            state = next;
            keys[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const KEYS: ([[u64; 90]; 16], u64) = build_keys();
static PIECE_SQUARE: [[u64; 90]; 16] = KEYS.0;

/// Key toggled when Black is to move.
pub const SIDE_TO_MOVE: u64 = KEYS.1;

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// Key contribution of the side to move.
#[inline(always)]
pub fn side(color: Color) -> u64 {
    match color {
        Color::Red => 0,
        Color::Black => SIDE_TO_MOVE,
    }
}
