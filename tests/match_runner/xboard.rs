//! `cotuong match` with XBoard engines: `cotuong` in its own XBoard dialect against itself over
//! UCI, Sjaak II (Debian `sjaakii`, when installed) over XBoard, and an option the engine does not
//! know, which stops the run before the first game with the engine's own answer.

use crate::common::{check_games, find_program, replay_pgn, run_match, scratch_dir};

fn openings() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench/openings/xiangqi-openings.epd"
    )
    .to_string()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// No game of `games` ended by an illegal move, an engine failure or a time forfeit.
fn clean(games: &[crate::common::ReplayedGame], log: &str) {
    for g in games {
        for bad in ["illegal", "failure", "time forfeit", "lost on time"] {
            assert!(
                !g.termination.to_lowercase().contains(bad)
                    && !g.details.to_lowercase().contains(bad),
                "{}: {}\n{log}",
                g.termination,
                g.details
            );
        }
    }
}

/// Plays one game pair of the engines in `args` at `tc` (at most `maxmoves` moves) into `pgn`
/// and checks that both games ran clean: no illegal move, time loss or engine failure.
fn play_one_pair(mut args: Vec<String>, tc: &str, maxmoves: &str, pgn: &std::path::Path) {
    args.extend(strings(&[
        "--tc",
        tc,
        "--rounds",
        "1",
        "--concurrency",
        "1",
        "--maxmoves",
        maxmoves,
        "--openings",
    ]));
    args.push(openings());
    args.push("--pgnout".into());
    args.push(pgn.display().to_string());
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "match failed:\n{stdout}\n{stderr}");
    let games = replay_pgn(pgn);
    assert_eq!(games.len(), 2);
    check_games(&games);
    clean(&games, &stdout);
}

#[test]
fn cotuong_xboard_against_cotuong_uci() {
    let scratch = scratch_dir("xboard-self");
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let pgn = dir.join("games.pgn");
    let args = vec![
        "--engine".to_string(),
        format!("cmd={exe}"),
        "name=cotuong-xboard".into(),
        "proto=xboard".into(),
        "option.Skill Level=20".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "name=cotuong-uci".into(),
        "proto=uci".into(),
    ];
    play_one_pair(args, "2+0.05", "40", &pgn);
}

/// Where Sjaak II is looked for: Debian's package puts it in /usr/games.
fn sjaak() -> std::path::PathBuf {
    find_program("sjaakii").expect("sjaakii not found: apt-get install sjaakii")
}

#[test]
#[ignore = "needs sjaakii (apt-get install sjaakii); .ci/run runs it"]
fn sjaak_over_xboard() {
    let sjaak = sjaak();
    let scratch = scratch_dir("xboard-sjaak");
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let pgn = dir.join("games.pgn");
    let args = vec![
        "--engine".to_string(),
        format!("cmd={exe}"),
        "name=cotuong".into(),
        "proto=xboard".into(),
        "--engine".into(),
        format!("cmd={}", sjaak.display()),
        "name=sjaak".into(),
        "proto=xboard".into(),
        "option.MultiPV=1".into(),
    ];
    play_one_pair(args, "3+0.05", "60", &pgn);
}

/// `option.SkilLevel=0` (a typo) stops the run before any game, per dialect, quoting the engine.
#[test]
fn unknown_option_stops_the_run() {
    let exe = env!("CARGO_BIN_EXE_cotuong");
    for (proto, answer) in [
        ("uci", "info string unknown option 'SkilLevel' ignored"),
        ("ucci", "info string unknown option 'SkilLevel' ignored"),
        ("xboard", "Error (unknown option): option SkilLevel=0"),
    ] {
        let args = vec![
            "--engine".to_string(),
            format!("cmd={exe}"),
            "name=typo".into(),
            format!("proto={proto}"),
            "option.SkilLevel=0".into(),
            "--engine".into(),
            format!("cmd={exe}"),
            "name=other".into(),
            "--nodes".into(),
            "100".into(),
        ];
        let (ok, stdout, stderr) = run_match(&args);
        assert!(!ok, "{proto}: the run went on:\n{stdout}\n{stderr}");
        assert!(
            stderr.contains("SkilLevel") && stderr.contains(answer),
            "{proto}: {stderr}"
        );
        // The runner reports finished games on stderr (stdout has the tables).
        assert!(!stderr.contains("Finished game"), "{proto}: {stderr}");
    }
}

/// A foreign XBoard engine's refusal is quoted too: Sjaak II lists the options it has.
#[test]
#[ignore = "needs sjaakii (apt-get install sjaakii); .ci/run runs it"]
fn sjaak_unknown_option_stops_the_run() {
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let sjaak = sjaak();
    let args = vec![
        "--engine".to_string(),
        format!("cmd={}", sjaak.display()),
        "name=sjaak".into(),
        "proto=xboard".into(),
        "option.SkilLevel=0".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "name=other".into(),
        "--nodes".into(),
        "100".into(),
    ];
    let (ok, _, stderr) = run_match(&args);
    assert!(!ok);
    assert!(
        stderr.contains("has no option 'SkilLevel'") && stderr.contains("MultiPV"),
        "{stderr}"
    );
}
