//! Inference speed by architecture: the piece-square set at hidden 256 (net 6's shape) against
//! the king-bucket set at 256, 512 and 1024, on synthetic nets, with the widest SIMD path.
//!
//! Run: `cargo run --release -p nnue --example arch_speed [-- --write PATH HIDDEN [piece-square]]`. Prints, per
//! net, millions of operations per second (best of three) for: an incremental quiet update of
//! both perspectives; the output layer; one general move that changes the king bucket, pushed
//! and taken back again and again (one perspective rebuilt, through the accumulator cache, where
//! it is then a copy, and without it); and a recorded search-like walk from endgames with many
//! general moves (push, evaluate every node, take back), with and without the cache. `--write` also writes a king-bucket net of that hidden
//! size (a version-2 file; with `piece-square`, a piece-square net) for `cotuong bench 12 --eval PATH`. Timings on a shared machine are
//! noisy: compare within one run.

use engine_core::{Move, Piece, PieceKind, Position, START_FEN};
use nnue::random_net::{Rng, Spec};
use nnue::{AccumulatorStack, Network};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `f` repeatedly for about `budget`, three times; returns the best rate in millions of
/// calls per second (the best of three is the least disturbed by other load).
fn rate(budget: Duration, mut f: impl FnMut()) -> f64 {
    let mut best: f64 = 0.0;
    for _ in 0..3 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < budget {
            for _ in 0..256 {
                f();
            }
            calls += 256;
        }
        best = best.max(calls as f64 / start.elapsed().as_secs_f64() / 1e6);
    }
    best
}

/// The first legal move of `pos` whose moving piece satisfies `want`.
fn find_move(pos: &Position, want: impl Fn(PieceKind) -> bool) -> Move {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| pos.piece_at(m.from()).is_some_and(|p| want(p.kind())))
        .expect("a matching move")
}

/// One step of a recorded walk: a move (with the pieces and the position after it) or a pop.
enum Step {
    Push(Move, Piece, Option<Piece>, Box<Position>),
    Pop,
}

/// A search-like walk from endgames and the start position: random moves, a general move one
/// time in three when there is one, take-backs, at most 30 plies deep. Recorded, so that timing
/// it measures the accumulators only, not move generation.
fn record_walk() -> Vec<(Position, Vec<Step>)> {
    const FENS: [&str; 3] = [
        "4k4/9/9/9/2r6/9/6R2/9/9/3K5 w - - 0 1",
        "4k4/4a4/3ab4/9/2h6/6H2/9/3AB4/4A4/4K4 w - - 0 1",
        START_FEN,
    ];
    let mut rng = Rng::new(1);
    let mut out = Vec::new();
    for fen in FENS {
        let root = Position::from_fen(fen).unwrap();
        let mut pos = root.clone();
        let mut steps = Vec::new();
        let mut played = Vec::new();
        for _ in 0..6000 {
            if !played.is_empty() && (rng.below(4) == 0 || played.len() > 30) {
                let (mv, undo) = played.pop().unwrap();
                pos.unmake_move(mv, undo);
                steps.push(Step::Pop);
                continue;
            }
            let moves = pos.legal_moves();
            let generals: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::General))
                .collect();
            let pool: Vec<Move> = if !generals.is_empty() && rng.below(3) == 0 {
                generals
            } else {
                moves.iter().copied().collect()
            };
            if pool.is_empty() {
                break;
            }
            let mv = pool[rng.below(pool.len() as u64) as usize];
            let piece = pos.piece_at(mv.from()).unwrap();
            let undo = pos.make_move(mv);
            steps.push(Step::Push(mv, piece, undo.captured, Box::new(pos.clone())));
            played.push((mv, undo));
        }
        out.push((root, steps));
    }
    out
}

/// Millions of nodes per second replaying `walks`, evaluating every node pushed.
fn walk_rate(net: &Network, cache: bool, walks: &[(Position, Vec<Step>)]) -> f64 {
    let mut best: f64 = 0.0;
    for _ in 0..3 {
        let start = Instant::now();
        let mut nodes = 0u64;
        for (root, steps) in walks {
            let mut stack = AccumulatorStack::new(net, root);
            stack.set_cache(cache);
            for step in steps {
                match step {
                    Step::Push(mv, piece, captured, pos) => {
                        stack.push(*mv, *piece, *captured);
                        black_box(stack.evaluate(net, pos));
                        nodes += 1;
                    }
                    Step::Pop => stack.pop(),
                }
            }
        }
        best = best.max(nodes as f64 / start.elapsed().as_secs_f64() / 1e6);
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--write") {
        let path = args.get(1).expect("--write PATH HIDDEN");
        let hidden: usize = args.get(2).and_then(|h| h.parse().ok()).unwrap_or(256);
        let spec = if args.get(3).map(String::as_str) == Some("piece-square") {
            Spec::screlu(hidden)
        } else {
            Spec::king_buckets(hidden)
        };
        let file = spec.build(1);
        std::fs::write(path, file.to_bytes()).expect("write the net");
        eprintln!(
            "wrote {path}: {}",
            Network::from_net_file(&file).unwrap().summary()
        );
    }
    let budget = Duration::from_millis(200);
    let walks = record_walk();
    // A middlegame-like position with a general move that changes the king bucket.
    let root = Position::from_fen("4k4/4a4/3ab4/9/2h6/6H2/9/3AB4/4A4/4K4 w - - 0 1").unwrap();
    let general = find_move(&root, |k| k == PieceKind::General);
    let quiet = find_move(&root, |k| k == PieceKind::Horse);
    let after = |mv: Move| {
        let mut p = root.clone();
        p.make_move(mv);
        p
    };
    let (after_general, after_quiet) = (after(general), after(quiet));
    println!(
        "net (synthetic), simd: quiet update | output | bucket-change refresh cached / uncached | walk cached / uncached  (M/s)"
    );
    for spec in [
        Spec::screlu(256),
        Spec::king_buckets(256),
        Spec::king_buckets(512),
        Spec::king_buckets(1024),
    ] {
        let net = Network::from_net_file(&spec.build(1)).unwrap();
        let mut stack = AccumulatorStack::new(&net, &root);
        let piece = root.piece_at(quiet.from()).unwrap();
        let update = rate(budget, || {
            stack.push(quiet, piece, None);
            black_box(stack.accumulators(&net, black_box(&after_quiet)));
            stack.pop();
        });
        let output = rate(budget, || {
            black_box(stack.evaluate(&net, black_box(&root)));
        });
        let king = root.piece_at(general.from()).unwrap();
        let mut refresh = [0.0; 2];
        for (slot, cache) in [true, false].into_iter().enumerate() {
            stack.set_cache(cache);
            refresh[slot] = rate(budget, || {
                stack.push(general, king, None);
                black_box(stack.accumulators(&net, black_box(&after_general)));
                stack.pop();
            });
        }
        let walk = [
            walk_rate(&net, true, &walks),
            walk_rate(&net, false, &walks),
        ];
        println!(
            "{:<40} {:>5}: {update:6.2} | {output:6.2} | {:6.2} / {:6.2} | {:5.2} / {:5.2}",
            format!("{} {}", spec.features.name(), spec.hidden),
            net.simd().name(),
            refresh[0],
            refresh[1],
            walk[0],
            walk[1],
        );
    }
}
