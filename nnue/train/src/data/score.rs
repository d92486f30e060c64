//! The search score stored with every ply, and its 16-bit encoding.
//!
//! | stored `i16` `v` | meaning |
//! |---|---|
//! | `-32768` | no score (the move was not chosen by a search, e.g. a book move) |
//! | `-19000 ..= 19000` | an evaluation in engine units, side to move's point of view |
//! | `19001 ..= 20000` | the side to move wins by a rule (perpetual check or chase of the opponent) in `20000 - v` plies |
//! | `-20000 ..= -19001` | the side to move loses by a rule in `20000 + v` plies |
//! | `31000 ..= 32000` | the side to move mates in `32000 - v` plies |
//! | `-32000 ..= -31000` | the side to move is mated in `32000 + v` plies |
//!
//! Every other value is invalid and makes a record corrupt. The bands are the engine's own score
//! scale ([`MATE_SCORE`] and [`RULE_WIN_SCORE`] equal the search's constants), so a search score
//! converts with [`Score::from_search`] without loss.

/// The search's score of mating right now: mate in `n` plies is `MATE_SCORE - n`.
pub const MATE_SCORE: i32 = 32_000;
/// The search's score of a win decided by a rule right now: `RULE_WIN_SCORE - n` in `n` plies.
pub const RULE_WIN_SCORE: i32 = 20_000;
/// The largest evaluation magnitude a record stores; larger evaluations are clamped to it.
pub const EVAL_LIMIT: i32 = 19_000;
/// The longest mate distance a record stores (mate scores are at least `MATE_SCORE - MAX_MATE_PLIES`).
pub const MAX_MATE_PLIES: u16 = 1000;
/// The longest rule-win distance a record stores.
pub const MAX_RULE_PLIES: u16 = (RULE_WIN_SCORE - EVAL_LIMIT - 1) as u16;
/// The stored value of "no score".
pub const NO_SCORE: i16 = i16::MIN;

/// A ply's score, from the point of view of the side to move in the position before the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// No score was recorded (a move chosen without a search).
    None,
    /// An evaluation in engine units, `|v| <=` [`EVAL_LIMIT`].
    Eval(i16),
    /// A forced mate: the side to move mates (`wins`) or is mated in `plies` plies.
    Mate {
        /// Whether the side to move is the one that mates.
        wins: bool,
        /// Distance in plies, at most [`MAX_MATE_PLIES`].
        plies: u16,
    },
    /// A win or loss by a rule of repetition (perpetual check or chase), as the search scores it.
    Rule {
        /// Whether the side to move wins.
        wins: bool,
        /// Distance in plies, at most [`MAX_RULE_PLIES`].
        plies: u16,
    },
}

impl Score {
    /// An evaluation, clamped to `±`[`EVAL_LIMIT`].
    pub fn eval(units: i32) -> Score {
        Score::Eval(units.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i16)
    }

    /// Converts a score of the engine's search (side to move's view): scores within
    /// `MAX_MATE_PLIES` of `±MATE_SCORE` are mates, scores above [`EVAL_LIMIT`] in magnitude
    /// and below the mate band are rule wins or losses (values the search never produces between
    /// the bands count as rule scores at distance 0), everything else is an evaluation.
    pub fn from_search(score: i32) -> Score {
        let wins = score > 0;
        let magnitude = score.unsigned_abs().min(MATE_SCORE as u32) as i32;
        if magnitude >= MATE_SCORE - i32::from(MAX_MATE_PLIES) {
            Score::Mate {
                wins,
                plies: (MATE_SCORE - magnitude) as u16,
            }
        } else if magnitude > EVAL_LIMIT {
            Score::Rule {
                wins,
                plies: (RULE_WIN_SCORE - magnitude).max(0) as u16,
            }
        } else {
            Score::Eval(score as i16)
        }
    }

    /// The stored 16-bit value, or `None` when the score is out of its documented range.
    pub fn encode(self) -> Option<i16> {
        let signed = |wins: bool, v: i32| if wins { v } else { -v };
        let v = match self {
            Score::None => return Some(NO_SCORE),
            Score::Eval(v) if i32::from(v).abs() <= EVAL_LIMIT => i32::from(v),
            Score::Mate { wins, plies } if plies <= MAX_MATE_PLIES => {
                signed(wins, MATE_SCORE - i32::from(plies))
            }
            Score::Rule { wins, plies } if plies <= MAX_RULE_PLIES => {
                signed(wins, RULE_WIN_SCORE - i32::from(plies))
            }
            _ => return None,
        };
        Some(v as i16)
    }

    /// The score a stored value means, or `None` for a value outside every band.
    pub fn decode(raw: i16) -> Option<Score> {
        if raw == NO_SCORE {
            return Some(Score::None);
        }
        let v = i32::from(raw);
        let (wins, magnitude) = (v > 0, v.abs());
        if magnitude <= EVAL_LIMIT {
            Some(Score::Eval(raw))
        } else if magnitude <= RULE_WIN_SCORE {
            Some(Score::Rule {
                wins,
                plies: (RULE_WIN_SCORE - magnitude) as u16,
            })
        } else if (MATE_SCORE - i32::from(MAX_MATE_PLIES)..=MATE_SCORE).contains(&magnitude) {
            Some(Score::Mate {
                wins,
                plies: (MATE_SCORE - magnitude) as u16,
            })
        } else {
            None
        }
    }

    /// The score as the search would return it (side to move's view), `None` for [`Score::None`].
    pub fn to_search(self) -> Option<i32> {
        match self {
            Score::None => None,
            Score::Eval(v) => Some(i32::from(v)),
            Score::Mate { wins, plies } => {
                let v = MATE_SCORE - i32::from(plies);
                Some(if wins { v } else { -v })
            }
            Score::Rule { wins, plies } => {
                let v = RULE_WIN_SCORE - i32::from(plies);
                Some(if wins { v } else { -v })
            }
        }
    }

    /// Whether the score claims a decided game (a mate or a rule win or loss).
    pub fn is_decided(self) -> bool {
        matches!(self, Score::Mate { .. } | Score::Rule { .. })
    }

    /// The same score seen by the other side (for Red-relative text output).
    pub fn negated(self) -> Score {
        match self {
            Score::None => Score::None,
            Score::Eval(v) => Score::Eval(-v),
            Score::Mate { wins, plies } => Score::Mate { wins: !wins, plies },
            Score::Rule { wins, plies } => Score::Rule { wins: !wins, plies },
        }
    }
}

impl std::fmt::Display for Score {
    /// `35`, `-120`; `#5` / `#-5` for mate in 5 plies / mated in 5 plies; `R3` / `R-3` for rule
    /// wins and losses; `none`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = |wins: bool| if wins { "" } else { "-" };
        match *self {
            Score::None => write!(f, "none"),
            Score::Eval(v) => write!(f, "{v}"),
            Score::Mate { wins, plies } => write!(f, "#{}{plies}", sign(wins)),
            Score::Rule { wins, plies } => write!(f, "R{}{plies}", sign(wins)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_valid_value_round_trips() {
        let mut valid = 0;
        for raw in i16::MIN..=i16::MAX {
            if let Some(score) = Score::decode(raw) {
                assert_eq!(score.encode(), Some(raw), "{raw}");
                valid += 1;
            }
        }
        // none + evals + rule band (both signs) + mate band (both signs)
        assert_eq!(valid, 1 + 38_001 + 2 * 1000 + 2 * 1001);
    }

    #[test]
    fn search_scores_convert_exactly() {
        for s in [
            0, 35, -19_000, 19_000, 20_000, -19_999, 31_872, -32_000, 31_999,
        ] {
            assert_eq!(Score::from_search(s).to_search(), Some(s), "{s}");
        }
        assert_eq!(
            Score::from_search(25_000),
            Score::Rule {
                wins: true,
                plies: 0
            }
        );
        assert_eq!(
            Score::from_search(-40_000),
            Score::Mate {
                wins: false,
                plies: 0
            }
        );
        assert_eq!(Score::eval(50_000), Score::Eval(19_000));
    }

    #[test]
    fn out_of_range_scores_do_not_encode() {
        assert_eq!(Score::Eval(19_001).encode(), None);
        assert_eq!(
            Score::Mate {
                wins: true,
                plies: 1001
            }
            .encode(),
            None
        );
        assert_eq!(
            Score::Rule {
                wins: false,
                plies: 1000
            }
            .encode(),
            None
        );
        assert_eq!(Score::decode(25_000), None);
        assert_eq!(Score::decode(32_001), None);
    }
}
