//! The in-process search API: a [`Searcher`] owns everything one search needs between moves
//! (its transposition table, each thread's history tables and evaluator), so that any number of
//! searchers can run side by side in one process (one per data-generation thread, say) without
//! sharing anything mutable.
//!
//! ```
//! use cotuong::game::Game;
//! use cotuong::search::{SearchRequest, Searcher};
//!
//! let mut searcher = Searcher::new(16, 1).expect("16 MB");
//! let game = Game::startpos();
//! let request = SearchRequest { soft_nodes: Some(5_000), multipv: 3, ..SearchRequest::default() };
//! let result = searcher.search(&game, &request, &mut |_info| {}).expect("a legal move");
//! assert_eq!(result.lines.len(), 3);
//! assert_eq!(result.best, result.lines[0].mv);
//! ```

use super::job::Job;
use super::threads::run;
use super::tt::TranspositionTable;
use super::worker::ThreadData;
use super::{Info, SearchControl, SearchRequest, SearchResult};
use crate::eval::Evaluator;
use crate::game::Game;
use std::sync::Arc;

/// A search engine without any protocol: a transposition table, per-thread state and the
/// number of threads. Searches are independent of each other except through the table and the
/// move-ordering statistics, which [`Searcher::clear`] resets.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    threads: Vec<ThreadData>,
    /// Cloned into each thread's data: the evaluation every thread uses.
    evaluator: Evaluator,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes (at least 1) and `threads` search threads
    /// (at least 1); an error if the table cannot be allocated.
    pub fn new(hash_mb: usize, threads: usize) -> Result<Searcher, String> {
        let hash_mb = hash_mb.max(1);
        let evaluator = Evaluator::default();
        Ok(Searcher {
            tt: Arc::new(TranspositionTable::try_new(hash_mb)?),
            hash_mb,
            threads: (0..threads.max(1))
                .map(|_| Self::thread_data(&evaluator))
                .collect(),
            evaluator,
        })
    }

    fn thread_data(evaluator: &Evaluator) -> ThreadData {
        ThreadData {
            evaluator: evaluator.clone(),
            ..ThreadData::default()
        }
    }

    /// Table size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// The transposition table (shared with a running search; for `probe`-style lookups).
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// Replaces the table by an empty one of `mb` megabytes (at least 1). On failure the error
    /// says why and an empty table of the old size takes its place.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        let mb = mb.max(1);
        // Free the old table first (unless a caller still holds it), so that its memory can be
        // reused for the new one.
        self.tt = Arc::new(TranspositionTable::new(1));
        let old_mb = std::mem::replace(&mut self.hash_mb, 1);
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
                Ok(())
            }
            Err(e) => {
                if let Ok(tt) = TranspositionTable::try_new(old_mb) {
                    self.tt = Arc::new(tt);
                    self.hash_mb = old_mb;
                }
                Err(e)
            }
        }
    }

    /// Uses `n` search threads (at least 1) from the next search on.
    pub fn set_threads(&mut self, n: usize) {
        let evaluator = &self.evaluator;
        self.threads
            .resize_with(n.max(1), || Self::thread_data(evaluator));
    }

    /// The evaluator every thread uses from the next search on.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        for t in &mut self.threads {
            t.evaluator = evaluator.clone();
        }
        self.evaluator = evaluator;
    }

    /// The evaluator the threads use (a copy serves static evaluations outside a search).
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Forgets everything learnt so far (a new game): empties the table and every thread's
    /// move-ordering statistics, so that the next search behaves like a fresh searcher's.
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.history.clear();
        }
    }

    /// Control flags for a search by this searcher (stop, ponder, node counters), for callers
    /// that stop or ponder a search from another thread ([`Searcher::search_controlled`]).
    pub fn new_control(&self, pondering: bool) -> SearchControl {
        SearchControl::new(self.threads.len(), pondering)
    }

    /// Searches the current position of `game` (whose moves are the history repetitions are
    /// judged against) as `request` asks, on the calling thread (plus helper threads when there
    /// are several): call it from a thread with a stack of [`super::THREAD_STACK_BYTES`], or a
    /// process's main thread. `on_info` receives the main thread's progress (one
    /// [`Info::Iteration`] per line and completed iteration). `None` when there is no root move
    /// to search: no legal move (the side to move has lost), or none of `request.root_moves` is
    /// legal.
    pub fn search(
        &mut self,
        game: &Game,
        request: &SearchRequest,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let ctl = self.new_control(request.ponder);
        self.search_controlled(game, request, &ctl, on_info)
    }

    /// [`Searcher::search`] under a control made by [`Searcher::new_control`], through which
    /// another thread can stop the search or end its pondering.
    pub fn search_controlled(
        &mut self,
        game: &Game,
        request: &SearchRequest,
        ctl: &SearchControl,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let pos = game.position();
        let mut root_moves = pos.legal_moves().to_vec();
        if let Some(only) = &request.root_moves {
            root_moves.retain(|m| only.contains(m));
        }
        if root_moves.is_empty() {
            return None;
        }
        let job = Job {
            pos: pos.clone(),
            keys: game.keys().to_vec(),
            moves: game.moves().to_vec(),
            root_moves,
        };
        Some(run(
            &job,
            request,
            &self.tt,
            ctl,
            &mut self.threads,
            on_info,
        ))
    }
}
