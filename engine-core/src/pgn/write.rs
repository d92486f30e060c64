//! The pieces of PGN text that readers and writers must agree on: tag values escaped and
//! unescaped, tag lines, and movetext wrapped to the export format's line length.

use std::fmt::Write;

/// Longest movetext line of the PGN export format.
pub const EXPORT_LINE_WIDTH: usize = 79;

/// A tag value with `\` and `"` escaped, ready to stand between quotes.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The inverse of [`escape`]: `\"` and `\\` read as `"` and `\`; any other backslash is kept.
pub fn unescape(quoted: &str) -> String {
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
pub fn write_tag(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
}

/// Wraps `text` at spaces into lines of at most `width` characters (a longer word stands alone
/// on its line); runs of spaces collapse to one.
pub fn wrap(text: &str, width: usize) -> String {
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
    fn wrapping() {
        assert_eq!(wrap("a bb  ccc dddd", 6), "a bb\nccc\ndddd");
        assert_eq!(wrap("炮二平五 马8进7", 9), "炮二平五 马8进7");
        assert_eq!(wrap("炮二平五 马8进7", 8), "炮二平五\n马8进7");
        assert_eq!(wrap("", 10), "");
    }
}
