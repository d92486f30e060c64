//! Analysis as PGN that any PGN reader (ours included) reads back.
//!
//! A game keeps its tags (the `Format` tag names the notation written, an `Annotator` tag names
//! the engine and its limits, and `[Variant "xiangqi"]` tells chess-minded readers what game
//! this is), its comments and NAGs; `[RedAccuracy]` and `[BlackAccuracy]` tags give each side's
//! accuracy, and a first comment states the score convention. Every move gets a comment with its
//! score (Red's view) and the search depth, `{+0.35/12}`, then `best` when the player found the
//! engine's best move, else that move and its score from the same search (`best R9.1
//! +0.40/12`), written as the table and the JSON write them. A judged move gets its NAG (`$6`
//! inaccuracy, `$2` mistake, `$4` blunder), the judgement and its loss of winning chances in the
//! comment, and the engine's best line as a variation; a move that missed or allowed a mate says
//! so; a blunder is preceded by a comment holding a diagram of the position before it. The game
//! ends with each side's summary and, when the game ended on the board, its result.
//!
//! A position becomes a game from its FEN: the best line as the main line, the other lines as
//! variations of its first move, each first move with its score and depth.

use engine_core::pgn::write::{wrap, write_tag, EXPORT_LINE_WIDTH};
use engine_core::{Color, Move, Notation, Position};
use std::fmt::Write as _;

use super::accuracy;
use super::analyst::Line;
use super::board::diagram;
use super::game_review::{move_number, GameReview, MoveReview};
use super::judgement::{percent, Judgement};
use super::position_review::PositionReview;
use super::score::with_depth;
use super::table::{judgement_counts, CONVENTION};

/// The `Format` tag value of a notation (read back by the PGN reader's detection).
pub fn format_tag(notation: Notation) -> &'static str {
    match notation {
        Notation::Iccs(_) => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
        Notation::Vietnamese => "Vietnamese",
        Notation::VietnameseAsian => "Vietnamese-Asian",
        Notation::San(_) => "SAN",
    }
}

/// Movetext of `moves` played from `pos`, numbered from `number` (the number of the first move
/// pair), with the `N...` form when Black moves first.
fn numbered_line(pos: &Position, moves: &[Move], notation: Notation, number: u32) -> String {
    let mut out = String::new();
    let mut side = pos.side_to_move();
    let mut number = number;
    for (i, text) in notation.format_line(pos, moves).into_iter().enumerate() {
        match side {
            Color::Red => {
                let _ = write!(out, "{number}. ");
            }
            Color::Black if i == 0 => {
                let _ = write!(out, "{number}... ");
            }
            Color::Black => {}
        }
        out.push_str(&text);
        out.push(' ');
        if side == Color::Black {
            number += 1;
        }
        side = side.opponent();
    }
    out.trim_end().to_string()
}

/// A comment's text without braces (which would end it).
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace(['{', '}'], ""))
}

/// The comment of a reviewed move.
fn move_comment(m: &MoveReview, notation: Notation) -> String {
    let mut text = with_depth(m.score, m.depth);
    if let Some(j) = m.judgement {
        let _ = write!(text, " {} (loses {})", j.name(), percent(m.drop));
    }
    if let Some(note) = m.mate {
        let _ = write!(text, ", {note}");
    }
    if m.found_best() {
        text.push_str(" best");
    } else {
        let _ = write!(
            text,
            "; best {} {}",
            notation.format(&m.before, m.best.mv),
            with_depth(m.best.score, m.depth)
        );
    }
    comment(&text)
}

/// One game's annotated PGN; board diagrams in letters if `ascii`.
pub fn write_game(
    out: &mut String,
    review: &GameReview,
    notation: Notation,
    annotator: &str,
    ascii: bool,
) {
    let game = &review.game;
    for (name, value) in &game.tags {
        let ours = [
            "Format",
            "Annotator",
            "Variant",
            RED_ACCURACY_TAG,
            BLACK_ACCURACY_TAG,
        ];
        if !ours.iter().any(|t| name.eq_ignore_ascii_case(t)) {
            write_tag(out, name, value);
        }
    }
    write_tag(out, "Variant", "xiangqi");
    write_tag(out, "Format", format_tag(notation));
    write_tag(out, "Annotator", annotator);
    for (tag, side) in [
        (RED_ACCURACY_TAG, Color::Red),
        (BLACK_ACCURACY_TAG, Color::Black),
    ] {
        if let Some(a) = review.summary(side).accuracy {
            write_tag(out, tag, &accuracy::text(a));
        }
    }
    out.push('\n');
    let first = &game.start;
    let mut text = format!("{} ", comment(CONVENTION));
    for c in &game.comments_before {
        let _ = write!(text, "{} ", comment(c));
    }
    for (m, record) in review.moves.iter().zip(&game.moves) {
        let number = move_number(first, m.ply);
        if m.judgement == Some(Judgement::Blunder) {
            // The diagram keeps its lines: the text so far is wrapped, the comment written
            // as it is.
            out.push_str(&wrap(&text, EXPORT_LINE_WIDTH));
            out.push('\n');
            text.clear();
            let board = diagram(&m.before, ascii).join("\n");
            let _ = writeln!(out, "{}", comment(&format!("\n{board}\n")));
        }
        // Every move ends with a comment, so Black's moves are numbered too.
        match m.side {
            Color::Red => {
                let _ = write!(text, "{number}. ");
            }
            Color::Black => {
                let _ = write!(text, "{number}... ");
            }
        }
        text.push_str(&notation.format(&m.before, m.mv));
        let mut nags = record.nags.clone();
        if let Some(j) = m.judgement {
            if !nags.contains(&j.nag()) {
                nags.push(j.nag());
            }
        }
        for nag in nags {
            let _ = write!(text, " ${nag}");
        }
        for c in &record.comments {
            let _ = write!(text, " {}", comment(c));
        }
        let _ = write!(text, " {}", move_comment(m, notation));
        if m.judgement.is_some() {
            let best = numbered_line(&m.before, &m.best.pv, notation, number);
            let _ = write!(
                text,
                " ({best} {})",
                comment(&best_comment(&m.best, m.depth))
            );
        }
        text.push(' ');
    }
    let _ = write!(text, "{} ", comment(&summary(review)));
    if let Some(result) = &review.result {
        let _ = write!(text, "{} ", comment(&format!("the game is over: {result}")));
    }
    text.push_str(game.result.as_deref().unwrap_or("*"));
    out.push_str(&wrap(&text, EXPORT_LINE_WIDTH));
    out.push_str("\n\n");
}

/// The tags of each side's accuracy.
const RED_ACCURACY_TAG: &str = "RedAccuracy";
/// See [`RED_ACCURACY_TAG`].
const BLACK_ACCURACY_TAG: &str = "BlackAccuracy";

/// Each side's accuracy, inaccuracies, mistakes and blunders, for the end of the game.
fn summary(review: &GameReview) -> String {
    [Color::Red, Color::Black]
        .map(|side| format!("{}: {}", side.name(), judgement_counts(review, side)))
        .join("; ")
}

/// The comment closing a best line in a variation.
fn best_comment(best: &Line, depth: i32) -> String {
    with_depth(best.score, depth)
}

/// One position's analysis as a PGN game.
pub fn write_position(
    out: &mut String,
    review: &PositionReview,
    number: usize,
    notation: Notation,
    annotator: &str,
) {
    write_tag(out, "Event", &format!("Analysis of position {number}"));
    write_tag(out, "Site", &review.source);
    write_tag(out, "Result", "*");
    write_tag(out, "SetUp", "1");
    write_tag(out, "FEN", &review.position.to_fen());
    write_tag(out, "Variant", "xiangqi");
    write_tag(out, "Format", format_tag(notation));
    write_tag(out, "Annotator", annotator);
    out.push('\n');
    let pos = &review.position;
    let depth = review.analysis.depth;
    let number = u32::from(pos.fullmove_number().max(1));
    let mut text = String::new();
    let mut lines = review.analysis.lines.iter();
    if let Some(first) = lines.next() {
        let own = |l: &Line| comment(&with_depth(l.score, depth));
        // The rest of a line after its first move, numbered from the reply on.
        let rest = |l: &Line| {
            let mut after = pos.clone();
            after.make_move(l.mv);
            let moves = l.pv.get(1..).unwrap_or(&[]);
            numbered_line(&after, moves, notation, next_number(pos, number))
        };
        let first_move = numbered_line(pos, std::slice::from_ref(&first.mv), notation, number);
        let _ = write!(text, "{first_move} {} ", own(first));
        for other in lines {
            let line = numbered_line(pos, std::slice::from_ref(&other.mv), notation, number);
            let _ = write!(text, "({line} {} {}) ", own(other), rest(other));
        }
        let main_rest = rest(first);
        if !main_rest.is_empty() {
            let _ = write!(text, "{main_rest} ");
        }
    } else {
        let result = review.analysis.result_text().unwrap_or_default();
        let _ = write!(text, "{} ", comment(&format!("the game is over: {result}")));
    }
    text.push('*');
    out.push_str(&wrap(&text, EXPORT_LINE_WIDTH));
    out.push_str("\n\n");
}

/// The move number after the side to move in `pos` has moved, for a game at move `number`.
fn next_number(pos: &Position, number: u32) -> u32 {
    if pos.side_to_move() == Color::Black {
        number + 1
    } else {
        number
    }
}
