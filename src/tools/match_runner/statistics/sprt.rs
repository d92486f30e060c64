//! Sequential probability ratio test between H0: Elo = elo0 and H1: Elo = elo1 (logistic Elo).
//!
//! Model: the generalized SPRT of M. Van den Bergh in its normal approximation with logistic
//! Elo, as used by Fishtest (`LLR_logistic`): with N samples of mean score m and per-sample
//! variance v, and s_i the expected score of elo_i,
//!
//!     LLR = N (s1 - s0) (2m - s0 - s1) / (2v).
//!
//! An outcome class not seen yet counts as half a sample in the mean and variance (the
//! Haldane-Anscombe correction for empty cells), so that a run of identical results neither
//! freezes the LLR (zero variance) nor sends it to thousands (Fishtest's 0.001 leaves a variance
//! near 0 to divide by: two won pairs gave an LLR of 15). N stays the number of samples played.
//! No decision is taken before [`MIN_SAMPLES`] samples (see `sample_size`).
//!
//! Samples are game pairs (pentanomial, per-game average score of the pair) when games are
//! played in pairs, single games (trinomial) otherwise. Bounds: ln(beta/(1-alpha)) and
//! ln((1-beta)/alpha). The test stops as soon as the LLR leaves the interval.

use super::sample_size::MIN_SAMPLES;
use super::stats::{moments_f64, score_from_elo};

/// What an outcome class not seen yet counts as, in samples.
const UNSEEN_CLASS_WEIGHT: f64 = 0.5;

/// SPRT parameters, validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the test says now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR below the lower bound: H0 accepted.
    AcceptH0,
    /// LLR above the upper bound: H1 accepted.
    AcceptH1,
    /// Keep playing.
    Continue,
}

impl std::fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision yet",
        })
    }
}

impl Sprt {
    /// Checks the parameters: 0 < alpha, beta < 0.5 and elo0 < elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must be between 0 and 0.5 (got {v})"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio for a score distribution (pairs or games with their scores).
    /// Empty outcome classes count as half a sample in the mean and variance, so that a run
    /// of identical results moves the LLR by a finite step per sample.
    pub fn llr(&self, dist: &[(u64, f64)]) -> f64 {
        let samples: u64 = dist.iter().map(|d| d.0).sum();
        if samples == 0 {
            return 0.0;
        }
        let regularised: Vec<(f64, f64)> = dist
            .iter()
            .map(|&(c, s)| {
                (
                    if c == 0 {
                        UNSEEN_CLASS_WEIGHT
                    } else {
                        c as f64
                    },
                    s,
                )
            })
            .collect();
        let (_, mean, var) = moments_f64(&regularised);
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        samples as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR and decision for a distribution. No decision is taken on fewer than
    /// [`MIN_SAMPLES`] samples: the normal approximation would otherwise let one or two
    /// lopsided pairs end a test.
    pub fn evaluate(&self, dist: &[(u64, f64)]) -> (f64, SprtDecision) {
        let llr = self.llr(dist);
        let samples: u64 = dist.iter().map(|d| d.0).sum();
        if samples < MIN_SAMPLES {
            (llr, SprtDecision::Continue)
        } else {
            (llr, self.decide(llr))
        }
    }

    /// The decision for an LLR value.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::stats::{Pentanomial, Trinomial};
    use super::*;

    /// Exact generalized log-likelihood ratio, computed independently of the approximation: the
    /// maximum-likelihood distributions under the constraint "mean score = s" are
    /// p_i = p̂_i / (1 + λ (x_i - s)), with λ found by bisection; LLR = Σ n_i ln(p1_i / p0_i).
    fn exact_llr(dist: &[(u64, f64)], elo0: f64, elo1: f64) -> f64 {
        let n: f64 = dist.iter().map(|d| d.0 as f64).sum();
        let constrained = |s: f64| -> Vec<f64> {
            let xs: Vec<f64> = dist.iter().map(|d| d.1).collect();
            let max = xs.iter().cloned().fold(f64::MIN, f64::max);
            let min = xs.iter().cloned().fold(f64::MAX, f64::min);
            let (mut lo, mut hi) = (-1.0 / (max - s) + 1e-12, 1.0 / (s - min) - 1e-12);
            let mut lambda = 0.0;
            for _ in 0..200 {
                lambda = (lo + hi) / 2.0;
                let f: f64 = dist
                    .iter()
                    .map(|&(c, x)| c as f64 / n * (x - s) / (1.0 + lambda * (x - s)))
                    .sum();
                if f > 0.0 {
                    lo = lambda;
                } else {
                    hi = lambda;
                }
            }
            dist.iter()
                .map(|&(c, x)| c as f64 / n / (1.0 + lambda * (x - s)))
                .collect()
        };
        let p0 = constrained(score_from_elo(elo0));
        let p1 = constrained(score_from_elo(elo1));
        dist.iter()
            .zip(p0.iter().zip(&p1))
            .filter(|(d, _)| d.0 > 0)
            .map(|(d, (a, b))| d.0 as f64 * (b / a).ln())
            .sum()
    }

    #[test]
    fn bounds_for_five_percent() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-8);
        assert!((hi - 2.944_438_979).abs() < 1e-8);
    }

    #[test]
    fn pentanomial_llr_matches_hand_value_and_exact_gsprt() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let p = Pentanomial {
            counts: [500, 2000, 4000, 2200, 600],
        };
        let llr = s.llr(&p.distribution());
        // By hand: N = 9300, m = 0.5107527, v = 0.0576801, s0 = 0.5, s1 = 0.5071955.
        assert!((llr - 8.300_637).abs() < 1e-5, "{llr}");
        let exact = exact_llr(&p.distribution(), 0.0, 5.0);
        assert!((llr - exact).abs() < 0.02, "{llr} vs {exact}");
        assert_eq!(s.decide(llr), SprtDecision::AcceptH1);
    }

    #[test]
    fn trinomial_llr_matches_exact_gsprt() {
        let s = Sprt::new(0.0, 3.0, 0.05, 0.05).unwrap();
        let t = Trinomial {
            wins: 4307,
            draws: 8620,
            losses: 4063,
        };
        let llr = s.llr(&t.distribution());
        assert!((llr - 2.992_213).abs() < 1e-5, "{llr}");
        assert!((llr - exact_llr(&t.distribution(), 0.0, 3.0)).abs() < 0.01);
        assert_eq!(s.decide(llr), SprtDecision::AcceptH1);
        // A losing record drives the LLR below the lower bound.
        let bad = Trinomial {
            wins: 4063,
            draws: 8620,
            losses: 4307,
        };
        assert_eq!(s.decide(s.llr(&bad.distribution())), SprtDecision::AcceptH0);
        assert_eq!(s.decide(0.0), SprtDecision::Continue);
    }

    #[test]
    fn identical_results_still_decide() {
        // Twenty pairs won twice: zero variance without regularisation.
        let s = Sprt::new(0.0, 150.0, 0.05, 0.05).unwrap();
        let p = Pentanomial {
            counts: [0, 0, 0, 0, 20],
        };
        assert_eq!(s.decide(s.llr(&p.distribution())), SprtDecision::AcceptH1);
        let lost = Pentanomial {
            counts: [20, 0, 0, 0, 0],
        };
        assert_eq!(
            s.decide(s.llr(&lost.distribution())),
            SprtDecision::AcceptH0
        );
        assert_eq!(s.llr(&Pentanomial::default().distribution()), 0.0);
        // ...but not on a handful of pairs.
        let few = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(s.evaluate(&few.distribution()).1, SprtDecision::Continue);
        assert_eq!(s.evaluate(&p.distribution()).1, SprtDecision::AcceptH1);
    }

    #[test]
    fn a_degenerate_variance_does_not_blow_the_llr_up() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = s.bounds();
        // Two pairs won twice, or one won and one drawn: no evidence near a bound yet.
        for counts in [
            [0, 0, 0, 0, 2],
            [0, 0, 0, 1, 1],
            [0, 0, 2, 0, 0],
            [2, 0, 0, 0, 0],
        ] {
            let llr = s.llr(&Pentanomial { counts }.distribution());
            assert!(llr.abs() < 0.5, "{counts:?}: {llr}");
            assert!(lo < llr && llr < hi);
        }
        // Each further identical pair moves the LLR by a bounded step.
        let mut previous = 0.0;
        for n in 1..=40 {
            let llr = s.llr(
                &Pentanomial {
                    counts: [0, 0, 0, 0, n],
                }
                .distribution(),
            );
            assert!(
                llr > previous && llr - previous < 1.0,
                "{n}: {previous} -> {llr}"
            );
            previous = llr;
        }
    }

    #[test]
    fn decisions_of_known_pentanomial_runs() {
        // (LL, LD, DD+WL, WD, WW, elo0, elo1, expected) with alpha 0.05, beta 0.10: outcomes of
        // pentanomial SPRT runs used as reference data by public GSPRT implementations. Our
        // LLRs (by hand: 3.293, 8.868, -0.531, -4.099, -4.694) reach the same decisions.
        let runs = [
            (
                [485, 1923, 2942, 1937, 594],
                0.0,
                5.0,
                SprtDecision::AcceptH1,
                3.293,
            ),
            (
                [261, 739, 2683, 737, 253],
                -10.0,
                0.0,
                SprtDecision::AcceptH1,
                8.868,
            ),
            (
                [63, 252, 385, 250, 74],
                0.0,
                10.0,
                SprtDecision::Continue,
                -0.531,
            ),
            (
                [527, 1007, 1932, 933, 511],
                0.0,
                5.0,
                SprtDecision::AcceptH0,
                -4.099,
            ),
            (
                [175, 305, 694, 291, 157],
                0.0,
                10.0,
                SprtDecision::AcceptH0,
                -4.694,
            ),
        ];
        for (counts, elo0, elo1, expected, by_hand) in runs {
            let s = Sprt::new(elo0, elo1, 0.05, 0.10).unwrap();
            let p = Pentanomial { counts };
            let (llr, decision) = s.evaluate(&p.distribution());
            assert!((llr - by_hand).abs() < 1e-3, "{counts:?}: {llr}");
            assert_eq!(decision, expected, "{counts:?}");
        }
    }

    #[test]
    fn invalid_parameters() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }
}
