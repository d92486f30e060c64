//! Test harness: drives the `cotuong` binary over stdin/stdout with timeouts, so a broken
//! engine fails a test instead of hanging it.

#![allow(dead_code)]

pub mod cli;

use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Generous default wait for a line: CI machines are slow and shared.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(30);

/// A running engine process.
pub struct Engine {
    child: Child,
    /// `None` once [`Engine::close_input`] has closed it.
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line received so far (for failure messages).
    pub log: Vec<String>,
}

impl Engine {
    /// Starts the engine binary with no arguments (protocol mode).
    pub fn start() -> Engine {
        Engine::start_command(Command::new(env!("CARGO_BIN_EXE_cotuong")))
    }

    /// Starts `command` (the engine binary, possibly through a wrapper such as `sh -c`) with
    /// piped standard input and output.
    pub fn start_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the engine");
        let stdin = Some(child.stdin.take().expect("stdin"));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    /// Sends one command line.
    fn input(&mut self) -> &mut ChildStdin {
        self.stdin
            .as_mut()
            .expect("the engine's input is still open")
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.input();
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes as one line (for input that is not UTF-8).
    pub fn send_bytes(&mut self, line: &[u8]) {
        let stdin = self.input();
        stdin.write_all(line).expect("write to engine");
        stdin.write_all(b"\n").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Sends one command and returns when it was sent.
    pub fn send_timed(&mut self, line: &str) -> Instant {
        self.send(line);
        Instant::now()
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.log.push(l.clone());
                Some((t, l))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, the matching one last.
    pub fn read_until(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((_, l)) => {
                    let done = pred(&l);
                    out.push(l);
                    if done {
                        return out;
                    }
                }
                None => panic!(
                    "timed out waiting for a line; received so far:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Reads until a line starting with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str) -> Vec<String> {
        let p = prefix.to_string();
        self.read_until(move |l| l.starts_with(&p), LINE_TIMEOUT)
    }

    /// Reads until the exact line `line`.
    pub fn expect_line(&mut self, line: &str) -> Vec<String> {
        let p = line.to_string();
        self.read_until(move |l| l == p, LINE_TIMEOUT)
    }

    /// Asserts that no line arrives within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some((_, l)) = self.next_line(wait) {
            panic!("expected no output, got '{l}'");
        }
    }

    /// Asserts that no `bestmove` arrives within `wait` (other lines are fine).
    pub fn expect_no_bestmove_for(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some((_, l)) = self.next_line(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(!l.starts_with("bestmove"), "unexpected '{l}'");
        }
    }

    /// Sends `isready` and waits for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.expect_line("readyok");
        lines.pop();
        lines
    }

    /// Sends `quit` and waits for the process to exit (killing it after a timeout).
    pub fn quit(mut self) -> Vec<String> {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "quit");
            let _ = stdin.flush();
        }
        let status = self
            .wait_for_exit(Duration::from_secs(10))
            .unwrap_or_else(|| panic!("engine did not exit after quit"));
        assert!(status.success(), "engine exited with {status}");
        self.rest()
    }

    /// Closes the engine's standard input (end of input, as when a GUI dies) without sending
    /// anything, and waits up to `timeout` for the process to exit by itself. Returns its exit
    /// status and the lines it printed after, or `None` if it was still running (it is then
    /// killed when the `Engine` is dropped).
    pub fn close_input(mut self, timeout: Duration) -> Option<(ExitStatus, Vec<String>)> {
        drop(self.stdin.take());
        let status = self.wait_for_exit(timeout)?;
        Some((status, self.rest()))
    }

    /// Waits up to `timeout` for the process to exit; its status, or `None` if still running.
    fn wait_for_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The lines still to come from an engine that has exited.
    fn rest(&mut self) -> Vec<String> {
        let mut rest = Vec::new();
        while let Some((_, l)) = self.next_line(Duration::from_millis(200)) {
            rest.push(l);
        }
        rest
    }

    /// Starts a UCI session (handshake done).
    pub fn uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.expect_line("uciok");
        e
    }

    /// Starts a UCCI session (handshake done).
    pub fn ucci() -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.expect_line("ucciok");
        e
    }

    /// Runs `go ...` and returns the lines up to and including `bestmove`/`nobestmove`.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.read_until(
            |l| l.starts_with("bestmove") || l == "nobestmove",
            Duration::from_secs(120),
        )
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move after `bestmove`.
pub fn best_move(lines: &[String]) -> String {
    let last = lines.last().expect("some lines");
    last.split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("no move in '{last}'"))
        .to_string()
}

/// The value following `key` in an `info` line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next();
        }
    }
    None
}

/// The last `info ... score` line before the end of `lines`.
pub fn last_score_line(lines: &[String]) -> &str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" score "))
        .unwrap_or_else(|| panic!("no score line in:\n{}", lines.join("\n")))
}

/// Whether `mv` is legal after `moves` (played from the start position) in `base`'s numbering.
pub fn legal_in(moves: &[&str], mv: &str, base: engine_core::RankBase) -> bool {
    let mut pos = engine_core::Position::startpos();
    for m in moves {
        let m = pos.parse_move(m, base).unwrap();
        pos.make_move(m);
    }
    pos.parse_move(mv, base).is_ok()
}
