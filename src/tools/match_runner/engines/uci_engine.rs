//! An engine speaking UCI or UCCI: the handshake (`uci`/`ucci`, the option listing, UCCI's
//! switch to milliseconds), `setoption` and `isready`, and one `position` + `go` per move. The
//! two differ only in wording ([`UciWording`]).

use super::engine::{
    check_refusal, remark, EngineError, MatchEngine, ThinkError, Thought, HANDSHAKE_TIMEOUT,
};
use super::engine_config::EngineConfig;
use super::engine_process::EngineProcess;
use super::wire::{parse_bestmove, parse_info, BestMove, GoLimits, InfoFields, UciWording};
use engine_core::{Move, Position};
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// (engine name, option name in lower case) of the hidden options already noted in this process:
/// a run starts each engine anew many times, and one note per engine and option is enough (the
/// runs of one `tune` session share the set).
static NOTED_HIDDEN: Mutex<BTreeSet<(String, String)>> = Mutex::new(BTreeSet::new());

/// Whether the hidden `option` of `engine` is noted for the first time in this process.
fn first_note(engine: &str, option: &str) -> bool {
    NOTED_HIDDEN.lock().map_or(true, |mut noted| {
        noted.insert((engine.to_string(), option.to_ascii_lowercase()))
    })
}

/// A live engine speaking UCI or UCCI.
pub struct UciEngine {
    process: EngineProcess,
    config: EngineConfig,
    wording: UciWording,
    /// UCCI: the engine announced `usemillisec` and was switched to milliseconds.
    millis: bool,
    /// The option names of the engine's listing.
    listed: Vec<String>,
    /// The remarks while the configured options were set.
    remarks: Vec<String>,
}

impl UciEngine {
    /// The handshake on a started `process`: `uci`/`ucci` up to `uciok`/`ucciok`, then the
    /// options of `config`, checked against the engine's listing and answers.
    pub fn start(
        process: EngineProcess,
        config: &EngineConfig,
        wording: UciWording,
    ) -> Result<UciEngine, EngineError> {
        let mut engine = UciEngine {
            process,
            config: config.clone(),
            wording,
            millis: false,
            listed: Vec::new(),
            remarks: Vec::new(),
        };
        engine.process.send(wording.hello())?;
        let mut millis = false;
        let mut listed = Vec::new();
        let ok = wording.hello_ok();
        engine.process.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            ok,
            |l| {
                if let Some(name) = wording.listed_option(l) {
                    if name == "usemillisec" {
                        millis = true;
                    }
                    listed.push(name);
                }
            },
            |l| l.trim() == ok,
        )?;
        engine.listed = listed;
        if wording == UciWording::Ucci && millis {
            engine.process.send("setoption usemillisec true")?;
            engine.millis = true;
        }
        let options = config.options.clone();
        engine.remarks = engine.set_options(&options)?;
        engine.check_options(&options)?;
        Ok(engine)
    }

    /// Stops the run when the engine refused one of `options`, quoting its answer. An option
    /// missing from the listing that the engine took without a word is only noted on stderr,
    /// once per engine: engines have hidden options (Cotuong's `StrengthSeed`).
    fn check_options(&self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            check_refusal(&self.remarks, name, value)?;
            if !self.listed.iter().any(|o| o.eq_ignore_ascii_case(name))
                && first_note(&self.config.name, name)
            {
                eprintln!(
                    "warning: engine '{}' does not list option '{name}' (it lists: {}) but \
                     took {name}={value} without a word; assuming a hidden option",
                    self.config.name,
                    self.listed.join(", ")
                );
            }
        }
        Ok(())
    }

    /// `isready` → `readyok`; returns the engine's remarks seen meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        let mut remarks = Vec::new();
        self.process.send("isready")?;
        self.process.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            "readyok",
            |l| {
                if l.trim() != "readyok" {
                    remarks.extend(remark(l));
                }
            },
            |l| l.trim() == "readyok",
        )?;
        Ok(remarks)
    }
}

impl MatchEngine for UciEngine {
    fn config(&self) -> &EngineConfig {
        &self.config
    }

    fn set_options(&mut self, options: &[(String, String)]) -> Result<Vec<String>, EngineError> {
        for (name, value) in options {
            let line = self.wording.setoption(name, value);
            self.process.send(&line)?;
        }
        self.sync()
    }

    fn remarks(&self) -> &[String] {
        &self.remarks
    }

    /// `ucinewgame` (UCCI has none), then `isready`.
    fn new_game(&mut self) -> Result<(), EngineError> {
        if let Some(cmd) = self.wording.new_game() {
            self.process.send(cmd)?;
        }
        self.sync().map(|_| ())
    }

    /// Sends `position` and `go`, then waits for `bestmove`; think time runs from writing
    /// `go` to the reader receiving `bestmove`.
    fn think(
        &mut self,
        start: &Position,
        history: &[Move],
        limits: &GoLimits,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError> {
        let position = self
            .wording
            .position_command(&self.config.wire, start, history);
        let go = self.wording.go_command(limits, self.millis);
        self.process.send(&position).map_err(ThinkError::Engine)?;
        self.process.send(&go).map_err(ThinkError::Engine)?;
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
        let answer = self
            .process
            .wait_for(sent + limit, "bestmove", &mut record, |l| {
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
                let answered = self.process.halt_late("stop", "bestmove after stop", |l| {
                    parse_bestmove(l).is_some()
                });
                Err(ThinkError::OutOfTime { elapsed, answered })
            }
            Err(e) => Err(ThinkError::Engine(e)),
        }
    }
}
