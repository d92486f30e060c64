//! The answer of a finished search: the chosen move and the root lines behind it.

use super::info::{Info, ScoreBound};
use super::score::INFINITE;
use engine_core::Move;

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

/// A root move with its current and previous iteration scores and its PV.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score in the current iteration (`-INFINITE` until searched or when it failed low).
    pub score: i32,
    /// Score in the previous iteration.
    pub prev_score: i32,
    /// Whether `score` is a bound (aspiration failure).
    pub bound: ScoreBound,
    /// Deepest ply reached under it.
    pub seldepth: usize,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

impl RootMove {
    /// The score to report: this iteration's, or the previous one's when this iteration did not
    /// score the move (with its bound).
    pub fn reported_score(&self) -> (i32, ScoreBound) {
        if self.score == -INFINITE {
            (self.prev_score, ScoreBound::Exact)
        } else {
            (self.score, self.bound)
        }
    }

    /// The progress event of this line as line `multipv` of an iteration `depth` deep; `None`
    /// while the line has no score yet. `nodes`, `time_ms` and `hashfull` describe the whole
    /// search at the moment of the report.
    pub(super) fn iteration_info(
        &self,
        depth: i32,
        multipv: usize,
        nodes: u64,
        time_ms: u64,
        hashfull: u32,
    ) -> Option<Info> {
        let (score, bound) = self.reported_score();
        (score != -INFINITE).then(|| Info::Iteration {
            depth,
            seldepth: self.seldepth.max(1),
            multipv,
            score,
            bound,
            nodes,
            time_ms,
            hashfull,
            pv: self.pv.clone(),
        })
    }
}
