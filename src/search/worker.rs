//! One search thread's state and the operations every part of the search shares: the board
//! changes (the only place the position, the key/move history and the evaluator change
//! together), node counting with the stop checks, the table key and the table cutoff. The search
//! itself is split by concern: [`super::root`] (iterative deepening, aspiration windows, the root
//! move loop, reporting), [`super::pvs`] (the alpha-beta search of inner nodes) and
//! [`super::qsearch`] (quiescence). The main worker (id 0) also keeps time and reports progress.

use super::history::{piece_to, Continuation, History};
use super::job::Job;
use super::repetition_filter::RepetitionFilter;
use super::score::{from_tt, is_mate, INFINITE, MATE_BOUND, MAX_PLY};
use super::time::{budget, TimeManager};
use super::tt::{TranspositionTable, TtEntry};
use super::{Info, RootMove, ScoreBound, SearchControl, SearchRequest, SearchResult};
use crate::eval::Evaluator;
use engine_core::{counted_plies_of, CheckCounting, Color, Move, Piece, PieceKind, Position, Undo};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Stack size of search threads: the recursion keeps a move list per ply.
pub const THREAD_STACK_BYTES: usize = 32 * 1024 * 1024;

/// `Worker::rep_horizon` when no judged repetition refers to an earlier occurrence.
pub(super) const NO_REPETITION: usize = usize::MAX;
/// Nodes after which a stop or a search limit is honoured even before depth 1 completes.
const DEPTH_ONE_NODE_ALLOWANCE: u64 = 200_000;
/// Within this many counted plies of the no-capture limit, TT entries are kept apart per
/// counter state (see `Worker::tt_key`).
const NO_CAPTURE_KEY_WINDOW: u32 = 24;
/// Odd constant spreading the no-capture counter state over the key bits.
const NO_CAPTURE_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// What the caller expects of a node: it decides the window's use, what the table may store
/// and how much the node may be reduced.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// On the principal variation: searched with an open window; its score can be exact.
    Pv,
    /// Zero window, expected to fail high (a refutation is likely among the first moves).
    Cut,
    /// Zero window, expected to fail low (every move must be searched).
    All,
}

impl NodeKind {
    /// Whether this is a PV node.
    #[inline(always)]
    pub fn is_pv(self) -> bool {
        self == NodeKind::Pv
    }

    /// Whether this is an expected cut node.
    #[inline(always)]
    pub fn is_cut(self) -> bool {
        self == NodeKind::Cut
    }

    /// The kind of a zero-window child of a node of this kind after its first move: cut and all
    /// alternate.
    #[inline(always)]
    pub fn flipped(self) -> NodeKind {
        if self.is_cut() {
            NodeKind::All
        } else {
            NodeKind::Cut
        }
    }
}

/// What the search remembers per ply of the current path.
#[derive(Copy, Clone, Default)]
pub(super) struct Frame {
    /// Static evaluation at this ply (`-INFINITE` in check).
    pub static_eval: i32,
    /// The move made from this ply (`Move::NULL` for a null move).
    pub mv: Move,
    /// The piece that made it.
    pub piece: Option<Piece>,
    /// The move a singular-extension search of this ply leaves out (`Move::NULL` otherwise).
    pub excluded: Move,
    /// Double extensions on the path up to and including this ply.
    pub double_extensions: u32,
}

/// The state a search thread keeps from one search to the next: its move-ordering statistics
/// and its evaluator.
#[derive(Default)]
pub struct ThreadData {
    /// Quiet history, killers and counter-moves.
    pub history: History,
    /// The static evaluator (with its incremental state, if any).
    pub evaluator: Evaluator,
}

/// One search thread's state.
pub struct Worker<'a> {
    pub(super) pos: Position,
    pub(super) keys: Vec<u64>,
    pub(super) moves: Vec<Move>,
    /// The keys of `keys` that a repetition look-up can reach, as a filter.
    pub(super) rep_filter: RepetitionFilter,
    pub(super) request: &'a SearchRequest,
    pub(super) tt: &'a TranspositionTable,
    pub(super) ctl: &'a SearchControl,
    /// 0 for the main thread, 1.. for the helpers.
    pub(super) thread_id: usize,
    node_counter: &'a AtomicU64,
    pub(super) history: &'a mut History,
    evaluator: &'a mut Evaluator,
    pub(super) report: Option<&'a mut dyn FnMut(&Info)>,
    /// Node, time and iteration limits (consulted by the main thread only).
    pub(super) time: TimeManager,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) root_depth: i32,
    pub(super) completed_depth: i32,
    pub(super) pv_idx: usize,
    pub(super) nmp_min_ply: usize,
    pub(super) stopped: bool,
    pub(super) frames: Vec<Frame>,
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    pub(super) root_moves: Vec<RootMove>,
    /// The best root line as the last completed iteration left it (`None` before the first).
    pub(super) completed_best: Option<RootMove>,
    /// Smallest key-list index of an earlier occurrence that a repetition judged in the current
    /// subtree referred to ([`NO_REPETITION`] if none); see the TT module's policy.
    pub(super) rep_horizon: usize,
    /// Whether the current subtree reached the no-capture limit.
    pub(super) hit_no_capture_limit: bool,
    /// Whether a root score of this iteration depended on the game history (no TT score then).
    pub(super) root_depends_on_history: bool,
}

impl<'a> Worker<'a> {
    /// A worker for `job` as `request` asks, with the thread's persistent `data`; `report` is
    /// `Some` for the main thread only.
    pub fn new(
        id: usize,
        job: &Job,
        request: &'a SearchRequest,
        tt: &'a TranspositionTable,
        ctl: &'a SearchControl,
        data: &'a mut ThreadData,
        report: Option<&'a mut dyn FnMut(&Info)>,
    ) -> Worker<'a> {
        data.history.clear_killers();
        data.evaluator.reset(&job.pos);
        let mut keys = Vec::with_capacity(job.keys.len() + MAX_PLY + 2);
        keys.extend_from_slice(&job.keys);
        let mut moves = Vec::with_capacity(job.moves.len() + MAX_PLY + 2);
        moves.extend_from_slice(&job.moves);
        // A look-up reaches back no further than the last capture before the root.
        let reach = (job.pos.no_capture_plies() as usize).min(keys.len().saturating_sub(1));
        let rep_filter = RepetitionFilter::new(&keys[keys.len().saturating_sub(reach + 1)..]);
        Worker {
            pos: job.pos.clone(),
            keys,
            moves,
            rep_filter,
            request,
            tt,
            ctl,
            thread_id: id,
            node_counter: ctl.node_counter(id),
            history: &mut data.history,
            evaluator: &mut data.evaluator,
            report,
            time: TimeManager::new(request, budget(request, request.move_overhead_ms)),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            pv_idx: 0,
            nmp_min_ply: 0,
            stopped: false,
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_moves: job
                .root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    bound: ScoreBound::Exact,
                    seldepth: 0,
                    pv: vec![mv],
                })
                .collect(),
            completed_best: None,
            rep_horizon: NO_REPETITION,
            hit_no_capture_limit: false,
            root_depends_on_history: false,
        }
    }

    /// Whether this is the main thread (thread 0: the one that keeps time, ends a depth-limited
    /// search and reports, when it has a reporter).
    #[inline(always)]
    pub(super) fn is_main(&self) -> bool {
        self.thread_id == 0
    }

    /// The decision after the search (main thread): the best move and the first `multipv` root
    /// lines, best first.
    pub fn result(&self) -> SearchResult {
        let lines = &self.root_moves[..self.request.multipv.clamp(1, self.root_moves.len())];
        self.decision(lines.to_vec())
    }

    /// The decision of the last completed iteration (a helper's vote in a depth-limited search,
    /// where a line of an iteration cut short, perhaps an aspiration bound, is not an answer at
    /// the depth asked); the current one before any iteration completed.
    pub fn completed_result(&self) -> SearchResult {
        match &self.completed_best {
            Some(best) => self.decision(vec![best.clone()]),
            None => self.result(),
        }
    }

    /// The decision that plays the first of `lines` at the completed depth.
    fn decision(&self, lines: Vec<RootMove>) -> SearchResult {
        let best = &lines[0];
        SearchResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            score: best.reported_score().0,
            depth: self.completed_depth,
            nodes: self.nodes,
            lines,
        }
    }

    /// Counts a node and decides whether to stop (all threads check the shared flag; the main
    /// thread also asks the time manager about node and time limits).
    #[inline(always)]
    pub(super) fn count_node_and_check_stop(&mut self) -> bool {
        self.nodes += 1;
        self.node_counter.store(self.nodes, Ordering::Relaxed);
        // The main thread finishes depth 1, so that even an immediate `stop` is answered with a
        // searched move (depth 1 usually takes well under a millisecond), unless depth 1 itself
        // runs past `DEPTH_ONE_NODE_ALLOWANCE`: then the move ordered first is played rather
        // than a stop or a limit waiting on it.
        let may_stop = self.completed_depth >= 1 || self.nodes >= DEPTH_ONE_NODE_ALLOWANCE;
        if self.ctl.stopped() && (may_stop || !self.is_main()) {
            self.stopped = true;
            return true;
        }
        if self.is_main() && may_stop {
            let ctl = self.ctl;
            let must_abort = self.time.must_abort(
                self.nodes,
                || ctl.total_nodes(),
                || (!ctl.pondering.load(Ordering::Relaxed)).then(|| ctl.elapsed()),
            );
            if must_abort {
                self.stop_all();
                return true;
            }
        } else if !self.is_main() {
            let ctl = self.ctl;
            if self
                .time
                .node_total_reached(self.nodes, || ctl.total_nodes())
            {
                self.stop_all();
                return true;
            }
        }
        false
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.ctl.stop.store(true, Ordering::SeqCst);
    }

    /// Time since the search's clock started (for reporting).
    pub(super) fn elapsed(&self) -> Duration {
        self.ctl.elapsed()
    }

    /// Makes `mv`: the position, the key and move history, the evaluator and the table prefetch.
    /// Every move the search makes goes through here.
    #[inline(always)]
    pub(super) fn do_move(&mut self, mv: Move) -> Undo {
        let undo = self.pos.make_move(mv);
        self.evaluator.did_move(&self.pos, mv, &undo);
        self.keys.push(self.pos.key());
        self.rep_filter.add(self.pos.key());
        self.moves.push(mv);
        self.tt.prefetch(self.pos.key());
        undo
    }

    /// Takes back `mv` (made by [`Worker::do_move`], which returned `undo`).
    #[inline(always)]
    pub(super) fn undo_move(&mut self, mv: Move, undo: Undo) {
        self.evaluator.undid_move();
        self.rep_filter.remove(self.pos.key());
        self.pos.unmake_move(mv, undo);
        self.keys.pop();
        self.moves.pop();
    }

    /// Passes the turn (null-move pruning); `Move::NULL` in the move history stops repetition
    /// cycles from crossing it.
    #[inline(always)]
    pub(super) fn do_null_move(&mut self) -> Undo {
        let undo = self.pos.make_null();
        self.evaluator.did_null_move();
        self.keys.push(self.pos.key());
        self.rep_filter.add(self.pos.key());
        self.moves.push(Move::NULL);
        undo
    }

    /// Takes back [`Worker::do_null_move`].
    #[inline(always)]
    pub(super) fn undo_null_move(&mut self, undo: Undo) {
        self.evaluator.undid_null_move();
        self.rep_filter.remove(self.pos.key());
        self.pos.unmake_null(undo);
        self.keys.pop();
        self.moves.pop();
    }

    /// The static evaluation of the current position.
    #[inline(always)]
    pub(super) fn evaluate(&mut self) -> i32 {
        self.evaluator.evaluate(&self.pos)
    }

    /// The table's verdict on a node: the stored score (converted to `ply`) when the entry was
    /// searched at least `depth` deep and its bound settles the window (`alpha`, `beta`);
    /// `None` when the node must be searched. Never cuts at PV nodes.
    ///
    /// A score that is not a mate does not settle a window whose edge on its side is a mate
    /// score (an upper bound against an alpha that mates, a lower bound against a beta that is
    /// mated). Such a score comes from a search under a window without mates, where futility
    /// pruning dropped quiet moves on the assumption that none of them mates (and reverse
    /// futility and null move cut on the static evaluation); a search under a mate window does
    /// none of that, and the entry does not answer its question.
    /// Trusting it would let a move that mates in 4 hide one that mates in 3: with several
    /// threads, a thread ahead in depth stores such bounds below the faster mate, and every
    /// later search of that move fails low against the slower mate's score.
    #[inline(always)]
    pub(super) fn tt_cutoff(
        entry: Option<TtEntry>,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> Option<i32> {
        let e = entry?;
        let s = from_tt(e.score, ply);
        let window_asks_for_mate =
            (s <= alpha && alpha >= MATE_BOUND) || (s >= beta && beta <= -MATE_BOUND);
        let answers = is_mate(s) || !window_asks_for_mate;
        (!kind.is_pv() && e.depth >= depth && e.bound.settles(s, alpha, beta) && answers)
            .then_some(s)
    }

    /// The key used for the TT, and whether the no-capture state is folded into it: the
    /// position key, with the counted plies left before the no-capture limit and each side's
    /// remaining check allowance folded in when the limit is near enough (within
    /// [`NO_CAPTURE_KEY_WINDOW`] counted plies) to change the subtree's outcome. The counting is
    /// the referee's (`counted_plies_of` under the check cap), so two nodes share an entry only
    /// if the limit falls at the same point in both subtrees.
    #[inline(always)]
    pub(super) fn tt_key(&self) -> (u64, bool) {
        let key = self.pos.key();
        let rules = &self.request.rules;
        let limit = rules.no_capture_moves.saturating_mul(2);
        if limit == 0 {
            return (key, false);
        }
        let counting = rules.no_capture_checks;
        let remaining = limit.saturating_sub(u32::from(counted_plies_of(&self.pos, counting)));
        if remaining >= NO_CAPTURE_KEY_WINDOW {
            return (key, false);
        }
        let checks = |c: Color| u64::from(self.pos.checks_since_capture(c));
        let allowance = match counting {
            CheckCounting::All => 0,
            CheckCounting::CapPerSide(cap) => {
                let cap = u64::from(cap);
                cap.saturating_sub(checks(Color::Red))
                    | cap.saturating_sub(checks(Color::Black)) << 16
            }
            CheckCounting::CapTotal(cap) => {
                u64::from(cap).saturating_sub(checks(Color::Red) + checks(Color::Black))
            }
        };
        let state = u64::from(remaining) | allowance << 8;
        (key ^ NO_CAPTURE_SALT.wrapping_mul(state + 1), true)
    }

    /// Whether the score of the node being searched (at the end of the key list) depends on
    /// history above it: a judged repetition whose earlier occurrence lies above the node, or the
    /// no-capture limit reached below a node whose key does not carry the counters.
    #[inline(always)]
    pub(super) fn score_depends_on_history(&self, key_folded: bool) -> bool {
        self.rep_horizon < self.keys.len() - 1 || (self.hit_no_capture_limit && !key_folded)
    }

    /// Side-to-move has a piece other than general, advisors, elephants and soldiers.
    pub(super) fn major_pieces(&self) -> u32 {
        let us = self.pos.side_to_move();
        (self.pos.pieces_of(us, PieceKind::Chariot)
            | self.pos.pieces_of(us, PieceKind::Horse)
            | self.pos.pieces_of(us, PieceKind::Cannon))
        .count()
    }

    /// The moves one and two plies before `ply` that its quiet moves' continuation histories
    /// are keyed by.
    #[inline(always)]
    pub(super) fn continuation(&self, ply: usize) -> Continuation {
        let at = |back: usize| {
            let f = ply.checked_sub(back).map(|i| self.frames[i])?;
            f.piece
                .filter(|_| !f.mv.is_null())
                .map(|p| piece_to(p, f.mv))
        };
        Continuation {
            before: [at(1), at(2)],
        }
    }

    /// Makes `mv` followed by the child's PV the PV of `ply`.
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[0] = mv;
        let n = child_len.min(MAX_PLY - 1);
        row[1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::mate_in;
    use crate::search::tt::Bound;
    use engine_core::{move_text, RankBase, RuleOptions};

    fn entry(score: i32, bound: Bound) -> Option<TtEntry> {
        Some(TtEntry {
            mv: Move::NULL,
            score,
            eval: 0,
            depth: 10,
            bound,
            pv: false,
        })
    }

    #[test]
    fn a_score_without_mate_does_not_settle_a_window_that_asks_for_one() {
        let cut = |score, bound, alpha, beta| {
            Worker::tt_cutoff(entry(score, bound), 5, 0, alpha, beta, NodeKind::Cut)
        };
        let mate = mate_in(9);
        // Ordinary windows: bounds settle them on their side.
        assert_eq!(cut(100, Bound::Upper, 200, 201), Some(100));
        assert_eq!(cut(300, Bound::Lower, 200, 201), Some(300));
        assert_eq!(cut(100, Bound::Exact, 200, 201), Some(100));
        // An alpha that mates: only a mate score at or below it settles the node.
        assert_eq!(cut(100, Bound::Upper, mate, mate + 1), None);
        assert_eq!(cut(100, Bound::Exact, mate, mate + 1), None);
        assert_eq!(cut(mate - 2, Bound::Upper, mate, mate + 1), Some(mate - 2));
        // A beta that is mated: only a mated score at or above it settles the node.
        assert_eq!(cut(-100, Bound::Lower, -mate - 1, -mate), None);
        assert_eq!(
            cut(-mate + 2, Bound::Lower, -mate - 1, -mate),
            Some(-mate + 2)
        );
        // The edge on the other side may be a mate score: a fail high above an ordinary beta
        // or a fail low below an ordinary alpha still cuts.
        assert_eq!(cut(300, Bound::Lower, -mate, 200), Some(300));
        assert_eq!(cut(100, Bound::Upper, 200, mate), Some(100));
        // Shallower entries and PV nodes never cut.
        assert_eq!(
            Worker::tt_cutoff(entry(100, Bound::Upper), 11, 3, 200, 201, NodeKind::Cut),
            None
        );
        assert_eq!(
            Worker::tt_cutoff(entry(100, Bound::Exact), 5, 3, 0, 201, NodeKind::Pv),
            None
        );
    }

    /// Chariot chasing an unprotected horse that shuttles c7-b9 (as in
    /// tests/search/search_rules.rs).
    const CHASE_FEN: &str = "3akab2/9/2n1b4/9/9/9/2R6/9/9/3K5 b - - 0 1";

    /// Searches the end of `moves` from `fen` to `depth` with the game history and reports the
    /// best move, the score and whether the root score depended on that history.
    fn search_with_history(fen: &str, moves: &[&str], depth: i32) -> (Move, i32, bool) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut keys = vec![pos.key()];
        let mut played = Vec::new();
        for text in moves {
            let mv = pos.parse_move(text, RankBase::Zero).unwrap();
            pos.make_move(mv);
            keys.push(pos.key());
            played.push(mv);
        }
        let job = Job {
            root_moves: pos.legal_moves().to_vec(),
            pos,
            keys,
            moves: played,
        };
        let request = SearchRequest {
            depth: Some(depth),
            multipv: 1,
            rules: RuleOptions::default(),
            ..SearchRequest::default()
        };
        let tt = TranspositionTable::new(1);
        let ctl = SearchControl::new(1, false);
        let mut data = ThreadData::default();
        let mut w = Worker::new(0, &job, &request, &tt, &ctl, &mut data, None);
        w.iterative_deepening();
        let best = &w.root_moves[0];
        (best.mv, best.score, w.root_depends_on_history)
    }

    #[test]
    fn a_repetition_of_the_game_history_marks_the_root_score_history_dependent() {
        // After two laps, c7b9 makes a position of the game occur for the third time: Red's
        // perpetual chase loses there, a rule win (scored as a mate in one ply) found one ply
        // below the root that refers to an occurrence above it.
        let laps = [
            "c7b9", "c3b3", "b9c7", "b3c3", "c7b9", "c3b3", "b9c7", "b3c3",
        ];
        let (mv, score, depends) = search_with_history(CHASE_FEN, &laps, 3);
        assert_eq!(move_text(mv, RankBase::Zero), "c7b9");
        assert_eq!(score, mate_in(1));
        assert!(depends);
        // After one lap the second occurrence is not decisive: Red can still vary, and does.
        let (_, score, depends) = search_with_history(CHASE_FEN, &laps[..4], 5);
        assert!(score.abs() < MATE_BOUND, "{score}");
        assert!(depends);
        // Without history every cycle in the tree starts at the root or below it.
        let (_, score, depends) = search_with_history(CHASE_FEN, &[], 3);
        assert!(score.abs() < MATE_BOUND);
        assert!(!depends);
    }

    /// The TT key a worker uses at the root of `pos` under `rules`.
    fn root_tt_key(pos: &Position, rules: RuleOptions) -> (u64, bool) {
        let job = Job {
            pos: pos.clone(),
            keys: vec![pos.key()],
            moves: Vec::new(),
            root_moves: pos.legal_moves().to_vec(),
        };
        let request = SearchRequest {
            multipv: 1,
            rules,
            ..SearchRequest::default()
        };
        let tt = TranspositionTable::new(1);
        let ctl = SearchControl::new(1, false);
        let mut data = ThreadData::default();
        Worker::new(0, &job, &request, &tt, &ctl, &mut data, None).tt_key()
    }

    #[test]
    fn tt_key_folds_the_referees_no_capture_state_near_the_limit() {
        // Same placement and clock (119 plies), once reached with two red checks, once not.
        let mut checked = Position::from_fen("3k1a3/9/9/9/9/9/9/9/9/R4K3 w - - 115 80").unwrap();
        for text in ["a0a9", "d9d8", "a9a8", "d8d9"] {
            let mv = checked.parse_move(text, RankBase::Zero).unwrap();
            checked.make_move(mv);
        }
        let quiet = Position::from_fen(&checked.to_fen()).unwrap();
        assert_eq!(checked.key(), quiet.key());
        assert_eq!(checked.no_capture_plies(), quiet.no_capture_plies());
        let per_side = RuleOptions::default();
        let (k1, folded) = root_tt_key(&checked, per_side.clone());
        assert!(folded);
        assert_ne!(k1, checked.key());
        // Equal counted plies, but Red has spent two of its five counted checks.
        assert_ne!(k1, root_tt_key(&quiet, per_side).0);
        // Every ply counts: the check history no longer matters.
        let all = RuleOptions {
            no_capture_checks: CheckCounting::All,
            ..RuleOptions::default()
        };
        assert_eq!(root_tt_key(&checked, all.clone()), root_tt_key(&quiet, all));
        // Far from the limit (or with the rule off) the key is the position's.
        let far = RuleOptions {
            no_capture_moves: 100,
            ..RuleOptions::default()
        };
        assert_eq!(root_tt_key(&checked, far), (checked.key(), false));
        let off = RuleOptions {
            no_capture_moves: 0,
            ..RuleOptions::default()
        };
        assert_eq!(root_tt_key(&checked, off), (checked.key(), false));
    }
}
