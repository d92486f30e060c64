//! What a new user reads: the help names every dialect, notation and default, `--threads 0`
//! means all cores wherever it is accepted, games are counted from 1 in every message, counts
//! agree with their nouns, `--version` names the commit, and datagen's and train's messages
//! say what a file is and what to do.

use std::path::PathBuf;
use std::process::{Command, Output};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_cotuong");

/// Runs `cotuong ARGS` and returns its output.
fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("cotuong runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The long help of a subcommand (`[]`: the top level).
fn help(command: &[&str]) -> String {
    let mut args = command.to_vec();
    args.push("--help");
    let out = run(&args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    stdout(&out)
}

/// The paragraph of `option` in a long help text (from its line to the next option's).
fn option_help(help: &str, option: &str) -> String {
    // The option's own line: `--name <VALUE>` or `-n, --name <VALUE>`, not a mention of it.
    let names = |l: &str| {
        let l = l.trim_start();
        let l = match l.split_once(", ") {
            Some((short, rest)) if short.len() == 2 && short.starts_with('-') => rest,
            _ => l,
        };
        l.split(' ').next() == Some(option)
    };
    let mut lines = help.lines().skip_while(|l| !names(l));
    let mut text: Vec<&str> = lines.next().into_iter().collect();
    text.extend(lines.take_while(|l| !l.trim_start().starts_with('-')));
    assert!(!text.is_empty(), "{option} in {help}");
    text.join(" ")
}

/// A fresh folder for the test `name`, removed when dropped, pass or fail.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cotuong-words-{name}-"))
        .tempdir()
        .expect("temp dir")
}

#[test]
fn the_help_names_xboard_beside_uci_and_ucci() {
    let top = help(&[]);
    assert!(top.contains("XBoard"), "{top}");
    let top_match = top.lines().find(|l| l.trim_start().starts_with("match"));
    assert!(
        top_match.is_some_and(|l| l.contains("XBoard")),
        "the match line names XBoard: {top}"
    );
    let matches = help(&["match"]);
    assert!(
        option_help(&matches, "--engine").contains("proto=uci|ucci|xboard"),
        "{matches}"
    );
}

#[test]
fn notation_options_list_san_where_it_is_accepted() {
    for (command, option) in [
        ("judge", "--notation"),
        ("analyze", "--notation"),
        ("play", "--notation"),
    ] {
        let text = option_help(&help(&[command]), option);
        assert!(text.contains("san"), "{command} {option}: {text}");
    }
    // And each is accepted.
    let out = run(&["judge", "--notation", "san", "--moves", "Che2"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn defaults_are_shown() {
    let analyze = help(&["analyze"]);
    assert!(option_help(&analyze, "--depth").contains("12"), "{analyze}");
    let tune = help(&["tune"]);
    assert!(option_help(&tune, "--nodes").contains("5000"), "{tune}");
    let play = help(&["play"]);
    assert!(option_help(&play, "--fen").contains("default"), "{play}");
    let matches = help(&["match"]);
    assert!(
        option_help(&matches, "--openings").contains("initial position"),
        "{matches}"
    );
}

#[test]
fn threads_zero_means_all_cores_everywhere() {
    for command in [
        &["perft"][..],
        &["bench"],
        &["analyze"],
        &["datagen"],
        &["train"],
    ] {
        let text = option_help(&help(command), "--threads");
        assert!(
            text.contains("0") && text.contains("all cores"),
            "{command:?} --threads: {text}"
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = run(&["perft", "2", "--threads", "0"]);
    assert!(out.status.success(), "{out:?}");
    let plural = if cores == 1 { "" } else { "s" };
    assert!(
        stderr(&out).contains(&format!("({cores} thread{plural})")),
        "perft --threads 0 uses every core: {out:?}"
    );
    let out = run(&[
        "analyze",
        "--fen",
        "startpos",
        "--depth",
        "2",
        "--threads",
        "0",
        "--quiet",
    ]);
    assert!(out.status.success(), "analyze --threads 0: {out:?}");
}

#[test]
fn game_zero_says_games_are_counted_from_one() {
    let scratch = temp_dir("game-zero");
    let dir = scratch.path();
    let pgn = dir.join("one.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. h2e2 h9g7 *\n").expect("written");
    let pgn = pgn.to_str().expect("a UTF-8 path");
    for command in ["judge", "analyze"] {
        let out = run(&[command, "--pgn", pgn, "--game", "0"]);
        assert_eq!(out.status.code(), Some(2), "{command}: {out:?}");
        assert!(
            stderr(&out).contains("games are counted from 1"),
            "{command}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn counts_agree_with_their_nouns_and_judge_says_plies_and_moves() {
    let out = run(&["judge", "--moves", "h2e2"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(!text.contains("1 plies"), "{text}");
    assert!(text.contains("after 1 ply:"), "{text}");
    assert!(text.contains("1 ply without a capture"), "{text}");
    assert!(
        text.contains("the limit of 60 moves (120 plies)"),
        "the limit in moves and in plies: {text}"
    );
    let out = run(&["judge", "--moves", "h2e2", "--no-capture-moves", "0"]);
    assert!(
        stdout(&out).contains("the no-capture rule is off"),
        "{out:?}"
    );
}

#[test]
fn version_names_the_commit() {
    let out = run(&["--version"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(text.starts_with("cotuong "), "{text}");
    // A build from a tarball has no commit to name.
    if PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(".git")
        .exists()
    {
        assert!(text.contains("(commit "), "{text}");
    }
}

/// The settings of the short datagen runs here.
const DATAGEN: [&str; 7] = [
    "--nodes",
    "200",
    "--max-plies",
    "40",
    "--threads",
    "1",
    "--quiet",
];

#[test]
fn datagen_games_zero_plays_nothing_and_says_so() {
    let scratch = temp_dir("games-zero");
    let dir = scratch.path();
    let out_file = dir.join("g.xqg");
    let mut args = vec![
        "datagen",
        "--out",
        out_file.to_str().expect("a UTF-8 path"),
        "--games",
        "0",
    ];
    args.extend(DATAGEN);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    let text = stderr(&out);
    assert!(!text.contains("already holds"), "{text}");
    assert!(text.contains("no game to play"), "{text}");
    assert!(!out_file.exists(), "nothing written");
}

#[test]
fn datagen_append_without_its_settings_file_explains_that_file() {
    let scratch = temp_dir("append-no-cmd");
    let dir = scratch.path();
    let out_file = dir.join("g.xqg");
    let path = out_file.to_str().expect("a UTF-8 path");
    let mut args = vec!["datagen", "--out", path, "--games", "1"];
    args.extend(DATAGEN);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    std::fs::remove_file(dir.join("g.xqg.cmd")).expect("the settings file was written");
    let mut args = vec!["datagen", "--out", path, "--games", "2", "--append"];
    args.extend(DATAGEN);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let text = stderr(&out);
    assert!(
        text.contains("settings file") && text.contains("g.xqg.cmd") && text.contains("--append"),
        "{text}"
    );
    assert!(text.contains("new file"), "what to do instead: {text}");
}

#[test]
fn train_names_a_file_that_is_not_datagen_output_and_counts_games_from_one() {
    let scratch = temp_dir("train");
    let dir = scratch.path();
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let short = dir.join("short.txt");
    std::fs::write(&short, "hello\n").expect("written");
    for file in [readme, short.to_str().expect("a UTF-8 path")] {
        let out = run(&["train", file, "--epochs", "1", "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let text = stderr(&out);
        assert!(
            text.contains("is not game records") && text.contains("cotuong datagen"),
            "{file}: {text}"
        );
    }
    // A datagen file cut inside its second game: the message counts that game as game 2.
    let data = dir.join("g.xqg");
    let mut args = vec![
        "datagen",
        "--out",
        data.to_str().expect("a UTF-8 path"),
        "--games",
        "2",
    ];
    args.extend(DATAGEN);
    assert!(run(&args).status.success());
    let bytes = std::fs::read(&data).expect("read");
    std::fs::write(&data, &bytes[..bytes.len() - 1]).expect("written");
    let out = run(&[
        "train",
        data.to_str().expect("a UTF-8 path"),
        "--epochs",
        "1",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("(game 2 starting"), "{out:?}");
}
