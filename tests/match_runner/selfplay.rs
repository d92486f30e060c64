//! Plays a short match of `cotuong` against itself over UCI at a tiny time control and checks the
//! PGN replays legally and every game ends with a reason. Needs the engine's protocol loop
//! (`cotuong` with no subcommand); until that is merged this test fails at the engine handshake.

use crate::common::{check_games, replay_pgn, run_match, scratch_dir};

#[test]
fn cotuong_self_play_match() {
    let scratch = scratch_dir("selfplay");
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let pgn = dir.join("games.pgn");
    let args: Vec<String> = [
        "--engine".to_string(),
        format!("cmd={exe}"),
        "name=cotuong-a".into(),
        "--engine".into(),
        format!("cmd={exe}"),
        "name=cotuong-b".into(),
        "--each".into(),
        "proto=uci".into(),
        "option.UCI_Variant=xiangqi".into(),
        "--tc".into(),
        "1+0.02".into(),
        "--rounds".into(),
        "1".into(),
        "--concurrency".into(),
        "1".into(),
        "--maxmoves".into(),
        "40".into(),
        "--openings".into(),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/bench/openings/xiangqi-openings.epd"
        )
        .into(),
        "--pgnout".into(),
        pgn.display().to_string(),
    ]
    .to_vec();
    let (ok, stdout, stderr) = run_match(&args);
    assert!(ok, "self-play match failed:\n{stdout}\n{stderr}");
    let games = replay_pgn(&pgn);
    assert_eq!(games.len(), 2);
    check_games(&games);
}
