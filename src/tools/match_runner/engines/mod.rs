//! The engines of a match: how the user describes one (`engine_config`), what is written to it and
//! read from it in each dialect (`wire`, `xboard_wire`), the process under every engine
//! (`engine_process`), and the one engine interface (`engine`) with its UCI/UCCI and XBoard
//! implementations.

mod engine;
mod engine_config;
mod engine_process;
mod protocol_log;
mod uci_engine;
mod whole_number;
mod wire;
mod xboard_engine;
mod xboard_wire;

pub(crate) use engine::{start_engine, MatchEngine, ThinkError};
pub(crate) use engine_config::EngineConfig;
pub(crate) use protocol_log::ProtocolLog;
pub(crate) use whole_number::{at_least, whole_number};
pub(crate) use wire::{BestMove, GoLimits, Score};
