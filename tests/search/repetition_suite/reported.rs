//! What the engine's search reports on a row: each iteration's score, and whether it claims a
//! decided game.

use cotuong::game::Game;
use cotuong::search::{Info, ScoreBound, SearchRequest, Searcher, DECIDED_BOUND, MATE_BOUND};
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
    claim_beyond(score, bound, MATE_BOUND)
}

/// Whether a reported score claims a decided game in either band: a proven one ([`claim`]) or
/// an expected rule win (printed as `cp ±249xx`), which on a position the game does not decide
/// is just as false.
pub fn any_claim(score: i32, bound: ScoreBound) -> Option<bool> {
    claim_beyond(score, bound, DECIDED_BOUND)
}

/// The side a score at least `least` in magnitude claims wins, unless its bound points away.
fn claim_beyond(score: i32, bound: ScoreBound, least: i32) -> Option<bool> {
    if score >= least && bound != ScoreBound::Upper {
        Some(true)
    } else if score <= -least && bound != ScoreBound::Lower {
        Some(false)
    } else {
        None
    }
}
