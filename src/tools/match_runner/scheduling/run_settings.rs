//! The settings that decide which games a run plays and how, kept typed in the recovery file (and
//! a slice's JSON): a file is resumed, or slices merged, only by a run with the same settings.

use super::super::engines::EngineConfig;
use super::super::games::TimeControl;
use super::format::Format;
use engine_core::RuleSet;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What identifies a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The engines, in their order in the schedule.
    pub engines: Vec<EngineSettings>,
    /// Pairing system.
    pub format: Format,
    /// `--rounds`.
    pub rounds: usize,
    /// `--games` as given (a Swiss run plays one game per encounter whatever it says).
    pub games: usize,
    /// The opening file; `None` for the initial position only.
    pub openings: Option<PathBuf>,
    /// How many openings the file held.
    pub opening_count: usize,
    /// `--random-openings`.
    pub random_openings: bool,
    /// `--seed`.
    pub seed: u64,
    /// `--maxmoves`.
    pub max_moves: u32,
    /// `--repetition`.
    pub repetition: u32,
    /// `--nocapture`.
    pub no_capture: u32,
    /// `--rule-set`, by its name.
    #[serde(with = "rule_set_name")]
    pub rule_set: RuleSet,
    /// `--vary-nodes`.
    pub vary_nodes: bool,
}

/// What identifies one engine of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSettings {
    /// Its name.
    pub name: String,
    /// Its program.
    pub command: String,
    /// The program's arguments.
    pub args: Vec<String>,
    /// Its time control.
    pub time_control: TimeControl,
    /// Its options, in the order they are set.
    pub options: Vec<(String, String)>,
}

impl EngineSettings {
    /// The settings of `engine` that identify it.
    pub fn of(engine: &EngineConfig) -> EngineSettings {
        EngineSettings {
            name: engine.name.clone(),
            command: engine.command.clone(),
            args: engine.args.clone(),
            time_control: engine.time_control.clone(),
            options: engine.options.clone(),
        }
    }
}

/// A rule set written as its name (`vietnamese`, `asian`): engine-core's type has no serde.
mod rule_set_name {
    use engine_core::RuleSet;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(rule_set: &RuleSet, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rule_set.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RuleSet, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
