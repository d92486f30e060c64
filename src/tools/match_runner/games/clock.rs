//! Time controls and the clocks the runner keeps for each engine. The runner measures think time
//! itself (from sending `go` to reading `bestmove`), so an engine's own idea of its time never
//! decides a forfeit.

use super::super::engines::GoLimits;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// How much an engine may think, as given on the command line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TimeControl {
    /// `[moves/]base[+inc]` in seconds: e.g. `10+0.1`, `40/60`, `40/60+1`.
    Clock {
        base: Duration,
        inc: Duration,
        /// Moves per period; the base time is added again after each period.
        moves: Option<u32>,
    },
    /// Fixed time per move (`st=`), forfeited when exceeded by more than the margin.
    MoveTime(Duration),
    /// Fixed nodes per move; no clock runs.
    Nodes(u64),
    /// Fixed depth per move; no clock runs.
    Depth(u32),
}

fn parse_seconds(text: &str, what: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(format!("{what} '{text}' is out of range"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl TimeControl {
    /// Parses `[moves/]base[+inc]` (seconds; `base` may be written `m:ss`).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| format!("moves per period '{m}' in '{text}' is not a number"))?;
                if m == 0 {
                    return Err(format!("moves per period in '{text}' must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, parse_seconds(i, "increment")?),
            None => (rest, Duration::ZERO),
        };
        let base = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = min
                    .parse()
                    .map_err(|_| format!("minutes '{min}' in '{text}' is not a number"))?;
                Duration::from_secs(min * 60) + parse_seconds(sec, "seconds")?
            }
            None => parse_seconds(base, "base time")?,
        };
        if base.is_zero() && inc.is_zero() {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl::Clock { base, inc, moves })
    }

    /// True when the runner must enforce a deadline for each move.
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag form: `40/60+0.1`, `st=0.5`, `nodes=1000`, `depth=6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc, moves } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !inc.is_zero() {
                    write!(f, "+{}", inc.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => write!(f, "st={}", t.as_secs_f64()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// One engine's running clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    moves_in_period: u32,
}

/// The engine used more time than it had.
#[derive(Clone, Debug, PartialEq)]
pub struct Forfeit {
    /// Measured think time of the last move.
    pub used: Duration,
    /// What it had for that move.
    pub allowed: Duration,
}

impl Clock {
    /// A fresh clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match &control {
            TimeControl::Clock { base, .. } => *base,
            TimeControl::MoveTime(t) => *t,
            _ => Duration::ZERO,
        };
        Clock {
            control,
            remaining,
            moves_in_period: 0,
        }
    }

    /// Time on the clock now (zero for node/depth limits).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The limits to send with `go`, given the opponent's clock.
    pub fn go_limits(&self, opponent: &Clock, engine_is_red: bool) -> GoLimits {
        match &self.control {
            TimeControl::Clock { inc, moves, .. } => {
                let opp_inc = match &opponent.control {
                    TimeControl::Clock { inc, .. } => *inc,
                    _ => Duration::ZERO,
                };
                GoLimits::Clock {
                    own_time: self.remaining,
                    own_inc: *inc,
                    opp_time: opponent.remaining,
                    opp_inc,
                    moves_to_go: moves.map(|m| m - self.moves_in_period),
                    engine_is_red,
                }
            }
            TimeControl::MoveTime(t) => GoLimits::MoveTime(*t),
            TimeControl::Nodes(n) => GoLimits::Nodes(*n),
            TimeControl::Depth(d) => GoLimits::Depth(*d),
        }
    }

    /// The longest the engine may think on this move before it has lost on time, margin
    /// included; `None` when no clock runs.
    pub fn deadline(&self, margin: Duration) -> Option<Duration> {
        self.control.is_timed().then(|| self.remaining + margin)
    }

    /// Charges one move's measured think time. Increment is added after the move, and the base
    /// time again when a period of `moves` is completed.
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Forfeit> {
        match self.control.clone() {
            TimeControl::Clock { base, inc, moves } => {
                if used > self.remaining + margin {
                    return Err(Forfeit {
                        used,
                        allowed: self.remaining,
                    });
                }
                self.remaining = self.remaining.saturating_sub(used) + inc;
                self.moves_in_period += 1;
                if let Some(m) = moves {
                    if self.moves_in_period >= m {
                        self.moves_in_period = 0;
                        self.remaining += base;
                    }
                }
                Ok(())
            }
            TimeControl::MoveTime(t) => {
                if used > t + margin {
                    Err(Forfeit { used, allowed: t })
                } else {
                    Ok(())
                }
            }
            TimeControl::Nodes(_) | TimeControl::Depth(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock {
                base: ms(10_000),
                inc: ms(100),
                moves: None
            }
        );
        assert_eq!(
            TimeControl::parse_clock("40/1:30").unwrap(),
            TimeControl::Clock {
                base: ms(90_000),
                inc: ms(0),
                moves: Some(40)
            }
        );
        assert!(TimeControl::parse_clock("abc").is_err());
        assert!(TimeControl::parse_clock("0/10").is_err());
        assert!(TimeControl::parse_clock("0+0").is_err());
        assert!(TimeControl::parse_clock("-5").is_err());
        assert_eq!(
            TimeControl::parse_clock("40/60+0.5").unwrap().to_string(),
            "40/60+0.5"
        );
    }

    #[test]
    fn increment_periods_and_forfeit() {
        let mut c = Clock::new(TimeControl::parse_clock("2/1+0.1").unwrap());
        assert_eq!(c.remaining(), ms(1000));
        c.charge(ms(600), ms(0)).unwrap();
        assert_eq!(c.remaining(), ms(500));
        // Second move completes the period: base time comes back.
        c.charge(ms(100), ms(0)).unwrap();
        assert_eq!(c.remaining(), ms(1500));
        assert!(c.charge(ms(1550), ms(100)).is_ok());
        let mut c = Clock::new(TimeControl::parse_clock("1").unwrap());
        let f = c.charge(ms(1200), ms(100)).unwrap_err();
        assert_eq!(f.allowed, ms(1000));
    }

    #[test]
    fn movetime_and_node_limits() {
        let mut c = Clock::new(TimeControl::MoveTime(ms(100)));
        assert_eq!(c.deadline(ms(50)), Some(ms(150)));
        assert!(c.charge(ms(140), ms(50)).is_ok());
        assert!(c.charge(ms(160), ms(50)).is_err());
        let mut n = Clock::new(TimeControl::Nodes(1000));
        assert_eq!(n.deadline(ms(50)), None);
        assert!(n.charge(ms(100_000), ms(0)).is_ok());
        assert_eq!(n.go_limits(&c, true), GoLimits::Nodes(1000));
    }
}
