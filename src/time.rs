//! Time management: turns a clock into a soft limit (do not start another iteration past it,
//! scaled by how stable the best move is) and a hard limit (abort the search).
//!
//! Never losing on time is a design property: the hard limit is a fraction of the time left after
//! subtracting the move overhead and a fixed safety margin, the main thread checks the clock every
//! [`crate::search::worker::CLOCK_CHECK_INTERVAL`] nodes, and `stop` is honoured at every node.

use crate::search::limits::SearchLimits;
use std::time::Duration;

/// Safety margin kept on the clock beyond the move overhead, in ms.
const SAFETY_MS: u64 = 10;
/// Moves we assume are left in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Fraction (per mille) of the increment added to each move's budget ...
const INCREMENT_SHARE_PERMILLE: u64 = 800;
/// ... and when the clock is low (below [`LOW_TIME_MS`] usable), so that the clock settles at a
/// comfortable distance from zero in fast increment games instead of living off the increment.
const LOW_TIME_INCREMENT_SHARE_PERMILLE: u64 = 500;
/// Usable time under which the clock counts as low.
const LOW_TIME_MS: u64 = 1000;
/// The hard limit is at most this multiple of the soft limit.
const HARD_OVER_SOFT: u64 = 5;
/// The hard limit never exceeds this per mille of the usable time ...
const HARD_MAX_PERMILLE: u64 = 600;
/// ... except on the last move before a time control, where more can be spent.
const HARD_MAX_LAST_MOVE_PERMILLE: u64 = 900;
/// Floor of both limits, so that at least a shallow search completes.
const MIN_THINK_MS: u64 = 1;

/// Soft and hard limits of one search (`None` = no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Stop between iterations once past this (scaled by stability).
    pub soft: Option<Duration>,
    /// Abort the search once past this.
    pub hard: Option<Duration>,
}

/// Computes the budget for `limits`, keeping `overhead_ms` for communication lag.
pub fn budget(limits: &SearchLimits, overhead_ms: u64) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    if let Some(mt) = limits.movetime_ms {
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(MIN_THINK_MS));
        return TimeBudget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let Some(clock) = limits.clock else {
        return TimeBudget::default();
    };
    let usable = clock
        .time_ms
        .saturating_sub(overhead_ms + SAFETY_MS)
        .max(MIN_THINK_MS);
    let mtg = clock.movestogo.map_or(DEFAULT_MOVES_TO_GO, |m| {
        (m as u64).clamp(1, DEFAULT_MOVES_TO_GO)
    });
    let inc_share = if usable < LOW_TIME_MS {
        LOW_TIME_INCREMENT_SHARE_PERMILLE
    } else {
        INCREMENT_SHARE_PERMILLE
    };
    let mut soft = usable / mtg + clock.inc_ms * inc_share / 1000;
    let cap_permille = if mtg == 1 {
        HARD_MAX_LAST_MOVE_PERMILLE
    } else {
        HARD_MAX_PERMILLE
    };
    let hard_cap = usable * cap_permille / 1000;
    let hard = (soft * HARD_OVER_SOFT).min(hard_cap).max(MIN_THINK_MS);
    soft = soft.min(hard).max(MIN_THINK_MS);
    TimeBudget {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(time_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> SearchLimits {
        SearchLimits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                movestogo,
            }),
            ..SearchLimits::default()
        }
    }

    #[test]
    fn hard_limit_stays_well_inside_the_clock() {
        for time in [0u64, 5, 40, 100, 1000, 60_000] {
            for inc in [0u64, 10, 1000] {
                for mtg in [None, Some(1), Some(5), Some(40)] {
                    let b = budget(&clock(time, inc, mtg), 30);
                    let hard = b.hard.unwrap().as_millis() as u64;
                    let soft = b.soft.unwrap().as_millis() as u64;
                    assert!(soft <= hard);
                    if time > 100 {
                        assert!(
                            hard + 30 < time,
                            "time {time} inc {inc} mtg {mtg:?}: {hard}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn one_second_plus_increment_spends_a_small_slice() {
        let b = budget(&clock(1000, 10, None), 30);
        let soft = b.soft.unwrap().as_millis();
        assert!((20..=60).contains(&soft), "{soft}");
    }

    #[test]
    fn movetime_and_infinite() {
        let l = SearchLimits {
            movetime_ms: Some(500),
            ..SearchLimits::default()
        };
        assert_eq!(budget(&l, 30).hard, Some(Duration::from_millis(470)));
        let l = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        assert_eq!(budget(&l, 30), TimeBudget::default());
    }
}
