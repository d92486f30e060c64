//! How bad a move was: the drop of the mover's winning chances (expected score, see
//! `winning_chances`) from the engine's best move to the move played, both scored by the same
//! search, judged against three thresholds (inaccuracy, mistake, blunder) in percentage points.
//!
//! A move that keeps a decided game decided the same way (the mover's expected score at least
//! [`DECIDED_WIN`] before and after, or at most [`DECIDED_LOSS`] before and after) is at worst an
//! inaccuracy: a won game stays won, a lost one lost. A mate that stays a mate, only longer, is
//! no error at all; mates missed or allowed are named (see `mate_note`).

use serde::Serialize;

use super::mate_note::MateNote;
use super::winning_chances::{PerMille, CERTAIN_WIN, PER_MILLE_PER_POINT};

/// Default drop (percentage points of expected score) from which a move is an inaccuracy: from
/// a level game, about 0.8 pawn under the WDL model.
pub const DEFAULT_INACCURACY: u32 = 6;
/// Default drop from which a move is a mistake: from a level game, about 1.6 pawns.
pub const DEFAULT_MISTAKE: u32 = 12;
/// Default drop from which a move is a blunder: from a level game, about 3.3 pawns.
pub const DEFAULT_BLUNDER: u32 = 24;

/// Expected score (thousandths) from which the game counts as won for the mover (about 6.5
/// pawns ahead under the WDL model) ...
pub const DECIDED_WIN: PerMille = 900;
/// ... and up to which it counts as lost.
pub const DECIDED_LOSS: PerMille = CERTAIN_WIN - DECIDED_WIN;

/// PGN's numeric annotation glyphs for the judgements: `?!`, `?` and `??`.
const NAG_DUBIOUS: u8 = 6;
const NAG_MISTAKE: u8 = 2;
const NAG_BLUNDER: u8 = 4;

/// The three thresholds, in percentage points of expected score, increasing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    /// Drop from which a move is an inaccuracy.
    pub inaccuracy: u32,
    /// Drop from which a move is a mistake.
    pub mistake: u32,
    /// Drop from which a move is a blunder.
    pub blunder: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            inaccuracy: DEFAULT_INACCURACY,
            mistake: DEFAULT_MISTAKE,
            blunder: DEFAULT_BLUNDER,
        }
    }
}

impl Thresholds {
    /// The thresholds, if they are positive, increasing and at most 100 points.
    pub fn new(inaccuracy: u32, mistake: u32, blunder: u32) -> Result<Thresholds, String> {
        if inaccuracy == 0 || inaccuracy >= mistake || mistake >= blunder || blunder > 100 {
            return Err(format!(
                "the thresholds must be positive, increasing and at most 100 (percentage points \
                 of expected score): inaccuracy {inaccuracy}, mistake {mistake}, blunder {blunder}"
            ));
        }
        Ok(Thresholds {
            inaccuracy,
            mistake,
            blunder,
        })
    }

    /// The judgement of a move whose mover's expected score drops by `drop` thousandths.
    pub fn judge(&self, drop: PerMille) -> Option<Judgement> {
        let at =
            |points: u32| drop >= i32::try_from(points).unwrap_or(i32::MAX) * PER_MILLE_PER_POINT;
        if at(self.blunder) {
            Some(Judgement::Blunder)
        } else if at(self.mistake) {
            Some(Judgement::Mistake)
        } else if at(self.inaccuracy) {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The verdict on a move: the mover's expected score is `best` with the engine's best move
    /// and `played` with the move played (thousandths), `mate` says what became of a mate.
    pub fn verdict(
        &self,
        best: PerMille,
        played: PerMille,
        mate: Option<MateNote>,
    ) -> Option<Judgement> {
        if matches!(mate, Some(MateNote::Changed { .. })) {
            return None;
        }
        let judgement = self.judge((best - played).max(0));
        let still_won = best >= DECIDED_WIN && played >= DECIDED_WIN;
        let still_lost = best <= DECIDED_LOSS && played <= DECIDED_LOSS;
        if still_won || still_lost {
            judgement.map(|_| Judgement::Inaccuracy)
        } else {
            judgement
        }
    }
}

/// A bad move's kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A loss that can decide the game.
    Blunder,
}

impl Judgement {
    /// Its PGN numeric annotation glyph.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => NAG_DUBIOUS,
            Judgement::Mistake => NAG_MISTAKE,
            Judgement::Blunder => NAG_BLUNDER,
        }
    }

    /// Its symbol: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A drop of expected score for people: `12%` (percentage points, rounded).
pub fn percent(drop: PerMille) -> String {
    format!(
        "{}%",
        (drop + PER_MILLE_PER_POINT / 2) / PER_MILLE_PER_POINT
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_judge_drops() {
        // The documented defaults (docs/analysis.md: inaccuracy from 6 percentage points of
        // expected score, mistake from 12, blunder from 24), written out rather than read from
        // the constants so that a changed constant fails here.
        let t = Thresholds::default();
        assert_eq!(t.judge(0), None);
        assert_eq!(t.judge(59), None);
        assert_eq!(t.judge(60), Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(119), Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(120), Some(Judgement::Mistake));
        assert_eq!(t.judge(239), Some(Judgement::Mistake));
        assert_eq!(t.judge(240), Some(Judgement::Blunder));
        assert_eq!(t.judge(1_000), Some(Judgement::Blunder));
        assert!(Thresholds::new(0, 10, 20).is_err());
        assert!(Thresholds::new(30, 20, 40).is_err());
        assert!(Thresholds::new(30, 40, 40).is_err());
        assert!(Thresholds::new(30, 40, 101).is_err());
        assert_eq!(
            Thresholds::new(3, 6, 9).map(|t| t.judge(61)),
            Ok(Some(Judgement::Mistake))
        );
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [6, 2, 4]
        );
        assert_eq!(percent(124), "12%");
        assert_eq!(percent(125), "13%");
    }

    #[test]
    fn a_decided_game_kept_decided_is_no_mistake() {
        // Small thresholds, so that the drops inside the decided bands would count.
        let t = Thresholds::new(1, 2, 3).expect("thresholds");
        assert_eq!(t.verdict(990, 910, None), Some(Judgement::Inaccuracy));
        assert_eq!(t.verdict(90, 10, None), Some(Judgement::Inaccuracy));
        assert_eq!(t.verdict(990, 985, None), None);
        assert_eq!(t.verdict(990, 890, None), Some(Judgement::Blunder));
        assert_eq!(t.verdict(500, 400, None), Some(Judgement::Blunder));
        let longer = MateNote::Changed { from: 2, to: 6 };
        assert_eq!(t.verdict(1000, 1000, Some(longer)), None);
    }
}
