//! CBF, CCBridge's XML game file: `<ChineseChessRecord>` holding a `<Head>` of named fields
//! (`<Red>`, `<Black>`, `<Contest>`, `<Date>`, `<FEN>`, ...) and a `<MoveList>` of
//! `<Move value="77-47"/>` elements, the first being the start position's (`00-00`). A square
//! is its file (0-8 from Red's left) and its row counted from Black's side (0-9).
//!
//! The XML is read by a small scanner of just these elements, so that engine-core needs no XML
//! library: elements, attributes in either quote, the five predefined entities and numeric
//! character references. The result field is not read: what its codes mean is not published.

use super::board::game_of;
use super::{ArchiveError, ArchiveFormat};
use crate::pgn::Game;
use crate::position::Position;
use crate::square::Square;

/// The root element's opening, by which the format is recognised.
pub const ROOT_ELEMENT: &str = "<ChineseChessRecord";

/// Rows of the board: a row counted from the top is `ROWS - 1 - rank`.
const ROWS: u8 = 10;

fn error(message: impl Into<String>) -> ArchiveError {
    ArchiveError::new(ArchiveFormat::Cbf, message)
}

/// Text with the XML entities and character references replaced.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text inside the first `<name>...</name>` of `xml` (`None` for `<name/>` or none).
fn element_text<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))? + start;
    Some(&xml[start..end])
}

/// The value of attribute `name` inside an element's opening tag `tag`.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(at) = rest.find(name) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_whitespace);
        let after = rest[at + name.len()..].trim_start();
        if before_ok {
            if let Some(value) = after.strip_prefix('=') {
                let value = value.trim_start();
                let quote = value.chars().next()?;
                if quote == '"' || quote == '\'' {
                    let inner = &value[1..];
                    return inner.find(quote).map(|end| &inner[..end]);
                }
            }
        }
        rest = &rest[at + name.len()..];
    }
    None
}

/// A square written `xy`: file x (0-8) and row y from Black's side (0-9).
fn square(text: &[u8]) -> Option<Square> {
    let (x, y) = (text.first()?, text.get(1)?);
    if !x.is_ascii_digit() || !y.is_ascii_digit() {
        return None;
    }
    Square::new(x - b'0', (ROWS - 1).checked_sub(y - b'0')?)
}

/// A move written `xy-xy`.
fn move_squares(value: &str) -> Option<(Square, Square)> {
    let b = value.trim().as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    Some((square(&b[0..2])?, square(&b[3..5])?))
}

/// Reads a CBF file's text.
pub fn read(text: &str) -> Result<Game, ArchiveError> {
    let root_at = text
        .find(ROOT_ELEMENT)
        .ok_or_else(|| error(format!("no {ROOT_ELEMENT}> element")))?;
    let xml = &text[root_at..];
    let head = element_text(xml, "Head").unwrap_or("");
    let field = |name: &str| {
        element_text(head, name)
            .map(|t| unescape(t).trim().to_string())
            .unwrap_or_default()
    };
    let start = match field("FEN") {
        fen if fen.is_empty() => Position::startpos(),
        fen => Position::from_fen(&fen).map_err(|e| error(format!("bad FEN '{fen}': {e}")))?,
    };
    let moves = element_text(xml, "MoveList").ok_or_else(|| error("no <MoveList> element"))?;
    let mut line = Vec::new();
    let mut rest = moves;
    let mut index = 0;
    while let Some(at) = rest.find("<Move") {
        let tag_end = rest[at..]
            .find('>')
            .ok_or_else(|| error("a <Move> element is not closed"))?
            + at;
        let tag = &rest[at..tag_end];
        rest = &rest[tag_end..];
        // `<MoveList>` itself was cut off; skip lookalikes such as `<MoveNote>`.
        if !tag[5..].starts_with(|c: char| c.is_whitespace() || c == '/') {
            continue;
        }
        index += 1;
        let value = attribute(tag, "value")
            .ok_or_else(|| error(format!("<Move> {index} has no value attribute")))?;
        // The first element stands for the start position.
        if index == 1 {
            continue;
        }
        let squares = move_squares(value).ok_or_else(|| {
            error(format!(
                "move {} has the value '{value}' (expected two squares like 77-47)",
                index - 1
            ))
        })?;
        line.push(squares);
    }
    let event = Some(field("Contest"))
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| field("Name"));
    let tags = vec![
        ("Event".to_string(), event),
        ("Site".to_string(), field("Site")),
        ("Date".to_string(), field("Date")),
        ("Round".to_string(), field("Round")),
        ("Red".to_string(), field("Red")),
        ("Black".to_string(), field("Black")),
    ];
    game_of(ArchiveFormat::Cbf, start, &line, tags, None)
}
