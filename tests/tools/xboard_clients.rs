//! `cotuong` as an XBoard engine under real clients written by others: cutechess-cli (its
//! xiangqi branch, built from source, not in any registry) and GNU XBoard (Debian `xboard`, run
//! headless under `xvfb-run`). Both tools are optional, so these tests are marked ignored, which
//! cargo test's summary shows; run them with `cargo test --profile test-release --test tools --
//! --ignored xboard_clients::`, and then a missing tool is a failure that says what to install.
//!
//! cutechess-cli is taken from `$CUTECHESS_CLI` or `PATH`; without it its test says so and
//! passes (no machine has it from a package).

use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

/// A program from `env` (a path), else from `PATH` and /usr/games.
fn find(env: Option<&str>, name: &str) -> Option<PathBuf> {
    if let Some(p) = env.and_then(std::env::var_os) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(std::iter::once(PathBuf::from("/usr/games")))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A fresh scratch folder for one test, named after it and removed when dropped, pass or fail.
fn scratch(test: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cotuong-{test}-"))
        .tempdir()
        .expect("scratch dir")
}

/// What must not appear in a client's log or PGN.
const FAILURES: &[&str] = &[
    "illegal move",
    "forfeit",
    "disconnect",
    "invalid result claim",
    "loses on time",
    "connection stalls",
    "claims illegal",
    "crash",
];

fn assert_clean(text: &str, what: &str) {
    let lower = text.to_lowercase();
    for bad in FAILURES {
        assert!(!lower.contains(bad), "{what} mentions '{bad}':\n{text}");
    }
}

#[test]
#[ignore = "needs cutechess-cli with xiangqi (CUTECHESS_CLI or PATH)"]
fn cutechess_plays_cotuong_over_xboard() {
    let Some(cutechess) = find(Some("CUTECHESS_CLI"), "cutechess-cli") else {
        eprintln!(
            "skipped: cutechess-cli not found (set CUTECHESS_CLI or put it on PATH; build \
             cutechess's xiangqi branch, PR 565)"
        );
        return;
    };
    let scratch = scratch("cutechess-xboard");
    let dir = scratch.path();
    let exe = env!("CARGO_BIN_EXE_cotuong");
    let pgn = dir.join("games.pgn");
    // Black to move in the second opening: cutechess then sends its dummy `b2b3` and a
    // `setboard` with N/B letters.
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
         rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n",
    )
    .expect("write openings");
    let out = Command::new(&cutechess)
        .current_dir(dir)
        .args(["-variant", "xiangqi"])
        .args([
            "-engine",
            "name=cotuong-a",
            &format!("cmd={exe}"),
            "proto=xboard",
        ])
        .args([
            "-engine",
            "name=cotuong-b",
            &format!("cmd={exe}"),
            "proto=xboard",
        ])
        .args(["-each", "tc=4+0.05"])
        .args([
            "-openings",
            &format!("file={}", openings.display()),
            "format=epd",
            "order=sequential",
        ])
        .args(["-games", "2", "-rounds", "2", "-maxmoves", "80"])
        .args(["-pgnout", &pgn.display().to_string()])
        .output()
        .expect("run cutechess-cli");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "cutechess-cli failed:\n{log}");
    for n in 1..=4 {
        assert!(log.contains(&format!("Finished game {n} ")), "{log}");
    }
    assert_clean(&log, "cutechess-cli's output");
    let games = std::fs::read_to_string(&pgn).expect("PGN written");
    assert_eq!(games.matches("[Variant \"xiangqi\"]").count(), 4, "{games}");
    assert_clean(&games, "the PGN");
}

/// XBoard's headless match: `-mg 2` plays two games and exits, `-sgf` saves them.
fn xboard_match(xboard: &Path, dir: &Path, exe: &str) -> (String, String) {
    let pgn = dir.join("match.pgn");
    let debug = dir.join("xboard.debug");
    let out = Command::new("timeout")
        .current_dir(dir)
        .args([
            "-k",
            "5",
            "240",
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1024x768x24",
        ])
        .arg(xboard)
        .args(["-variant", "xiangqi", "-fcp", exe, "-fd"])
        .arg(dir)
        .args(["-scp", exe, "-sd"])
        .arg(dir)
        .args(["-mg", "2", "-tc", "0:10", "-inc", "0.1", "-xponder", "-sgf"])
        .arg(&pgn)
        .args(["-autosave", "-xexit", "-debug", "-debugfile"])
        .arg(&debug)
        .arg("-noGUI")
        .output()
        .expect("run xvfb-run xboard");
    assert!(
        out.status.success(),
        "xboard failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
    (
        std::fs::read_to_string(&pgn).expect("XBoard saved the PGN"),
        std::fs::read_to_string(&debug).unwrap_or_default(),
    )
}

#[test]
#[ignore = "needs xboard and xvfb-run (Debian packages xboard, xvfb)"]
fn xboard_runs_an_engine_match_with_cotuong() {
    let xboard = find(None, "xboard").expect("xboard not found: apt-get install xboard");
    find(None, "xvfb-run").expect("xvfb-run not found: apt-get install xvfb");
    let scratch = scratch("xboard-gui");
    let dir = scratch.path();
    // XBoard starts the engine from its directory, under the engine's own name.
    let exe = dir.join("cotuong");
    std::fs::copy(env!("CARGO_BIN_EXE_cotuong"), &exe).expect("copy the engine");
    let (pgn, debug) = xboard_match(&xboard, dir, &exe.display().to_string());
    assert_eq!(pgn.matches("[Variant \"xiangqi\"]").count(), 2, "{pgn}");
    assert!(pgn.contains("[White \"Cotuong"), "{pgn}");
    assert_clean(&pgn, "XBoard's PGN");
    assert!(debug.contains("feature done=1"), "no handshake in the log");
}
