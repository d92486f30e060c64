//! XQF, XQStudio's binary game file: a 1024-byte header (signature, version, keys, the 32
//! pieces' squares, result, names as length-prefixed GB18030 strings), then the move tree as
//! 4-byte records (origin, destination, flags, reserved), each optionally followed by a
//! comment, in depth-first order: a record's next move follows it, its alternatives after that
//! whole subtree. So the main line is the first records, up to the first one without a next move.
//!
//! Versions up to 10 are plain. Later ones are encrypted with keys derived from four header
//! bytes: the piece squares are offset (and, from version 12, rotated), every byte after the
//! header has a 32-byte key stream subtracted, the move squares are offset again and comment
//! lengths biased. This follows XQStudio's XQFRW.pas as the PyPI `cchess` package ports it, the
//! reader this one is checked against (bench/oracle/game_files_cchess.py).

use super::board::{game_of, position_of, PIECES};
use super::{ArchiveError, ArchiveFormat};
use crate::pgn::Game;
use crate::square::Square;

/// The signature that opens every XQF file.
pub const MAGIC: &[u8] = b"XQ";

/// Length of the header; the move records start here.
pub const HEADER_LEN: usize = 0x400;

/// Offset of the format version.
const VERSION: usize = 2;
/// Offsets of the key bytes: a mask, four bytes OR-ed in, their sum and three square keys.
const KEY_MASK: usize = 3;
const KEY_OR: usize = 8;
const KEYS_SUM: usize = 12;
const KEY_XY: usize = 13;
const KEY_XY_FROM: usize = 14;
const KEY_XY_TO: usize = 15;
/// Offset of the 32 pieces' square codes (`file * 10 + rank`; above 89: off the board).
const BOARD: usize = 16;
/// Offset of the result code (0 unknown, 1 Red wins, 2 Black wins, 3 and 4 draw).
const RESULT: usize = 51;

/// A length-prefixed text field of the header: the offset of its length byte and its capacity.
struct TextField {
    offset: usize,
    capacity: usize,
}

const TITLE: TextField = TextField {
    offset: 80,
    capacity: 63,
};
const MATCH_NAME: TextField = TextField {
    offset: 208,
    capacity: 63,
};
const DATE: TextField = TextField {
    offset: 272,
    capacity: 15,
};
const PLACE: TextField = TextField {
    offset: 288,
    capacity: 15,
};
const RED_PLAYER: TextField = TextField {
    offset: 304,
    capacity: 15,
};
const BLACK_PLAYER: TextField = TextField {
    offset: 320,
    capacity: 15,
};

/// The last version without encryption.
const LAST_PLAIN_VERSION: u8 = 10;
/// The first version whose piece list is also rotated by the square key.
const FIRST_ROTATED_VERSION: u8 = 12;
/// The text whose bytes, masked by the file's keys, form the key stream of the move records.
const KEY_STREAM_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// Biases added to a move record's origin and destination codes.
const FROM_BIAS: u8 = 0x18;
const TO_BIAS: u8 = 0x20;
/// Flags of a move record in plain versions: a next move (high nibble), alternatives (low).
const PLAIN_NEXT: u8 = 0xF0;
/// Flags of a move record in encrypted versions.
const NEXT: u8 = 0x80;
const COMMENT: u8 = 0x20;
/// Squares on the board; square codes from this one up mean "not on the board".
const SQUARES: u8 = 90;
/// Ranks per file in a square code (`file * 10 + rank`).
const RANKS: u8 = 10;
/// Bytes of a move record.
const RECORD_LEN: usize = 4;
/// Comment-length bias of encrypted versions: `(sum * 256 + key) mod this + COMMENT_BIAS_BASE`.
const COMMENT_BIAS_MODULUS: u32 = 32000;
const COMMENT_BIAS_BASE: u32 = 767;

/// The keys of an encrypted file.
struct Keys {
    /// Offset of the piece squares (and rotation of their list).
    xy: u8,
    /// Offsets of a move's origin and destination.
    from: u8,
    to: u8,
    /// Bias of comment lengths.
    comment: u32,
    /// Subtracted from every byte after the header, cyclically.
    stream: [u8; 32],
}

/// XQStudio's key derivation: a polynomial of the header byte, times the previous key.
fn derive(byte: u8, previous: u8) -> u8 {
    let b = u32::from(byte);
    let v = ((((b * b * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8).wrapping_mul(u32::from(previous));
    (v & 0xFF) as u8
}

impl Keys {
    fn of(header: &[u8]) -> Keys {
        let raw_xy = header[KEY_XY];
        let xy = derive(raw_xy, raw_xy);
        let from = derive(header[KEY_XY_FROM], xy);
        let to = derive(header[KEY_XY_TO], from);
        let sum = header[KEYS_SUM];
        let comment =
            (u32::from(sum) * 256 + u32::from(raw_xy)) % COMMENT_BIAS_MODULUS + COMMENT_BIAS_BASE;
        let mask = header[KEY_MASK];
        let sources = [sum, raw_xy, header[KEY_XY_FROM], header[KEY_XY_TO]];
        let mut bytes = [0u8; 4];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (sources[i] & mask) | header[KEY_OR + i];
        }
        let mut stream = *KEY_STREAM_TEXT;
        for (i, s) in stream.iter_mut().enumerate() {
            *s &= bytes[i % 4];
        }
        Keys {
            xy,
            from,
            to,
            comment,
            stream,
        }
    }
}

/// The square of a code `file * 10 + rank`, `None` off the board.
fn square_of(code: u8) -> Option<Square> {
    if code >= SQUARES {
        return None;
    }
    Square::new(code / RANKS, code % RANKS)
}

/// Reads the move records after the header, `body` decrypted.
struct Records<'a> {
    body: &'a [u8],
    at: usize,
}

impl<'a> Records<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.body.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn cut_short(&self, what: &str) -> ArchiveError {
        ArchiveError::new(
            ArchiveFormat::Xqf,
            format!(
                "the file is cut short in {what} (byte {})",
                HEADER_LEN + self.at
            ),
        )
    }

    /// A little-endian 32-bit number.
    fn number(&mut self, what: &str) -> Result<u32, ArchiveError> {
        let b = self.take(4).ok_or_else(|| self.cut_short(what))?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Skips the comment that follows a record, if its flags say there is one.
    fn skip_comment(
        &mut self,
        flags: u8,
        keys: Option<&Keys>,
        what: &str,
    ) -> Result<(), ArchiveError> {
        let len = match keys {
            None => i64::from(self.number(what)?),
            Some(k) if flags & COMMENT != 0 => i64::from(self.number(what)?) - i64::from(k.comment),
            Some(_) => 0,
        };
        if len > 0 {
            let len = usize::try_from(len).unwrap_or(usize::MAX);
            self.take(len).ok_or_else(|| self.cut_short(what))?;
        }
        Ok(())
    }
}

/// Reads an XQF file; its text fields are decoded with `decode` (a field that does not decode
/// is left out).
pub fn read(
    bytes: &[u8],
    decode: &dyn Fn(&[u8]) -> Result<String, String>,
) -> Result<Game, ArchiveError> {
    let err = |m: String| ArchiveError::new(ArchiveFormat::Xqf, m);
    if !bytes.starts_with(MAGIC) {
        return Err(err("it does not begin with the signature 'XQ'".into()));
    }
    let Some(header) = bytes.get(..HEADER_LEN) else {
        return Err(err(format!(
            "the header is cut short ({} of {HEADER_LEN} bytes)",
            bytes.len()
        )));
    };
    let version = header[VERSION];
    let keys = (version > LAST_PLAIN_VERSION).then(|| Keys::of(header));

    let mut squares: [Option<Square>; PIECES] = [None; PIECES];
    let raw = &header[BOARD..BOARD + PIECES];
    for (i, sq) in squares.iter_mut().enumerate() {
        let code = match &keys {
            None => raw[i],
            Some(k) => {
                let source = if version >= FIRST_ROTATED_VERSION {
                    // The byte stored at i belongs to the piece (key + i + 1) mod 32.
                    (i + PIECES - (usize::from(k.xy) + 1) % PIECES) % PIECES
                } else {
                    i
                };
                raw[source].wrapping_sub(k.xy)
            }
        };
        *sq = square_of(code);
    }

    let body: Vec<u8> = match &keys {
        None => bytes[HEADER_LEN..].to_vec(),
        Some(k) => bytes[HEADER_LEN..]
            .iter()
            .enumerate()
            .map(|(i, b)| b.wrapping_sub(k.stream[i % k.stream.len()]))
            .collect(),
    };
    let mut records = Records { body: &body, at: 0 };
    let mut line = Vec::new();
    // The first record is the root (the start position): only its comment matters.
    if let Some(root) = records.take(RECORD_LEN) {
        records.skip_comment(root[2], keys.as_ref(), "the start position's comment")?;
        loop {
            let Some(rec) = records.take(RECORD_LEN) else {
                if records.at < body.len() {
                    return Err(records.cut_short(&format!("move {}", line.len() + 1)));
                }
                break;
            };
            let what = format!("move {}", line.len() + 1);
            let (from_key, to_key) = keys.as_ref().map_or((0, 0), |k| (k.from, k.to));
            let from_code = rec[0].wrapping_sub(FROM_BIAS).wrapping_sub(from_key);
            let to_code = rec[1].wrapping_sub(TO_BIAS).wrapping_sub(to_key);
            let has_next = match &keys {
                None => rec[2] & PLAIN_NEXT != 0,
                Some(_) => rec[2] & NEXT != 0,
            };
            records.skip_comment(rec[2], keys.as_ref(), &format!("the comment of {what}"))?;
            let (Some(from), Some(to)) = (square_of(from_code), square_of(to_code)) else {
                return Err(err(format!(
                    "{what} has a square off the board (codes {from_code} and {to_code})"
                )));
            };
            line.push((from, to));
            if !has_next {
                break;
            }
        }
    }

    let text = |field: &TextField| -> String {
        let len = usize::from(header[field.offset]).min(field.capacity);
        let start = field.offset + 1;
        decode(&header[start..start + len])
            .map(|t| t.trim_matches(char::from(0)).trim().to_string())
            .unwrap_or_default()
    };
    let event = Some(text(&MATCH_NAME))
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| text(&TITLE));
    let tags = vec![
        ("Event".to_string(), event),
        ("Site".to_string(), text(&PLACE)),
        ("Date".to_string(), text(&DATE)),
        ("Red".to_string(), text(&RED_PLAYER)),
        ("Black".to_string(), text(&BLACK_PLAYER)),
    ];
    let result = match header[RESULT] {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 | 4 => Some("1/2-1/2"),
        _ => None,
    };
    let start = position_of(ArchiveFormat::Xqf, &squares, line.first().map(|m| m.0))?;
    game_of(ArchiveFormat::Xqf, start, &line, tags, result)
}
