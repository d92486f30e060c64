//! `cotuong bench [depth]`: a fixed set of positions searched to a fixed depth with one thread,
//! the default rules and a 16 MB table, cleared before each position. The total node count is a
//! deterministic signature of the search (quoted in commit messages when it changes); nodes/s
//! measures speed. With more threads (and any table size) the same run measures the time to
//! depth of the parallel search; its node count then varies from run to run.

use crate::eval::Evaluator;
use crate::game::Game;
use crate::search::{SearchRequest, Searcher};
use engine_core::Position;
use std::io::Write;
use std::time::Instant;

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 10;
/// Hash size of the bench (MB).
pub const BENCH_HASH_MB: usize = 16;

/// How a bench run searches.
#[derive(Copy, Clone, Debug)]
pub struct BenchConfig {
    /// Depth per position.
    pub depth: u32,
    /// Search threads (1 for the signature).
    pub threads: usize,
    /// Table size in megabytes.
    pub hash_mb: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            depth: DEFAULT_DEPTH,
            threads: 1,
            hash_mb: BENCH_HASH_MB,
        }
    }
}

impl BenchConfig {
    /// Whether the node count of this run is the search's signature (the default threads and
    /// table size).
    pub fn gives_signature(&self) -> bool {
        self.threads == 1 && self.hash_mb == BENCH_HASH_MB
    }
}

/// Openings, middle games, endgames, positions with checks and mates.
pub const POSITIONS: &[&str] = &include!("bench_positions.in");

/// What a bench run measured.
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall-clock milliseconds of the whole run, table clears included.
    pub millis: u64,
    /// Milliseconds spent searching, without the table clear before each position: the time
    /// to depth that thread counts are compared by (a clear of a large table costs the same
    /// for any thread count and would dilute their ratio at shallow depths).
    pub search_millis: u64,
}

/// Searches every bench position as `config` says with `evaluator`, printing one line per
/// position (nodes, time, best move) and the totals.
pub fn run(
    config: BenchConfig,
    evaluator: Evaluator,
    out: &mut dyn Write,
) -> std::io::Result<BenchReport> {
    let mut searcher =
        Searcher::new(config.hash_mb, config.threads.max(1)).map_err(std::io::Error::other)?;
    searcher.set_evaluator(evaluator);
    let request = SearchRequest {
        depth: Some(config.depth.clamp(1, 100) as i32),
        ..SearchRequest::default()
    };
    let start = Instant::now();
    let mut total = 0u64;
    let mut searching = std::time::Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("bench FEN {i}: {e}"),
            )
        })?;
        searcher.clear();
        let position_start = Instant::now();
        let searched = searcher.search(&Game::new(pos), &request, &mut |_| {});
        let position_time = position_start.elapsed();
        searching += position_time;
        let Some(r) = searched else {
            writeln!(out, "position {:>2}: no legal move", i + 1)?;
            continue;
        };
        writeln!(
            out,
            "position {:>2}: {} nodes, {} ms, best {}",
            i + 1,
            r.nodes,
            position_time.as_millis(),
            engine_core::move_text(r.best, engine_core::RankBase::Zero)
        )?;
        total += r.nodes;
    }
    let millis = start.elapsed().as_millis() as u64;
    writeln!(out, "===========================")?;
    let search_millis = searching.as_millis() as u64;
    writeln!(out, "Total time (ms) : {millis}")?;
    writeln!(out, "Search time (ms): {search_millis}")?;
    writeln!(out, "Nodes searched  : {total}")?;
    writeln!(out, "Nodes/second    : {}", total * 1000 / millis.max(1))?;
    out.flush()?;
    Ok(BenchReport {
        nodes: total,
        millis,
        search_millis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_time_leaves_out_the_table_clears() {
        let config = BenchConfig {
            depth: 2,
            threads: 1,
            hash_mb: 64,
        };
        let mut out = Vec::new();
        let report = run(config, Evaluator::Handcrafted, &mut out).expect("bench runs");
        let text = String::from_utf8(out).expect("bench output is text");
        let line = |prefix: &str| -> u64 {
            let line = text
                .lines()
                .find(|l| l.starts_with(prefix))
                .unwrap_or_else(|| panic!("no '{prefix}' line in:\n{text}"));
            line.rsplit(':').next().unwrap().trim().parse().unwrap()
        };
        assert_eq!(line("Total time (ms)"), report.millis);
        assert_eq!(line("Search time (ms)"), report.search_millis);
        assert_eq!(line("Nodes searched"), report.nodes);
        assert!(report.search_millis <= report.millis);
        assert!(report.nodes > 0);
    }
}
