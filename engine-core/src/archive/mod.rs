//! Game files of the Chinese archives, read into the same [`Game`] a PGN record becomes, so
//! that every tool reading games takes them: [`xqf`] (XQStudio's binary format, plain and
//! encrypted), [`cbf`] (CCBridge's XML) and [`dhtmlxq`] (the `[DhtmlXQ_movelist]` text of
//! dpxq.com's web boards). Only the main line is read; variations and comments are passed
//! over. Decoding text fields (GB18030 in most archives) is the caller's business, as for PGN.

mod board;
pub mod cbf;
pub mod dhtmlxq;
pub mod xqf;

use crate::pgn::Game;
use std::fmt;

/// An archive format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArchiveFormat {
    /// XQStudio's binary `.xqf`.
    Xqf,
    /// CCBridge's XML `.cbf`.
    Cbf,
    /// dpxq.com's DhtmlXQ text.
    DhtmlXq,
}

impl ArchiveFormat {
    /// Name for messages to people.
    pub const fn label(self) -> &'static str {
        match self {
            ArchiveFormat::Xqf => "XQF",
            ArchiveFormat::Cbf => "CBF",
            ArchiveFormat::DhtmlXq => "DhtmlXQ",
        }
    }

    /// The format a file name's extension names (`.xqf`, `.cbf`, `.dhtmlxq`), in any case.
    pub fn from_extension(ext: &str) -> Option<ArchiveFormat> {
        match ext.to_ascii_lowercase().as_str() {
            "xqf" => Some(ArchiveFormat::Xqf),
            "cbf" => Some(ArchiveFormat::Cbf),
            "dhtmlxq" => Some(ArchiveFormat::DhtmlXq),
            _ => None,
        }
    }

    /// The format whose signature begins `bytes` (XQF's `XQ`) or appears in its text (CBF's
    /// root element, DhtmlXQ's tags); `None` for anything else, PGN included.
    pub fn sniff(bytes: &[u8]) -> Option<ArchiveFormat> {
        if bytes.starts_with(xqf::MAGIC) {
            return Some(ArchiveFormat::Xqf);
        }
        let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
        let contains = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
        if contains(cbf::ROOT_ELEMENT.as_bytes()) {
            Some(ArchiveFormat::Cbf)
        } else if contains(dhtmlxq::TAG_PREFIX.as_bytes()) {
            Some(ArchiveFormat::DhtmlXq)
        } else {
            None
        }
    }
}

impl fmt::Display for ArchiveFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How far into a file [`ArchiveFormat::sniff`] looks for a text format's signature: CBF's root
/// element follows the XML declaration, and DhtmlXQ's tags open a web page's game.
const SNIFF_BYTES: usize = 64 * 1024;

/// Why an archive file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveError {
    /// The format it was read as.
    pub format: ArchiveFormat,
    /// What is wrong, for people.
    pub message: String,
}

impl ArchiveError {
    pub(crate) fn new(format: ArchiveFormat, message: impl Into<String>) -> ArchiveError {
        ArchiveError {
            format,
            message: message.into(),
        }
    }
}

impl fmt::Display for ArchiveError {
    /// `not a valid XQF file: <what>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a valid {} file: {}", self.format, self.message)
    }
}

impl std::error::Error for ArchiveError {}

/// Reads one game from `bytes` in `format`; text fields (and text formats) are decoded with
/// `decode`.
pub fn read(
    format: ArchiveFormat,
    bytes: &[u8],
    decode: &dyn Fn(&[u8]) -> Result<String, String>,
) -> Result<Game, ArchiveError> {
    match format {
        ArchiveFormat::Xqf => xqf::read(bytes, decode),
        ArchiveFormat::Cbf => {
            let text = decode(bytes).map_err(|e| ArchiveError::new(format, e))?;
            cbf::read(&text)
        }
        ArchiveFormat::DhtmlXq => {
            let text = decode(bytes).map_err(|e| ArchiveError::new(format, e))?;
            dhtmlxq::read(&text)
        }
    }
}
