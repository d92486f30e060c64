//! The XBoard/WinBoard dialect (CECP v2): its commands ([`command`]), one input line parsed into
//! one of them ([`parse`]), the settings only this dialect reads ([`options`]), the text it
//! writes ([`output`]), and the [`session::XboardSession`] that keeps the game CECP leaves to
//! the engine.

mod command;
mod errors;
mod options;
mod output;
mod parse;
mod session;

pub use command::XCommand;
pub use parse::parse;
pub use session::XboardSession;
