//! `cotuong bench [depth]`: a fixed set of positions searched to a fixed depth with one thread,
//! the default rules and a 16 MB table, cleared before each position. The total node count is a
//! deterministic signature of the search (quoted in commit messages when it changes); nodes/s
//! measures speed.

use crate::limits::SearchLimits;
use crate::search::tt::TranspositionTable;
use crate::search::worker::ThreadData;
use crate::search::{self, SearchControl, SearchRequest};
use crate::time::TimeBudget;
use engine_core::rules::RuleOptions;
use engine_core::Position;
use std::io::Write;
use std::time::Instant;

/// Depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 10;
/// Hash size of the bench (MB).
const BENCH_HASH_MB: usize = 16;

/// Openings, middle games, endgames, positions with checks and mates.
pub const POSITIONS: &[&str] = &include!("bench_positions.in");

/// What a bench run measured.
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall-clock milliseconds.
    pub millis: u64,
}

/// Searches every bench position to `depth`, printing one line per position and the totals.
pub fn run(depth: u32, out: &mut dyn Write) -> std::io::Result<BenchReport> {
    let tt = TranspositionTable::new(BENCH_HASH_MB);
    let mut threads = vec![ThreadData::default()];
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("bench FEN {i}: {e}"),
            )
        })?;
        tt.clear();
        threads[0].history.clear();
        let root_moves = pos.legal_moves().to_vec();
        if root_moves.is_empty() {
            writeln!(out, "position {:>2}: no legal move", i + 1)?;
            continue;
        }
        let req = SearchRequest {
            keys: vec![pos.key()],
            moves: Vec::new(),
            root_moves,
            limits: SearchLimits {
                depth: Some(depth.clamp(1, 100) as i32),
                ..SearchLimits::default()
            },
            budget: TimeBudget::default(),
            multipv: 1,
            rules: RuleOptions::default(),
            pos,
        };
        let ctl = SearchControl::new(1, false);
        let r = search::run(&req, &tt, &ctl, &mut threads, &mut |_| {});
        writeln!(
            out,
            "position {:>2}: {} nodes, best {}",
            i + 1,
            r.nodes,
            engine_core::move_text(r.best, engine_core::RankBase::Zero)
        )?;
        total += r.nodes;
    }
    let millis = start.elapsed().as_millis() as u64;
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (ms) : {millis}")?;
    writeln!(out, "Nodes searched  : {total}")?;
    writeln!(out, "Nodes/second    : {}", total * 1000 / millis.max(1))?;
    out.flush()?;
    Ok(BenchReport {
        nodes: total,
        millis,
    })
}
