//! `engine-core`: the xiangqi board shared by the search, the rules referee, the match runner and
//! NNUE tooling. Position, legal move generation, make/unmake, Zobrist keys, FEN, move text in
//! every common notation, and PGN game records read as text.
//! No I/O and no threads, so every consumer can embed it.

pub mod archive;
pub mod attacks;
mod bitboard;
pub mod fen;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
mod piece;
mod position;
pub mod rng;
pub mod rules;
mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{expand_startpos, FenError, FenWarning, FenWarnings, STARTPOS, START_FEN};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{move_text, parse_move, MoveTextError, Notation, RankBase, UnknownNotation};
pub use perft::{perft, perft_divide};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use rng::SplitMix64;
pub use square::Square;
