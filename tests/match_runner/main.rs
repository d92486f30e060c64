//! Integration tests of `cotuong match` and the opening suite, in one test binary so that the
//! release build links once.

mod common;
mod cotuong_runs;
mod errors;
mod failures;
mod fairy_stockfish;
mod opening_suite;
mod replays;
mod selfplay;
mod slices;
mod xboard;
