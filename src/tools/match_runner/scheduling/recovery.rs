//! The recovery file: after every game the runner rewrites a small JSON file with the finished
//! games (results and PGN text) and the Swiss pairings made so far. Started again with the same
//! file and the same settings, the runner skips what is done and carries on; the schedule is
//! deterministic, so the same game ids mean the same games.

use super::super::statistics::Outcome;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format version, bumped when the layout changes.
const VERSION: u32 = 1;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Schedule position.
    pub game_id: usize,
    /// Tournament round.
    pub round: usize,
    /// Pair id for paired games.
    pub pair_id: Option<usize>,
    /// Who played and the result.
    pub outcome: Outcome,
    /// How the game ended (termination id).
    pub termination: String,
    /// The PGN text as written.
    pub pgn: String,
    /// The game's moves in ICCS, space-separated, to tell a replayed game (empty in files
    /// written before they were saved).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub moves: String,
}

/// One Swiss round's pairings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedRound {
    /// (white, black) pairs.
    pub games: Vec<(usize, usize)>,
    /// The bye, if any.
    pub bye: Option<usize>,
}

/// Everything saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecoveryState {
    /// Format version.
    pub version: u32,
    /// Describes the run's settings; a file from another run is refused.
    pub fingerprint: String,
    /// Finished games, in completion order.
    pub games: Vec<SavedGame>,
    /// Swiss pairings, round by round.
    pub swiss_rounds: Vec<SavedRound>,
}

/// A recovery file on disk.
pub struct RecoveryFile {
    path: PathBuf,
}

impl RecoveryFile {
    /// Opens `path`: returns the saved state when it exists and matches `fingerprint`, a fresh
    /// state when it does not exist, and an error when it belongs to another run or is damaged.
    pub fn open(path: &Path, fingerprint: &str) -> Result<(RecoveryFile, RecoveryState), String> {
        let file = RecoveryFile {
            path: path.to_path_buf(),
        };
        let fresh = RecoveryState {
            version: VERSION,
            fingerprint: fingerprint.to_string(),
            ..RecoveryState::default()
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((file, fresh)),
            Err(e) => return Err(format!("cannot read recovery file {}: {e}", path.display())),
        };
        let state: RecoveryState = serde_json::from_str(&text)
            .map_err(|e| format!("recovery file {} is damaged: {e}", path.display()))?;
        if state.version != VERSION {
            return Err(format!(
                "recovery file {} has version {}, this runner writes {VERSION}",
                path.display(),
                state.version
            ));
        }
        if state.fingerprint != fingerprint {
            return Err(format!(
                "recovery file {} belongs to a run with other settings:\n  saved: {}\n  now:   {}\ndelete it or choose another --recover path",
                path.display(),
                state.fingerprint,
                fingerprint
            ));
        }
        Ok((file, state))
    }

    /// Writes the state atomically (temporary file, then rename).
    pub fn save(&self, state: &RecoveryState) -> Result<(), String> {
        let text = serde_json::to_string(state)
            .map_err(|e| format!("cannot encode recovery state: {e}"))?;
        crate::tools::output_file::write_atomically(&self.path, text.as_bytes())
            .map_err(|e| format!("recovery file: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_fingerprint_check() {
        let dir = std::env::temp_dir().join(format!("cotuong-recovery-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.json");
        let _ = std::fs::remove_file(&path);
        let (file, mut state) = RecoveryFile::open(&path, "run A").unwrap();
        assert!(state.games.is_empty());
        state.games.push(SavedGame {
            game_id: 3,
            round: 1,
            pair_id: Some(1),
            outcome: Outcome {
                white: 0,
                black: 1,
                white_half_points: 1,
            },
            termination: "checkmate".into(),
            pgn: "[Event \"x\"]\n".into(),
            moves: "h2e2 h9g7".into(),
        });
        state.swiss_rounds.push(SavedRound {
            games: vec![(0, 1)],
            bye: Some(2),
        });
        file.save(&state).unwrap();
        let (_, loaded) = RecoveryFile::open(&path, "run A").unwrap();
        assert_eq!(loaded, state);
        assert!(RecoveryFile::open(&path, "run B").is_err());
        std::fs::write(&path, "{not json").unwrap();
        assert!(RecoveryFile::open(&path, "run A").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_saved_without_their_moves_still_load() {
        let json = r#"{"game_id": 0, "round": 1, "pair_id": null,
            "outcome": {"white": 0, "black": 1, "white_half_points": 2},
            "termination": "checkmate", "pgn": ""}"#;
        let game: SavedGame = serde_json::from_str(json).unwrap();
        assert_eq!(game.moves, "");
    }
}
