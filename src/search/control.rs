//! The flags and counters a running search shares with whoever controls it: stop, ponder, the
//! clock's start and each thread's node count.

use super::deferral::Deferral;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Flags and counters the controller shares with a running search.
pub struct SearchControl {
    /// Set by `stop`, `quit`, the time manager or the main worker when done; every worker
    /// checks it at every node.
    pub stop: AtomicBool,
    /// The GUI sent `stop` (or `quit`): a held `bestmove` (infinite or ponder search) is due.
    pub stop_requested: AtomicBool,
    /// True during `go ponder` until `ponderhit`: no time limit applies and `bestmove` is held.
    pub pondering: AtomicBool,
    /// When the clock started for this search (reset by `ponderhit`).
    clock_start: Mutex<Instant>,
    /// Nodes per thread, published by each worker (one cache line each: every worker writes its
    /// counter at every node, and counters sharing a line would make the threads fight over it).
    nodes: Vec<PaddedCounter>,
    /// The moves the threads are searching now (see `Deferral`).
    pub deferral: Deferral,
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
            clock_start: Mutex::new(Instant::now()),
            nodes: (0..threads.max(1))
                .map(|_| PaddedCounter::default())
                .collect(),
            deferral: Deferral::new(threads),
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
