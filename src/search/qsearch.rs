//! Quiescence search: captures that do not lose material (by SEE, with delta pruning), or
//! every evasion when in check, until the position is quiet.
//!
//! Xiangqi has long chains of checks answered by moves that check back (a general or an
//! advisor stepping aside uncovers a cannon or opens a file), which quiescence alone would
//! follow to the maximum ply with every evasion at every step: a tree that never finishes.
//! Two bounds keep it finite and small: once a node has a score that is not a loss by mate,
//! it tries at most [`QS_QUIET_EVASIONS`] quiet evasions (captures come first), and a check
//! [`QS_MAX_PLIES`] plies into quiescence is not answered move by move but judged by the static
//! evaluation.

use super::ordering::MovePicker;
use super::params::qs_delta_margin;
use super::score::{mated_in, to_tt, DECIDED_BOUND, INFINITE, MAX_PLY};
use super::see::{see_ge, value_on};
use super::tt::Bound;
use super::worker::{NodeKind, Worker};
use engine_core::Move;

/// Quiet evasions searched at a node in check once it has a score above a mated one.
const QS_QUIET_EVASIONS: usize = 2;
/// Quiescence plies after which a node in check returns its static evaluation.
const QS_MAX_PLIES: usize = 16;

impl Worker<'_> {
    /// Quiescence: captures (not losing by SEE), or the evasions when in check. `qs_ply` counts
    /// the plies since the main search's horizon (0 at the first quiescence node).
    pub(super) fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qs_ply: usize,
        kind: NodeKind,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        if in_check && qs_ply >= QS_MAX_PLIES {
            return self.evaluate();
        }
        let (key, _) = self.tt_key();
        let tte = self.tt.probe(key);
        // Every entry is at least as deep as quiescence.
        if let Some(s) = Self::tt_cutoff(tte, 0, ply, alpha, beta, kind) {
            return s;
        }
        let alpha_orig = alpha;
        let tt_pv = kind.is_pv() || tte.is_some_and(|e| e.pv);
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
            stand_pat = match tte {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let tt_move = tte.map_or(Move::NULL, |e| e.mv);
        let mut picker = MovePicker::quiescence(&self.pos, tt_move);
        let mut best_move = Move::NULL;
        let mut searched = 0;
        let mut quiet_evasions = 0;
        while let Some(mv) = picker.next(&self.pos, self.history) {
            searched += 1;
            if in_check && self.pos.piece_at(mv.to()).is_none() {
                // The picker yields captures before quiet moves (after the table move), so
                // once the quiet evasions are cut nothing is left to try.
                if quiet_evasions >= QS_QUIET_EVASIONS && best > -DECIDED_BOUND {
                    break;
                }
                quiet_evasions += 1;
            }
            if !in_check {
                if stand_pat + value_on(&self.pos, mv.to()) + qs_delta_margin() <= alpha {
                    continue;
                }
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            }
            let undo = self.do_move(mv);
            let value = -self.qsearch(-beta, -alpha, ply + 1, qs_ply + 1, kind);
            self.undo_move(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if kind.is_pv() {
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
        let bound = Bound::of_result(best, alpha_orig, beta, kind.is_pv());
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { stand_pat },
            0,
            bound,
            tt_pv,
        );
        best
    }
}
