//! The smallest sample on which the match statistics say something.
//!
//! The Elo interval, the LOS and the SPRT all treat the sample mean as normal with the sample's
//! own variance. With N samples that variance is itself a guess: the honest interval would use
//! Student's t with N - 1 degrees of freedom, whose 97.5% quantile is 12.7 at N = 2, 2.78 at
//! N = 5 and 2.26 at N = 10 against the normal's 1.96. From [`MIN_SAMPLES`] = 10 on, the normal
//! interval is at most 13% too narrow; below it, it claims far more than the games show. A
//! sample whose results are all alike has a variance of 0, which says only that the other
//! results have not happened yet, so it gets no error bar either (and no LOS, which rests on the
//! same variance).

/// Samples (game pairs when games are paired, else games) needed for an error bar, a LOS and
/// an SPRT decision.
pub const MIN_SAMPLES: u64 = 10;

/// Why a sample is too small for an error bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// Fewer than [`MIN_SAMPLES`] samples.
    TooFew { samples: u64 },
    /// Enough samples, every one with the same result.
    AllAlike { samples: u64 },
}

/// Why the distribution (sample counts with their scores) cannot carry an error bar yet, or
/// `None` when it can.
pub fn error_bar_shortfall(dist: &[(u64, f64)]) -> Option<Shortfall> {
    let samples: u64 = dist.iter().map(|d| d.0).sum();
    let classes = dist.iter().filter(|d| d.0 > 0).count();
    if samples < MIN_SAMPLES {
        Some(Shortfall::TooFew { samples })
    } else if classes < 2 {
        Some(Shortfall::AllAlike { samples })
    } else {
        None
    }
}

impl Shortfall {
    /// What is missing, samples named by `unit` (`pair`, `game`) and the model by `model`
    /// (`pentanomial`, `trinomial`): `1 pair of the 10 the pentanomial model needs`.
    pub fn describe(self, unit: &str, model: &str) -> String {
        let plural = |n: u64| {
            if n == 1 {
                unit.to_string()
            } else {
                format!("{unit}s")
            }
        };
        match self {
            Shortfall::TooFew { samples } => format!(
                "{samples} {} of the {MIN_SAMPLES} the {model} model needs",
                plural(samples)
            ),
            Shortfall::AllAlike { samples } => format!(
                "all {samples} {} alike, and the {model} model needs {} with different results",
                plural(samples),
                plural(2)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_or_uniform_samples_have_no_error_bar() {
        let pairs = |counts: [u64; 5]| -> Vec<(u64, f64)> {
            counts
                .iter()
                .zip([0.0, 0.25, 0.5, 0.75, 1.0])
                .map(|(&c, s)| (c, s))
                .collect()
        };
        assert_eq!(
            error_bar_shortfall(&pairs([0, 0, 0, 1, 0])),
            Some(Shortfall::TooFew { samples: 1 })
        );
        assert_eq!(
            error_bar_shortfall(&pairs([0, 2, 3, 3, 1])),
            Some(Shortfall::TooFew { samples: 9 })
        );
        assert_eq!(
            error_bar_shortfall(&pairs([0, 0, 12, 0, 0])),
            Some(Shortfall::AllAlike { samples: 12 })
        );
        assert_eq!(error_bar_shortfall(&pairs([0, 2, 4, 3, 1])), None);
        assert_eq!(
            Shortfall::TooFew { samples: 1 }.describe("pair", "pentanomial"),
            "1 pair of the 10 the pentanomial model needs"
        );
    }
}
