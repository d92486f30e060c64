//! Rule outcomes inside the search: the no-capture limit, insufficient material and repetitions,
//! all decided by the engine-core referee under the engine's one [`RuleOptions`] (rule set
//! included), so the search and `cotuong judge` classify every move alike.
//!
//! The repetition verdict comes from the referee through one function, [`judge_repetition`]
//! (`judge_cycle_with`, the same judge `cotuong judge` and the match runner use). A repetition
//! is counted as the game counts it, wherever its earlier occurrences lie (in the game history
//! or in the search tree, since the last capture):
//! - **At the threshold occurrence** ([`RuleOptions::repetition_threshold`], default the third):
//!   the referee's verdict on the cycle it judges, from the first occurrence to now. The referee
//!   ends the game there, so a rule win or loss found here is as final as a mate.
//! - **Before it**, when the latest cycle has no offender: a draw score. Not a proof (the game
//!   goes on), but never decisive either.
//! - **Before it**, when the latest cycle has an offender, and the earlier occurrence lies in the
//!   tree with less than [`PENDING_MIN_DEPTH`] plies left: the *expected* rule outcome
//!   ([`expected_rule_loss`]): the offender repeating the same cycle once more would lose, so the
//!   score is beyond any evaluation, but it is not a proof (the offender may come back by a cycle
//!   of another kind), so it lies outside the mate band and never prints as a mate.
//! - **Otherwise**, when the latest cycle has an offender: not an outcome. The node is searched
//!   on, so the offender's choices (vary, or go on to the threshold and lose) are found by the
//!   search instead of being assumed.
//!
//! The search used to judge a cycle inside the tree at its *second* occurrence, on the idea that
//! repeating is never better the second time, with a decisive score. Under xiangqi rules that is
//! false: the offender may come back by a different cycle, checks in one and a chase in the
//! other. Each cycle alone loses, but the game judges the whole repetition at its third
//! occurrence, and "one check, one chase" is a draw (Điều 23 point 2). Judged one cycle at a
//! time the search printed mates in drawn positions (Fairy-Stockfish issue 635,
//! `tests/search/false_decisive.rs`). A decisive score now always comes from a mate or from the
//! referee's verdict at the threshold, where the loser had every alternative inside the search
//! (an expected outcome is never decisive, so it cannot make a line decisive either). Near the
//! horizon the old shortcut's ordering stays, as an expected score: searching every such node on
//! for two laps cost strength (`docs/rules.md`, "A decisive score is a proof", has the figures).
//!
//! Rule losses score like being mated at the same distance ([`mated_in`]), so the search prefers
//! whichever loss, by mate or by rule, comes later (longest resistance), and a rule win prints as
//! a mate score: the game ends there as surely as by mate.
//!
//! Scores produced here depend on the path to the node (not only on its key), so the search
//! returns them before touching the transposition table and never stores them; what each outcome
//! depends on is reported in [`RuleOutcome::depends_on`] so that the search can keep such scores
//! out of the table in the nodes above as well (the policy is documented in `search::tt`).

use super::params::PENDING_MIN_DEPTH;
use super::score::{expected_rule_loss, mate_in, mated_in, DRAW};
use engine_core::{judge_cycle_with, CycleVerdict, Move, Position, RuleOptions};

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

/// What the rules say about a node before it is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleNode {
    /// No rule applies: search the node.
    Open,
    /// A repetition (of a game position or of a node above in the tree) whose latest cycle has
    /// an offender, below the occurrence at which the referee would judge it, where the search
    /// follows it on: search the node (a decisive stored score takes no cutoff there: it was
    /// found where the position had not yet occurred), and its score depends on the history from
    /// `keys[first]` on.
    Pending {
        /// Index of the earlier occurrence in the key list.
        first: usize,
    },
    /// Decided by a rule: return this outcome.
    Decided(RuleOutcome),
}

/// Scores a repetition: `cycle` holds the moves from an earlier occurrence of `pos` to now. A
/// rule loss scores like being mated `ply` plies from the root, a rule win like mating.
pub fn judge_repetition(pos: &Position, cycle: &[Move], ply: usize, rules: &RuleOptions) -> i32 {
    match judge_cycle_with(pos, cycle, rules) {
        CycleVerdict::Draw => DRAW,
        CycleVerdict::Loses(c) if c == pos.side_to_move() => mated_in(ply),
        CycleVerdict::Loses(_) => mate_in(ply),
    }
}

/// The rule outcome of the node at the end of `keys` (its key is the last one; `moves[i]` led
/// from `keys[i]` to `keys[i + 1]`; `Move::NULL` marks a null move, which no cycle may cross),
/// `ply` plies below the root (so the root's key is `keys[keys.len() - 1 - ply]`).
///
/// Order as the referee's: the no-capture limit only after the legal-move test (a mate or
/// stalemate delivered on the limit ply still wins), then bare material, then repetition. The
/// key list is walked only when `may_repeat` (false proves that no earlier key equals the
/// last: see `repetition_filter`).
pub fn rule_outcome(
    pos: &Position,
    keys: &[u64],
    moves: &[Move],
    ply: usize,
    depth: i32,
    rules: &RuleOptions,
    may_repeat: bool,
) -> RuleNode {
    if rules.no_capture_limit_reached(pos) {
        // The limit draws unless the side to move has just been mated (or stalemated).
        return RuleNode::Decided(if pos.has_legal_move() {
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
        return RuleNode::Decided(RuleOutcome {
            score: DRAW,
            depends_on: RuleDependency::Position,
        });
    }
    if !may_repeat {
        return RuleNode::Open;
    }
    let n = keys.len() - 1;
    let span = (pos.no_capture_plies() as usize).min(n);
    let key = keys[n];
    // Occurrences of the position before this one (most recent first), within the span, in
    // the game history and in the tree alike.
    let mut latest = None;
    let mut earliest = 0;
    let mut earlier = 0usize;
    let mut back = 2;
    while back <= span {
        if moves[n - back].is_null() || moves[n - back + 1].is_null() {
            break;
        }
        if back >= MIN_CYCLE_PLIES && keys[n - back] == key {
            let index = n - back;
            latest.get_or_insert(index);
            earliest = index;
            earlier += 1;
        }
        back += 2;
    }
    let Some(latest) = latest else {
        return RuleNode::Open;
    };
    let threshold = rules.repetition_threshold.max(2) as usize;
    if earlier + 1 >= threshold {
        // The occurrence the rules name: the referee's verdict, on the cycle it judges (from the
        // first occurrence since the last capture).
        return RuleNode::Decided(RuleOutcome {
            score: judge_repetition(pos, &moves[earliest..], ply, rules),
            depends_on: RuleDependency::Repetition { first: earliest },
        });
    }
    let offender = match judge_cycle_with(pos, &moves[latest..], rules) {
        CycleVerdict::Draw => {
            return RuleNode::Decided(RuleOutcome {
                score: DRAW,
                depends_on: RuleDependency::Repetition { first: latest },
            })
        }
        CycleVerdict::Loses(c) => c,
    };
    let inside_tree = latest >= n.saturating_sub(ply);
    if inside_tree && depth < PENDING_MIN_DEPTH {
        // Near the horizon: the expected outcome, not a proof (see the module's doc).
        let loss = expected_rule_loss(ply);
        return RuleNode::Decided(RuleOutcome {
            score: if offender == pos.side_to_move() {
                loss
            } else {
                -loss
            },
            depends_on: RuleDependency::Repetition { first: latest },
        });
    }
    RuleNode::Pending { first: latest }
}

#[cfg(test)]
mod tests {
    use super::super::score::is_mate;
    use super::*;
    use engine_core::{RankBase, START_FEN};

    /// A remaining depth at which cycles inside the tree are searched on.
    const DEEP: i32 = PENDING_MIN_DEPTH;

    /// The score of a decided node.
    fn score(node: RuleNode) -> Option<i32> {
        match node {
            RuleNode::Decided(o) => Some(o.score),
            _ => None,
        }
    }

    /// Keys and moves of `fen` followed by `moves`, and the final position.
    fn line(fen: &str, moves: &str) -> (Position, Vec<u64>, Vec<Move>) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut keys = vec![pos.key()];
        let mut played = Vec::new();
        for text in moves.split_whitespace() {
            let mv = pos.parse_move(text, RankBase::Zero).unwrap();
            pos.make_move(mv);
            keys.push(pos.key());
            played.push(mv);
        }
        (pos, keys, played)
    }

    /// The red chariot chases the unprotected black horse shuttling c7-b9: Red offends.
    const CHASE_FEN: &str = "3akab2/9/2n1b4/9/9/9/2R6/9/9/3K5 b - - 0 1";

    #[test]
    fn a_cycle_inside_the_tree_counts_like_one_in_the_game() {
        let rules = RuleOptions::default();
        // The whole lap is searched (the root is the start): Red chased on every move, but this
        // is only the second occurrence, and Red may still come back by another cycle. Not an
        // outcome: search on.
        let (pos, keys, moves) = line(CHASE_FEN, "c7b9 c3b3 b9c7 b3c3");
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 4, DEEP, &rules, true),
            RuleNode::Pending { first: 0 }
        );
        // Two laps in the tree: the third occurrence, the referee's verdict on both laps. Red's
        // chase loses, seen from Black (to move at the end) as a win 8 plies from the root.
        let two = "c7b9 c3b3 b9c7 b3c3 c7b9 c3b3 b9c7 b3c3";
        let (pos, keys, moves) = line(CHASE_FEN, two);
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 8, DEEP, &rules, true),
            RuleNode::Decided(RuleOutcome {
                score: mate_in(8),
                depends_on: RuleDependency::Repetition { first: 0 }
            })
        );
        // From the other side a rule loss scores like being mated at that distance.
        let (pos, keys, moves) = line(CHASE_FEN, &format!("{two} c7b9"));
        assert_eq!(
            score(rule_outcome(&pos, &keys, &moves, 8, DEEP, &rules, true)),
            Some(mated_in(8))
        );
    }

    #[test]
    fn near_the_horizon_a_cycle_inside_the_tree_scores_as_expected_not_as_proven() {
        let rules = RuleOptions::default();
        let (pos, keys, moves) = line(CHASE_FEN, "c7b9 c3b3 b9c7 b3c3");
        // Red chased on every move; Black is to move: a win expected for Black, below any mate.
        let expected = -expected_rule_loss(4);
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 4, PENDING_MIN_DEPTH - 1, &rules, true),
            RuleNode::Decided(RuleOutcome {
                score: expected,
                depends_on: RuleDependency::Repetition { first: 0 }
            })
        );
        assert!(!is_mate(expected) && expected > 20_000);
        // The same cycle reaching into the game history (the root after it) is searched on.
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 0, PENDING_MIN_DEPTH - 1, &rules, true),
            RuleNode::Pending { first: 0 }
        );
    }

    /// Fairy-Stockfish issue 635's position with the cannon on c3 (ChessDB issue 15): Black's
    /// chariot chases the unprotected cannon (g1c1 c3g3 c1g1 g3c3), or checks (g1g0 e0e1 g0g1
    /// e1e0). Each cycle alone is Black's offence; the two in turn are "one check, one chase".
    const MIXED_FEN: &str = "3aka3/4n4/9/9/9/9/2C6/9/6r2/3AK4 b - - 0 1";

    #[test]
    fn a_check_cycle_then_a_chase_cycle_is_a_draw_at_the_third_occurrence() {
        let rules = RuleOptions::default();
        let chase = "g1c1 c3g3 c1g1 g3c3";
        let check = "g1g0 e0e1 g0g1 e1e0";
        // Either cycle alone, twice: Black loses at the third occurrence.
        for lap in [chase, check] {
            let (pos, keys, moves) = line(MIXED_FEN, &format!("{lap} {lap}"));
            assert_eq!(
                score(rule_outcome(&pos, &keys, &moves, 8, DEEP, &rules, true)),
                Some(mated_in(8)),
                "{lap}"
            );
        }
        // One of each: the second occurrence is pending after either, the third a draw.
        let (pos, keys, moves) = line(MIXED_FEN, check);
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 4, DEEP, &rules, true),
            RuleNode::Pending { first: 0 }
        );
        let (pos, keys, moves) = line(MIXED_FEN, &format!("{check} {chase}"));
        assert_eq!(
            score(rule_outcome(&pos, &keys, &moves, 8, DEEP, &rules, true)),
            Some(DRAW)
        );
    }

    #[test]
    fn a_cycle_reaching_into_the_game_history_counts_only_at_the_threshold() {
        let rules = RuleOptions::default();
        // One lap in the game, the root after it; the search plays c7b9: the second occurrence
        // of a game position. Red offends but has not chosen to repeat in the tree: search on.
        let (pos, keys, moves) = line(CHASE_FEN, "c7b9 c3b3 b9c7 b3c3 c7b9");
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 1, DEEP, &rules, true),
            RuleNode::Pending { first: 1 }
        );
        // Two laps in the game: the third occurrence is the referee's, decisive.
        let (pos, keys, moves) = line(CHASE_FEN, "c7b9 c3b3 b9c7 b3c3 c7b9 c3b3 b9c7 b3c3 c7b9");
        assert_eq!(
            rule_outcome(&pos, &keys, &moves, 1, DEEP, &rules, true),
            RuleNode::Decided(RuleOutcome {
                score: mated_in(1),
                depends_on: RuleDependency::Repetition { first: 1 }
            })
        );
        // Threshold 2: the second occurrence is the one the rules name.
        let (pos, keys, moves) = line(CHASE_FEN, "c7b9 c3b3 b9c7 b3c3 c7b9");
        let two = RuleOptions {
            repetition_threshold: 2,
            ..RuleOptions::default()
        };
        assert_eq!(
            score(rule_outcome(&pos, &keys, &moves, 1, DEEP, &two, true)),
            Some(mated_in(1))
        );
        // A cycle without offender draws at its second occurrence wherever it started.
        let (pos, keys, moves) = line(START_FEN, "b0c2 b9c7 c2b0 c7b9");
        assert_eq!(
            score(rule_outcome(&pos, &keys, &moves, 1, DEEP, &rules, true)),
            Some(DRAW)
        );
        assert_eq!(
            score(rule_outcome(&pos, &keys, &moves, 4, DEEP, &rules, true)),
            Some(DRAW)
        );
    }

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
            rule_outcome(&pos, &keys, &moves, 4, DEEP, &rules, true),
            RuleNode::Decided(RuleOutcome {
                score: DRAW,
                depends_on: RuleDependency::Repetition { first: 0 }
            })
        );
        // Without the first two plies there is no earlier occurrence.
        assert_eq!(
            rule_outcome(&pos, &keys[2..], &moves[2..], 2, DEEP, &rules, true),
            RuleNode::Open
        );
    }

    #[test]
    fn no_capture_limit_draws_unless_mated() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        pos.set_no_capture_plies(120);
        let keys = [pos.key()];
        let mut rules = RuleOptions::default();
        let draw = rule_outcome(&pos, &keys, &[], 3, DEEP, &rules, true);
        assert_eq!(score(draw), Some(DRAW));
        rules.no_capture_moves = 61;
        assert_eq!(
            rule_outcome(&pos, &keys, &[], 3, DEEP, &rules, true),
            RuleNode::Open
        );
        rules.no_capture_moves = 0;
        assert_eq!(
            rule_outcome(&pos, &keys, &[], 3, DEEP, &rules, true),
            RuleNode::Open,
            "0 = off"
        );
    }

    #[test]
    fn mate_on_the_limit_ply_still_wins() {
        // Black to move, mated by the two chariots; the 120th ply without capture was the mate.
        let mut pos = Position::from_fen("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(!pos.has_legal_move());
        pos.set_no_capture_plies(120);
        let keys = [pos.key()];
        let outcome = rule_outcome(&pos, &keys, &[], 5, DEEP, &RuleOptions::default(), true);
        assert_eq!(score(outcome), Some(mated_in(5)));
    }

    #[test]
    fn bare_material_draw_is_optional() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        let keys = [pos.key()];
        let mut rules = RuleOptions::default();
        assert_eq!(
            score(rule_outcome(&pos, &keys, &[], 1, DEEP, &rules, true)),
            Some(DRAW)
        );
        rules.insufficient_material_draw = false;
        assert_eq!(
            rule_outcome(&pos, &keys, &[], 1, DEEP, &rules, true),
            RuleNode::Open
        );
    }
}
