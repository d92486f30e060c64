//! Analysis as JSON for tools: one object with the settings and either `positions` or `games`.
//! Moves are given twice, in ICCS (`h2e2`, ranks 0-9) and in the chosen notation; scores from
//! Red's view as `{"cp": N}` (100 to a pawn) or `{"mate": N, "winner": "red"|"black"}`; losses in
//! internal units from the mover's view.

use engine_core::{Move, Notation, Position, RankBase};
use serde::Serialize;

use super::analyst::Line;
use super::game_review::{GameReview, SideSummary};
use super::judgement::{Judgement, Thresholds};
use super::position_review::PositionReview;
use super::score::JsonScore;
use super::test_suite::SuiteScore;

/// The whole document.
#[derive(Serialize)]
pub struct Document<'a> {
    /// The engine.
    pub engine: &'a str,
    /// The limits per position, as text.
    pub limits: String,
    /// The notation of the `text` fields.
    pub notation: &'static str,
    /// The judgement thresholds.
    pub thresholds: Thresholds,
    /// Analyzed positions (absent for games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<Vec<JsonPosition>>,
    /// Analyzed games (absent for positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<Vec<JsonGame>>,
    /// The test suite's score, when positions name best moves or moves to avoid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite: Option<SuiteScore>,
}

/// A line of moves in both forms.
#[derive(Serialize)]
pub struct JsonLine {
    /// Score (Red's view).
    pub score: JsonScore,
    /// Whether the score is exact (false: a bound from a cut-short search).
    pub exact: bool,
    /// ICCS moves.
    pub iccs: Vec<String>,
    /// The moves in the chosen notation.
    pub text: Vec<String>,
}

/// An analyzed position.
#[derive(Serialize)]
pub struct JsonPosition {
    /// Where it came from.
    pub source: String,
    /// Its FEN.
    pub fen: String,
    /// Depth reached.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
    /// The best lines, best first (empty: the game is over).
    pub lines: Vec<JsonLine>,
    /// The result when the game is over in this position.
    pub result: Option<String>,
}

/// A reviewed move.
#[derive(Serialize)]
pub struct JsonMove {
    /// Ply from the start, from 1.
    pub ply: usize,
    /// `red` or `black`.
    pub side: &'static str,
    /// ICCS.
    pub iccs: String,
    /// In the chosen notation.
    pub text: String,
    /// Its score (Red's view).
    pub score: JsonScore,
    /// The line it starts, as the search sees it (ICCS).
    pub line_iccs: Vec<String>,
    /// The same line in the chosen notation.
    pub line: Vec<String>,
    /// Depth of the search that gave `score`: the search of the position after the move (0:
    /// the game was over there).
    pub depth: i32,
    /// The engine's best line in the position the move was played in.
    pub best: JsonLine,
    /// Depth of the search that gave `best`.
    pub best_depth: i32,
    /// Whether `best` does better than the move played (the table and the PGN show it then).
    pub best_shown: bool,
    /// The best line not starting with the move played, if searched.
    pub alternative: Option<JsonLine>,
    /// The drop of the position's value across the move (internal units, mover's view, never
    /// negative).
    pub loss: i32,
    /// `inaccuracy`, `mistake`, `blunder` or null.
    pub judgement: Option<Judgement>,
}

/// One side's summary.
#[derive(Serialize)]
pub struct JsonSummary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Average loss per move (internal units).
    pub average_loss: i64,
}

/// A reviewed game.
#[derive(Serialize)]
pub struct JsonGame {
    /// Its number in the file.
    pub number: usize,
    /// Its tags, in order.
    pub tags: Vec<(String, String)>,
    /// FEN of the start.
    pub start: String,
    /// The notation it was written in.
    pub written_in: Option<&'static str>,
    /// Score of every position, start to end (Red's view).
    pub scores: Vec<JsonScore>,
    /// Depth of each of those searches (0 where the game was over).
    pub depths: Vec<i32>,
    /// The result when the game ended on the board (`1-0 (checkmate ...)`).
    pub result: Option<String>,
    /// The moves.
    pub moves: Vec<JsonMove>,
    /// Red's summary.
    pub red: JsonSummary,
    /// Black's summary.
    pub black: JsonSummary,
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&m| engine_core::move_text(m, RankBase::Zero))
        .collect()
}

fn line(pos: &Position, l: &Line, notation: Notation) -> JsonLine {
    JsonLine {
        score: l.score.json(),
        exact: l.bound == cotuong::search::ScoreBound::Exact,
        iccs: iccs(&l.pv),
        text: notation.format_line(pos, &l.pv),
    }
}

fn summary(s: SideSummary) -> JsonSummary {
    JsonSummary {
        moves: s.moves,
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
        average_loss: s.average_loss(),
    }
}

/// A position's JSON.
pub fn position(review: &PositionReview, notation: Notation) -> JsonPosition {
    let a = &review.analysis;
    JsonPosition {
        source: review.source.clone(),
        fen: review.position.to_fen(),
        depth: a.depth,
        nodes: a.nodes,
        time_ms: a.millis,
        lines: a
            .lines
            .iter()
            .map(|l| line(&review.position, l, notation))
            .collect(),
        result: a.result_text(),
    }
}

/// A game's JSON, moves in `notation`.
pub fn game(review: &GameReview, notation: Notation) -> JsonGame {
    let g = &review.game;
    JsonGame {
        number: g.number,
        tags: g.tags.clone(),
        start: g.start.to_fen(),
        written_in: g.notation.map(Notation::name),
        scores: review.scores.iter().map(|s| s.json()).collect(),
        depths: review.depths.clone(),
        result: review.result.clone(),
        moves: review
            .moves
            .iter()
            .map(|m| JsonMove {
                ply: m.ply,
                side: if m.side == engine_core::Color::Red {
                    "red"
                } else {
                    "black"
                },
                iccs: engine_core::move_text(m.mv, RankBase::Zero),
                text: notation.format(&m.before, m.mv),
                score: m.score.json(),
                line_iccs: iccs(&m.line),
                line: notation.format_line(&m.before, &m.line),
                depth: m.depth,
                best: line(&m.before, &m.best, notation),
                best_depth: m.best_depth,
                best_shown: m.shows_best(),
                alternative: m.alternative.as_ref().map(|a| line(&m.before, a, notation)),
                loss: m.loss,
                judgement: m.judgement,
            })
            .collect(),
        red: summary(review.summary(engine_core::Color::Red)),
        black: summary(review.summary(engine_core::Color::Black)),
    }
}
