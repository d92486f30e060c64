//! The engine's refusals as `cotuong play` tells them to the person at the board: plain
//! sentences, without the protocol commands a GUI would send.

use cotuong::engine::{EngineError, Request};

/// `e` as a sentence for the player (without the leading capital: the game loop adds `? `).
pub fn sentence(e: &EngineError) -> String {
    match e {
        EngineError::Busy(request) => format!(
            "the engine is still thinking, so {} must wait",
            what(request)
        ),
        EngineError::NotPondering => "the engine was not thinking on your move".into(),
        EngineError::BadFen(e) => format!("that position cannot be set up: {e}"),
        EngineError::BadMove {
            number,
            text,
            error,
        } => {
            format!("move {number} ('{text}') cannot be played: {error}")
        }
        EngineError::BadExcludedMove { text, error } => {
            format!("'{text}' cannot be left out: {error}")
        }
        EngineError::UnknownOption(name) => format!("the engine has no option '{name}'"),
        EngineError::BadOptionValue(reason) => reason.clone(),
        EngineError::Hash { reason, kept_mb } => match kept_mb {
            Some(mb) => {
                format!("not enough memory for the hash table ({reason}); it stays at {mb} MB")
            }
            None => format!("not enough memory for the hash table ({reason})"),
        },
        EngineError::Net { error, kept } => {
            format!("the net did not load ({error}); the engine keeps its {kept}")
        }
        EngineError::NoNet => "no net is loaded, so the engine cannot evaluate with one".into(),
        EngineError::Io { request, error } => {
            format!("{} could not be written: {error}", what(request))
        }
    }
}

/// The request, as the player would name it.
fn what(request: &Request) -> String {
    match request {
        Request::NewGame => "a new game".into(),
        Request::SetGame => "the new position".into(),
        Request::Go => "its next search".into(),
        Request::Perft => "the perft count".into(),
        Request::Bench => "the bench report".into(),
        Request::SetOption(name) => format!("the change of '{name}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_no_protocol_command() {
        for e in [
            EngineError::Busy(Request::NewGame),
            EngineError::Busy(Request::Go),
            EngineError::NotPondering,
            EngineError::NoNet,
        ] {
            let text = sentence(&e);
            for word in [
                "ucinewgame",
                "'stop'",
                "ponderhit",
                "info string",
                "setoption",
            ] {
                assert!(!text.contains(word), "{text}");
            }
        }
        assert_eq!(
            sentence(&EngineError::Busy(Request::NewGame)),
            "the engine is still thinking, so a new game must wait"
        );
    }
}
