//! engine-core's tests: notation, PGN and game files, the rules of the Law, the Asian rule
//! book and the WXF manual's diagrams against their cases and against other programs' verdicts,
//! perft, and properties of the board. One test binary for all of them (a binary per file made
//! the suite spend most of its build linking).

mod axf_repetition;
mod game_files;
mod notation;
mod perft_suite;
mod pgn;
mod properties;
mod pyffish_oracle;
mod repetition_cases;
mod rules_law_cases;
mod rules_outcomes;
mod wxf_manual;
mod wxf_oracle;
