//! Tools built on the engine but not part of it: the rules referee on the command line
//! (`cotuong judge`) and the engine-versus-engine match runner (`cotuong match`). They live in the
//! binary only, so their dependencies (progress bars, JSON) stay out of the library.

pub mod datagen;
pub mod judge;
pub mod match_runner;
