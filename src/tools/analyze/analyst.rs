//! The engine as the analysis tool uses it: one in-process [`Searcher`] under fixed limits,
//! asked for a number of lines (MultiPV) in one position of a game at a time.

use cotuong::game::Game;
use cotuong::search::INFINITE;
use cotuong::search::{Info, ScoreBound, SearchRequest, Searcher};
use engine_core::rules::RuleOptions;
use engine_core::{Color, Move};
use std::time::Instant;

use super::score::{RedScore, MATED_NOW};

/// How long each position is searched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Iterations to complete.
    pub depth: Option<u32>,
    /// Milliseconds per position.
    pub movetime_ms: Option<u64>,
    /// Nodes per position.
    pub nodes: Option<u64>,
}

impl Limits {
    /// The limits as the search takes them.
    fn search_limits(&self) -> SearchRequest {
        SearchRequest {
            depth: self.depth.map(|d| i32::try_from(d).unwrap_or(i32::MAX)),
            nodes: self.nodes,
            movetime_ms: self.movetime_ms,
            ..SearchRequest::default()
        }
    }

    /// A short description for people (`depth 12`, `1000 ms`, `50000 nodes`), the limits that
    /// are set joined by `, `.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("{ms} ms"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        parts.join(", ")
    }
}

/// One line of an analysis.
#[derive(Clone, Debug)]
pub struct Line {
    /// Its first move.
    pub mv: Move,
    /// Its score from Red's view.
    pub score: RedScore,
    /// Whether the score is exact or a bound.
    pub bound: ScoreBound,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// What the search says about one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The side to move.
    pub side: Color,
    /// The best lines, best first; empty when the side to move has no legal move.
    pub lines: Vec<Line>,
    /// Last completed depth (0 without a search).
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub millis: u64,
}

impl Analysis {
    /// The position's score from Red's view: the best line's, or, without a legal move, a loss
    /// for the side to move.
    pub fn score(&self) -> RedScore {
        self.lines
            .first()
            .map_or(RedScore::from_side(self.side, MATED_NOW), |l| l.score)
    }

    /// The line that starts with `mv`, if the search reported one.
    pub fn line_of(&self, mv: Move) -> Option<&Line> {
        self.lines.iter().find(|l| l.mv == mv)
    }
}

/// A searcher with its limits and rules.
pub struct Analyst {
    searcher: Searcher,
    limits: SearchRequest,
    rules: RuleOptions,
}

impl Analyst {
    /// An analyst with a `hash_mb` table and `threads` search threads; an error if the table
    /// cannot be allocated.
    pub fn new(limits: &Limits, hash_mb: usize, threads: usize) -> Result<Analyst, String> {
        Ok(Analyst {
            searcher: Searcher::new(hash_mb, threads)
                .map_err(|e| format!("--hash {hash_mb}: {e}"))?,
            limits: limits.search_limits(),
            rules: RuleOptions::default(),
        })
    }

    /// Forgets what earlier searches learnt (before an unrelated position or game).
    pub fn forget(&mut self) {
        self.searcher.clear();
    }

    /// Searches the current position of `game` for `lines` lines; `on_info` sees the search's
    /// progress.
    pub fn analyze(
        &mut self,
        game: &Game,
        lines: usize,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        self.search(game, lines, None, on_info)
    }

    /// The line of `mv` in the current position of `game`, searched under the same limits as
    /// [`Analyst::analyze`] but with only `mv` at the root, so that its score is comparable with
    /// the best line's. `None` if `mv` is not legal there.
    pub fn analyze_move(
        &mut self,
        game: &Game,
        mv: Move,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Line> {
        self.search(game, 1, Some(vec![mv]), on_info)
            .lines
            .into_iter()
            .next()
    }

    fn search(
        &mut self,
        game: &Game,
        lines: usize,
        root_moves: Option<Vec<Move>>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        let side = game.position().side_to_move();
        let request = SearchRequest {
            multipv: lines.max(1),
            rules: self.rules.clone(),
            root_moves,
            ..self.limits.clone()
        };
        let started = Instant::now();
        let result = self.searcher.search(game, &request, on_info);
        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match result {
            Some(r) => Analysis {
                side,
                lines: r
                    .lines
                    .iter()
                    .enumerate()
                    // A line the search never scored (cut short by a node or time limit) is
                    // left out; the first always has a score.
                    .filter(|(i, l)| *i == 0 || l.reported_score().0 > -INFINITE)
                    .map(|(_, l)| {
                        let (score, bound) = l.reported_score();
                        Line {
                            mv: l.mv,
                            score: RedScore::from_side(side, score),
                            bound,
                            pv: l.pv.clone(),
                        }
                    })
                    .collect(),
                depth: r.depth,
                nodes: r.nodes,
                millis,
            },
            None => Analysis {
                side,
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                millis,
            },
        }
    }
}
