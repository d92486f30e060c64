//! `engine-core`: the xiangqi board shared by the search, the rules referee, the match runner and
//! NNUE tooling. Position, legal move generation, make/unmake, Zobrist keys, FEN, move text in
//! every common notation, and PGN game records read as text.
//! No I/O and no threads, so every consumer can embed it.

#![deny(missing_docs)]

// Two modules stay public as namespaces, their names too generic or clashing to flatten:
pub mod archive; // `archive::read` beside `archive::cbf::read` and the other formats' `read`.
mod attacks;
mod bitboard;
mod diagram;
mod fen;
mod movegen;
mod moves;
mod notation;
mod perft;
pub mod pgn; // `pgn::Game` beside the engine's and the trainer's `Game`.
mod piece;
mod position;
mod rng;
mod rules;
mod square;
mod zobrist;

// The board: squares, pieces, positions, moves.
pub use bitboard::Bitboard;
pub use diagram::{Diagram, Edge, Layout, Symbols};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::Square;

// Attack tables read directly by the search's exchange evaluation and the hand-crafted evaluation.
pub use attacks::{chariot_attacks, general_moves, horse_moves};

// Positions as text (FEN) and moves as text (every notation).
pub use fen::{expand_startpos, FenError, FenWarning, FenWarnings, STARTPOS, START_FEN};
pub use notation::{move_text, parse_move, MoveTextError, Notation, RankBase, UnknownNotation};

// The referee: the rule sets and their options, verdicts on repetition cycles and whole games.
pub use rules::{
    adjudicate, counted_plies_of, judge_cycle, judge_cycle_with, try_adjudicate, ChaseRules,
    CheckCounting, CheckVersusChase, CycleVerdict, GameResult, IllegalMoveError, Referee, RuleId,
    RuleOptions, RuleSet, UnknownRuleSet, Verdict,
};

// Move-generation counts, and the deterministic generator for tests and data generation.
pub use perft::{perft, perft_divide};
pub use rng::SplitMix64;
