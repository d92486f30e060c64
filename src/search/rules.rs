//! Rule outcomes inside the search: the no-capture limit, insufficient material and repetitions.
//!
//! The repetition verdict comes from the engine-core referee through one function,
//! [`judge_repetition`], so that swapping in the full perpetual-check/chase judge needs no
//! change elsewhere. Scores produced here depend on the path to the node (not only on its key),
//! so the search returns them before touching the transposition table and never stores them.

use super::score::{mated_in, DRAW, RULE_WIN};
use engine_core::rules::{judge_cycle, CycleVerdict};
use engine_core::{Move, Position};

/// Plies a repetition cycle needs at least (each side moves out and back).
const MIN_CYCLE_PLIES: usize = 4;

/// Scores a repetition: `cycle` holds the moves from the earlier occurrence of `pos` to now.
pub fn judge_repetition(pos: &Position, cycle: &[Move], ply: usize) -> i32 {
    match judge_cycle(pos, cycle) {
        CycleVerdict::Draw => DRAW,
        CycleVerdict::Loses(c) if c == pos.side_to_move() => -RULE_WIN + ply as i32,
        CycleVerdict::Loses(_) => RULE_WIN - ply as i32,
    }
}

/// The rule outcome of the node at the end of `keys` (its key is the last one; `moves[i]` led
/// from `keys[i]` to `keys[i + 1]`; `Move::NULL` marks a null move, which no cycle may cross).
/// `None` when no rule applies and the node must be searched.
pub fn rule_outcome(
    pos: &Position,
    keys: &[u64],
    moves: &[Move],
    ply: usize,
    no_capture_limit: u16,
) -> Option<i32> {
    if pos.no_capture_plies() >= no_capture_limit {
        // The limit draws unless the side to move has just been mated (or stalemated).
        return Some(if pos.has_legal_move() {
            DRAW
        } else {
            mated_in(ply)
        });
    }
    if pos.has_no_attacking_material() {
        return Some(DRAW);
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
            return Some(judge_repetition(pos, &moves[n - back..], ply));
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
        assert_eq!(rule_outcome(&pos, &keys, &moves, 4, 120), Some(DRAW));
        // Without the first two plies there is no earlier occurrence.
        assert_eq!(rule_outcome(&pos, &keys[2..], &moves[2..], 2, 120), None);
    }

    #[test]
    fn no_capture_limit_draws_unless_mated() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        pos.set_no_capture_plies(120);
        let keys = [pos.key()];
        assert_eq!(rule_outcome(&pos, &keys, &[], 3, 120), Some(DRAW));
        assert_eq!(rule_outcome(&pos, &keys, &[], 3, 121), None);
    }
}
