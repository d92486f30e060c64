//! The engine's refusals worded for a UCI or UCCI session (the `info string error: ...` text):
//! in the commands and option names of the session's dialect, since the engine knows neither.

use super::dialect::Dialect;
use crate::engine::{EngineError, Request};

/// The text of `e` for a session in `dialect` (UCCI where the dialects differ, UCI otherwise).
pub(crate) fn wording(e: &EngineError, dialect: Dialect) -> String {
    let ucci = dialect == Dialect::Ucci;
    match e {
        EngineError::Busy(request) => busy(request, ucci),
        EngineError::NotPondering => "'ponderhit' without a ponder search is ignored".into(),
        EngineError::BadFen(_) | EngineError::BadMove { .. } => e.to_string(),
        EngineError::BadExcludedMove { error, .. } => format!("banmoves: {error}"),
        EngineError::UnknownOption(name) => format!("unknown option '{name}' ignored"),
        EngineError::BadOptionValue(reason) => reason.clone(),
        EngineError::Hash { .. } | EngineError::Net { .. } | EngineError::Io { .. } => {
            e.to_string()
        }
        EngineError::NoNet if ucci => "no net is loaded: set evalfile first".into(),
        EngineError::NoNet => "no net is loaded: set EvalFile first".into(),
    }
}

/// A command refused while a search runs.
fn busy(request: &Request, ucci: bool) -> String {
    let stop_first =
        |command: &str| format!("'{command}' while searching is ignored (send 'stop' first)");
    match request {
        Request::NewGame => "'ucinewgame' while searching is ignored".into(),
        Request::SetGame => stop_first("setting the game"),
        Request::Go | Request::Perft => stop_first("go"),
        Request::Bench => "'bench' while searching is ignored".into(),
        // UCCI's `setoption` names the option without `name`, and its buttons (`newgame`) are
        // options too.
        Request::SetOption(name) if ucci => stop_first(&format!("setoption {name}")),
        Request::SetOption(name) => format!("option '{name}' cannot change while searching"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_wording_is_the_sessions_and_ucci_names_its_own_commands() {
        let busy = EngineError::Busy(Request::Go);
        assert_eq!(
            wording(&busy, Dialect::Uci),
            "'go' while searching is ignored (send 'stop' first)"
        );
        let option = EngineError::Busy(Request::SetOption("Hash".into()));
        assert_eq!(
            wording(&option, Dialect::Uci),
            "option 'Hash' cannot change while searching"
        );
        let option = EngineError::Busy(Request::SetOption("hashsize".into()));
        assert_eq!(
            wording(&option, Dialect::Ucci),
            "'setoption hashsize' while searching is ignored (send 'stop' first)"
        );
        assert!(wording(&EngineError::NoNet, Dialect::Ucci).contains("evalfile"));
        assert!(wording(&EngineError::NoNet, Dialect::Uci).contains("EvalFile"));
    }
}
