//! Rule outcomes inside the search: the no-capture limit, insufficient material and repetitions,
//! all decided by the engine-core referee under the engine's one [`RuleOptions`].
//!
//! The repetition verdict comes from the referee through one function, [`judge_repetition`]
//! (`judge_cycle_with`, the same judge `cotuong judge` and the match runner use). Inside the
//! search the *first* repetition of a position is judged: repeating is never better the second
//! time, so there is no reason to wait for the threshold the root verdict uses.
//!
//! Scores produced here depend on the path to the node (not only on its key), so the search
//! returns them before touching the transposition table and never stores them; what each outcome
//! depends on is reported in [`RuleOutcome::depends_on`] so that the search can keep such scores
//! out of the table in the nodes above as well (the policy is documented in `search::tt`).

use super::score::{mated_in, DRAW, RULE_WIN};
use engine_core::rules::{judge_cycle_with, CycleVerdict, RuleOptions};
use engine_core::{Move, Position};

/// Plies a repetition cycle needs at least (each side moves out and back).
const MIN_CYCLE_PLIES: usize = 4;

/// What a rule-decided score depends on besides the position itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleDependency {
    /// Nothing: the outcome follows from the position alone (bare material, no legal move).
    Position,
    /// A repetition whose earlier occurrence is `keys[first]` (an index into the path keys,
    /// game history included).
    Repetition {
        /// Index of the earlier occurrence in the key list.
        first: usize,
    },
    /// The no-capture counters (plies and checks since the last capture).
    NoCaptureCounter,
}

/// A node decided by a rule: its score and what the score depends on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleOutcome {
    /// Score from the side to move's view, root-relative for mates and rule wins.
    pub score: i32,
    /// Which part of the history the score depends on.
    pub depends_on: RuleDependency,
}

/// Scores a repetition: `cycle` holds the moves from the earlier occurrence of `pos` to now.
pub fn judge_repetition(pos: &Position, cycle: &[Move], ply: usize, rules: &RuleOptions) -> i32 {
    match judge_cycle_with(pos, cycle, rules) {
        CycleVerdict::Draw => DRAW,
        CycleVerdict::Loses(c) if c == pos.side_to_move() => -RULE_WIN + ply as i32,
        CycleVerdict::Loses(_) => RULE_WIN - ply as i32,
    }
}

/// The rule outcome of the node at the end of `keys` (its key is the last one; `moves[i]` led
/// from `keys[i]` to `keys[i + 1]`; `Move::NULL` marks a null move, which no cycle may cross).
/// `None` when no rule applies and the node must be searched.
///
/// Order as the referee's: the no-capture limit only after the legal-move test (a mate or
/// stalemate delivered on the limit ply still wins), then bare material, then repetition.
pub fn rule_outcome(
    pos: &Position,
    keys: &[u64],
    moves: &[Move],
    ply: usize,
    rules: &RuleOptions,
) -> Option<RuleOutcome> {
    if rules.no_capture_limit_reached(pos) {
        // The limit draws unless the side to move has just been mated (or stalemated).
        return Some(if pos.has_legal_move() {
            RuleOutcome {
                score: DRAW,
                depends_on: RuleDependency::NoCaptureCounter,
            }
        } else {
            RuleOutcome {
                score: mated_in(ply),
                depends_on: RuleDependency::Position,
            }
        });
    }
    if rules.insufficient_material_draw && pos.has_no_attacking_material() {
        return Some(RuleOutcome {
            score: DRAW,
            depends_on: RuleDependency::Position,
        });
    }
    let n = keys.len() - 1;
    let span = (pos.no_capture_plies() as usize).min(n);
    let key = keys[n];
    let mut back = 2;
    while back <= span {
        if moves[n - back].is_null() || moves[n - back + 1].is_null() {
            break;
        }
        if back >= MIN_CYCLE_PLIES && keys[n - back] == key {
            return Some(RuleOutcome {
                score: judge_repetition(pos, &moves[n - back..], ply, rules),
                depends_on: RuleDependency::Repetition { first: n - back },
            });
        }
        back += 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::RankBase;

    #[test]
    fn shuffling_back_and_forth_is_a_draw() {
        let mut pos = Position::startpos();
        let mut keys = vec![pos.key()];
        let mut moves = Vec::new();
        for text in ["b0c2", "b9c7", "c2b0", "c7b9"] {
            let mv = pos.parse_move(text, RankBase::Zero).unwrap();
            pos.make_move(mv);
            keys.push(pos.key());
            moves.push(mv);
        }
        let rules = RuleOptions::default();
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 4, &rules),
            Some(RuleOutcome {
                score: DRAW,
                depends_on: RuleDependency::Repetition { first: 0 }
            })
        );
        // Without the first two plies there is no earlier occurrence.
        assert_eq!(rule_outcome(&pos, &keys[2..], &moves[2..], 2, &rules), None);
    }

    #[test]
    fn no_capture_limit_draws_unless_mated() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        pos.set_no_capture_plies(120);
        let keys = [pos.key()];
        let mut rules = RuleOptions::default();
        let draw = rule_outcome(&pos, &keys, &[], 3, &rules);
        assert_eq!(draw.map(|o| o.score), Some(DRAW));
        rules.no_capture_moves = 61;
        assert_eq!(rule_outcome(&pos, &keys, &[], 3, &rules), None);
        rules.no_capture_moves = 0;
        assert_eq!(rule_outcome(&pos, &keys, &[], 3, &rules), None, "0 = off");
    }

    #[test]
    fn mate_on_the_limit_ply_still_wins() {
        // Black to move, mated by the two chariots; the 120th ply without capture was the mate.
        let mut pos = Position::from_fen("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(!pos.has_legal_move());
        pos.set_no_capture_plies(120);
        let keys = [pos.key()];
        let outcome = rule_outcome(&pos, &keys, &[], 5, &RuleOptions::default());
        assert_eq!(outcome.map(|o| o.score), Some(mated_in(5)));
    }

    #[test]
    fn bare_material_draw_is_optional() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        let keys = [pos.key()];
        let mut rules = RuleOptions::default();
        assert_eq!(
            rule_outcome(&pos, &keys, &[], 1, &rules).map(|o| o.score),
            Some(DRAW)
        );
        rules.insufficient_material_draw = false;
        assert_eq!(rule_outcome(&pos, &keys, &[], 1, &rules), None);
    }
}
