//! Perft front end shared by `cotuong perft` and the protocols' `go perft N`.

use engine_core::{move_text, perft, Move, Position, RankBase};
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// What a perft run found.
pub struct PerftReport {
    /// Per root move, in generation order (empty unless a divide was asked for or threads > 1).
    #[allow(dead_code)] // for callers that post-process per-move counts
    pub divide: Vec<(Move, u64)>,
    /// Total leaf nodes.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Runs perft to `depth`, splitting the root moves over `threads` rayon workers when above 1.
/// With `divide`, each root move's count is written to `out` as soon as it is known
/// (`h2e2: 1234`), so long runs show progress; then `Nodes searched: N` follows.
pub fn run(
    pos: &Position,
    depth: u32,
    divide: bool,
    threads: usize,
    rank_base: RankBase,
    out: &mut dyn Write,
) -> std::io::Result<PerftReport> {
    let start = Instant::now();
    let mut divided = Vec::new();
    let nodes = if depth == 0 {
        1
    } else if threads <= 1 {
        let mut p = pos.clone();
        if divide {
            for mv in p.legal_moves() {
                let undo = p.make_move(mv);
                let n = perft(&mut p, depth - 1);
                p.unmake_move(mv, undo);
                writeln!(out, "{}: {n}", move_text(mv, rank_base))?;
                divided.push((mv, n));
            }
            divided.iter().map(|(_, n)| n).sum()
        } else {
            perft(&mut p, depth)
        }
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(std::io::Error::other)?;
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        divided = pool.install(|| {
            moves
                .par_iter()
                .map(|&mv| {
                    let mut p = pos.clone();
                    p.make_move(mv);
                    (mv, perft(&mut p, depth - 1))
                })
                .collect()
        });
        if divide {
            for (mv, n) in &divided {
                writeln!(out, "{}: {n}", move_text(*mv, rank_base))?;
            }
        }
        divided.iter().map(|(_, n)| n).sum()
    };
    if divide {
        writeln!(out)?;
    }
    writeln!(out, "Nodes searched: {nodes}")?;
    out.flush()?;
    Ok(PerftReport {
        divide: divided,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}
