//! The engines of a match: how the user describes one (`engine_config`), what is written to it and
//! read from it in each dialect (`wire`, `xboard_wire`), and the running process (`engine_process`).

mod engine_config;
mod engine_process;
mod wire;
mod xboard_wire;

pub(crate) use engine_config::EngineConfig;
pub(crate) use engine_process::{EngineProcess, ProtocolLog, ThinkError};
pub(crate) use wire::{BestMove, GoLimits, Score};
