//! PGN text of a finished game: `[Variant "xiangqi"]`, a FEN tag for non-standard starts, ICCS
//! moves (`H2-E2`, ranks 0-9, `[Format "ICCS"]`), the termination with its reason, and a comment
//! per engine move with score/depth and measured time. The scores are each engine's own, from the
//! side that moved (as cutechess writes them), which a first comment says once: `cotuong analyze`
//! writes Red's view, and a reader of both should not have to guess.

use super::game::GameRecord;
use engine_core::pgn::PgnWriter;
use engine_core::{Color, RankBase, START_FEN};

/// Tags that describe the event rather than the game.
#[derive(Clone, Debug)]
pub struct EventInfo {
    /// `Event` tag.
    pub event: String,
    /// `Round` tag, e.g. "3.1".
    pub round: String,
    /// `Date` tag, `YYYY.MM.DD`.
    pub date: String,
    /// `TimeControl` tag for Red and Black (one tag when equal).
    pub time_controls: (String, String),
}

/// The convention of the move comments' scores, stated before the first move.
pub const SCORE_CONVENTION: &str =
    "scores: the view of the side that moved (its engine's own), score/depth, then the time used";

/// ICCS move text: upper-case files, ranks 0-9, a hyphen between the squares.
fn iccs(mv: engine_core::Move) -> String {
    let t = engine_core::move_text(mv, RankBase::Zero).to_ascii_uppercase();
    format!("{}-{}", &t[..2], &t[2..])
}

/// Formats one game as PGN, ending with a blank line.
pub fn format_game(game: &GameRecord, info: &EventInfo) -> String {
    let mut pgn = PgnWriter::new();
    pgn.tag("Event", &info.event);
    pgn.tag("Site", "cotuong match");
    pgn.tag("Date", &info.date);
    pgn.tag("Round", &info.round);
    pgn.tag("White", &game.red);
    pgn.tag("Black", &game.black);
    pgn.tag("Result", game.result.pgn());
    pgn.tag("Variant", "xiangqi");
    pgn.tag("Format", "ICCS");
    let start_fen = game.start.to_fen();
    if start_fen != START_FEN {
        pgn.tag("SetUp", "1");
        pgn.tag("FEN", &start_fen);
    }
    if info.time_controls.0 == info.time_controls.1 {
        pgn.tag("TimeControl", &info.time_controls.0);
    } else {
        pgn.tag("WhiteTimeControl", &info.time_controls.0);
        pgn.tag("BlackTimeControl", &info.time_controls.1);
    }
    pgn.tag("PlyCount", &game.moves.len().to_string());
    pgn.tag("Termination", game.termination.pgn_tag());
    pgn.tag("TerminationDetails", &game.reason);

    // On a line of its own, so that the moves wrap as they did without it.
    if game.moves.iter().any(|m| m.score.is_some()) {
        pgn.comment_on_own_line(SCORE_CONVENTION);
    }
    let mut side = game.start.side_to_move();
    let mut move_number = u32::from(game.start.fullmove_number().max(1));
    for (i, m) in game.moves.iter().enumerate() {
        pgn.move_text(side, move_number, &iccs(m.mv), i == 0);
        if m.book {
            pgn.comment("book");
        } else {
            let score = m.score.map(|s| s.comment());
            let depth = m.depth.map(|d| d.to_string());
            let eval = match (score, depth) {
                (Some(s), Some(d)) => format!("{s}/{d} "),
                (Some(s), None) => format!("{s} "),
                _ => String::new(),
            };
            pgn.comment(&format!("{eval}{:.3}s", m.time.as_secs_f64()));
        }
        if side == Color::Black {
            move_number += 1;
        }
        side = side.opponent();
    }
    pgn.comment(&game.reason);
    pgn.finish(game.result.pgn())
}

/// Today's date in PGN form, computed from the system clock (UTC) without a date library.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::super::game::{PlayedMove, TerminationKind};
    use super::*;
    use crate::tools::match_runner::engines::Score;
    use engine_core::{GameResult, Position};
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn game_text() {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, t) in ["h2e2", "h9g7"].iter().enumerate() {
            let mv = pos.parse_move(t, RankBase::Zero).unwrap();
            pos.make_move(mv);
            moves.push(PlayedMove {
                mv,
                book: i == 0,
                time: Duration::from_millis(12),
                score: Some(Score::Cp(-20)),
                depth: Some(5),
            });
        }
        let game = GameRecord {
            start,
            moves,
            result: GameResult::RedWins,
            termination: TerminationKind::TimeForfeit,
            reason: "Black (b) lost on time".into(),
            red: "a".into(),
            black: "b".into(),
            restart_red: false,
            restart_black: false,
        };
        let info = EventInfo {
            event: "test".into(),
            round: "1".into(),
            date: "2026.01.01".into(),
            time_controls: ("10+0.1".into(), "10+0.1".into()),
        };
        let text = format_game(&game, &info);
        assert!(text.contains("[Variant \"xiangqi\"]"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("[Termination \"time forfeit\"]"));
        assert!(
            text.contains("1. H2-E2 {book} H9-G7 {-0.20/5 0.012s} {Black (b) lost on time} 1-0")
        );
        // The scores' point of view is said once, before the moves.
        assert_eq!(text.matches("the view of the side that moved").count(), 1);
        // The game reader reads it back.
        let read: Vec<_> = engine_core::pgn::read_games(&text, &engine_core::Notation::ALL)
            .collect::<Result<_, _>>()
            .expect("readable");
        assert_eq!(read.len(), 1);
        assert_eq!(
            read[0].move_list(),
            game.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        assert_eq!(read[0].tag("Black"), Some("b"));
        assert_eq!(read[0].comments_before, [SCORE_CONVENTION]);
        assert_eq!(
            read[0].moves[1].comments,
            ["-0.20/5 0.012s", "Black (b) lost on time"]
        );
        assert_eq!(read[0].result.as_deref(), Some("1-0"));
    }
}
