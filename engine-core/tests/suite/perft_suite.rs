//! Perft counts of the shared suite (`tests/data/perft.tsv`, the CPW "Chinese Chess Perft
//! Results" positions). Depth 5 runs by default (a few seconds in release); deeper depths are
//! `#[ignore]`d: `cargo test --profile test-release -p engine-core --test suite -- --ignored
//! perft_suite::`.

use engine_core::{perft, Position};

const SUITE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.tsv"));

/// (FEN, counts for depths 1..=7).
fn suite() -> Vec<(String, Vec<u64>)> {
    SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            let fen = cols.next().expect("fen column").to_string();
            let counts = cols.map(|c| c.trim().parse().expect("count")).collect();
            (fen, counts)
        })
        .collect()
}

fn check_depth(max_depth: usize) {
    let suite = suite();
    assert!(suite.len() >= 11, "suite has {} positions", suite.len());
    for (fen, counts) in suite {
        let mut pos = Position::from_fen(&fen).expect("suite FEN parses");
        for depth in 1..=max_depth.min(counts.len()) {
            assert_eq!(
                perft(&mut pos, depth as u32),
                counts[depth - 1],
                "perft {depth} of {fen}"
            );
        }
        assert_eq!(
            pos.to_fen(),
            Position::from_fen(&fen).unwrap().to_fen(),
            "position restored"
        );
    }
}

#[test]
fn suite_to_depth_5() {
    check_depth(5);
}

#[test]
#[ignore = "about a minute per position in release builds"]
fn suite_to_depth_6() {
    check_depth(6);
}

#[test]
#[ignore = "tens of minutes per position"]
fn suite_to_depth_7() {
    check_depth(7);
}
