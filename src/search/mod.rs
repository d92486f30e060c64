//! The search: iterative deepening with aspiration windows, PVS, quiescence, a shared
//! transposition table and Lazy SMP helper threads.
//!
//! [`Searcher`] is the public entry point (one per independent search engine: its own table,
//! threads and evaluators). Underneath, [`run`] starts `threads - 1` helpers that search the
//! same root and share only the TT and the table of moves being searched (`deferral`), runs
//! the main worker (which owns time control and reporting) on the calling thread, then stops
//! the helpers and returns the decision the threads vote for (see `vote`).

mod control;
mod deferral;
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
mod vote;
pub mod worker;

use crate::limits::SearchLimits;
use crate::time::TimeBudget;
use engine_core::rules::RuleOptions;
use engine_core::{Move, Position};
use std::sync::atomic::Ordering;
use tt::TranspositionTable;
use worker::{RootMove, ThreadData, Worker};

pub use control::SearchControl;
pub use searcher::{SearchOptions, Searcher};
pub use worker::THREAD_STACK_BYTES;

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

/// One event of search progress (the protocol front end formats it per dialect).
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

/// Runs a search on `threads.len()` threads (at least one) and returns the decision the threads
/// vote for. `report` receives the main thread's progress (and the chosen line when a helper's
/// move wins the vote).
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
    let (results, chosen) = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (i, data) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let spawned = std::thread::Builder::new()
                .name(format!("search-helper-{id}"))
                .stack_size(worker::THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, req, tt, ctl, data, None);
                    w.iterative_deepening();
                    w.result()
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                // Out of threads: search with the helpers that did start.
                Err(_) => break,
            }
        }
        let mut main = Worker::new(0, req, tt, ctl, main_data, Some(&mut *report));
        main.iterative_deepening();
        ctl.stop.store(true, Ordering::SeqCst);
        let mut results = vec![main.result()];
        results.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        // MultiPV lines are the main thread's ranking; with one line, the threads vote.
        let chosen = if req.multipv <= 1 {
            vote::best_thread(&results)
        } else {
            0
        };
        (results, chosen)
    });
    let result = results.into_iter().nth(chosen).expect("chosen thread");
    if chosen != 0 {
        report_chosen_line(&result, tt, ctl, report);
    }
    SearchResult {
        nodes: ctl.total_nodes(),
        ..result
    }
}

/// Reports the line of a helper thread whose move the vote chose, so that the GUI's last line
/// is the one of the move played.
fn report_chosen_line(
    result: &SearchResult,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    report: &mut dyn FnMut(&Info),
) {
    let info = result.lines.first().and_then(|line| {
        line.iteration_info(
            result.depth,
            1,
            ctl.total_nodes(),
            ctl.elapsed().as_millis() as u64,
            tt.hashfull(),
        )
    });
    if let Some(info) = info {
        report(&info);
    }
}
