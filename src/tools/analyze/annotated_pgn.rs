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

use engine_core::pgn::PgnWriter;
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

/// Moves `moves` played from `pos` as a line in `pgn`, numbered from `number` (the number of
/// the first move pair).
fn numbered_line(
    pgn: &mut PgnWriter,
    pos: &Position,
    moves: &[Move],
    notation: Notation,
    number: u32,
) {
    pgn.line(
        pos.side_to_move(),
        number,
        &notation.format_line(pos, moves),
    );
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
    text
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
    let mut pgn = PgnWriter::new();
    for (name, value) in &game.tags {
        let ours = [
            "Format",
            "Annotator",
            "Variant",
            RED_ACCURACY_TAG,
            BLACK_ACCURACY_TAG,
        ];
        if !ours.iter().any(|t| name.eq_ignore_ascii_case(t)) {
            pgn.tag(name, value);
        }
    }
    pgn.tag("Variant", "xiangqi");
    pgn.format_tag(notation);
    pgn.tag("Annotator", annotator);
    for (tag, side) in [
        (RED_ACCURACY_TAG, Color::Red),
        (BLACK_ACCURACY_TAG, Color::Black),
    ] {
        if let Some(a) = review.summary(side).accuracy {
            pgn.tag(tag, &accuracy::text(a));
        }
    }
    let first = &game.start;
    pgn.comment(CONVENTION);
    for c in &game.comments_before {
        pgn.comment(c);
    }
    for (m, record) in review.moves.iter().zip(&game.moves) {
        let number = move_number(first, m.ply);
        if m.judgement == Some(Judgement::Blunder) {
            let board = diagram(&m.before, ascii).join("\n");
            pgn.comment_on_own_line(&format!("\n{board}\n"));
        }
        // Every move ends with a comment, so Black's moves are numbered too.
        pgn.move_text(m.side, number, &notation.format(&m.before, m.mv), true);
        let mut nags = record.nags.clone();
        if let Some(j) = m.judgement {
            if !nags.contains(&j.nag()) {
                nags.push(j.nag());
            }
        }
        for nag in nags {
            pgn.nag(nag);
        }
        for c in &record.comments {
            pgn.comment(c);
        }
        pgn.comment(&move_comment(m, notation));
        if m.judgement.is_some() {
            pgn.open_variation();
            numbered_line(&mut pgn, &m.before, &m.best.pv, notation, number);
            pgn.comment(&best_comment(&m.best, m.depth));
            pgn.close_variation();
        }
    }
    pgn.comment(&summary(review));
    if let Some(result) = &review.result {
        pgn.comment(&format!("the game is over: {result}"));
    }
    out.push_str(&pgn.finish(game.result.as_deref().unwrap_or("*")));
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
    let mut pgn = PgnWriter::new();
    pgn.tag("Event", &format!("Analysis of position {number}"));
    pgn.tag("Site", &review.source);
    pgn.tag("Result", "*");
    pgn.tag("SetUp", "1");
    pgn.tag("FEN", &review.position.to_fen());
    pgn.tag("Variant", "xiangqi");
    pgn.format_tag(notation);
    pgn.tag("Annotator", annotator);
    let pos = &review.position;
    let depth = review.analysis.depth;
    let number = u32::from(pos.fullmove_number().max(1));
    let mut lines = review.analysis.lines.iter();
    if let Some(first) = lines.next() {
        let own = |l: &Line| with_depth(l.score, depth);
        // The rest of a line after its first move, numbered from the reply on.
        let rest = |pgn: &mut PgnWriter, l: &Line| {
            let mut after = pos.clone();
            after.make_move(l.mv);
            let moves = l.pv.get(1..).unwrap_or(&[]);
            numbered_line(pgn, &after, moves, notation, next_number(pos, number));
        };
        numbered_line(
            &mut pgn,
            pos,
            std::slice::from_ref(&first.mv),
            notation,
            number,
        );
        pgn.comment(&own(first));
        for other in lines {
            pgn.open_variation();
            numbered_line(
                &mut pgn,
                pos,
                std::slice::from_ref(&other.mv),
                notation,
                number,
            );
            pgn.comment(&own(other));
            rest(&mut pgn, other);
            pgn.close_variation();
        }
        rest(&mut pgn, first);
    } else {
        let result = review.analysis.result_text().unwrap_or_default();
        pgn.comment(&format!("the game is over: {result}"));
    }
    out.push_str(&pgn.finish("*"));
}

/// The move number after the side to move in `pos` has moved, for a game at move `number`.
fn next_number(pos: &Position, number: u32) -> u32 {
    if pos.side_to_move() == Color::Black {
        number + 1
    } else {
        number
    }
}
