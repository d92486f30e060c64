//! Deterministic engines replay their games when a fixed-node schedule repeats its pairings:
//! `cotuong match` says so, and `--vary-nodes` gives each pass over the openings its own node
//! limit so that the games differ.

use crate::common::{run_match, scratch_dir};

/// Two games of `cotuong` against itself at a fixed node count, from the start position only,
/// so the second round repeats the first's pairings; returns (stdout, stderr, PGN text).
fn fixed_node_rematch(test: &str, extra: &[&str]) -> (String, String, String) {
    let scratch = scratch_dir(test);
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let pgn = dir.join("games.pgn");
    let mut args: Vec<String> = vec![
        "--engine".into(),
        format!("cmd={exe}"),
        "name=a".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "name=b".into(),
        "--each".into(),
        "option.Threads=1".into(),
        "option.Hash=4".into(),
        "--nodes".into(),
        "600".into(),
        "--rounds".into(),
        "2".into(),
        "--maxmoves".into(),
        "40".into(),
        "--concurrency".into(),
        "1".into(),
        "--pgnout".into(),
        pgn.display().to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "match failed:\n{stdout}\n{stderr}");
    let text = std::fs::read_to_string(&pgn).expect("read PGN");
    (stdout, stderr, text)
}

fn time_control_tags(pgn: &str) -> Vec<&str> {
    pgn.lines()
        .filter_map(|l| l.strip_prefix("[TimeControl \""))
        .filter_map(|l| l.strip_suffix("\"]"))
        .collect()
}

#[test]
fn a_repeated_fixed_node_pairing_replays_its_game_and_the_report_says_so() {
    let (stdout, stderr, pgn) = fixed_node_rematch("replays", &[]);
    assert!(
        stderr.contains("warning: every engine searches to fixed nodes"),
        "{stderr}"
    );
    assert!(
        stdout.contains("Replayed games: 2 of 4"),
        "one-thread engines at fixed nodes replay both games of the second round:\n{stdout}"
    );
    assert_eq!(time_control_tags(&pgn), ["nodes=600"; 4]);
}

#[test]
fn varied_node_limits_give_the_second_pass_games_of_its_own() {
    let (stdout, stderr, pgn) = fixed_node_rematch("vary-nodes", &["--vary-nodes"]);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(!stdout.contains("Replayed games"), "{stdout}");
    // The first pass keeps the limit given; the second searches about 19% fewer nodes.
    assert_eq!(
        time_control_tags(&pgn),
        ["nodes=600", "nodes=600", "nodes=485", "nodes=485"]
    );
}
