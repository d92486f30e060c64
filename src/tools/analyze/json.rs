//! Analysis as JSON for tools: one object with the settings and either `positions`
//! ([`Document`]) or `games` ([`GamesDocument`]).
//! Moves are given twice, in ICCS (`h2e2`, ranks 0-9) and in the chosen notation; scores from
//! Red's view as `{"cp": N}` (100 to a pawn) or `{"mate": N, "winner": "red"|"black"}`; losses as
//! the drop of the mover's winning chances in percentage points, accuracies in percent. The
//! document's `convention` field says so.

use engine_core::{Move, Notation, Position, RankBase};
use serde::Serialize;

use super::analyst::Line;
use super::game_review::{GameReview, SideSummary};
use super::judgement::{Judgement, Thresholds};
use super::mate_note::MateNote;
use super::position_review::PositionReview;
use super::score::JsonScore;
use super::table::CONVENTION;
use super::test_suite::SuiteScore;
use super::winning_chances::points;

/// The settings that open both documents.
#[derive(Serialize)]
pub struct Header {
    /// The engine.
    pub engine: &'static str,
    /// The limits per position, as text.
    pub limits: String,
    /// The notation of the `text` fields.
    pub notation: &'static str,
    /// How scores and losses are given.
    pub convention: &'static str,
    /// The judgement thresholds (percentage points of the mover's expected score).
    pub thresholds: Thresholds,
}

impl Header {
    /// This engine's header for `limits` (as text), moves in `notation`, judged by `thresholds`.
    pub fn new(limits: String, notation: Notation, thresholds: Thresholds) -> Header {
        Header {
            engine: cotuong::engine::ENGINE_NAME,
            limits,
            notation: notation.name(),
            convention: CONVENTION,
            thresholds,
        }
    }
}

/// The whole document.
#[derive(Serialize)]
pub struct Document {
    /// The settings.
    #[serde(flatten)]
    pub header: Header,
    /// The positions analyzed.
    pub positions: Vec<JsonPosition>,
    /// The test suite's score, when positions name best moves or moves to avoid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite: Option<SuiteScore>,
}

/// The document of a review of games, written as they finish.
#[derive(Serialize)]
pub struct GamesDocument<'a> {
    /// The settings.
    #[serde(flatten)]
    pub header: Header,
    /// The games reviewed (see [`JsonGame`]), in the order of the input.
    pub games: &'a [serde_json::Value],
    /// Whether the review was interrupted before the last game (`--resume` continues it).
    pub interrupted: bool,
    /// How many games the input selects.
    pub games_selected: usize,
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
    /// Its score (Red's view), from the search that scored `best` too.
    pub score: JsonScore,
    /// The line it starts, as that search sees it (ICCS).
    pub line_iccs: Vec<String>,
    /// The same line in the chosen notation.
    pub line: Vec<String>,
    /// Depth of that search.
    pub depth: i32,
    /// Whether the player found the engine's best move (then `best` scores as `score`).
    pub found_best: bool,
    /// The engine's best line in the position the move was played in; never scores below the
    /// move played.
    pub best: JsonLine,
    /// The best line not starting with the move played, if searched.
    pub alternative: Option<JsonLine>,
    /// The drop of the mover's winning chances from `best` to this move (percentage points,
    /// never negative).
    pub loss: f64,
    /// The move's accuracy (percent).
    pub accuracy: f64,
    /// `inaccuracy`, `mistake`, `blunder` or null.
    pub judgement: Option<Judgement>,
    /// What became of a forced mate: `{"kind": "missed"|"allows", "moves": N}` or
    /// `{"kind": "changed", "from": N, "to": M}`; null without one.
    pub mate: Option<MateNote>,
}

/// One side's summary.
#[derive(Serialize)]
pub struct JsonSummary {
    /// The player (`[Red]` or `[White]`, `[Black]`), if named.
    pub player: Option<String>,
    /// Moves played.
    pub moves: usize,
    /// Accuracy over the moves (percent; null without moves).
    pub accuracy: Option<f64>,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
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
    /// The start position's score, then each move's (Red's view).
    pub scores: Vec<JsonScore>,
    /// Depth of the search behind each of those scores.
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

/// A percentage to one decimal, as people read it.
fn tenths(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn summary(player: Option<&str>, s: SideSummary) -> JsonSummary {
    JsonSummary {
        player: player.map(str::to_string),
        moves: s.moves,
        accuracy: s.accuracy.map(tenths),
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
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
                found_best: m.found_best(),
                best: line(&m.before, &m.best, notation),
                alternative: m.alternative.as_ref().map(|a| line(&m.before, a, notation)),
                loss: points(m.drop),
                accuracy: tenths(m.accuracy),
                judgement: m.judgement,
                mate: m.mate,
            })
            .collect(),
        red: summary(g.red_player(), review.summary(engine_core::Color::Red)),
        black: summary(g.black_player(), review.summary(engine_core::Color::Black)),
    }
}
