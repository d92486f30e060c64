//! One game of a run's schedule: which engines play it, with which colours and opening. The
//! pool plays jobs; the schedule, the recovery file and the repeat detection refer to them.

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Position in the schedule; stable across resumes.
    pub game_id: usize,
    /// Tournament round (1-based).
    pub round: usize,
    /// Game pairs (same opening, colours reversed) share an id.
    pub pair_id: Option<usize>,
    /// Index into the opening list.
    pub opening: usize,
    /// Red's engine index.
    pub red: usize,
    /// Black's engine index.
    pub black: usize,
    /// How many jobs before this one in the schedule have the same engines, colours and
    /// opening (see `repeats`).
    pub pass: usize,
}
