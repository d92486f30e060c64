//! `cotuong datagen` end to end, as a person runs it: a seed and a node limit decide the bytes
//! whatever the thread count, a run continued with `--append` (after a clean stop, a truncated
//! file or Ctrl-C) ends with the bytes of an uninterrupted one, and bad input fails cleanly
//! (status 2, the file left as it was).
//!
//! The games are short (few nodes per move, a low ply cap) so that the whole file runs in
//! seconds.

use nnue_train::data::{Game, GameReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

use crate::common;
use common::cli::{self, fails_cleanly, stderr};

/// The seed of the runs compared byte for byte.
const SEED: &str = "7";

/// The settings every run here shares besides `--games`, `--seed`, `--threads` and `--append`:
/// with the seed they decide the games.
const SETTINGS: [&str; 9] = [
    "--nodes",
    "300",
    "--hash",
    "1",
    "--random-plies",
    "4",
    "--max-plies",
    "60",
    "--quiet",
];

/// Games of the runs compared byte for byte.
const GAMES: u64 = 8;

/// A fresh folder for the test `name`, removed when dropped, pass or fail.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("cotuong-datagen-{name}-"))
        .tempdir()
        .expect("temp dir")
}

fn path_text(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The arguments of `cotuong datagen --out out --games games --seed seed [extra] SETTINGS`.
fn datagen_args(out: &Path, games: u64, seed: &str, extra: &[&str]) -> Vec<String> {
    let games = games.to_string();
    ["--out", path_text(out), "--games", &games, "--seed", seed]
        .iter()
        .chain(extra)
        .chain(&SETTINGS)
        .map(|a| a.to_string())
        .collect()
}

/// Runs `cotuong datagen` with `args` to the end.
fn run_datagen(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    cli::run("datagen", &args)
}

/// Runs `cotuong datagen` with `args` and asserts a clean failure; returns the message.
fn fails(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    fails_cleanly("datagen", &args)
}

/// Runs `cotuong datagen --out out --games games --threads threads [extra]` with `SEED` and
/// `SETTINGS`, which must succeed.
fn datagen(out: &Path, games: u64, threads: u32, extra: &[&str]) {
    let threads = threads.to_string();
    let args = datagen_args(
        out,
        games,
        SEED,
        &[&["--threads", &threads], extra].concat(),
    );
    let run = run_datagen(&args);
    assert!(run.status.success(), "{args:?}: {}", stderr(&run));
}

/// The settings file `datagen` writes beside `data` (and `--append` checks).
fn settings_file(data: &Path) -> PathBuf {
    let mut name = data.file_name().expect("a file").to_os_string();
    name.push(".cmd");
    data.with_file_name(name)
}

/// Writes `bytes` to `to` with the settings file of `from`: a data file `--append` accepts as
/// made by `from`'s run.
fn write_as_run_of(from: &Path, to: &Path, bytes: &[u8]) {
    std::fs::write(to, bytes).expect("write");
    std::fs::copy(settings_file(from), settings_file(to)).expect("settings file");
}

/// The games of a data file, which must read without error.
fn games_in(path: &Path) -> Vec<Game> {
    let bytes = std::fs::read(path).expect("data file");
    GameReader::new(&bytes[..])
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The reference: `GAMES` games on one thread.
fn reference(dir: &Path) -> Vec<u8> {
    let path = dir.join("reference.xqg");
    datagen(&path, GAMES, 1, &[]);
    let games = games_in(&path);
    assert_eq!(games.len() as u64, GAMES);
    assert!(games.iter().all(|g| !g.plies().is_empty()));
    std::fs::read(&path).expect("reference file")
}

#[test]
fn a_seed_and_a_node_limit_give_the_same_bytes_whatever_the_thread_count() {
    let scratch = temp_dir("threads");
    let dir = scratch.path();
    let expected = reference(dir);
    let two = dir.join("two-threads.xqg");
    datagen(&two, GAMES, 2, &[]);
    assert_eq!(std::fs::read(&two).expect("file"), expected);

    // Another seed plays other games.
    let other = dir.join("other-seed.xqg");
    let run = run_datagen(&datagen_args(&other, GAMES, "8", &[]));
    assert!(run.status.success(), "{}", stderr(&run));
    assert_ne!(std::fs::read(&other).expect("file"), expected);
}

/// The distinct games of a data file (by their bytes).
fn distinct_games(path: &Path) -> usize {
    let games: std::collections::HashSet<Vec<u8>> =
        games_in(path).iter().map(|g| g.to_bytes()).collect();
    games.len()
}

#[test]
fn varied_node_limits_make_games_from_one_start_differ_and_still_follow_the_seed() {
    let scratch = temp_dir("vary-nodes");
    let dir = scratch.path();
    // With one line to choose from, the random plies are the best moves: at a fixed node limit
    // every game is the same game. Adjudication stays off: which games it may end is drawn at
    // random, and an adjudicated game is a shorter record of the same moves.
    let fixed = dir.join("fixed.xqg");
    let one_line = ["--opening-lines", "1", "--no-adjudication"];
    datagen(
        &fixed,
        GAMES,
        2,
        &[&one_line[..], &["--vary-nodes", "0"]].concat(),
    );
    assert_eq!(distinct_games(&fixed), 1);

    // By default the node limits vary.
    let default = dir.join("default.xqg");
    datagen(&default, GAMES, 2, &one_line);
    assert!(distinct_games(&default) > 1);
    let settings = std::fs::read_to_string(settings_file(&default)).expect("settings");
    assert!(settings.contains("varied by 0.1 per game"), "{settings}");

    let varied = dir.join("varied.xqg");
    let vary = ["--opening-lines", "1", "--vary-nodes", "0.2"];
    datagen(&varied, GAMES, 2, &vary);
    let distinct = distinct_games(&varied);
    assert!(distinct > GAMES as usize / 2, "{distinct} distinct games");
    let settings = std::fs::read_to_string(settings_file(&varied)).expect("settings");
    assert!(settings.contains("varied by 0.2 per game"), "{settings}");

    // The factors come from the seed's streams: one thread writes the same bytes.
    let one = dir.join("one-thread.xqg");
    datagen(&one, GAMES, 1, &vary);
    assert_eq!(
        std::fs::read(&one).expect("file"),
        std::fs::read(&varied).expect("file")
    );

    // Out of range.
    for bad in ["1", "-0.1", "NaN"] {
        let out = dir.join("bad.xqg");
        let arg = format!("--vary-nodes={bad}");
        let err = fails(&datagen_args(&out, 2, SEED, &[&arg]));
        assert!(err.contains("--vary-nodes"), "{err}");
        assert!(!out.exists());
    }
}

#[test]
fn consecutive_shards_concatenate_to_the_bytes_of_one_run() {
    let scratch = temp_dir("shards");
    let dir = scratch.path();
    let expected = reference(dir);
    // Shards of 3, 1 and 4 games (one continued with --append), on different thread counts.
    let mut joined = Vec::new();
    for (first, games, threads) in [(0u64, 3u64, 2u32), (3, 1, 1), (4, 4, 2)] {
        let path = dir.join(format!("shard-{first}.xqg"));
        let first = first.to_string();
        if games == 4 {
            datagen(&path, 2, threads, &["--first-game", &first]);
            datagen(&path, games, threads, &["--first-game", &first, "--append"]);
        } else {
            datagen(&path, games, threads, &["--first-game", &first]);
        }
        assert_eq!(games_in(&path).len() as u64, games);
        joined.extend(std::fs::read(&path).expect("shard"));
    }
    assert_eq!(joined, expected);

    // A shard's file cannot be continued as another shard.
    let shard = dir.join("shard-3.xqg");
    let message = fails(&datagen_args(
        &shard,
        2,
        SEED,
        &["--first-game", "4", "--append"],
    ));
    assert!(message.contains("other settings"), "{message}");

    // --check validates and writes nothing.
    let checked = dir.join("checked.xqg");
    let run = run_datagen(&datagen_args(
        &checked,
        2,
        SEED,
        &["--first-game", "6", "--check"],
    ));
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(!checked.exists() && !settings_file(&checked).exists());
    let missing = dir.join("missing.fen");
    let message = fails(&datagen_args(
        &checked,
        2,
        SEED,
        &["--check", "--openings", path_text(&missing)],
    ));
    assert!(message.contains("cannot read openings"), "{message}");
    assert!(!checked.exists());
}

#[test]
fn append_continues_a_shorter_or_truncated_run_to_the_same_bytes() {
    let scratch = temp_dir("append");
    let dir = scratch.path();
    let expected = reference(dir);

    // A run stopped after half the games, then continued on two threads.
    let half = dir.join("half.xqg");
    datagen(&half, GAMES / 2, 1, &[]);
    datagen(&half, GAMES, 2, &["--append"]);
    assert_eq!(std::fs::read(&half).expect("file"), expected);

    // A file cut inside a record (a crash, a full disk): the broken game is dropped and played
    // again. One byte past the middle, since games of equal length put a record boundary
    // exactly there.
    let cut = dir.join("cut.xqg");
    write_as_run_of(
        &dir.join("reference.xqg"),
        &cut,
        &expected[..expected.len() / 2 + 1],
    );
    let continued = run_datagen(&datagen_args(&cut, GAMES, SEED, &["--append"]));
    assert!(continued.status.success(), "{}", stderr(&continued));
    assert!(
        stderr(&continued).contains("cutting it off at byte"),
        "{}",
        stderr(&continued)
    );
    assert_eq!(std::fs::read(&cut).expect("file"), expected);
}

/// Games asked of the interrupted run: far more than are written before the first game reaches
/// the file, so that the interrupt arrives while the run is going.
const MANY_GAMES: usize = 200;

/// Sends SIGINT (Ctrl-C) to a process; false where no `kill` command is at hand.
fn interrupt(pid: u32) -> bool {
    Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

#[test]
fn ctrl_c_leaves_complete_games_that_append_continues() {
    let scratch = temp_dir("interrupt");
    let dir = scratch.path();
    let path = dir.join("interrupted.xqg");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg("datagen")
        .args(datagen_args(
            &path,
            MANY_GAMES as u64,
            SEED,
            &["--threads", "2"],
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game written in two minutes"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    if !interrupt(child.id()) {
        let _ = child.kill();
        let _ = child.wait();
        panic!("no `kill` command to send Ctrl-C with: this test cannot run");
    }
    let out = child.wait_with_output().expect("datagen ends");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Only complete games were written.
    let kept = games_in(&path).len();
    assert!(kept > 0);
    assert!(
        kept < MANY_GAMES,
        "the run ended before Ctrl-C reached it, so this test saw no interrupt"
    );

    // Continuing to a total gives the bytes of an uninterrupted run of that total.
    let total = (kept as u64).max(GAMES);
    let continued = dir.join("continued.xqg");
    write_as_run_of(&path, &continued, &std::fs::read(&path).expect("file"));
    datagen(&continued, total, 2, &["--append"]);
    let whole = dir.join("whole.xqg");
    datagen(&whole, total, 2, &[]);
    assert_eq!(
        std::fs::read(&continued).expect("file"),
        std::fs::read(&whole).expect("file")
    );
}

#[test]
fn bad_input_fails_cleanly_and_leaves_the_file_alone() {
    let scratch = temp_dir("bad");
    let dir = scratch.path();
    let expected = reference(dir);
    let reference = dir.join("reference.xqg");

    // An existing file is never overwritten without --append.
    let err = fails(&datagen_args(&reference, 2, SEED, &[]));
    assert!(err.contains("--append"), "{err}");
    assert_eq!(std::fs::read(&reference).expect("file"), expected);

    // --append with other settings than the file's.
    let err = fails(&datagen_args(&reference, 9, "9", &["--append"]));
    assert!(err.contains("other settings"), "{err}");
    assert_eq!(std::fs::read(&reference).expect("file"), expected);

    // A damaged record in the middle is named with its byte offset, not cut off.
    let damaged = dir.join("damaged.xqg");
    let mut bytes = expected.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    write_as_run_of(&reference, &damaged, &bytes);
    let err = fails(&datagen_args(&damaged, 9, SEED, &["--append"]));
    assert!(err.contains("corrupt") && err.contains("byte"), "{err}");
    assert_eq!(std::fs::read(&damaged).expect("file"), bytes);

    // A file that is not game records at all.
    let foreign = dir.join("foreign.xqg");
    write_as_run_of(&reference, &foreign, &[0xb2u8; 600]);
    let err = fails(&datagen_args(&foreign, 9, SEED, &["--append"]));
    assert!(err.contains("byte 0"), "{err}");

    // A folder that does not exist, and settings out of range.
    let missing = dir.join("no-such-folder").join("x.xqg");
    fails_cleanly("datagen", &["--out", path_text(&missing), "--games", "2"]);
    assert!(!missing.exists());
    fails_cleanly(
        "datagen",
        &["--out", path_text(&dir.join("n.xqg")), "--nodes", "-5"],
    );
    assert!(!dir.join("n.xqg").exists());
}

/// The number in `text` just before `marker` (e.g. "55" of "55% kept").
fn number_before(text: &str, marker: &str) -> f64 {
    let end = text
        .find(marker)
        .unwrap_or_else(|| panic!("no '{marker}' in {text}"));
    let start = text[..end]
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |i| i + 1);
    text[start..end].parse().expect("a number")
}

#[test]
fn the_summary_gives_positions_per_core_what_they_cost_and_what_the_trainer_keeps() {
    let scratch = temp_dir("kept");
    let dir = scratch.path();
    let out = dir.join("games.xqg");
    let run = run_datagen(&datagen_args(&out, GAMES, SEED, &["--threads", "2"]));
    assert!(run.status.success(), "{}", stderr(&run));
    let summary = stderr(&run);
    let line = summary
        .lines()
        .find(|l| l.starts_with("datagen: "))
        .expect("a summary line");
    let per_second = number_before(line, "/s, ");
    let per_core = number_before(line, "/s per core");
    assert!((per_core - per_second / 2.0).abs() <= 1.0, "{line}");
    // The trainer's own count of the positions its default filters keep, on the same file.
    let net = dir.join("net.nnue");
    let train = cli::run(
        "train",
        &[path_text(&out), "-o", path_text(&net), "--epochs", "1"],
    );
    assert!(train.status.success(), "{}", stderr(&train));
    let report = format!("{}{}", cli::stdout(&train), stderr(&train));
    let trained = report
        .lines()
        .find(|l| l.contains(" kept "))
        .expect("the trainer's kept line");
    let share = number_before(trained, "%)");
    assert!(share > 0.0 && share < 100.0, "{trained}");
    // Datagen rounds to a whole per cent, the trainer to a tenth.
    let kept = number_before(line, "% kept");
    assert!((kept - share).abs() <= 0.55, "{line}\n{trained}");
    // The filters line: the trainer's kept count, and the shares of the positions two reasons
    // skip (the trainer gives counts).
    let find = |prefix: &str| {
        summary
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' line in {summary}"))
    };
    let filters = find("filters: ");
    assert_eq!(
        number_before(filters, " ("),
        number_before(trained, " of "),
        "{filters}\n{trained}"
    );
    // Both lines leave out a reason that skipped nothing; these games have positions skipped
    // for both reasons, so a missing figure is a wrong line, not a zero that would match the
    // other line's missing one.
    let seen = number_before(trained, " positions (");
    for reason in ["early ply", "capture"] {
        let trainer_count: f64 = trained
            .split(&format!("{reason} "))
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no '{reason}' count in the trainer's line: {trained}"));
        let ours: f64 = filters
            .split(&format!("{reason} "))
            .nth(1)
            .and_then(|rest| rest.split('%').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no '{reason}' share in datagen's line: {filters}"));
        assert!(
            (ours - 100.0 * trainer_count / seen).abs() <= 0.051,
            "{reason}: {filters}\n{trained}"
        );
    }
    // Nodes: a kept position costs at least what a position does; the openings' share and the
    // settled shares are shares.
    let nodes = find("nodes: ");
    let per_position = number_before(nodes, " per position");
    let per_kept = number_before(nodes, " per kept position");
    assert!(per_position >= 300.0 && per_kept >= per_position, "{nodes}");
    let opening = number_before(nodes, "% of them");
    assert!(opening > 0.0 && opening < 100.0, "{nodes}");
    let bands = find("kept by pieces on board: ");
    let total: f64 = bands.split(", ").map(|band| number_before(band, "%")).sum();
    assert!((total - 100.0).abs() <= 0.25, "{bands}");
    let settled = find("settled: ");
    for marker in ["% of positions after", "% after", "% in played-out games"] {
        let share = number_before(settled, marker);
        assert!((0.0..=100.0).contains(&share), "{settled}");
    }
}
