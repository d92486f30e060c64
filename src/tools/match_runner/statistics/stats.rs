//! Match statistics from one engine's point of view: W/D/L, pentanomial counts of game pairs
//! (same opening, colours reversed), logistic Elo with a 95% interval and the likelihood of
//! superiority. Games played in pairs are less noisy than independent games because the opening
//! bias cancels; the pentanomial model measures that lower variance instead of ignoring it.

use serde::{Deserialize, Serialize};

/// Results of one engine against its opponent(s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Adds one game scored 1, ½ or 0 (given in half points: 2, 1, 0).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Outcome counts with their per-game scores, for the generic estimators.
    pub fn distribution(&self) -> [(u64, f64); 3] {
        [(self.losses, 0.0), (self.draws, 0.5), (self.wins, 1.0)]
    }
}

/// Counts of game pairs by the pair's total score: index 0 = 0 points (LL), 1 = ½ (LD),
/// 2 = 1 (DD or WL), 3 = 1½ (WD), 4 = 2 (WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pair counts by total half points (0..=4).
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a finished pair given the two games' half points (0, 1 or 2 each).
    pub fn add_pair(&mut self, first: u8, second: u8) {
        let total = (first.min(2) + second.min(2)) as usize;
        self.counts[total] += 1;
    }

    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Pair counts with their per-game average scores.
    pub fn distribution(&self) -> [(u64, f64); 5] {
        [
            (self.counts[0], 0.0),
            (self.counts[1], 0.25),
            (self.counts[2], 0.5),
            (self.counts[3], 0.75),
            (self.counts[4], 1.0),
        ]
    }
}

/// Number of samples, mean and variance (per sample) of a discrete score distribution.
pub fn moments(dist: &[(u64, f64)]) -> (f64, f64, f64) {
    let weighted: Vec<(f64, f64)> = dist.iter().map(|&(c, s)| (c as f64, s)).collect();
    moments_f64(&weighted)
}

/// [`moments`] with fractional counts (for regularised distributions).
pub fn moments_f64(dist: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = dist.iter().map(|(c, _)| c).sum();
    if n <= 0.0 {
        return (0.0, 0.5, 0.0);
    }
    let mean = dist.iter().map(|&(c, s)| c * s).sum::<f64>() / n;
    let var = dist
        .iter()
        .map(|&(c, s)| c * (s - mean).powi(2))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// Logistic Elo difference for an expected score.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal cumulative distribution (via erf).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Error function: the Maclaurin series where it converges fast (|x| < 3), Abramowitz & Stegun
/// 7.1.26 in the tail, where erf is within 2e-5 of 1 and the formula's 1.5e-7 error is harmless.
fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    if x < 3.0 {
        return sign * erf_series(x);
    }
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Maclaurin series of erf; terms shrink below 1e-17 within 60 terms for |x| < 3.
fn erf_series(x: f64) -> f64 {
    let mut sum = 0.0;
    let mut term = x;
    let mut n = 0.0;
    while n < 80.0 {
        let add = term / (2.0 * n + 1.0);
        sum += add;
        if add.abs() < 1e-17 {
            break;
        }
        n += 1.0;
        term *= -x * x / n;
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// An Elo estimate with its 95% interval half-width and likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game (0..1).
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% confidence interval in Elo (infinite when undetermined).
    pub error95: f64,
    /// Probability that the engine is stronger (0..1).
    pub los: f64,
}

/// Estimates Elo from a score distribution whose samples are independent (games, or pairs whose
/// score is the per-game average).
pub fn estimate(dist: &[(u64, f64)]) -> EloEstimate {
    let (n, mean, var) = moments(dist);
    if n == 0.0 {
        return EloEstimate {
            score: 0.5,
            elo: 0.0,
            error95: f64::INFINITY,
            los: 0.5,
        };
    }
    let se = (var / n).sqrt();
    // A perfect score has no finite Elo.
    let elo = if mean <= 0.0 {
        f64::NEG_INFINITY
    } else if mean >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0 for display.
        elo_from_score(mean) + 0.0
    };
    let (lo, hi) = (mean - 1.96 * se, mean + 1.96 * se);
    let error95 = if lo <= 0.0 || hi >= 1.0 || se == 0.0 && (mean == 0.0 || mean == 1.0) {
        f64::INFINITY
    } else {
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    };
    let los = if se > 0.0 {
        normal_cdf((mean - 0.5) / se)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    EloEstimate {
        score: mean,
        elo,
        error95,
        los,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_error_from_wdl() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, se 0.04.
        let t = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = estimate(&t.distribution());
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!((e.elo - 147.1907).abs() < 1e-3);
        // (Elo(0.7784) - Elo(0.6216)) / 2, computed by hand.
        assert!((e.error95 - 66.0146).abs() < 1e-3);
        assert!(e.los > 0.999);
        let even = estimate(
            &Trinomial {
                wins: 10,
                draws: 5,
                losses: 10,
            }
            .distribution(),
        );
        assert!(even.elo.abs() < 1e-9);
        assert!((even.los - 0.5).abs() < 1e-9);
    }

    #[test]
    fn pentanomial_estimate() {
        let p = Pentanomial {
            counts: [500, 2000, 4000, 2200, 600],
        };
        let (n, mean, var) = moments(&p.distribution());
        assert_eq!(n, 9300.0);
        assert!((mean - 0.510_752_688).abs() < 1e-9);
        assert!((var - 0.057_680_079).abs() < 1e-9);
        let e = estimate(&p.distribution());
        assert!((e.elo - 7.472_885).abs() < 1e-5);
        assert!((e.error95 - 3.393_490).abs() < 1e-5);
        assert!((e.los - 0.999_992_1).abs() < 1e-6);
    }

    #[test]
    fn pairs_are_counted_by_total() {
        let mut p = Pentanomial::default();
        p.add_pair(2, 0);
        p.add_pair(1, 1);
        p.add_pair(2, 2);
        p.add_pair(0, 1);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
    }

    #[test]
    fn normal_cdf_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-12);
        assert!((normal_cdf(1.96) - 0.975_002_1).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-7);
        assert!((normal_cdf(3.0) - 0.998_650_1).abs() < 1e-6);
        assert!(score_from_elo(0.0) == 0.5);
        assert!((elo_from_score(score_from_elo(123.0)) - 123.0).abs() < 1e-9);
    }
}
