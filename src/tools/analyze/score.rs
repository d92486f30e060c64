//! Scores as people read them: from Red's point of view (as chess tools show White's), in pawns
//! with two decimals (`+0.35`, one pawn being 100 of the engine's internal units, the
//! centipawns the protocols print), or as a mate (`#3`: Red mates in 3 moves, `#-3`: Black does;
//! a game already won on the board is its result, `1-0` or `0-1`).

use cotuong::search::{is_mate, mate_moves, MATE};
use engine_core::Color;
use serde::Serialize;
use std::fmt;

/// Internal units per pawn on the pawn scale of the display.
const UNITS_PER_PAWN: f64 = 100.0;

/// A score from Red's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RedScore {
    /// Internal units, Red's view.
    units: i32,
    /// For a mate, the winner's moves to mate. The count depends on who moves first, which the
    /// units alone (without the side to move) do not tell.
    mate_moves: i32,
}

impl RedScore {
    /// The score `score` of the side to move `side`, seen from Red.
    pub fn from_side(side: Color, score: i32) -> RedScore {
        RedScore {
            units: match side {
                Color::Red => score,
                Color::Black => -score,
            },
            mate_moves: if is_mate(score) {
                mate_moves(score).abs()
            } else {
                0
            },
        }
    }

    /// The same score from `side`'s point of view.
    pub fn for_side(self, side: Color) -> i32 {
        match side {
            Color::Red => self.units,
            Color::Black => -self.units,
        }
    }

    /// Whether it is a forced mate (or a finished game).
    pub fn is_mate(self) -> bool {
        is_mate(self.units)
    }

    /// For a forced mate, `side`'s moves to it: positive when `side` mates, negative when it is
    /// mated; `None` for any other score.
    pub fn mate_for(self, side: Color) -> Option<i32> {
        if !self.is_mate() {
            return None;
        }
        let red_mates = self.units > 0;
        Some(if red_mates == (side == Color::Red) {
            self.mate_moves
        } else {
            -self.mate_moves
        })
    }

    /// Pawns, for the graph: mates and larger scores are cut at `limit` pawns either way.
    pub fn pawns_capped(self, limit: f64) -> f64 {
        if self.is_mate() {
            limit.copysign(f64::from(self.units))
        } else {
            (f64::from(self.units) / UNITS_PER_PAWN).clamp(-limit, limit)
        }
    }

    /// The form JSON readers get.
    pub fn json(self) -> JsonScore {
        if self.is_mate() {
            JsonScore::Mate {
                mate: if self.units > 0 {
                    self.mate_moves
                } else {
                    -self.mate_moves
                },
                winner: if self.units > 0 { "red" } else { "black" },
            }
        } else {
            JsonScore::Centipawns { cp: self.units }
        }
    }
}

impl fmt::Display for RedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_mate() && self.mate_moves == 0 {
            // Mated on the board: no moves left to count, the game's result says it.
            f.write_str(if self.units > 0 { "1-0" } else { "0-1" })
        } else if self.is_mate() {
            let sign = if self.units > 0 { "" } else { "-" };
            write!(f, "#{sign}{}", self.mate_moves)
        } else {
            write!(f, "{:+.2}", f64::from(self.units) / UNITS_PER_PAWN)
        }
    }
}

/// A score in JSON: `{"cp": 35}` (internal units, 100 to a pawn), or `{"mate": 3, "winner":
/// "red"}` (moves to mate, negative when Black mates; 0 when the game is over).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(untagged)]
pub enum JsonScore {
    /// A centipawn score from Red's view.
    Centipawns {
        /// The score.
        cp: i32,
    },
    /// A forced mate.
    Mate {
        /// Moves to mate, signed from Red's view.
        mate: i32,
        /// The side that mates.
        winner: &'static str,
    },
}

/// A score with the depth of its search, written the same way in every output: `+0.35/12`;
/// the score alone where nothing was searched (depth 0: the game was over, `#0`).
pub fn with_depth(score: RedScore, depth: i32) -> String {
    if depth > 0 {
        format!("{score}/{depth}")
    } else {
        score.to_string()
    }
}

/// `n` and the noun, plural unless `n` is 1: `1 mistake`, `2 mistakes`, `0 inaccuracies`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// Score of a side that has just been mated (no legal move).
pub const MATED_NOW: i32 = -MATE;

#[cfg(test)]
mod tests {
    use super::*;
    use cotuong::search::{mate_in, mated_in};

    #[test]
    fn display_from_reds_view() {
        let red = |units| RedScore::from_side(Color::Red, units);
        assert_eq!(RedScore::from_side(Color::Red, 35).to_string(), "+0.35");
        assert_eq!(RedScore::from_side(Color::Black, 35).to_string(), "-0.35");
        assert_eq!(RedScore::from_side(Color::Black, 0).to_string(), "+0.00");
        assert_eq!(
            RedScore::from_side(Color::Red, mate_in(5)).to_string(),
            "#3"
        );
        assert_eq!(
            RedScore::from_side(Color::Black, mate_in(5)).to_string(),
            "#-3"
        );
        // Black to move and mated: Red has won.
        assert_eq!(
            RedScore::from_side(Color::Black, MATED_NOW).to_string(),
            "1-0"
        );
        assert_eq!(
            RedScore::from_side(Color::Red, mated_in(0)).to_string(),
            "0-1"
        );
        assert_eq!(red(mate_in(3)).mate_for(Color::Red), Some(2));
        assert_eq!(red(mate_in(3)).mate_for(Color::Black), Some(-2));
        assert_eq!(red(300).mate_for(Color::Red), None);
        assert_eq!(red(-250).for_side(Color::Black), 250);
        assert_eq!(red(1234).pawns_capped(10.0), 10.0);
        assert_eq!(red(mated_in(2)).pawns_capped(10.0), -10.0);
        assert_eq!(with_depth(red(35), 12), "+0.35/12");
        assert_eq!(with_depth(red(mated_in(0)), 0), "0-1");
        assert_eq!(count(1, "mistake", "mistakes"), "1 mistake");
        assert_eq!(count(0, "inaccuracy", "inaccuracies"), "0 inaccuracies");
        assert_eq!(count(2, "blunder", "blunders"), "2 blunders");
    }

    #[test]
    fn json_forms() {
        let red = |units| RedScore::from_side(Color::Red, units);
        let cp = serde_json::to_string(&red(-12).json()).expect("json");
        assert_eq!(cp, r#"{"cp":-12}"#);
        let mate = serde_json::to_string(&red(mated_in(4)).json()).expect("json");
        assert_eq!(mate, r#"{"mate":-2,"winner":"black"}"#);
        // Black to move mates in 3: the same count from Red's view.
        let black = RedScore::from_side(Color::Black, mate_in(5)).json();
        assert_eq!(
            black,
            JsonScore::Mate {
                mate: -3,
                winner: "black"
            }
        );
    }
}
