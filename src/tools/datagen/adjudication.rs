//! Score adjudication: ends self-play games whose result is no longer in doubt, so that data
//! generation does not spend its nodes converting won endings move after move.

use engine_core::{Color, GameResult};

/// When a game counts as decided by the searches' own scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A side wins once every score of the last [`Adjudication::win_plies`] plies says it is at
    /// least this far ahead (engine units; a chariot is about 900).
    pub win_score: i32,
    /// See [`Adjudication::win_score`].
    pub win_plies: usize,
    /// A game is drawn once every score of the last [`Adjudication::draw_plies`] plies is within
    /// this of zero ...
    pub draw_score: i32,
    /// ... for this many plies ...
    pub draw_plies: usize,
    /// ... and at least this many plies were played since the recorded start.
    pub draw_min_ply: usize,
}

impl Default for Adjudication {
    /// About a chariot ahead for 8 plies (4 moves each) wins; within 0.1 soldier for 10 plies
    /// after move 40 draws. Mate scores count as decided.
    fn default() -> Self {
        Adjudication {
            win_score: 1000,
            win_plies: 8,
            draw_score: 10,
            draw_plies: 10,
            draw_min_ply: 80,
        }
    }
}

impl Adjudication {
    /// The adjudicated result, if any. `scores` holds one search score per ply, each from the
    /// point of view of the side that moved at that ply; the first ply was played by `first_mover`.
    pub fn judge(&self, scores: &[i32], first_mover: Color) -> Option<GameResult> {
        let n = scores.len();
        let red_view = |i: usize| {
            let mover = if i.is_multiple_of(2) {
                first_mover
            } else {
                first_mover.opponent()
            };
            match mover {
                Color::Red => scores[i],
                Color::Black => -scores[i],
            }
        };
        if self.win_plies > 0 && n >= self.win_plies {
            let recent = n - self.win_plies..n;
            if recent.clone().all(|i| red_view(i) >= self.win_score) {
                return Some(GameResult::RedWins);
            }
            if recent.clone().all(|i| red_view(i) <= -self.win_score) {
                return Some(GameResult::BlackWins);
            }
        }
        if self.draw_plies > 0
            && n >= self.draw_plies
            && n >= self.draw_min_ply
            && (n - self.draw_plies..n).all(|i| scores[i].abs() <= self.draw_score)
        {
            return Some(GameResult::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_must_agree_for_a_win() {
        let a = Adjudication::default();
        // Red to move first; Red's scores positive, Black's negative (Black agrees it is lost).
        let scores: Vec<i32> = (0..8)
            .map(|i| if i % 2 == 0 { 1200 } else { -1100 })
            .collect();
        assert_eq!(a.judge(&scores, Color::Red), Some(GameResult::RedWins));
        // One dissenting ply.
        let mut s = scores.clone();
        s[7] = -900;
        assert_eq!(a.judge(&s, Color::Red), None);
        // Same scores, but Black moved first: Black is winning.
        assert_eq!(a.judge(&scores, Color::Black), Some(GameResult::BlackWins));
    }

    #[test]
    fn draws_wait_for_the_minimum_ply() {
        let a = Adjudication::default();
        assert_eq!(a.judge(&[0; 79], Color::Red), None);
        assert_eq!(a.judge(&[0; 80], Color::Red), Some(GameResult::Draw));
        let mut s = vec![0; 90];
        s[85] = 11;
        assert_eq!(a.judge(&s, Color::Red), None);
    }

    #[test]
    fn short_games_are_not_judged() {
        let a = Adjudication::default();
        assert_eq!(a.judge(&[5000; 7], Color::Red), None);
    }
}
