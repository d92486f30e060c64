//! One game of a match: the game loop (`game`), its clocks, its opening, its PGN text and the
//! detection of games that repeat an earlier one.

mod clock;
mod game;
mod openings;
mod pgn;
mod repeats;

pub(crate) use clock::{Clock, TimeControl};
pub(crate) use game::{
    play_game, DrawRule, GameRecord, GameSettings, PlayedMove, ResignRule, Seat, TerminationKind,
};
pub(crate) use openings::{load_openings, opening_order, Opening};
pub(crate) use pgn::{format_game, today, EventInfo};
pub(crate) use repeats::{distinct_games, number_passes, varied_nodes, ReplayDetector};
