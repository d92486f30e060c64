//! The binary's commands other than the protocols, end to end: `analyze`, `datagen`, `judge`,
//! `play`, `train`, `tune`, their output files, and `cotuong` under XBoard clients. One test
//! binary for all of them (a binary per file made the suite spend most of its build linking).

#[path = "../common/mod.rs"]
mod common;

mod analyze;
mod datagen;
mod gui;
mod judge_cli;
mod output_files;
mod play;
mod train_and_load;
mod tune;
mod xboard_clients;
