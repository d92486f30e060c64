//! Synthetic games for tests and benchmarks: uniformly random legal moves, scored by a material
//! count, ended by mate, stalemate, the no-capture rule, bare material or a ply cap.
//!
//! They exercise the format and the trainer without an engine: the score is an exact function of
//! the board (a net can learn it), the results are whatever random play gives.

use super::outcome::Termination;
use super::record::{Game, GameRecord};
use super::score::Score;
use engine_core::{GameResult, PieceKind, Position, RuleOptions, SplitMix64};

/// Material values in engine units, indexed by [`PieceKind::index`].
pub const MATERIAL: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// Material of the side to move minus the opponent's, in engine units.
pub fn material_score(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    PieceKind::ALL
        .iter()
        .map(|&k| {
            MATERIAL[k.index()]
                * (pos.pieces_of(us, k).count() as i32
                    - pos.pieces_of(us.opponent(), k).count() as i32)
        })
        .sum()
}

/// Plies at the start of a synthetic game recorded without a score (as a generator records its
/// random opening moves).
const UNSCORED_PLIES: usize = 2;

/// A random game from the initial position: `seed` picks the moves, `max_plies` caps the length.
/// Every ply is scored by [`material_score`] except the first two (no score) and a mating move
/// (mate in 1).
pub fn random_game(seed: u64, max_plies: usize) -> Game {
    let mut rng = SplitMix64::stream(seed, 0x5EED);
    let rules = RuleOptions::default();
    let mut record = GameRecord::new(&Position::startpos())
        .expect("the initial position survives a FEN round trip");
    let (result, termination) = loop {
        let pos = record.position().clone();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let winner = pos.side_to_move().opponent();
            let reason = if pos.in_check() {
                Termination::Checkmate
            } else {
                Termination::Stalemate
            };
            break (GameResult::win_for(winner), reason);
        }
        if rules.no_capture_limit_reached(&pos) {
            break (GameResult::Draw, Termination::NoCapture);
        }
        if pos.has_no_attacking_material() {
            break (GameResult::Draw, Termination::InsufficientMaterial);
        }
        if record.len() >= max_plies {
            break (GameResult::Draw, Termination::PlyCap);
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        let mut after = pos.clone();
        after.make_move(mv);
        let score = if record.len() < UNSCORED_PLIES {
            Score::None
        } else if !after.has_legal_move() {
            Score::Mate {
                wins: true,
                plies: 1,
            }
        } else {
            Score::eval(material_score(&pos))
        };
        record
            .push(mv, score)
            .expect("a legal move with an in-range score is recorded");
    };
    record
        .finish(result, termination)
        .expect("the outcome was read off the final position")
}

/// Every position of [`random_game`]`(seed, max_plies)` that has a score, packed with the game's
/// result under `buckets`, for the trainer's unit tests.
#[cfg(test)]
pub(crate) fn packed_positions(
    seed: u64,
    max_plies: usize,
    buckets: nnue::features::OutputBuckets,
) -> Vec<super::PackedPosition> {
    let game = random_game(seed, max_plies);
    game.positions()
        .filter_map(|p| {
            let score = super::Filters::keep_all().check(&p).ok()?;
            Some(super::PackedPosition::new(
                &p.position,
                score,
                game.result(),
                buckets,
            ))
        })
        .collect()
}
