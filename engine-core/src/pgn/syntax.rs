//! PGN text split into games: tags, main-line move tokens with their annotations, comments and
//! variations, and the result. Nothing here knows how to read a move; see [`super::game`].

use super::PgnError;
use super::PgnErrorKind;

/// One game of a PGN text as written, before its moves are read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// Its place in the text, from 1.
    pub number: usize,
    /// Line (from 1) where it starts.
    pub line: usize,
    /// Tag pairs in the order written, values unescaped.
    pub tags: Vec<(String, String)>,
    /// Comments before the first move.
    pub comments_before: Vec<String>,
    /// The main line's moves as written.
    pub moves: Vec<MoveToken>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), when written.
    pub result: Option<String>,
}

/// A main-line move as written, with what follows it up to the next move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveToken {
    /// The move text, without its move number or `!`/`?`/`+`/`#` suffixes.
    pub text: String,
    /// Line (from 1) it is on.
    pub line: usize,
    /// Numeric annotation glyphs (`$1`; `!` is read as 1, `?` as 2, `!!` 3, `??` 4, `!?` 5,
    /// `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after it (`{...}` and `; ...` to the end of the line), trimmed.
    pub comments: Vec<String>,
    /// Variations after it (alternatives to it), each the text inside its parentheses.
    pub variations: Vec<String>,
}

impl PgnRecord {
    /// The value of the first tag called `name` (compared without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty()
            && self.comments_before.is_empty()
            && self.moves.is_empty()
            && self.result.is_none()
    }
}

/// The games of a PGN text, in order; after a syntax error, that error and nothing more.
pub fn records(text: &str) -> Records<'_> {
    Records {
        text,
        at: 0,
        line: 1,
        games: 0,
        failed: false,
    }
}

/// Iterator over the games of a PGN text (see [`records`]).
#[derive(Clone, Debug)]
pub struct Records<'a> {
    text: &'a str,
    /// Byte offset of the next character to read.
    at: usize,
    /// Line of that character.
    line: usize,
    /// Games returned so far.
    games: usize,
    failed: bool,
}

/// Annotation glyphs and the NAGs they stand for (PGN standard, section 8.2.4).
const GLYPHS: [(&str, u8); 6] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

/// Game termination markers.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Characters that end a move token.
fn ends_token(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

impl Records<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.at == 0 || self.text[..self.at].ends_with('\n')
    }

    fn error(&mut self, line: usize, kind: PgnErrorKind) -> PgnError {
        self.failed = true;
        PgnError {
            game: self.games + 1,
            line,
            kind,
        }
    }

    /// Reads a tag pair after its `[`; tags end on the line they start on.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let line = self.line;
        let mut inner = String::new();
        let mut in_quotes = false;
        let mut escaped = false;
        loop {
            match self.bump() {
                None | Some('\n') => return Err(self.error(line, PgnErrorKind::UnterminatedTag)),
                Some(']') if !in_quotes => break,
                Some(c) => {
                    if in_quotes && !escaped && c == '"' {
                        in_quotes = false;
                    } else if !in_quotes && c == '"' {
                        in_quotes = true;
                    }
                    escaped = in_quotes && !escaped && c == '\\';
                    inner.push(c);
                }
            }
        }
        parse_tag(&inner).ok_or_else(|| self.error(line, PgnErrorKind::MalformedTag(inner)))
    }

    /// Reads a `{...}` comment after its `{`.
    fn brace_comment(&mut self) -> Result<String, PgnError> {
        let line = self.line;
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error(line, PgnErrorKind::UnterminatedComment)),
                Some('}') => return Ok(s.trim().to_string()),
                Some(c) => s.push(c),
            }
        }
    }

    /// Reads a `;` comment to the end of its line.
    fn line_comment(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
            s.push(c);
        }
        s.trim().to_string()
    }

    /// Reads a variation after its `(`, nested variations and comments included.
    fn variation(&mut self) -> Result<String, PgnError> {
        let line = self.line;
        let start = self.at;
        let mut depth = 1;
        loop {
            let before = self.at;
            match self.bump() {
                None => return Err(self.error(line, PgnErrorKind::UnterminatedVariation)),
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(self.text[start..before].trim().to_string());
                    }
                }
                Some('{') => {
                    self.brace_comment()?;
                }
                Some(';') => {
                    self.line_comment();
                }
                Some(_) => {}
            }
        }
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while let Some(c) = self.peek() {
            if ends_token(c) {
                break;
            }
            self.bump();
        }
        self.text[start..self.at].to_string()
    }

    /// Reads the next game.
    fn record(&mut self) -> Result<Option<PgnRecord>, PgnError> {
        let mut rec = PgnRecord {
            number: self.games + 1,
            ..PgnRecord::default()
        };
        // Whether movetext (anything but tags) has started: a tag after it opens the next game.
        let mut in_movetext = false;
        while let Some(c) = self.peek() {
            if rec.is_empty() {
                rec.line = self.line;
            }
            match c {
                c if c.is_whitespace() || c == '\u{feff}' => {
                    self.bump();
                }
                '%' if self.at_line_start() => {
                    self.line_comment();
                }
                '[' => {
                    if in_movetext {
                        break;
                    }
                    self.bump();
                    let tag = self.tag()?;
                    rec.tags.push(tag);
                }
                '{' | ';' => {
                    self.bump();
                    let comment = if c == '{' {
                        self.brace_comment()?
                    } else {
                        self.line_comment()
                    };
                    in_movetext = true;
                    match rec.moves.last_mut() {
                        Some(m) => m.comments.push(comment),
                        None => rec.comments_before.push(comment),
                    }
                }
                '(' => {
                    let line = self.line;
                    self.bump();
                    let v = self.variation()?;
                    in_movetext = true;
                    match rec.moves.last_mut() {
                        Some(m) => m.variations.push(v),
                        None => {
                            return Err(self.error(line, PgnErrorKind::VariationBeforeMoves));
                        }
                    }
                }
                ')' | '}' | ']' => {
                    let line = self.line;
                    return Err(self.error(line, PgnErrorKind::Unbalanced(c)));
                }
                _ => {
                    let line = self.line;
                    let word = self.word();
                    in_movetext = true;
                    if RESULTS.contains(&word.as_str()) {
                        rec.result = Some(word);
                        break;
                    }
                    self.movetext_word(&mut rec, &word, line);
                }
            }
        }
        if rec.is_empty() {
            return Ok(None);
        }
        self.games += 1;
        Ok(Some(rec))
    }

    /// Files one word of movetext: a NAG, a glyph, a move number, a separator or a move.
    fn movetext_word(&mut self, rec: &mut PgnRecord, word: &str, line: usize) {
        if let Some(n) = word.strip_prefix('$') {
            if let (Ok(nag), Some(m)) = (n.parse::<u8>(), rec.moves.last_mut()) {
                m.nags.push(nag);
            }
            return;
        }
        let text = strip_move_number(word);
        // Check and mate marks: no move in any notation read here ends with them.
        let text = text.trim_end_matches(['+', '#']);
        let (text, nag) = split_glyph(text);
        let text = text.trim_end_matches(['+', '#']);
        if !text.is_empty() && !is_separator(text) {
            rec.moves.push(MoveToken {
                text: text.to_string(),
                line,
                ..MoveToken::default()
            });
        }
        if let (Some(nag), Some(m)) = (nag, rec.moves.last_mut()) {
            m.nags.push(nag);
        }
    }
}

impl Iterator for Records<'_> {
    type Item = Result<PgnRecord, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.record().transpose()
    }
}

/// `12.`, `12...`, `12.h2e2`, bare `12`: the move number dropped (full-width digits and stops,
/// common in GB-encoded records, too). A digit right after the dots is kept whole: `33.4` is a
/// WXF move (the middle soldier of file 3 to file 4), not move 33.
fn strip_move_number(word: &str) -> &str {
    let is_digit = |c: char| c.is_ascii_digit() || ('０'..='９').contains(&c);
    let rest = word.trim_start_matches(is_digit);
    if rest.len() == word.len() {
        return word;
    }
    if rest.is_empty() {
        return "";
    }
    let after = rest.trim_start_matches(['.', '．', '\u{2026}']);
    if after.len() == rest.len() || after.starts_with(is_digit) {
        return word;
    }
    after
}

/// A trailing `!`/`?` glyph split off as its NAG.
fn split_glyph(text: &str) -> (&str, Option<u8>) {
    for (glyph, nag) in GLYPHS {
        if let Some(rest) = text.strip_suffix(glyph) {
            return (rest, Some(nag));
        }
    }
    (text, None)
}

/// The dash that some records write between a move pair's two half-moves (`1. X4.1 - Tg4.1`).
fn is_separator(text: &str) -> bool {
    matches!(text, "-" | "\u{2013}" | "\u{2014}")
}

/// `Name "value"` (the inside of a tag), the value unescaped; a value without quotes is taken
/// as written.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let inner = inner.trim();
    let name_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return None;
    }
    let value = match rest.strip_prefix('"') {
        Some(quoted) => super::write::unescape(quoted.strip_suffix('"')?),
        None => rest.to_string(),
    };
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<PgnRecord> {
        records(text).collect::<Result<_, _>>().expect("parses")
    }

    #[test]
    fn tags_moves_comments_variations_nags() {
        let pgn = "[Event \"x \\\"quoted\\\"\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n\n\
                   {before} 1. h2e2 {centre cannon} h9g7 \
                   2.h0g2 ; rest of line\n (2. b0c2 {x (y)} (2. c3c4)) 2... i9h9!? $14 3. H2-E2! 1-0\n";
        let recs = all(pgn);
        assert_eq!(recs.len(), 1);
        let r = &recs[0];
        assert_eq!(r.tag("event"), Some("x \"quoted\""));
        assert_eq!(r.tag("FEN"), Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        assert_eq!(r.comments_before, ["before"]);
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["h2e2", "h9g7", "h0g2", "i9h9", "H2-E2"]);
        assert_eq!(r.moves[0].comments, ["centre cannon"]);
        assert_eq!(r.moves[2].comments, ["rest of line"]);
        assert_eq!(r.moves[2].variations, ["2. b0c2 {x (y)} (2. c3c4)"]);
        assert_eq!(r.moves[3].nags, [5, 14]);
        assert_eq!(r.moves[4].nags, [1]);
        assert_eq!(r.moves[4].line, 5);
        assert_eq!(r.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn several_games_with_and_without_results() {
        let pgn = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. b2e2\n[Event \"c\"]\n\n1. C2=5 0-1\n\
                   1. 炮二平五 1/2-1/2\n";
        let recs = all(pgn);
        assert_eq!(recs.len(), 4);
        assert_eq!(recs[1].tag("Event"), Some("b"));
        assert_eq!(recs[1].moves.len(), 1);
        assert_eq!(recs[1].result, None);
        assert_eq!(recs[2].moves[0].text, "C2=5");
        assert_eq!(recs[2].line, 6);
        assert_eq!(recs[3].moves[0].text, "炮二平五");
        assert_eq!(recs[3].number, 4);
        assert!(all("  \n\n").is_empty());
    }

    #[test]
    fn move_numbers_separators_and_marks() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("12.h2e2"), "h2e2");
        assert_eq!(strip_move_number("3...C8=5"), "C8=5");
        assert_eq!(strip_move_number("33.4"), "33.4");
        assert_eq!(strip_move_number("12"), "");
        assert_eq!(strip_move_number("h2e2"), "h2e2");
        assert_eq!(strip_move_number("１２．炮二平五"), "炮二平五");
        assert_eq!(strip_move_number("3…"), "");
        let r = &all("1. X4.1 - Tg4.1 2. X5-6 – Tg4-5 3. C2=5+ R1+1#")[0];
        let texts: Vec<&str> = r.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["X4.1", "Tg4.1", "X5-6", "Tg4-5", "C2=5", "R1+1"]);
    }

    #[test]
    fn syntax_errors_name_game_and_line() {
        let cases: [(&str, usize, usize, &str); 6] = [
            ("1. h2e2 {open", 1, 1, "comment"),
            ("[Event \"a\"]\n1. h2e2 *\n[FEN \"x\"\n1. h2e2", 2, 3, "tag"),
            ("1. h2e2 )", 1, 1, "')'"),
            ("1. h2e2 (h9g7\n", 1, 1, "variation"),
            ("(1. h2e2)", 1, 1, "variation"),
            ("[Event]\n", 1, 1, "tag"),
        ];
        for (text, game, line, word) in cases {
            let err = records(text)
                .find_map(Result::err)
                .unwrap_or_else(|| panic!("{text:?} parsed"));
            assert_eq!((err.game, err.line), (game, line), "{text:?}: {err}");
            assert!(err.to_string().contains(word), "{text:?}: {err}");
        }
        // Nothing follows an error.
        let mut it = records("1. h2e2 ) [Event \"b\"] 1. h2e2");
        assert!(matches!(it.next(), Some(Err(_))));
        assert!(it.next().is_none());
    }
}
