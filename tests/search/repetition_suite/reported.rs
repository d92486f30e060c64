//! What the engine's search reports on a row: each iteration's score, and whether it claims a
//! decided game.

use cotuong::game::Game;
use cotuong::search::{
    Info, ScoreBound, SearchRequest, Searcher, EXPECTED_RULE_WIN, MATE_BOUND, MAX_PLY,
};
use engine_core::Move;

/// One reported iteration: depth, score (side to move's view), bound, principal variation.
pub type Reported = (i32, i32, ScoreBound, Vec<Move>);

/// Searches `game` under `request` and returns every completed iteration of the first line.
pub fn iterations(searcher: &mut Searcher, game: &Game, request: &SearchRequest) -> Vec<Reported> {
    let mut reported = Vec::new();
    searcher
        .search(game, request, &mut |info| {
            if let Info::Iteration {
                depth,
                multipv: 1,
                score,
                bound,
                pv,
                ..
            } = info
            {
                reported.push((*depth, *score, *bound, pv.clone()));
            }
        })
        .expect("a legal move");
    reported
}

/// Whether a reported score claims a win (`Some(true)`) or a loss (`Some(false)`) for the side
/// to move: a decisive score, unless its bound points away from the decision.
pub fn claim(score: i32, bound: ScoreBound) -> Option<bool> {
    if score >= MATE_BOUND && bound != ScoreBound::Upper {
        Some(true)
    } else if score <= -MATE_BOUND && bound != ScoreBound::Lower {
        Some(false)
    } else {
        None
    }
}

/// The least magnitude of an expected (unproven) rule win: `EXPECTED_RULE_WIN` less the plies
/// to the offence, printed as `cp ±249xx`.
const RULE_WIN_BOUND: i32 = EXPECTED_RULE_WIN - MAX_PLY as i32;

/// Whether a reported score claims a decided game in either band: a proven one ([`claim`]) or
/// an expected rule win, which on a position the game does not decide is just as false.
pub fn any_claim(score: i32, bound: ScoreBound) -> Option<bool> {
    if score >= RULE_WIN_BOUND && bound != ScoreBound::Upper {
        Some(true)
    } else if score <= -RULE_WIN_BOUND && bound != ScoreBound::Lower {
        Some(false)
    } else {
        None
    }
}
