//! The root of the search: iterative deepening, aspiration windows, the loop over the root
//! moves (with MultiPV), storing the root in the table and reporting progress.

use super::params::{
    aspiration_window, ASPIRATION_GROWTH_DIVISOR, ASPIRATION_MAX_WINDOW, ASPIRATION_MIN_DEPTH,
    HELPER_ASPIRATION_SCALE,
};
use super::score::{is_mate, mate_in, mate_moves, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use super::tt::Bound;
use super::worker::{Frame, NodeKind, Worker, NO_REPETITION};
use super::{Info, ScoreBound};
use engine_core::Move;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Report `currmove` only after this long in an iteration.
const CURRMOVE_AFTER: Duration = Duration::from_millis(3000);
/// Report aspiration failures only after this long.
const BOUND_REPORT_AFTER: Duration = Duration::from_millis(2000);
/// A mate score is trusted once the depth exceeds the mate's length by this many plies.
const MATE_SETTLE_PLIES: i32 = 4;

/// Helper threads skip some iterations so that they spread over neighbouring depths instead of
/// all searching the main thread's: helper `i` uses pattern `(i - 1) % len` of these tables and
/// skips depth `d` when `(d + phase) / size` is odd. The first two helpers search depths in
/// pairs and skip pairs (1, 4, 5, 8, 9, ... and 3, 4, 7, 8, ...), so that each runs up to three
/// plies ahead of the main thread, which then finds their deeper results in the table; the next
/// ones skip in runs of one, two, three or four with shifted phases.
const SKIP_SIZE: [i32; 20] = [2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// See [`SKIP_SIZE`].
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether thread `thread_id` skips the iteration of `depth` (never the main thread, 0).
fn skips_depth(thread_id: usize, depth: i32) -> bool {
    if thread_id == 0 {
        return false;
    }
    let i = (thread_id - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

impl Worker<'_> {
    /// Iterative deepening over all root moves; returns when done or stopped.
    pub fn iterative_deepening(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        // A depth-limited search ends when the main thread completes the depth; helpers go on
        // past it until stopped, so their deeper table entries still speed the main thread up.
        let depth_limit = self.request.depth.filter(|_| self.is_main());
        let max_depth = depth_limit
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let multipv = self.request.multipv.clamp(1, self.root_moves.len());
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if depth < max_depth && skips_depth(self.thread_id, depth) {
                continue;
            }
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
                // A later line can score above an earlier one (the earlier search saw this
                // move only through a zero window, perhaps reduced): the completed lines are
                // kept in score order, so line 1 is always the best move found.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = self.root_depth;
            self.completed_best = Some(self.root_moves[0].clone());
            self.store_root();
            if !self.is_main() {
                continue;
            }
            self.report_lines(multipv);
            let best = &self.root_moves[0];
            let (best_mv, score) = (best.mv, best.score);
            if let Some(m) = self.request.mate {
                if score >= mate_in(2 * m.max(1) as usize - 1).min(MATE_BOUND) {
                    break;
                }
            }
            // Stop early once a forced mate is resolved well below the current depth.
            if is_mate(score)
                && self.request.depth.is_none()
                && !self.request.waits_for_stop()
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
        let mut delta = aspiration_window();
        if !self.is_main() {
            delta *= HELPER_ASPIRATION_SCALE;
        }
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
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
            delta += delta / ASPIRATION_GROWTH_DIVISOR;
            if delta > ASPIRATION_MAX_WINDOW {
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
                self.evaluate()
            },
            mv: Move::NULL,
            piece: None,
            excluded: Move::NULL,
            double_extensions: 0,
        };
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.is_main() && self.elapsed() > CURRMOVE_AFTER {
                if let Some(r) = self.report.as_mut() {
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
            let undo = self.do_move(mv);
            let mut value;
            if i == self.pv_idx {
                value = -self.search(-beta, -alpha, new_depth, 1, NodeKind::Pv);
            } else {
                value = -self.search(-alpha - 1, -alpha, new_depth, 1, NodeKind::Cut);
                if value > alpha && value < beta && !self.stopped {
                    value = -self.search(-beta, -alpha, new_depth, 1, NodeKind::Pv);
                }
            }
            self.undo_move(mv, undo);
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
    fn store_root(&mut self) {
        let eval = if self.pos.in_check() {
            0
        } else {
            self.evaluate()
        };
        let best = &self.root_moves[0];
        let bound = match best.bound {
            ScoreBound::Exact => Bound::Exact,
            ScoreBound::Lower => Bound::Lower,
            ScoreBound::Upper => Bound::Upper,
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
            true,
        );
    }

    /// Reports root line `i` (main thread).
    fn report_line(&mut self, i: usize, depth: i32) {
        let info = self.root_moves[i].iteration_info(
            depth,
            i + 1,
            self.ctl.total_nodes(),
            self.elapsed().as_millis() as u64,
            self.tt.hashfull(),
        );
        if let (Some(info), Some(report)) = (info, self.report.as_mut()) {
            report(&info);
        }
    }

    /// Reports the first `multipv` root lines of the completed iteration.
    fn report_lines(&mut self, multipv: usize) {
        for i in 0..multipv {
            self.report_line(i, self.completed_depth);
        }
    }

    /// One last line for the chosen move, so the GUI sees the score of what is played even if
    /// the search was stopped inside an iteration.
    fn report_final(&mut self) {
        self.report_line(0, self.completed_depth.max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::skips_depth;

    #[test]
    fn the_main_thread_searches_every_depth_and_helpers_spread_over_neighbours() {
        assert!((1..40).all(|d| !skips_depth(0, d)));
        // The first two helpers search pairs of depths and skip pairs, offset by one ply; the
        // next two search even depths only and odd ones only.
        let searched =
            |id: usize| -> Vec<i32> { (1..14).filter(|&d| !skips_depth(id, d)).collect() };
        assert_eq!(searched(1), [1, 4, 5, 8, 9, 12, 13]);
        assert_eq!(searched(2), [3, 4, 7, 8, 11, 12]);
        assert!((1..40).all(|d| skips_depth(3, d) == (d % 2 == 1)));
        assert!((1..40).all(|d| skips_depth(4, d) == (d % 2 == 0)));
        // No helper skips more than four depths in a row.
        for id in 1..=40 {
            let searched: Vec<i32> = (1..60).filter(|&d| !skips_depth(id, d)).collect();
            assert!(searched.windows(2).all(|w| w[1] - w[0] <= 5), "helper {id}");
        }
    }
}
