//! A running engine: the child process, a reader thread that timestamps every output line and
//! feeds it into a channel (so waiting with a deadline is exact and costs no CPU), and the
//! handshake / new game / think exchanges of both protocols.

use super::engine_config::EngineConfig;
use super::wire::{parse_bestmove, parse_info, BestMove, Dialect, InfoFields, Score};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A shared protocol log (`--debug-log`): every line to and from every engine, stamped with the
/// time since the run started.
#[derive(Clone)]
pub struct ProtocolLog {
    file: Arc<Mutex<std::fs::File>>,
    start: Instant,
}

impl ProtocolLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &std::path::Path) -> Result<ProtocolLog, String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("cannot write debug log {}: {e}", path.display()))?;
        Ok(ProtocolLog {
            file: Arc::new(Mutex::new(file)),
            start: Instant::now(),
        })
    }

    fn write(&self, engine: &str, arrow: &str, line: &str, at: Instant) {
        let t = at.saturating_duration_since(self.start).as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(f, "{t:10.4} {engine} {arrow} {line}");
        }
    }
}

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How long an engine that ran out of time gets to answer `stop`.
const STOP_GRACE: Duration = Duration::from_millis(500);
/// How an engine's remarks begin (refused or unknown options among them).
const REMARK_PREFIX: &str = "info string";

/// One line of engine output, stamped when the reader thread received it.
enum Output {
    Line(String, Instant),
    Closed,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// The process exited or closed its output.
    Crashed,
    /// No expected answer before the deadline (`what` says which).
    NoAnswer(String),
    /// Writing to its input failed (it has gone away).
    Broken(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Crashed => write!(f, "engine process exited"),
            EngineError::NoAnswer(what) => write!(f, "no answer ({what})"),
            EngineError::Broken(e) => write!(f, "cannot write to engine: {e}"),
        }
    }
}

/// The result of one `go`.
#[derive(Clone, Debug)]
pub struct Thought {
    /// `bestmove`/`nobestmove` as sent.
    pub best: BestMove,
    /// From writing `go` to receiving `bestmove`, measured by the runner.
    pub elapsed: Duration,
    /// The last score reported before `bestmove`, from the engine's point of view.
    pub score: Option<Score>,
    /// The last depth reported.
    pub depth: Option<u32>,
}

/// How a `think` ended when the engine did not answer in time.
#[derive(Clone, Debug)]
pub enum ThinkError {
    /// The deadline passed; the engine was told to stop. `answered` is false when it did not
    /// even answer `stop` (it must then be restarted).
    OutOfTime { elapsed: Duration, answered: bool },
    /// The process failed.
    Engine(EngineError),
}

/// A live engine process speaking UCI or UCCI.
pub struct EngineProcess {
    config: EngineConfig,
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    /// UCCI: the engine announced `usemillisec` and was switched to milliseconds.
    millis: bool,
    log: Option<ProtocolLog>,
    /// `info string` lines of the handshake.
    remarks: Vec<String>,
}

impl EngineProcess {
    /// Starts the program and completes the handshake (`uci`/`ucci`, options, `isready`).
    pub fn start(
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
        let mut engine = EngineProcess {
            config: config.clone(),
            child,
            stdin,
            output: rx,
            millis: false,
            log: log.cloned(),
            remarks: Vec::new(),
        };
        engine.handshake()?;
        Ok(engine)
    }

    /// The configuration this process was started from.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// True when UCCI times are sent in milliseconds.
    pub fn uses_millis(&self) -> bool {
        self.millis
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write(&self.config.name, ">", line, Instant::now());
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Broken(e.to_string()))
    }

    /// Waits for a line for which `is_it` holds, feeding every line to `seen`.
    fn wait_for(
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

    fn handshake(&mut self) -> Result<(), EngineError> {
        let dialect = self.config.wire.dialect;
        self.send(dialect.hello())?;
        let mut millis = false;
        let ok = dialect.hello_ok();
        self.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            ok,
            |l| {
                let mut w = l.split_whitespace();
                if w.next() == Some("option") && w.next() == Some("usemillisec") {
                    millis = true;
                }
            },
            |l| l.trim() == ok,
        )?;
        if dialect == Dialect::Ucci && millis {
            self.send("setoption usemillisec true")?;
            self.millis = true;
        }
        let options = self.config.options.clone();
        self.remarks = self.set_options(&options)?;
        Ok(())
    }

    /// Sends `setoption` for each `(name, value)` and waits until the engine is ready. Returns
    /// the engine's `info string` lines meanwhile, where engines say which options they refused
    /// or do not know.
    pub fn set_options(
        &mut self,
        options: &[(String, String)],
    ) -> Result<Vec<String>, EngineError> {
        let dialect = self.config.wire.dialect;
        for (name, value) in options {
            self.send(&dialect.setoption(name, value))?;
        }
        self.sync()
    }

    /// The `info string` lines of the handshake (see [`EngineProcess::set_options`]).
    pub fn remarks(&self) -> &[String] {
        &self.remarks
    }

    /// `isready` → `readyok`; returns the `info string` lines seen meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let mut remarks = Vec::new();
        self.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            "readyok",
            |l| {
                if l.trim_start().starts_with(REMARK_PREFIX) {
                    remarks.push(l.trim().to_string());
                }
            },
            |l| l.trim() == "readyok",
        )?;
        Ok(remarks)
    }

    /// Prepares for a new game (`ucinewgame` for UCI) and waits until the engine is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        if let Some(cmd) = self.config.wire.dialect.new_game() {
            self.send(cmd)?;
        }
        self.sync().map(|_| ())
    }

    /// Sends `position` and `go`, then waits for `bestmove`. Think time is measured from the
    /// moment `go` was written to the moment the reader received `bestmove`. With `deadline`
    /// (the most the engine may use, margin included) the engine is stopped when it passes;
    /// `hang_timeout` bounds untimed searches (nodes, depth).
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError> {
        self.send(position).map_err(ThinkError::Engine)?;
        self.send(go).map_err(ThinkError::Engine)?;
        let sent = Instant::now();
        let mut info = InfoFields::default();
        let limit = deadline.unwrap_or(hang_timeout);
        let mut record = |l: &str| {
            if let Some(i) = parse_info(l) {
                if i.score.is_some() {
                    info.score = i.score;
                }
                if i.depth.is_some() {
                    info.depth = i.depth;
                }
            }
        };
        let answer = self.wait_for(sent + limit, "bestmove", &mut record, |l| {
            parse_bestmove(l).is_some()
        });
        match answer {
            Ok((line, at)) => {
                let best = parse_bestmove(&line).unwrap_or(BestMove::NoMove);
                Ok(Thought {
                    best,
                    elapsed: at.saturating_duration_since(sent),
                    score: info.score,
                    depth: info.depth,
                })
            }
            Err(EngineError::NoAnswer(_)) if deadline.is_some() => {
                let elapsed = sent.elapsed();
                // Keep the engine usable: stop it and swallow its late bestmove.
                let answered = self.send("stop").is_ok()
                    && self
                        .wait_for(
                            Instant::now() + STOP_GRACE,
                            "bestmove after stop",
                            |_| {},
                            |l| parse_bestmove(l).is_some(),
                        )
                        .is_ok();
                Err(ThinkError::OutOfTime { elapsed, answered })
            }
            Err(e) => Err(ThinkError::Engine(e)),
        }
    }

    /// Asks the engine to quit, then kills it if it has not exited after a grace period.
    pub fn quit(mut self) {
        self.shutdown();
    }

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
