//! Move ordering in stages, so that a node that cuts off early pays only for what it used (the
//! model is Pikafish's `movepick.cpp`):
//!
//! 1. the table move, before anything is generated;
//! 2. captures, generated and scored by victim and capture history; each one's SEE is computed
//!    when it is picked, and a capture that loses material is set aside;
//! 3. the killers and the counter-move, each checked for legality;
//! 4. quiet moves, generated and scored by history and continuation history;
//! 5. the captures set aside.
//!
//! A node in check has a stage of its own (every evasion, scored at once), and so does
//! quiescence (captures only, every one: the search tests their SEE itself). Within a stage,
//! moves of equal score keep the generator's order. The main search may ask the picker to
//! skip the quiet moves it would prune anyway ([`MovePicker::skip_quiets`]).

use super::history::{Continuation, History};
use super::see::{see_ge, SEE_VALUE};
use arrayvec::ArrayVec;
use engine_core::{Move, MoveList, Position, MAX_MOVES};

/// An evasion that captures without losing material by SEE (evasions are ordered in one list,
/// by bands).
const GOOD_CAPTURE: i32 = 4_000_000;
/// An evasion that is the first killer, the second killer or the counter-move of the previous
/// move (in the order of [`MovePicker`]'s refutations).
const REFUTATION_BANDS: [i32; 3] = [3_000_000, 2_900_000, 2_800_000];
/// An evasion that captures and loses material by SEE.
const BAD_CAPTURE: i32 = -4_000_000;
/// Weight of the victim's SEE value in a capture's order, against its capture history (at most
/// `HISTORY_MAX`): a history can reorder captures of close victims, never a chariot below a
/// pawn (their values differ by 800, times this exceeds twice `HISTORY_MAX`).
const VICTIM_WEIGHT: i32 = 48;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    CapturesInit,
    GoodCaptures,
    /// The refutation of this index: killer 1, killer 2, the counter-move.
    Refutation(usize),
    QuietsInit,
    Quiets,
    BadCaptures,
    EvasionsInit,
    Evasions,
    Done,
}

/// Moves with their order scores, taken best first; moves of equal score come in the order
/// they were added.
#[derive(Default)]
struct ScoredMoves {
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

impl ScoredMoves {
    /// Takes `moves`, scored by `score`.
    fn fill(&mut self, moves: MoveList, mut score: impl FnMut(Move) -> i32) {
        self.scores.clear();
        self.scores.extend(moves.iter().map(|&mv| score(mv)));
        self.moves = moves;
        self.next = 0;
    }

    /// The best move not yet taken. The selection step rotates the move to the front of the
    /// rest instead of swapping it there, so the rest keep their order and ties stay in it.
    #[inline]
    fn pick(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_max_index(&self.scores[self.next..n]);
        self.moves[self.next..=best].rotate_right(1);
        self.scores[self.next..=best].rotate_right(1);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }

    /// The moves not yet taken, with their scores.
    fn rest(&self) -> (&[Move], &[i32]) {
        (&self.moves[self.next..], &self.scores[self.next..])
    }
}

/// Yields the legal moves of a node in a good order, lazily, each with its place in that order.
pub struct MovePicker {
    stage: Stage,
    /// Where to go after the table move.
    after_tt: Stage,
    /// Main search: captures that lose material by SEE go last. Quiescence: every capture in
    /// order (the search prunes by SEE).
    main_search: bool,
    /// The table move (legal, or null); never yielded twice.
    tt_move: Move,
    /// A move the picker never yields and that takes no place (a singular-extension search).
    excluded: Move,
    /// Killer 1, killer 2 and the counter-move, tried in that order after the captures.
    refutations: [Move; 3],
    cont: Continuation,
    list: ScoredMoves,
    /// Captures set aside as losing, in the order they were picked.
    bad_captures: MoveList,
    bad_next: usize,
    /// Moves yielded or passed over so far: the place of the move last yielded.
    place: usize,
    /// Quiet moves are passed over unless they give check ([`MovePicker::skip_quiets`]).
    skip_quiets: bool,
    /// Under `skip_quiets`: the checking quiet moves left, with their places, last first.
    checking_quiets: ArrayVec<(Move, usize), MAX_MOVES>,
    /// Under `skip_quiets`: the place after the last quiet move.
    quiets_end_place: Option<usize>,
}

impl MovePicker {
    /// A picker for a node of the main search. `tt_move`, the killers and the counter-move may
    /// be any values: each is checked for legality. `cont` names the moves before the node that
    /// quiet moves' continuation histories are keyed by; `excluded` is never yielded (null but
    /// in a singular-extension search).
    pub fn main_search(
        pos: &Position,
        tt_move: Move,
        excluded: Move,
        killers: [Move; 2],
        counter: Move,
        cont: Continuation,
    ) -> MovePicker {
        MovePicker::new(pos, true, tt_move, excluded, killers, counter, cont)
    }

    /// A picker for a quiescence node: captures, or every evasion when in check. The table move
    /// is tried first when it is one of those.
    pub fn quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let tt_move = if pos.in_check() || pos.piece_at(tt_move.to()).is_some() {
            tt_move
        } else {
            Move::NULL
        };
        let none = Move::NULL;
        let cont = Continuation::default();
        MovePicker::new(pos, false, tt_move, none, [none; 2], none, cont)
    }

    #[allow(clippy::too_many_arguments)]
    fn new(
        pos: &Position,
        main_search: bool,
        tt_move: Move,
        excluded: Move,
        killers: [Move; 2],
        counter: Move,
        cont: Continuation,
    ) -> MovePicker {
        let first = if pos.in_check() {
            Stage::EvasionsInit
        } else {
            Stage::CapturesInit
        };
        let tt_move = if !tt_move.is_null() && pos.is_legal(tt_move) {
            tt_move
        } else {
            Move::NULL
        };
        MovePicker {
            stage: if tt_move.is_null() || tt_move == excluded {
                first
            } else {
                Stage::TtMove
            },
            after_tt: first,
            main_search,
            tt_move,
            excluded,
            refutations: [killers[0], killers[1], counter],
            cont,
            list: ScoredMoves::default(),
            bad_captures: MoveList::new(),
            bad_next: 0,
            place: 0,
            skip_quiets: false,
            checking_quiets: ArrayVec::new(),
            quiets_end_place: None,
        }
    }

    /// The place of the move last yielded in the picker's order: 1 for the first, counting the
    /// quiet moves passed over under [`MovePicker::skip_quiets`] as if they had been yielded.
    #[inline(always)]
    pub fn place(&self) -> usize {
        self.place
    }

    /// Whether the move last yielded is a capture set aside as losing (by SEE).
    #[inline(always)]
    pub fn is_bad_capture(&self) -> bool {
        self.stage == Stage::BadCaptures
    }

    /// From now on, quiet moves (the killers and the counter-move among them) are passed over
    /// unless they give check; each still counts for the places of the moves after it. The main
    /// search asks this once move-count pruning would prune every later quiet move that does
    /// not give check.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Whether `mv` is yielded by a stage other than the one asking (the table move), or never.
    #[inline(always)]
    fn taken_elsewhere(&self, mv: Move) -> bool {
        mv == self.tt_move || mv == self.excluded
    }

    #[inline(always)]
    fn yielded(&mut self, mv: Move) -> Option<Move> {
        self.place += 1;
        Some(mv)
    }

    /// The order of a capture: the victim first, then its capture history.
    #[inline(always)]
    fn capture_order(pos: &Position, history: &History, mv: Move) -> Option<i32> {
        let victim = pos.piece_at(mv.to())?;
        let history = pos
            .piece_at(mv.from())
            .map_or(0, |p| history.capture_score(p, mv, victim.kind()));
        Some(VICTIM_WEIGHT * SEE_VALUE[victim.kind().index()] + history)
    }

    /// The order of a quiet move: its history after the moves in `cont`.
    #[inline(always)]
    fn quiet_order(pos: &Position, history: &History, mv: Move, cont: &Continuation) -> i32 {
        pos.piece_at(mv.from())
            .map_or(0, |p| history.quiet_score(p, mv, cont))
    }

    /// The refutation `i` if it is yielded in its stage (a legal quiet move not yielded
    /// before), unless under `skip_quiets` it is passed over for giving no check.
    #[inline]
    fn refutation(&mut self, pos: &Position, i: usize) -> Option<Move> {
        let mv = self.refutations[i];
        let ok = !mv.is_null()
            && !self.taken_elsewhere(mv)
            && !self.refutations[..i].contains(&mv)
            && pos.piece_at(mv.to()).is_none()
            && pos.is_legal(mv);
        if !ok {
            return None;
        }
        if self.skip_quiets && !pos.gives_check(mv) {
            self.place += 1;
            return None;
        }
        self.yielded(mv)
    }

    /// Under `skip_quiets`, keeps of the quiet moves not yet taken only those that give check,
    /// each with the place it has among all of them.
    fn keep_checking_quiets(&mut self, pos: &Position) {
        let (moves, scores) = self.list.rest();
        let base = self.place;
        for (i, (&mv, &score)) in moves.iter().zip(scores).enumerate() {
            if pos.gives_check(mv) {
                // Its rank in the stable order of the rest: better scores, and equal ones
                // added before it, come first.
                let ahead = scores
                    .iter()
                    .enumerate()
                    .filter(|&(j, &s)| s > score || (s == score && j < i))
                    .count();
                self.checking_quiets.push((mv, base + ahead + 1));
            }
        }
        // Last first, so that `pop` yields them in order.
        self.checking_quiets
            .sort_unstable_by_key(|&(_, place)| std::cmp::Reverse(place));
        self.quiets_end_place = Some(base + moves.len());
    }

    /// The next move, or `None` when all have been yielded.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = self.after_tt;
                    return self.yielded(self.tt_move);
                }
                Stage::CapturesInit => {
                    let mut captures = pos.legal_captures();
                    captures.retain(|m| !self.taken_elsewhere(*m));
                    self.list.fill(captures, |mv| {
                        Self::capture_order(pos, history, mv).unwrap_or(0)
                    });
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.list.pick() {
                    Some(mv) => {
                        if self.main_search && !see_ge(pos, mv, 0) {
                            self.bad_captures.push(mv);
                            continue;
                        }
                        return self.yielded(mv);
                    }
                    None => {
                        self.stage = if self.main_search {
                            Stage::Refutation(0)
                        } else {
                            Stage::Done
                        };
                    }
                },
                Stage::Refutation(i) => {
                    self.stage = if i + 1 < self.refutations.len() {
                        Stage::Refutation(i + 1)
                    } else {
                        Stage::QuietsInit
                    };
                    if let Some(mv) = self.refutation(pos, i) {
                        return Some(mv);
                    }
                }
                Stage::QuietsInit => {
                    let mut quiets = pos.legal_quiets();
                    // The killers and the counter-move were yielded in their stages whenever
                    // they are among the legal quiet moves.
                    let refutations = self.refutations;
                    quiets.retain(|m| !self.taken_elsewhere(*m) && !refutations.contains(m));
                    let cont = self.cont;
                    self.list
                        .fill(quiets, |mv| Self::quiet_order(pos, history, mv, &cont));
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        if self.quiets_end_place.is_none() {
                            self.keep_checking_quiets(pos);
                        }
                        if let Some((mv, place)) = self.checking_quiets.pop() {
                            self.place = place;
                            return Some(mv);
                        }
                        self.place = self.quiets_end_place.unwrap_or(self.place);
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.list.pick() {
                        Some(mv) => return self.yielded(mv),
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    let Some(&mv) = self.bad_captures.get(self.bad_next) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    self.bad_next += 1;
                    return self.yielded(mv);
                }
                Stage::EvasionsInit => {
                    let mut evasions = pos.legal_moves();
                    evasions.retain(|m| !self.taken_elsewhere(*m));
                    let (refutations, cont) = (self.refutations, self.cont);
                    let main_search = self.main_search;
                    self.list.fill(evasions, |mv| {
                        if let Some(order) = Self::capture_order(pos, history, mv) {
                            if !main_search || see_ge(pos, mv, 0) {
                                GOOD_CAPTURE + order
                            } else {
                                BAD_CAPTURE + order
                            }
                        } else if let Some(i) = refutations.iter().position(|&r| r == mv) {
                            REFUTATION_BANDS[i]
                        } else {
                            Self::quiet_order(pos, history, mv, &cont)
                        }
                    });
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.list.pick() {
                    Some(mv) => return self.yielded(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
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
    use super::*;
    use crate::search::history::piece_to;
    use engine_core::SplitMix64;
    use proptest::prelude::*;

    /// The one-pass selection the picker used before: the first index whose score beats every
    /// earlier one.
    fn reference_max(scores: &[i32]) -> usize {
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
            prop_assert_eq!(first_max_index(&scores), reference_max(&scores));
        }
    }

    /// What a node asks of the picker.
    struct Node {
        tt_move: Move,
        excluded: Move,
        killers: [Move; 2],
        counter: Move,
        cont: Continuation,
    }

    /// The order without stages: every legal move (or, in quiescence, every capture unless in
    /// check) scored at once by bands (table move, captures that do not lose by SEE, killers,
    /// counter-move, quiet moves by history, losing captures) and sorted, ties in the
    /// generator's order. The excluded move takes no place.
    fn flat_order(pos: &Position, history: &History, node: &Node, main: bool) -> Vec<Move> {
        let moves = if main || pos.in_check() {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        let tt_ok = !node.tt_move.is_null()
            && pos.is_legal(node.tt_move)
            && (main || pos.in_check() || pos.piece_at(node.tt_move.to()).is_some());
        let score = |mv: Move| -> i64 {
            if tt_ok && mv == node.tt_move {
                return i64::MAX;
            }
            let mover = pos.piece_at(mv.from()).unwrap();
            if let Some(victim) = pos.piece_at(mv.to()) {
                let order = i64::from(
                    VICTIM_WEIGHT * SEE_VALUE[victim.kind().index()]
                        + history.capture_score(mover, mv, victim.kind()),
                );
                return if !main || see_ge(pos, mv, 0) {
                    1_000_000_000 + order
                } else {
                    -1_000_000_000 + order
                };
            }
            if main && mv == node.killers[0] {
                return 30_000_000;
            }
            if main && mv == node.killers[1] {
                return 29_000_000;
            }
            if main && mv == node.counter {
                return 28_000_000;
            }
            let cont = if main {
                node.cont
            } else {
                Continuation::default()
            };
            i64::from(history.quiet_score(mover, mv, &cont))
        };
        let mut scored: Vec<(Move, i64)> = moves
            .iter()
            .filter(|&&mv| !main || mv != node.excluded)
            .map(|&mv| (mv, score(mv)))
            .collect();
        // A stable sort: equal scores keep the generator's order.
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        scored.into_iter().map(|(mv, _)| mv).collect()
    }

    /// Every move the picker yields, with its place; under `skip_after`, it is asked to skip
    /// quiet moves once it has yielded that many moves and the last was quiet.
    fn picked(
        pos: &Position,
        history: &History,
        node: &Node,
        main: bool,
        skip_after: Option<usize>,
    ) -> Vec<(Move, usize)> {
        let mut picker = if main {
            MovePicker::main_search(
                pos,
                node.tt_move,
                node.excluded,
                node.killers,
                node.counter,
                node.cont,
            )
        } else {
            MovePicker::quiescence(pos, node.tt_move)
        };
        let mut out = Vec::new();
        while let Some(mv) = picker.next(pos, history) {
            out.push((mv, picker.place()));
            let quiet = pos.piece_at(mv.to()).is_none();
            if skip_after.is_some_and(|n| out.len() >= n) && quiet {
                picker.skip_quiets();
            }
        }
        out
    }

    /// A position `plies` random moves from the start (fewer if the game ends), with a history
    /// table trained on random cutoffs along the way.
    fn random_node(rng: &mut SplitMix64, plies: usize) -> (Position, History, Node) {
        let mut pos = Position::startpos();
        let mut history = History::default();
        let mut seen: Vec<Move> = Vec::new();
        let mut last: Option<(Move, usize)> = None;
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Teach the history: a random move "cut off" after a few others were tried.
            let pick = |rng: &mut SplitMix64| moves[rng.below(moves.len() as u64) as usize];
            let best = pick(rng);
            let tried: Vec<Move> = (0..3).map(|_| pick(rng)).collect();
            let cont = Continuation {
                before: [last.map(|(_, pt)| pt), None],
            };
            let (quiets, captures): (Vec<Move>, Vec<Move>) =
                tried.iter().partition(|m| pos.piece_at(m.to()).is_none());
            let depth = 1 + rng.below(12) as i32;
            history.update_cutoff(&pos, best, &quiets, &captures, depth, ply % 8, &cont, None);
            let mv = pick(rng);
            seen.push(mv);
            let piece = pos.piece_at(mv.from()).unwrap();
            last = Some((mv, piece_to(piece, mv)));
            pos.make_move(mv);
        }
        let moves = pos.legal_moves();
        // Table move, killers and counter: legal moves, moves of other positions, or null.
        let any_move = |rng: &mut SplitMix64| match rng.below(4) {
            0 => Move::NULL,
            1 if !seen.is_empty() => seen[rng.below(seen.len() as u64) as usize],
            _ if !moves.is_empty() => moves[rng.below(moves.len() as u64) as usize],
            _ => Move::NULL,
        };
        let tt_move = any_move(rng);
        let killers = [any_move(rng), any_move(rng)];
        let counter = any_move(rng);
        let excluded = if rng.below(4) == 0 {
            any_move(rng)
        } else {
            Move::NULL
        };
        let cont = Continuation {
            before: [last.map(|(_, pt)| pt), None],
        };
        let node = Node {
            tt_move,
            excluded,
            killers,
            counter,
            cont,
        };
        (pos, history, node)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The stages yield exactly the flat order, places 1, 2, 3, ... (in and out of check,
        /// main search and quiescence, with table moves, killers and counter-moves that are
        /// legal, illegal, captures or null, and an excluded move).
        #[test]
        fn the_stages_yield_the_flat_order(seed in any::<u64>(), plies in 0usize..120) {
            let mut rng = SplitMix64::new(seed);
            let (pos, history, node) = random_node(&mut rng, plies);
            for main in [true, false] {
                let expected = flat_order(&pos, &history, &node, main);
                let got = picked(&pos, &history, &node, main, None);
                let moves: Vec<Move> = got.iter().map(|&(mv, _)| mv).collect();
                prop_assert_eq!(&moves, &expected, "main {} fen {}", main, pos.to_fen());
                let places: Vec<usize> = got.iter().map(|&(_, p)| p).collect();
                prop_assert_eq!(places, (1..=expected.len()).collect::<Vec<_>>());
            }
        }

        /// Skipping quiet moves passes over exactly the later quiet moves that give no check,
        /// and every move keeps the place it has in the full order.
        #[test]
        fn skipped_quiet_moves_keep_the_places_of_the_others(
            seed in any::<u64>(),
            plies in 0usize..120,
            skip_after in 1usize..30,
        ) {
            let mut rng = SplitMix64::new(seed);
            let (pos, history, node) = random_node(&mut rng, plies);
            // In check nothing is pruned, and the search never asks.
            prop_assume!(!pos.in_check());
            let full = picked(&pos, &history, &node, true, None);
            let got = picked(&pos, &history, &node, true, Some(skip_after));
            // The first quiet move at or after `skip_after` turns skipping on.
            let start = full
                .iter()
                .enumerate()
                .position(|(i, &(mv, _))| i + 1 >= skip_after && pos.piece_at(mv.to()).is_none());
            let expected: Vec<(Move, usize)> = full
                .iter()
                .enumerate()
                .filter(|&(i, &(mv, _))| {
                    let skipped = start.is_some_and(|s| i > s)
                        && pos.piece_at(mv.to()).is_none()
                        && !pos.gives_check(mv);
                    !skipped
                })
                .map(|(_, &m)| m)
                .collect();
            prop_assert_eq!(got, expected, "fen {}", pos.to_fen());
        }
    }

    #[test]
    fn a_losing_capture_comes_after_the_quiet_moves() {
        // Red's chariot can take the soldier on e6, which the black chariot on e8 defends.
        let pos = Position::from_fen("3k5/4r4/9/4p4/9/9/9/4R4/9/5K3 w - - 0 1").unwrap();
        let history = History::default();
        let node = Node {
            tt_move: Move::NULL,
            excluded: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            cont: Continuation::default(),
        };
        let order = picked(&pos, &history, &node, true, None);
        let capture = pos.parse_move("e2e6", engine_core::RankBase::Zero).unwrap();
        assert_eq!(order.last().map(|&(mv, _)| mv), Some(capture));
        // In quiescence it is the only move, and the search judges its SEE.
        assert_eq!(picked(&pos, &history, &node, false, None), [(capture, 1)]);
    }

    #[test]
    fn the_picker_says_when_it_yields_a_losing_capture() {
        // The chariot takes the defended soldier (losing), or the undefended one on a6.
        let pos = Position::from_fen("3k5/4r4/9/p3p4/9/9/9/R3R4/9/5K3 w - - 0 1").unwrap();
        let history = History::default();
        let losing = pos.parse_move("e2e6", engine_core::RankBase::Zero).unwrap();
        let winning = pos.parse_move("a2a6", engine_core::RankBase::Zero).unwrap();
        let none = Move::NULL;
        let cont = Continuation::default();
        let mut picker = MovePicker::main_search(&pos, none, none, [none; 2], none, cont);
        let mut flagged = Vec::new();
        while let Some(mv) = picker.next(&pos, &history) {
            if picker.is_bad_capture() {
                flagged.push(mv);
            }
            assert!(mv != winning || !picker.is_bad_capture());
        }
        assert_eq!(flagged, [losing]);
    }
}
