//! One protocol session: turns parsed commands into calls on the [`Engine`] and the engine's
//! answers and events into wire text. Every difference between UCI and UCCI that is not parsing
//! lives here or in `output`: the handshakes, UCCI's time unit and `bye`, `nobestmove` for a
//! `stop` with nothing to stop, `go depth 0`, and the move and score notation.

use super::command::{excerpt, Command, GoParams, PositionSpec};
use super::dialect::Dialect;
use super::engine_errors::wording;
use super::output::{self, Output, WireStyle};
use super::rank_hint::rank_hint;
use super::wire_options::{WireSettings, WIRE_OPTIONS};
use crate::engine::{Engine, EngineError, Event, Listener, ENGINE_AUTHOR, ENGINE_NAME};
use crate::options::{OptionError, OPTIONS};
use crate::search::{SearchRequest, SideClock};
use engine_core::{Color, RankBase};
use std::sync::{Arc, Mutex};

/// Milliseconds per UCCI time unit when the GUI has not switched to milliseconds.
const UCCI_SECOND_MS: u64 = 1000;

/// Whether the session goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Exit.
    Quit,
}

/// A session: the dialect, how moves and scores are written, and the engine.
pub struct Session {
    dialect: Dialect,
    /// The options only the wire reads (time unit, WDL, rank numbering).
    wire: WireSettings,
    /// Shared with the engine's listener, which formats events from the search thread.
    style: Arc<Mutex<WireStyle>>,
    engine: Engine,
    out: Output,
    /// Why there is no position to search: the last `position` was refused, so the GUI's board
    /// is not the engine's. `go` answers "no move" until a `position` is accepted.
    refused: Option<String>,
}

impl Session {
    /// A UCI session (until `ucci` switches it) writing to `out`; an error if the engine cannot
    /// start.
    pub fn new(out: Output) -> Result<Session, String> {
        let style = Arc::new(Mutex::new(WireStyle::default()));
        let (o, s) = (out.clone(), Arc::clone(&style));
        let listener: Listener = Arc::new(move |e: Event| {
            let f = *s.lock().unwrap_or_else(|p| p.into_inner());
            o.lines(&output::event(&e, &f));
        });
        Ok(Session {
            dialect: Dialect::Uci,
            wire: WireSettings::default(),
            style,
            engine: Engine::new(listener).map_err(|e| wording(&e, Dialect::Uci))?,
            out,
            refused: None,
        })
    }

    fn style(&self) -> WireStyle {
        *self.style.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Derives the style from the dialect and the wire options (UCCI always uses ranks 0-9).
    fn refresh_style(&mut self) {
        let style = WireStyle {
            dialect: self.dialect,
            rank_base: match self.dialect {
                Dialect::Uci => self.wire.rank_base(),
                Dialect::Ucci | Dialect::Xboard => RankBase::Zero,
            },
            show_wdl: self.wire.show_wdl,
        };
        *self.style.lock().unwrap_or_else(|p| p.into_inner()) = style;
    }

    fn error(&self, text: &str) {
        self.out.line(&output::error(text));
    }

    /// An error line for a request the engine refused, worded for the session's dialect.
    fn engine_error(&self, e: &EngineError) {
        self.error(&wording(e, self.dialect));
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Nothing => {}
            Command::Uci | Command::Ucci => self.hello(cmd == Command::Ucci),
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => {
                if let Some(set) = self.wire.set(&name, value.as_deref()) {
                    match set {
                        Ok(()) => self.refresh_style(),
                        Err(OptionError::BadValue(msg) | OptionError::Unknown(msg)) => {
                            self.error(&msg)
                        }
                    }
                    return Flow::Continue;
                }
                let evaluation = self.engine.evaluation_name();
                match self.engine.set_option(&name, value.as_deref()) {
                    Ok(()) => {
                        self.refresh_style();
                        let now = self.engine.evaluation_name();
                        if now != evaluation {
                            self.out
                                .line(&output::info_string(&format!("evaluation: {now}")));
                        }
                    }
                    // Not an error: GUIs send options of other engines.
                    Err(EngineError::UnknownOption(n)) => self.out.line(&output::info_string(
                        &wording(&EngineError::UnknownOption(excerpt(&n)), self.dialect),
                    )),
                    Err(e) => self.engine_error(&e),
                }
            }
            Command::NewGame => {
                if let Err(e) = self.engine.new_game() {
                    self.engine_error(&e);
                }
            }
            Command::Position(spec) => {
                let base = self.style().rank_base;
                match self
                    .engine
                    .set_position(spec.fen.as_deref(), &spec.moves, base)
                {
                    Ok(warnings) => {
                        self.refused = None;
                        if let Some(warnings) = warnings {
                            self.out.line(&output::warning(&warnings.to_string()));
                        }
                    }
                    Err(e) => {
                        let e = wording(&e, self.dialect);
                        let why =
                            match rank_hint(spec.fen.as_deref(), &spec.moves, base, self.dialect) {
                                Some(hint) => format!("{e} (hint: {hint})"),
                                None => e,
                            };
                        self.error(&why);
                        self.refused = Some(why);
                    }
                }
            }
            Command::BadPosition(why) => {
                self.error(&why);
                self.refused = Some(why);
            }
            Command::BanMoves(list) => {
                if let Err(e) = self.engine.ban_moves(&list, self.style().rank_base) {
                    self.engine_error(&e);
                }
            }
            Command::Go(g) => self.go(g),
            Command::Stop => {
                if !self.engine.stop() && self.dialect == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            Command::PonderHit { draw } => {
                if let Err(e) = self.engine.ponderhit(draw) {
                    self.engine_error(&e);
                }
            }
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => {
                // The evaluation first: front ends and tests read `Checkers:` as the last line.
                let mut lines = vec![format!("Evaluation: {}", self.engine.evaluation_name())];
                lines.extend(output::board(self.engine.position(), &self.style()));
                self.out.lines(&lines);
            }
            Command::Eval => {
                let text = crate::eval::explain(self.engine.position());
                let mut lines: Vec<String> = text.lines().map(String::from).collect();
                let (hce, net) = self.engine.static_evals();
                lines.extend(output::static_evals(hce, net, &self.style()));
                lines.push(format!("Search uses: {}", self.engine.evaluation_name()));
                self.out.lines(&lines);
            }
            Command::Bench { depth } => {
                // Lock by lock: bench may wait for a stopping search, which prints its last lines.
                let done = self.engine.bench(depth, &mut self.out.line_writer());
                if let Err(e) = done {
                    self.engine_error(&e);
                }
            }
            Command::Help => self.out.lines(&super::help::lines(Some(self.dialect))),
            Command::Xboard(_) => self.error("an XBoard command in a UCI or UCCI session"),
            Command::Quit => {
                self.engine.quit();
                if self.dialect == Dialect::Ucci {
                    self.out.line("bye");
                }
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// `uci` / `ucci`: switches the dialect and answers with the identification and the options.
    fn hello(&mut self, ucci: bool) {
        self.dialect = if ucci { Dialect::Ucci } else { Dialect::Uci };
        self.refresh_style();
        let mut lines = vec![format!("id name {ENGINE_NAME}")];
        if ucci {
            lines.push("id copyright 2026 the Cotuong developers, MIT licence".into());
        }
        lines.push(format!("id author {ENGINE_AUTHOR}"));
        if ucci {
            lines.push("id user Cotuong users".into());
        }
        lines.extend(output::option_declarations(OPTIONS, self.dialect));
        lines.extend(output::option_declarations(WIRE_OPTIONS, self.dialect));
        lines.push(output::info_string(&format!(
            "evaluation: {}",
            self.engine.evaluation_name()
        )));
        lines.push(self.dialect.hello_ok().into());
        self.out.lines(&lines);
    }

    /// The search request of a `go` as sent: UCCI times in seconds unless `usemillisec`, UCCI
    /// `depth 0` = static evaluation, UCI `depth 0` = depth 1, the side to move's clock, and the
    /// `searchmoves` that parse (each one that does not is reported).
    fn go_request(&self, g: GoParams) -> SearchRequest {
        let unit = if self.dialect == Dialect::Ucci && !self.wire.use_millisec {
            UCCI_SECOND_MS
        } else {
            1
        };
        let clock = |time: u64, inc: Option<u64>, unit: u64| SideClock {
            time_ms: time.saturating_mul(unit),
            inc_ms: inc.unwrap_or(0).saturating_mul(unit),
            movestogo: g.movestogo,
        };
        let pos = self.engine.position();
        let own = match pos.side_to_move() {
            Color::Red => g.wtime.map(|t| clock(t, g.winc, 1)),
            Color::Black => g.btime.map(|t| clock(t, g.binc, 1)),
        };
        let base = self.style().rank_base;
        let mut searchmoves = Vec::new();
        for text in &g.searchmoves {
            match pos.parse_move(text, base) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self.error(&format!("searchmoves: {e}")),
            }
        }
        let depth = match self.dialect {
            Dialect::Uci | Dialect::Xboard => g.depth.map(|d| d.max(1)),
            Dialect::Ucci => g.depth,
        };
        SearchRequest {
            ponder: g.ponder,
            infinite: g.infinite,
            depth: depth.map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
            nodes: g.nodes,
            mate: g.mate,
            movetime_ms: g.movetime,
            clock: g.time.map(|t| clock(t, g.increment, unit)).or(own),
            root_moves: (!searchmoves.is_empty()).then_some(searchmoves),
            ..SearchRequest::default()
        }
    }

    fn go(&mut self, g: GoParams) {
        let base = self.style().rank_base;
        if let Some(why) = &self.refused {
            // Searching the last good position would answer for a board the GUI does not show.
            let mut lines = vec![output::error(&format!(
                "no position to search: the last 'position' was refused ({why})"
            ))];
            if g.perft.is_none() {
                lines.push(output::no_position(&self.style()));
            }
            self.out.lines(&lines);
            return;
        }
        if let Some(depth) = g.perft {
            // Lock by lock: perft may wait for a stopping search, which prints its last lines.
            let done = self.engine.perft(depth, base, &mut self.out.line_writer());
            if let Err(e) = done {
                self.engine_error(&e);
            }
            return;
        }
        let draw_offered = g.draw;
        let request = self.go_request(g);
        if let Err(e) = self.engine.go(request, draw_offered) {
            self.engine_error(&e);
        }
    }

    /// UCCI `probe` (also accepted in UCI): the table entry of a position as `pophash`.
    fn probe(&self, spec: &PositionSpec) {
        let f = self.style();
        match self
            .engine
            .probe(spec.fen.as_deref(), &spec.moves, f.rank_base)
        {
            Ok(entry) => self.out.line(&output::pophash(entry.as_ref(), &f)),
            Err(e) => self.engine_error(&e),
        }
    }
}
