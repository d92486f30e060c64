//! What the match asks of an engine, whatever protocol it speaks: one interface with a UCI/UCCI
//! and an XBoard implementation, and [`start_engine`], the one place that picks between them.

use super::engine_config::EngineConfig;
use super::engine_process::EngineProcess;
use super::protocol_log::ProtocolLog;
use super::uci_engine::UciEngine;
use super::wire::{BestMove, Dialect, GoLimits, Score, UciWording};
use super::xboard_engine::XboardEngine;
use engine_core::{Move, Position};
use std::fmt;
use std::time::Duration;

/// How long the handshake and `isready` (XBoard: `ping`) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How an engine's remarks begin (refused or unknown options among them).
const REMARK_PREFIX: &str = "info string";
/// Words by which an engine's answer to an option says it did not take it.
const REFUSAL_WORDS: &[&str] = &[
    "unknown", "error", "no such", "refus", "invalid", "illegal", "not ", "ignored", "range",
];

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

/// The engine's answer for one move.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The move (or resignation, or none) as the engine sent it.
    pub best: BestMove,
    /// From asking for the move to receiving it, measured by the runner.
    pub elapsed: Duration,
    /// The last score reported before the move, from the engine's point of view.
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

/// A running engine, ready after its handshake, as the games and the tuner drive it.
pub trait MatchEngine: Send {
    /// The configuration it was started from.
    fn config(&self) -> &EngineConfig;

    /// Sends each `(name, value)` option and waits until the engine is ready. Returns the
    /// engine's remarks meanwhile, where engines say which options they refused or do not know.
    fn set_options(&mut self, options: &[(String, String)]) -> Result<Vec<String>, EngineError>;

    /// The remarks of the handshake's options (see [`MatchEngine::set_options`]).
    fn remarks(&self) -> &[String];

    /// Prepares for a new game and waits until the engine is ready.
    fn new_game(&mut self) -> Result<(), EngineError>;

    /// One move of the game that started at `start` and continued with `history`: the engine
    /// to move gets the game and `limits`, and its answer comes back. Think time is measured by
    /// the runner. With `deadline` (the most the engine may use, margin included) the engine is
    /// stopped when it passes; `hang_timeout` bounds untimed searches (nodes, depth).
    fn think(
        &mut self,
        start: &Position,
        history: &[Move],
        limits: &GoLimits,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError>;

    /// Asks the engine to quit, and kills it if it has not exited after a grace period: what
    /// dropping its process does.
    fn quit(self: Box<Self>) {
        drop(self);
    }
}

/// Starts the engine of `config` and completes the handshake of its protocol, options
/// included: an option the engine does not know, or refuses, fails the start with its answer.
pub fn start_engine(
    config: &EngineConfig,
    log: Option<&ProtocolLog>,
) -> Result<Box<dyn MatchEngine>, EngineError> {
    let process = EngineProcess::spawn(config, log)?;
    Ok(match config.wire.dialect {
        Dialect::Uci => Box::new(UciEngine::start(process, config, UciWording::Uci)?),
        Dialect::Ucci => Box::new(UciEngine::start(process, config, UciWording::Ucci)?),
        Dialect::Xboard => Box::new(XboardEngine::start(process, config)?),
    })
}

/// The remark an engine's line makes, if it is one: `info string` lines and any other line
/// that is not an `info` line (UCI engines such as Stockfish answer `No such option: X`).
pub fn remark(line: &str) -> Option<String> {
    let t = line.trim();
    let info = t.starts_with("info") && !t.starts_with(REMARK_PREFIX);
    (!t.is_empty() && !info).then(|| t.to_string())
}

/// Fails when one of `remarks` says that option `name` was refused, quoting them.
pub fn check_refusal(remarks: &[String], name: &str, value: &str) -> Result<(), EngineError> {
    let lower = name.to_ascii_lowercase();
    let answer: Vec<&str> = remarks
        .iter()
        .map(String::as_str)
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains(&lower) && REFUSAL_WORDS.iter().any(|w| l.contains(w))
        })
        .collect();
    if answer.is_empty() {
        return Ok(());
    }
    Err(EngineError::Refused(format!(
        "it refused option {name}={value}; it answered: {}",
        answer.join(" | ")
    )))
}
