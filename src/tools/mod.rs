//! Tools built on the engine but not part of it: the rules referee on the command line
//! (`cotuong judge`), the engine-versus-engine match runner (`cotuong match`) and reading game
//! files in any notation and encoding (`pgn_file`). They live in the
//! binary only, so their dependencies (progress bars, JSON) stay out of the library.

pub mod datagen;
pub mod judge;
pub mod match_runner;
pub mod pgn_file;
