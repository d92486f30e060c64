//! What the page asks, as `docs/gui.md` lists it: one JSON object per WebSocket message, told
//! apart by its `type`. Parsing checks the shape; the session checks the content (a move's
//! legality, a FEN, an option's range) and answers what is wrong in an `error` message.

use serde::Deserialize;

/// Who the person at the page plays.
#[derive(Copy, Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Human {
    /// Red, against the engine.
    #[default]
    Red,
    /// Black, against the engine.
    Black,
    /// Both sides: an analysis board, no engine opponent.
    Both,
}

/// Clocks for both sides.
#[derive(Copy, Clone, Debug, Deserialize, PartialEq)]
pub struct TimeSetting {
    /// Seconds each side starts with.
    pub base_s: f64,
    /// Seconds added after each move.
    #[serde(default)]
    pub inc_s: f64,
}

/// One request of the page.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// A new game.
    NewGame {
        /// `startpos` or a FEN (default `startpos`).
        #[serde(default)]
        fen: Option<String>,
        /// Who the person plays.
        #[serde(default)]
        human: Human,
        /// `Skill Level`, 0-20.
        #[serde(default)]
        level: Option<u32>,
        /// `UCI_Elo` (with `UCI_LimitStrength`).
        #[serde(default)]
        elo: Option<u32>,
        /// Clocks; none: the engine thinks `movetime_ms` a move.
        #[serde(default)]
        time: Option<TimeSetting>,
        /// The engine's time a move without clocks.
        #[serde(default)]
        movetime_ms: Option<u64>,
    },
    /// The person's move (ICCS, ranks 0-9) at the cursor.
    Move {
        /// The move.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Take back the person's last move (and the engine's reply).
    Undo,
    /// The person gives up.
    Resign,
    /// The person offers a draw (or accepts the engine's offer).
    OfferDraw,
    /// Move the cursor.
    Goto {
        /// Ply, 0 for the start.
        ply: usize,
    },
    /// Live analysis on or off.
    Analyse {
        /// On or off.
        on: bool,
        /// Lines (1-5).
        #[serde(default)]
        multipv: Option<usize>,
    },
    /// A new analysis board at a position.
    SetFen {
        /// The FEN (or `startpos`).
        fen: String,
    },
    /// The notation of move texts.
    Notation {
        /// Its name.
        notation: String,
    },
    /// Set a rule option.
    Option {
        /// The engine's name for it.
        name: String,
        /// Its value as text.
        value: String,
    },
    /// Open a game file.
    Open {
        /// The file's name (its extension picks the format).
        name: String,
        /// Its bytes, base64-encoded.
        data: String,
        /// Which game of several (from 1).
        #[serde(default)]
        game: Option<u64>,
    },
    /// Review the game's moves.
    Review {
        /// Depth per position.
        #[serde(default)]
        depth: Option<u32>,
    },
    /// Stop a running review.
    StopReview,
    /// The game as PGN.
    SavePgn,
}

/// Reads one message of the page; the error says what is wrong with it.
pub fn parse(text: &str) -> Result<Request, String> {
    serde_json::from_str(text).map_err(|e| format!("a message the engine cannot read: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_of_the_protocol() {
        assert_eq!(
            parse(r#"{"type":"move","move":"h2e2"}"#),
            Ok(Request::Move { mv: "h2e2".into() })
        );
        assert_eq!(
            parse(r#"{"type":"new_game","human":"black","time":{"base_s":300,"inc_s":3}}"#),
            Ok(Request::NewGame {
                fen: None,
                human: Human::Black,
                level: None,
                elo: None,
                time: Some(TimeSetting {
                    base_s: 300.0,
                    inc_s: 3.0
                }),
                movetime_ms: None,
            })
        );
        assert_eq!(parse(r#"{"type":"undo"}"#), Ok(Request::Undo));
        assert_eq!(
            parse(r#"{"type":"goto","ply":3}"#),
            Ok(Request::Goto { ply: 3 })
        );
        for bad in [
            "",
            "[]",
            r#"{"type":"fly"}"#,
            r#"{"type":"move"}"#,
            r#"{"type":"goto","ply":-1}"#,
            r#"{"type":"new_game","human":"green"}"#,
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.starts_with("a message the engine cannot read"), "{err}");
        }
    }
}
