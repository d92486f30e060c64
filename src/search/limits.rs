//! What the GUI asked for in one `go`, in typed form and independent of the protocol dialect.

/// The side to move's clock, already converted to milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub time_ms: u64,
    /// Increment per move (Fischer).
    pub inc_ms: u64,
    /// Moves until the next time control, if the control is classical.
    pub movestogo: Option<u32>,
}

/// Limits of one search. Everything `None`/false means "until `stop`".
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Iterations to complete (plies of nominal depth).
    pub depth: Option<i32>,
    /// Nodes to search (summed over threads).
    pub nodes: Option<u64>,
    /// Find a mate in at most this many moves, then stop.
    pub mate: Option<u32>,
    /// Think exactly this long (minus the move overhead).
    pub movetime_ms: Option<u64>,
    /// Our clock, for the time manager.
    pub clock: Option<Clock>,
    /// Search until `stop` (UCI `go infinite`, UCCI `go infinite`).
    pub infinite: bool,
    /// Ponder search: the clock does not run until `ponderhit`.
    pub ponder: bool,
}

impl SearchLimits {
    /// Whether the search must hold its `bestmove` until `stop` even after finishing
    /// (the protocols forbid answering an infinite search early).
    pub fn waits_for_stop(&self) -> bool {
        self.infinite
    }
}
