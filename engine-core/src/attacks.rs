//! Precomputed move and attack tables, built at compile time (no lazy initialisation in the hot path).
//!
//! Sliding pieces use occupancy lookups per line: a rank's 9 occupancy bits come straight out of
//! the `u128` board with one shift, a file's 10 bits are kept incrementally by the position
//! (`file_occ`). The tables map (square on the line, line occupancy) to the attacked squares of that
//! line, for the chariot (first blocker included) and for the cannon's captures (the piece after the
//! screen). All tables of this file take about 162 KB (the line tables 58 KB of it, the 4-bit
//! leg and eye lookups 68 KB, the spread table 16 KB), so they fit in a 256 KB L2 cache.

use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::square::Square;

const fn sq_bit(file: i32, rank: i32) -> u128 {
    if file < 0 || file > 8 || rank < 0 || rank > 9 {
        0
    } else {
        1u128 << (rank * 9 + file)
    }
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file <= 8 && rank >= 0 && rank <= 9
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 && rank >= 0 || rank >= 7 && rank <= 9)
}

/// Marker for "no square" in the leg/eye tables.
pub(crate) const NO_SQUARE: u8 = 0xFF;

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build_king() -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + ORTHO[d].0, r + ORTHO[d].1);
                if in_palace(nf, nr) {
                    t[s] |= sq_bit(nf, nr);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

const fn build_advisor() -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + DIAG[d].0, r + DIAG[d].1);
                if in_palace(nf, nr) {
                    t[s] |= sq_bit(nf, nr);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

/// Per square and diagonal direction: the elephant's eye and its target, or `NO_SQUARE`/0 when the
/// step leaves the board or crosses the river.
const fn build_elephant() -> ([[u8; 4]; 90], [[u128; 4]; 90]) {
    let mut eyes = [[NO_SQUARE; 4]; 90];
    let mut targets = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (tf, tr) = (f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            if on_board(tf, tr) && (r <= 4) == (tr <= 4) {
                eyes[s][d] = ((r + DIAG[d].1) * 9 + f + DIAG[d].0) as u8;
                targets[s][d] = sq_bit(tf, tr);
            }
            d += 1;
        }
        s += 1;
    }
    (eyes, targets)
}

/// Per square and orthogonal leg direction: the leg square and the (up to two) horse targets
/// through that leg.
const fn build_horse() -> ([[u8; 4]; 90], [[u128; 4]; 90]) {
    let mut legs = [[NO_SQUARE; 4]; 90];
    let mut targets = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let (lf, lr) = (f + df, r + dr);
            if on_board(lf, lr) {
                // Continue two steps in the leg direction, one step sideways.
                let t = if df == 0 {
                    sq_bit(f - 1, r + 2 * dr) | sq_bit(f + 1, r + 2 * dr)
                } else {
                    sq_bit(f + 2 * df, r - 1) | sq_bit(f + 2 * df, r + 1)
                };
                if t != 0 {
                    legs[s][d] = (lr * 9 + lf) as u8;
                    targets[s][d] = t;
                }
            }
            d += 1;
        }
        s += 1;
    }
    (legs, targets)
}

/// Reverse horse attacks: per target square and diagonal neighbour (the leg of any horse attacking
/// through it), the two squares from which a horse attacks the target.
const fn build_horse_attackers() -> ([[u8; 4]; 90], [[u128; 4]; 90]) {
    let mut legs = [[NO_SQUARE; 4]; 90];
    let mut sources = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if on_board(f + df, r + dr) {
                let src = sq_bit(f + 2 * df, r + dr) | sq_bit(f + df, r + 2 * dr);
                if src != 0 {
                    legs[s][d] = ((r + dr) * 9 + f + df) as u8;
                    sources[s][d] = src;
                }
            }
            d += 1;
        }
        s += 1;
    }
    (legs, sources)
}

const fn soldier_steps(color: usize, f: i32, r: i32) -> u128 {
    let (forward, crossed) = if color == 0 {
        (1, r >= 5)
    } else {
        (-1, r <= 4)
    };
    let mut t = sq_bit(f, r + forward);
    if crossed {
        t |= sq_bit(f - 1, r) | sq_bit(f + 1, r);
    }
    t
}

const fn build_soldier() -> ([[u128; 90]; 2], [[u128; 90]; 2]) {
    let mut moves = [[0u128; 90]; 2];
    let mut attackers = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            moves[c][s] = soldier_steps(c, f, r);
            s += 1;
        }
        // attackers[c][t] = squares from which a soldier of colour c moves to t.
        let mut s2 = 0;
        while s2 < 90 {
            let mut bits = moves[c][s2];
            while bits != 0 {
                let t = bits.trailing_zeros() as usize;
                attackers[c][t] |= 1u128 << s2;
                bits &= bits - 1;
            }
            s2 += 1;
        }
        c += 1;
    }
    (moves, attackers)
}

/// Ray directions, in the order of [`RAYS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards rank 9 (increasing index).
    North = 0,
    /// Towards file i (increasing index).
    East = 1,
    /// Towards rank 0 (decreasing index).
    South = 2,
    /// Towards file a (decreasing index).
    West = 3,
}

impl Direction {
    /// All four, increasing-index directions first.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// Whether squares along this ray have increasing indices (nearest = lowest bit).
    #[inline(always)]
    pub const fn is_increasing(self) -> bool {
        matches!(self, Direction::North | Direction::East)
    }
}

const fn build_rays() -> [[u128; 90]; 4] {
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut t = [[0u128; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 90 {
            let (mut f, mut r) = ((s % 9) as i32, (s / 9) as i32);
            loop {
                f += steps[d].0;
                r += steps[d].1;
                if !on_board(f, r) {
                    break;
                }
                t[d][s] |= sq_bit(f, r);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// Slides along a line of `len` points from `pos` with occupancy `occ`; returns (chariot attacks
/// including the first blocker, cannon captures = the first piece after the screen).
const fn slide_line(pos: i32, occ: u32, len: i32) -> (u16, u16) {
    let mut rook = 0u16;
    let mut cannon = 0u16;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        let mut screened = false;
        while p >= 0 && p < len {
            let occupied = occ & (1 << p) != 0;
            if !screened {
                rook |= 1 << p;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << p;
                break;
            }
            p += dir;
        }
        dir += 2;
    }
    (rook, cannon)
}

const fn build_rank_slides() -> ([[u16; 512]; 9], [[u16; 512]; 9]) {
    let mut rook = [[0u16; 512]; 9];
    let mut cannon = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            let (r, c) = slide_line(f as i32, occ as u32, 9);
            rook[f][occ] = r;
            cannon[f][occ] = c;
            occ += 1;
        }
        f += 1;
    }
    (rook, cannon)
}

const fn build_file_slides() -> ([[u16; 1024]; 10], [[u16; 1024]; 10]) {
    let mut rook = [[0u16; 1024]; 10];
    let mut cannon = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let (a, c) = slide_line(r as i32, occ as u32, 10);
            rook[r][occ] = a;
            cannon[r][occ] = c;
            occ += 1;
        }
        r += 1;
    }
    (rook, cannon)
}

/// Spreads a 10-bit rank mask onto file a (bit `i` goes to square index `9 * i`).
const fn build_spread() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut i = 0;
        while i < 10 {
            if m & (1 << i) != 0 {
                t[m] |= 1u128 << (9 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
}

static KING_MOVES: [u128; 90] = build_king();
static ADVISOR_MOVES: [u128; 90] = build_advisor();
const ELEPHANT: ([[u8; 4]; 90], [[u128; 4]; 90]) = build_elephant();
const HORSE: ([[u8; 4]; 90], [[u128; 4]; 90]) = build_horse();
const HORSE_REV: ([[u8; 4]; 90], [[u128; 4]; 90]) = build_horse_attackers();
static HORSE_ATTACKER_LEGS: [[u8; 4]; 90] = HORSE_REV.0;
static HORSE_ATTACKER_SOURCES: [[u128; 4]; 90] = HORSE_REV.1;
const SOLDIER: ([[u128; 90]; 2], [[u128; 90]; 2]) = build_soldier();
static SOLDIER_MOVES: [[u128; 90]; 2] = SOLDIER.0;
static SOLDIER_ATTACKERS: [[u128; 90]; 2] = SOLDIER.1;
static RAYS: [[u128; 90]; 4] = build_rays();
const RANK_SLIDES: ([[u16; 512]; 9], [[u16; 512]; 9]) = build_rank_slides();
static RANK_ROOK: [[u16; 512]; 9] = RANK_SLIDES.0;
static RANK_CANNON: [[u16; 512]; 9] = RANK_SLIDES.1;
const FILE_SLIDES: ([[u16; 1024]; 10], [[u16; 1024]; 10]) = build_file_slides();
static FILE_ROOK: [[u16; 1024]; 10] = FILE_SLIDES.0;
static FILE_CANNON: [[u16; 1024]; 10] = FILE_SLIDES.1;
static SPREAD: [u128; 1024] = build_spread();

/// Expands per-direction targets into a table indexed by the 4-bit occupancy of the blocking
/// squares (leg or eye), bit `b` of the index standing for direction `dir_of_bit[b]`.
const fn build_blocked_lookup(
    targets: &[[u128; 4]; 90],
    dir_of_bit: [usize; 4],
) -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let mut idx = 0;
        while idx < 16 {
            let mut b = 0;
            while b < 4 {
                if idx & (1 << b) == 0 {
                    t[s][idx] |= targets[s][dir_of_bit[b]];
                }
                b += 1;
            }
            idx += 1;
        }
        s += 1;
    }
    t
}

// Orthogonal legs: index bits are S (-9), W (-1), E (+1), N (+9); ORTHO order is N, S, E, W.
static HORSE_BY_LEGS: [[u128; 16]; 90] = build_blocked_lookup(&HORSE.1, [1, 3, 2, 0]);
// Diagonal eyes/legs: index bits are SW (-10), SE (-8), NW (+8), NE (+10); DIAG order is
// NE (1,1), SE (1,-1), NW (-1,1), SW (-1,-1).
static ELEPHANT_BY_EYES: [[u128; 16]; 90] = build_blocked_lookup(&ELEPHANT.1, [3, 1, 2, 0]);
static HORSE_ATTACKERS_BY_LEGS: [[u128; 16]; 90] = build_blocked_lookup(&HORSE_REV.1, [3, 1, 2, 0]);

/// Occupancy of the four orthogonal neighbours of `sq` as a 4-bit index (S, W, E, N). Bits for
/// neighbours off the board are either zero or belong to directions whose targets are empty, so
/// they never change a lookup.
#[inline(always)]
fn orthogonal_index(sq: Square, occ: Bitboard) -> usize {
    let x = ((occ.0 << 9) >> sq.index()) as u32;
    ((x & 1) | ((x >> 7) & 2) | ((x >> 8) & 4) | ((x >> 15) & 8)) as usize
}

/// Occupancy of the four diagonal neighbours of `sq` as a 4-bit index (SW, SE, NW, NE); see
/// [`orthogonal_index`] for why off-board bits are harmless.
#[inline(always)]
fn diagonal_index(sq: Square, occ: Bitboard) -> usize {
    let x = ((occ.0 << 10) >> sq.index()) as u32;
    ((x & 1) | ((x >> 1) & 2) | ((x >> 16) & 4) | ((x >> 17) & 8)) as usize
}

/// General moves from `sq` (inside its palace; empty outside palaces).
#[inline(always)]
pub fn general_moves(sq: Square) -> Bitboard {
    Bitboard(KING_MOVES[sq.index()])
}

/// Advisor moves from `sq` (palace diagonals).
#[inline(always)]
pub fn advisor_moves(sq: Square) -> Bitboard {
    Bitboard(ADVISOR_MOVES[sq.index()])
}

/// Elephant targets from `sq` whose eyes are empty in `occ`, never across the river.
#[inline(always)]
pub fn elephant_moves(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ELEPHANT_BY_EYES[sq.index()][diagonal_index(sq, occ)])
}

/// Horse targets from `sq` whose legs are empty in `occ`.
#[inline(always)]
pub fn horse_moves(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE_BY_LEGS[sq.index()][orthogonal_index(sq, occ)])
}

/// Squares from which a horse would attack `sq`, given the occupancy of the legs (the diagonal
/// neighbours of `sq`).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(HORSE_ATTACKERS_BY_LEGS[sq.index()][diagonal_index(sq, occ)])
}

/// Soldier moves (and attacks) for a soldier of `color` on `sq`.
#[inline(always)]
pub fn soldier_moves(color: Color, sq: Square) -> Bitboard {
    Bitboard(SOLDIER_MOVES[color.index()][sq.index()])
}

/// Squares from which a soldier of `color` attacks `sq`.
#[inline(always)]
pub fn soldier_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(SOLDIER_ATTACKERS[color.index()][sq.index()])
}

/// All squares strictly beyond `sq` in direction `dir`.
#[inline(always)]
pub fn ray(dir: Direction, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir as usize][sq.index()])
}

#[inline(always)]
fn rank_bits(occ: Bitboard, rank: u8) -> usize {
    ((occ.0 >> (rank as u32 * 9)) as usize) & 0x1FF
}

/// Chariot attacks from `sq`: every square up to and including the first piece in each direction.
/// `file_occ` is the 10-bit occupancy of `sq`'s file (bit = rank), as kept by the position.
#[inline(always)]
pub fn chariot_attacks(sq: Square, occ: Bitboard, file_occ: u16) -> Bitboard {
    let (f, r) = (sq.file(), sq.rank());
    let along_rank = (RANK_ROOK[f as usize][rank_bits(occ, r)] as u128) << (r as u32 * 9);
    let along_file = SPREAD[FILE_ROOK[r as usize][file_occ as usize & 0x3FF] as usize] << f;
    Bitboard(along_rank | along_file)
}

/// Cannon captures from `sq`: the first piece after exactly one screen in each direction.
/// (Cannon quiet moves are `chariot_attacks & !occ`.)
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard, file_occ: u16) -> Bitboard {
    let (f, r) = (sq.file(), sq.rank());
    let along_rank = (RANK_CANNON[f as usize][rank_bits(occ, r)] as u128) << (r as u32 * 9);
    let along_file = SPREAD[FILE_CANNON[r as usize][file_occ as usize & 0x3FF] as usize] << f;
    Bitboard(along_rank | along_file)
}

/// The 10-bit occupancy of `file` computed from scratch (for hypothetical boards; the position
/// keeps these incrementally).
pub fn file_occupancy(occ: Bitboard, file: u8) -> u16 {
    let mut bits = 0u16;
    for rank in 0..10u32 {
        bits |= (((occ.0 >> (rank * 9 + file as u32)) & 1) as u16) << rank;
    }
    bits
}

/// The `d`-th (0..4) diagonal neighbour of `sq` as the leg of horses attacking `sq`, with the
/// squares such horses stand on. `None` where that neighbour is off the board.
#[inline(always)]
pub fn horse_attack_leg(sq: Square, d: usize) -> Option<(Square, Bitboard)> {
    let leg = HORSE_ATTACKER_LEGS[sq.index()][d];
    if leg == NO_SQUARE {
        None
    } else {
        Some((
            Square::from_index_unchecked(leg),
            Bitboard(HORSE_ATTACKER_SOURCES[sq.index()][d]),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s, 0).unwrap()
    }

    #[test]
    fn palace_and_river_tables() {
        assert_eq!(general_moves(sq("e0")).count(), 3);
        assert_eq!(general_moves(sq("e1")).count(), 4);
        assert_eq!(general_moves(sq("a0")).count(), 0);
        assert_eq!(advisor_moves(sq("e1")).count(), 4);
        assert_eq!(advisor_moves(sq("d0")).count(), 1);
        // Elephant on c4 may not cross to a6/e6.
        assert_eq!(elephant_moves(sq("c4"), Bitboard::EMPTY).count(), 2);
        assert_eq!(elephant_moves(sq("e7"), Bitboard::EMPTY).count(), 4);
        // Soldiers: red a3 forward only, red a5 forward and right.
        assert_eq!(soldier_moves(Color::Red, sq("a3")).count(), 1);
        assert_eq!(soldier_moves(Color::Red, sq("a5")).count(), 2);
        assert_eq!(soldier_moves(Color::Red, sq("e9")).count(), 2);
        assert_eq!(soldier_moves(Color::Black, sq("e4")).count(), 3);
    }

    #[test]
    fn horse_legs() {
        let occ = Bitboard::from_square(sq("b1"));
        // Horse b0: targets a2, c2 (leg b1), d1 (leg c0). Leg b1 blocked.
        assert_eq!(horse_moves(sq("b0"), Bitboard::EMPTY).count(), 3);
        assert_eq!(horse_moves(sq("b0"), occ).count(), 1);
        for s in Square::all() {
            for t in horse_moves(s, Bitboard::EMPTY) {
                assert!(horse_attackers(t, Bitboard::EMPTY).contains(s));
            }
        }
    }

    #[test]
    fn sliders() {
        let occ = Bitboard::from_square(sq("e3"))
            | Bitboard::from_square(sq("e6"))
            | Bitboard::from_square(sq("b0"));
        let e0 = sq("e0");
        let fo = file_occupancy(occ, 4);
        let r = chariot_attacks(e0, occ, fo);
        // e1 e2 e3 along the file, d0 c0 b0 f0 g0 h0 i0 along the rank.
        assert_eq!(r.count(), 3 + 3 + 4);
        let c = cannon_attacks(e0, occ, fo);
        assert_eq!(c, Bitboard::from_square(sq("e6")));
    }
}
