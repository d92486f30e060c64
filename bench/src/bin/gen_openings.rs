//! Builds the balanced opening suite `bench/openings/xiangqi-openings.epd` for the match runner.
//!
//! Method (deterministic for a given seed, no engine needed):
//! 1. From the initial position play a random number (4 to 8) of random legal plies, each chosen
//!    among the moves a 1-ply material search (with capture quiescence) ranks within
//!    `MOVE_SLACK` of the best, so that openings do not start by hanging a piece.
//! 2. Keep the final position if the side to move is not in check, both sides still have all
//!    their chariots, and a 3-ply alpha-beta search with capture quiescence over a
//!    material + mobility evaluation is within ±`WINDOW` centipawns.
//! 3. Drop duplicates by Zobrist key; stop at `--count` positions.
//!
//! Rebuild: `cargo run --release -p cotuong-bench --bin gen_openings -- --count 250 --seed 2026 >
//! bench/openings/xiangqi-openings.epd`. With `--lines` each position is written as the line that
//! leads to it, `<initial FEN> moves m1 m2 ...` (ICCS, ranks 0-9), for engines that cannot set up
//! a FEN (`bench/openings/xiangqi-openings-lines.txt`, the same positions for the same seed).

use engine_core::{move_text, Color, Move, PieceKind, Position, RankBase, Square, START_FEN};
use std::collections::HashSet;

/// Balance window of the final search, centipawns.
const WINDOW: i32 = 40;
/// How far below the best move a random move may score when building the line.
const MOVE_SLACK: i32 = 30;
/// Search depth of the balance filter.
const FILTER_DEPTH: u32 = 3;

/// Deterministic pseudo-random numbers (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn piece_value(kind: PieceKind, sq: Square, color: Color) -> i32 {
    match kind {
        PieceKind::General => 0,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Horse => 400,
        PieceKind::Cannon => 450,
        PieceKind::Chariot => 900,
        PieceKind::Soldier => {
            let crossed = match color {
                Color::Red => sq.rank() >= 5,
                Color::Black => sq.rank() <= 4,
            };
            if crossed {
                200
            } else {
                100
            }
        }
    }
}

/// Material from the side to move's point of view, plus 2 cp per move of mobility difference
/// (the opponent's mobility is counted after a null move, skipped when in check).
fn evaluate(pos: &mut Position) -> i32 {
    let mut score = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            let v = piece_value(p.kind(), sq, p.color());
            score += if p.color() == pos.side_to_move() {
                v
            } else {
                -v
            };
        }
    }
    if !pos.in_check() {
        let mine = pos.legal_moves().len() as i32;
        let undo = pos.make_null();
        let theirs = pos.legal_moves().len() as i32;
        pos.unmake_null(undo);
        score += 2 * (mine - theirs);
    }
    score
}

fn is_capture(pos: &Position, mv: Move) -> bool {
    pos.piece_at(mv.to()).is_some()
}

const MATE: i32 = 100_000;

fn quiesce(pos: &mut Position, mut alpha: i32, beta: i32, depth_left: u32) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -MATE;
    }
    let stand = evaluate(pos);
    if stand >= beta || depth_left == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| is_capture(pos, m))
        .collect();
    for mv in captures {
        let undo = pos.make_move(mv);
        let score = -quiesce(pos, -beta, -alpha, depth_left - 1);
        pos.unmake_move(mv, undo);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn search(pos: &mut Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return quiesce(pos, alpha, beta, 6);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -MATE;
    }
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        let score = -search(pos, depth - 1, -beta, -alpha);
        pos.unmake_move(mv, undo);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn chariots(pos: &Position, color: Color) -> usize {
    Square::all()
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color() == color && p.kind() == PieceKind::Chariot)
        })
        .count()
}

/// One random but not silly line of `plies` moves, or `None` when it ran into a dead end.
fn random_line(rng: &mut Rng, plies: usize) -> Option<(Position, Vec<Move>)> {
    let mut pos = Position::startpos();
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut scored: Vec<(Move, i32)> = moves
            .iter()
            .map(|&mv| {
                let undo = pos.make_move(mv);
                let s = -quiesce(&mut pos, -MATE, MATE, 6);
                pos.unmake_move(mv, undo);
                (mv, s)
            })
            .collect();
        let best = scored.iter().map(|x| x.1).max()?;
        scored.retain(|x| x.1 >= best - MOVE_SLACK);
        let mv = scored[rng.below(scored.len())].0;
        pos.make_move(mv);
        line.push(mv);
    }
    Some((pos, line))
}

fn main() {
    let mut count = 250usize;
    let mut seed = 2026u64;
    let mut as_lines = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--lines" {
            as_lines = true;
            continue;
        }
        let value = args.next();
        let parsed = value.as_deref().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), parsed) {
            ("--count", Some(v)) if v > 0 => count = v as usize,
            ("--seed", Some(v)) => seed = v,
            _ => {
                eprintln!("usage: gen_openings [--count N] [--seed S] [--lines]");
                std::process::exit(2);
            }
        }
    }
    println!("# Cotuong balanced opening suite: {count} positions, seed {seed}.");
    println!("# Random 4-8 ply lines from the start, kept when a {FILTER_DEPTH}-ply material+mobility search");
    let flag = if as_lines { " --lines" } else { "" };
    println!("# is within +-{WINDOW} cp. Rebuild: cargo run --release -p cotuong-bench --bin gen_openings -- --count {count} --seed {seed}{flag}");
    match generate(count, seed) {
        Ok((openings, tried)) => {
            for (fen, line) in &openings {
                if as_lines {
                    let moves: Vec<String> =
                        line.iter().map(|&m| move_text(m, RankBase::Zero)).collect();
                    println!("{START_FEN} moves {}", moves.join(" "));
                } else {
                    println!("{fen}");
                }
            }
            eprintln!("{} positions from {tried} random lines", openings.len());
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

/// An opening: its FEN and the moves from the initial position that lead to it.
type Opening = (String, Vec<Move>);

/// Generates `count` balanced, distinct openings from `seed`; also returns how many random lines
/// were tried.
fn generate(count: usize, seed: u64) -> Result<(Vec<Opening>, u64), String> {
    let mut rng = Rng(seed);
    let mut seen: HashSet<u64> = HashSet::new();
    let mut fens = Vec::with_capacity(count);
    let mut tried = 0u64;
    while fens.len() < count {
        tried += 1;
        if tried > 1_000_000 {
            return Err(format!(
                "gave up after {tried} tries with {} positions",
                fens.len()
            ));
        }
        let plies = 4 + rng.below(5);
        let Some((mut pos, line)) = random_line(&mut rng, plies) else {
            continue;
        };
        if pos.in_check()
            || chariots(&pos, Color::Red) < 2
            || chariots(&pos, Color::Black) < 2
            || !seen.insert(pos.key())
        {
            continue;
        }
        let score = search(&mut pos, FILTER_DEPTH, -MATE, MATE);
        if score.abs() > WINDOW {
            continue;
        }
        fens.push((pos.to_fen(), line));
    }
    Ok((fens, tried))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_balanced_and_distinct() {
        let (a, _) = generate(2, 11).unwrap();
        let (b, _) = generate(2, 11).unwrap();
        assert_eq!(a, b);
        let (c, _) = generate(2, 12).unwrap();
        assert_ne!(a, c);
        let mut keys = HashSet::new();
        for (fen, line) in &a {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut replayed = Position::startpos();
            for &mv in line {
                replayed.make_move(mv);
            }
            assert_eq!(&replayed.to_fen(), fen, "the line leads to the position");
            assert!(!pos.in_check());
            assert!(keys.insert(pos.key()));
            assert!(search(&mut pos, FILTER_DEPTH, -MATE, MATE).abs() <= WINDOW);
        }
    }

    #[test]
    fn evaluation_is_symmetric_at_the_start() {
        let mut pos = Position::startpos();
        assert_eq!(evaluate(&mut pos), 0);
    }
}
