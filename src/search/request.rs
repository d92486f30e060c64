//! What one search is asked to do, in typed form and independent of any protocol: the one
//! request the engine, the tools and the tests hand to [`super::Searcher`] (Pikafish's
//! `LimitsType`). Depth, node and mate limits, a fixed move time or the side to move's clock,
//! whether to wait for `stop`, and the settings of the search itself (lines, rules, move
//! overhead, root moves).

use super::params::SOFT_NODES_HARD_CAP;
use engine_core::{Move, RuleOptions};

/// The side to move's clock, already converted to milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    /// Time left on our clock.
    pub time_ms: u64,
    /// Increment per move (Fischer).
    pub inc_ms: u64,
    /// Moves until the next time control, if the control is classical.
    pub movestogo: Option<u32>,
}

/// One search: its limits (everything `None`/false means "until `stop`") and its settings.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Iterations to complete (plies of nominal depth).
    pub depth: Option<i32>,
    /// Nodes to search (summed over threads): the search stops as soon as they are spent, inside
    /// an iteration if need be (`go nodes`). With one thread the result depends only on the
    /// position, the history, the options and the table's contents, never on the clock.
    pub nodes: Option<u64>,
    /// Soft node limit: no new iteration starts once this many nodes are spent, and the
    /// iteration in progress is aborted at [`SOFT_NODES_HARD_CAP`] times as many. Deterministic
    /// like [`SearchRequest::nodes`] (with one thread); meant for data generation.
    pub soft_nodes: Option<u64>,
    /// Find a mate in at most this many moves, then stop.
    pub mate: Option<u32>,
    /// Think exactly this long (minus the move overhead).
    pub movetime_ms: Option<u64>,
    /// Our clock, for the time manager.
    pub clock: Option<SideClock>,
    /// Search until `stop` (UCI `go infinite`, UCCI `go infinite`).
    pub infinite: bool,
    /// Ponder search: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// Root lines to search and report (MultiPV), at least 1.
    pub multipv: usize,
    /// The rules the referee applies inside the search (repetition verdicts, the no-capture
    /// limit and its check counting, bare material).
    pub rules: RuleOptions,
    /// Time kept back per move for communication lag (ms); only clock and move-time limits use
    /// it.
    pub move_overhead_ms: u64,
    /// Search only these root moves (those of them that are legal); `None`: every legal move.
    pub root_moves: Option<Vec<Move>>,
}

impl Default for SearchRequest {
    /// No limit (until `stop`), one line, the default rules, no move overhead, every root move.
    fn default() -> Self {
        SearchRequest {
            depth: None,
            nodes: None,
            soft_nodes: None,
            mate: None,
            movetime_ms: None,
            clock: None,
            infinite: false,
            ponder: false,
            multipv: 1,
            rules: RuleOptions::default(),
            move_overhead_ms: 0,
            root_moves: None,
        }
    }
}

impl SearchRequest {
    /// Whether the search must hold its `bestmove` until `stop` even after finishing
    /// (the protocols forbid answering an infinite search early).
    pub fn waits_for_stop(&self) -> bool {
        self.infinite
    }

    /// The node count at which the search aborts, whatever the iteration: `nodes`, or the hard
    /// cap of `soft_nodes`, whichever comes first.
    pub fn hard_node_limit(&self) -> Option<u64> {
        let cap = self
            .soft_nodes
            .map(|n| n.saturating_mul(SOFT_NODES_HARD_CAP));
        match (self.nodes, cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_node_limit_is_the_earlier_of_nodes_and_the_soft_cap() {
        let mut l = SearchRequest::default();
        assert_eq!(l.hard_node_limit(), None);
        l.nodes = Some(1000);
        assert_eq!(l.hard_node_limit(), Some(1000));
        l.soft_nodes = Some(50);
        assert_eq!(l.hard_node_limit(), Some(50 * SOFT_NODES_HARD_CAP));
        l.nodes = None;
        l.soft_nodes = Some(u64::MAX);
        assert_eq!(l.hard_node_limit(), Some(u64::MAX));
    }
}
