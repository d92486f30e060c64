//! Cotuong, a xiangqi engine: the library behind the `cotuong` binary.
//!
//! The engine lives here, free of any command-line or tool dependency, so that integration
//! tests, benchmarks and in-process tools (data generation, training, tuning) can call it
//! directly. The binary (`src/main.rs`) adds the command line and the tools (`src/tools/`).

#![deny(missing_docs)]

pub mod bench;
pub mod engine;
pub mod eval;
pub mod game;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod strength;
