//! What a move did to a forced mate, named as players name it: a mate missed, a mate allowed,
//! or a mate that stays but got longer or shorter ("mate in 3 became mate in 5").

use engine_core::Color;
use serde::Serialize;
use std::fmt;

use super::score::RedScore;

/// A move's effect on a mate, from the mover's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum MateNote {
    /// The mover had a mate in `moves` and played a move without one.
    Missed {
        /// Moves to the mate missed.
        moves: i32,
    },
    /// The move lets the opponent mate in `moves`, where the best move did not.
    Allows {
        /// Moves to the opponent's mate.
        moves: i32,
    },
    /// The same side still mates, in `to` moves instead of `from`.
    Changed {
        /// Moves to mate with the best move.
        from: i32,
        /// Moves to mate after the move played.
        to: i32,
    },
}

impl MateNote {
    /// The note on playing a move scored `played` where the best scores `best`, by `side`.
    pub fn of(best: RedScore, played: RedScore, side: Color) -> Option<MateNote> {
        match (best.mate_for(side), played.mate_for(side)) {
            (Some(n), Some(m)) if m == n => None,
            (Some(n), Some(m)) if n > 0 && m > 0 => Some(MateNote::Changed { from: n, to: m }),
            (Some(n), Some(m)) if n < 0 && m < 0 => Some(MateNote::Changed { from: -n, to: -m }),
            (Some(n), Some(m)) if n > 0 && m < 0 => Some(MateNote::Allows { moves: -m }),
            (Some(n), _) if n > 0 => Some(MateNote::Missed { moves: n }),
            (None, Some(m)) if m < 0 => Some(MateNote::Allows { moves: -m }),
            _ => None,
        }
    }
}

impl fmt::Display for MateNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MateNote::Missed { moves } => write!(f, "missed mate in {moves}"),
            MateNote::Allows { moves } => write!(f, "allows mate in {moves}"),
            MateNote::Changed { from, to } => write!(f, "mate in {from} became mate in {to}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cotuong::search::{mate_in, mated_in};

    #[test]
    fn mates_are_named() {
        let red = |units| RedScore::from_side(Color::Red, units);
        let note = |best, played| MateNote::of(red(best), red(played), Color::Red);
        assert_eq!(note(mate_in(3), 900), Some(MateNote::Missed { moves: 2 }));
        assert_eq!(note(40, mated_in(4)), Some(MateNote::Allows { moves: 2 }));
        assert_eq!(
            note(mate_in(3), mate_in(9)),
            Some(MateNote::Changed { from: 2, to: 5 })
        );
        assert_eq!(note(mate_in(3), mate_in(3)), None);
        assert_eq!(note(40, -30), None);
        // Black's view of Red's mate: Black is mated, sooner after the move played.
        let black = MateNote::of(red(mate_in(9)), red(mate_in(3)), Color::Black);
        assert_eq!(black, Some(MateNote::Changed { from: 5, to: 2 }));
        assert_eq!(
            MateNote::Changed { from: 3, to: 5 }.to_string(),
            "mate in 3 became mate in 5"
        );
        assert_eq!(
            MateNote::Missed { moves: 2 }.to_string(),
            "missed mate in 2"
        );
        assert_eq!(
            MateNote::Allows { moves: 1 }.to_string(),
            "allows mate in 1"
        );
    }
}
