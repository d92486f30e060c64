//! Helpers shared by the integration tests: random walks through legal play and colour flips.

#![allow(dead_code)]

use engine_core::{Color, Move, Position, Undo, START_FEN};
use nnue::random_net::Rng;
use nnue::simd::Block;
use nnue::{AccumulatorStack, Network};

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

/// `p`'s accumulator of `pos` computed from scratch.
pub fn refreshed(net: &Network, pos: &Position, p: Color) -> Vec<Block> {
    let mut out = vec![Block::ZERO; net.hidden() / 32];
    net.refresh(pos, p, &mut out);
    out
}

/// Plays `step` (as a walk reports it) on `stack`.
pub fn apply(stack: &mut AccumulatorStack, pos: &Position, step: &Step) {
    match *step {
        Step::Move(mv, undo) => stack.push_move(pos, mv, &undo),
        Step::Null(_) => stack.push_null(),
        Step::Pop => stack.pop(),
    }
}

/// Asserts that `stack`'s accumulators of `pos` (both perspectives) and its evaluation equal a
/// from-scratch computation; `at` names the step in the messages.
pub fn assert_stack_matches_refresh(
    stack: &mut AccumulatorStack,
    net: &Network,
    pos: &Position,
    at: &str,
) {
    let [red, black] = stack.accumulators(net, pos);
    assert_eq!(
        red,
        &refreshed(net, pos, Color::Red)[..],
        "Red, {at}, {pos}"
    );
    assert_eq!(
        black,
        &refreshed(net, pos, Color::Black)[..],
        "Black, {at}, {pos}"
    );
    assert_eq!(stack.evaluate(net, pos), net.evaluate(pos), "eval, {at}");
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
    visit: impl FnMut(&Position, &Step),
) {
    let start = Position::from_fen(START_FEN).unwrap();
    capture_walk(&start, seed, steps, capture_bias, max_depth, visit);
}

/// Like [`random_walk`] but from `start`.
pub fn capture_walk(
    start: &Position,
    seed: u64,
    steps: usize,
    capture_bias: u64,
    max_depth: usize,
    visit: impl FnMut(&Position, &Step),
) {
    let choose = |pos: &Position, rng: &mut Rng| {
        let captures = pos.legal_captures();
        if !captures.is_empty() && rng.below(256) < capture_bias {
            captures.iter().copied().collect()
        } else {
            pos.legal_moves().iter().copied().collect()
        }
    };
    walk(start, seed, steps, max_depth, (64, 88), choose, visit);
}

/// The walk behind [`random_walk`] and [`general_walk`]: of each step's roll (0..256), below
/// `thresholds.0` takes the last move back, below `thresholds.1` plays a null move (not in check,
/// not twice in a row), otherwise plays a move drawn from what `choose` offers (backing up at
/// mate or stalemate).
fn walk(
    start: &Position,
    seed: u64,
    steps: usize,
    max_depth: usize,
    thresholds: (u64, u64),
    mut choose: impl FnMut(&Position, &mut Rng) -> Vec<Move>,
    mut visit: impl FnMut(&Position, &Step),
) {
    let (pop_below, null_below) = thresholds;
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    let mut played: Vec<Step> = Vec::new();
    for _ in 0..steps {
        let roll = rng.below(256);
        let step = if !played.is_empty() && (roll < pop_below || played.len() >= max_depth) {
            match played.pop() {
                Some(Step::Move(mv, undo)) => pos.unmake_move(mv, undo),
                Some(Step::Null(undo)) => pos.unmake_null(undo),
                _ => unreachable!(),
            }
            Step::Pop
        } else if roll < null_below
            && !pos.in_check()
            && !matches!(played.last(), Some(Step::Null(_)))
        {
            let s = Step::Null(pos.make_null());
            played.push(s);
            s
        } else {
            let moves = choose(&pos, &mut rng);
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
                let s = Step::Move(mv, pos.make_move(mv));
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

/// A walk's visitor that keeps every position a move or null move reached (not those that
/// taking back returned to) in `positions`.
pub fn collect_into(positions: &mut Vec<Position>) -> impl FnMut(&Position, &Step) + '_ {
    |pos, step| {
        if !matches!(step, Step::Pop) {
            positions.push(pos.clone());
        }
    }
}

/// Asserts that each of `positions` and its colour flip ([`colour_flip`]) evaluate identically,
/// each perspective's accumulator equal to the other colour's in the flipped position.
pub fn assert_colour_flip_symmetric(net: &Network, positions: &[Position]) {
    for pos in positions {
        let flipped = colour_flip(pos);
        assert_eq!(
            net.evaluate(pos),
            net.evaluate(&flipped),
            "{pos} vs {flipped}"
        );
        for p in Color::BOTH {
            assert_eq!(
                refreshed(net, pos, p),
                refreshed(net, &flipped, p.opponent()),
                "{p:?}, {pos}"
            );
        }
    }
}

/// Composed positions with few pieces, where the generals have room to move: walks from them
/// change king buckets and cross the mirror line often.
pub const ENDGAMES: [&str; 5] = [
    "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    "4k4/9/9/9/2r6/9/6R2/9/9/3K5 w - - 0 1",
    "5k3/9/4c4/9/9/9/9/4C4/9/3K5 w - - 0 1",
    "3ak4/9/9/4p4/9/9/P1P6/9/9/5K3 w - - 0 1",
    "4k4/4a4/3ab4/9/2h6/6H2/9/3AB4/4A4/4K4 w - - 0 1",
];

/// Like [`random_walk`] but from `start`, choosing a general move one time in `general_bias`
/// of 256 when one is legal, so the generals walk around their palaces.
pub fn general_walk(
    start: &Position,
    seed: u64,
    steps: usize,
    general_bias: u64,
    max_depth: usize,
    visit: impl FnMut(&Position, &Step),
) {
    use engine_core::PieceKind;
    let choose = |pos: &Position, rng: &mut Rng| {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let generals: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::General))
            .collect();
        if !generals.is_empty() && rng.below(256) < general_bias {
            generals
        } else {
            moves
        }
    };
    walk(start, seed, steps, max_depth, (48, 72), choose, visit);
}

/// The mirror image of `pos`: files reversed (a <-> i), same colours and side to move.
pub fn file_mirror(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let side = fields.next().unwrap();
    let mirrored: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut cells = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n(None, n as usize)),
                    None => cells.push(Some(c)),
                }
            }
            cells.reverse();
            let mut out = String::new();
            let mut empty = 0;
            for cell in cells {
                match cell {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    Position::from_fen(&format!("{} {side} - - 0 1", mirrored.join("/"))).unwrap()
}
