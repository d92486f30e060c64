//! How bad a move was: the score it loses against the engine's best move, from the mover's point
//! of view, judged against three thresholds (inaccuracy, mistake, blunder).
//!
//! Both scores are first cut to ±[`DECIDED`] (mates count as that much): a move that goes from
//! "winning by a chariot and more" to "winning by a horse and more" loses nothing that matters,
//! while a move that turns a level game into a lost one loses the full difference. The engine's
//! own best move never loses anything (a second search may score it a little differently).

use serde::Serialize;

/// Scores are cut to ± this many internal units (about a chariot and a horse) before the loss is
/// measured: beyond it the game is decided either way.
pub const DECIDED: i32 = 1_500;

/// Default loss (internal units, 100 to a pawn) from which a move is an inaccuracy.
pub const DEFAULT_INACCURACY: i32 = 50;
/// Default loss from which a move is a mistake.
pub const DEFAULT_MISTAKE: i32 = 100;
/// Default loss from which a move is a blunder (a horse is worth about 400).
pub const DEFAULT_BLUNDER: i32 = 200;

/// PGN's numeric annotation glyphs for the judgements: `?!`, `?` and `??`.
const NAG_DUBIOUS: u8 = 6;
const NAG_MISTAKE: u8 = 2;
const NAG_BLUNDER: u8 = 4;

/// The three thresholds, in internal units, increasing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    /// Loss from which a move is an inaccuracy.
    pub inaccuracy: i32,
    /// Loss from which a move is a mistake.
    pub mistake: i32,
    /// Loss from which a move is a blunder.
    pub blunder: i32,
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
    /// The thresholds, if they are positive and increasing.
    pub fn new(inaccuracy: i32, mistake: i32, blunder: i32) -> Result<Thresholds, String> {
        if inaccuracy <= 0 || inaccuracy >= mistake || mistake >= blunder {
            return Err(format!(
                "the thresholds must be positive and increasing: inaccuracy {inaccuracy}, \
                 mistake {mistake}, blunder {blunder}"
            ));
        }
        Ok(Thresholds {
            inaccuracy,
            mistake,
            blunder,
        })
    }

    /// The judgement of a move that loses `loss` internal units.
    pub fn judge(&self, loss: i32) -> Option<Judgement> {
        if loss >= self.blunder {
            Some(Judgement::Blunder)
        } else if loss >= self.mistake {
            Some(Judgement::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
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

/// The loss of playing a move scored `played` where the best scores `best`, both from the
/// mover's point of view (internal units; mates included), after cutting both to ±[`DECIDED`].
pub fn loss(best: i32, played: i32) -> i32 {
    let cut = |s: i32| s.clamp(-DECIDED, DECIDED);
    (cut(best) - cut(played)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cotuong::search::{mate_in, mated_in};

    #[test]
    fn thresholds_judge_losses() {
        // The documented defaults (README, `cotuong analyze`: inaccuracy from 50 centipawns,
        // mistake from 100, blunder from 200), written out rather than read from the constants
        // so that a changed constant fails here.
        let t = Thresholds::default();
        assert_eq!(t.judge(0), None);
        assert_eq!(t.judge(49), None);
        assert_eq!(t.judge(50), Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(99), Some(Judgement::Inaccuracy));
        assert_eq!(t.judge(100), Some(Judgement::Mistake));
        assert_eq!(t.judge(199), Some(Judgement::Mistake));
        assert_eq!(t.judge(200), Some(Judgement::Blunder));
        assert_eq!(t.judge(5_000), Some(Judgement::Blunder));
        assert!(Thresholds::new(0, 10, 20).is_err());
        assert!(Thresholds::new(30, 20, 40).is_err());
        assert!(Thresholds::new(30, 40, 40).is_err());
        assert_eq!(
            Thresholds::new(30, 60, 90).map(|t| t.judge(61)),
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
    }

    #[test]
    fn losses_are_cut_where_the_game_is_decided() {
        assert_eq!(loss(30, -870), 900);
        assert_eq!(loss(30, 60), 0, "better than the best: no loss");
        assert_eq!(loss(3_000, 1_600), 0, "still decided");
        assert_eq!(loss(mate_in(5), 1_000), DECIDED - 1_000);
        assert_eq!(loss(0, mated_in(4)), DECIDED);
    }
}
