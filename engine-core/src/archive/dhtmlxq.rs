//! DhtmlXQ, the game text of dpxq.com's web boards: fields `[DhtmlXQ_name]value[/DhtmlXQ_name]`
//! inside `[DhtmlXQ]...[/DhtmlXQ]`. `binit` is the board (32 two-digit squares in the order of
//! `archive/board.rs`, `99` for a piece off the board; absent: the initial position), `movelist`
//! the main line as four digits a move; a square is its file (0-8 from Red's left) and its row
//! from Black's side (0-9). `red`, `black`, `event`, `date`, `place`, `round`, `title` and
//! `result` (`红胜`, `黑胜`, `和棋`, ...) name the game. Variations (`move_1_2_3`) are passed over.

use super::board::{game_of, position_of, PIECES};
use super::{ArchiveError, ArchiveFormat};
use crate::pgn::Game;
use crate::square::Square;

/// What every field's name begins with, by which the format is recognised.
pub const TAG_PREFIX: &str = "[DhtmlXQ";

/// The two digits of a piece off the board in `binit`.
const OFF_BOARD: &str = "99";
/// The `binit` of the initial position.
const INITIAL_BINIT: &str = "0919293949596979891777062646668600102030405060708012720323436383";
/// Rows of the board: a row counted from the top is `ROWS - 1 - rank`.
const ROWS: u8 = 10;
/// Digits per square and per move.
const SQUARE_DIGITS: usize = 2;
const MOVE_DIGITS: usize = 2 * SQUARE_DIGITS;

fn error(message: impl Into<String>) -> ArchiveError {
    ArchiveError::new(ArchiveFormat::DhtmlXq, message)
}

/// The value of field `name` (`[DhtmlXQ_name]...[/DhtmlXQ_name]`), trimmed.
fn field<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[DhtmlXQ_{name}]");
    let start = text.find(&open)? + open.len();
    let end = text[start..]
        .find(&format!("[/DhtmlXQ_{name}]"))
        .map_or(text.len(), |e| e + start);
    Some(text[start..end].trim())
}

/// A square written `xy`: file x (0-8), row y from Black's side (0-9).
fn square(digits: &[u8]) -> Option<Square> {
    let (x, y) = (digits.first()?, digits.get(1)?);
    if !x.is_ascii_digit() || !y.is_ascii_digit() {
        return None;
    }
    Square::new(x - b'0', (ROWS - 1).checked_sub(y - b'0')?)
}

/// The result a `result` field names, in Chinese or as a PGN result.
fn result_of(value: &str) -> Option<&'static str> {
    let v = value.trim();
    match v {
        "1-0" => return Some("1-0"),
        "0-1" => return Some("0-1"),
        "1/2-1/2" => return Some("1/2-1/2"),
        _ => {}
    }
    if v.contains("红胜") || v.contains("紅勝") || v.contains("黑负") || v.contains("黑負")
    {
        Some("1-0")
    } else if v.contains("黑胜") || v.contains("黑勝") || v.contains("红负") || v.contains("紅負")
    {
        Some("0-1")
    } else if v.contains('和') {
        Some("1/2-1/2")
    } else {
        None
    }
}

/// Reads a DhtmlXQ text (its first game).
pub fn read(text: &str) -> Result<Game, ArchiveError> {
    if !text.contains(TAG_PREFIX) {
        return Err(error("no [DhtmlXQ...] field"));
    }
    let digits: String = field(text, "movelist")
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if !digits.len().is_multiple_of(MOVE_DIGITS) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error(format!(
            "the movelist is not groups of four digits: '{}'",
            digits.chars().take(24).collect::<String>()
        )));
    }
    let mut line = Vec::with_capacity(digits.len() / MOVE_DIGITS);
    for (i, m) in digits.as_bytes().chunks(MOVE_DIGITS).enumerate() {
        let squares = square(&m[..SQUARE_DIGITS]).zip(square(&m[SQUARE_DIGITS..]));
        let squares = squares.ok_or_else(|| {
            error(format!(
                "move {} ({}) has a square off the board",
                i + 1,
                String::from_utf8_lossy(m)
            ))
        })?;
        line.push(squares);
    }
    let mut pieces: [Option<Square>; PIECES] = [None; PIECES];
    match field(text, "binit").filter(|b| !b.is_empty()) {
        None => fill(&mut pieces, INITIAL_BINIT)?,
        Some(binit) => fill(&mut pieces, binit)?,
    }
    let start = position_of(ArchiveFormat::DhtmlXq, &pieces, line.first().map(|m| m.0))?;
    let tag = |name: &str| field(text, name).unwrap_or("").to_string();
    let event = Some(tag("event"))
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| tag("title"));
    let tags = vec![
        ("Event".to_string(), event),
        ("Site".to_string(), tag("place")),
        ("Date".to_string(), tag("date")),
        ("Round".to_string(), tag("round")),
        ("Red".to_string(), tag("red")),
        ("Black".to_string(), tag("black")),
    ];
    let result = result_of(&tag("result"));
    game_of(ArchiveFormat::DhtmlXq, start, &line, tags, result)
}

/// The squares of a `binit` value.
fn fill(pieces: &mut [Option<Square>; PIECES], binit: &str) -> Result<(), ArchiveError> {
    let b = binit.as_bytes();
    if b.len() != PIECES * SQUARE_DIGITS {
        return Err(error(format!(
            "the binit field has {} characters, not {}",
            b.len(),
            PIECES * SQUARE_DIGITS
        )));
    }
    for (i, sq) in pieces.iter_mut().enumerate() {
        let two = &b[i * SQUARE_DIGITS..(i + 1) * SQUARE_DIGITS];
        *sq = if two == OFF_BOARD.as_bytes() {
            None
        } else {
            Some(square(two).ok_or_else(|| {
                error(format!(
                    "piece {} of binit is on '{}', not a square",
                    i + 1,
                    String::from_utf8_lossy(two)
                ))
            })?)
        };
    }
    Ok(())
}
