//! PGN text written: [`PgnWriter`] takes a game's tags and its movetext (numbered moves, NAGs,
//! comments, variations, the result) and writes it in the export format: the Seven Tag Roster
//! first, values escaped, a blank line, the movetext wrapped. The reader shares the escaping.

use crate::{Color, Notation};
use std::fmt::Write;

/// Longest movetext line of the PGN export format.
const EXPORT_LINE_WIDTH: usize = 79;

/// The tags that come first, in this order (xiangqi games name the first player `Red` as often
/// as `White`).
const SEVEN_TAG_ROSTER: [&[&str]; 7] = [
    &["Event"],
    &["Site"],
    &["Date"],
    &["Round"],
    &["White", "Red"],
    &["Black"],
    &["Result"],
];

/// One game's PGN text as it is built: tags in any order, movetext in order.
#[derive(Clone, Debug, Default)]
pub struct PgnWriter {
    /// Tag names and values, as given.
    tags: Vec<(String, String)>,
    /// Movetext already set down: wrapped lines, and comments that keep their own lines.
    finished_lines: String,
    /// Movetext to wrap, its tokens separated by spaces.
    movetext: String,
}

impl PgnWriter {
    /// A game with no tags and no moves yet.
    pub fn new() -> PgnWriter {
        PgnWriter::default()
    }

    /// The tag `[name "value"]`.
    pub fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    /// The `Format` tag naming the notation the moves are written in (the reader's hint).
    pub fn format_tag(&mut self, notation: Notation) {
        let name = match notation {
            Notation::Iccs(_) => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::Vietnamese => "Vietnamese",
            Notation::VietnameseAsian => "Vietnamese-Asian",
            Notation::San(_) => "SAN",
        };
        self.tag("Format", name);
    }

    /// A move by `side` in move pair `number`: Red's move carries the number (`5.`), Black's
    /// only when `number_black` (`5...`: the first move of a line, or one after a comment).
    pub fn move_text(&mut self, side: Color, number: u32, text: &str, number_black: bool) {
        match side {
            Color::Red => {
                let _ = write!(self.movetext, "{number}. ");
            }
            Color::Black if number_black => {
                let _ = write!(self.movetext, "{number}... ");
            }
            Color::Black => {}
        }
        self.movetext.push_str(text);
        self.movetext.push(' ');
    }

    /// Moves played in turn, the first by `side` in move pair `number`, numbered as a line
    /// without comments.
    pub fn line<S: AsRef<str>>(&mut self, side: Color, number: u32, moves: &[S]) {
        let (mut side, mut number) = (side, number);
        for (i, text) in moves.iter().enumerate() {
            self.move_text(side, number, text.as_ref(), i == 0);
            if side == Color::Black {
                number += 1;
            }
            side = side.opponent();
        }
    }

    /// A numeric annotation glyph (`$4`) for the move before it.
    pub fn nag(&mut self, nag: u8) {
        let _ = write!(self.movetext, "${nag} ");
    }

    /// A comment, `{text}`; braces in `text` are dropped, as they would end it.
    pub fn comment(&mut self, text: &str) {
        let _ = write!(self.movetext, "{} ", braced(text));
    }

    /// A comment on a line of its own, its text not wrapped (a diagram keeps its lines): the
    /// movetext before it is wrapped and ended.
    pub fn comment_on_own_line(&mut self, text: &str) {
        if !self.movetext.is_empty() {
            self.finished_lines
                .push_str(&wrap(&self.movetext, EXPORT_LINE_WIDTH));
            self.finished_lines.push('\n');
            self.movetext.clear();
        }
        let _ = writeln!(self.finished_lines, "{}", braced(text));
    }

    /// Opens a variation: the moves up to [`PgnWriter::close_variation`] are an alternative to
    /// the move before it.
    pub fn open_variation(&mut self) {
        self.movetext.push('(');
    }

    /// Closes the variation opened last.
    pub fn close_variation(&mut self) {
        let kept = self.movetext.trim_end().len();
        self.movetext.truncate(kept);
        self.movetext.push_str(") ");
    }

    /// The game's text, the movetext ending with `result` (`1-0`, `*`), then a blank line.
    pub fn finish(mut self, result: &str) -> String {
        let roster_place = |name: &str| {
            SEVEN_TAG_ROSTER
                .iter()
                .position(|names| names.contains(&name))
                .unwrap_or(SEVEN_TAG_ROSTER.len())
        };
        // A stable sort: the other tags keep the order they were given in.
        self.tags.sort_by_key(|(name, _)| roster_place(name));
        let mut out = String::new();
        for (name, value) in &self.tags {
            write_tag(&mut out, name, value);
        }
        out.push('\n');
        out.push_str(&self.finished_lines);
        self.movetext.push_str(result);
        out.push_str(&wrap(&self.movetext, EXPORT_LINE_WIDTH));
        out.push_str("\n\n");
        out
    }
}

/// `text` as a comment, without the braces that would end it early.
fn braced(text: &str) -> String {
    format!("{{{}}}", text.replace(['{', '}'], ""))
}

/// A tag value with `\` and `"` escaped, ready to stand between quotes.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The inverse of [`escape`]: `\"` and `\\` read as `"` and `\`; any other backslash is kept.
pub(super) fn unescape(quoted: &str) -> String {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n @ ('"' | '\\')) => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Appends the tag line `[Name "value"]` and a newline to `out`.
fn write_tag(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
}

/// Wraps `text` at spaces into lines of at most `width` characters (a longer word stands alone
/// on its line); runs of spaces collapse to one.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_round_trips() {
        for v in [
            "plain",
            "say \"hi\"",
            "back\\slash",
            "\\\"",
            "炮二平五",
            "end\\",
        ] {
            assert_eq!(unescape(&escape(v)), v);
        }
        assert_eq!(unescape("a\\nb"), "a\\nb");
        let mut s = String::new();
        write_tag(&mut s, "Event", "a \"b\"");
        assert_eq!(s, "[Event \"a \\\"b\\\"\"]\n");
    }

    #[test]
    fn tags_come_in_the_standard_order_escaped() {
        let mut pgn = PgnWriter::new();
        pgn.tag("Variant", "xiangqi");
        pgn.tag("Result", "1-0");
        pgn.tag("Black", "b");
        pgn.tag("Red", "a \"the first\"");
        pgn.tag("Event", "e");
        pgn.format_tag(Notation::Chinese);
        assert_eq!(
            pgn.finish("1-0"),
            "[Event \"e\"]\n[Red \"a \\\"the first\\\"\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
             [Variant \"xiangqi\"]\n[Format \"Chinese\"]\n\n1-0\n\n"
        );
    }

    #[test]
    fn movetext_numbers_comments_variations_and_the_result() {
        let mut pgn = PgnWriter::new();
        pgn.tag("Event", "e");
        pgn.comment("before {the} moves");
        pgn.line(Color::Black, 5, &["a", "b", "c"]);
        pgn.nag(4);
        pgn.open_variation();
        pgn.move_text(Color::Red, 6, "d", true);
        pgn.comment("why");
        pgn.close_variation();
        pgn.move_text(Color::Black, 6, "e", true);
        pgn.comment_on_own_line("\nkept\nlines\n");
        pgn.move_text(Color::Red, 7, "f", false);
        pgn.move_text(Color::Black, 7, "g", false);
        assert_eq!(
            pgn.finish("*"),
            "[Event \"e\"]\n\n{before the moves} 5... a 6. b c $4 (6. d {why}) 6... e\n\
             {\nkept\nlines\n}\n7. f g *\n\n"
        );
    }

    #[test]
    fn movetext_wraps_at_the_export_width() {
        let mut pgn = PgnWriter::new();
        let moves = vec!["h2e2"; 40];
        pgn.line(Color::Red, 1, &moves);
        let text = pgn.finish("*");
        let movetext: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
        assert!(movetext.len() > 1, "{text}");
        assert!(
            movetext.iter().all(|l| l.len() <= EXPORT_LINE_WIDTH),
            "{text}"
        );
        assert!(movetext[1].len() > EXPORT_LINE_WIDTH - 10, "{text}");
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap("a bb  ccc dddd", 6), "a bb\nccc\ndddd");
        assert_eq!(wrap("炮二平五 马8进7", 9), "炮二平五 马8进7");
        assert_eq!(wrap("炮二平五 马8进7", 8), "炮二平五\n马8进7");
        assert_eq!(wrap("", 10), "");
    }
}
