//! One line of an EPD file: the position's fields, then operations such as
//! `bm h2e2; am b2b9; id "trap 7"; c0 "a comment";`.
//!
//! The position is FEN's board and side to move, then the two fields that EPD keeps from chess
//! (castling and en passant), which xiangqi writes as `- -`; FEN's two counters may follow. As
//! opening files always allowed, two fields (board and side) or six (a whole FEN) are read too,
//! `startpos` stands for the initial position, a `;` may close the position, and the project's
//! extension `moves m1 m2 ...` may follow it. Counters absent from the fields come from the
//! standard `hmvc` and `fmvn` operations, else 0 and 1.

use engine_core::START_FEN;

/// An operation: its opcode and operands, quotes removed from string operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdRecord {
    /// The position as a six-field FEN.
    pub fen: String,
    /// The move texts after `moves`, as written.
    pub moves: Vec<String>,
    /// The operations, in file order.
    pub operations: Vec<Operation>,
}

/// The longest opcode EPD allows.
const MAX_OPCODE_LEN: usize = 15;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Quoted(String),
    Semicolon,
}

/// Splits a line into words, quoted strings (which may hold spaces and `;`) and semicolons.
fn tokens(line: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            chars.next();
            out.push(Token::Semicolon);
        } else if c == '"' {
            chars.next();
            let mut text = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(ch) => text.push(ch),
                    None => return Err(format!("a string opened by \" is not closed: \"{text}")),
                }
            }
            out.push(Token::Quoted(text));
        } else {
            let mut word = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() || ch == ';' || ch == '"' {
                    break;
                }
                word.push(ch);
                chars.next();
            }
            out.push(Token::Word(word));
        }
    }
    Ok(out)
}

/// Whether `word` may name an operation: a letter, then letters, digits or `_`.
fn is_opcode(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && word.len() <= MAX_OPCODE_LEN
}

impl EpdRecord {
    /// Parses a line that holds a position (comments and blank lines are the caller's).
    pub fn parse(line: &str) -> Result<EpdRecord, String> {
        let tokens = tokens(line)?;
        let mut rest = tokens.as_slice();
        let word_at = |rest: &[Token], i: usize| match rest.get(i) {
            Some(Token::Word(w)) => Some(w.clone()),
            _ => None,
        };
        let mut fields: Vec<String> = Vec::new();
        match word_at(rest, 0) {
            Some(w) if w.eq_ignore_ascii_case(engine_core::STARTPOS) => {
                fields.extend(START_FEN.split_whitespace().map(str::to_string));
                rest = &rest[1..];
            }
            Some(_) => {
                // Board and side, then placeholders and counters while they look like them:
                // an opcode starts with a letter, so it never reads as one of these.
                while let Some(w) = word_at(rest, 0) {
                    let wanted = fields.len() < 2
                        || fields.len() < 6 && (w == "-" || w.parse::<u32>().is_ok());
                    if !wanted {
                        break;
                    }
                    fields.push(w);
                    rest = &rest[1..];
                }
            }
            None => return Err("no position: expected a FEN or EPD".into()),
        }
        if !matches!(fields.len(), 2 | 4 | 6) {
            return Err(format!(
                "expected a FEN of 2, 4 or 6 fields, found {} fields in '{}'",
                fields.len(),
                fields.join(" ")
            ));
        }
        if rest.first() == Some(&Token::Semicolon) {
            rest = &rest[1..];
        }
        let mut moves = Vec::new();
        if word_at(rest, 0).as_deref() == Some("moves") {
            rest = &rest[1..];
            while let Some(token) = rest.first() {
                rest = &rest[1..];
                match token {
                    Token::Word(w) => moves.push(w.clone()),
                    Token::Semicolon => break,
                    Token::Quoted(q) => return Err(format!("\"{q}\" where a move was expected")),
                }
            }
        }
        let operations = operations(rest)?;
        if fields.len() == 2 {
            fields.extend(["-".to_string(), "-".to_string()]);
        }
        if fields.len() == 4 {
            for (opcode, default) in [("hmvc", "0"), ("fmvn", "1")] {
                let value = match operations.iter().find(|o| o.opcode == opcode) {
                    Some(op) => match op.operands.as_slice() {
                        [n] if n.parse::<u32>().is_ok() => n.clone(),
                        _ => return Err(format!("{opcode} needs one number")),
                    },
                    None => default.to_string(),
                };
                fields.push(value);
            }
        }
        Ok(EpdRecord {
            fen: fields.join(" "),
            moves,
            operations,
        })
    }
}

/// The operations after the position: each an opcode and its operands, ended by `;` (the last
/// one's may be left out, as people write by hand).
fn operations(mut rest: &[Token]) -> Result<Vec<Operation>, String> {
    let mut out = Vec::new();
    while let Some(token) = rest.first() {
        rest = &rest[1..];
        let opcode = match token {
            Token::Semicolon => continue,
            Token::Word(w) if is_opcode(w) => w.clone(),
            Token::Word(w) | Token::Quoted(w) => {
                return Err(format!(
                    "'{w}' is not an EPD operation (an opcode such as bm, am, id or c0, then \
                     its operands and ;)"
                ))
            }
        };
        let mut operands = Vec::new();
        while let Some(token) = rest.first() {
            rest = &rest[1..];
            match token {
                Token::Semicolon => break,
                Token::Word(w) | Token::Quoted(w) => operands.push(w.clone()),
            }
        }
        out.push(Operation { opcode, operands });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

    /// The operands of the record's first operation named `opcode`.
    fn operands<'a>(r: &'a EpdRecord, opcode: &str) -> Option<&'a [String]> {
        r.operations
            .iter()
            .find(|o| o.opcode == opcode)
            .map(|o| o.operands.as_slice())
    }

    #[test]
    fn standard_epd_with_operations() {
        let r = EpdRecord::parse(&format!(
            "{BOARD} w - - bm h2e2 C2=5; am a0a1; id \"opening; central cannon\"; c0 \"x y\";"
        ))
        .expect("a record");
        assert_eq!(r.fen, START_FEN);
        assert!(r.moves.is_empty());
        assert_eq!(
            operands(&r, "bm"),
            Some(&["h2e2".to_string(), "C2=5".to_string()][..])
        );
        assert_eq!(operands(&r, "am"), Some(&["a0a1".to_string()][..]));
        assert_eq!(
            operands(&r, "id"),
            Some(&["opening; central cannon".to_string()][..])
        );
        assert_eq!(operands(&r, "c0"), Some(&["x y".to_string()][..]));
        assert_eq!(operands(&r, "c1"), None);
    }

    #[test]
    fn counters_from_fields_or_operations() {
        let r = EpdRecord::parse(&format!("{BOARD} b - - hmvc 7; fmvn 12;")).expect("a record");
        assert_eq!(r.fen, format!("{BOARD} b - - 7 12"));
        let r = EpdRecord::parse(&format!("{BOARD} w - - 5 3 id \"six\";")).expect("a record");
        assert_eq!(r.fen, format!("{BOARD} w - - 5 3"));
        assert_eq!(operands(&r, "id"), Some(&["six".to_string()][..]));
        assert!(EpdRecord::parse(&format!("{BOARD} w - - hmvc x;")).is_err());
    }

    #[test]
    fn the_forms_opening_files_always_had() {
        let r = EpdRecord::parse(&format!("{BOARD} w")).expect("two fields");
        assert_eq!(r.fen, START_FEN);
        let r = EpdRecord::parse(&format!("{BOARD} w - -; c0 \"x\"")).expect("a record");
        assert_eq!(r.fen, START_FEN);
        assert_eq!(operands(&r, "c0"), Some(&["x".to_string()][..]));
        let r = EpdRecord::parse("startpos moves h2e2 h9g7; id \"two\"").expect("a record");
        assert_eq!(r.fen, START_FEN);
        assert_eq!(r.moves, ["h2e2", "h9g7"]);
        assert_eq!(operands(&r, "id"), Some(&["two".to_string()][..]));
        let r = EpdRecord::parse(&format!("{START_FEN} moves h2e2")).expect("a record");
        assert_eq!(r.moves, ["h2e2"]);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(EpdRecord::parse("").is_err());
        assert!(EpdRecord::parse(BOARD).is_err());
        assert!(EpdRecord::parse(&format!("{BOARD} w - bm h2e2;")).is_err());
        assert!(EpdRecord::parse(&format!("{BOARD} w - - id \"open")).is_err());
        assert!(EpdRecord::parse(&format!("{BOARD} w - - 9x h2e2;")).is_err());
    }
}
