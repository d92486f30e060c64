//! An engine speaking XBoard (CECP v2): the `feature` handshake, options as `option NAME=VALUE`
//! (`memory` and `cores` as their own commands), `ping`/`pong`, and the engine kept in force
//! mode between its moves, with the game's moves sent one by one. The text is in
//! `xboard_wire.rs`.

use super::engine::{
    check_refusal, remark, EngineError, MatchEngine, ThinkError, Thought, HANDSHAKE_TIMEOUT,
};
use super::engine_config::EngineConfig;
use super::engine_process::EngineProcess;
use super::wire::{BestMove, GoLimits, InfoFields};
use super::xboard_wire::{self as xb, Features, Reply};
use engine_core::{Move, Position};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// How long an XBoard engine without `ping` gets to answer a batch of commands.
const XBOARD_QUIET: Duration = Duration::from_millis(300);

/// A live engine speaking XBoard.
pub struct XboardEngine {
    process: EngineProcess,
    config: EngineConfig,
    /// What the engine announced.
    features: Features,
    /// The remarks while the configured options were set.
    remarks: Vec<String>,
    /// How many moves of the current game the engine's board has.
    synced: usize,
    /// The start position of the game was sent (or is the initial position).
    board_sent: bool,
    /// The last `ping` number.
    ping: u32,
}

impl XboardEngine {
    /// The handshake on a started `process`: `xboard`, `protover 2`, the `feature` lines up to
    /// `done=1`, each answered `accepted` (`san` is rejected: the runner sends coordinates),
    /// then the options of `config`, each of which the engine must offer and take.
    pub fn start(
        process: EngineProcess,
        config: &EngineConfig,
    ) -> Result<XboardEngine, EngineError> {
        let mut engine = XboardEngine {
            process,
            config: config.clone(),
            features: Features::default(),
            remarks: Vec::new(),
            synced: 0,
            board_sent: false,
            ping: 0,
        };
        engine.process.send("xboard")?;
        engine.process.send("protover 2")?;
        let mut features = Features::default();
        let mut names = Vec::new();
        let done = Cell::new(false);
        engine.process.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            "feature done=1",
            |l| {
                names.extend(features.read(l));
                done.set(features.done);
            },
            |_| done.get(),
        )?;
        for name in names {
            let answer = if name == "san" {
                "rejected"
            } else {
                "accepted"
            };
            engine.process.send(&format!("{answer} {name}"))?;
        }
        if !features.variants.iter().any(|v| v == "xiangqi") {
            return Err(EngineError::Refused(format!(
                "the engine does not offer variant xiangqi (its variants: {})",
                features.variants.join(",")
            )));
        }
        engine.features = features;
        let options = config.options.clone();
        engine.remarks = engine.set_options(&options)?;
        engine.check_options(&options)?;
        Ok(engine)
    }

    /// Stops the run when the engine refused one of `options`, quoting its answer, or does not
    /// offer it (XBoard engines ignore unknown options silently).
    fn check_options(&self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            check_refusal(&self.remarks, name, value)?;
            let lower = name.to_ascii_lowercase();
            let offered = self.features.has_option(name)
                || (lower == "memory" && self.features.memory)
                || (lower == "cores" && self.features.smp);
            if !offered {
                return Err(EngineError::Refused(format!(
                    "it has no option '{name}' (it offers: {}); it answered nothing to \
                     'option {name}={value}'",
                    self.features.options.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// `ping N` → `pong N`, or a short quiet wait for an engine without `ping`; returns the
    /// engine's remarks seen meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        let mut remarks = Vec::new();
        if !self.features.ping {
            let quiet = self.process.wait_for(
                Instant::now() + XBOARD_QUIET,
                "quiet",
                |l| remarks.extend(remark(l)),
                |_| false,
            );
            return match quiet {
                Err(EngineError::NoAnswer(_)) | Ok(_) => Ok(remarks),
                Err(e) => Err(e),
            };
        }
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.process.send(&format!("ping {}", self.ping))?;
        self.process.wait_for(
            Instant::now() + HANDSHAKE_TIMEOUT,
            &pong,
            |l| {
                if l.trim() != pong {
                    remarks.extend(remark(l));
                }
            },
            |l| l.trim() == pong,
        )?;
        Ok(remarks)
    }
}

impl MatchEngine for XboardEngine {
    fn config(&self) -> &EngineConfig {
        &self.config
    }

    fn set_options(&mut self, options: &[(String, String)]) -> Result<Vec<String>, EngineError> {
        for (name, value) in options {
            let line = match name.to_ascii_lowercase().as_str() {
                "memory" => format!("memory {value}"),
                "cores" => format!("cores {value}"),
                _ => xb::option_command(name, value),
            };
            self.process.send(&line)?;
        }
        self.sync()
    }

    fn remarks(&self) -> &[String] {
        &self.remarks
    }

    /// `new`, `variant xiangqi`, the time control, `post`, `easy`, `force`, then `ping`.
    fn new_game(&mut self) -> Result<(), EngineError> {
        let mut lines = vec!["new".to_string(), "variant xiangqi".to_string()];
        lines.extend(xb::time_control_commands(&self.config.time_control));
        lines.extend(["post", "easy", "force"].map(String::from));
        for l in &lines {
            self.process.send(l)?;
        }
        self.synced = 0;
        self.board_sent = false;
        self.sync().map(|_| ())
    }

    /// The engine is kept in force mode, gets the moves its board lacks, `time`/`otim` and
    /// `go`, and is put back in force mode after its `move`.
    fn think(
        &mut self,
        start: &Position,
        history: &[Move],
        limits: &GoLimits,
        deadline: Option<Duration>,
        hang_timeout: Duration,
    ) -> Result<Thought, ThinkError> {
        let engine_error = ThinkError::Engine;
        // Lines left from the last move (claims, comments) are not answers to this one.
        self.process.discard_pending().map_err(engine_error)?;
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
                self.process.send(&cmd).map_err(engine_error)?;
            }
            self.board_sent = true;
        }
        let mut sent_moves = Vec::new();
        for &mv in history.iter().skip(self.synced) {
            let cmd = xb::move_command(mv, self.features.usermove);
            self.process.send(&cmd).map_err(engine_error)?;
            sent_moves.push(self.config.wire.move_text(mv));
        }
        self.synced = history.len();
        for cmd in xb::clock_commands(limits) {
            self.process.send(&cmd).map_err(engine_error)?;
        }
        self.process.send("go").map_err(engine_error)?;
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
        let answer = self
            .process
            .wait_for(sent + limit, "move", &mut record, is_answer);
        match answer {
            Ok((line, at)) => {
                let best = match xb::parse_reply(&line) {
                    Reply::Move(text) => {
                        self.process.send("force").map_err(engine_error)?;
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
                let answered = self.process.halt_late("?", "move after ?", |l| {
                    matches!(xb::parse_reply(l), Reply::Move(_) | Reply::Resign)
                });
                let _ = self.process.send("force");
                Err(ThinkError::OutOfTime { elapsed, answered })
            }
            Err(e) => Err(engine_error(e)),
        }
    }
}
