//! Per-thread move-ordering statistics: quiet history, continuation histories (the quiet move
//! given the moves one and two plies before it), capture history, killer moves and
//! counter-moves.

use super::params::{history_bonus_linear, history_bonus_max, history_bonus_quadratic};
use super::score::MAX_PLY;
use engine_core::{Move, Piece, PieceKind, Position, Square};

/// Upper bound of a history value; updates use "gravity" so values saturate smoothly.
pub const HISTORY_MAX: i32 = 16_384;

/// Number of (piece, destination) pairs: the key of a continuation history.
const PIECE_TO_COUNT: usize = Piece::COUNT * Square::COUNT;
/// Number of piece kinds a capture can take (every kind but the general is capturable; the
/// table keeps the general's slot so it indexes by `PieceKind::index` directly).
const VICTIM_KINDS: usize = 7;

/// A (piece, destination) pair as a continuation-history index.
#[inline(always)]
pub fn piece_to(piece: Piece, mv: Move) -> usize {
    piece.index() * Square::COUNT + mv.to().index()
}

/// The moves before a node that its quiet moves' continuation histories are keyed by: the
/// (piece, destination) of the move one ply back and two plies back, `None` for a null move or
/// beyond the root.
#[derive(Copy, Clone, Default, Debug)]
pub struct Continuation {
    /// `[one ply back, two plies back]`.
    pub before: [Option<usize>; 2],
}

/// Quiet-move and capture statistics of one search thread.
pub struct History {
    /// `[piece][to]` success counter of quiet moves.
    quiet: Box<[[i32; Square::COUNT]; Piece::COUNT]>,
    /// `[earlier piece-to][piece-to]`: success of a quiet move after an earlier move, shared by
    /// the one-ply and two-ply offsets. `i16` keeps the table (4 MB) cache-friendlier; gravity
    /// bounds every value by [`HISTORY_MAX`].
    continuation: Vec<i16>,
    /// `[piece][to][victim kind]` success counter of captures.
    capture: Box<[[[i32; VICTIM_KINDS]; Square::COUNT]; Piece::COUNT]>,
    /// Two killer moves per ply: quiet moves that recently caused a cutoff at that ply.
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
    /// `[piece][to]` of the previous move → the quiet move that refuted it.
    counter: Box<[[Move; Square::COUNT]; Piece::COUNT]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            quiet: Box::new([[0; Square::COUNT]; Piece::COUNT]),
            continuation: vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT],
            capture: Box::new([[[0; VICTIM_KINDS]; Square::COUNT]; Piece::COUNT]),
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 1]),
            counter: Box::new([[Move::NULL; Square::COUNT]; Piece::COUNT]),
        }
    }
}

/// Bonus for a move that caused (or failed to cause) a cutoff at `depth`.
#[inline]
pub fn depth_bonus(depth: i32) -> i32 {
    (depth * depth * history_bonus_quadratic() + history_bonus_linear() * depth)
        .min(history_bonus_max())
}

/// Adds `bonus` to `entry`, scaled down as the entry nears [`HISTORY_MAX`] ("gravity"), so
/// values stay within ±`HISTORY_MAX` and recent results weigh more.
#[inline(always)]
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// [`gravity`] on an `i16` entry (the bound keeps it within range).
#[inline(always)]
fn gravity_i16(entry: &mut i16, bonus: i32) {
    let mut v = i32::from(*entry);
    gravity(&mut v, bonus);
    *entry = v as i16;
}

impl History {
    /// Forgets everything (new game, bench positions).
    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|row| row.fill(0));
        self.continuation.fill(0);
        self.capture
            .iter_mut()
            .for_each(|row| row.iter_mut().for_each(|cell| cell.fill(0)));
        self.killers.fill([Move::NULL; 2]);
        self.counter.iter_mut().for_each(|row| row.fill(Move::NULL));
    }

    /// Clears the killers of every ply before a new search: they were found below the old root.
    pub fn clear_killers(&mut self) {
        self.killers.fill([Move::NULL; 2]);
    }

    /// History score of a quiet move by `piece`: its own history plus its continuation
    /// histories after the moves in `cont`.
    #[inline(always)]
    pub fn quiet_score(&self, piece: Piece, mv: Move, cont: &Continuation) -> i32 {
        let pt = piece_to(piece, mv);
        let mut s = self.quiet[piece.index()][mv.to().index()];
        for earlier in cont.before.iter().flatten() {
            s += i32::from(self.continuation[earlier * PIECE_TO_COUNT + pt]);
        }
        s
    }

    /// History score of the capture of a `victim` by `piece` with `mv`.
    #[inline(always)]
    pub fn capture_score(&self, piece: Piece, mv: Move, victim: PieceKind) -> i32 {
        self.capture[piece.index()][mv.to().index()][victim.index()]
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

    /// Adds `bonus` to the quiet and continuation histories of `mv` (made by `piece`).
    fn update_quiet(&mut self, piece: Piece, mv: Move, cont: &Continuation, bonus: i32) {
        gravity(&mut self.quiet[piece.index()][mv.to().index()], bonus);
        let pt = piece_to(piece, mv);
        for earlier in cont.before.iter().flatten() {
            gravity_i16(&mut self.continuation[earlier * PIECE_TO_COUNT + pt], bonus);
        }
    }

    /// Adds `bonus` to the capture history of `mv` in `pos` (before the move).
    fn update_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        if let (Some(p), Some(v)) = (pos.piece_at(mv.from()), pos.piece_at(mv.to())) {
            gravity(
                &mut self.capture[p.index()][mv.to().index()][v.kind().index()],
                bonus,
            );
        }
    }

    /// Rewards the move `best` that caused a cutoff at `depth` and penalises the quiet moves
    /// and captures tried before it: a quiet `best` also becomes a killer and the
    /// counter-move of the previous move `prev`.
    #[allow(clippy::too_many_arguments)]
    pub fn update_cutoff(
        &mut self,
        pos: &Position,
        best: Move,
        quiets_tried: &[Move],
        captures_tried: &[Move],
        depth: i32,
        ply: usize,
        cont: &Continuation,
        prev: Option<(Piece, Move)>,
    ) {
        let bonus = depth_bonus(depth);
        if pos.piece_at(best.to()).is_some() {
            self.update_capture(pos, best, bonus);
        } else {
            if let Some(p) = pos.piece_at(best.from()) {
                self.update_quiet(p, best, cont, bonus);
            }
            for &m in quiets_tried.iter().filter(|&&m| m != best) {
                if let Some(p) = pos.piece_at(m.from()) {
                    self.update_quiet(p, m, cont, -bonus);
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
        for &m in captures_tried.iter().filter(|&&m| m != best) {
            self.update_capture(pos, m, -bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::RankBase;

    #[test]
    fn a_cutoff_rewards_its_move_and_penalises_the_ones_tried_before() {
        let pos = Position::startpos();
        let mv = |t: &str| pos.parse_move(t, RankBase::Zero).unwrap();
        let (best, tried) = (mv("b2e2"), mv("h2h4"));
        let cannon = pos.piece_at(best.from()).unwrap();
        let cont = Continuation {
            before: [Some(piece_to(cannon, mv("b0c2"))), None],
        };
        let mut h = History::default();
        h.update_cutoff(&pos, best, &[tried, best], &[], 5, 3, &cont, None);
        assert!(
            h.quiet_score(cannon, best, &cont)
                > h.quiet_score(cannon, best, &Continuation::default())
        );
        assert!(h.quiet_score(cannon, tried, &cont) < 0);
        assert_eq!(h.killers(3)[0], best);
        // A capture cutoff rewards the capture and leaves the quiet tables alone.
        let capture = mv("b2b9");
        h.update_cutoff(&pos, capture, &[], &[mv("h2h9")], 5, 3, &cont, None);
        let horse = pos.piece_at(capture.to()).unwrap().kind();
        assert!(h.capture_score(cannon, capture, horse) > 0);
        assert!(h.capture_score(cannon, mv("h2h9"), horse) < 0);
        assert_eq!(h.killers(3)[0], best);
        h.clear();
        assert_eq!(h.quiet_score(cannon, best, &cont), 0);
    }

    #[test]
    fn values_stay_within_the_bound_under_repeated_bonuses() {
        let pos = Position::startpos();
        let best = pos.parse_move("b2e2", RankBase::Zero).unwrap();
        let cannon = pos.piece_at(best.from()).unwrap();
        let cont = Continuation {
            before: [Some(0), Some(1)],
        };
        let mut h = History::default();
        for _ in 0..1000 {
            h.update_cutoff(&pos, best, &[], &[], 20, 0, &cont, None);
        }
        assert!(h.quiet_score(cannon, best, &cont) <= 3 * HISTORY_MAX);
        assert!(h
            .continuation
            .iter()
            .all(|&v| i32::from(v).abs() <= HISTORY_MAX));
    }
}
