//! Running the binary's subcommands (`judge`, `analyze`, `tune`, ...) as a person would, and the
//! checks every command-line tool shares: a bad input fails cleanly.

use std::process::{Command, Output};

/// Runs `cotuong <subcommand> <args>` to the end.
pub fn run(subcommand: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .arg(subcommand)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the subcommand and asserts a clean failure: status 2, nothing on stdout, an `error: `
/// message and no panic. Returns the message.
pub fn fails_cleanly(subcommand: &str, args: &[&str]) -> String {
    let out = run(subcommand, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: {}", stdout(&out));
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}
