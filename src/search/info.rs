//! The events of a running search: what the main thread reports after each iteration and while
//! a long one runs (a protocol front end formats them per dialect).

use engine_core::Move;

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
