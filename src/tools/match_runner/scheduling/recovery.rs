//! The recovery file: after every game the runner rewrites a small JSON file with the finished
//! games (results and PGN text) and the Swiss pairings made so far. Started again with the same
//! file and the same settings, the runner skips what is done and carries on; the schedule is
//! deterministic, so the same game ids mean the same games. The run's settings are saved typed
//! ([`RunSettings`]); files of version 1 saved them as one line of text, which is rebuilt from
//! the settings to resume them.

use super::super::statistics::Outcome;
use super::run_settings::RunSettings;
use engine_core::RuleSet;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format version, bumped when the layout changes.
const VERSION: u32 = 2;
/// What to do with a recovery file of another run.
const OTHER_RUN_HINT: &str = "delete it or choose another --recover path";

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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveryState {
    /// Format version.
    pub version: u32,
    /// The run's settings; a file from another run is refused.
    pub settings: RunSettings,
    /// Finished games, in completion order.
    pub games: Vec<SavedGame>,
    /// Swiss pairings, round by round.
    pub swiss_rounds: Vec<SavedRound>,
}

impl RecoveryState {
    /// The state of a run with `settings` that has played nothing yet.
    pub fn new(settings: &RunSettings) -> RecoveryState {
        RecoveryState {
            version: VERSION,
            settings: settings.clone(),
            games: Vec::new(),
            swiss_rounds: Vec::new(),
        }
    }
}

/// A file of version 1: the settings as one line of text.
#[derive(Deserialize)]
struct StateV1 {
    fingerprint: String,
    games: Vec<SavedGame>,
    swiss_rounds: Vec<SavedRound>,
}

/// A recovery file on disk.
pub struct RecoveryFile {
    path: PathBuf,
}

impl RecoveryFile {
    /// Opens `path`: returns the saved state when it exists and was saved by a run with
    /// `settings`, a fresh state when it does not exist, and an error when it belongs to another
    /// run or is damaged.
    pub fn open(
        path: &Path,
        settings: &RunSettings,
    ) -> Result<(RecoveryFile, RecoveryState), String> {
        let file = RecoveryFile {
            path: path.to_path_buf(),
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((file, RecoveryState::new(settings)))
            }
            Err(e) => return Err(format!("cannot read recovery file {}: {e}", path.display())),
        };
        let damaged =
            |e: serde_json::Error| format!("recovery file {} is damaged: {e}", path.display());
        let value: serde_json::Value = serde_json::from_str(&text).map_err(damaged)?;
        let state = match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(2) => {
                let state: RecoveryState = serde_json::from_value(value).map_err(damaged)?;
                if state.settings != *settings {
                    return Err(format!(
                        "recovery file {} belongs to a run with other settings:\n{}\n{OTHER_RUN_HINT}",
                        path.display(),
                        differences(&state.settings, settings)
                    ));
                }
                state
            }
            Some(1) => {
                let old: StateV1 = serde_json::from_value(value).map_err(damaged)?;
                let now = version_1_fingerprint(settings);
                if old.fingerprint != now {
                    return Err(format!(
                        "recovery file {} belongs to a run with other settings:\n  saved: {}\n  now:   {now}\n{OTHER_RUN_HINT}",
                        path.display(),
                        old.fingerprint
                    ));
                }
                // Resumed as this version: the next save writes the typed settings.
                RecoveryState {
                    games: old.games,
                    swiss_rounds: old.swiss_rounds,
                    ..RecoveryState::new(settings)
                }
            }
            other => {
                return Err(format!(
                    "recovery file {} has version {}, this runner reads 1 and {VERSION}",
                    path.display(),
                    other.map_or("none".to_string(), |v| v.to_string())
                ))
            }
        };
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

/// The settings that differ between `saved` and `now`, one per line.
fn differences(saved: &RunSettings, now: &RunSettings) -> String {
    let (saved, now) = (serde_json::json!(saved), serde_json::json!(now));
    let empty = serde_json::Map::new();
    let now_fields = now.as_object().unwrap_or(&empty);
    saved
        .as_object()
        .unwrap_or(&empty)
        .iter()
        .filter(|(key, value)| now_fields.get(*key) != Some(*value))
        .map(|(key, value)| {
            let current = now_fields.get(key).unwrap_or(&serde_json::Value::Null);
            format!("  {key}: saved {value}, now {current}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The one-line description of the settings that files of version 1 saved, built as that
/// version built it: a file is resumed only when it is the same text.
fn version_1_fingerprint(settings: &RunSettings) -> String {
    // The rule set and node variation joined the text only when they were not the default.
    let mut optional_settings = if settings.rule_set == RuleSet::default() {
        String::new()
    } else {
        format!(" rule-set {}", settings.rule_set.name())
    };
    if settings.vary_nodes {
        optional_settings.push_str(" vary-nodes");
    }
    let engines = settings
        .engines
        .iter()
        .map(|e| {
            let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!(
                "{} = {} {} [{}] {}",
                e.name,
                e.command,
                e.args.join(" "),
                e.time_control,
                options.join(",")
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "engines [{engines}]; format {:?} rounds {} games {}; openings {} ({} positions, {}, seed {}); maxmoves {} repetition {} nocapture {}{optional_settings}",
        settings.format,
        settings.rounds,
        settings.games,
        settings
            .openings
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "startpos".into()),
        settings.opening_count,
        if settings.random_openings { "random" } else { "in order" },
        settings.seed,
        settings.max_moves,
        settings.repetition,
        settings.no_capture,
    )
}

#[cfg(test)]
mod tests {
    use super::super::format::Format;
    use super::super::run_settings::EngineSettings;
    use super::*;
    use crate::tools::match_runner::TimeControl;
    use tempfile::TempDir;

    /// A recovery file written by version 1 of the format (two engines at depth 1, asian
    /// rules, one of its two games played), its engine command replaced by a placeholder.
    const VERSION_1_FILE: &str = include_str!("../../../../tests/data/match-recovery-v1.json");

    /// The settings of the run that wrote [`VERSION_1_FILE`].
    fn version_1_run() -> RunSettings {
        let engine = |name: &str| EngineSettings {
            name: name.into(),
            command: "@COTUONG@".into(),
            args: Vec::new(),
            time_control: TimeControl::Depth(1),
            options: vec![("Hash".into(), "16".into())],
        };
        RunSettings {
            engines: vec![engine("a"), engine("b")],
            format: Format::RoundRobin,
            rounds: 2,
            games: 1,
            openings: None,
            opening_count: 1,
            random_openings: false,
            seed: 1,
            max_moves: 0,
            repetition: 3,
            no_capture: 50,
            rule_set: RuleSet::Asian,
            vary_nodes: false,
        }
    }

    /// A fresh folder, removed when dropped (pass or fail), and the recovery file's path in it.
    fn scratch_file() -> (TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("run.json");
        (dir, path)
    }

    #[test]
    fn round_trip_and_settings_check() {
        let (_dir, path) = scratch_file();
        let run = version_1_run();
        let (file, mut state) = RecoveryFile::open(&path, &run).unwrap();
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
        let (_, loaded) = RecoveryFile::open(&path, &run).unwrap();
        assert_eq!(loaded, state);
        let other = RunSettings {
            rounds: 3,
            ..version_1_run()
        };
        let err = RecoveryFile::open(&path, &other)
            .err()
            .expect("another run");
        assert!(err.contains("rounds: saved 2, now 3"), "{err}");
        assert!(!err.contains("seed"), "only what differs: {err}");
        assert!(err.contains(OTHER_RUN_HINT), "{err}");
        std::fs::write(&path, "{not json").unwrap();
        assert!(RecoveryFile::open(&path, &run).is_err());
        std::fs::write(&path, r#"{"version": 7}"#).unwrap();
        let err = RecoveryFile::open(&path, &run)
            .err()
            .expect("unknown version");
        assert!(err.contains("has version 7"), "{err}");
    }

    #[test]
    fn version_1_files_resume_with_the_same_settings() {
        let (_dir, path) = scratch_file();
        std::fs::write(&path, VERSION_1_FILE).unwrap();
        let run = version_1_run();
        let (file, state) = RecoveryFile::open(&path, &run).expect("the same run resumes");
        assert_eq!(state.games.len(), 1);
        assert_eq!(state.games[0].game_id, 0);
        assert_eq!((state.version, &state.settings), (VERSION, &run));
        // Saved again, it is a file of this version.
        file.save(&state).unwrap();
        let (_, again) = RecoveryFile::open(&path, &run).unwrap();
        assert_eq!(again, state);
    }

    #[test]
    fn version_1_files_of_other_runs_are_refused() {
        let (_dir, path) = scratch_file();
        std::fs::write(&path, VERSION_1_FILE).unwrap();
        let other = RunSettings {
            rule_set: RuleSet::Vietnamese,
            ..version_1_run()
        };
        let err = RecoveryFile::open(&path, &other)
            .err()
            .expect("another run");
        assert!(err.contains("other settings"), "{err}");
        assert!(err.contains("saved: engines [a = @COTUONG@"), "{err}");
        assert!(err.contains(OTHER_RUN_HINT), "{err}");
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
