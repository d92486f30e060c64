//! The engine's refusals worded for XBoard: the reason of an `Error (reason): command` line, in
//! XBoard's terms (the GUI knows nothing of UCI's `stop` or `ucinewgame`).

use crate::engine::EngineError;

/// The reason of an XBoard error line for `e`.
pub(super) fn reason(e: &EngineError) -> String {
    match e {
        EngineError::Busy(_) => "engine is busy searching".into(),
        EngineError::NotPondering => "not pondering".into(),
        EngineError::BadFen(e) => format!("illegal position: {e}"),
        EngineError::BadMove { text, error, .. } => format!("illegal move {text}: {error}"),
        EngineError::BadExcludedMove { text, error } => format!("illegal move {text}: {error}"),
        EngineError::UnknownOption(_) => "unknown option".into(),
        EngineError::BadOptionValue(reason) => reason.clone(),
        EngineError::Hash { .. } | EngineError::Net { .. } | EngineError::Io { .. } => {
            e.to_string()
        }
        EngineError::NoNet => "no net is loaded: set the EvalFile option first".into(),
    }
}
