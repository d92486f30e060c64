//! The controller: owns the game, the options and the [`Searcher`], runs a search on its own
//! thread and answers `stop`, `ponderhit` and queries while it runs.
//!
//! It knows no protocol. A front end calls its methods with typed requests (move text comes with
//! its rank numbering) and gets typed answers: synchronous ones as return values (a refused
//! request is an [`EngineError`] that front ends word in their own terms) and everything a `go` produces, in order, as [`Event`]s
//! through the listener given to [`Engine::new`] (called from the search thread too), the way
//! Pikafish's `Engine` reports through `set_on_update_full` and `set_on_bestmove`.

mod error;

pub use error::{EngineError, Request};

use crate::eval::{self, nnue::NetSource};
use crate::game::Game;
use crate::options::{Effect, OptionError, Options};
use crate::search::{
    self, is_mate, mated_in, Bound, SearchControl, SearchRequest, Searcher, TranspositionTable,
    MATE_BOUND,
};
use crate::strength::Strength;
use engine_core::{FenWarnings, Move, Position, RankBase, SplitMix64, Verdict};
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Engine name announced by `id name`.
pub const ENGINE_NAME: &str = concat!("Cotuong ", env!("CARGO_PKG_VERSION"));
/// Announced by `id author`.
pub const ENGINE_AUTHOR: &str = "the Cotuong developers";

/// Resign when the score is at most minus this (internal units; two chariots or so) ...
const RESIGN_SCORE: i32 = 1_800;
/// ... and the search reached at least this depth.
const RESIGN_MIN_DEPTH: i32 = 8;
/// Accept an offered draw when our score is at most this.
const DRAW_ACCEPT_MAX: i32 = 30;
/// Offer a draw ourselves when the search proves an exact draw score this deep.
const DRAW_OFFER_MIN_DEPTH: i32 = 10;
/// How often a held best move (infinite / ponder search) polls for `stop` or `ponderhit`.
const HOLD_POLL: Duration = Duration::from_millis(1);
/// Deepest `depth` a `go` may ask for (plies).
const MAX_GO_DEPTH: i32 = 120;

/// What the engine proposes along with its move, for protocols that carry it (UCCI).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    /// Give up.
    Resign,
}

/// What a `go` produces, in order, through the listener.
#[derive(Clone, Debug)]
pub enum Event {
    /// The referee's verdict on the game, reported when `go` starts on the
    /// `RepetitionThreshold`-th occurrence of the position (the search still runs).
    RuleVerdict(Verdict),
    /// A problem with part of a `go` that did not stop it (an unparsable `searchmoves` move).
    Error(String),
    /// Search progress.
    Info(search::Info),
    /// The search's answer.
    BestMove {
        /// The move to play.
        best: Move,
        /// The expected reply, when known.
        ponder: Option<Move>,
        /// A draw offer or acceptance, or a resignation.
        offer: Option<Offer>,
    },
    /// No move to search (the side to move has lost): `score` is the lost score.
    NoMove {
        /// Score of the side to move.
        score: i32,
    },
    /// A `go` with depth 0: the static evaluation instead of a search, no move.
    StaticEval {
        /// Score of the side to move.
        score: i32,
    },
}

/// Receives the engine's events (from the search thread too).
pub type Listener = Arc<dyn Fn(Event) + Send + Sync>;

/// A transposition-table entry as `probe` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashEntry {
    /// The stored move, if it is legal in the probed position.
    pub mv: Option<Move>,
    /// Stored score (internal units, node-relative for mates).
    pub score: i32,
    /// How the score bounds the true value (`Bound::None`: no score, move only).
    pub bound: Bound,
    /// Depth the score was searched to.
    pub depth: i32,
}

/// How the move is picked from a search's lines: at full strength the best, otherwise by
/// [`Strength::choose`] with a random number drawn by the controller.
#[derive(Copy, Clone, Debug)]
struct MoveChoice {
    strength: Strength,
    /// The lines the user asked to see (the search may run more as candidates).
    shown: usize,
    /// Uniform in `[0, 1)`.
    draw: f64,
}

/// A search running on its own thread.
struct Running {
    ctl: Arc<SearchControl>,
    /// The opponent's draw offer, which `ponderhit` may add while the search runs.
    draw_offered: Arc<AtomicBool>,
    /// The searcher's table, for `probe` while the search runs.
    tt: Arc<TranspositionTable>,
    handle: JoinHandle<Searcher>,
}

/// The engine controller.
pub struct Engine {
    options: Options,
    game: Game,
    /// Root moves excluded until the next position (UCCI `banmoves`).
    banned: Vec<Move>,
    /// The searcher while idle; `None` while it is lent to the search thread.
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// True from `go` until the search thread has sent its best move.
    thinking: Arc<Mutex<bool>>,
    listener: Listener,
    /// The net `EvalFile` names, loaded and checked; the search uses it while `Use NNUE` is on.
    /// `None` only if the embedded net failed to load (which the tests rule out).
    net: Option<Arc<nnue::Network>>,
    /// Random numbers for the move choice of weakened play (never used at full strength).
    rng: SplitMix64,
}

impl Engine {
    /// A fresh engine in the start position, reporting to `listener`; an error if the default
    /// hash table cannot be allocated.
    pub fn new(listener: Listener) -> Result<Engine, EngineError> {
        let options = Options::default();
        let net = match NetSource::from_option(&options.eval_file).load() {
            Ok(net) => Some(net),
            Err(e) => {
                listener(Event::Error(format!(
                    "{e}; using the handcrafted evaluation"
                )));
                None
            }
        };
        let mut searcher = Searcher::new(options.hash_mb, options.threads).map_err(|reason| {
            EngineError::Hash {
                reason,
                kept_mb: None,
            }
        })?;
        searcher.set_evaluator(evaluator_for(&options, net.as_ref()));
        Ok(Engine {
            searcher: Some(searcher),
            options,
            game: Game::startpos(),
            banned: Vec::new(),
            running: None,
            thinking: Arc::new(Mutex::new(false)),
            listener,
            net,
            rng: strength_rng(0),
        })
    }

    /// What the search evaluates with: the net's summary (description and hash), or the
    /// handcrafted evaluation.
    pub fn evaluation_name(&self) -> String {
        match (&self.net, self.options.use_nnue) {
            (Some(net), true) => format!("NNUE {}", net.summary()),
            _ => "handcrafted evaluation".to_string(),
        }
    }

    /// The static evaluations of the current position (side to move's view): the handcrafted
    /// one, and the net's when a net is loaded (whether or not `Use NNUE` is on).
    pub fn static_evals(&self) -> (i32, Option<i32>) {
        let pos = self.game.position();
        let mut hce = eval::Evaluator::Handcrafted;
        hce.reset(pos);
        (
            hce.evaluate(pos),
            self.net.as_ref().map(|n| n.evaluate(pos)),
        )
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Whether a search is running (until its best move has been sent).
    pub fn is_searching(&self) -> bool {
        self.thinking.lock().map(|t| *t).unwrap_or(false)
    }

    /// Waits for a finished (or stopping) search thread and takes the searcher back.
    fn join_search(&mut self) {
        if let Some(r) = self.running.take() {
            let searcher = match r.handle.join() {
                Ok(s) => s,
                Err(_) => {
                    if let Ok(mut t) = self.thinking.lock() {
                        *t = false;
                    }
                    (self.listener)(Event::Error(
                        "the search thread failed; search state reset".into(),
                    ));
                    self.fresh_searcher()
                }
            };
            self.searcher = Some(searcher);
        }
    }

    /// A searcher for the current options (after a failure), falling back to the smallest table.
    fn fresh_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.options.hash_mb, self.options.threads)
            .or_else(|_| Searcher::new(1, self.options.threads))
            .unwrap_or_else(|_| panic!("no memory for a 1 MB hash table"));
        searcher.set_evaluator(evaluator_for(&self.options, self.net.as_ref()));
        searcher
    }

    /// The idle searcher (joining a finished search first).
    fn searcher(&mut self) -> &mut Searcher {
        self.join_search();
        if self.searcher.is_none() {
            self.searcher = Some(self.fresh_searcher());
        }
        match &mut self.searcher {
            Some(s) => s,
            None => unreachable!("a searcher was just installed"),
        }
    }

    /// Whether a search runs that was not asked to stop (a stopping one is waited for instead,
    /// so that a command right after `stop` finds the engine idle).
    fn busy(&self) -> bool {
        self.is_searching()
            && !self
                .running
                .as_ref()
                .is_some_and(|r| r.ctl.stop_requested.load(Ordering::SeqCst))
    }

    /// New game: forget the table and the move-ordering statistics.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        if self.busy() {
            return Err(EngineError::Busy(Request::NewGame));
        }
        self.searcher().clear();
        Ok(())
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        let mut next = self.options.clone();
        let effect = next.set(name, value).map_err(|e| match e {
            OptionError::Unknown(n) => EngineError::UnknownOption(n),
            OptionError::BadValue(msg) => EngineError::BadOptionValue(msg),
        })?;
        if effect != Effect::None && self.busy() {
            return Err(EngineError::Busy(Request::SetOption(name.to_string())));
        }
        match effect {
            Effect::None => {}
            Effect::ResizeHash => {
                let keep = self.options.hash_mb;
                if let Err(reason) = self.searcher().resize_hash(next.hash_mb) {
                    return Err(EngineError::Hash {
                        reason,
                        kept_mb: Some(keep),
                    });
                }
            }
            Effect::ClearHash => self.searcher().table().clear(),
            Effect::NewGame => self.searcher().clear(),
            Effect::Threads => self.searcher().set_threads(next.threads),
            Effect::LoadNet => {
                let net = NetSource::from_option(&next.eval_file)
                    .load()
                    .map_err(|error| EngineError::Net {
                        error,
                        kept: self.net_name(),
                    })?;
                self.install_evaluation(&next, Some(net));
            }
            Effect::Evaluation => {
                if next.use_nnue && self.net.is_none() {
                    return Err(EngineError::NoNet);
                }
                self.install_evaluation(&next, self.net.clone());
            }
            Effect::ReseedStrength => self.rng = strength_rng(next.strength_seed),
        }
        self.options = next;
        Ok(())
    }

    /// The loaded net's summary, or "no net".
    fn net_name(&self) -> String {
        self.net
            .as_ref()
            .map_or_else(|| "no net".to_string(), |n| format!("net {}", n.summary()))
    }

    /// Makes `net` the loaded net and gives the searcher the evaluation `options` select. The
    /// table is cleared: its entries carry static evaluations of the previous evaluation.
    fn install_evaluation(&mut self, options: &Options, net: Option<Arc<nnue::Network>>) {
        self.net = net;
        let evaluator = evaluator_for(options, self.net.as_ref());
        let searcher = self.searcher();
        searcher.set_evaluator(evaluator);
        searcher.table().clear();
    }

    /// Sets up the game: a FEN (`None`: the start position) and moves in `notation`. On error
    /// the last good game stays. A composed start position (a piece where no game could bring
    /// it) is accepted; its warnings are returned when the start position is new, so that a
    /// front end sending the same FEN with every move shows them once.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        notation: RankBase,
    ) -> Result<Option<FenWarnings>, EngineError> {
        let (game, warnings) = Game::from_text_with_warnings(fen, moves, notation)?;
        let new_start = game.start().to_fen() != self.game.start().to_fen();
        self.game = game;
        self.banned.clear();
        Ok((new_start && !warnings.is_empty()).then_some(warnings))
    }

    /// Sets up the game as it stands (a front end that keeps the game itself, like XBoard's);
    /// refused while a search runs.
    pub fn set_game(&mut self, game: Game) -> Result<(), EngineError> {
        self.idle_for(Request::SetGame)?;
        self.game = game;
        self.banned.clear();
        Ok(())
    }

    /// Excludes root moves until the next position (UCCI `banmoves`); on error nothing changes.
    pub fn ban_moves(&mut self, moves: &[String], notation: RankBase) -> Result<(), EngineError> {
        let pos = self.game.position();
        self.banned = moves
            .iter()
            .map(|text| {
                pos.parse_move(text, notation)
                    .map_err(|error| EngineError::BadExcludedMove {
                        text: text.clone(),
                        error,
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(())
    }

    /// The table entry of the position a FEN and moves lead to, if any.
    pub fn probe(
        &self,
        fen: Option<&str>,
        moves: &[String],
        notation: RankBase,
    ) -> Result<Option<HashEntry>, EngineError> {
        let game = Game::from_text(fen, moves, notation)?;
        let pos = game.position();
        let tt = match (&self.searcher, &self.running) {
            (Some(s), _) => s.table(),
            (None, Some(r)) => &r.tt,
            (None, None) => return Ok(None),
        };
        Ok(tt.probe(pos.key()).map(|e| HashEntry {
            mv: (!e.mv.is_null() && pos.is_legal(e.mv)).then_some(e.mv),
            score: e.score,
            bound: e.bound,
            depth: e.depth,
        }))
    }

    /// The static evaluation of the current position (side to move's view), with the evaluation
    /// the search uses.
    pub fn static_eval(&self) -> i32 {
        let pos = self.game.position();
        let mut evaluator = evaluator_for(&self.options, self.net.as_ref());
        evaluator.reset(pos);
        evaluator.evaluate(pos)
    }

    /// Refuses work while a search runs; otherwise makes sure the search thread is joined.
    fn idle_for(&mut self, request: Request) -> Result<(), EngineError> {
        if self.busy() {
            return Err(EngineError::Busy(request));
        }
        self.join_search();
        Ok(())
    }

    /// `go perft N`: move-path counts of the current position, written to `out`.
    pub fn perft(
        &mut self,
        depth: u32,
        notation: RankBase,
        out: &mut dyn Write,
    ) -> Result<(), EngineError> {
        self.idle_for(Request::Perft)?;
        crate::perft::run(
            self.game.position(),
            depth,
            true,
            self.options.threads,
            notation,
            out,
        )
        .map(|_| ())
        .map_err(|error| EngineError::Io {
            request: Request::Perft,
            error,
        })
    }

    /// `bench [depth]`: the bench search, its report written to `out`.
    pub fn bench(&mut self, depth: Option<u32>, out: &mut dyn Write) -> Result<(), EngineError> {
        self.idle_for(Request::Bench)?;
        let evaluator = evaluator_for(&self.options, self.net.as_ref());
        let config = crate::bench::BenchConfig {
            depth: depth.unwrap_or(crate::bench::DEFAULT_DEPTH),
            ..crate::bench::BenchConfig::default()
        };
        crate::bench::run(config, evaluator, out)
            .map(|_| ())
            .map_err(|error| EngineError::Io {
                request: Request::Bench,
                error,
            })
    }

    /// Reports the referee's verdict when the current position occurs for the
    /// `RepetitionThreshold`-th time: a front end that keeps playing is served by the search
    /// that follows, one that adjudicates knows why.
    fn report_root_verdict(&self) {
        let threshold = self.options.rules.repetition_threshold.max(2) as usize;
        if self.game.occurrences() < threshold {
            return;
        }
        if let Some(v) = self.game.verdict(&self.options.rules) {
            (self.listener)(Event::RuleVerdict(v));
        }
    }

    /// The request as the search runs it: a depth within range, and without any limit a search
    /// until `stop` (a ponder search waits for `ponderhit` instead).
    fn completed(mut request: SearchRequest) -> SearchRequest {
        request.depth = request.depth.map(|d| d.clamp(1, MAX_GO_DEPTH));
        let has_limit = request.depth.is_some()
            || request.nodes.is_some()
            || request.mate.is_some()
            || request.movetime_ms.is_some()
            || request.clock.is_some();
        if !has_limit && !request.ponder {
            request.infinite = true;
        }
        request
    }

    /// Starts a search as `request` asks (or answers at once when there is nothing to search);
    /// its output comes as events. `draw_offered`: the opponent offers a draw. `depth` 0 means
    /// no search: the static evaluation is reported. The search's lines, rules and move
    /// overhead are the engine's options; `request.root_moves` (those legal and not banned)
    /// restrict the root moves when any of them is legal. Refused while another search runs.
    pub fn go(&mut self, request: SearchRequest, draw_offered: bool) -> Result<(), EngineError> {
        self.idle_for(Request::Go)?;
        self.report_root_verdict();
        let pos = self.game.position();
        let mut root: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .collect();
        if let Some(only) = request.root_moves.as_ref().filter(|only| !only.is_empty()) {
            root.retain(|m| only.contains(m));
        }
        if root.is_empty() {
            (self.listener)(Event::NoMove { score: mated_in(0) });
            return Ok(());
        }
        if request.depth == Some(0) {
            let score = self.static_eval();
            (self.listener)(Event::StaticEval { score });
            return Ok(());
        }
        // Analysis (`go infinite`) always gets full strength.
        let strength = if request.infinite {
            Strength::FULL
        } else {
            self.options.strength()
        };
        let request = SearchRequest {
            multipv: strength.lines(self.options.multipv),
            rules: self.options.rules.clone(),
            move_overhead_ms: self.options.move_overhead_ms,
            root_moves: Some(root),
            ..strength.limit(&Self::completed(request))
        };
        let choice = MoveChoice {
            strength,
            shown: self.options.multipv,
            draw: if strength.is_full() {
                0.0
            } else {
                self.rng.unit_f64()
            },
        };
        self.spawn_search(request, draw_offered, choice);
        Ok(())
    }

    /// Runs the search on its own thread; the thread sends the best move (held until `stop` or
    /// `ponderhit` for infinite and ponder searches) and hands the searcher back.
    fn spawn_search(&mut self, request: SearchRequest, draw: bool, choice: MoveChoice) {
        self.join_search();
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let ctl = Arc::new(searcher.new_control(request.ponder));
        let tt = Arc::clone(searcher.table());
        let draw_offered = Arc::new(AtomicBool::new(draw));
        let game = self.game.clone();
        let thinking = Arc::clone(&self.thinking);
        let listener = Arc::clone(&self.listener);
        if let Ok(mut t) = thinking.lock() {
            *t = true;
        }
        let (ctl2, draw2) = (Arc::clone(&ctl), Arc::clone(&draw_offered));
        let spawned = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(search::THREAD_STACK_BYTES)
            .spawn(move || {
                let mut on_info = |info: &search::Info| {
                    // Candidate lines searched only for a weakened choice are not shown.
                    if !matches!(info, search::Info::Iteration { multipv, .. } if *multipv > choice.shown)
                    {
                        listener(Event::Info(info.clone()))
                    }
                };
                let result = searcher.search_controlled(&game, &request, &ctl2, &mut on_info);
                // An infinite or ponder search holds its answer until stop / ponderhit.
                while !ctl2.stop_requested.load(Ordering::SeqCst)
                    && (request.waits_for_stop() || ctl2.pondering.load(Ordering::SeqCst))
                {
                    std::thread::sleep(HOLD_POLL);
                }
                let event = match result {
                    Some(r) => {
                        let pos = game.position();
                        let (best, ponder, score) =
                            match r.lines.get(choice.strength.choose(&r.lines, choice.draw)) {
                                Some(line) if line.mv != r.best => {
                                    (line.mv, line.pv.get(1).copied(), line.reported_score().0)
                                }
                                _ => (r.best, r.ponder, r.score),
                            };
                        Event::BestMove {
                            best,
                            ponder: ponder.or_else(|| ponder_from_tt(searcher.table(), pos, best)),
                            offer: offer(pos, best, score, r.depth, draw2.load(Ordering::SeqCst)),
                        }
                    }
                    None => Event::NoMove { score: mated_in(0) },
                };
                let mut t = thinking.lock().unwrap_or_else(|p| p.into_inner());
                listener(event);
                *t = false;
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    ctl,
                    draw_offered,
                    tt,
                    handle,
                })
            }
            Err(e) => {
                if let Ok(mut t) = self.thinking.lock() {
                    *t = false;
                }
                self.searcher = Some(self.fresh_searcher());
                (self.listener)(Event::Error(format!("cannot start the search thread: {e}")));
            }
        }
    }

    /// Stops the running search (its best move follows as an event); `false` if none was
    /// running.
    pub fn stop(&mut self) -> bool {
        let t = self.thinking.lock().unwrap_or_else(|p| p.into_inner());
        if !*t {
            return false;
        }
        if let Some(r) = &self.running {
            r.ctl.request_stop();
        }
        true
    }

    /// The opponent played the expected move: the ponder search becomes a normal one (with the
    /// opponent's draw offer, if `draw`).
    pub fn ponderhit(&mut self, draw: bool) -> Result<(), EngineError> {
        let active = self.is_searching();
        match &self.running {
            Some(r) if active && r.ctl.pondering.load(Ordering::SeqCst) => {
                if draw {
                    r.draw_offered.store(true, Ordering::SeqCst);
                }
                r.ctl.ponderhit();
                Ok(())
            }
            _ => Err(EngineError::NotPondering),
        }
    }

    /// Stops any search and waits until its thread has ended (its best move is still sent,
    /// before this returns).
    pub fn stop_and_wait(&mut self) {
        if let Some(r) = &self.running {
            r.ctl.request_stop();
        }
        self.join_search();
    }

    /// Stops any search and waits for it (its best move is still sent).
    pub fn quit(&mut self) {
        self.stop_and_wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// The random numbers of weakened play: from `seed`, or for 0 from the process's random hash
/// keys (different in every run).
fn strength_rng(seed: u64) -> SplitMix64 {
    if seed != 0 {
        return SplitMix64::new(seed);
    }
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0);
    SplitMix64::new(hasher.finish())
}

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

/// What to propose with the move: resign a clearly lost game, accept an offered draw when not
/// better, offer one when the search proved a draw or no side can attack any more.
pub fn offer(
    pos: &Position,
    best: Move,
    score: i32,
    depth: i32,
    draw_offered: bool,
) -> Option<Offer> {
    if score <= -MATE_BOUND || (score <= -RESIGN_SCORE && depth >= RESIGN_MIN_DEPTH) {
        return Some(Offer::Resign);
    }
    if draw_offered && score <= DRAW_ACCEPT_MAX && !is_mate(score) {
        return Some(Offer::Draw);
    }
    let mut after = pos.clone();
    if after.is_legal(best) {
        after.make_move(best);
    }
    if (score == 0 && depth >= DRAW_OFFER_MIN_DEPTH) || after.has_no_attacking_material() {
        return Some(Offer::Draw);
    }
    None
}

/// The evaluation `options` select: the net while `Use NNUE` is on and a net is loaded, else the
/// handcrafted one.
fn evaluator_for(options: &Options, net: Option<&Arc<nnue::Network>>) -> eval::Evaluator {
    match net {
        Some(net) if options.use_nnue => eval::Evaluator::with_net(Arc::clone(net)),
        _ => eval::Evaluator::Handcrafted,
    }
}
