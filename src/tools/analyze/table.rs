//! Analysis as a table for people, moves in the chosen notation and scores from Red's view.
//!
//! A position: its FEN, then one row per line (rank, score, the line). A game: its players, one
//! row per move (number, move, score after it, the engine's best move and its score where the
//! player chose another, the loss, the judgement), then each side's count of inaccuracies,
//! mistakes and blunders and its average loss.

use engine_core::{Color, Notation};
use std::fmt::Write as _;

use super::game_review::{move_number, GameReview};
use super::position_review::PositionReview;
use super::score::pawns;

/// Width of the move columns (Chinese characters count as one, which keeps most terminals'
/// columns close enough).
const MOVE_WIDTH: usize = 9;

/// `text` padded with spaces to `width` characters.
fn pad(text: &str, width: usize) -> String {
    let len = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(len)))
}

/// One position's table.
pub fn write_position(
    out: &mut String,
    review: &PositionReview,
    number: usize,
    notation: Notation,
) {
    let a = &review.analysis;
    let _ = writeln!(out, "Position {number} ({})", review.source);
    let _ = writeln!(out, "FEN {}", review.position.to_fen());
    let _ = writeln!(
        out,
        "{} to move; depth {}, {} nodes, {:.2} s",
        review.position.side_to_move().name(),
        a.depth,
        a.nodes,
        a.millis as f64 / 1000.0
    );
    if a.lines.is_empty() {
        let _ = writeln!(out, "No legal move: {} has lost.", a.side.name());
    }
    for (i, line) in a.lines.iter().enumerate() {
        let moves = notation.format_line(&review.position, &line.pv).join(" ");
        let _ = writeln!(out, "{:>3}  {:>7}  {moves}", i + 1, line.score.to_string());
    }
    out.push('\n');
}

/// One game's table.
pub fn write_game(out: &mut String, review: &GameReview, notation: Notation) {
    let game = &review.game;
    let player = |tag: &str| game.tag(tag).unwrap_or("?").to_string();
    let _ = writeln!(
        out,
        "Game {}: {} - {} {}",
        game.number,
        player("Red"),
        player("Black"),
        game.result.as_deref().unwrap_or("*")
    );
    let _ = writeln!(
        out,
        "{:>5}  {}  {:>7}  {}  {:>7}  {:>6}",
        "move",
        pad("played", MOVE_WIDTH),
        "score",
        pad("best", MOVE_WIDTH),
        "best",
        "loss"
    );
    let first = game.start.side_to_move();
    for m in &review.moves {
        let number = move_number(first, m.ply);
        let label = match m.side {
            Color::Red => format!("{number}."),
            Color::Black => format!("{number}..."),
        };
        let (best, best_score) = if m.is_best() {
            (String::new(), String::new())
        } else {
            (
                notation.format(&m.before, m.best.mv),
                m.best.score.to_string(),
            )
        };
        let mark = m
            .judgement
            .map_or(String::new(), |j| format!("  {} {}", j.symbol(), j.name()));
        let _ = writeln!(
            out,
            "{label:>5}  {}  {:>7}  {}  {best_score:>7}  {:>6}{mark}",
            pad(&notation.format(&m.before, m.mv), MOVE_WIDTH),
            m.score.to_string(),
            pad(&best, MOVE_WIDTH),
            if m.loss > 0 {
                pawns(m.loss)
            } else {
                String::new()
            },
        );
    }
    for side in [Color::Red, Color::Black] {
        let s = review.summary(side);
        let _ = writeln!(
            out,
            "{}: {} moves, {} inaccuracies, {} mistakes, {} blunders, average loss {}",
            side.name(),
            s.moves,
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            pawns(i32::try_from(s.average_loss()).unwrap_or(i32::MAX))
        );
    }
    out.push('\n');
}
