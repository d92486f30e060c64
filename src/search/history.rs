//! Per-thread move-ordering statistics: quiet history, killer moves and counter-moves.

use super::params::{history_bonus_linear, history_bonus_max, history_bonus_quadratic};
use super::score::MAX_PLY;
use engine_core::{Move, Piece, Position};

/// Upper bound of a history value; updates use "gravity" so values saturate smoothly.
pub const HISTORY_MAX: i32 = 16_384;

/// Quiet-move statistics of one search thread.
pub struct History {
    /// `[piece][to]` success counter of quiet moves.
    quiet: Box<[[i32; 90]; Piece::COUNT]>,
    /// Two killer moves per ply: quiet moves that recently caused a cutoff at that ply.
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
    /// `[piece][to]` of the previous move → the quiet move that refuted it.
    counter: Box<[[Move; 90]; Piece::COUNT]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            quiet: Box::new([[0; 90]; Piece::COUNT]),
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 1]),
            counter: Box::new([[Move::NULL; 90]; Piece::COUNT]),
        }
    }
}

/// Bonus for a move that caused (or failed to cause) a cutoff at `depth`.
#[inline]
pub fn depth_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_quadratic() + history_bonus_linear() * depth)
        .min(history_bonus_max())
}

impl History {
    /// Forgets everything (new game, bench positions).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Clears the killers of every ply before a new search: they were found below the old root.
    pub fn clear_killers(&mut self) {
        for k in self.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
    }

    /// History score of a quiet move.
    #[inline(always)]
    pub fn quiet_score(&self, piece: Piece, mv: Move) -> i32 {
        self.quiet[piece.index()][mv.to().index()]
    }

    /// Killer moves at `ply`.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// The counter-move stored for the previous move `prev` (made by `prev_piece`).
    #[inline(always)]
    pub fn counter_move(&self, prev_piece: Option<Piece>, prev: Move) -> Move {
        match prev_piece {
            Some(p) if !prev.is_null() => self.counter[p.index()][prev.to().index()],
            _ => Move::NULL,
        }
    }

    #[inline(always)]
    fn gravity(entry: &mut i32, bonus: i32) {
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Rewards the quiet move `best` that caused a cutoff and penalises the quiet moves tried
    /// before it.
    pub fn update_quiet_cutoff(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: Option<(Piece, Move)>,
    ) {
        let bonus = depth_bonus(depth);
        if let Some(p) = pos.piece_at(best.from()) {
            Self::gravity(&mut self.quiet[p.index()][best.to().index()], bonus);
        }
        for &m in tried {
            if m != best {
                if let Some(p) = pos.piece_at(m.from()) {
                    Self::gravity(&mut self.quiet[p.index()][m.to().index()], -bonus);
                }
            }
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if let Some((pp, pm)) = prev {
            if !pm.is_null() {
                self.counter[pp.index()][pm.to().index()] = best;
            }
        }
    }
}
