//! Shared inputs for Cotuong's benchmarks: the positions of `cotuong bench`, so that criterion's
//! numbers and the engine's bench signature measure the same work, and the words of protocol
//! fuzzing.

mod protocol_words;

pub use protocol_words::PROTOCOL_WORDS;

use engine_core::Position;

/// The bench positions (`cotuong::bench::POSITIONS`), parsed.
pub fn bench_positions() -> Vec<Position> {
    cotuong::bench::POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench FENs are valid"))
        .collect()
}
