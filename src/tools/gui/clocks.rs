//! Both sides' clocks of a game at the page: the side to move's runs, a move charges it the time
//! it took and adds the increment. The page counts down from what it is told; this is the truth.

use engine_core::Color;
use std::time::{Duration, Instant};

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Added after each move (ms).
    inc_ms: u64,
    /// Time left (ms) of Red and Black, as of the running clock's start.
    left_ms: [u64; 2],
    /// The running clock and when it started.
    running: Option<(Color, Instant)>,
}

fn index(side: Color) -> usize {
    match side {
        Color::Red => 0,
        Color::Black => 1,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Clocks {
    /// Both sides with `base_ms`, `inc_ms` a move; nothing running.
    pub fn new(base_ms: u64, inc_ms: u64) -> Clocks {
        Clocks {
            inc_ms,
            left_ms: [base_ms; 2],
            running: None,
        }
    }

    /// The increment (ms).
    pub fn inc_ms(&self) -> u64 {
        self.inc_ms
    }

    /// Starts `side`'s clock (stopping the other's without a charge).
    pub fn start(&mut self, side: Color) {
        self.running = Some((side, Instant::now()));
    }

    /// Stops the running clock, charging its side the time since it started and adding the
    /// increment (a move was made).
    pub fn charge_move(&mut self) {
        if let Some((side, since)) = self.running.take() {
            let left = &mut self.left_ms[index(side)];
            *left = left
                .saturating_sub(millis(since.elapsed()))
                .saturating_add(self.inc_ms);
        }
    }

    /// Stops the running clock, charging the time but no increment (the game ended).
    pub fn stop(&mut self) {
        if let Some((side, since)) = self.running.take() {
            let left = &mut self.left_ms[index(side)];
            *left = left.saturating_sub(millis(since.elapsed()));
        }
    }

    /// `side`'s time left now (ms).
    pub fn left_ms(&self, side: Color) -> u64 {
        let stored = self.left_ms[index(side)];
        match self.running {
            Some((s, since)) if s == side => stored.saturating_sub(millis(since.elapsed())),
            _ => stored,
        }
    }

    /// The running side, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(s, _)| s)
    }

    /// The side whose time has run out, if any.
    pub fn flagged(&self) -> Option<Color> {
        self.running().filter(|&s| self.left_ms(s) == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let mut c = Clocks::new(1_000, 500);
        c.start(Color::Red);
        std::thread::sleep(Duration::from_millis(30));
        assert!(c.left_ms(Color::Red) <= 970);
        assert_eq!(c.left_ms(Color::Black), 1_000);
        c.charge_move();
        // Charged at least the 30 ms slept, then given the increment.
        let red = c.left_ms(Color::Red);
        assert!(red <= 1_470 && red > 500, "{red}");
        assert_eq!(c.running(), None);
        c.start(Color::Black);
        c.stop();
        assert!(c.left_ms(Color::Black) <= 1_000);
        assert_eq!(c.flagged(), None);
        let mut flag = Clocks::new(0, 0);
        flag.start(Color::Black);
        assert_eq!(flag.flagged(), Some(Color::Black));
    }
}
