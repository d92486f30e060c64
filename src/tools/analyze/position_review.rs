//! Positions analyzed: the best lines (MultiPV) of each, under the run's limits.

use engine_core::Position;

use super::analyst::{Analysis, Analyst};
use super::input::PositionInput;
use super::progress::Progress;

/// One position and what the search says about it.
#[derive(Clone, Debug)]
pub struct PositionReview {
    /// Where it came from (`--fen`, `FILE:LINE`).
    pub source: String,
    /// The position searched.
    pub position: Position,
    /// The search's lines.
    pub analysis: Analysis,
}

/// Searches each position for `lines` lines, each from a cleared table (see `analyst`).
pub fn review_positions(
    analyst: &mut Analyst,
    positions: &[PositionInput],
    lines: usize,
    progress: &Progress,
) -> Vec<PositionReview> {
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            progress.working_on(format!("position {}", i + 1));
            let position = p.game.position().clone();
            let analysis =
                analyst.analyze(&p.game, lines, &mut |info| progress.info(&position, info));
            progress.searched();
            PositionReview {
                source: p.source.clone(),
                position,
                analysis,
            }
        })
        .collect()
}
