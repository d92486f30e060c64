//! The hash table as a user handles it: `Clear Hash` and `ucinewgame` really empty it (a `probe`
//! afterwards finds nothing), and a `Hash` size that cannot be allocated is refused with one
//! error that names the size kept, after which the engine goes on searching.

use crate::common;

use common::{best_move, field, Engine};
use std::process::Command;

/// `probe startpos`: the entry's best move, or `None` for an empty slot.
fn probe_start(e: &mut Engine) -> Option<String> {
    e.send("probe startpos");
    let line = e.expect_prefix("pophash").pop().expect("a pophash line");
    field(&line, "bestmove").map(str::to_string)
}

fn search_fills_the_start_entry(e: &mut Engine) {
    e.send("position startpos");
    let lines = e.go("depth 6");
    assert_eq!(probe_start(e), Some(best_move(&lines)), "after a search");
}

#[test]
fn clear_hash_and_ucinewgame_empty_the_table() {
    let mut e = Engine::uci();
    e.send("setoption name Hash value 8");
    assert_eq!(probe_start(&mut e), None, "a new table");
    for clear in ["setoption name Clear Hash", "ucinewgame"] {
        search_fills_the_start_entry(&mut e);
        e.send(clear);
        assert!(e.sync().is_empty(), "'{clear}' is silent");
        assert_eq!(probe_start(&mut e), None, "after '{clear}'");
        // Nor is any other position of the search left.
        e.send("probe startpos moves h2e2");
        assert_eq!(e.expect_prefix("pophash").pop().as_deref(), Some("pophash"));
    }
    // UCCI's button does the same.
    let mut e = Engine::ucci();
    search_fills_the_start_entry(&mut e);
    e.send("setoption newgame");
    assert!(e.sync().is_empty());
    assert_eq!(probe_start(&mut e), None, "after 'setoption newgame'");
    e.quit();
}

#[test]
fn a_hash_size_that_cannot_be_allocated_keeps_the_old_size() {
    // The engine under a 3 GB address-space limit: 16 GB cannot be had, 8 MB can.
    let mut command = Command::new("sh");
    command.args([
        "-c",
        "ulimit -v 3000000 && exec \"$0\"",
        env!("CARGO_BIN_EXE_cotuong"),
    ]);
    let mut e = Engine::start_command(command);
    e.send("uci");
    e.expect_line("uciok");
    e.send("setoption name Hash value 8");
    assert!(e.sync().is_empty());
    search_fills_the_start_entry(&mut e);
    e.send("setoption name Hash value 16384");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: ") && lines[0].contains("keeping 8 MB"),
        "{lines:?}"
    );
    // The engine still searches, and fills its table.
    search_fills_the_start_entry(&mut e);
    e.quit();
}
