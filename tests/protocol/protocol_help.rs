//! The protocol prompt for a person: one greeting line on standard error when `cotuong` starts
//! on a terminal (never on a pipe, where a GUI reads, and never on standard output), and `help`
//! before a dialect is chosen and in each dialect, in a form the dialect's GUIs ignore.

use crate::common;

use common::Engine;
use std::io::Write;
use std::process::{Command, Stdio};

/// The words every help lists: the three dialects and the extra commands.
const LISTED: [&str; 7] = ["uci", "ucci", "xboard", "d", "eval", "bench", "perft"];

fn assert_lists_everything(lines: &[String]) {
    let text = lines.join("\n");
    for word in LISTED {
        assert!(
            text.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == word),
            "help does not name '{word}':\n{text}"
        );
    }
}

#[test]
fn help_before_a_dialect_is_plain_and_leaves_the_choice_open() {
    let mut e = Engine::start();
    e.send("help");
    // XBoard is still open to choose after `help`.
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_line("feature done=1");
    let help: Vec<String> = lines
        .into_iter()
        .take_while(|l| !l.starts_with("feature"))
        .collect();
    assert!(!help.is_empty(), "no help before the features");
    assert!(
        help.iter()
            .all(|l| !l.starts_with("info") && !l.contains("rror")),
        "{help:?}"
    );
    assert_lists_everything(&help);
    e.quit();
}

#[test]
fn help_in_uci_and_ucci_is_info_string_lines() {
    for mut e in [Engine::uci(), Engine::ucci()] {
        e.send("help");
        let lines = e.sync();
        assert!(!lines.is_empty(), "no help");
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("info string ") && !l.contains("error")),
            "{lines:?}"
        );
        assert_lists_everything(&lines);
        e.quit();
    }
}

#[test]
fn help_in_xboard_is_comment_lines() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect_line("feature done=1");
    e.send("help");
    e.send("ping 1");
    let mut lines = e.expect_line("pong 1");
    lines.pop();
    assert!(!lines.is_empty(), "no help");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("# ") && !l.contains("rror")),
        "{lines:?}"
    );
    assert_lists_everything(&lines);
    e.quit();
}

#[test]
fn no_greeting_when_stdin_is_a_pipe() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cotuong"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cotuong starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"isready\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("cotuong ends");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "readyok");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// What `shell` prints on a pseudo-terminal made by `script` (stdin, stdout and stderr a tty
/// unless `shell` redirects them), `quit` typed; `None` where `script` is missing.
fn on_a_terminal(shell: &str) -> Option<String> {
    let mut child = match Command::new("timeout")
        .args(["60", "script", "-qec", shell, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skipped: cannot run script(1): {e}");
            return None;
        }
    };
    let _ = child.stdin.take().expect("stdin").write_all(b"quit\n");
    let out = child.wait_with_output().expect("script ends");
    if !out.status.success() {
        eprintln!(
            "skipped: script(1) failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_terminal_gets_one_greeting_on_stderr_only() {
    let bin = env!("CARGO_BIN_EXE_cotuong");
    let dir = tempfile::tempdir().expect("temp dir");
    let stdout = dir.path().join("stdout");
    let Some(shown) = on_a_terminal(&format!("'{bin}' >'{}'", stdout.display())) else {
        return;
    };
    let greetings: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("type uci, ucci or xboard"))
        .collect();
    assert_eq!(greetings.len(), 1, "{shown:?}");
    let greeting = greetings[0];
    assert!(greeting.contains("cotuong"), "{greeting}");
    assert!(greeting.contains(env!("CARGO_PKG_VERSION")), "{greeting}");
    assert!(greeting.contains("cotuong --help"), "{greeting}");
    let written = std::fs::read_to_string(&stdout).expect("stdout file");
    assert_eq!(written, "", "the greeting went to stdout");

    // Standard error on the terminal but commands from a pipe: a GUI, no greeting.
    let shown = on_a_terminal(&format!("echo quit | '{bin}'")).expect("script ran before");
    assert!(!shown.contains("type uci"), "{shown:?}");
}
