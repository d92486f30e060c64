//! The no-capture rule (Điều 7 "hòa cờ" e: 60 moves each; Điều 12: 50 consecutive moves, with
//! "Những nước chiếu hợp lệ tính tối đa 5 nước" = checking moves count at most 5).
//!
//! Decisions (see `docs/rules.md`):
//! - The limit is in full moves of both sides (Điều 8: "một nước" = one turn of each side), so 60
//!   moves = 120 plies. Default 60 (Điều 7 e, Điều 20.4 b.6 and the usage guide all say 60); 50
//!   is selectable for events that apply Điều 12.
//! - The check cap counts plies: by default each side's first 5 checking plies since the last
//!   capture count toward the limit and later ones do not ([`CheckCounting::CapPerSide`]). Per
//!   side, because each player controls only his own checks and one side's checking spree should
//!   not spend the other's allowance. A capture resets everything.
//! - The referee applies the rule automatically, as if a player claimed it at the first moment it
//!   holds, after checking for mate: a mate delivered on the limit move wins.

use crate::piece::Color;
use crate::position::Position;

/// How checking moves count toward the no-capture limit (Điều 12 c).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckCounting {
    /// Every ply counts, checks included (the Asian-rules style without a cap).
    All,
    /// Each side's checking plies beyond this many (since the last capture) do not count.
    CapPerSide(u16),
    /// Both sides' checking plies together beyond this many do not count.
    CapTotal(u16),
}

impl Default for CheckCounting {
    fn default() -> Self {
        CheckCounting::CapPerSide(5)
    }
}

impl CheckCounting {
    /// Human-readable summary for explanations.
    pub fn describe(self) -> String {
        match self {
            CheckCounting::All => "every ply counted".to_string(),
            CheckCounting::CapPerSide(n) => {
                format!("at most {n} checking plies per side counted")
            }
            CheckCounting::CapTotal(n) => format!("at most {n} checking plies in all counted"),
        }
    }
}

/// Plies since the last capture that count toward the limit, given how many checking plies each
/// side (index [`Color::index`]) made among them.
pub fn counted_plies(plies: u16, checks: [u16; 2], counting: CheckCounting) -> u16 {
    let excluded = match counting {
        CheckCounting::All => 0,
        CheckCounting::CapPerSide(cap) => {
            checks[0].saturating_sub(cap) + checks[1].saturating_sub(cap)
        }
        CheckCounting::CapTotal(cap) => checks[0].saturating_add(checks[1]).saturating_sub(cap),
    };
    plies.saturating_sub(excluded)
}

/// Counted plies of `pos` (its half-move clock and its checks-since-capture counters).
pub fn counted_plies_of(pos: &Position, counting: CheckCounting) -> u16 {
    counted_plies(
        pos.no_capture_plies(),
        [
            pos.checks_since_capture(Color::Red),
            pos.checks_since_capture(Color::Black),
        ],
        counting,
    )
}

/// Whether `pos` has reached the limit of `limit_moves` full moves without capture. Callers
/// check for mate first (a mate on the limit move wins).
pub fn limit_reached(pos: &Position, limit_moves: u32, counting: CheckCounting) -> bool {
    let limit_plies = limit_moves.saturating_mul(2);
    limit_plies > 0 && u32::from(counted_plies_of(pos, counting)) >= limit_plies
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps() {
        assert_eq!(counted_plies(100, [7, 2], CheckCounting::All), 100);
        assert_eq!(counted_plies(100, [7, 2], CheckCounting::CapPerSide(5)), 98);
        assert_eq!(counted_plies(100, [7, 6], CheckCounting::CapPerSide(5)), 97);
        assert_eq!(counted_plies(100, [7, 2], CheckCounting::CapTotal(5)), 96);
        assert_eq!(counted_plies(3, [70, 60], CheckCounting::CapTotal(0)), 0);
    }
}
