//! The principal variation search of inner nodes, in numbered steps: rules and limits, the
//! table, the static evaluation, whole-node pruning (reverse futility, null move), then the move
//! loop with its per-move pruning, extensions and late-move reductions, and the table store.

use super::deferral::DeferredMoves;
use super::ordering::MovePicker;
use super::params::{
    futility_base, futility_max_depth, futility_per_depth, iir_min_depth, lmp_max_depth,
    lmp_threshold, lmr, lmr_history_divisor, lmr_min_depth, nmp_base_reduction, nmp_depth_divisor,
    nmp_eval_divisor, nmp_eval_max_reduction, nmp_min_depth, rfp_margin, rfp_max_depth,
    se_beta_margin_x16, se_double_margin, se_min_depth, se_tt_depth_margin, see_capture_margin,
    see_capture_max_depth, see_quiet_margin, see_quiet_max_depth, NMP_VERIFY_MAX_PIECES,
    NMP_VERIFY_MIN_DEPTH, NMP_VERIFY_PLIES, SE_MAX_DOUBLE_EXTENSIONS,
};
use super::rules::{rule_outcome, RuleDependency, RuleNode};
use super::score::{
    from_tt, is_decided, is_mate, mate_in, mated_in, to_tt, DECIDED_BOUND, INFINITE, MAX_PLY,
};
use super::see::see_ge;
use super::tt::{Bound, TtEntry};
use super::worker::{NodeKind, Worker, NO_REPETITION};
use arrayvec::ArrayVec;
use engine_core::Move;

/// How many tried quiet moves (and captures) a node remembers for the history malus of a
/// cutoff.
const TRIED_MOVES_KEPT: usize = 64;
/// With several threads, moves another thread is searching are put off at nodes at least this
/// deep (see `deferral`).
const DEFER_MIN_DEPTH: i32 = 3;
/// Plies of extra late-move reduction at expected cut nodes.
const CUT_NODE_REDUCTION: i32 = 2;
/// A reduced move whose zero-window score beats the best so far by this much (plus two per
/// ply of depth) is re-searched one ply deeper than planned ...
const DEEPER_RESEARCH_MARGIN: i32 = 20;
/// ... and one that beats it by less than this one ply shallower.
const SHALLOWER_RESEARCH_MARGIN: i32 = 5;

impl Worker<'_> {
    /// Principal variation search of one node, keeping the history-dependence trackers
    /// ([`Worker::rep_horizon`], [`Worker::hit_no_capture_limit`]) per subtree: they start empty
    /// for the node and are merged into the caller's afterwards.
    pub(super) fn search(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        kind: NodeKind,
    ) -> i32 {
        let outer_horizon = std::mem::replace(&mut self.rep_horizon, NO_REPETITION);
        let outer_limit = std::mem::replace(&mut self.hit_no_capture_limit, false);
        let score = self.search_node(alpha, beta, depth, ply, kind);
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
        kind: NodeKind,
    ) -> i32 {
        let pv_node = kind.is_pv();

        // Step 1. Horizon: quiescence below depth 1.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0, kind);
        }

        // Step 2. Count the node; stop, rule outcomes (no-capture limit, bare material,
        // repetition), maximum ply, mate distance pruning.
        self.pv_len[ply] = 0;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut repeated = false;
        match rule_outcome(
            &self.pos,
            &self.keys,
            &self.moves,
            ply,
            depth,
            &self.request.rules,
            self.rep_filter.may_repeat(self.pos.key()),
        ) {
            RuleNode::Open => {}
            RuleNode::Pending { first } => {
                self.rep_horizon = self.rep_horizon.min(first);
                repeated = true;
            }
            RuleNode::Decided(outcome) => {
                match outcome.depends_on {
                    RuleDependency::Position => {}
                    RuleDependency::Repetition { first } => {
                        self.rep_horizon = self.rep_horizon.min(first);
                    }
                    RuleDependency::NoCaptureCounter => self.hit_no_capture_limit = true,
                }
                return outcome.score;
            }
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // No line from here can beat a shorter mate already found.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table lookup and cutoff (not in a singular-extension search,
        // which asks about the node without one move). At a pending repetition a decisive
        // stored score takes no cutoff: it was stored where the position had not occurred
        // before, and may count on laps that the history here has already used.
        let excluded = self.frames[ply].excluded;
        let (key, key_folded) = self.tt_key();
        let tte = self.tt.probe(key);
        let tt_move = tte.map_or(Move::NULL, |e| e.mv);
        // On a principal variation now or when the entry was stored ("ttPv"): such nodes are
        // pruned and reduced less.
        let tt_pv = pv_node || tte.is_some_and(|e| e.pv);
        if excluded.is_null() {
            if let Some(s) = Self::tt_cutoff(tte, depth, ply, alpha, beta, kind) {
                if !(repeated && is_mate(s)) {
                    return s;
                }
            }
        }

        // Step 4. Static evaluation (from the table when stored), refined by a stored score
        // whose bound points the right way; whether it improved over two plies ago.
        let static_eval = if in_check {
            -INFINITE
        } else {
            match tte {
                Some(e) => e.eval,
                None => self.evaluate(),
            }
        };
        let mut eval = static_eval;
        if let Some(e) = tte {
            let s = from_tt(e.score, ply);
            if !in_check && !is_mate(s) && e.bound.refines(s, eval) {
                eval = s;
            }
        }
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].static_eval != -INFINITE
            && static_eval > self.frames[ply - 2].static_eval;

        if !pv_node && !in_check && beta.abs() < DECIDED_BOUND {
            // Step 5. Reverse futility pruning (not at nodes that were on a principal
            // variation).
            if !tt_pv
                && depth <= rfp_max_depth()
                && eval - rfp_margin() * (depth - improving as i32) >= beta
            {
                return eval;
            }

            // Step 6. Null-move pruning, verified where zugzwang is likely.
            let majors = self.major_pieces();
            if depth >= nmp_min_depth()
                && eval >= beta
                && ply >= self.nmp_min_ply
                && !self.frames[ply - 1].mv.is_null()
                && excluded.is_null()
                && majors > 0
            {
                let r = nmp_base_reduction()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max_reduction());
                self.frames[ply].mv = Move::NULL;
                self.frames[ply].piece = None;
                let undo = self.do_null_move();
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, kind.flipped());
                self.undo_null_move(undo);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= DECIDED_BOUND { beta } else { v };
                    if majors > NMP_VERIFY_MAX_PIECES && depth < NMP_VERIFY_MIN_DEPTH {
                        return v;
                    }
                    let saved = self.nmp_min_ply;
                    let (num, den) = NMP_VERIFY_PLIES;
                    self.nmp_min_ply = ply + (num * (depth - r) / den).max(1) as usize;
                    let verified = self.search(beta - 1, beta, depth - r, ply, NodeKind::All);
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

        // Step 7. Internal iterative reduction: without a table move, search one ply less.
        let depth = if tt_move.is_null() && depth >= iir_min_depth() {
            depth - 1
        } else {
            depth
        };

        // Step 8. The move loop.
        let prev = self.frames[ply - 1];
        let counter = self.history.counter_move(prev.piece, prev.mv);
        let cont = self.continuation(ply);
        let mut picker = MovePicker::main_search(
            &self.pos,
            tt_move,
            excluded,
            self.history.killers(ply),
            counter,
            cont,
        );
        let killers = self.history.killers(ply);
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<Move, TRIED_MOVES_KEPT> = ArrayVec::new();
        let mut captures: ArrayVec<Move, TRIED_MOVES_KEPT> = ArrayVec::new();
        let alpha_orig = alpha;
        // Extensions stop at twice the root depth, so that extended lines stay finite.
        let may_extend = ply < 2 * self.root_depth as usize;

        // With several threads, a move (but the first) that another thread is searching right
        // now is put off to the end of the list. Late-move pruning and reductions go by
        // `place`, the move's place in the picker's order, so that putting a move off changes
        // when it is searched but not how deeply (one thread searches exactly as without it).
        let ctl = self.ctl;
        let defers = depth >= DEFER_MIN_DEPTH && ctl.deferral.is_active();
        let mut moves = DeferredMoves::default();
        // The excluded move (singular verification) takes no place: the others keep theirs.
        while let Some((mv, place, from_picker)) = moves.next(|| {
            let mv = picker.next(&self.pos, self.history)?;
            Some((mv, picker.place()))
        }) {
            if defers
                && from_picker
                && move_count > 0
                && ctl.deferral.is_searched_elsewhere(self.thread_id, key, mv)
                && moves.defer(mv, place)
            {
                continue;
            }
            move_count += 1;
            let is_capture = self.pos.piece_at(mv.to()).is_some();
            let piece = self.pos.piece_at(mv.from());

            // Step 9. Shallow pruning: late moves, futility and SEE for quiet moves, SEE for
            // captures. A quiet move that gives check is never pruned; the test (below, after
            // the singular extension) runs on the position before the move, so a pruned move is
            // never made: most late quiet moves are pruned, and making one costs the accumulator
            // update and a table prefetch.
            let mut prune_unless_check = false;
            if !in_check && best > -DECIDED_BOUND {
                if !is_capture {
                    // Move-count pruning: every later quiet move is pruned too, unless it
                    // gives check, so the picker passes those over from now on.
                    let late = place > lmp_threshold(depth, improving) && depth <= lmp_max_depth();
                    if late {
                        picker.skip_quiets();
                    }
                    let lmr_depth = (depth - 1 - lmr(depth, place)).max(0);
                    prune_unless_check = late
                        || (lmr_depth <= futility_max_depth()
                            && !is_decided(alpha)
                            && static_eval + futility_base() + futility_per_depth() * lmr_depth
                                <= alpha)
                        || (lmr_depth <= see_quiet_max_depth()
                            && !see_ge(&self.pos, mv, -see_quiet_margin() * lmr_depth));
                } else if depth <= see_capture_max_depth()
                    && !see_ge(&self.pos, mv, -see_capture_margin() * depth)
                {
                    continue;
                }
            }

            // Step 10. Singular extension of the table move: when every other move fails low
            // against a margin below its table score, it alone holds the node and is extended
            // (twice when far below); when another move also beats beta, the node is cut
            // (multi-cut); when the table score beats beta anyway, the move is reduced.
            let mut extension = 0;
            if mv == tt_move && excluded.is_null() && may_extend {
                match self.singular_extension(tte, depth, ply, beta, kind) {
                    Singular::Extend(e) => extension = e,
                    Singular::MultiCut(v) => return v,
                }
                if self.stopped {
                    return 0;
                }
            }

            if prune_unless_check && !self.pos.gives_check(mv) {
                continue;
            }

            self.frames[ply].mv = mv;
            self.frames[ply].piece = piece;
            let undo = self.do_move(mv);
            let gives_check = self.pos.in_check();

            // Step 11. Check extension (within twice the root depth).
            if extension <= 0 && gives_check && may_extend {
                extension = 1;
            }
            self.frames[ply + 1].double_extensions =
                self.frames[ply].double_extensions + (extension >= 2) as u32;
            let new_depth = depth - 1 + extension;

            // Step 12. Search the move: the first with the full window, later ones with a zero
            // window, reduced when late and quiet, re-searched when they beat alpha.
            let claim =
                (defers && move_count > 1).then(|| ctl.deferral.start(self.thread_id, key, mv));
            let mut value;
            if move_count == 1 {
                // The first child of a cut node is expected to fail low (an all node), and
                // that of an all node to fail high (a cut node).
                let child = if pv_node {
                    NodeKind::Pv
                } else {
                    kind.flipped()
                };
                value = -self.search(-beta, -alpha, new_depth, ply + 1, child);
            } else {
                let mut r = 0;
                // Captures are reduced only once the picker reaches the losing ones.
                if depth >= lmr_min_depth()
                    && place > 1 + pv_node as usize
                    && (!is_capture || picker.is_bad_capture())
                {
                    r = lmr(depth, place);
                    r -= tt_pv as i32;
                    r += (!improving) as i32;
                    r += CUT_NODE_REDUCTION * kind.is_cut() as i32;
                    r -= (mv == killers[0] || mv == killers[1] || mv == counter) as i32;
                    r -= gives_check as i32;
                    if !is_capture {
                        let hist = piece.map_or(0, |p| self.history.quiet_score(p, mv, &cont));
                        r -= hist / lmr_history_divisor();
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let reduced = new_depth - r;
                value = -self.search(-alpha - 1, -alpha, reduced, ply + 1, NodeKind::Cut);
                if value > alpha && r > 0 && !self.stopped {
                    // A reduced move that beats alpha by far is searched one ply deeper than
                    // planned, one that barely beats the best so far one ply shallower.
                    let deeper = value > best + DEEPER_RESEARCH_MARGIN + 2 * new_depth;
                    let shallower = value < best + SHALLOWER_RESEARCH_MARGIN;
                    let full = new_depth + deeper as i32 - shallower as i32;
                    if full > reduced {
                        value = -self.search(-alpha - 1, -alpha, full, ply + 1, kind.flipped());
                    }
                }
                if pv_node && value > alpha && value < beta && !self.stopped {
                    value = -self.search(-beta, -alpha, new_depth, ply + 1, NodeKind::Pv);
                }
            }
            drop(claim);
            self.undo_move(mv, undo);
            if self.stopped {
                return 0;
            }

            // Step 13. New best move: PV update, and on a cutoff the quiet-move statistics.
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        let prev_pair = prev.piece.map(|p| (p, prev.mv));
                        self.history.update_cutoff(
                            &self.pos, mv, &quiets, &captures, depth, ply, &cont, prev_pair,
                        );
                        break;
                    }
                    alpha = value;
                }
            }
            if mv != best_move {
                let tried = if is_capture {
                    &mut captures
                } else {
                    &mut quiets
                };
                if !tried.is_full() {
                    tried.push(mv);
                }
            }
        }

        // Step 14. No legal move: mated, or stalemated, which also loses in xiangqi; in a
        // singular-extension search, only the excluded move.
        if move_count == 0 {
            return if excluded.is_null() {
                mated_in(ply)
            } else {
                alpha
            };
        }
        if !excluded.is_null() {
            return best;
        }

        // Step 15. Store the result: its score only when it does not depend on the history
        // above the node.
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
            tt_pv,
        );

        best
    }

    /// Step 10 of [`Worker::search_node`] for the table move of a node `depth` deep at `ply`:
    /// searches the node without it, to a reduced depth and with a zero window just below the
    /// table score, and decides the move's extension.
    fn singular_extension(
        &mut self,
        tte: Option<TtEntry>,
        depth: i32,
        ply: usize,
        beta: i32,
        kind: NodeKind,
    ) -> Singular {
        let Some(e) = tte else {
            return Singular::Extend(0);
        };
        let tt_score = from_tt(e.score, ply);
        if depth < se_min_depth()
            || e.depth < depth - se_tt_depth_margin()
            || !matches!(e.bound, Bound::Lower | Bound::Exact)
            || is_mate(tt_score)
        {
            return Singular::Extend(0);
        }
        let singular_beta = tt_score - se_beta_margin_x16() * depth / 16;
        let singular_depth = (depth - 1) / 2;
        // A zero-window search: a PV node's is an all-node.
        let probe_kind = if kind.is_pv() { NodeKind::All } else { kind };
        self.frames[ply].excluded = e.mv;
        let value = self.search(
            singular_beta - 1,
            singular_beta,
            singular_depth,
            ply,
            probe_kind,
        );
        self.frames[ply].excluded = Move::NULL;
        if value < singular_beta {
            let double = !kind.is_pv()
                && value < singular_beta - se_double_margin()
                && self.frames[ply].double_extensions < SE_MAX_DOUBLE_EXTENSIONS;
            Singular::Extend(1 + double as i32)
        } else if value >= beta && !is_decided(value) && !is_decided(beta) {
            Singular::MultiCut(value)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}

/// What a singular-extension search decided about the table move.
enum Singular {
    /// Extend it by this many plies (negative: reduce it).
    Extend(i32),
    /// Another move beats beta as well: the node fails high with this score.
    MultiCut(i32),
}
