//! Move generation and make/unmake micro-benchmarks (criterion).
//!
//! Run: `cargo bench -p cotuong-bench` (add `RUSTFLAGS="-C target-cpu=native"` to measure a
//! native build). `make_unmake` vs `copy_make` is the measurement behind the choice of
//! make/unmake in `Position`.

use cotuong_bench::bench_positions;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine_core::{perft, Position};

fn movegen(c: &mut Criterion) {
    let positions = bench_positions();
    let moves_total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(moves_total as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.legal_moves());
            }
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).count_legal_moves()).sum::<u64>())
    });
    group.bench_function("legal_captures", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.legal_captures());
            }
        })
    });
    group.bench_function("gives_check", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                for m in p.legal_moves() {
                    n += p.gives_check(m) as u32;
                }
            }
            n
        })
    });
    group.finish();
}

fn make_unmake(c: &mut Criterion) {
    let positions = bench_positions();
    let lists: Vec<_> = positions.iter().map(|p| p.legal_moves()).collect();
    let moves_total: usize = lists.iter().map(|l| l.len()).sum();
    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(moves_total as u64));
    group.bench_function("make_unmake", |b| {
        let mut work: Vec<Position> = positions.clone();
        b.iter(|| {
            for (p, list) in work.iter_mut().zip(&lists) {
                for &m in list {
                    let undo = p.make_move(m);
                    black_box(p.key());
                    p.unmake_move(m, undo);
                }
            }
        })
    });
    group.bench_function("copy_make", |b| {
        b.iter(|| {
            for (p, list) in positions.iter().zip(&lists) {
                for &m in list {
                    let mut child = p.clone();
                    child.make_move(m);
                    black_box(child.key());
                }
            }
        })
    });
    group.finish();
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut start = Position::startpos();
    let nodes = perft(&mut start, 4);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("startpos_depth_4", |b| b.iter(|| perft(black_box(&mut start), 4)));
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_bench);
criterion_main!(benches);
