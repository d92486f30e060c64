//! Scores as winning chances: the expected score of a side (a win 1, a draw ½, a loss 0) under the
//! engine's own win/draw/loss model, the one `UCI_ShowWDL` prints
//! ([`cotuong::protocol::wdl`]). Verdicts and accuracy are measured on this scale, as
//! lichess measures them on its own: a pawn matters in a level game and hardly at all in a won
//! one, and a mate is a certain win.

use engine_core::Color;

use super::score::RedScore;

/// Expected score in thousandths (0 = a certain loss, 500 = even, 1000 = a certain win).
pub type PerMille = i32;

/// A certain win, in thousandths.
pub const CERTAIN_WIN: PerMille = 1000;

/// Thousandths per percentage point.
pub const PER_MILLE_PER_POINT: PerMille = 10;

/// A drop in percentage points.
pub fn points(drop: PerMille) -> f64 {
    f64::from(drop) / f64::from(PER_MILLE_PER_POINT)
}

/// `side`'s expected score in thousandths when the position scores `score` (Red's view): the
/// WDL model's win chance plus half its draw chance.
pub fn expected(score: RedScore, side: Color) -> PerMille {
    let (win, draw, _) = cotuong::protocol::wdl(score.for_side(side));
    // Both per mille: the sum is at most 1000 and fits any integer type.
    i32::try_from(2 * win + draw).unwrap_or(2 * CERTAIN_WIN) / 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use cotuong::search::{mate_in, mated_in};

    #[test]
    fn expected_scores_follow_the_wdl_model() {
        let red = |units| RedScore::from_side(Color::Red, units);
        assert_eq!(expected(red(0), Color::Red), 500);
        assert_eq!(expected(red(0), Color::Black), 500);
        assert_eq!(expected(red(mate_in(3)), Color::Red), 1000);
        assert_eq!(expected(red(mate_in(3)), Color::Black), 0);
        assert_eq!(expected(red(mated_in(2)), Color::Red), 0);
        // A pawn up is worth more in a level game than in a won one.
        let level = expected(red(100), Color::Red) - expected(red(0), Color::Red);
        let won = expected(red(900), Color::Red) - expected(red(800), Color::Red);
        assert!(level > 60 && won < 25 && level > 3 * won, "{level} {won}");
        // The same from Black's view, but for the rounding to thousandths.
        let black = expected(red(0), Color::Black) - expected(red(100), Color::Black);
        assert!((black - level).abs() <= 1, "{black} {level}");
        assert_eq!(points(125), 12.5);
    }
}
