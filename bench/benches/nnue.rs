//! NNUE inference micro-benchmarks (criterion): the cost of one accumulator update (a quiet move
//! and a capture, both perspectives) and of one evaluation (the output layer on up-to-date
//! accumulators), for every SIMD path this CPU has: the piece-square set at hidden 256, 512 and
//! 1024 (ids `path/H`) and the king-bucket set at 256, 512 and 1024 (ids `path/kbH`).
//!
//! Run: `cargo bench -p cotuong-bench --bench nnue`. The nets are synthetic (same shapes and
//! costs as trained ones). Paths are compared within one binary, so the default portable build
//! measures the run-time dispatch the engine uses.

use cotuong_bench::bench_positions;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use engine_core::{Move, Piece, Position};
use nnue::random_net::Spec;
use nnue::{AccumulatorStack, Network, Simd};
use std::time::Duration;

/// A middlegame position with quiet moves and captures.
fn position() -> Position {
    bench_positions()
        .into_iter()
        .find(|p| p.legal_captures().len() >= 2)
        .expect("a bench position has captures")
}

/// `mv` with the piece it moves and the piece it captures.
fn with_pieces(pos: &Position, mv: Move) -> (Move, Piece, Option<Piece>) {
    let piece = pos.piece_at(mv.from()).expect("a legal move moves a piece");
    (mv, piece, pos.piece_at(mv.to()))
}

fn nnue(c: &mut Criterion) {
    let root = position();
    let captures = root.legal_captures();
    let quiets = root.legal_quiets();
    let quiet = with_pieces(&root, quiets[0]);
    let capture = with_pieces(&root, captures[0]);
    let after = |mv: Move| {
        let mut p = root.clone();
        p.make_move(mv);
        p
    };
    let (after_quiet, after_capture) = (after(quiet.0), after(capture.0));

    let mut group = c.benchmark_group("nnue");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let specs = [256, 512, 1024]
        .into_iter()
        .flat_map(|h| [(Spec::screlu(h), ""), (Spec::king_buckets(h), "kb")]);
    for (spec, tag) in specs {
        let hidden = spec.hidden;
        let base = Network::from_net_file(&spec.build(1)).expect("synthetic net");
        for simd in Simd::available() {
            let net = base.clone().with_simd(simd);
            let id = |name: &str| BenchmarkId::new(name, format!("{}/{tag}{hidden}", simd.name()));
            let mut stack = AccumulatorStack::new(&net, &root);

            // One incremental update of both perspectives: push, compute, pop.
            for (name, (mv, piece, captured), pos) in [
                ("update_quiet", quiet, &after_quiet),
                ("update_capture", capture, &after_capture),
            ] {
                group.bench_function(id(name), |b| {
                    b.iter(|| {
                        stack.push(mv, piece, captured);
                        black_box(stack.accumulators(&net, black_box(pos)));
                        stack.pop();
                    })
                });
            }
            // The output layer on computed accumulators (what every evaluation pays).
            group.bench_function(id("evaluate"), |b| {
                b.iter(|| black_box(stack.evaluate(&net, black_box(&root))))
            });
            // For scale: both accumulators from scratch, then the output layer.
            group.bench_function(id("evaluate_from_scratch"), |b| {
                b.iter(|| black_box(net.evaluate(black_box(&root))))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
