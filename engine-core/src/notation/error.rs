//! Why move text was rejected: it does not fit the notation's grammar, it fits several legal
//! moves, or it fits none.

use super::Notation;
use crate::moves::Move;
use std::fmt;

/// Longest excerpt of the user's text kept in an error: enough to recognise the move, short
/// enough that a pasted file does not flood a protocol line.
const EXCERPT_CHARS: usize = 16;

/// Why move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// Does not fit the grammar of the notation (e.g. `z2e2` in ICCS, `C2*5` in WXF).
    Malformed {
        /// The text (at most 16 characters of it).
        text: String,
        /// The notation it was read in.
        notation: Notation,
    },
    /// Fits more than one legal move: the text does not say which of several pieces moves
    /// (e.g. `R2+1` with two chariots on file 2, where WXF writes `R+` or `R-`).
    Ambiguous {
        /// The text (at most 16 characters of it).
        text: String,
        /// The notation it was read in.
        notation: Notation,
        /// The legal moves it fits, in generation order.
        candidates: Vec<Move>,
    },
    /// Well-formed, but no legal move here fits it.
    Illegal {
        /// The text (at most 16 characters of it).
        text: String,
        /// The notation it was read in.
        notation: Notation,
        /// What is wrong, when more can be said than "not legal" (e.g. "no Red chariot on
        /// file 2").
        reason: Option<String>,
    },
}

/// At most [`EXCERPT_CHARS`] characters of the user's text, trimmed.
fn excerpt(text: &str) -> String {
    text.trim().chars().take(EXCERPT_CHARS).collect()
}

impl MoveTextError {
    pub(crate) fn malformed(text: &str, notation: Notation) -> MoveTextError {
        MoveTextError::Malformed {
            text: excerpt(text),
            notation,
        }
    }

    pub(crate) fn ambiguous(
        text: &str,
        notation: Notation,
        candidates: Vec<Move>,
    ) -> MoveTextError {
        MoveTextError::Ambiguous {
            text: excerpt(text),
            notation,
            candidates,
        }
    }

    pub(crate) fn illegal(text: &str, notation: Notation, reason: Option<String>) -> MoveTextError {
        MoveTextError::Illegal {
            text: excerpt(text),
            notation,
            reason,
        }
    }

    /// The rejected text (at most 16 characters of it).
    pub fn text(&self) -> &str {
        match self {
            MoveTextError::Malformed { text, .. }
            | MoveTextError::Ambiguous { text, .. }
            | MoveTextError::Illegal { text, .. } => text,
        }
    }

    /// The notation the text was read in.
    pub fn notation(&self) -> Notation {
        match self {
            MoveTextError::Malformed { notation, .. }
            | MoveTextError::Ambiguous { notation, .. }
            | MoveTextError::Illegal { notation, .. } => *notation,
        }
    }
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Malformed { text, notation } => write!(
                f,
                "'{text}' is not a move in {} (e.g. {})",
                notation.label(),
                notation.example()
            ),
            MoveTextError::Ambiguous {
                text,
                notation,
                candidates,
            } => {
                write!(
                    f,
                    "'{text}' fits several legal moves in {}:",
                    notation.label()
                )?;
                for m in candidates {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
            MoveTextError::Illegal {
                text,
                notation,
                reason,
            } => {
                write!(f, "'{text}' is not a legal move here ({}", notation.label())?;
                if let Some(r) = reason {
                    write!(f, ": {r}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}
