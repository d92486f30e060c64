//! The false-decisive suite shared by its two tests: the rows of `tests/data/false-decisive.tsv`
//! (`rows`), and the exact search that checks their verdicts (`exact`).

#![allow(dead_code)]

pub mod exact;
pub mod rows;
