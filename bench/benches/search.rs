//! Fixed-depth search benchmark (criterion), through the in-process search API: one thread, a
//! 16 MB table cleared before each position, the bench positions searched to a fixed depth. The
//! work is deterministic (the same nodes every run), so the time measures the search's speed.
//!
//! Run: `cargo bench -p cotuong-bench --bench search`.

use cotuong::game::Game;
use cotuong::search::{SearchRequest, Searcher};
use cotuong_bench::bench_positions;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// Depth of each search: deep enough to exercise pruning and reductions, short enough for
/// criterion's repeated runs.
const DEPTH: i32 = 7;
/// Table size (MB).
const HASH_MB: usize = 16;

fn fixed_depth(c: &mut Criterion) {
    let games: Vec<Game> = bench_positions().into_iter().map(Game::new).collect();
    let request = SearchRequest {
        depth: Some(DEPTH),
        ..SearchRequest::default()
    };
    let mut searcher = Searcher::new(HASH_MB, 1).expect("a 16 MB table");
    let search_all = |searcher: &mut Searcher| -> u64 {
        games
            .iter()
            .map(|g| {
                searcher.clear();
                searcher
                    .search(g, &request, &mut |_| {})
                    .map_or(0, |r| r.nodes)
            })
            .sum()
    };
    let nodes = search_all(&mut searcher);
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("depth_{DEPTH}"), |b| {
        b.iter(|| black_box(search_all(&mut searcher)))
    });
    group.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
