//! The running score of a run: every outcome for the standings, and for two-engine matches the
//! W/D/L and pentanomial counts from the first engine's point of view that the Elo estimate and
//! the SPRT use.

use super::sample_size::{error_bar_shortfall, Shortfall};
use super::sprt::{Sprt, SprtDecision};
use super::stats::{estimate, EloEstimate, Pentanomial, Trinomial};
use super::tiebreak::Outcome;
use std::collections::{BTreeMap, HashMap};

/// Results so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Every finished game.
    pub outcomes: Vec<Outcome>,
    /// Byes given (Swiss / odd round robins).
    pub byes: Vec<usize>,
    /// Engine 0's W/D/L in games against engine 1 (two-engine runs).
    pub trinomial: Trinomial,
    /// Engine 0's game pairs against engine 1.
    pub pentanomial: Pentanomial,
    /// First game of a pair waiting for its partner: pair id → engine 0's half points.
    pending: HashMap<usize, u8>,
    /// How games ended: termination id → count.
    pub terminations: BTreeMap<String, usize>,
    /// True when games are played in pairs, so the pentanomial model applies.
    pub paired: bool,
    /// Games that played the moves of an earlier game with the same engines, colours and
    /// opening (deterministic engines at fixed limits): their results are counted again.
    pub replayed_games: usize,
}

impl Tally {
    /// An empty tally.
    pub fn new(paired: bool) -> Tally {
        Tally {
            paired,
            ..Tally::default()
        }
    }

    /// Records a game. Engine 0 vs engine 1 games also feed the two-engine statistics.
    pub fn add(&mut self, outcome: Outcome, pair_id: Option<usize>, termination: &str) {
        self.outcomes.push(outcome);
        *self
            .terminations
            .entry(termination.to_string())
            .or_default() += 1;
        let involved = (
            outcome.white.min(outcome.black),
            outcome.white.max(outcome.black),
        );
        if involved != (0, 1) {
            return;
        }
        let w = outcome.white_half_points.min(2);
        let mine = if outcome.white == 0 { w } else { 2 - w };
        self.trinomial.add(mine);
        if let Some(id) = pair_id {
            match self.pending.remove(&id) {
                Some(first) => self.pentanomial.add_pair(first, mine),
                None => {
                    self.pending.insert(id, mine);
                }
            }
        }
    }

    /// The score distribution the estimates use: pairs when paired and any are complete.
    fn distribution(&self) -> Vec<(u64, f64)> {
        if self.paired && self.pentanomial.pairs() > 0 {
            self.pentanomial.distribution().to_vec()
        } else {
            self.trinomial.distribution().to_vec()
        }
    }

    /// What the estimates count, for people: (`pair`, `pentanomial`) or (`game`, `trinomial`).
    pub fn sample_kind(&self) -> (&'static str, &'static str) {
        if self.paired && self.pentanomial.pairs() > 0 {
            ("pair", "pentanomial")
        } else {
            ("game", "trinomial")
        }
    }

    /// Samples the estimates rest on (pairs, or games).
    pub fn samples(&self) -> u64 {
        self.distribution().iter().map(|d| d.0).sum()
    }

    /// Why the Elo estimate has no error bar (nor LOS) yet; `None` when it has one.
    pub fn error_bar_shortfall(&self) -> Option<Shortfall> {
        error_bar_shortfall(&self.distribution())
    }

    /// Engine 0's Elo estimate against engine 1.
    pub fn elo(&self) -> EloEstimate {
        estimate(&self.distribution())
    }

    /// The SPRT's LLR and decision now.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtDecision) {
        sprt.evaluate(&self.distribution())
    }

    /// After a game: sets `stopped` to the SPRT's decision the first time the LLR leaves its
    /// bounds, and says whether it did so now (the run stops then).
    pub fn sprt_stop(&self, sprt: Option<&Sprt>, stopped: &mut Option<SprtDecision>) -> bool {
        let Some(sprt) = sprt else {
            return false;
        };
        let (_, decision) = self.sprt(sprt);
        if decision != SprtDecision::Continue && stopped.is_none() {
            *stopped = Some(decision);
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_perspective() {
        let mut t = Tally::new(true);
        // Pair 0: engine 0 wins as Red, then draws as Black.
        t.add(
            Outcome {
                white: 0,
                black: 1,
                white_half_points: 2,
            },
            Some(0),
            "checkmate",
        );
        t.add(
            Outcome {
                white: 1,
                black: 0,
                white_half_points: 1,
            },
            Some(0),
            "no-capture",
        );
        assert_eq!(t.trinomial.wins, 1);
        assert_eq!(t.trinomial.draws, 1);
        assert_eq!(t.pentanomial.counts, [0, 0, 0, 1, 0]);
        // A game between other engines only counts in the outcomes.
        t.add(
            Outcome {
                white: 2,
                black: 1,
                white_half_points: 0,
            },
            None,
            "checkmate",
        );
        assert_eq!(t.trinomial.games(), 2);
        assert_eq!(t.outcomes.len(), 3);
        assert_eq!(t.terminations["checkmate"], 2);
        assert!(t.elo().elo > 0.0);
    }
}
