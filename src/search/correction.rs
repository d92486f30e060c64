//! Static-evaluation correction history: how far the search's results at nodes with a given
//! soldier structure, advisors and elephants, each side's other pieces, or the same recent
//! moves, lay from their static evaluation. The sum, weighted, corrects the static evaluation
//! before pruning decisions use it (as in Stockfish and Pikafish since 2024). Each table is kept
//! per side to move; the evaluation stored in the transposition table stays uncorrected.

use super::history::PIECE_TO_COUNT;
use super::params::{
    corr_continuation_weight, corr_defender_weight, corr_non_soldier_weight, corr_soldier_weight,
};
use engine_core::Position;

/// Bound of an entry (gravity keeps it within ±this).
const CORRECTION_MAX: i32 = 1024;
/// Entries of each keyed table (a power of two).
const SLOTS: usize = 1 << 14;
/// The weighted sum of the entries is divided by this to give evaluation units.
const WEIGHT_SCALE: i32 = 128;
/// Bonus per ply of depth: a result `d` units from the static evaluation at `depth` moves the
/// entries by `d * depth / BONUS_DEPTH_DIVISOR` (at most a quarter of the bound) ...
const BONUS_DEPTH_DIVISOR: i32 = 8;
/// ... towards it, scaled down near the bound ([`CORRECTION_MAX`]) like the move histories.
const BONUS_MAX: i32 = CORRECTION_MAX / 4;

#[inline(always)]
fn slot(key: u64) -> usize {
    // The high bits: the table is small, and the low bits also choose transposition slots.
    (key >> (u64::BITS - SLOTS.trailing_zeros())) as usize
}

/// Adds `bonus` to `entry` with gravity, keeping it within ±[`CORRECTION_MAX`].
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let v = i32::from(*entry);
    *entry = (v + bonus - v * bonus.abs() / CORRECTION_MAX) as i16;
}

/// The moves before a node that its continuation correction is keyed by: the (piece,
/// destination) of the move one ply back, paired with those of the moves two and four plies
/// back (`None` for a null move or beyond the root).
#[derive(Copy, Clone, Default, Debug)]
pub struct CorrectionContext {
    /// `[one ply back, two plies back, four plies back]`.
    pub moves: [Option<usize>; 3],
}

impl CorrectionContext {
    /// The continuation table's indices of this node: (2 back, 1 back) and (4 back, 1 back).
    #[inline(always)]
    fn pairs(&self) -> impl Iterator<Item = usize> + '_ {
        let last = self.moves[0];
        self.moves[1..]
            .iter()
            .filter_map(move |&earlier| Some(earlier? * PIECE_TO_COUNT + last?))
    }
}

/// One search thread's correction tables.
pub struct CorrectionHistory {
    /// `[side to move][soldiers key]`.
    soldiers: Vec<i16>,
    /// `[side to move][advisors and elephants key]`.
    defenders: Vec<i16>,
    /// `[side to move][colour of the pieces][that colour's non-soldier key]`.
    non_soldiers: Vec<i16>,
    /// `[earlier piece-to][last piece-to]`.
    continuation: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            soldiers: vec![0; 2 * SLOTS],
            defenders: vec![0; 2 * SLOTS],
            non_soldiers: vec![0; 4 * SLOTS],
            continuation: vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT],
        }
    }
}

/// The indices of a node's entries in the keyed tables.
struct Slots {
    soldiers: usize,
    defenders: usize,
    non_soldiers: [usize; 2],
}

impl Slots {
    #[inline(always)]
    fn of(pos: &Position) -> Slots {
        let stm = pos.side_to_move().index();
        let keys = pos.part_keys();
        let non_soldier = |c: usize| (stm * 2 + c) * SLOTS + slot(keys.non_soldiers[c]);
        Slots {
            soldiers: stm * SLOTS + slot(keys.soldiers),
            defenders: stm * SLOTS + slot(keys.defenders),
            non_soldiers: [non_soldier(0), non_soldier(1)],
        }
    }
}

impl CorrectionHistory {
    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.soldiers.fill(0);
        self.defenders.fill(0);
        self.non_soldiers.fill(0);
        self.continuation.fill(0);
    }

    /// The correction to add to the static evaluation of `pos` (reached after `context`), in
    /// evaluation units.
    #[inline]
    pub fn correction(&self, pos: &Position, context: &CorrectionContext) -> i32 {
        let s = Slots::of(pos);
        let entry = |table: &[i16], i: usize| i32::from(table[i]);
        let continuation: i32 = context.pairs().map(|i| entry(&self.continuation, i)).sum();
        let weighted = corr_soldier_weight() * entry(&self.soldiers, s.soldiers)
            + corr_defender_weight() * entry(&self.defenders, s.defenders)
            + corr_non_soldier_weight()
                * (entry(&self.non_soldiers, s.non_soldiers[0])
                    + entry(&self.non_soldiers, s.non_soldiers[1]))
            + corr_continuation_weight() * continuation;
        weighted / WEIGHT_SCALE
    }

    /// Moves the entries of `pos` towards a search result `diff` units from its (corrected)
    /// static evaluation, found at `depth`.
    pub fn update(&mut self, pos: &Position, context: &CorrectionContext, diff: i32, depth: i32) {
        let bonus = (diff * depth / BONUS_DEPTH_DIVISOR).clamp(-BONUS_MAX, BONUS_MAX);
        let s = Slots::of(pos);
        gravity(&mut self.soldiers[s.soldiers], bonus);
        gravity(&mut self.defenders[s.defenders], bonus);
        gravity(&mut self.non_soldiers[s.non_soldiers[0]], bonus);
        gravity(&mut self.non_soldiers[s.non_soldiers[1]], bonus);
        for i in context.pairs() {
            gravity(&mut self.continuation[i], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::RankBase;

    #[test]
    fn results_above_the_evaluation_raise_the_correction_of_that_structure_only() {
        let mut pos = Position::startpos();
        let context = CorrectionContext {
            moves: [Some(5), Some(7), None],
        };
        let mut corr = CorrectionHistory::default();
        assert_eq!(corr.correction(&pos, &context), 0);
        for _ in 0..50 {
            corr.update(&pos, &context, 300, 10);
        }
        let raised = corr.correction(&pos, &context);
        assert!(raised > 0, "{raised}");
        // Bounded: every entry stays within the bound.
        let tables = [
            &corr.soldiers,
            &corr.defenders,
            &corr.non_soldiers,
            &corr.continuation,
        ];
        assert!(tables
            .iter()
            .all(|t| t.iter().all(|&v| i32::from(v).abs() <= CORRECTION_MAX)));
        // The same placement with the other side to move shares nothing.
        let null = pos.make_null();
        assert_eq!(corr.correction(&pos, &CorrectionContext::default()), 0);
        pos.unmake_null(null);
        // Another soldier structure keeps the other tables' part.
        let mut moved = pos.clone();
        moved.make_move(moved.parse_move("c3c4", RankBase::Zero).unwrap());
        let black_to_move = corr.correction(&moved, &CorrectionContext::default());
        assert_eq!(black_to_move, 0, "the other side to move");
        moved.make_move(moved.parse_move("c6c5", RankBase::Zero).unwrap());
        let partial = corr.correction(&moved, &CorrectionContext::default());
        assert!(partial > 0 && partial < raised, "{partial} of {raised}");
        // A result below lowers it again.
        for _ in 0..200 {
            corr.update(&pos, &context, -300, 10);
        }
        assert!(corr.correction(&pos, &context) < 0);
        corr.clear();
        assert_eq!(corr.correction(&pos, &context), 0);
    }
}
