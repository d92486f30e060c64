//! The rules referee: game outcomes, repetition cycles (perpetual check and chase, Vietnamese Law
//! Điều 22-24), the no-capture rule and insufficient material.
//!
//! INTERIM API (issue 4 fills it in): the search and the match runner code against these
//! signatures now; `judge_cycle` currently calls every cycle a draw.

use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;

/// The referee's verdict on one repetition cycle, cheap enough to ask inside the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// Nobody offends, or both offend equally.
    Draw,
    /// This side offends (perpetual check or forbidden chase) and loses.
    Loses(Color),
}

/// Judges a repetition: `pos` is the current position, identical to the position `cycle.len()`
/// plies earlier, and `cycle` holds the moves played from that earlier occurrence to now, in order
/// (none of them a capture).
pub fn judge_cycle(pos: &Position, cycle: &[Move]) -> CycleVerdict {
    let _ = (pos, cycle);
    CycleVerdict::Draw
}
