//! Move ordering: the TT move first (before generating anything), then captures that do not lose
//! material by SEE (most valuable victim first, then by capture history), killers, the
//! counter-move, quiet moves by history and continuation history, and losing captures last.

use super::history::{Continuation, History};
use super::see::{see_ge, SEE_VALUE};
use arrayvec::ArrayVec;
use engine_core::{Move, MoveList, Piece, Position, MAX_MOVES};

/// Score band of captures that do not lose material.
const GOOD_CAPTURE: i32 = 4_000_000;
/// First killer.
const KILLER_1: i32 = 3_000_000;
/// Second killer.
const KILLER_2: i32 = 2_900_000;
/// Counter-move of the previous move.
const COUNTER: i32 = 2_800_000;
/// Score band of captures that lose material by SEE.
const BAD_CAPTURE: i32 = -4_000_000;
/// Weight of the victim's SEE value in a capture's order, against its capture history (at most
/// `HISTORY_MAX`): a history can reorder captures of close victims, never a chariot below a
/// pawn (their values differ by 800, times this exceeds twice `HISTORY_MAX`).
const VICTIM_WEIGHT: i32 = 48;

/// Which moves a picker yields.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum PickerKind {
    /// Every legal move (main search).
    All,
    /// Captures only, or every evasion when in check (quiescence).
    Quiescence,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    Yield,
}

/// Yields the legal moves of a node in a good order, lazily.
pub struct MovePicker {
    kind: PickerKind,
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    cont: Continuation,
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

impl MovePicker {
    /// A picker for `pos`. `tt_move` may be any value: it is checked with `is_legal`. `cont`
    /// names the moves before the node that quiet moves' continuation histories are keyed by.
    pub fn new(
        pos: &Position,
        kind: PickerKind,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        cont: Continuation,
    ) -> MovePicker {
        let tt_ok = !tt_move.is_null()
            && pos.is_legal(tt_move)
            && (kind == PickerKind::All || pos.in_check() || pos.piece_at(tt_move.to()).is_some());
        MovePicker {
            kind,
            stage: if tt_ok {
                Stage::TtMove
            } else {
                Stage::Generate
            },
            tt_move: if tt_ok { tt_move } else { Move::NULL },
            killers,
            counter,
            cont,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
        }
    }

    fn generate(&mut self, pos: &Position, history: &History) {
        self.moves = match self.kind {
            PickerKind::All => pos.legal_moves(),
            PickerKind::Quiescence if pos.in_check() => pos.legal_moves(),
            PickerKind::Quiescence => pos.legal_captures(),
        };
        self.scores.clear();
        let check_see = self.kind == PickerKind::All;
        for &mv in &self.moves {
            let s = if mv == self.tt_move {
                i32::MIN
            } else if let Some(victim) = pos.piece_at(mv.to()) {
                let order = VICTIM_WEIGHT * SEE_VALUE[victim.kind().index()]
                    + pos
                        .piece_at(mv.from())
                        .map_or(0, |p| history.capture_score(p, mv, victim.kind()));
                if !check_see || see_ge(pos, mv, 0) {
                    GOOD_CAPTURE + order
                } else {
                    BAD_CAPTURE + order
                }
            } else if mv == self.killers[0] {
                KILLER_1
            } else if mv == self.killers[1] {
                KILLER_2
            } else if mv == self.counter {
                COUNTER
            } else {
                let piece: Option<Piece> = pos.piece_at(mv.from());
                piece.map_or(0, |p| history.quiet_score(p, mv, &self.cont))
            };
            self.scores.push(s);
        }
    }

    /// The next move, or `None` when all have been yielded.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    return Some(self.tt_move);
                }
                Stage::Generate => {
                    self.generate(pos, history);
                    self.stage = Stage::Yield;
                }
                Stage::Yield => {
                    // Selection sort step: bring the best remaining move to `next`.
                    let n = self.moves.len();
                    if self.next >= n {
                        return None;
                    }
                    let best = self.next + first_max_index(&self.scores[self.next..n]);
                    self.moves.swap(self.next, best);
                    self.scores.swap(self.next, best);
                    let mv = self.moves[self.next];
                    let score = self.scores[self.next];
                    self.next += 1;
                    if score == i32::MIN && mv == self.tt_move {
                        continue;
                    }
                    return Some(mv);
                }
            }
        }
    }
}

/// The index of the first largest element of a non-empty slice. Two passes, the maximum and
/// then its first position, instead of one pass that carries the best index: the maximum
/// compiles to vector instructions and neither pass has a chain of dependent loads, so the
/// picker's selection step (its hottest loop) costs less and picks the same move.
#[inline(always)]
fn first_max_index(scores: &[i32]) -> usize {
    let max = scores.iter().copied().max().unwrap_or(i32::MIN);
    scores.iter().position(|&s| s == max).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::first_max_index;
    use proptest::prelude::*;

    /// The one-pass selection the picker used before: the first index whose score beats every
    /// earlier one.
    fn reference(scores: &[i32]) -> usize {
        let mut best = 0;
        for i in 1..scores.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        best
    }

    proptest! {
        /// Same index as the one-pass selection, ties included (few distinct values make ties
        /// common; the extremes of `i32` are among them).
        #[test]
        fn first_max_index_is_the_first_largest(
            scores in prop::collection::vec(
                prop_oneof![-3..3i32, Just(i32::MIN), Just(i32::MAX), any::<i32>()],
                1..120,
            )
        ) {
            prop_assert_eq!(first_max_index(&scores), reference(&scores));
        }
    }
}
