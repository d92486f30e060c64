//! Game files for the commands that read games (`judge`, `analyze`): bytes from a file or
//! standard input, decoded (a byte-order mark's encoding, else UTF-8, else GB18030, which
//! includes GBK and GB2312, as the Chinese game databases of the ElephantEye era are written),
//! and read by engine-core: as PGN, each game's moves in its detected or given notation, or
//! as one of the Chinese archive formats (XQF, CBF, DhtmlXQ), whose moves are coordinates.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;
use std::str::FromStr;

use encoding_rs::{Encoding, GB18030};
use engine_core::archive::{self, ArchiveFormat};
use engine_core::pgn::{read_games, Game};
use engine_core::{Notation, RankBase};

/// `--notation` of a command that reads games: one notation, or `auto` to detect it per game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum NotationChoice {
    /// Try every notation, per game (a `[Format]` tag's first).
    #[default]
    Auto,
    /// Read every move in this notation.
    Fixed(Notation),
}

impl FromStr for NotationChoice {
    type Err = String;

    /// `auto` or one of [`Notation::NAMES`].
    fn from_str(s: &str) -> Result<NotationChoice, String> {
        if s.trim().eq_ignore_ascii_case("auto") {
            return Ok(NotationChoice::Auto);
        }
        s.parse::<Notation>()
            .map(NotationChoice::Fixed)
            .map_err(|e| format!("{e}, or auto"))
    }
}

impl NotationChoice {
    /// The notations to try, in order; `ranks` is the rank numbering of ICCS coordinates and SAN
    /// (`None`: either, 0-9 first).
    pub fn candidates(self, ranks: Option<RankBase>) -> Vec<Notation> {
        let wanted = |n: &Notation| match (self, *n) {
            (_, Notation::Iccs(base) | Notation::San(base)) if ranks.is_some_and(|r| r != base) => {
                false
            }
            (NotationChoice::Auto, _) => true,
            (NotationChoice::Fixed(Notation::Iccs(_)), Notation::Iccs(_)) => true,
            (NotationChoice::Fixed(Notation::San(_)), Notation::San(_)) => true,
            (NotationChoice::Fixed(f), n) => f == n,
        };
        Notation::ALL.into_iter().filter(wanted).collect()
    }
}

/// `--game N`: a game's number in its file, counted from 1 as every message counts games.
pub fn parse_game_number(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("games are counted from 1: the first game is --game 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{text}' is not a game number (1 for the first game)"
        )),
    }
}

/// Where game text comes from, as messages name it.
fn source_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Text of bytes in the encoding its byte-order mark names, else UTF-8, else GB18030; the
/// error says why none fits.
pub fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, String> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return encoding
            .decode_without_bom_handling_and_without_replacement(&bytes[bom_len..])
            .ok_or_else(|| {
                format!(
                    "not valid {} text after its byte-order mark",
                    encoding.name()
                )
            });
    }
    let utf8_error = match std::str::from_utf8(bytes) {
        Ok(text) => return Ok(Cow::Borrowed(text)),
        Err(e) => e,
    };
    GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .ok_or_else(|| {
            format!(
                "neither UTF-8 text (invalid byte at offset {}) nor GB18030/GBK text",
                utf8_error.valid_up_to()
            )
        })
}

/// The bytes of the file at `path` (`-`: standard input).
fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let name = source_name(path);
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))
    }
}

/// The decoded text of the file at `path` (`-`: standard input).
pub fn read_text(path: &Path) -> Result<String, String> {
    let name = source_name(path);
    let bytes = read_bytes(path)?;
    decode(&bytes)
        .map(Cow::into_owned)
        .map_err(|e| format!("cannot read {name}: {e}"))
}

/// Every game of the game file at `path` (`-`: standard input). An archive file (XQF, CBF or
/// DhtmlXQ: named by its extension, else recognised by its content, as DhtmlXQ pages saved as
/// `.txt` or `.html` must be) holds one game; anything else is PGN, each game read in the first
/// of `notations` that reads all its moves. Errors name the file and what is wrong: for PGN the
/// game, the line and, for a move, the ply and the text.
pub fn read_games_file(path: &Path, notations: &[Notation]) -> Result<Vec<Game>, String> {
    let bytes = read_bytes(path)?;
    read_games_named(&source_name(path), path, &bytes, notations)
}

/// Every game of a game file's `bytes` that arrived without a path (a page's upload), read as
/// [`read_games_file`] reads a file called `name`.
pub fn read_games_bytes(
    name: &str,
    bytes: &[u8],
    notations: &[Notation],
) -> Result<Vec<Game>, String> {
    read_games_named(name, Path::new(name), bytes, notations)
}

fn read_games_named(
    name: &str,
    path: &Path,
    bytes: &[u8],
    notations: &[Notation],
) -> Result<Vec<Game>, String> {
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(ArchiveFormat::from_extension);
    if let Some(format) = named.or_else(|| ArchiveFormat::sniff(bytes)) {
        let text = |b: &[u8]| decode(b).map(Cow::into_owned);
        return archive::read(format, bytes, &text)
            .map(|game| vec![game])
            .map_err(|e| format!("{name}: {e}"));
    }
    let text = decode(bytes).map_err(|e| format!("cannot read {name}: {e}"))?;
    read_games(&text, notations)
        .collect::<Result<Vec<Game>, _>>()
        .map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let text = "[Red \"许银川\"]\n1. 炮二平五 马８进７ *\n";
        assert_eq!(decode(text.as_bytes()).as_deref(), Ok(text));
        let (gbk, _, unmappable) = GB18030.encode(text);
        assert!(!unmappable);
        assert_ne!(&gbk[..], text.as_bytes());
        assert_eq!(decode(&gbk).as_deref(), Ok(text));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(decode(&bom).as_deref(), Ok(text));
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(&utf16).as_deref(), Ok(text));
        let err = decode(b"1. h2e2 \xFF\xFF").unwrap_err();
        assert!(err.contains("offset 8"), "{err}");
    }

    #[test]
    fn notation_choices() {
        use engine_core::RankBase::{One, Zero};
        assert_eq!(NotationChoice::from_str("auto"), Ok(NotationChoice::Auto));
        assert_eq!(
            NotationChoice::from_str("Chinese"),
            Ok(NotationChoice::Fixed(Notation::Chinese))
        );
        let err = NotationChoice::from_str("morse").unwrap_err();
        assert!(
            err.contains("vietnamese-asian") && err.contains("auto"),
            "{err}"
        );
        assert_eq!(NotationChoice::Auto.candidates(None), Notation::ALL);
        assert_eq!(
            NotationChoice::Auto.candidates(Some(One))[..2],
            [Notation::Iccs(One), Notation::Wxf]
        );
        let iccs = NotationChoice::Fixed(Notation::Iccs(Zero));
        assert_eq!(
            iccs.candidates(None),
            [Notation::Iccs(Zero), Notation::Iccs(One)]
        );
        assert_eq!(iccs.candidates(Some(One)), [Notation::Iccs(One)]);
        assert_eq!(
            NotationChoice::Fixed(Notation::Wxf).candidates(Some(Zero)),
            [Notation::Wxf]
        );
    }
}
