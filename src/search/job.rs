//! The root of one search as every thread starts it: the position, the game history that
//! repetitions are judged against, and the root moves to search. How to search it (limits,
//! lines, rules) is the caller's [`super::SearchRequest`].

use engine_core::{Move, Position};

/// The position to search, with its history and root moves.
pub(super) struct Job {
    /// The root position.
    pub pos: Position,
    /// Keys of the game so far, ending with the root's key (for repetitions).
    pub keys: Vec<u64>,
    /// Moves of the game so far: `moves[i]` led from `keys[i]` to `keys[i + 1]`.
    pub moves: Vec<Move>,
    /// Legal root moves to consider (after `banmoves` / `searchmoves`); non-empty.
    pub root_moves: Vec<Move>,
}
