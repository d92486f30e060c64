//! The false-decisive suite shared by its two tests: the rows of `tests/data/false-decisive.tsv`
//! (`rows`), the exact search that checks their verdicts (`exact`), and what the engine's search
//! reports on them (`reported`).

#![allow(dead_code)]

pub mod exact;
pub mod reported;
pub mod rows;
