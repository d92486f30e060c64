//! Output files (`analyze -o`, `match --pgnout`, play's `save`) as a user meets them: a link is
//! written through, a FIFO or device is written to and never replaced, `-` is standard output,
//! a regular file keeps its permissions, and a failure names the file asked for.

#![cfg(unix)]

use crate::common;

use common::cli::{run, stderr, stdout};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// `cotuong analyze` of the start position at depth 1, written to `target`.
fn analyze_to(target: &Path) -> std::process::Output {
    let target = target.to_str().expect("a UTF-8 path");
    run(
        "analyze",
        &["--fen", "startpos", "--depth", "1", "--quiet", "-o", target],
    )
}

/// Asserts success and returns nothing else; the message shows what went wrong.
fn assert_success(out: &std::process::Output) {
    assert!(out.status.success(), "{}", stderr(out));
    assert!(stderr(out).is_empty(), "{}", stderr(out));
}

#[test]
fn a_symbolic_link_is_written_through() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "old").expect("written");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("target.txt", &link).expect("a link");
    assert_success(&analyze_to(&link));
    assert!(std::fs::symlink_metadata(&link)
        .expect("the link")
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&target).expect("the target");
    assert!(text.contains("depth 1"), "{text}");
    // A link to a file not yet there: the file is created where the link points.
    let dangling = dir.path().join("dangling.txt");
    std::os::unix::fs::symlink("sub/new.txt", &dangling).expect("a link");
    std::fs::create_dir(dir.path().join("sub")).expect("a folder");
    assert_success(&analyze_to(&dangling));
    assert!(std::fs::symlink_metadata(&dangling)
        .expect("the link")
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(dir.path().join("sub/new.txt")).expect("the new file");
    assert!(text.contains("depth 1"), "{text}");
}

#[test]
fn a_fifo_is_written_to_and_stays_a_fifo() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (send, receive) = std::sync::mpsc::channel();
    let reader_path = fifo.clone();
    // Opening a FIFO for reading waits for a writer: a thread, so that a replaced FIFO (which
    // no writer ever opens) fails the test instead of hanging it.
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Ok(mut f) = std::fs::File::open(&reader_path) {
            let _ = f.read_to_string(&mut text);
        }
        let _ = send.send(text);
    });
    let out = analyze_to(&fifo);
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("the FIFO")
        .file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {}", stderr(&out));
    assert_success(&out);
    let text = receive
        .recv_timeout(Duration::from_secs(30))
        .expect("the reader got the text");
    assert!(text.contains("depth 1"), "{text}");
}

#[test]
fn a_device_is_written_to_and_not_replaced() {
    assert_success(&analyze_to(Path::new("/dev/null")));
    let kind = std::fs::metadata("/dev/null")
        .expect("/dev/null")
        .file_type();
    assert!(kind.is_char_device());
}

#[test]
fn a_full_device_is_one_error_line_naming_it() {
    let out = analyze_to(Path::new("/dev/full"));
    let err = stderr(&out);
    assert!(!out.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot write /dev/full: "), "{err}");
    assert!(err.contains("No space left"), "{err}");
    let kind = std::fs::metadata("/dev/full")
        .expect("/dev/full")
        .file_type();
    assert!(kind.is_char_device());
}

#[test]
fn a_regular_file_keeps_its_permissions() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for mode in [0o640, 0o604, 0o755] {
        let target = dir.path().join(format!("out-{mode:o}.txt"));
        std::fs::write(&target, "old").expect("written");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode)).expect("chmod");
        assert_success(&analyze_to(&target));
        let meta = std::fs::metadata(&target).expect("the file");
        assert_eq!(
            meta.permissions().mode() & 0o7777,
            mode,
            "{}",
            target.display()
        );
        let text = std::fs::read_to_string(&target).expect("readable");
        assert!(text.contains("depth 1"), "{text}");
    }
    // Nothing but the outputs in the folder: no temporary file left behind.
    assert_eq!(std::fs::read_dir(dir.path()).expect("listable").count(), 3);
}

#[test]
fn an_unwritable_target_is_one_error_line_naming_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("no/such/folder/out.txt");
    let out = analyze_to(&target);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("error: cannot write {}: ", target.display())),
        "{err}"
    );
    // The temporary file's name is no business of the user's.
    assert!(
        !err.contains(".cotuong-") && !err.contains("at path"),
        "{err}"
    );
}

#[test]
fn a_dash_is_standard_output() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let analyze = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .args(["analyze", "--fen", "startpos", "--depth", "1", "--quiet"])
        .args(["-o", "-"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert_success(&analyze);
    assert!(stdout(&analyze).contains("depth 1"), "{}", stdout(&analyze));

    let cotuong = env!("CARGO_BIN_EXE_cotuong");
    let game = Command::new(cotuong)
        .args(["match", "--engine", &format!("cmd={cotuong}"), "name=a"])
        .args(["--engine", &format!("cmd={cotuong}"), "name=b"])
        .args(["--each", "proto=uci", "option.Hash=1", "--nodes", "100"])
        .args(["--games", "2", "--pgnout", "-"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert!(game.status.success(), "{}", stderr(&game));
    let text = stdout(&game);
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert!(text.contains("Results of a vs b"), "{text}");

    let mut play = Command::new(cotuong)
        .arg("play")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    play.stdin
        .take()
        .expect("its input")
        .write_all(b"save -\nquit\n")
        .expect("written");
    let played = play.wait_with_output().expect("it ends");
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(stdout(&played).contains("[Event "), "{}", stdout(&played));

    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("listable")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert!(
        left.is_empty(),
        "files written instead of standard output: {left:?}"
    );
}

#[test]
fn play_saves_through_a_link_and_keeps_the_permissions() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("game.pgn");
    std::fs::write(&target, "old").expect("written");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    let mut play = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg("play")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let command = format!("save {}\nquit\n", link.display());
    play.stdin
        .take()
        .expect("its input")
        .write_all(command.as_bytes())
        .expect("written");
    let played = play.wait_with_output().expect("it ends");
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(std::fs::symlink_metadata(&link)
        .expect("the link")
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&target).expect("the game");
    assert!(text.contains("[Event "), "{text}");
    let mode = std::fs::metadata(&target)
        .expect("the game")
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o600);
}

/// The files left in `dir`, by name.
fn files_in(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("listable")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    names.sort();
    names
}

#[test]
fn a_dash_is_standard_output_for_the_graph_and_the_debug_log_and_refused_by_tune() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cotuong = env!("CARGO_BIN_EXE_cotuong");
    std::fs::write(
        dir.path().join("g.pgn"),
        "[Event \"x\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 *\n",
    )
    .expect("written");

    // One game's graph on standard output, its table in a file.
    let graph = Command::new(cotuong)
        .args(["analyze", "--pgn", "g.pgn", "--depth", "1", "--quiet"])
        .args(["--graph", "-", "-o", "table.txt"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert_success(&graph);
    let svg = stdout(&graph);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    // The graph and the table cannot share standard output.
    let both = Command::new(cotuong)
        .args(["analyze", "--pgn", "g.pgn", "--depth", "1", "--quiet"])
        .args(["--graph", "-"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    assert!(stderr(&both).starts_with("error: "), "{}", stderr(&both));

    // The protocol log streams to standard output beside the report.
    let game = Command::new(cotuong)
        .args(["match", "--engine", &format!("cmd={cotuong}"), "name=a"])
        .args(["--engine", &format!("cmd={cotuong}"), "name=b"])
        .args(["--each", "proto=uci", "option.Hash=1", "--nodes", "100"])
        .args(["--games", "2", "--debug-log", "-"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert!(game.status.success(), "{}", stderr(&game));
    let text = stdout(&game);
    assert!(
        text.contains(" a > uci") || text.contains("uciok"),
        "{text}"
    );
    assert!(text.contains("Results of a vs b"), "{text}");

    // The tuner's trajectory is its recovery file, read back: not standard output.
    let tune = Command::new(cotuong)
        .args(["tune", "--out", "-"])
        .current_dir(dir.path())
        .output()
        .expect("the binary runs");
    assert_eq!(tune.status.code(), Some(2), "{}", stderr(&tune));
    let err = stderr(&tune);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --out -"), "{err}");

    assert_eq!(files_in(dir.path()), ["g.pgn", "table.txt"]);
}
