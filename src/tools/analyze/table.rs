//! Analysis as a table for people, moves in the chosen notation and scores from Red's view.
//!
//! A position: its FEN, then one row per line (rank, score, the line). A game: its players, one
//! row per move (number, move, its score with the depth of the search, the engine's best move
//! and its score from the same search, or `(played)` when the player found it, the loss of
//! winning chances, the judgement and what became of a mate), each side's accuracy and count of
//! inaccuracies, mistakes and blunders, the result when the game ended on the board, and a
//! diagram of the position before each blunder. Columns are aligned by display width (a Chinese
//! character takes two columns), each headed once.

use engine_core::{Color, Notation, Position};
use std::fmt::Write as _;

use super::accuracy;
use super::board::diagram;
use super::game_review::{move_number, GameReview, MoveReview};
use super::judgement::{percent, Judgement};
use super::position_review::PositionReview;
use super::score::{count, with_depth};
use unicode_width::UnicodeWidthStr;

/// The rows aligned in columns by display width, two spaces apart; `right[i]`: column `i` is
/// aligned to the right (numbers). Trailing spaces are dropped.
fn columns(rows: &[Vec<String>], right: &[bool]) -> Vec<String> {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|t| t.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut line = String::new();
            for (c, text) in r.iter().enumerate() {
                if c > 0 {
                    line.push_str("  ");
                }
                let fill = " ".repeat(widths[c].saturating_sub(text.width()));
                if right.get(c).copied().unwrap_or(false) {
                    line.push_str(&fill);
                    line.push_str(text);
                } else {
                    line.push_str(text);
                    line.push_str(&fill);
                }
            }
            line.trim_end().to_string()
        })
        .collect()
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
    if let Some(result) = a.result_text() {
        let _ = writeln!(out, "The game is over: {result}");
    }
    let mut rows = Vec::new();
    if !a.lines.is_empty() {
        rows.push(vec!["line".into(), "score".into(), "moves".into()]);
    }
    for (i, line) in a.lines.iter().enumerate() {
        let moves = notation.format_line(&review.position, &line.pv).join(" ");
        rows.push(vec![
            (i + 1).to_string(),
            with_depth(line.score, a.depth),
            moves,
        ]);
    }
    for line in columns(&rows, &[true, true, false]) {
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');
}

/// The score convention of every game output, stated once at its top.
pub const CONVENTION: &str = "Scores from Red's view: pawns (+0.35/12: score/depth), #3 Red \
     mates in 3, #-3 Black does; loss: the drop of the mover's winning chances (expected \
     score) from the engine's best move, in percentage points.";

/// `Game 1: Red player - Black player 1-0`, the players named by `[Red]` (else `[White]`) and
/// `[Black]`.
pub fn game_heading(review: &GameReview) -> String {
    let game = &review.game;
    format!(
        "Game {}: {} - {} {}",
        game.number,
        review.red_name(),
        review.black_name(),
        game.result.as_deref().unwrap_or("*")
    )
}

/// One game's table; board diagrams in letters if `ascii`.
pub fn write_game(out: &mut String, review: &GameReview, notation: Notation, ascii: bool) {
    let game = &review.game;
    let _ = writeln!(out, "{}", game_heading(review));
    let mut rows: Vec<Vec<String>> = vec![[
        "move",
        "played",
        "score",
        "best",
        "best score",
        "loss",
        "judgement",
    ]
    .map(String::from)
    .to_vec()];
    let first = &game.start;
    for m in &review.moves {
        let (best, best_score) = if m.found_best() {
            (FOUND_BEST.to_string(), String::new())
        } else {
            (
                notation.format(&m.before, m.best.mv),
                with_depth(m.best.score, m.depth),
            )
        };
        rows.push(vec![
            move_label(first, m),
            notation.format(&m.before, m.mv),
            with_depth(m.score, m.depth),
            best,
            best_score,
            if percent(m.drop) == percent(0) {
                String::new()
            } else {
                percent(m.drop)
            },
            verdict_text(m),
        ]);
    }
    for line in columns(&rows, &[true, false, true, false, true, true, false]) {
        let _ = writeln!(out, "{line}");
    }
    for side in [Color::Red, Color::Black] {
        let _ = writeln!(out, "{}", summary_line(review, side));
    }
    if let Some(result) = &review.result {
        let _ = writeln!(out, "The game is over: {result}");
    }
    for m in review
        .moves
        .iter()
        .filter(|m| m.judgement == Some(Judgement::Blunder))
    {
        let _ = writeln!(out, "\n{}", blunder_heading(first, m, notation));
        for line in diagram(&m.before, ascii) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push('\n');
}

/// What the best column says when the player found the engine's best move.
pub const FOUND_BEST: &str = "(played)";

/// `?? blunder, allows mate in 2`: the judgement and what became of a mate, either or both.
pub fn verdict_text(m: &MoveReview) -> String {
    let judgement = m.judgement.map(|j| format!("{} {}", j.symbol(), j.name()));
    let mate = m.mate.map(|n| n.to_string());
    [judgement, mate]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

/// `5.` for Red's fifth move, `5...` for Black's.
pub fn move_label(start: &Position, m: &MoveReview) -> String {
    let number = move_number(start, m.ply);
    match m.side {
        Color::Red => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

/// `Before 5. 车二平三?? (loses 35%; best 马八进七 +0.30/8):`, above a blunder's diagram.
pub fn blunder_heading(start: &Position, m: &MoveReview, notation: Notation) -> String {
    let mut text = format!(
        "Before {} {}{} (loses {}",
        move_label(start, m),
        notation.format(&m.before, m.mv),
        m.judgement.map_or("", |j| j.symbol()),
        percent(m.drop)
    );
    if let Some(note) = m.mate {
        let _ = write!(text, ", {note}");
    }
    if !m.found_best() {
        let _ = write!(
            text,
            "; best {} {}",
            notation.format(&m.before, m.best.mv),
            with_depth(m.best.score, m.depth)
        );
    }
    text.push_str("):");
    text
}

/// `Red (Xu Yinchuan): 30 moves, accuracy 93.4%, 2 inaccuracies, 1 mistake, 0 blunders`.
pub fn summary_line(review: &GameReview, side: Color) -> String {
    let name = match side {
        Color::Red => review.red_name(),
        Color::Black => review.black_name(),
    };
    let label = if name == side.name() {
        side.name().to_string()
    } else {
        format!("{} ({name})", side.name())
    };
    format!(
        "{label}: {}, {}",
        count(review.summary(side).moves, "move", "moves"),
        judgement_counts(review, side)
    )
}

/// `accuracy 93.4%, 2 inaccuracies, 1 mistake, 0 blunders`: one side's accuracy and
/// judgements.
pub fn judgement_counts(review: &GameReview, side: Color) -> String {
    let s = review.summary(side);
    let accuracy = s.accuracy.map_or_else(|| "-".to_string(), accuracy::text);
    format!(
        "accuracy {accuracy}, {}, {}, {}",
        count(s.inaccuracies, "inaccuracy", "inaccuracies"),
        count(s.mistakes, "mistake", "mistakes"),
        count(s.blunders, "blunder", "blunders"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_by_display_width() {
        let rows = vec![
            vec![
                "1.".to_string(),
                "炮二平五".to_string(),
                "+0.30".to_string(),
            ],
            vec!["1...".to_string(), "h9g7".to_string(), "-0.05".to_string()],
        ];
        let lines = columns(&rows, &[true, false, true]);
        assert_eq!(lines[0], "  1.  炮二平五  +0.30");
        assert_eq!(lines[1], "1...  h9g7      -0.05");
        assert_eq!(lines[0].width(), lines[1].width());
    }
}
