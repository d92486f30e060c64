//! Why the [`Engine`](super::Engine) refused a request. The engine knows no protocol, so these
//! carry what went wrong and the data a front end needs to word it in its own terms; `Display`
//! is a neutral sentence that names no protocol command.

use crate::eval::nnue::NetLoadError;
use crate::game::GameTextError;
use engine_core::{FenError, MoveTextError};
use std::fmt;

/// A request that needs an idle engine (or that produced a report), for [`EngineError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Forget the previous games (a new game).
    NewGame,
    /// Set up the game as a front end keeps it.
    SetGame,
    /// Start a search.
    Go,
    /// Count move paths.
    Perft,
    /// Run the bench search.
    Bench,
    /// Change the option called this (as sent).
    SetOption(String),
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::NewGame => f.write_str("a new game"),
            Request::SetGame => f.write_str("setting the game"),
            Request::Go => f.write_str("a search"),
            Request::Perft => f.write_str("perft"),
            Request::Bench => f.write_str("bench"),
            Request::SetOption(name) => write!(f, "changing option '{name}'"),
        }
    }
}

/// Why the engine refused a request; nothing changed.
#[derive(Debug)]
pub enum EngineError {
    /// The request needs an idle engine and a search is running.
    Busy(Request),
    /// The opponent's expected move came, but no ponder search is running.
    NotPondering,
    /// The start position's FEN is not valid.
    BadFen(FenError),
    /// A move of the game's move list does not parse, or is not legal where it is played.
    BadMove {
        /// 1-based number of the move in the list (its ply from the start position).
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveTextError,
    },
    /// A move to exclude from the search does not parse or is not legal.
    BadExcludedMove {
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveTextError,
    },
    /// Not an option of this engine (the name as sent).
    UnknownOption(String),
    /// A value the option does not accept; the reason names the option and the value.
    BadOptionValue(String),
    /// The hash table cannot be allocated.
    Hash {
        /// Why.
        reason: String,
        /// The size (MB) of the table kept instead, when there was one.
        kept_mb: Option<usize>,
    },
    /// The net file did not load; the evaluation in use stays.
    Net {
        /// Why.
        error: NetLoadError,
        /// The net kept (its summary), or "no net".
        kept: String,
    },
    /// The net evaluation was asked for while no net is loaded.
    NoNet,
    /// Writing a report (perft, bench) failed.
    Io {
        /// The request whose report it was.
        request: Request,
        /// The failure.
        error: std::io::Error,
    },
}

impl From<GameTextError> for EngineError {
    fn from(e: GameTextError) -> EngineError {
        match e {
            GameTextError::Fen(e) => EngineError::BadFen(e),
            GameTextError::Move {
                number,
                text,
                error,
            } => EngineError::BadMove {
                number,
                text,
                error,
            },
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy(request) => write!(f, "{request} refused: a search is running"),
            EngineError::NotPondering => f.write_str("no ponder search is running"),
            EngineError::BadFen(e) => write!(f, "invalid FEN: {e}"),
            EngineError::BadMove { number, error, .. } => {
                write!(f, "move {number} of the list: {error}")
            }
            EngineError::BadExcludedMove { error, .. } => {
                write!(f, "move to exclude: {error}")
            }
            EngineError::UnknownOption(name) => write!(f, "no option '{name}'"),
            EngineError::BadOptionValue(reason) => f.write_str(reason),
            EngineError::Hash { reason, kept_mb } => match kept_mb {
                Some(mb) => write!(f, "{reason}; keeping {mb} MB"),
                None => f.write_str(reason),
            },
            EngineError::Net { error, kept } => write!(f, "{error}; keeping {kept}"),
            EngineError::NoNet => f.write_str("no net is loaded"),
            EngineError::Io { request, error } => write!(f, "{request} failed: {error}"),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::BadFen(e) => Some(e),
            EngineError::BadMove { error, .. } | EngineError::BadExcludedMove { error, .. } => {
                Some(error)
            }
            EngineError::Net { error, .. } => Some(error),
            EngineError::Io { error, .. } => Some(error),
            EngineError::Busy(_)
            | EngineError::NotPondering
            | EngineError::UnknownOption(_)
            | EngineError::BadOptionValue(_)
            | EngineError::Hash { .. }
            | EngineError::NoNet => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neutral_text_names_no_protocol_command() {
        for e in [
            EngineError::Busy(Request::NewGame),
            EngineError::Busy(Request::Go),
            EngineError::Busy(Request::SetOption("Hash".into())),
            EngineError::NotPondering,
            EngineError::NoNet,
        ] {
            let text = e.to_string();
            for word in ["ucinewgame", "'stop'", "ponderhit", "setoption", "EvalFile"] {
                assert!(!text.contains(word), "{text}");
            }
        }
        assert_eq!(
            EngineError::Busy(Request::NewGame).to_string(),
            "a new game refused: a search is running"
        );
    }
}
