//! One search thread: iterative deepening, aspiration windows, the PVS alpha-beta search and
//! quiescence. The main worker (id 0) also keeps time and reports progress.

use super::history::History;
use super::ordering::{MovePicker, PickerKind};
use super::rules::{rule_outcome, RuleDependency};
use super::score::{
    from_tt, is_mate, mate_in, mate_moves, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY, RULE_WIN,
};
use super::see::{see_ge, value_on};
use super::tt::{Bound, TranspositionTable};
use super::{Info, ScoreBound, SearchControl, SearchRequest, SearchResult};
use crate::eval::evaluate;
use crate::time::TimeManager;
use engine_core::rules::{counted_plies_of, CheckCounting};
use engine_core::{Color, Move, Piece, PieceKind, Position};
use once_cell::sync::Lazy;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Stack size of search threads: the recursion keeps a move list per ply.
pub const THREAD_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Aspiration windows start at this half-width once the depth reaches [`ASPIRATION_MIN_DEPTH`].
const ASPIRATION_WINDOW: i32 = 24;
/// Shallower iterations use a full window.
const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Reverse futility pruning: depth limit.
const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility pruning: margin per ply of depth.
const RFP_MARGIN: i32 = 80;
/// Null-move pruning: minimum depth.
const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base reduction.
const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this many plies of depth.
const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move verification search is done when the side to move has at most this many
/// chariots, horses and cannons (zugzwang-prone endings) ...
const NMP_VERIFY_MAX_PIECES: u32 = 2;
/// ... or at this depth and above.
const NMP_VERIFY_MIN_DEPTH: i32 = 12;
/// Internal iterative reduction: without a TT move, reduce nodes this deep by one ply.
const IIR_MIN_DEPTH: i32 = 4;
/// Late move pruning applies up to this depth.
const LMP_MAX_DEPTH: i32 = 8;
/// Futility pruning of quiet moves: depth limit (after reduction).
const FUTILITY_MAX_DEPTH: i32 = 7;
/// Futility pruning: base margin.
const FUTILITY_BASE: i32 = 120;
/// Futility pruning: margin per ply.
const FUTILITY_PER_DEPTH: i32 = 90;
/// SEE pruning of captures: depth limit.
const SEE_CAPTURE_MAX_DEPTH: i32 = 6;
/// SEE pruning of captures: allowed loss per ply of depth.
const SEE_CAPTURE_MARGIN: i32 = 100;
/// SEE pruning of quiet moves: depth limit.
const SEE_QUIET_MAX_DEPTH: i32 = 8;
/// SEE pruning of quiet moves: allowed loss per ply of depth.
const SEE_QUIET_MARGIN: i32 = 60;
/// Late move reductions: minimum depth.
const LMR_MIN_DEPTH: i32 = 3;
/// History that changes the reduction by one ply.
const LMR_HISTORY_DIVISOR: i32 = 6_000;
/// Quiescence delta pruning margin.
const QS_DELTA_MARGIN: i32 = 200;
/// Report `currmove` only after this long in an iteration.
const CURRMOVE_AFTER: Duration = Duration::from_millis(3000);
/// Report aspiration failures only after this long.
const BOUND_REPORT_AFTER: Duration = Duration::from_millis(2000);

/// `Worker::rep_horizon` when no judged repetition refers to an earlier occurrence.
const NO_REPETITION: usize = usize::MAX;
/// Within this many counted plies of the no-capture limit, TT entries are kept apart per
/// counter state (see `Worker::tt_key`).
const NO_CAPTURE_KEY_WINDOW: u32 = 24;
/// Odd constant spreading the no-capture counter state over the key bits.
const NO_CAPTURE_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// A mate score is trusted once the depth exceeds the mate's length by this many plies.
const MATE_SETTLE_PLIES: i32 = 4;

/// `LMR[depth][move_number]`: the base late-move reduction.
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.8 + (d as f64).ln() * (m as f64).ln() / 2.3) as i32;
        }
    }
    t
});

#[inline(always)]
fn lmr(depth: i32, move_count: usize) -> i32 {
    LMR[(depth as usize).min(63)][move_count.min(63)]
}

/// Late move pruning: quiet moves beyond this count are skipped at shallow depth.
#[inline(always)]
fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = (3 + depth * depth) as usize;
    if improving {
        base
    } else {
        base / 2
    }
}

/// A root move with its current and previous iteration scores and its PV.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` until searched or when it failed low).
    pub score: i32,
    /// Score in the previous iteration.
    pub prev_score: i32,
    /// Whether `score` is a bound (aspiration failure).
    pub bound: ScoreBound,
    /// Deepest ply reached under it.
    pub seldepth: usize,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

#[derive(Copy, Clone, Default)]
struct Frame {
    static_eval: i32,
    mv: Move,
    piece: Option<Piece>,
}

/// One search thread's state.
pub struct Worker<'a> {
    pos: Position,
    keys: Vec<u64>,
    moves: Vec<Move>,
    req: &'a SearchRequest,
    tt: &'a TranspositionTable,
    ctl: &'a SearchControl,
    node_counter: &'a AtomicU64,
    history: &'a mut History,
    report: Option<&'a (dyn Fn(&Info) + Sync)>,
    /// Node, time and iteration limits (consulted by the main thread only).
    time: TimeManager,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    completed_depth: i32,
    pv_idx: usize,
    nmp_min_ply: usize,
    stopped: bool,
    frames: Vec<Frame>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// Smallest key-list index of an earlier occurrence that a repetition judged in the current
    /// subtree referred to ([`NO_REPETITION`] if none); see the TT module's policy.
    rep_horizon: usize,
    /// Whether the current subtree reached the no-capture limit.
    hit_no_capture_limit: bool,
    /// Whether a root score of this iteration depended on the game history (no TT score then).
    root_depends_on_history: bool,
}

impl<'a> Worker<'a> {
    /// A worker for `req`; `report` is `Some` for the main thread only.
    pub fn new(
        id: usize,
        req: &'a SearchRequest,
        tt: &'a TranspositionTable,
        ctl: &'a SearchControl,
        history: &'a mut History,
        report: Option<&'a (dyn Fn(&Info) + Sync)>,
    ) -> Worker<'a> {
        history.clear_killers();
        let mut keys = Vec::with_capacity(req.keys.len() + MAX_PLY + 2);
        keys.extend_from_slice(&req.keys);
        let mut moves = Vec::with_capacity(req.moves.len() + MAX_PLY + 2);
        moves.extend_from_slice(&req.moves);
        Worker {
            pos: req.pos.clone(),
            keys,
            moves,
            req,
            tt,
            ctl,
            node_counter: ctl.node_counter(id),
            history,
            report,
            time: TimeManager::new(&req.limits, req.budget),
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
            root_moves: req
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
            rep_horizon: NO_REPETITION,
            hit_no_capture_limit: false,
            root_depends_on_history: false,
        }
    }

    fn is_main(&self) -> bool {
        self.report.is_some()
    }

    /// The decision after the search (main thread).
    pub fn result(&self) -> SearchResult {
        let best = &self.root_moves[0];
        let score = if best.score == -INFINITE {
            best.prev_score
        } else {
            best.score
        };
        SearchResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            score,
            depth: self.completed_depth,
            nodes: self.nodes,
        }
    }

    /// Counts a node and decides whether to stop (all threads check the shared flag; the main
    /// thread also checks node and time limits).
    #[inline(always)]
    fn count_node_and_check_stop(&mut self) -> bool {
        self.nodes += 1;
        self.node_counter.store(self.nodes, Ordering::Relaxed);
        // The main thread always finishes depth 1, so that even an immediate `stop` is
        // answered with a searched move (depth 1 takes well under a millisecond).
        if self.ctl.stopped() && (self.completed_depth >= 1 || !self.is_main()) {
            self.stopped = true;
            return true;
        }
        if self.is_main() && self.completed_depth >= 1 {
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
        }
        false
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.ctl.stop.store(true, Ordering::SeqCst);
    }

    /// The key used for the TT, and whether the no-capture state is folded into it: the
    /// position key, with the counted plies left before the no-capture limit and each side's
    /// remaining check allowance folded in when the limit is near enough (within
    /// [`NO_CAPTURE_KEY_WINDOW`] counted plies) to change the subtree's outcome. The counting is
    /// the referee's (`counted_plies_of` under the check cap), so two nodes share an entry only
    /// if the limit falls at the same point in both subtrees.
    #[inline(always)]
    fn tt_key(&self) -> (u64, bool) {
        let key = self.pos.key();
        let rules = &self.req.rules;
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
    fn score_depends_on_history(&self, key_folded: bool) -> bool {
        self.rep_horizon < self.keys.len() - 1 || (self.hit_no_capture_limit && !key_folded)
    }

    #[inline(always)]
    fn make(&mut self, mv: Move) -> engine_core::Undo {
        let undo = self.pos.make_move(mv);
        self.keys.push(self.pos.key());
        self.moves.push(mv);
        self.tt.prefetch(self.pos.key());
        undo
    }

    #[inline(always)]
    fn unmake(&mut self, mv: Move, undo: engine_core::Undo) {
        self.pos.unmake_move(mv, undo);
        self.keys.pop();
        self.moves.pop();
    }

    fn elapsed(&self) -> Duration {
        self.ctl.elapsed()
    }

    /// Iterative deepening over all root moves; returns when done or stopped.
    pub fn iterative_deepening(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = self
            .req
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = self.req.multipv.clamp(1, self.root_moves.len());
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.root_depends_on_history = false;
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(pv_idx);
                // Stable sort: moves not (fully) searched keep the previous order.
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = self.root_depth;
            self.store_root();
            if !self.is_main() {
                continue;
            }
            self.report_lines(multipv);
            let best = &self.root_moves[0];
            let (best_mv, score) = (best.mv, best.score);
            if let Some(m) = self.req.limits.mate {
                if score >= mate_in(2 * m.max(1) as usize - 1).min(MATE_BOUND) {
                    break;
                }
            }
            // Stop early once a forced mate is resolved well below the current depth.
            if is_mate(score)
                && self.req.limits.depth.is_none()
                && !self.req.limits.waits_for_stop()
                && depth > 2 * mate_moves(score).abs() + MATE_SETTLE_PLIES
            {
                break;
            }
            let ctl = self.ctl;
            if self.time.stop_after_iteration(
                depth,
                best_mv,
                score,
                self.root_moves.len(),
                ctl.total_nodes(),
                || (!ctl.pondering.load(Ordering::Relaxed)).then(|| ctl.elapsed()),
            ) {
                break;
            }
        }
        if self.is_main() {
            self.report_final();
        }
    }

    /// Searches root line `pv_idx` with a widening aspiration window.
    fn aspiration(&mut self, pv_idx: usize) {
        let depth = self.root_depth;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < RULE_WIN {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(alpha, beta, depth);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                ScoreBound::Upper
            } else if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            self.root_moves[pv_idx].bound = bound;
            if bound == ScoreBound::Exact {
                return;
            }
            if self.is_main() && self.elapsed() > BOUND_REPORT_AFTER {
                self.report_line(pv_idx, depth);
            }
            if bound == ScoreBound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else {
                beta = (score + delta).min(INFINITE);
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The root node: searches root moves `pv_idx..` and records their scores and PVs.
    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.rep_horizon = NO_REPETITION;
        self.hit_no_capture_limit = false;
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        self.frames[0] = Frame {
            static_eval: if self.pos.in_check() {
                -INFINITE
            } else {
                evaluate(&self.pos)
            },
            mv: Move::NULL,
            piece: None,
        };
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && self.elapsed() > CURRMOVE_AFTER {
                if let Some(r) = self.report {
                    r(&Info::CurrMove {
                        depth,
                        mv,
                        number: i + 1,
                    });
                }
            }
            let gives_check = self.pos.gives_check(mv);
            let new_depth = depth - 1 + gives_check as i32;
            self.frames[0].mv = mv;
            self.frames[0].piece = self.pos.piece_at(mv.from());
            let seldepth_before = self.seldepth;
            self.seldepth = 0;
            let undo = self.make(mv);
            let mut value;
            if i == self.pv_idx {
                value = -self.search(-beta, -alpha, new_depth, 1, true, false);
            } else {
                value = -self.search(-alpha - 1, -alpha, new_depth, 1, false, true);
                if value > alpha && value < beta && !self.stopped {
                    value = -self.search(-beta, -alpha, new_depth, 1, true, false);
                }
            }
            self.unmake(mv, undo);
            let sel = self.seldepth;
            self.seldepth = seldepth_before.max(sel);
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || value > alpha {
                rm.score = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INFINITE;
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                if value >= beta {
                    break;
                }
            }
        }
        let (_, key_folded) = self.tt_key();
        self.root_depends_on_history |= self.score_depends_on_history(key_folded);
        best
    }

    /// Stores the root's best move and score, so `probe` and the next search find them (the move
    /// only when the score depended on the game history).
    fn store_root(&self) {
        let best = &self.root_moves[0];
        let bound = match best.bound {
            ScoreBound::Exact => Bound::Exact,
            ScoreBound::Lower => Bound::Lower,
            ScoreBound::Upper => Bound::Upper,
        };
        let eval = if self.pos.in_check() {
            0
        } else {
            evaluate(&self.pos)
        };
        let (key, _) = self.tt_key();
        if self.root_depends_on_history {
            self.tt.store_move_only(key, best.mv, eval);
            return;
        }
        self.tt.store(
            key,
            best.mv,
            to_tt(best.score, 0),
            eval,
            self.completed_depth,
            bound,
        );
    }

    /// Side-to-move has a piece other than general, advisors, elephants and soldiers.
    fn major_pieces(&self) -> u32 {
        let us = self.pos.side_to_move();
        (self.pos.pieces_of(us, PieceKind::Chariot)
            | self.pos.pieces_of(us, PieceKind::Horse)
            | self.pos.pieces_of(us, PieceKind::Cannon))
        .count()
    }

    /// Principal variation search of one node, keeping the history-dependence trackers
    /// ([`Worker::rep_horizon`], [`Worker::hit_no_capture_limit`]) per subtree: they start empty
    /// for the node and are merged into the caller's afterwards.
    fn search(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        let outer_horizon = std::mem::replace(&mut self.rep_horizon, NO_REPETITION);
        let outer_limit = std::mem::replace(&mut self.hit_no_capture_limit, false);
        let score = self.search_node(alpha, beta, depth, ply, pv_node, cut_node);
        self.rep_horizon = self.rep_horizon.min(outer_horizon);
        self.hit_no_capture_limit |= outer_limit;
        score
    }

    /// The body of [`Worker::search`].
    fn search_node(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node);
        }
        self.pv_len[ply] = 0;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) =
            rule_outcome(&self.pos, &self.keys, &self.moves, ply, &self.req.rules)
        {
            match outcome.depends_on {
                RuleDependency::Position => {}
                RuleDependency::Repetition { first } => {
                    self.rep_horizon = self.rep_horizon.min(first);
                }
                RuleDependency::NoCaptureCounter => self.hit_no_capture_limit = true,
            }
            return outcome.score;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }
        // Mate distance pruning: no line from here can beat a shorter mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let (key, key_folded) = self.tt_key();
        let tte = self.tt.probe(key);
        let tt_move = tte.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = tte {
            let s = from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }

        let static_eval = if in_check {
            -INFINITE
        } else {
            tte.map_or_else(|| evaluate(&self.pos), |e| e.eval)
        };
        let mut eval = static_eval;
        if let Some(e) = tte {
            let s = from_tt(e.score, ply);
            if !in_check
                && !is_mate(s)
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > eval,
                    Bound::Upper => s < eval,
                    Bound::None => false,
                }
            {
                eval = s;
            }
        }
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].static_eval != -INFINITE
            && static_eval > self.frames[ply - 2].static_eval;

        if !pv_node && !in_check && beta.abs() < RULE_WIN {
            // Reverse futility pruning.
            if depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving as i32) >= beta {
                return eval;
            }
            // Null-move pruning, verified where zugzwang is likely.
            let majors = self.major_pieces();
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && ply >= self.nmp_min_ply
                && !self.frames[ply - 1].mv.is_null()
                && majors > 0
            {
                let r =
                    NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + ((eval - beta) / 200).min(3);
                self.frames[ply].mv = Move::NULL;
                self.frames[ply].piece = None;
                let undo = self.pos.make_null();
                self.keys.push(self.pos.key());
                self.moves.push(Move::NULL);
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                self.pos.unmake_null(undo);
                self.keys.pop();
                self.moves.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if majors > NMP_VERIFY_MAX_PIECES && depth < NMP_VERIFY_MIN_DEPTH {
                        return v;
                    }
                    let saved = self.nmp_min_ply;
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4).max(1) as usize;
                    let verified = self.search(beta - 1, beta, depth - r, ply, false, false);
                    self.nmp_min_ply = saved;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return v;
                    }
                }
            }
        }

        let depth = if tt_move.is_null() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };

        let prev = self.frames[ply - 1];
        let counter = self.history.counter_move(prev.piece, prev.mv);
        let mut picker = MovePicker::new(
            &self.pos,
            PickerKind::All,
            tt_move,
            self.history.killers(ply),
            counter,
        );
        let killers = self.history.killers(ply);
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let alpha_orig = alpha;

        while let Some(mv) = picker.next(&self.pos, self.history) {
            move_count += 1;
            let is_capture = self.pos.piece_at(mv.to()).is_some();
            let piece = self.pos.piece_at(mv.from());
            let hist = piece.map_or(0, |p| self.history.quiet_score(p, mv));

            // Shallow pruning. Whether a quiet move gives check is only known after making it
            // (make_move computes the checkers anyway, cheaper than a separate gives_check), so a
            // quiet move marked prunable is made, and taken back if it does not give check.
            let mut prune_unless_check = false;
            if !in_check && best > -MATE_BOUND {
                if !is_capture {
                    let lmr_depth = (depth - 1 - lmr(depth, move_count)).max(0);
                    prune_unless_check = (move_count > lmp_threshold(depth, improving)
                        && depth <= LMP_MAX_DEPTH)
                        || (lmr_depth <= FUTILITY_MAX_DEPTH
                            && !is_mate(alpha)
                            && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth
                                <= alpha)
                        || (lmr_depth <= SEE_QUIET_MAX_DEPTH
                            && !see_ge(&self.pos, mv, -SEE_QUIET_MARGIN * lmr_depth));
                } else if depth <= SEE_CAPTURE_MAX_DEPTH
                    && !see_ge(&self.pos, mv, -SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }

            self.frames[ply].mv = mv;
            self.frames[ply].piece = piece;
            let undo = self.make(mv);
            let gives_check = self.pos.in_check();
            if prune_unless_check && !gives_check {
                self.unmake(mv, undo);
                continue;
            }
            let extension = (gives_check && ply < 2 * self.root_depth as usize) as i32;
            let new_depth = depth - 1 + extension;
            let mut value;
            if move_count == 1 {
                value = -self.search(-beta, -alpha, new_depth, ply + 1, pv_node, false);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && move_count > 1 + pv_node as usize && !is_capture {
                    r = lmr(depth, move_count);
                    r -= pv_node as i32;
                    r += (!improving) as i32;
                    r += cut_node as i32;
                    r -= (mv == killers[0] || mv == killers[1] || mv == counter) as i32;
                    r -= gives_check as i32;
                    r -= hist / LMR_HISTORY_DIVISOR;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                value = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if value > alpha && r > 0 && !self.stopped {
                    value = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if pv_node && value > alpha && value < beta && !self.stopped {
                    value = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            self.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        if !is_capture {
                            let prev_pair = prev.piece.map(|p| (p, prev.mv));
                            self.history
                                .update_quiet_cutoff(&self.pos, mv, &quiets, depth, ply, prev_pair);
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if !is_capture && mv != best_move && !quiets.is_full() {
                quiets.push(mv);
            }
        }

        if move_count == 0 {
            // No legal move: mated, or stalemated, which also loses in xiangqi.
            return mated_in(ply);
        }
        let eval_to_store = if in_check { 0 } else { static_eval };
        if self.score_depends_on_history(key_folded) {
            self.tt.store_move_only(key, best_move, eval_to_store);
            return best;
        }
        let bound = Bound::of_result(best, alpha_orig, beta, pv_node);
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            eval_to_store,
            depth,
            bound,
        );
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
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

    /// Quiescence: captures (not losing by SEE), or every evasion when in check.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(&self.pos) };
        }
        let (key, _) = self.tt_key();
        let tte = self.tt.probe(key);
        if let Some(e) = tte {
            let s = from_tt(e.score, ply);
            if !pv_node
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }
        let alpha_orig = alpha;
        let stand_pat;
        let mut best;
        if in_check {
            stand_pat = -INFINITE;
            best = -INFINITE;
        } else {
            // Stalemate loses in xiangqi. It only happens to a side without chariots, horses
            // and cannons, so only such positions pay for the legal-move check.
            if self.major_pieces() == 0 && !self.pos.has_legal_move() {
                return mated_in(ply);
            }
            stand_pat = tte.map_or_else(|| evaluate(&self.pos), |e| e.eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let tt_move = tte.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::new(
            &self.pos,
            PickerKind::Quiescence,
            tt_move,
            [Move::NULL; 2],
            Move::NULL,
        );
        let mut best_move = Move::NULL;
        let mut searched = 0;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            searched += 1;
            if !in_check {
                if stand_pat + value_on(&self.pos, mv.to()) + QS_DELTA_MARGIN <= alpha {
                    continue;
                }
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            }
            let undo = self.make(mv);
            let value = -self.qsearch(-beta, -alpha, ply + 1, pv_node);
            self.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let bound = Bound::of_result(best, alpha_orig, beta, pv_node);
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { stand_pat },
            0,
            bound,
        );
        best
    }

    fn report_line(&self, i: usize, depth: i32) {
        let Some(report) = self.report else {
            return;
        };
        let rm = &self.root_moves[i];
        let (score, bound) = if rm.score == -INFINITE {
            (rm.prev_score, ScoreBound::Exact)
        } else {
            (rm.score, rm.bound)
        };
        if score == -INFINITE {
            return;
        }
        let elapsed = self.elapsed();
        report(&Info::Iteration {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: i + 1,
            score,
            bound,
            nodes: self.ctl.total_nodes(),
            time_ms: elapsed.as_millis() as u64,
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }

    fn report_lines(&self, multipv: usize) {
        for i in 0..multipv {
            self.report_line(i, self.completed_depth);
        }
    }

    /// One last line for the chosen move, so the GUI sees the score of what is played even if
    /// the search was stopped inside an iteration.
    fn report_final(&self) {
        self.report_line(0, self.completed_depth.max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SearchLimits;
    use crate::time::TimeBudget;
    use engine_core::rules::RuleOptions;
    use engine_core::{move_text, RankBase};

    /// Chariot chasing an unprotected horse that shuttles c7-b9 (as in tests/search_rules.rs).
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
        let req = SearchRequest {
            root_moves: pos.legal_moves().to_vec(),
            pos,
            keys,
            moves: played,
            limits: SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            },
            budget: TimeBudget::default(),
            multipv: 1,
            rules: RuleOptions::default(),
        };
        let tt = TranspositionTable::new(1);
        let ctl = SearchControl::new(1, false);
        let mut history = History::default();
        let mut w = Worker::new(0, &req, &tt, &ctl, &mut history, None);
        w.iterative_deepening();
        let best = &w.root_moves[0];
        (best.mv, best.score, w.root_depends_on_history)
    }

    #[test]
    fn a_repetition_of_the_game_history_marks_the_root_score_history_dependent() {
        // After one lap, c7b9 repeats a position of the game: a rule win found one ply below
        // the root that refers to an occurrence above it.
        let lap = ["c7b9", "c3b3", "b9c7", "b3c3"];
        let (mv, score, depends) = search_with_history(CHASE_FEN, &lap, 3);
        assert_eq!(move_text(mv, RankBase::Zero), "c7b9");
        assert!(score >= RULE_WIN - MAX_PLY as i32);
        assert!(depends);
        // Without history every cycle in the tree starts at the root or below it.
        let (_, score, depends) = search_with_history(CHASE_FEN, &[], 3);
        assert!(score.abs() < RULE_WIN - MAX_PLY as i32);
        assert!(!depends);
    }

    /// The TT key a worker uses at the root of `pos` under `rules`.
    fn root_tt_key(pos: &Position, rules: RuleOptions) -> (u64, bool) {
        let req = SearchRequest {
            pos: pos.clone(),
            keys: vec![pos.key()],
            moves: Vec::new(),
            root_moves: pos.legal_moves().to_vec(),
            limits: SearchLimits::default(),
            budget: TimeBudget::default(),
            multipv: 1,
            rules,
        };
        let tt = TranspositionTable::new(1);
        let ctl = SearchControl::new(1, false);
        let mut history = History::default();
        Worker::new(0, &req, &tt, &ctl, &mut history, None).tt_key()
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
