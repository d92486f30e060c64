//! Cotuong's efficiently updatable neural network (NNUE).
//!
//! Where things are:
//! - [`features`]: the one place that maps a piece on a square to an input index, for both
//!   perspectives. Data generation, the trainer and inference all use it, so they cannot disagree.
//! - [`format`]: the net file format (header, weights, validation, typed errors).
//! - [`data`]: the self-play game-record format (writer, reader, load-time filters, text dump)
//!   and the packed positions a trainer holds in memory.
//! - `train` (cargo feature `train`): the trainer, which turns game records into a net file.
//!
//! This crate depends on `engine-core`'s types only; the search reaches it through the
//! evaluation seam of the engine.

pub mod data;
pub mod features;
pub mod format;
#[cfg(feature = "train")]
pub mod train;
