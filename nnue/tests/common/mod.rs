//! Helpers shared by the integration tests: random walks through legal play and colour flips.

#![allow(dead_code)]

use engine_core::{Move, Position, Undo, START_FEN};
use nnue::random_net::Rng;

/// One step of a random walk through a search-like tree.
#[derive(Copy, Clone, Debug)]
pub enum Step {
    /// A move was played: the move, the moved piece and the undo record.
    Move(Move, Undo),
    /// A null move was played.
    Null(Undo),
    /// The last step was taken back.
    Pop,
}

/// Walks randomly through legal play from the start position, like a search does: plays moves
/// (captures preferred when `capture_bias` of 256 says so), null moves when not in check, and
/// takes moves back, never deeper than `max_depth` plies. Calls `visit` with the position after
/// every step and the step taken.
pub fn random_walk(
    seed: u64,
    steps: usize,
    capture_bias: u64,
    max_depth: usize,
    mut visit: impl FnMut(&Position, &Step),
) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::from_fen(START_FEN).unwrap();
    let mut played: Vec<Step> = Vec::new();
    for _ in 0..steps {
        let roll = rng.below(256);
        let step = if !played.is_empty() && (roll < 64 || played.len() >= max_depth) {
            match played.pop() {
                Some(Step::Move(mv, undo)) => pos.unmake_move(mv, undo),
                Some(Step::Null(undo)) => pos.unmake_null(undo),
                _ => unreachable!(),
            }
            Step::Pop
        } else if roll < 88 && !pos.in_check() && !matches!(played.last(), Some(Step::Null(_))) {
            let undo = pos.make_null();
            let s = Step::Null(undo);
            played.push(s);
            s
        } else {
            let captures = pos.legal_captures();
            let moves = if !captures.is_empty() && rng.below(256) < capture_bias {
                captures
            } else {
                pos.legal_moves()
            };
            if moves.is_empty() {
                // Mate or stalemate: back up instead.
                match played.pop() {
                    Some(Step::Move(mv, undo)) => pos.unmake_move(mv, undo),
                    Some(Step::Null(undo)) => pos.unmake_null(undo),
                    _ => return,
                }
                Step::Pop
            } else {
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let undo = pos.make_move(mv);
                let s = Step::Move(mv, undo);
                played.push(s);
                s
            }
        };
        visit(&pos, &step);
    }
}

/// `count` positions from random games (distinct enough: every position along many walks).
pub fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    let mut game = 0;
    while out.len() < count {
        random_walk(seed.wrapping_add(game), 400, 96, 160, |pos, step| {
            if !matches!(step, Step::Pop) && out.len() < count {
                out.push(pos.clone());
            }
        });
        game += 1;
    }
    out
}

/// The colour-flipped mirror of `pos`: ranks reversed, colours swapped, the other side to move.
pub fn colour_flip(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = fields.next().unwrap();
    let flipped: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    Position::from_fen(&format!("{} {side} - - 0 1", flipped.join("/"))).unwrap()
}
