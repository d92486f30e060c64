//! The engine as the analysis tool uses it: one in-process [`Searcher`] under fixed limits,
//! asked for a number of lines (MultiPV) in one position of a game at a time.
//!
//! Every search of a position starts from a cleared table and cleared histories
//! ([`Analyst::analyze`]), so that a position's score depends on the position (and the moves that
//! led to it, for repetitions) only: the same in a game as with `--fen`, and the same whichever
//! positions were searched before it. [`Analyst::compare`], which scores chosen moves of the
//! position just searched against each other, goes on from the table that search filled. A
//! finished position (mate, stalemate, a rule's verdict) is not searched: its analysis carries
//! the result.

use cotuong::game::Game;
use cotuong::search::INFINITE;
use cotuong::search::{Info, ScoreBound, SearchRequest, Searcher};
use engine_core::{Color, GameResult, Move, RuleOptions, Verdict};
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
    /// The referee's verdict when the game is over in this position (then `lines` is empty).
    pub verdict: Option<Verdict>,
}

impl Analysis {
    /// The position's score from Red's view: the best line's, the result of a finished game
    /// (`#0` / `#-0` for a win, 0 for a draw), or, without a legal move, a loss for the side to
    /// move.
    pub fn score(&self) -> RedScore {
        if let Some(v) = &self.verdict {
            return match v.result {
                GameResult::RedWins => RedScore::from_side(Color::Black, MATED_NOW),
                GameResult::BlackWins => RedScore::from_side(Color::Red, MATED_NOW),
                GameResult::Draw => RedScore::from_side(Color::Red, 0),
            };
        }
        self.lines
            .first()
            .map_or(RedScore::from_side(self.side, MATED_NOW), |l| l.score)
    }

    /// The result of a finished game, for people: `1-0 (checkmate: ...)`; `None` while it goes
    /// on.
    pub fn result_text(&self) -> Option<String> {
        if let Some(v) = &self.verdict {
            return Some(format!("{} ({})", v.result.pgn(), v.explanation));
        }
        self.lines.is_empty().then(|| {
            let result = match self.side {
                Color::Red => GameResult::BlackWins,
                Color::Black => GameResult::RedWins,
            };
            format!("{} ({} has no legal move)", result.pgn(), self.side.name())
        })
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

    /// Searches the current position of `game` for `lines` lines, from a cleared table and
    /// cleared histories; `on_info` sees the search's progress. A finished game is not searched.
    pub fn analyze(
        &mut self,
        game: &Game,
        lines: usize,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        self.analyze_with(game, lines, true, on_info)
    }

    /// [`Analyst::analyze`], keeping what earlier searches learnt when `fresh` is false (for the
    /// measurement of what the cleared table costs).
    pub fn analyze_with(
        &mut self,
        game: &Game,
        lines: usize,
        fresh: bool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        let side = game.position().side_to_move();
        if let Some(verdict) = game.verdict(&self.rules) {
            return Analysis {
                side,
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                millis: 0,
                verdict: Some(verdict),
            };
        }
        if fresh {
            self.searcher.clear();
        }
        let request = SearchRequest {
            multipv: lines.max(1),
            rules: self.rules.clone(),
            ..self.limits.clone()
        };
        self.search(game, &request, on_info)
    }

    /// Searches the current position of `game` under the same limits, only `moves` at the root,
    /// one line for each, keeping the table the last search filled: the moves are scored by one
    /// search, against each other. A finished game is not searched.
    pub fn compare(
        &mut self,
        game: &Game,
        moves: &[Move],
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        if let Some(over) = self.finished(game) {
            return over;
        }
        let request = SearchRequest {
            multipv: moves.len().max(1),
            rules: self.rules.clone(),
            root_moves: Some(moves.to_vec()),
            ..self.limits.clone()
        };
        self.search(game, &request, on_info)
    }

    /// The analysis of a finished game (a rule's verdict, or no legal move) without a search;
    /// `None` while the game goes on.
    pub fn finished(&self, game: &Game) -> Option<Analysis> {
        let side = game.position().side_to_move();
        let verdict = game.verdict(&self.rules);
        (verdict.is_some() || !game.position().has_legal_move()).then_some(Analysis {
            side,
            lines: Vec::new(),
            depth: 0,
            nodes: 0,
            millis: 0,
            verdict,
        })
    }

    fn search(
        &mut self,
        game: &Game,
        request: &SearchRequest,
        on_info: &mut dyn FnMut(&Info),
    ) -> Analysis {
        let side = game.position().side_to_move();
        let started = Instant::now();
        let result = self.searcher.search(game, request, on_info);
        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let mut analysis = match result {
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
                verdict: None,
            },
            None => Analysis {
                side,
                lines: Vec::new(),
                depth: 0,
                nodes: 0,
                millis,
                verdict: None,
            },
        };
        // Best first, from the mover's view: a line cut short by a node or time limit keeps
        // the bound it reached, which can fall below the next line's score.
        analysis
            .lines
            .sort_by_key(|l| std::cmp::Reverse(l.score.for_side(side)));
        analysis
    }
}
