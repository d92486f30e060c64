//! The search through the binary and in process: the searcher's API, the rules inside the
//! search, mates, decisive scores and their exact verdicts, the hash table, perft and bench, the
//! network options and strength levels. One test binary for all of them (a binary per file
//! made the suite spend most of its build linking).

#[path = "../common/mod.rs"]
mod common;
mod repetition_suite;

mod eval_file;
mod exact_verdicts;
mod false_decisive;
mod hash_table;
mod mates;
mod perft_and_bench;
mod search_rule_sets;
mod search_rules;
mod searcher;
mod strength;
