//! How long the engine thinks in `cotuong play`: a fixed time per move (the default, one second,
//! quick enough to play against), a clock with a Fischer increment (`60+1`: 60 seconds and 1 a
//! move, cutechess's way of writing it; only the engine's clock runs, the player's time is not
//! counted), or a node count (the same moves every run, for scripts and tests).

use cotuong::search::{SearchRequest, SideClock};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The engine's time per move when nothing else is asked for.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
/// The most a hint or a look at a draw offer may take on a clock (they are quick questions).
const QUICK_SEARCH_MS: u64 = 500;
/// Milliseconds per second.
const MS_PER_SECOND: f64 = 1_000.0;

/// The engine's thinking limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Milliseconds per move.
    MoveTime(u64),
    /// Nodes per move.
    Nodes(u64),
    /// A clock: start time and increment per move, in milliseconds.
    Clock {
        /// Time on the clock at the start of the game.
        base_ms: u64,
        /// Added after each engine move.
        inc_ms: u64,
    },
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl::MoveTime(DEFAULT_MOVETIME_MS)
    }
}

/// Seconds (a decimal number) as milliseconds.
fn seconds(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| (s * MS_PER_SECOND).round() as u64)
}

impl FromStr for TimeControl {
    type Err = String;

    /// `BASE+INC` or `BASE`, in seconds (`60+1`, `300`, `2.5+0.5`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad =
            || format!("'{text}' is not a time control: write BASE+INC in seconds, e.g. 60+1");
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let base_ms = seconds(base).filter(|&ms| ms > 0).ok_or_else(bad)?;
        let inc_ms = seconds(inc).ok_or_else(bad)?;
        Ok(TimeControl::Clock { base_ms, inc_ms })
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag, written as `cotuong match` writes it: `60+1` (seconds),
    /// `st=1` (seconds a move) or `nodes=20000`.
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| ms as f64 / MS_PER_SECOND;
        match *self {
            TimeControl::MoveTime(ms) => format!("st={}", secs(ms)),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Clock { base_ms, inc_ms: 0 } => format!("{}", secs(base_ms)),
            TimeControl::Clock { base_ms, inc_ms } => {
                format!("{}+{}", secs(base_ms), secs(inc_ms))
            }
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::MoveTime(ms) => write!(f, "{ms} ms a move"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes a move"),
            TimeControl::Clock { base_ms, inc_ms } => write!(
                f,
                "{}+{} (seconds, the engine's clock)",
                base_ms as f64 / MS_PER_SECOND,
                inc_ms as f64 / MS_PER_SECOND
            ),
        }
    }
}

/// The time control with the engine's clock as it stands.
#[derive(Clone, Debug)]
pub struct EngineClock {
    control: TimeControl,
    /// Time left on a clock control.
    left_ms: u64,
}

impl EngineClock {
    /// A full clock for `control`.
    pub fn new(control: TimeControl) -> EngineClock {
        let left_ms = match control {
            TimeControl::Clock { base_ms, .. } => base_ms,
            _ => 0,
        };
        EngineClock { control, left_ms }
    }

    /// The time control, whatever the clock shows.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The clock set back to its start (a new game).
    pub fn reset(&mut self) {
        *self = EngineClock::new(self.control);
    }

    /// The limits of the engine's next move.
    pub fn request(&self) -> SearchRequest {
        let mut r = SearchRequest::default();
        match self.control {
            TimeControl::MoveTime(ms) => r.movetime_ms = Some(ms),
            TimeControl::Nodes(n) => r.nodes = Some(n),
            TimeControl::Clock { inc_ms, .. } => {
                r.clock = Some(SideClock {
                    time_ms: self.left_ms,
                    inc_ms,
                    movestogo: None,
                })
            }
        }
        r
    }

    /// The limits of a quick question (a hint, a draw offer): the same as a move, but never more
    /// than [`QUICK_SEARCH_MS`] off a clock.
    pub fn quick_request(&self) -> SearchRequest {
        let mut r = SearchRequest::default();
        match self.control {
            TimeControl::MoveTime(ms) => r.movetime_ms = Some(ms.min(QUICK_SEARCH_MS)),
            TimeControl::Nodes(n) => r.nodes = Some(n),
            TimeControl::Clock { .. } => r.movetime_ms = Some(QUICK_SEARCH_MS),
        }
        r
    }

    /// Charges an engine move that took `spent` to the clock and adds the increment.
    pub fn charge(&mut self, spent: Duration) {
        if let TimeControl::Clock { inc_ms, .. } = self.control {
            let spent_ms = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX);
            self.left_ms = self.left_ms.saturating_sub(spent_ms).saturating_add(inc_ms);
        }
    }

    /// The control, and on a clock the time left.
    pub fn describe(&self) -> String {
        match self.control {
            TimeControl::Clock { .. } => format!(
                "{}; {:.1} s left",
                self.control,
                self.left_ms as f64 / MS_PER_SECOND
            ),
            _ => self.control.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_run() {
        assert_eq!(
            "60+1".parse(),
            Ok(TimeControl::Clock {
                base_ms: 60_000,
                inc_ms: 1_000
            })
        );
        assert_eq!(
            "2.5".parse(),
            Ok(TimeControl::Clock {
                base_ms: 2_500,
                inc_ms: 0
            })
        );
        for bad in ["", "0+1", "x+1", "60+-1", "inf"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let mut clock = EngineClock::new(TimeControl::Clock {
            base_ms: 10_000,
            inc_ms: 500,
        });
        clock.charge(Duration::from_millis(2_000));
        assert_eq!(clock.request().clock.map(|c| c.time_ms), Some(8_500));
        assert_eq!(clock.quick_request().movetime_ms, Some(QUICK_SEARCH_MS));
        clock.reset();
        assert_eq!(clock.request().clock.map(|c| c.time_ms), Some(10_000));
        let nodes = EngineClock::new(TimeControl::Nodes(5_000));
        assert_eq!(nodes.request().nodes, Some(5_000));
        assert_eq!(
            EngineClock::new(TimeControl::default())
                .request()
                .movetime_ms,
            Some(DEFAULT_MOVETIME_MS)
        );
    }
}
