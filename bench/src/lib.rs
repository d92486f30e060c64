//! Shared inputs for Cotuong's benchmarks: the positions of `cotuong bench`, so that criterion's
//! numbers and the engine's bench signature measure the same work.

use engine_core::Position;

/// The bench positions (`cotuong::bench::POSITIONS`), parsed.
pub fn bench_positions() -> Vec<Position> {
    cotuong::bench::POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench FENs are valid"))
        .collect()
}
