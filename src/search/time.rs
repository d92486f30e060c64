//! Time management, in one place: [`budget`] turns a clock into a soft limit (do not start
//! another iteration past it, scaled by how stable the best move is) and a hard limit (abort the
//! search), and the [`TimeManager`] the main search thread asks at every node and after every
//! iteration applies them, together with the node limits.
//!
//! Never losing on time is a design property: the hard limit is a fraction of the time left after
//! subtracting the move overhead and a fixed safety margin, the main thread checks the clock every
//! `CLOCK_CHECK_INTERVAL` nodes, and `stop` is honoured at every node. The constants sit with
//! the search's tunables in `params`.
//!
//! A search limited by nodes only never reads the clock to decide anything, so with one thread
//! its result does not depend on the machine's speed.

use super::params::{
    default_moves_to_go, hard_max_permille, hard_over_soft, increment_share_permille,
    instability_share_permille, score_drop_large_scale_permille, score_drop_small_scale_permille,
    stable_share_permille, BEST_MOVE_CHANGE, CLOCK_CHECK_INTERVAL, HARD_MAX_LAST_MOVE_PERMILLE,
    INSTABILITY_DECAY, LOW_TIME_INCREMENT_SHARE_PERMILLE, LOW_TIME_MS, MIN_THINK_MS, SAFETY_MS,
    SCORE_DROP_LARGE, SCORE_DROP_SMALL, SINGLE_MOVE_SHARE,
};
use super::request::SearchRequest;
use engine_core::Move;
use std::time::Duration;

/// A per-mille tunable as a factor.
fn permille(value: i32) -> f64 {
    f64::from(value) / 1000.0
}

/// Soft and hard limits of one search (`None` = no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Stop between iterations once past this (scaled by stability).
    pub soft: Option<Duration>,
    /// Abort the search once past this.
    pub hard: Option<Duration>,
}

/// Computes the budget for `limits`, keeping `overhead_ms` for communication lag.
pub fn budget(limits: &SearchRequest, overhead_ms: u64) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    // A fixed time per move is a request to think that long (UCI: "search exactly x
    // mseconds"): no soft limit, so a stable best move does not end the search early.
    if let Some(mt) = limits.movetime_ms {
        let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(MIN_THINK_MS));
        return TimeBudget {
            soft: None,
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
    let moves_to_go = default_moves_to_go().max(1) as u64;
    let mtg = clock
        .movestogo
        .map_or(moves_to_go, |m| (m as u64).clamp(1, moves_to_go));
    let inc_share = if usable < LOW_TIME_MS {
        LOW_TIME_INCREMENT_SHARE_PERMILLE
    } else {
        increment_share_permille().max(0) as u64
    };
    let mut soft = usable / mtg + clock.inc_ms * inc_share / 1000;
    let cap_permille = if mtg == 1 {
        HARD_MAX_LAST_MOVE_PERMILLE
    } else {
        hard_max_permille().max(0) as u64
    };
    let hard_cap = usable * cap_permille / 1000;
    let hard = (soft * hard_over_soft().max(1) as u64)
        .min(hard_cap)
        .max(MIN_THINK_MS);
    soft = soft.min(hard).max(MIN_THINK_MS);
    TimeBudget {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    }
}

/// What the main search thread asks: whether to abort now (at a node) and whether to start
/// another iteration. Keeps the best-move stability and score trend between iterations.
#[derive(Clone, Debug)]
pub struct TimeManager {
    budget: TimeBudget,
    /// Abort at this many nodes (`go nodes`, or the hard cap of a soft node limit).
    node_limit: Option<u64>,
    /// Start no iteration past this many nodes.
    soft_nodes: Option<u64>,
    instability: f64,
    last_best: Move,
    last_score: Option<i32>,
}

impl TimeManager {
    /// The manager of one search with `limits` and the `budget` computed for them.
    pub fn new(limits: &SearchRequest, budget: TimeBudget) -> TimeManager {
        TimeManager {
            budget,
            node_limit: limits.hard_node_limit(),
            soft_nodes: limits.soft_nodes,
            instability: 0.0,
            last_best: Move::NULL,
            last_score: None,
        }
    }

    /// Asked at every node of the main thread (once depth 1 is complete): whether the search
    /// must stop now. `nodes` are the main thread's own; `total_nodes` (all threads) and
    /// `elapsed` (time since the clock started, `None` while pondering) are only evaluated
    /// every [`CLOCK_CHECK_INTERVAL`] nodes.
    #[inline(always)]
    pub fn must_abort(
        &self,
        nodes: u64,
        total_nodes: impl FnOnce() -> u64,
        elapsed: impl FnOnce() -> Option<Duration>,
    ) -> bool {
        if self.node_limit.is_some_and(|limit| nodes >= limit)
            || self.node_total_reached(nodes, total_nodes)
        {
            return true;
        }
        if nodes.is_multiple_of(CLOCK_CHECK_INTERVAL) {
            if let Some(hard) = self.budget.hard {
                if elapsed().is_some_and(|e| e >= hard) {
                    return true;
                }
            }
        }
        false
    }

    /// Asked at every node of a helper thread (and by [`TimeManager::must_abort`] for the main
    /// one): whether all threads together have reached the node limit. Read every
    /// [`CLOCK_CHECK_INTERVAL`] of the thread's own nodes, so that each
    /// thread passes the moment the total reached the limit by at most one interval, however the
    /// threads are scheduled (the main thread alone would let a favoured helper run on).
    #[inline(always)]
    pub fn node_total_reached(&self, nodes: u64, total_nodes: impl FnOnce() -> u64) -> bool {
        self.node_limit.is_some_and(|limit| {
            nodes.is_multiple_of(CLOCK_CHECK_INTERVAL) && total_nodes() >= limit
        })
    }

    /// Asked after every completed iteration of the main thread: whether to stop rather than
    /// start the next one. `best` and `score` are the iteration's result, `root_moves` the
    /// number of moves searched at the root; `elapsed` is as in [`TimeManager::must_abort`].
    pub fn stop_after_iteration(
        &mut self,
        depth: i32,
        best: Move,
        score: i32,
        root_moves: usize,
        total_nodes: u64,
        elapsed: impl FnOnce() -> Option<Duration>,
    ) -> bool {
        let changed = best != self.last_best && depth > 1;
        self.instability =
            self.instability * INSTABILITY_DECAY + if changed { BEST_MOVE_CHANGE } else { 0.0 };
        let drop = self.last_score.map_or(0, |last| last - score);
        self.last_best = best;
        self.last_score = Some(score);
        if self.soft_nodes.is_some_and(|soft| total_nodes >= soft) {
            return true;
        }
        let Some(soft) = self.budget.soft else {
            return false;
        };
        // No time runs while pondering.
        let Some(elapsed) = elapsed() else {
            return false;
        };
        let mut scale = permille(stable_share_permille())
            + self.instability * permille(instability_share_permille());
        if drop > SCORE_DROP_SMALL {
            scale *= permille(score_drop_small_scale_permille());
        }
        if drop > SCORE_DROP_LARGE {
            scale *= permille(score_drop_large_scale_permille());
        }
        if root_moves == 1 {
            scale = SINGLE_MOVE_SHARE;
        }
        elapsed.as_secs_f64() > soft.as_secs_f64() * scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::request::SideClock;

    fn clock(time_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> SearchRequest {
        SearchRequest {
            clock: Some(SideClock {
                time_ms,
                inc_ms,
                movestogo,
            }),
            ..SearchRequest::default()
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
        let l = SearchRequest {
            movetime_ms: Some(500),
            ..SearchRequest::default()
        };
        let b = budget(&l, 30);
        assert_eq!(b.hard, Some(Duration::from_millis(470)));
        // The whole time is used: no iteration boundary stops the search, however stable.
        assert_eq!(b.soft, None);
        let mut tm = TimeManager::new(&l, b);
        for depth in 1..20 {
            let elapsed = Some(Duration::from_millis(460));
            assert!(!tm.stop_after_iteration(depth, Move::NULL, 0, 20, 1000, || elapsed));
        }
        assert!(tm.must_abort(
            CLOCK_CHECK_INTERVAL,
            || 0,
            || Some(Duration::from_millis(470))
        ));
        let l = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        assert_eq!(budget(&l, 30), TimeBudget::default());
    }

    #[test]
    fn node_limits_never_read_the_clock() {
        let l = SearchRequest {
            nodes: Some(5000),
            ..SearchRequest::default()
        };
        let mut tm = TimeManager::new(&l, budget(&l, 30));
        let clock = || -> Option<Duration> { panic!("the clock was read") };
        for n in 1..5000 {
            assert!(!tm.must_abort(n, || n, clock));
        }
        assert!(tm.must_abort(5000, || 5000, clock));
        assert!(!tm.stop_after_iteration(3, Move::NULL, 0, 20, 4000, clock));
    }

    #[test]
    fn soft_nodes_stop_between_iterations_and_cap_the_iteration() {
        let l = SearchRequest {
            soft_nodes: Some(5000),
            ..SearchRequest::default()
        };
        let mut tm = TimeManager::new(&l, budget(&l, 30));
        let clock = || -> Option<Duration> { panic!("the clock was read") };
        assert!(!tm.stop_after_iteration(1, Move::NULL, 0, 20, 4999, clock));
        assert!(tm.stop_after_iteration(2, Move::NULL, 0, 20, 5000, clock));
        let cap = 5000 * crate::search::params::SOFT_NODES_HARD_CAP;
        assert!(!tm.must_abort(cap - 1, || cap - 1, clock));
        assert!(tm.must_abort(cap, || cap, clock));
    }

    #[test]
    fn a_stable_best_move_stops_earlier_than_a_changing_one() {
        let l = clock(10_000, 0, None);
        let b = budget(&l, 30);
        let soft = b.soft.unwrap();
        // Past 60% of the soft limit: a stable move stops, a changing one goes on.
        let at = || Some(soft.mul_f64(0.7));
        let mut stable = TimeManager::new(&l, b);
        let mut changing = TimeManager::new(&l, b);
        let a = Move::from_raw(1).unwrap();
        let c = Move::from_raw(2).unwrap();
        stable.stop_after_iteration(1, a, 10, 20, 0, at);
        changing.stop_after_iteration(1, a, 10, 20, 0, at);
        assert!(stable.stop_after_iteration(2, a, 10, 20, 0, at));
        assert!(!changing.stop_after_iteration(2, c, 10, 20, 0, at));
        // Pondering: no time runs.
        assert!(!stable.stop_after_iteration(3, a, 10, 20, 0, || None));
    }
}
