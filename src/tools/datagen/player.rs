//! The engine's own search as the data generator's player: one search thread, its own hash
//! table, a soft node limit per move.

use super::game::{Player, ScoredMove};
use cotuong::eval::Evaluator;
use cotuong::game::Game;
use cotuong::search::{SearchRequest, Searcher};
use engine_core::RuleOptions;

/// A searcher with fixed limits.
pub struct SearchPlayer {
    searcher: Searcher,
    limits: SearchRequest,
    /// The node limit set at creation; a game searches a multiple of it.
    soft_nodes: u64,
    rules: RuleOptions,
    /// Nodes searched since the player was made.
    nodes: u64,
}

impl SearchPlayer {
    /// A player searching `soft_nodes` nodes per move with a `hash_mb` table under `rules`,
    /// evaluating with `evaluator`.
    pub fn new(
        hash_mb: usize,
        soft_nodes: u64,
        rules: &RuleOptions,
        evaluator: Evaluator,
    ) -> Result<SearchPlayer, String> {
        let mut searcher = Searcher::new(hash_mb, 1)?;
        searcher.set_evaluator(evaluator);
        Ok(SearchPlayer {
            searcher,
            limits: SearchRequest {
                soft_nodes: Some(soft_nodes),
                ..SearchRequest::default()
            },
            rules: rules.clone(),
            soft_nodes,
            nodes: 0,
        })
    }
}

impl Player for SearchPlayer {
    fn new_game(&mut self, node_scale: f64) {
        self.searcher.clear();
        let nodes = (self.soft_nodes as f64 * node_scale).round() as u64;
        self.limits.soft_nodes = Some(nodes.max(1));
    }

    fn search(&mut self, game: &Game, lines: usize) -> Vec<ScoredMove> {
        let request = SearchRequest {
            multipv: lines,
            rules: self.rules.clone(),
            ..self.limits.clone()
        };
        let Some(result) = self.searcher.search(game, &request, &mut |_| {}) else {
            return Vec::new();
        };
        self.nodes += result.nodes;
        result
            .lines
            .iter()
            .map(|line| ScoredMove {
                mv: line.mv,
                score: line.reported_score().0,
            })
            .collect()
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
