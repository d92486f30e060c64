//! The search: iterative deepening with aspiration windows, PVS, quiescence, a shared
//! transposition table and Lazy SMP helper threads.
//!
//! [`Searcher`] is the public entry point (one per independent search engine: its own table,
//! threads and evaluators). Underneath, [`run`] starts `threads - 1` helpers that search the
//! same root and only share the TT, runs the main worker (which owns time control and
//! reporting) on the calling thread, then stops the helpers and returns the main worker's
//! decision.

pub mod history;
pub mod ordering;
pub mod params;
mod pvs;
mod qsearch;
mod root;
pub mod rules;
pub mod score;
mod searcher;
pub mod see;
pub mod tt;
pub mod worker;

use crate::limits::SearchLimits;
use crate::time::TimeBudget;
use engine_core::rules::RuleOptions;
use engine_core::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tt::TranspositionTable;
use worker::{RootMove, ThreadData, Worker};

pub use searcher::{SearchOptions, Searcher};
pub use worker::THREAD_STACK_BYTES;

/// Flags and counters the controller shares with a running search.
pub struct SearchControl {
    /// Set by `stop`, `quit`, the time manager or the main worker when done; every worker
    /// checks it at every node.
    pub stop: AtomicBool,
    /// The GUI sent `stop` (or `quit`): a held `bestmove` (infinite or ponder search) is due.
    pub stop_requested: AtomicBool,
    /// True during `go ponder` until `ponderhit`: no time limit applies and `bestmove` is held.
    pub pondering: AtomicBool,
    /// The GUI offered a draw (UCCI `go draw` / `ponderhit draw`).
    pub draw_offered: AtomicBool,
    /// When the clock started for this search (reset by `ponderhit`).
    clock_start: Mutex<Instant>,
    /// Nodes per thread, published by each worker (one cache line each: every worker writes its
    /// counter at every node, and counters sharing a line would make the threads fight over it).
    nodes: Vec<PaddedCounter>,
}

/// An `AtomicU64` alone on its cache line(s).
#[repr(align(128))]
#[derive(Default)]
struct PaddedCounter(AtomicU64);

impl SearchControl {
    /// Fresh control for a search on `threads` threads.
    pub fn new(threads: usize, pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            stop_requested: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            draw_offered: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
            nodes: (0..threads.max(1))
                .map(|_| PaddedCounter::default())
                .collect(),
        }
    }

    /// Switches a ponder search to a normal one: the clock starts now.
    pub fn ponderhit(&self) {
        if let Ok(mut s) = self.clock_start.lock() {
            *s = Instant::now();
        }
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Time since the clock started (since `go`, or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.clock_start
            .lock()
            .map(|s| s.elapsed())
            .unwrap_or_default()
    }

    /// The GUI's `stop`: aborts the workers and releases a held `bestmove`.
    pub fn request_stop(&self) {
        self.stop_requested.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether the search was told to stop.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Total nodes over all threads.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// The node counter thread `id` publishes to.
    pub(crate) fn node_counter(&self, id: usize) -> &AtomicU64 {
        &self.nodes[id.min(self.nodes.len() - 1)].0
    }
}

/// Bound of a reported score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// Fail high: at least this.
    Lower,
    /// Fail low: at most this.
    Upper,
}

/// One line of search progress, formatted per dialect by the protocol front end.
#[derive(Clone, Debug)]
pub enum Info {
    /// A finished (or failed) iteration of one PV line.
    Iteration {
        /// Nominal depth.
        depth: i32,
        /// Deepest ply reached.
        seldepth: usize,
        /// 1-based line number.
        multipv: usize,
        /// Score, side-to-move relative, internal units (see `score`).
        score: i32,
        /// Whether the score is a bound.
        bound: ScoreBound,
        /// Nodes over all threads.
        nodes: u64,
        /// Milliseconds since `go`.
        time_ms: u64,
        /// Table fill per mille.
        hashfull: u32,
        /// The line.
        pv: Vec<Move>,
    },
    /// The root move being searched on a long iteration.
    CurrMove {
        /// Nominal depth.
        depth: i32,
        /// The move.
        mv: Move,
        /// 1-based index among the root moves.
        number: usize,
    },
}

/// Everything one search needs.
pub struct SearchRequest {
    /// The root position.
    pub pos: Position,
    /// Keys of the game so far, ending with the root's key (for repetitions).
    pub keys: Vec<u64>,
    /// Moves of the game so far: `moves[i]` led from `keys[i]` to `keys[i + 1]`.
    pub moves: Vec<Move>,
    /// Legal root moves to consider (after `banmoves` / `searchmoves`); non-empty.
    pub root_moves: Vec<Move>,
    /// What the GUI asked for.
    pub limits: SearchLimits,
    /// Time budget from the time manager.
    pub budget: TimeBudget,
    /// PV lines to report.
    pub multipv: usize,
    /// The rules the referee applies inside the search (repetition verdicts, the no-capture
    /// limit and its check cap, bare material): the engine's one rule set.
    pub rules: RuleOptions,
}

/// The decision of a finished search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (always one of the root moves).
    pub best: Move,
    /// Expected reply, when known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes over all threads.
    pub nodes: u64,
    /// The first `multipv` root lines, in the order the search ranked them (each the best of
    /// the moves not in the lines before it; the first is the best move's), each with its score
    /// and bound from the last iteration that scored it ([`RootMove::reported_score`]) and its
    /// principal variation.
    pub lines: Vec<RootMove>,
}

/// Runs a search on `threads.len()` threads (at least one) and returns the main thread's
/// decision. `report` receives the main thread's progress.
pub fn run(
    req: &SearchRequest,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    threads: &mut [ThreadData],
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    tt.new_search();
    let (main_data, helpers) = threads
        .split_first_mut()
        .expect("at least one search thread");
    let result = std::thread::scope(|scope| {
        for (i, data) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let spawned = std::thread::Builder::new()
                .name(format!("search-helper-{id}"))
                .stack_size(worker::THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, req, tt, ctl, data, None);
                    w.iterative_deepening();
                });
            // Out of threads: search with the helpers that did start.
            if spawned.is_err() {
                break;
            }
        }
        let mut main = Worker::new(0, req, tt, ctl, main_data, Some(report));
        main.iterative_deepening();
        ctl.stop.store(true, Ordering::SeqCst);
        main.result()
    });
    SearchResult {
        nodes: ctl.total_nodes(),
        ..result
    }
}
