//! Standard output that a reader closes early (`cotuong perft 3 --divide | head -1`) ends a
//! command quietly and successfully; one that cannot be written (a full disk) is one `error:`
//! line and a failure, never a panic.

#![cfg(unix)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Subcommands that print on standard output, each with arguments that make it quick.
const PRINTING: &[&[&str]] = &[
    &["perft", "3", "--divide"],
    &["bench", "3"],
    &["tune", "--list"],
    &["analyze", "--fen", "startpos", "--depth", "1", "--quiet"],
    &["judge", "--moves", "h2e2 h9g7"],
    &["play"],
];

/// Runs `cotuong args` with `input` on its standard input and `stdout` as its standard output.
fn run_with_stdout(args: &[&str], input: &[u8], stdout: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    child.wait_with_output().expect("it ends")
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    for args in PRINTING {
        // A pipe whose reading end is closed before the command writes: every write fails with
        // a broken pipe, as after `| head -1`.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = run_with_stdout(args, b"quit\n", Stdio::from(writer));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("error") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_full_disk_is_one_error_line_and_a_failure() {
    for args in PRINTING {
        // Opened for writing only: /dev/full itself is never replaced or changed.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = run_with_stdout(args, b"quit\n", Stdio::from(full));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert_ne!(
            out.status.code(),
            None,
            "{args:?}: killed by a signal: {err}"
        );
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(errors[0].contains("No space left"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The protocol loop (`cotuong` with no subcommand) given `uci` then `quit`.
fn speak_uci(stdout: Stdio) -> Output {
    run_with_stdout(&[], b"uci\nquit\n", stdout)
}

#[test]
fn the_protocol_loop_ends_on_a_full_disk_and_quietly_on_a_closed_pipe() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = speak_uci(Stdio::from(full));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert_ne!(out.status.code(), None, "killed by a signal: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains("No space left"), "{err}");

    // A GUI that went away: its end of the pipe is closed.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = speak_uci(Stdio::from(writer));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}
