//! The engine's protocols through the binary: UCI, UCCI and XBoard sessions, the prompt and
//! help for a person, options, bad input and fuzzing, liveness under a running search, and what
//! a new user reads. One test binary for all of them (a binary per file made the suite spend
//! most of its build linking).

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod closed_output;
mod help_and_words;
mod options;
mod protocol_fuzz;
mod protocol_help;
mod protocol_liveness;
mod ucci;
mod uci;
mod xboard;
