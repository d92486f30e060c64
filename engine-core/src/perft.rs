//! Perft: counting leaf nodes of the legal move tree, the standard move-generator check.

use crate::moves::Move;
use crate::position::Position;

/// Number of leaf nodes at `depth` plies. Counts the last ply in bulk (legal-move count) instead of
/// making those moves.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for mv in pos.legal_moves() {
                let undo = pos.make_move(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(mv, undo);
            }
            nodes
        }
    }
}

/// Perft split by root move ("divide"), in generation order. Depth 0 gives an empty list.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let undo = pos.make_move(mv);
            let n = perft(pos, depth - 1);
            pos.unmake_move(mv, undo);
            (mv, n)
        })
        .collect()
}
