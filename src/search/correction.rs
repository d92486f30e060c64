//! Correction history: how far the static evaluation has been from the search's results in
//! positions that share a feature (the pawn structure; each side's other pieces), learnt during
//! the search and added to the static evaluation before pruning decisions use it. The net and
//! the handcrafted evaluation both misjudge some structures consistently; the search sees it
//! and the correction carries that knowledge to sibling positions.

use engine_core::{Color, PieceKind, Position};

/// Entries per table (a power of two).
const ENTRIES: usize = 16_384;
/// Correction values are kept in units of 1/`GRAIN` of an evaluation unit, so small updates
/// accumulate.
const GRAIN: i32 = 256;
/// An entry never corrects by more than this many evaluation units.
const MAX_CORRECTION: i32 = 64;
/// Weight (out of [`WEIGHT_SCALE`]) of a new result searched `depth` deep: `depth + 1`, up to
/// this.
const MAX_WEIGHT: i32 = 16;
/// See [`MAX_WEIGHT`].
const WEIGHT_SCALE: i32 = 256;

/// Odd multipliers that spread a bitboard's two halves over a table index.
const MIX: [u64; 4] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
];

/// A table index from the bitboards `a` (side to move's) and `b` (the other side's).
#[inline(always)]
fn index_of(a: u128, b: u128) -> usize {
    let h = (a as u64).wrapping_mul(MIX[0])
        ^ ((a >> 64) as u64).wrapping_mul(MIX[1])
        ^ (b as u64).wrapping_mul(MIX[2])
        ^ ((b >> 64) as u64).wrapping_mul(MIX[3]);
    (h >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// The correction tables of one search thread, each per side to move.
pub struct CorrectionHistory {
    /// Keyed by both sides' soldiers.
    pawns: Vec<[i32; 2]>,
    /// Keyed by the side to move's pieces other than soldiers ...
    own_pieces: Vec<[i32; 2]>,
    /// ... and by the opponent's.
    their_pieces: Vec<[i32; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: vec![[0; 2]; ENTRIES],
            own_pieces: vec![[0; 2]; ENTRIES],
            their_pieces: vec![[0; 2]; ENTRIES],
        }
    }
}

/// The table indices of a position.
struct Keys {
    side: usize,
    pawns: usize,
    own: usize,
    theirs: usize,
}

fn keys(pos: &Position) -> Keys {
    let us = pos.side_to_move();
    let them = us.opponent();
    let pawns = |c: Color| pos.pieces_of(c, PieceKind::Soldier).0;
    let others = |c: Color| pos.pieces(c).0 & !pawns(c);
    Keys {
        side: us.index(),
        pawns: index_of(pawns(us), pawns(them)),
        own: index_of(others(us), 0),
        theirs: index_of(0, others(them)),
    }
}

impl CorrectionHistory {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        for t in [
            &mut self.pawns,
            &mut self.own_pieces,
            &mut self.their_pieces,
        ] {
            t.fill([0; 2]);
        }
    }

    /// The correction to add to the static evaluation of `pos`: the mean of the soldier
    /// table and the two piece tables together, each with half the weight.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let k = keys(pos);
        (2 * self.pawns[k.pawns][k.side]
            + self.own_pieces[k.own][k.side]
            + self.their_pieces[k.theirs][k.side])
            / (4 * GRAIN)
    }

    /// Learns from a search of `pos` `depth` deep that scored `score` where the uncorrected
    /// static evaluation said `static_eval`.
    pub fn update(&mut self, pos: &Position, depth: i32, score: i32, static_eval: i32) {
        let k = keys(pos);
        let target = (score - static_eval).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).min(MAX_WEIGHT);
        let blend = |e: &mut i32| {
            *e = (*e * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        };
        blend(&mut self.pawns[k.pawns][k.side]);
        blend(&mut self.own_pieces[k.own][k.side]);
        blend(&mut self.their_pieces[k.theirs][k.side]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_results_pull_the_correction_towards_them_within_the_bound() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correction(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 10, 500, 20);
        }
        let corr = c.correction(&pos);
        assert!(
            (MAX_CORRECTION - 2..=MAX_CORRECTION).contains(&corr),
            "{corr}"
        );
        for _ in 0..200 {
            c.update(&pos, 10, -30, 0);
        }
        let corr = c.correction(&pos);
        assert!((-30..=-28).contains(&corr), "{corr}");
        c.clear();
        assert_eq!(c.correction(&pos), 0);
    }
}
