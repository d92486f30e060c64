//! Games analyzed move by move, the way lichess reviews them. Each position in which a move was
//! played is searched from a cleared table (see `analyst`), so that it gets the lines it would
//! get alone (`--fen`). The move played and the engine's best move are scored by one search: the
//! MultiPV search itself when the move played is among its lines, else a second search of the
//! same position, on the table the first one filled, limited to the best move and the move
//! played. The best move therefore never scores below the move played, and a move that is the
//! best, or scores as well, is reported as the best with its one score.
//!
//! A move's verdict is the drop of the mover's winning chances from the best move to the move
//! played (see `winning_chances` and `judgement`), with mates named (see `mate_note`); its
//! accuracy follows from the same drop (see `accuracy`). In the first [`OPENING_PLIES`] plies
//! (book knowledge, where the engine prefers one of the common openings by a few centipawns) only
//! mistakes and blunders are marked.

use cotuong::game::Game;
use cotuong::search::Info;
use engine_core::pgn;
use engine_core::{Color, Move, Position};

use super::accuracy;
use super::analyst::{Analysis, Analyst, Line};
use super::judgement::{Judgement, Thresholds};
use super::mate_note::MateNote;
use super::progress::Progress;
use super::score::RedScore;
use super::winning_chances::{expected, PerMille};

/// One move of a game and its verdict.
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
    /// Its score (Red's view), from the search that scored the best move too.
    pub score: RedScore,
    /// Depth of that search.
    pub depth: i32,
    /// The line it starts, as that search sees it.
    pub line: Vec<Move>,
    /// The engine's best line in the position it was played in, from the same search.
    pub best: Line,
    /// The best line that does not start with the move played (the engine's best move when the
    /// player chose another; the runner-up when the player found the best one), if searched.
    pub alternative: Option<Line>,
    /// The drop of the mover's expected score from the best move to this one (thousandths).
    pub drop: PerMille,
    /// What the move did to a forced mate, if there was one either way.
    pub mate: Option<MateNote>,
    /// How bad the drop is, if it counts.
    pub judgement: Option<Judgement>,
    /// The move's accuracy (0 to 100), from the drop.
    pub accuracy: f64,
}

impl MoveReview {
    /// Whether the player found the engine's best move: the best itself, or a move the search
    /// scores as well.
    pub fn found_best(&self) -> bool {
        self.best.mv == self.mv || self.best.score == self.score
    }
}

/// Plies at the start of a game (five moves each) in which an inaccuracy is not marked: the
/// openings are book knowledge, and the engine's preference among them, a few centipawns,
/// says little. Mistakes and blunders are marked from the first move.
pub const OPENING_PLIES: usize = 10;

/// The move number of the `ply`-th move (from 1) of a game starting at `start`: counted from
/// the start's own move number (a FEN's sixth field), as the PGN numbers it.
pub fn move_number(start: &Position, ply: usize) -> u32 {
    let black_first = usize::from(start.side_to_move() == Color::Black);
    let after_start = u32::try_from((ply.max(1) - 1 + black_first) / 2).unwrap_or(u32::MAX);
    u32::from(start.fullmove_number().max(1)).saturating_add(after_start)
}

/// A game and its moves' verdicts.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The game as read.
    pub game: pgn::Game,
    /// Red's view of the game as it went: the start position's score, then each move's score
    /// (one more than the moves).
    pub scores: Vec<RedScore>,
    /// The depth of the search behind each of those scores.
    pub depths: Vec<i32>,
    /// The result in the last position, when the game is over there (`1-0 (checkmate ...)`).
    pub result: Option<String>,
    /// The moves.
    pub moves: Vec<MoveReview>,
}

/// Per side: how many moves, their judgements and the accuracy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Accuracy over the moves (0 to 100; `None` without moves).
    pub accuracy: Option<f64>,
}

impl GameReview {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mut s = SideSummary::default();
        let mut accuracies = Vec::new();
        for m in self.moves.iter().filter(|m| m.side == side) {
            s.moves += 1;
            accuracies.push(m.accuracy);
            match m.judgement {
                Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
                Some(Judgement::Mistake) => s.mistakes += 1,
                Some(Judgement::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        s.accuracy = accuracy::of_side(&accuracies);
        s
    }

    /// `[Red]` (else `[White]`, as XBoard and cutechess write it), or `Red`.
    pub fn red_name(&self) -> &str {
        self.game.red_player().unwrap_or("Red")
    }

    /// `[Black]`, or `Black`.
    pub fn black_name(&self) -> &str {
        self.game.black_player().unwrap_or("Black")
    }
}

/// Reviews every game, `lines` (at least 2, so that the best alternative to a best move is
/// known) lines per position, handing each review to `on_game` as soon as it is done; stops at
/// the first error `on_game` returns, or before the next game once `stop` says so.
pub fn review_games(
    analyst: &mut Analyst,
    games: &[pgn::Game],
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
    stop: &dyn Fn() -> bool,
    on_game: &mut dyn FnMut(GameReview) -> Result<(), String>,
) -> Result<(), String> {
    for g in games {
        if stop() {
            break;
        }
        let review = review_game(analyst, g, lines, thresholds, progress, stop, true);
        if let Some(r) = review {
            on_game(r)?;
        }
    }
    Ok(())
}

/// One game's review; `fresh`: every position from a cleared table (false only to measure what
/// that costs). `None` when `stop` cut it short.
fn review_game(
    analyst: &mut Analyst,
    record: &pgn::Game,
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
    stop: &dyn Fn() -> bool,
    fresh: bool,
) -> Option<GameReview> {
    let mut game = Game::new(record.start.clone());
    let mut moves = Vec::with_capacity(record.moves.len());
    let mut scores = Vec::with_capacity(record.moves.len() + 1);
    let mut depths = Vec::with_capacity(record.moves.len() + 1);
    for (i, m) in record.moves.iter().enumerate() {
        if stop() {
            return None;
        }
        let ply = i + 1;
        progress.working_on(format!("game {}, ply {ply}", record.number));
        let pos = game.position().clone();
        let mut on_info = |info: &Info| progress.info(&pos, info);
        let here = analyst.analyze_with(&game, lines, fresh, &mut on_info);
        let verdict = scored(analyst, &game, m.mv, &here, &mut on_info);
        progress.searched();
        let Some((best, played, depth)) = verdict else {
            break;
        };
        if scores.is_empty() {
            scores.push(best.score);
            depths.push(depth);
        }
        let review = judge_move(ply, &pos, &here, best, played, depth, thresholds);
        scores.push(review.score);
        depths.push(review.depth);
        moves.push(review);
        // The reader checked the moves: playing them cannot fail.
        if game.play(m.mv).is_err() {
            break;
        }
    }
    if scores.is_empty() {
        // No move: the start is the whole game.
        let start = analyst.analyze_with(&game, lines, fresh, &mut |_| {});
        scores.push(start.score());
        depths.push(start.depth);
    }
    Some(GameReview {
        game: record.clone(),
        scores,
        depths,
        result: analyst.finished(&game).and_then(|a| a.result_text()),
        moves,
    })
}

/// The best line and the line of `mv` in the position of `game`, scored by one search, with that
/// search's depth: the MultiPV search `here` when `mv` is among its lines, else a search of the
/// best move and `mv` alone. `None` only if `here` found no move, which a legal `mv` rules out.
fn scored(
    analyst: &mut Analyst,
    game: &Game,
    mv: Move,
    here: &Analysis,
    on_info: &mut dyn FnMut(&Info),
) -> Option<(Line, Line, i32)> {
    let best = here.lines.first()?;
    if let Some(played) = here.lines.iter().find(|l| l.mv == mv) {
        return Some((best.clone(), played.clone(), here.depth));
    }
    let both = analyst.compare(game, &[best.mv, mv], on_info);
    let top = both.lines.first()?.clone();
    let played = match both.lines.iter().find(|l| l.mv == mv) {
        Some(l) => l.clone(),
        None => {
            // The limits stopped the search before it scored the move played (a tiny node or
            // time limit): a search of that move alone scores it, no better than the best.
            let alone = analyst.compare(game, &[mv], on_info);
            let mut l = alone.lines.first()?.clone();
            let side = game.position().side_to_move();
            if l.score.for_side(side) > top.score.for_side(side) {
                l.score = top.score;
            }
            l
        }
    };
    Some((top, played, both.depth))
}

/// The review of the move of `played`, played in `pos`, where the search `here` was made and
/// `best` is the best line of the search that scored `played` (at `depth`).
fn judge_move(
    ply: usize,
    pos: &Position,
    here: &Analysis,
    best: Line,
    played: Line,
    depth: i32,
    thresholds: &Thresholds,
) -> MoveReview {
    let side = pos.side_to_move();
    let mv = played.mv;
    let best_chances = expected(best.score, side);
    let played_chances = expected(played.score, side);
    let drop = (best_chances - played_chances).max(0);
    let mate = MateNote::of(best.score, played.score, side);
    let judgement = thresholds
        .verdict(best_chances, played_chances, mate)
        .filter(|&j| ply > OPENING_PLIES || j != Judgement::Inaccuracy);
    let alternative = if best.mv == mv {
        here.lines.iter().find(|l| l.mv != mv).cloned()
    } else {
        Some(best.clone())
    };
    MoveReview {
        ply,
        before: pos.clone(),
        side,
        mv,
        score: played.score,
        depth,
        line: played.pv,
        best,
        alternative,
        drop,
        mate,
        judgement,
        accuracy: accuracy::of_move(drop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::analyze::analyst::Limits;
    use engine_core::RankBase;
    use std::time::Instant;

    /// A game of ordinary opening moves (the blunder game of tests/tools/analyze.rs, continued).
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
            &|| false,
            fresh,
        )
        .expect("not stopped");
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
        assert_eq!(r.scores.len(), MOVES.len() + 1);
        for (i, m) in r.moves.iter().enumerate() {
            let mover = |s: RedScore| s.for_side(m.side);
            // One search per verdict: the best never scores below the move played, and the
            // drop is the difference of their winning chances.
            assert!(mover(m.best.score) >= mover(m.score), "ply {}", m.ply);
            assert_eq!(m.score, r.scores[i + 1], "ply {}", m.ply);
            assert_eq!(
                m.drop,
                expected(m.best.score, m.side) - expected(m.score, m.side),
                "ply {}",
                m.ply
            );
            assert_eq!(m.line.first(), Some(&m.mv), "ply {}", m.ply);
            if m.best.mv == m.mv {
                assert!(m.found_best() && m.drop == 0, "ply {}", m.ply);
            }
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
