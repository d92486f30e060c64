//! PGN game records as text: one reader for every tool that takes games (the judge, analysis).
//!
//! [`records`] splits a text into games as written ([`PgnRecord`]: tags, main-line move
//! tokens with their NAGs, comments and variations, the result); [`PgnRecord::read`] turns one
//! into a [`Game`] (start position from the FEN tag, legal moves) reading its moves in the
//! first of the given notations that reads them all, and [`read_games`] does both for a whole
//! text. Decoding bytes (UTF-8, GB18030) is the caller's business: this module sees text only.
//! [`PgnWriter`] writes games, in the tag escaping this reader undoes.

mod game;
mod syntax;
mod write;

pub use game::{read_games, read_movetext, Game, GameMove};
pub use syntax::{records, MoveToken, PgnRecord, Records};
pub use write::PgnWriter;

use crate::fen::FenError;
use crate::notation::MoveTextError;
use std::fmt;

/// Why a PGN text could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game (from 1) in which it happened.
    pub game: usize,
    /// The line (from 1) where it happened.
    pub line: usize,
    /// What happened.
    pub kind: PgnErrorKind,
}

/// What went wrong in a PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `[` tag with no `]` on its line.
    UnterminatedTag,
    /// A tag that is not `[Name "value"]`; holds its inside.
    MalformedTag(String),
    /// A `{` comment with no `}`.
    UnterminatedComment,
    /// A `(` variation with no `)`.
    UnterminatedVariation,
    /// A variation before any move of the main line.
    VariationBeforeMoves,
    /// A closing `)`, `}` or `]` with nothing open.
    Unbalanced(char),
    /// The FEN tag is not a valid position.
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why it is not valid.
        error: FenError,
    },
    /// A main-line move that cannot be read.
    BadMove {
        /// Its ply number in the game, from 1.
        ply: usize,
        /// Why (it carries the text and the notation).
        error: MoveTextError,
        /// How many notations were tried: with several, the error is that of the one that
        /// read the most moves (at equal counts, of the first whose grammar the text fits).
        notations_tried: usize,
    },
    /// No notation was given to read the moves in.
    NoNotation,
    /// Tags in text that should hold moves only.
    TagsInMovetext,
    /// More than one game in text that should hold one.
    MoreThanOneGame,
}

impl fmt::Display for PgnError {
    /// `game G, ply P (line L): ...` for a move, `game G, line L: ...` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (game, line) = (self.game, self.line);
        match &self.kind {
            PgnErrorKind::BadMove { ply, .. } => {
                write!(f, "game {game}, ply {ply} (line {line}): {}", self.kind)
            }
            kind => write!(f, "game {game}, line {line}: {kind}"),
        }
    }
}

impl fmt::Display for PgnErrorKind {
    /// What went wrong, without the place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::UnterminatedTag => write!(f, "unterminated tag (missing ']')"),
            PgnErrorKind::MalformedTag(inner) => {
                write!(f, "malformed tag '[{inner}]' (expected [Name \"value\"])")
            }
            PgnErrorKind::UnterminatedComment => write!(f, "unterminated comment (missing '}}')"),
            PgnErrorKind::UnterminatedVariation => {
                write!(f, "unterminated variation (missing ')')")
            }
            PgnErrorKind::VariationBeforeMoves => {
                write!(f, "a variation '(' before the first move")
            }
            PgnErrorKind::Unbalanced(c) => write!(f, "unbalanced '{c}'"),
            PgnErrorKind::BadFen { fen, error } => write!(f, "bad FEN tag '{fen}': {error}"),
            PgnErrorKind::BadMove {
                error,
                notations_tried,
                ..
            } => {
                write!(f, "{error}")?;
                if *notations_tried > 1 {
                    write!(
                        f,
                        "; no notation reads all the moves, and {} reads the most",
                        error.notation().label()
                    )?;
                }
                Ok(())
            }
            PgnErrorKind::NoNotation => write!(f, "no notation to read the moves in"),
            PgnErrorKind::TagsInMovetext => write!(f, "tags where only moves belong"),
            PgnErrorKind::MoreThanOneGame => write!(f, "more than one game where one belongs"),
        }
    }
}

impl std::error::Error for PgnError {}
