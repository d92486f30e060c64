//! The controller: owns the position, the game history, the options, the hash table and the
//! running search; applies commands in order and answers `stop`, `isready` and `ponderhit`
//! while the search runs on its own thread.

use crate::eval;
use crate::limits::{SearchLimits, SideClock};
use crate::options::{Effect, OptionError, Options};
use crate::protocol::command::{Command, Dialect, GoParams, PositionSpec};
use crate::protocol::output::{self, emit, Format};
use crate::search::score::{is_mate, mated_in, MATE_BOUND};
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::worker::ThreadData;
use crate::search::{self, SearchControl, SearchRequest};
use crate::time;
use engine_core::{Color, Move, Position, RankBase};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Engine name announced by `id name`.
pub const ENGINE_NAME: &str = concat!("Cotuong ", env!("CARGO_PKG_VERSION"));
/// Announced by `id author`.
pub const ENGINE_AUTHOR: &str = "the Cotuong developers";

/// UCCI: resign when the score is at most minus this (internal units; two chariots or so) ...
const RESIGN_SCORE: i32 = 1_800;
/// ... and the search reached at least this depth.
const RESIGN_MIN_DEPTH: i32 = 8;
/// UCCI: accept an offered draw when our score is at most this.
const DRAW_ACCEPT_MAX: i32 = 30;
/// UCCI: offer a draw ourselves when the search proves an exact draw score this deep.
const DRAW_OFFER_MIN_DEPTH: i32 = 10;
/// How often a held `bestmove` (infinite / ponder search) polls for `stop` or `ponderhit`.
const HOLD_POLL: Duration = Duration::from_millis(1);

/// Whether the controller keeps running after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Exit.
    Quit,
}

struct Running {
    ctl: Arc<SearchControl>,
    handle: JoinHandle<Vec<ThreadData>>,
}

/// The engine controller.
pub struct Engine {
    dialect: Dialect,
    options: Options,
    /// The position the GUI's move list starts from (for the referee's root verdict).
    start: Position,
    pos: Position,
    keys: Vec<u64>,
    moves: Vec<Move>,
    banned: Vec<Move>,
    tt: Arc<TranspositionTable>,
    histories: Vec<ThreadData>,
    running: Option<Running>,
    /// True from `go` until the search thread has printed its `bestmove`.
    thinking: Arc<Mutex<bool>>,
}

impl Engine {
    /// A fresh engine in the start position, speaking `dialect`.
    pub fn new(dialect: Dialect) -> Engine {
        let options = Options::default();
        let pos = Position::startpos();
        Engine {
            dialect,
            keys: vec![pos.key()],
            start: pos.clone(),
            pos,
            moves: Vec::new(),
            banned: Vec::new(),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: (0..options.threads)
                .map(|_| ThreadData::default())
                .collect(),
            options,
            running: None,
            thinking: Arc::new(Mutex::new(false)),
        }
    }

    fn format(&self) -> Format {
        Format {
            dialect: self.dialect,
            rank_base: match self.dialect {
                Dialect::Uci => self.options.rank_base(),
                Dialect::Ucci => RankBase::Zero,
            },
            show_wdl: self.options.show_wdl,
        }
    }

    fn is_thinking(&self) -> bool {
        self.thinking.lock().map(|t| *t).unwrap_or(false)
    }

    /// Waits for a finished (or stopping) search thread and takes its history tables back.
    fn join_search(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(h) => self.histories = h,
                Err(_) => {
                    emit(&output::error("the search thread failed; state reset"));
                    self.histories = (0..self.options.threads)
                        .map(|_| ThreadData::default())
                        .collect();
                    if let Ok(mut t) = self.thinking.lock() {
                        *t = false;
                    }
                }
            }
        }
    }

    /// Applies one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Nothing => {}
            Command::Uci => {
                self.dialect = Dialect::Uci;
                emit(&format!("id name {ENGINE_NAME}"));
                emit(&format!("id author {ENGINE_AUTHOR}"));
                for line in Options::declarations(Dialect::Uci) {
                    emit(&line);
                }
                emit("uciok");
            }
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                emit(&format!("id name {ENGINE_NAME}"));
                emit("id copyright 2026 the Cotuong developers, MIT licence");
                emit(&format!("id author {ENGINE_AUTHOR}"));
                emit("id user Cotuong users");
                for line in Options::declarations(Dialect::Ucci) {
                    emit(&line);
                }
                emit("ucciok");
            }
            Command::IsReady => emit("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => {
                if self.is_thinking() {
                    emit(&output::error("'ucinewgame' while searching is ignored"));
                } else {
                    self.join_search();
                    self.new_game();
                }
            }
            Command::Position(spec) => match self.build_position(&spec) {
                Ok((start, pos, keys, moves)) => {
                    self.start = start;
                    self.pos = pos;
                    self.keys = keys;
                    self.moves = moves;
                    self.banned.clear();
                }
                Err(e) => emit(&output::error(&e)),
            },
            Command::BanMoves(list) => self.ban_moves(&list),
            Command::Go(g) => self.go(g),
            Command::Stop => self.stop(),
            Command::PonderHit { draw } => self.ponderhit(draw),
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => self.display(),
            Command::Eval => {
                for line in eval::explain(&self.pos).lines() {
                    emit(line);
                }
            }
            Command::Bench { depth } => {
                if self.is_thinking() {
                    emit(&output::error("'bench' while searching is ignored"));
                } else {
                    self.join_search();
                    let d = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
                    let mut out = std::io::stdout().lock();
                    if let Err(e) = crate::bench::run(d, &mut out) {
                        drop(out);
                        emit(&output::error(&format!("bench failed: {e}")));
                    }
                }
            }
            Command::Quit => {
                if let Some(r) = &self.running {
                    r.ctl.request_stop();
                }
                self.join_search();
                if self.dialect == Dialect::Ucci {
                    emit("bye");
                }
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.history.clear();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut next = self.options.clone();
        let effect = match next.set(name, value) {
            Ok(e) => e,
            Err(OptionError::Unknown(n)) => {
                emit(&output::info_string(&format!(
                    "unknown option '{}' ignored",
                    crate::protocol::command::excerpt(&n)
                )));
                return;
            }
            Err(OptionError::BadValue(msg)) => {
                emit(&output::error(&msg));
                return;
            }
        };
        if effect != Effect::None && self.is_thinking() {
            emit(&output::error(&format!(
                "option '{name}' cannot change while searching"
            )));
            return;
        }
        if effect != Effect::None {
            self.join_search();
        }
        if effect == Effect::ResizeHash {
            // Drop the old table first so that its memory can be reused.
            self.tt = Arc::new(TranspositionTable::new(1));
            match TranspositionTable::try_new(next.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => {
                    emit(&output::error(&format!(
                        "{e}; keeping {} MB",
                        self.options.hash_mb
                    )));
                    self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
                    return;
                }
            }
        }
        self.options = next;
        match effect {
            Effect::None | Effect::ResizeHash => {}
            Effect::ClearHash => self.tt.clear(),
            Effect::NewGame => self.new_game(),
            Effect::Threads => {
                self.histories
                    .resize_with(self.options.threads, ThreadData::default);
            }
        }
    }

    /// Builds a position from a spec without touching the engine's state: the start position,
    /// the current one, the keys of the game and its moves.
    fn build_position(&self, spec: &PositionSpec) -> Result<PositionWithHistory, String> {
        let start = match &spec.fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| format!("invalid FEN: {e}"))?,
        };
        let mut pos = start.clone();
        let base = self.format().rank_base;
        let mut keys = vec![pos.key()];
        let mut moves = Vec::with_capacity(spec.moves.len());
        for (i, text) in spec.moves.iter().enumerate() {
            let mv = pos
                .parse_move(text, base)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            pos.make_move(mv);
            keys.push(pos.key());
            moves.push(mv);
        }
        Ok((start, pos, keys, moves))
    }

    /// How many times the current position has occurred since the last capture, counting this
    /// occurrence (same placement and side to move).
    fn root_occurrences(&self) -> usize {
        let n = self.keys.len() - 1;
        let span = usize::from(self.pos.no_capture_plies()).min(n);
        1 + (2..=span)
            .step_by(2)
            .filter(|&back| self.keys[n - back] == self.keys[n])
            .count()
    }

    /// At the `RepetitionThreshold`-th occurrence of the root position, reports the referee's
    /// verdict on the game so far as one `info string rule: ...` line. The search still runs
    /// and answers a legal move: a GUI that keeps playing is served, one that adjudicates knows
    /// why.
    fn report_root_verdict(&self) {
        let threshold = self.options.rules.repetition_threshold.max(2) as usize;
        if self.root_occurrences() < threshold {
            return;
        }
        if let Some(v) =
            engine_core::rules::adjudicate(&self.start, &self.moves, &self.options.rules)
        {
            emit(&output::info_string(&format!(
                "rule: {} {}: {}",
                v.rule.id(),
                v.result.pgn(),
                v.explanation
            )));
        }
    }

    fn ban_moves(&mut self, list: &[String]) {
        let base = self.format().rank_base;
        let mut banned = Vec::new();
        for text in list {
            match self.pos.parse_move(text, base) {
                Ok(m) => banned.push(m),
                Err(e) => {
                    emit(&output::error(&format!("banmoves: {e}")));
                    return;
                }
            }
        }
        self.banned = banned;
    }

    /// Converts `go` parameters to limits, per dialect.
    fn limits(&self, g: &GoParams) -> SearchLimits {
        let us = self.pos.side_to_move();
        let mut l = SearchLimits {
            depth: g.depth.map(|d| d.clamp(1, 120) as i32),
            nodes: g.nodes,
            soft_nodes: None,
            mate: g.mate,
            movetime_ms: g.movetime,
            clock: None,
            infinite: g.infinite,
            ponder: g.ponder,
        };
        let (time, inc) = match us {
            Color::Red => (g.wtime, g.winc),
            Color::Black => (g.btime, g.binc),
        };
        if let Some(t) = time {
            l.clock = Some(SideClock {
                time_ms: t,
                inc_ms: inc.unwrap_or(0),
                movestogo: g.movestogo,
            });
        }
        if let Some(t) = g.time {
            let unit = if self.dialect == Dialect::Ucci && !self.options.use_millisec {
                1000
            } else {
                1
            };
            l.clock = Some(SideClock {
                time_ms: t.saturating_mul(unit),
                inc_ms: g.increment.unwrap_or(0).saturating_mul(unit),
                movestogo: g.movestogo,
            });
        }
        let has_limit = l.depth.is_some()
            || l.nodes.is_some()
            || l.mate.is_some()
            || l.movetime_ms.is_some()
            || l.clock.is_some();
        if !has_limit && !l.ponder {
            l.infinite = true;
        }
        l
    }

    fn go(&mut self, g: GoParams) {
        if self.is_thinking() {
            let stopping = self
                .running
                .as_ref()
                .is_some_and(|r| r.ctl.stop_requested.load(Ordering::SeqCst));
            if !stopping {
                emit(&output::error(
                    "'go' while searching is ignored (send 'stop' first)",
                ));
                return;
            }
        }
        self.join_search();
        let f = self.format();
        if let Some(d) = g.perft {
            let mut out = std::io::stdout().lock();
            let r = crate::perft::run(
                &self.pos,
                d,
                true,
                self.options.threads,
                f.rank_base,
                &mut out,
            );
            drop(out);
            if let Err(e) = r {
                emit(&output::error(&format!("perft failed: {e}")));
            }
            return;
        }
        self.report_root_verdict();
        let mut root: Vec<Move> = self
            .pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .collect();
        if !g.searchmoves.is_empty() {
            let mut only = Vec::new();
            for t in &g.searchmoves {
                match self.pos.parse_move(t, f.rank_base) {
                    Ok(m) => only.push(m),
                    Err(e) => emit(&output::error(&format!("searchmoves: {e}"))),
                }
            }
            if !only.is_empty() {
                root.retain(|m| only.contains(m));
            }
        }
        if root.is_empty() {
            let lost = mated_in(0);
            emit(&format!("info depth 0 score {}", output::score(lost, &f)));
            emit(&output::no_move(&f));
            return;
        }
        if self.dialect == Dialect::Ucci && g.depth == Some(0) {
            let e = eval::evaluate(&self.pos);
            emit(&format!("info depth 0 score {}", output::score(e, &f)));
            emit("nobestmove");
            return;
        }
        let limits = self.limits(&g);
        let budget = time::budget(&limits, self.options.move_overhead_ms);
        let ctl = Arc::new(SearchControl::new(self.options.threads, g.ponder));
        ctl.draw_offered.store(g.draw, Ordering::SeqCst);
        let req = SearchRequest {
            pos: self.pos.clone(),
            keys: self.keys.clone(),
            moves: self.moves.clone(),
            root_moves: root,
            limits,
            budget,
            multipv: self.options.multipv,
            rules: self.options.rules.clone(),
        };
        let mut histories = std::mem::take(&mut self.histories);
        histories.resize_with(self.options.threads.max(1), ThreadData::default);
        let tt = Arc::clone(&self.tt);
        let thinking = Arc::clone(&self.thinking);
        if let Ok(mut t) = thinking.lock() {
            *t = true;
        }
        let ctl2 = Arc::clone(&ctl);
        let dialect = self.dialect;
        let spawned = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(search::worker::THREAD_STACK_BYTES)
            .spawn(move || {
                let mut report = |info: &search::Info| {
                    for line in output::info(info, &f) {
                        emit(&line);
                    }
                };
                let result = search::run(&req, &tt, &ctl2, &mut histories, &mut report);
                // An infinite or ponder search holds its answer until stop / ponderhit.
                while !ctl2.stop_requested.load(Ordering::SeqCst)
                    && (req.limits.waits_for_stop() || ctl2.pondering.load(Ordering::SeqCst))
                {
                    std::thread::sleep(HOLD_POLL);
                }
                let ponder = result
                    .ponder
                    .or_else(|| ponder_from_tt(&tt, &req.pos, result.best));
                let suffix = match dialect {
                    Dialect::Ucci => ucci_verdict(
                        &req.pos,
                        result.best,
                        result.score,
                        result.depth,
                        ctl2.draw_offered.load(Ordering::SeqCst),
                    ),
                    Dialect::Uci => None,
                };
                let mut t = thinking.lock().unwrap_or_else(|p| p.into_inner());
                emit(&output::bestmove(result.best, ponder, suffix, &f));
                *t = false;
                histories
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { ctl, handle }),
            Err(e) => {
                if let Ok(mut t) = self.thinking.lock() {
                    *t = false;
                }
                self.histories = (0..self.options.threads)
                    .map(|_| ThreadData::default())
                    .collect();
                emit(&output::error(&format!(
                    "cannot start the search thread: {e}"
                )));
            }
        }
    }

    fn stop(&mut self) {
        let t = self.thinking.lock().unwrap_or_else(|p| p.into_inner());
        if *t {
            if let Some(r) = &self.running {
                r.ctl.request_stop();
            }
        } else if self.dialect == Dialect::Ucci {
            emit("nobestmove");
        }
    }

    fn ponderhit(&mut self, draw: bool) {
        let active = self.is_thinking();
        match &self.running {
            Some(r) if active => {
                if draw {
                    r.ctl.draw_offered.store(true, Ordering::SeqCst);
                }
                r.ctl.ponderhit();
            }
            _ => emit(&output::error(
                "'ponderhit' without a ponder search is ignored",
            )),
        }
    }

    fn probe(&self, spec: &PositionSpec) {
        let (_, pos, _, _) = match self.build_position(spec) {
            Ok(p) => p,
            Err(e) => {
                emit(&output::error(&e));
                return;
            }
        };
        let f = self.format();
        let Some(e) = self.tt.probe(pos.key()) else {
            emit("pophash");
            return;
        };
        let mut line = String::from("pophash");
        if !e.mv.is_null() && pos.is_legal(e.mv) {
            line.push_str(&format!(" bestmove {}", output::mv(e.mv, &f)));
        }
        let s = output::ucci_score(e.score);
        // A move-only entry (`Bound::None`) has no score to report.
        if matches!(e.bound, Bound::Lower | Bound::Exact) {
            line.push_str(&format!(" lowerbound {s} depth {}", e.depth));
        }
        if matches!(e.bound, Bound::Upper | Bound::Exact) {
            line.push_str(&format!(" upperbound {s} depth {}", e.depth));
        }
        emit(&line);
    }

    fn display(&self) {
        let f = self.format();
        let mut s = String::new();
        s.push_str(" +-------------------+\n");
        for rank in (0..10u8).rev() {
            s.push_str(&format!("{}| ", rank + f.rank_base.offset()));
            for file in 0..9u8 {
                let c = engine_core::Square::new(file, rank)
                    .and_then(|sq| self.pos.piece_at(sq))
                    .map_or('.', |p| p.fen_char());
                s.push(c);
                s.push(' ');
            }
            s.push_str("|\n");
        }
        s.push_str(" +-------------------+\n");
        s.push_str("   a b c d e f g h i\n");
        s.push_str(&format!("Fen: {}\n", self.pos.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.pos.key()));
        let checkers: Vec<String> = self.pos.checkers().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        for line in s.lines() {
            emit(line);
        }
    }
}

/// What `build_position` returns: start position, current position, keys of the game (ending
/// with the current key) and the moves from the start.
type PositionWithHistory = (Position, Position, Vec<u64>, Vec<Move>);

/// The expected reply from the hash table when the PV is too short.
fn ponder_from_tt(tt: &TranspositionTable, pos: &Position, best: Move) -> Option<Move> {
    let mut p = pos.clone();
    if !p.is_legal(best) {
        return None;
    }
    p.make_move(best);
    tt.probe(p.key())
        .map(|e| e.mv)
        .filter(|&m| !m.is_null() && p.is_legal(m))
}

/// UCCI `bestmove` suffix: resign a clearly lost game, accept an offered draw when not better,
/// offer one when the search proved a draw or no side can attack any more.
pub fn ucci_verdict(
    pos: &Position,
    best: Move,
    score: i32,
    depth: i32,
    draw_offered: bool,
) -> Option<&'static str> {
    if score <= -MATE_BOUND || (score <= -RESIGN_SCORE && depth >= RESIGN_MIN_DEPTH) {
        return Some("resign");
    }
    if draw_offered && score <= DRAW_ACCEPT_MAX && !is_mate(score) {
        return Some("draw");
    }
    let mut after = pos.clone();
    if after.is_legal(best) {
        after.make_move(best);
    }
    if (score == 0 && depth >= DRAW_OFFER_MIN_DEPTH) || after.has_no_attacking_material() {
        return Some("draw");
    }
    None
}
