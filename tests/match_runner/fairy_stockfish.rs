//! Plays short matches with Fairy-Stockfish (when installed) through `cotuong match` and checks
//! the PGN replays legally, every game has a reason, and the summary is printed; also a 3-engine
//! round robin with a crosstable and a resumed run from a recovery file.
//!
//! These tests need Fairy-Stockfish (Debian's `fairy-stockfish` package), so they are ignored by
//! default, which `cargo test`'s summary shows; `.ci/run` installs it and runs them with
//! `cargo test --profile test-release --test match_runner -- --ignored fairy_stockfish::`. Run
//! that way without Fairy-Stockfish installed, they fail: a requested test never passes unrun.

use crate::common::{check_games, find_program, replay_pgn, run_match, scratch_dir};
use std::path::PathBuf;

fn fairy() -> PathBuf {
    find_program("fairy-stockfish").unwrap_or_else(|| {
        panic!(
            "fairy-stockfish is not installed (apt-get install fairy-stockfish): this test \
             cannot run"
        )
    })
}

fn openings() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench/openings/xiangqi-openings.epd"
    )
    .to_string()
}

fn engine(fsf: &std::path::Path, name: &str, nodes: u32) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", fsf.display()),
        format!("name={name}"),
        format!("nodes={nodes}"),
    ]
}

fn common_args(dir: &std::path::Path) -> Vec<String> {
    [
        "--each",
        "proto=uci",
        "ranks=1",
        "option.UCI_Variant=xiangqi",
        "option.Threads=1",
        "option.Hash=8",
        "--concurrency",
        "1",
        "--maxmoves",
        "120",
        "--openings",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        openings(),
        "--pgnout".into(),
        dir.join("games.pgn").display().to_string(),
    ])
    .collect()
}

#[test]
#[ignore = "needs fairy-stockfish (apt-get install fairy-stockfish); .ci/run runs it"]
fn two_engine_match_replays_legally() {
    let fsf = fairy();
    let scratch = scratch_dir("fsf-match");
    let dir = scratch.path();
    let mut args = engine(&fsf, "fsf-2000", 2000);
    args.extend(engine(&fsf, "fsf-300", 300));
    args.extend(common_args(dir));
    args.extend(["--rounds", "2"].map(String::from));
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "match failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("W-D-L:"), "{stdout}");
    assert!(stdout.contains("Pentanomial"), "{stdout}");
    assert!(stdout.contains("Elo:"), "{stdout}");
    let games = replay_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 4);
    check_games(&games);
    // Openings come from the suite, so every game has a FEN tag start.
    assert!(std::fs::read_to_string(dir.join("games.pgn"))
        .unwrap()
        .contains("[FEN \""));
}

#[test]
#[ignore = "needs fairy-stockfish (apt-get install fairy-stockfish); .ci/run runs it"]
fn three_engine_round_robin_and_resume() {
    let fsf = fairy();
    let scratch = scratch_dir("fsf-rr");
    let dir = scratch.path();
    let recover = dir.join("run.json");
    let mut args = engine(&fsf, "fsf-a", 600);
    args.extend(engine(&fsf, "fsf-b", 300));
    args.extend(engine(&fsf, "fsf-c", 150));
    args.extend(common_args(dir));
    args.extend(["--games", "1", "--recover"].map(String::from));
    args.push(recover.display().to_string());
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "round robin failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("Rank"), "{stdout}");
    let games = replay_pgn(&dir.join("games.pgn"));
    assert_eq!(games.len(), 3);
    check_games(&games);
    // Running again with the same recovery file replays nothing and reports the same table.
    let (ok2, stdout2, stderr2) = run_match(&args);
    assert!(ok2, "resume failed:\n{stdout2}\n{stderr2}");
    assert!(!stderr2.contains("Finished game"), "{stderr2}");
    let table = |s: &str| {
        s.lines()
            .filter(|l| l.contains("fsf-"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(table(&stdout), table(&stdout2));
    assert_eq!(replay_pgn(&dir.join("games.pgn")).len(), 3);
    // Other settings with the same recovery file are refused.
    let mut other = args.clone();
    let pos = other.iter().position(|a| a == "nodes=150").unwrap();
    other[pos] = "nodes=151".into();
    let (ok3, _, stderr3) = run_match(&other);
    assert!(!ok3);
    assert!(stderr3.contains("other settings"), "{stderr3}");
}
