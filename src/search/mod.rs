//! The search: iterative deepening with aspiration windows, PVS, quiescence, a shared
//! transposition table and Lazy SMP helper threads.
//!
//! This module is the search's one public face: the request ([`SearchRequest`]), the result
//! ([`SearchResult`] with its [`RootMove`] lines), the events ([`Info`]) and [`Searcher`], one
//! per independent search engine (its own table, threads and evaluators), plus what a caller
//! needs to read them: the score scale, the table's entries for `probe`, and the tunable
//! constants for `cotuong tune`. Everything else is private to the search. The thread driver is
//! `threads`; a worker's search is split over `root`, `pvs` and `qsearch`.

mod control;
mod deferral;
mod history;
mod info;
mod job;
mod ordering;
mod params;
mod pvs;
mod qsearch;
mod repetition_filter;
mod request;
mod result;
mod root;
mod rules;
mod score;
mod searcher;
mod see;
mod threads;
mod time;
mod tt;
mod tunable;
mod vote;
mod worker;

pub use control::SearchControl;
pub use info::{Info, ScoreBound};
pub use params::{SOFT_NODES_HARD_CAP, TUNABLES};
pub use request::{SearchRequest, SideClock};
pub use result::{RootMove, SearchResult};
pub use score::{
    is_mate, mate_in, mate_moves, mated_in, DECIDED_BOUND, DRAW, INFINITE, MATE, MATE_BOUND,
};
pub use searcher::Searcher;
pub use tt::{Bound, TranspositionTable, TtEntry};
pub use tunable::Tunable;
pub use worker::THREAD_STACK_BYTES;

#[cfg(feature = "tune")]
pub use params::set_tunable;
