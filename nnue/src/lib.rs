//! Cotuong's efficiently updatable neural network (NNUE).
//!
//! Where things are:
//! - [`features`]: the one place that maps a piece on a square to an input index, for both
//!   perspectives. Data generation, the trainer and inference all use it, so they cannot disagree.
//! - [`format`](mod@format): the net file format (header, weights, validation, typed errors).
//! - [`network`]: how a net is loaded: a parsed file checked and laid out for inference.
//! - [`accumulator`]: the per-worker accumulator stack the search pushes and pops, and evaluation.
//! - [`finny`]: the accumulator cache that makes refreshes (king-bucket changes) cheap.
//! - [`simd`]: the vector kernels (portable, AVX2, AVX-512), chosen at run time.
//! - [`reference`](mod@reference): the float evaluation the quantised one is tested against.
//! - [`random_net`]: deterministic pseudo-random nets for tests and benchmarks.
//!
//! The self-play game-record format and the trainer, which turns game records into a net file,
//! are the `nnue-train` crate (`nnue/train/`).
//!
//! This crate depends on `engine-core`'s types only; the search reaches it through the
//! evaluation seam of the engine.

#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod accumulator;
pub mod features;
pub mod finny;
pub mod format;
pub mod network;
pub mod random_net;
pub mod reference;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use finny::FinnyTable;
pub use network::{LoadError, Network, EVAL_LIMIT};
pub use simd::Simd;
