//! `cotuong judge` end to end: the machine-readable first line, the explanation, PGN input with
//! both rank numberings, options, and clean errors on bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cotuong");

/// Red's chariot chases an unprotected black cannon (Điều 24.14): Black wins at ply 8.
const CHASE_FEN: &str = "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1";
const CHASE_MOVES: &str = "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7";

fn judge(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("judge")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A file in the system temp directory, in a folder unique to this test process.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cotuong-judge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

#[test]
fn perpetual_chase_from_fen_and_moves() {
    let out = judge(&["--fen", CHASE_FEN, "--moves", CHASE_MOVES]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("result 0-1 perpetual-chase"));
    let explanation = lines.next().expect("explanation line");
    assert!(
        explanation.contains("Red chased the black cannon on a7"),
        "{explanation}"
    );
    assert!(explanation.contains("Điều 23 point 3"), "{explanation}");
}

#[test]
fn undecided_game_prints_star() {
    let out = judge(&["--moves", "h2e2 h9g7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn pgn_with_tags_comments_numbers_and_ranks_1_10() {
    let pgn = format!(
        "[Event \"argument\"]\n[FEN \"{CHASE_FEN}\"]\n\n\
         1. b3a3 {{chariot to the a-file}} a8b8 2. a3b3 b8a8 ; a comment\n\
         3. b3a3 a8b8 (3... a8a9) 4. a3b3 b8a8 *\n"
    );
    let path = temp_file("chase.pgn", &pgn);
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
        "{}",
        stdout(&out)
    );
    // Forcing ranks 0-9 makes the same record illegal.
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path"), "--ranks", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
}

#[test]
fn pgn_without_fen_starts_from_the_initial_position() {
    let path = temp_file("start.pgn", "1. h2-e2 h9-g7 2. h0-g2 1-0\n");
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("after 3 plies"), "{}", stdout(&out));
}

#[test]
fn no_capture_options() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 98 1";
    let out = judge(&["--fen", fen, "--moves", "d0d1 e9f9"]);
    assert!(
        stdout(&out).starts_with("result * none\n"),
        "{}",
        stdout(&out)
    );
    let out = judge(&[
        "--fen",
        fen,
        "--moves",
        "d0d1 e9f9",
        "--no-capture-moves",
        "50",
    ]);
    assert!(
        stdout(&out).starts_with("result 1/2-1/2 no-capture\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_versus_chase_option() {
    let fen = "5k3/9/9/4n4/9/9/9/4p4/4K4/4C4 w - - 0 1";
    let moves = "e1d1 e2d2 d1e1 d2e2 e1d1 e2d2 d1e1 d2e2";
    let out = judge(&["--fen", fen, "--moves", moves]);
    assert!(
        stdout(&out).starts_with("result 1-0 perpetual-check\n"),
        "{}",
        stdout(&out)
    );
    let out = judge(&["--fen", fen, "--moves", moves, "--check-vs-chase", "draw"]);
    assert!(
        stdout(&out).starts_with("result 1/2-1/2 repetition-draw\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn bad_input_is_a_clean_error() {
    let cases: [&[&str]; 6] = [
        &["--fen", "not a fen"],
        &["--moves", "h2e2 h2e2"],
        &["--moves", "zz99"],
        &["--pgn", "/nonexistent/cotuong/game.pgn"],
        &["--check-cap", "sometimes"],
        &["--fen", CHASE_FEN, "--pgn", "x.pgn"],
    ];
    for args in cases {
        let out = judge(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let path = temp_file("bad.pgn", "1. h2e2 {never closed");
    let out = judge(&["--pgn", path.to_str().expect("utf-8 path")]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("comment"), "{}", stderr(&out));
}

#[test]
fn pgn_from_standard_input() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(BIN)
        .args(["judge", "--pgn", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pgn = format!("[FEN \"{CHASE_FEN}\"]\n{CHASE_MOVES}\n");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pgn.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("finishes");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("result 0-1 perpetual-chase\n"),
        "{}",
        stdout(&out)
    );
}
