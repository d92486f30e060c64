//! Shared inputs for Cotuong's benchmarks: a fixed, varied set of positions so that numbers from
//! different runs and machines measure the same work.

use engine_core::Position;

/// Opening, middlegame and endgame positions (the shared perft suite's starting points).
pub const BENCH_FENS: [&str; 8] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
];

/// The bench positions, parsed.
pub fn bench_positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench FENs are valid"))
        .collect()
}
