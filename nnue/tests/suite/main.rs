//! nnue's tests: accumulators, the feature sets and their buckets, net files and bad input, the
//! float reference, symmetry, and every SIMD path against the portable one. One test binary
//! for all of them (a binary per file made the suite spend most of its build linking).

mod common;

mod accumulator;
mod attack_buckets;
mod bad_input;
mod float_reference;
mod king_buckets;
mod net_files;
mod simd_paths;
mod symmetry;
