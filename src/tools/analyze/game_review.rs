//! Games analyzed move by move, the way lichess and the chess GUIs do it. Every position of a
//! game, from the start to the position after the last move, is searched once, under the same
//! limits and from a cleared table (see `analyst`), so that each gets the score it would get
//! alone (`--fen`). That one search serves twice: its best line is the best alternative to the
//! move played in the position, and its score is the score of the move that led to it.
//!
//! The loss of a move is the drop of the position's value across the move, from the mover's
//! view: V(before) − V(after), both cut to ±`DECIDED`, and never below 0 (a move that does
//! better than the engine expected loses nothing). The engine's own best move loses nothing
//! either (the drop is then the horizon of the search, not the move). The best move is shown
//! only where it scores better than the move played, so the best never scores below it. In the
//! first [`OPENING_PLIES`] plies (book knowledge, where the engine prefers one of the common
//! openings by a few centipawns) only mistakes and blunders are marked.

use cotuong::game::Game;
use cotuong::search::Info;
use engine_core::pgn;
use engine_core::{Color, Move, Position};

use super::analyst::{Analysis, Analyst, Line};
use super::judgement::{loss, Judgement, Thresholds};
use super::progress::Progress;
use super::score::RedScore;

/// One move of a game and its judgement.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// Ply from the start of the record, from 1.
    pub ply: usize,
    /// The position it was played in.
    pub before: Position,
    /// The side that played it.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// Its score (Red's view): the score of the position after it.
    pub score: RedScore,
    /// Depth of the search of the position after it (0: the game was over there).
    pub depth: i32,
    /// The line it starts: the move, then the best line of the position after it.
    pub line: Vec<Move>,
    /// The engine's best line in the position it was played in.
    pub best: Line,
    /// Depth of the search of the position it was played in.
    pub best_depth: i32,
    /// The best line that does not start with the move played (the engine's best move when the
    /// player chose another; the runner-up when the player found the best one), if searched.
    pub alternative: Option<Line>,
    /// The drop of the position's value across the move, from the mover's view (internal
    /// units, never negative).
    pub loss: i32,
    /// How bad the loss is, if it counts.
    pub judgement: Option<Judgement>,
}

impl MoveReview {
    /// Whether the player chose the engine's best move.
    pub fn is_best(&self) -> bool {
        self.best.mv == self.mv
    }

    /// Whether the engine's best move is worth showing: another move, scoring better than the
    /// one played from the mover's view.
    pub fn shows_best(&self) -> bool {
        !self.is_best() && self.best.score.for_side(self.side) > self.score.for_side(self.side)
    }
}

/// Plies at the start of a game (five moves each) in which an inaccuracy is not marked: the
/// openings are book knowledge, and the engine's preference among them, a few centipawns,
/// says little. Mistakes and blunders are marked from the first move.
pub const OPENING_PLIES: usize = 10;

/// The move number of the `ply`-th move (from 1) of a game whose first move is `first`'s.
pub fn move_number(first: Color, ply: usize) -> u32 {
    let black_first = usize::from(first == Color::Black);
    u32::try_from((ply.max(1) - 1 + black_first) / 2 + 1).unwrap_or(u32::MAX)
}

/// A game and its moves' judgements.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The game as read.
    pub game: pgn::Game,
    /// The score of every position from the start to the end (one more than the moves), Red's
    /// view.
    pub scores: Vec<RedScore>,
    /// The depth of each of those searches (0 where the game was over).
    pub depths: Vec<i32>,
    /// The result in the last position, when the game is over there (`1-0 (checkmate ...)`).
    pub result: Option<String>,
    /// The moves.
    pub moves: Vec<MoveReview>,
}

/// Per side: how many moves, their judgements and the average loss.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Total loss (internal units).
    pub total_loss: i64,
}

impl SideSummary {
    /// Average loss per move (internal units), 0 without moves.
    pub fn average_loss(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            self.total_loss / self.moves as i64
        }
    }
}

impl GameReview {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mut s = SideSummary::default();
        for m in self.moves.iter().filter(|m| m.side == side) {
            s.moves += 1;
            s.total_loss += i64::from(m.loss);
            match m.judgement {
                Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
                Some(Judgement::Mistake) => s.mistakes += 1,
                Some(Judgement::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        s
    }
}

/// Judges every move of every game. `lines` (at least 2, so that the best alternative to a
/// best move is known) lines are searched per position.
pub fn review_games(
    analyst: &mut Analyst,
    games: &[pgn::Game],
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
) -> Vec<GameReview> {
    games
        .iter()
        .map(|g| review_game(analyst, g, lines, thresholds, progress, true))
        .collect()
}

/// One game's review; `fresh`: every position from a cleared table (false only to measure
/// what that costs).
fn review_game(
    analyst: &mut Analyst,
    record: &pgn::Game,
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
    fresh: bool,
) -> GameReview {
    let mut game = Game::new(record.start.clone());
    let mut analyses: Vec<Analysis> = Vec::with_capacity(record.moves.len() + 1);
    for ply in 0..=record.moves.len() {
        progress.working_on(format!("game {}, ply {ply}", record.number));
        let pos = game.position().clone();
        let mut on_info = |info: &Info| progress.info(&pos, info);
        analyses.push(analyst.analyze_with(&game, lines, fresh, &mut on_info));
        progress.searched();
        if let Some(m) = record.moves.get(ply) {
            // The reader checked the moves: playing them cannot fail.
            if game.play(m.mv).is_err() {
                break;
            }
        }
    }
    let scores: Vec<RedScore> = analyses.iter().map(Analysis::score).collect();
    let mut before = record.start.clone();
    let moves = record
        .moves
        .iter()
        .zip(analyses.windows(2))
        .enumerate()
        .filter_map(|(i, (m, pair))| {
            let review = judge_move(i + 1, &before, m.mv, &pair[0], &pair[1], thresholds);
            before.make_move(m.mv);
            review
        })
        .collect();
    GameReview {
        game: record.clone(),
        scores,
        depths: analyses.iter().map(|a| a.depth).collect(),
        result: analyses.last().and_then(Analysis::result_text),
        moves,
    }
}

/// The review of `mv`, played in `pos` (searched: `here`), which leads to the position searched
/// in `after`. `None` only if the search of `pos` found no move, which a legal `mv` rules out.
fn judge_move(
    ply: usize,
    pos: &Position,
    mv: Move,
    here: &Analysis,
    after: &Analysis,
    thresholds: &Thresholds,
) -> Option<MoveReview> {
    let side = pos.side_to_move();
    let best = here.lines.first()?.clone();
    let score = after.score();
    let lost = if best.mv == mv {
        0
    } else {
        loss(here.score().for_side(side), score.for_side(side))
    };
    let judgement = thresholds
        .judge(lost)
        .filter(|&j| ply > OPENING_PLIES || j != Judgement::Inaccuracy);
    let mut line = vec![mv];
    line.extend(after.lines.first().map_or(&[][..], |l| &l.pv[..]));
    Some(MoveReview {
        ply,
        before: pos.clone(),
        side,
        mv,
        score,
        depth: after.depth,
        line,
        alternative: here.lines.iter().find(|l| l.mv != mv).cloned(),
        best,
        best_depth: here.depth,
        loss: lost,
        judgement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::analyze::analyst::Limits;
    use engine_core::RankBase;
    use std::time::Instant;

    /// A game of ordinary opening moves (the blunder game of tests/analyze.rs, continued).
    const MOVES: [&str; 16] = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h5", "a9a8", "h5g5", "g6g5", "b0c2",
        "b7b3", "a0a1", "a8f8", "c3c4", "h7h3",
    ];

    fn record() -> pgn::Game {
        let mut text = String::new();
        for (i, m) in MOVES.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(m);
            text.push(' ');
        }
        text.push('*');
        let game = pgn::read_games(&text, &[engine_core::Notation::Iccs(RankBase::Zero)])
            .next()
            .expect("a game")
            .expect("readable");
        game
    }

    fn review(limits: &Limits, fresh: bool) -> (GameReview, u128) {
        let mut analyst = Analyst::new(limits, 16, 1).expect("a table");
        let progress = Progress::new(0, true, None);
        let started = Instant::now();
        let r = review_game(
            &mut analyst,
            &record(),
            2,
            &Thresholds::default(),
            &progress,
            fresh,
        );
        (r, started.elapsed().as_millis())
    }

    #[test]
    fn the_review_agrees_with_itself() {
        let limits = Limits {
            nodes: Some(5_000),
            ..Limits::default()
        };
        let (r, _) = review(&limits, true);
        assert_eq!(r.moves.len(), MOVES.len());
        for (i, m) in r.moves.iter().enumerate() {
            let mover = |s: RedScore| s.for_side(m.side);
            assert!(m.loss >= 0, "ply {}: loss {}", m.ply, m.loss);
            // One search per position: the move's score is the next position's.
            assert_eq!(m.score, r.scores[i + 1], "ply {}", m.ply);
            assert_eq!(m.best.score, r.scores[i], "ply {}", m.ply);
            if m.shows_best() {
                assert!(mover(m.best.score) > mover(m.score), "ply {}", m.ply);
            }
            assert_eq!(
                m.loss,
                if m.is_best() {
                    0
                } else {
                    loss(mover(r.scores[i]), mover(r.scores[i + 1]))
                },
                "ply {}",
                m.ply
            );
            if m.ply <= OPENING_PLIES {
                assert_ne!(m.judgement, Some(Judgement::Inaccuracy), "ply {}", m.ply);
            }
        }
        // The same again: every search starts from a cleared table.
        let (again, _) = review(&limits, true);
        assert_eq!(again.scores, r.scores);
    }

    /// What the cleared table costs: the game reviewed at depth 10 with the table and the
    /// histories cleared before each position, and kept through the game.
    /// `cargo test --release --bin cotuong cleared_table_cost -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement, not a check"]
    fn cleared_table_cost() {
        let limits = Limits {
            depth: Some(10),
            ..Limits::default()
        };
        let (_, fresh) = review(&limits, true);
        let (_, kept) = review(&limits, false);
        println!(
            "{} plies at depth 10: cleared {fresh} ms, kept {kept} ms",
            MOVES.len()
        );
    }
}
