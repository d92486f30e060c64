//! The shipped opening suite: at least 200 distinct legal positions, none with the side not to
//! move in check (FEN parsing rejects those) and none already decided.

use engine_core::Position;
use std::collections::HashSet;

#[test]
fn suite_has_200_distinct_playable_positions() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench/openings/xiangqi-openings.epd"
    );
    let text = std::fs::read_to_string(path).expect("opening suite exists");
    let mut keys = HashSet::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let pos = Position::from_fen(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(pos.has_legal_move(), "{line}");
        assert!(keys.insert(pos.key()), "duplicate {line}");
    }
    assert!(keys.len() >= 200, "only {} positions", keys.len());
}
