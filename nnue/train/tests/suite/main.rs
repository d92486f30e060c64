//! nnue-train's tests: the game-record format and the trainer. One test binary for both (a
//! binary per file made the suite spend most of its build linking).

mod game_records;
mod trainer;
