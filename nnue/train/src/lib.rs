//! Cotuong's NNUE training side: the self-play data format and the trainer. Inference (the net
//! file format, features, accumulators) is the `nnue` crate, which this one builds on.
//!
//! Where things are:
//! - [`data`]: the self-play game-record format (writer, reader, load-time filters, text dump),
//!   the packed positions a trainer holds in memory, and synthetic games for tests.
//! - [`train`]: the trainer, which turns game records into a net file ([`train::Args`],
//!   [`train::run`]).
//! - the `nnue` binary (`src/bin/nnue.rs`): `train`, `dump` and `synth` on the command line.

#![deny(missing_docs)]

pub mod data;
pub mod train;
