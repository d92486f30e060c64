//! Running a match: the schedule (round-robin Berger tables or Swiss pairings), the jobs it hands
//! to the worker pool, the recovery file, and merging the slices of a split match.

mod berger;
mod format;
mod job;
mod merge;
mod pool;
mod recovery;
mod run_settings;
mod swiss;
mod tournament;

pub(crate) use format::Format;
pub(crate) use job::Job;
pub(crate) use merge::merge_slices;
pub(crate) use run_settings::{EngineSettings, RunSettings};
pub(crate) use tournament::{run_tournament, Plan};
