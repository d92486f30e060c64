//! A running engine: the child process, a reader thread that timestamps every output line and
//! feeds it into a channel (so waiting with a deadline is exact and costs no CPU), and the
//! handshake / new game / think exchanges of the three protocols. The handshake also checks the
//! engine's options: one the engine does not know, or refuses, stops the run with its answer.

use super::engine_config::EngineConfig;
use super::wire::{parse_bestmove, parse_info, BestMove, Dialect, GoLimits, InfoFields, Score};
use super::xboard_wire::{self as xb, Features, Reply};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use engine_core::{Move, Position};
use std::cell::Cell;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A shared protocol log (`--debug-log`): every line to and from every engine, stamped with the
/// time since the run started. `-` streams it to standard output.
#[derive(Clone)]
pub struct ProtocolLog {
    file: Arc<Mutex<Box<dyn Write + Send>>>,
    start: Instant,
}

impl ProtocolLog {
    /// Creates (truncates) the log file, or writes to standard output for `-`.
    pub fn create(path: &std::path::Path) -> Result<ProtocolLog, String> {
        let file: Box<dyn Write + Send> = if path.as_os_str() == "-" {
            Box::new(crate::tools::stdout::writer())
        } else {
            Box::new(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write debug log {}: {e}", path.display()))?,
            )
        };
        Ok(ProtocolLog {
            file: Arc::new(Mutex::new(file)),
            start: Instant::now(),
        })
    }

    fn write(&self, engine: &str, arrow: &str, line: &str, at: Instant) {
        let t = at.saturating_duration_since(self.start).as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            // Flushed per line so that a log on standard output interleaves with the report.
            let _ = writeln!(f, "{t:10.4} {engine} {arrow} {line}").and_then(|()| f.flush());
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
/// How long an XBoard engine without `ping` gets to answer a batch of commands.
const XBOARD_QUIET: Duration = Duration::from_millis(300);
/// Words by which an engine's answer to an option says it did not take it.
const REFUSAL_WORDS: &[&str] = &[
    "unknown", "error", "no such", "refus", "invalid", "illegal", "not ", "ignored", "range",
];

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
    /// The engine does not know or refused what it was sent (the message quotes it).
    Refused(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Crashed => write!(f, "engine process exited"),
            EngineError::NoAnswer(what) => write!(f, "no answer ({what})"),
            EngineError::Broken(e) => write!(f, "cannot write to engine: {e}"),
            EngineError::Refused(e) => write!(f, "{e}"),
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
    /// UCI/UCCI: the option names of the engine's listing.
    listed: Vec<String>,
    /// XBoard: what the engine announced.
    features: Features,
    /// XBoard: how many moves of the current game the engine's board has.
    synced: usize,
    /// XBoard: the start position of the game was sent (or is the initial position).
    board_sent: bool,
    /// XBoard: the last `ping` number.
    ping: u32,
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
            listed: Vec::new(),
            features: Features::default(),
            synced: 0,
            board_sent: false,
            ping: 0,
        };
        engine.handshake()?;
        Ok(engine)
    }

    /// The configuration this process was started from.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write(&self.config.name, ">", line, Instant::now());
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Broken(e.to_string()))
    }

    /// Tells an engine past its deadline to move now (`command`: `stop`, XBoard's `?`) and
    /// swallows its late answer, so that it stays usable; whether it answered within
    /// [`STOP_GRACE`].
    fn halt_late(&mut self, command: &str, what: &str, is_answer: impl Fn(&str) -> bool) -> bool {
        self.send(command).is_ok()
            && self
                .wait_for(Instant::now() + STOP_GRACE, what, |_| {}, is_answer)
                .is_ok()
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
        if dialect == Dialect::Xboard {
            self.xboard_handshake()?;
        } else {
            self.send(dialect.hello())?;
            let mut millis = false;
            let mut listed = Vec::new();
            let ok = dialect.hello_ok();
            self.wait_for(
                Instant::now() + HANDSHAKE_TIMEOUT,
                ok,
                |l| {
                    if let Some(name) = listed_option(l, dialect) {
                        if name == "usemillisec" {
                            millis = true;
                        }
                        listed.push(name);
                    }
                },
                |l| l.trim() == ok,
            )?;
            self.listed = listed;
            if dialect == Dialect::Ucci && millis {
                self.send("setoption usemillisec true")?;
                self.millis = true;
            }
        }
        let options = self.config.options.clone();
        self.remarks = self.set_options(&options)?;
        self.check_options(&options)
    }

    /// `xboard`, `protover 2`, the `feature` lines up to `done=1`, each answered `accepted`.
    fn xboard_handshake(&mut self) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut features = Features::default();
        let mut names = Vec::new();
        let done = Cell::new(false);
        self.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            "feature done=1",
            |l| {
                names.extend(features.read(l));
                done.set(features.done);
            },
            |_| done.get(),
        )?;
        for name in names {
            // The runner sends coordinates, never SAN.
            let answer = if name == "san" {
                "rejected"
            } else {
                "accepted"
            };
            self.send(&format!("{answer} {name}"))?;
        }
        if !features.variants.iter().any(|v| v == "xiangqi") {
            return Err(EngineError::Refused(format!(
                "the engine does not offer variant xiangqi (its variants: {})",
                features.variants.join(",")
            )));
        }
        self.features = features;
        Ok(())
    }

    /// Stops the run when the engine does not know, or refuses, one of `options`, quoting its
    /// answer. An option missing from a UCI or UCCI listing that the engine took without a word
    /// is only noted on stderr: engines have hidden options (Cotuong's `StrengthSeed`).
    fn check_options(&self, options: &[(String, String)]) -> Result<(), EngineError> {
        let dialect = self.config.wire.dialect;
        let engine = &self.config.name;
        for (name, value) in options {
            let lower = name.to_ascii_lowercase();
            let answer: Vec<&str> = self
                .remarks
                .iter()
                .map(String::as_str)
                .filter(|l| {
                    let l = l.to_ascii_lowercase();
                    l.contains(&lower) && REFUSAL_WORDS.iter().any(|w| l.contains(w))
                })
                .collect();
            let listed = match dialect {
                Dialect::Xboard => {
                    self.features.has_option(name)
                        || (lower == "memory" && self.features.memory)
                        || (lower == "cores" && self.features.smp)
                }
                Dialect::Uci | Dialect::Ucci => {
                    self.listed.iter().any(|o| o.eq_ignore_ascii_case(name))
                }
            };
            let offered = match dialect {
                Dialect::Xboard => self.features.options.join(", "),
                Dialect::Uci | Dialect::Ucci => self.listed.join(", "),
            };
            if !answer.is_empty() {
                return Err(EngineError::Refused(format!(
                    "it refused option {name}={value}; it answered: {}",
                    answer.join(" | ")
                )));
            }
            if !listed {
                if dialect == Dialect::Xboard {
                    return Err(EngineError::Refused(format!(
                        "it has no option '{name}' (it offers: {offered}); it \
                         answered nothing to 'option {name}={value}'"
                    )));
                }
                eprintln!(
                    "warning: engine '{engine}' does not list option '{name}' (it lists: \
                     {offered}) but took {name}={value} without a word; assuming a hidden option"
                );
            }
        }
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
            let line = match (dialect, name.to_ascii_lowercase().as_str()) {
                (Dialect::Xboard, "memory") => format!("memory {value}"),
                (Dialect::Xboard, "cores") => format!("cores {value}"),
                _ => dialect.setoption(name, value),
            };
            self.send(&line)?;
        }
        self.sync()
    }

    /// The `info string` lines of the handshake (see [`EngineProcess::set_options`]).
    pub fn remarks(&self) -> &[String] {
        &self.remarks
    }

    /// `isready` → `readyok` (XBoard: `ping N` → `pong N`); returns the engine's remarks seen
    /// meanwhile: `info string` lines and any other line that is not an `info` line (UCI
    /// engines such as Stockfish answer `No such option: X`), for XBoard every line.
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        let mut remarks = Vec::new();
        let keep = |l: &str, remarks: &mut Vec<String>| {
            let t = l.trim();
            let info = t.starts_with("info") && !t.starts_with(REMARK_PREFIX);
            if !t.is_empty() && !info {
                remarks.push(t.to_string());
            }
        };
        if self.config.wire.dialect == Dialect::Xboard {
            if !self.features.ping {
                let quiet = self.wait_for(
                    Instant::now() + XBOARD_QUIET,
                    "quiet",
                    |l| keep(l, &mut remarks),
                    |_| false,
                );
                return match quiet {
                    Err(EngineError::NoAnswer(_)) | Ok(_) => Ok(remarks),
                    Err(e) => Err(e),
                };
            }
            self.ping += 1;
            let pong = format!("pong {}", self.ping);
            self.send(&format!("ping {}", self.ping))?;
            self.wait_for(
                Instant::now() + HANDSHAKE_TIMEOUT,
                &pong,
                |l| {
                    if l.trim() != pong {
                        keep(l, &mut remarks)
                    }
                },
                |l| l.trim() == pong,
            )?;
            return Ok(remarks);
        }
        self.send("isready")?;
        self.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            "readyok",
            |l| {
                if l.trim() != "readyok" {
                    keep(l, &mut remarks)
                }
            },
            |l| l.trim() == "readyok",
        )?;
        Ok(remarks)
    }

    /// Prepares for a new game (`ucinewgame` for UCI; XBoard: `new`, `variant xiangqi`, the
    /// time control, `post`, `easy`, `force`) and waits until the engine is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        if self.config.wire.dialect == Dialect::Xboard {
            let mut lines = vec!["new".to_string(), "variant xiangqi".to_string()];
            lines.extend(xb::time_control_commands(&self.config.time_control));
            lines.extend(["post", "easy", "force"].map(String::from));
            for l in &lines {
                self.send(l)?;
            }
            self.synced = 0;
            self.board_sent = false;
            return self.sync().map(|_| ());
        }
        if let Some(cmd) = self.config.wire.dialect.new_game() {
            self.send(cmd)?;
        }
        self.sync().map(|_| ())
    }

    /// One move of a game that started at `start` and continued with `history`: the engine to
    /// move gets the game in its dialect and `limits`, and its answer comes back (see
    /// [`EngineProcess::think`] for `deadline` and `hang_timeout`).
    pub fn think_game(
        &mut self,
        start: &Position,
        history: &[Move],
        limits: &GoLimits,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError> {
        let wire = self.config.wire;
        if wire.dialect == Dialect::Xboard {
            return self.xboard_think(start, history, limits, deadline, hang_timeout);
        }
        let position = wire.position_command(start, history);
        let go = wire.go_command(limits, self.millis);
        self.think(&position, &go, deadline, hang_timeout)
    }

    /// The XBoard exchange of one move: the engine is kept in force mode, gets the moves its
    /// board lacks, `time`/`otim` and `go`, and is put back in force mode after its `move`.
    fn xboard_think(
        &mut self,
        start: &Position,
        history: &[Move],
        limits: &GoLimits,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError> {
        let engine_error = ThinkError::Engine;
        // Lines left from the last move (claims, comments) are not answers to this one.
        while let Ok(o) = self.output.try_recv() {
            if matches!(o, Output::Closed) {
                return Err(engine_error(EngineError::Crashed));
            }
        }
        if !self.board_sent {
            if start.to_fen() != Position::startpos().to_fen() {
                if !self.features.setboard {
                    return Err(engine_error(EngineError::Refused(
                        "the engine has no setboard (feature setboard=1), needed for this \
                         opening"
                            .into(),
                    )));
                }
                let cmd = xb::setboard_command(start, self.config.wire.letters);
                self.send(&cmd).map_err(engine_error)?;
            }
            self.board_sent = true;
        }
        let mut sent_moves = Vec::new();
        for &mv in history.iter().skip(self.synced) {
            let cmd = xb::move_command(mv, self.features.usermove);
            self.send(&cmd).map_err(engine_error)?;
            sent_moves.push(self.config.wire.move_text(mv));
        }
        self.synced = history.len();
        for cmd in xb::clock_commands(limits) {
            self.send(&cmd).map_err(engine_error)?;
        }
        self.send("go").map_err(engine_error)?;
        let sent = Instant::now();
        let mut info = InfoFields::default();
        let limit = deadline.unwrap_or(hang_timeout);
        let mut record = |l: &str| {
            if let Reply::Thinking(i) = xb::parse_reply(l) {
                info = i;
            }
        };
        let is_answer = |l: &str| match xb::parse_reply(l) {
            Reply::Move(_) | Reply::Resign => true,
            Reply::Refusal(text) => {
                text.starts_with("Illegal move")
                    || text.contains("usermove")
                    || text.ends_with(": go")
                    || sent_moves.iter().any(|m| text.contains(m.as_str()))
            }
            _ => false,
        };
        let answer = self.wait_for(sent + limit, "move", &mut record, is_answer);
        match answer {
            Ok((line, at)) => {
                let best = match xb::parse_reply(&line) {
                    Reply::Move(text) => {
                        self.send("force").map_err(engine_error)?;
                        self.synced += 1;
                        BestMove::Move {
                            text,
                            resign: false,
                            draw: false,
                        }
                    }
                    Reply::Resign => BestMove::Move {
                        text: String::new(),
                        resign: true,
                        draw: false,
                    },
                    _ => {
                        return Err(engine_error(EngineError::Refused(format!(
                            "the engine answered '{}' to the game's moves",
                            line.trim()
                        ))))
                    }
                };
                Ok(Thought {
                    best,
                    elapsed: at.saturating_duration_since(sent),
                    score: info.score,
                    depth: info.depth,
                })
            }
            Err(EngineError::NoAnswer(_)) if deadline.is_some() => {
                let elapsed = sent.elapsed();
                let answered = self.halt_late("?", "move after ?", |l| {
                    matches!(xb::parse_reply(l), Reply::Move(_) | Reply::Resign)
                });
                let _ = self.send("force");
                Err(ThinkError::OutOfTime { elapsed, answered })
            }
            Err(e) => Err(engine_error(e)),
        }
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
                let answered = self.halt_late("stop", "bestmove after stop", |l| {
                    parse_bestmove(l).is_some()
                });
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

/// The option name of a listing line: UCI `option name NAME type ...`, UCCI `option NAME type ...`.
fn listed_option(line: &str, dialect: Dialect) -> Option<String> {
    let rest = line.trim().strip_prefix("option ")?;
    let rest = match dialect {
        Dialect::Uci => rest.strip_prefix("name ")?,
        _ => rest,
    };
    let end = rest.find(" type ").unwrap_or(rest.len());
    let name = rest[..end].trim();
    (!name.is_empty()).then(|| name.to_string())
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}
