//! Repeated games. An engine that searches to a fixed node count or depth on one thread, and
//! clears what it learnt at each new game, plays the same game again whenever the schedule
//! repeats its engines, colours and opening; an Elo estimate or an SPRT would count that game
//! as new evidence. This module numbers the passes of a schedule over its pairings, varies a
//! node limit from pass to pass (`--vary-nodes`), and notices games that replay an earlier one
//! move for move.

use super::super::scheduling::Job;
use std::collections::{HashMap, HashSet};

/// How far `--vary-nodes` moves a node limit from the one given, either way (a fraction).
pub const NODE_VARIATION: f64 = 0.25;

/// The inverse golden ratio: successive multiples of it, taken modulo 1, spread evenly over
/// [0, 1) without ever repeating, so every pass gets a node limit of its own.
const SPREAD_STEP: f64 = 0.618_033_988_749_895;

/// What makes two games of a run the same game for a deterministic engine.
type Pairing = (usize, usize, usize);

fn pairing(job: &Job) -> Pairing {
    (job.red, job.black, job.opening)
}

/// Numbers each job's pass: how many jobs before it in the list have the same engines, colours
/// and opening (0 for the first of them).
pub fn number_passes(jobs: &mut [Job]) {
    let mut seen: HashMap<Pairing, usize> = HashMap::new();
    for job in jobs {
        let count = seen.entry(pairing(job)).or_default();
        job.pass = *count;
        *count += 1;
    }
}

/// How many jobs differ from all jobs before them in engines, colours or opening.
pub fn distinct_games(jobs: &[Job]) -> usize {
    jobs.iter().filter(|j| j.pass == 0).count()
}

/// The node limit of a game in pass `pass` of a schedule whose limit is `nodes`: `nodes` itself
/// in the first pass, then a different limit within [`NODE_VARIATION`] of it in each later pass
/// (spread evenly around `nodes`, so their mean stays close to it), at least 1.
///
/// ```text
/// pass     0      1      2      3      4      5 ...
/// nodes  10000   8090  11180   9271  12361  10451 ...
/// ```
pub fn varied_nodes(nodes: u64, pass: usize) -> u64 {
    // Pass 0 sits at the centre of the spread (0.5), so it keeps the limit as given.
    let position = (0.5 + pass as f64 * SPREAD_STEP).fract();
    let factor = 1.0 + 2.0 * NODE_VARIATION * (position - 0.5);
    ((nodes as f64 * factor).round() as u64).max(1)
}

/// The move lists of the games played so far, by pairing: tells whether a game replays an
/// earlier one.
#[derive(Debug, Default)]
pub struct ReplayDetector {
    games: HashMap<Pairing, HashSet<String>>,
}

impl ReplayDetector {
    /// Records the game of `job` with these moves (ICCS, space-separated); true when a game of
    /// the same pairing played exactly these moves before.
    pub fn is_replay(&mut self, job: &Job, moves: &str) -> bool {
        !self
            .games
            .entry(pairing(job))
            .or_default()
            .insert(moves.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(red: usize, black: usize, opening: usize) -> Job {
        Job {
            game_id: 0,
            round: 1,
            pair_id: None,
            opening,
            red,
            black,
            pass: 0,
        }
    }

    #[test]
    fn passes_count_earlier_jobs_of_the_same_pairing() {
        let mut jobs = vec![
            job(0, 1, 0),
            job(1, 0, 0),
            job(0, 1, 1),
            job(0, 1, 0),
            job(0, 1, 0),
        ];
        number_passes(&mut jobs);
        let passes: Vec<usize> = jobs.iter().map(|j| j.pass).collect();
        assert_eq!(passes, [0, 0, 0, 1, 2]);
        assert_eq!(distinct_games(&jobs), 3);
    }

    #[test]
    fn every_pass_has_its_own_node_limit_near_the_one_given() {
        assert_eq!(varied_nodes(10_000, 0), 10_000);
        let limits: Vec<u64> = (0..40).map(|p| varied_nodes(10_000, p)).collect();
        let distinct: HashSet<u64> = limits.iter().copied().collect();
        assert_eq!(distinct.len(), limits.len(), "{limits:?}");
        let (lo, hi) = (7_500, 12_500);
        assert!(limits.iter().all(|&n| (lo..=hi).contains(&n)), "{limits:?}");
        let mean = limits.iter().sum::<u64>() as f64 / limits.len() as f64;
        assert!((mean - 10_000.0).abs() < 200.0, "mean {mean}");
        // Tiny limits stay searchable.
        assert!((0..40).all(|p| varied_nodes(1, p) >= 1));
    }

    #[test]
    fn a_replay_is_the_same_moves_in_the_same_pairing() {
        let mut d = ReplayDetector::default();
        assert!(!d.is_replay(&job(0, 1, 0), "h2e2 h9g7"));
        assert!(!d.is_replay(&job(0, 1, 0), "h2e2 b9c7"));
        // Other colours or another opening: not the same game.
        assert!(!d.is_replay(&job(1, 0, 0), "h2e2 h9g7"));
        assert!(!d.is_replay(&job(0, 1, 1), "h2e2 h9g7"));
        assert!(d.is_replay(&job(0, 1, 0), "h2e2 h9g7"));
    }
}
