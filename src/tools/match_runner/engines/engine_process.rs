//! The process under every engine, whatever it speaks: the child, a reader thread that
//! timestamps every output line and feeds it into a channel (so waiting with a deadline is exact
//! and costs no CPU), writing lines, and quitting. The protocols are in `uci_engine.rs` and
//! `xboard_engine.rs`.

use super::engine::EngineError;
use super::engine_config::EngineConfig;
use super::protocol_log::ProtocolLog;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long an engine that ran out of time gets to answer `stop` (XBoard: `?`).
const STOP_GRACE: Duration = Duration::from_millis(500);

/// One line of engine output, stamped when the reader thread received it.
enum Output {
    Line(String, Instant),
    Closed,
}

/// A live engine program: its input, its timestamped output and the protocol log.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    log: Option<ProtocolLog>,
}

impl EngineProcess {
    /// Starts the program of `config` with its standard input and output piped.
    pub fn spawn(
        config: &EngineConfig,
        log: Option<&ProtocolLog>,
    ) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&config.command);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", config.command)))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Spawn("no pipes to the engine".into()));
            }
        };
        let (tx, rx) = crossbeam_channel::unbounded();
        let reader_log = log.cloned();
        let reader_name = config.name.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("read-{}", config.name))
            .spawn(move || {
                // Lines are split on bytes and decoded leniently: an engine printing stray
                // non-UTF-8 bytes is not mistaken for a crash.
                let reader = BufReader::new(stdout);
                for line in reader.split(b'\n') {
                    let Ok(bytes) = line else { break };
                    let at = Instant::now();
                    let l = String::from_utf8_lossy(&bytes)
                        .trim_end_matches('\r')
                        .to_string();
                    if let Some(log) = &reader_log {
                        log.write(&reader_name, "<", &l, at);
                    }
                    if tx.send(Output::Line(l, at)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Output::Closed);
            });
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn(format!("reader thread: {e}")));
        }
        Ok(EngineProcess {
            name: config.name.clone(),
            child,
            stdin,
            output: rx,
            log: log.cloned(),
        })
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write(&self.name, ">", line, Instant::now());
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Broken(e.to_string()))
    }

    /// Waits for a line for which `is_it` holds, feeding every line to `seen`; `what` names the
    /// awaited answer in the error when the deadline passes.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        mut seen: impl FnMut(&str),
        is_it: impl Fn(&str) -> bool,
    ) -> Result<(String, Instant), EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(Output::Line(line, at)) => {
                    seen(&line);
                    if is_it(&line) {
                        return Ok((line, at));
                    }
                }
                Ok(Output::Closed) => return Err(EngineError::Crashed),
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::NoAnswer(what.into())),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crashed),
            }
        }
    }

    /// Drops the lines already received: they are not answers to what is sent next. Fails when
    /// the engine closed its output meanwhile.
    pub fn discard_pending(&mut self) -> Result<(), EngineError> {
        while let Ok(o) = self.output.try_recv() {
            if matches!(o, Output::Closed) {
                return Err(EngineError::Crashed);
            }
        }
        Ok(())
    }

    /// Tells an engine past its deadline to move now (`command`: `stop`, XBoard's `?`) and
    /// swallows its late answer, so that it stays usable; whether it answered within
    /// [`STOP_GRACE`].
    pub fn halt_late(
        &mut self,
        command: &str,
        what: &str,
        is_answer: impl Fn(&str) -> bool,
    ) -> bool {
        self.send(command).is_ok()
            && self
                .wait_for(Instant::now() + STOP_GRACE, what, |_| {}, is_answer)
                .is_ok()
    }

    /// Asks the engine to quit, then kills it if it has not exited after a grace period.
    fn shutdown(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.send("quit");
        // The reader sees end of output when the process exits.
        let deadline = Instant::now() + QUIT_GRACE;
        let _ = self.wait_for(deadline, "exit", |_| {}, |_| false);
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}
