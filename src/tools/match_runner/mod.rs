//! `cotuong match`: plays games between engines speaking UCI, UCCI or XBoard (CECP v2), adjudicated by the
//! engine-core referee, with clocks, openings, PGN, Elo/SPRT statistics, round-robin and Swiss
//! tournaments and a recovery file. See `docs/match-runner.md` for usage.

mod command;
mod engines;
mod games;
mod scheduling;
mod statistics;

pub use command::{run, MatchArgs};
pub(crate) use engines::{start_engine, EngineConfig, MatchEngine};
pub(crate) use games::{
    load_openings, opening_order, play_game, today, Clock, GameSettings, Opening, Seat, TimeControl,
};
