//! The held-out loss of finished net files, through the engine's own quantised inference, at one
//! score scale chosen for the comparison.
//!
//! A training run reports its losses at the K fitted on its own data (`sigmoid(score / K)` in the
//! target and the prediction alike), so two runs' losses differ by their K as well as by their
//! nets: a smaller K sharpens every target and raises every loss. Here every net is measured
//! against the same targets at the same K, with the training filters, so nets trained on other
//! data, with other features or widths, compare on one scale.

use super::dataset::read_games;
use super::error::TrainError;
use super::network::sigmoid;
use crate::data::{points_for, Filters};
use engine_core::Position;
use nnue::Network;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// A kept validation position with its target's parts.
struct Sample {
    position: Position,
    /// Training score, side to move's view, engine units.
    score: i32,
    /// The game's result for the side to move: 1 win, ½ draw, 0 loss.
    result: f32,
}

/// The kept positions of validation files.
pub struct ValidationSet {
    samples: Vec<Sample>,
    /// Games read.
    pub games: u64,
}

impl ValidationSet {
    /// Reads `files` (plain or gzip game records) and keeps what `filters` keeps, as training
    /// does (no mirroring).
    pub fn load(files: &[PathBuf], filters: &Filters) -> Result<ValidationSet, TrainError> {
        let mut samples = Vec::new();
        let mut games = 0;
        for path in files {
            let file = read_games(path, |game| {
                for p in game.positions() {
                    if let Ok(score) = filters.check(&p) {
                        let result = points_for(game.result(), p.position.side_to_move());
                        samples.push(Sample {
                            position: p.position,
                            score,
                            result,
                        });
                    }
                }
                true
            })?;
            games += file.games;
        }
        Ok(ValidationSet { samples, games })
    }

    /// Positions kept.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether no position was kept.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The mean of `(sigmoid(eval / k) - t)²` with `t = lambda · sigmoid(score / k) + (1 -
    /// lambda) · result`, where `eval` is `net`'s quantised evaluation in engine units: the
    /// trainer's loss, at the scale `k` instead of the net's own. Summed in a fixed order, so the
    /// figure does not depend on the thread count.
    pub fn loss(&self, net: &Network, k: f64, lambda: f64) -> f64 {
        /// Positions per parallel part of the sum.
        const CHUNK: usize = 4096;
        if self.samples.is_empty() {
            return 0.0;
        }
        let k = k as f32;
        let lambda = lambda as f32;
        let sums: Vec<f64> = self
            .samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|s| {
                        let target =
                            lambda * sigmoid(s.score as f32 / k) + (1.0 - lambda) * s.result;
                        let e = sigmoid(net.evaluate(&s.position) as f32 / k) - target;
                        f64::from(e * e)
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / self.samples.len() as f64
    }
}

/// A net file's loss on a [`ValidationSet`].
#[derive(Clone, Debug, PartialEq)]
pub struct NetLoss {
    /// The net file.
    pub path: PathBuf,
    /// Its weights hash.
    pub hash: u64,
    /// The K it was trained with.
    pub eval_scale: i32,
    /// Its loss at the common scale.
    pub loss: f64,
    /// Its loss at its own K, as its training run measured it (up to quantisation).
    pub loss_at_own_scale: f64,
}

/// Loads the net file at `path` and measures it on `set` at scale `k`.
pub fn net_loss(
    path: &Path,
    set: &ValidationSet,
    k: f64,
    lambda: f64,
) -> Result<NetLoss, TrainError> {
    let net = Network::load_file(path).map_err(|error| TrainError::Net {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(NetLoss {
        path: path.to_path_buf(),
        hash: net.hash(),
        eval_scale: net.eval_scale(),
        loss: set.loss(&net, k, lambda),
        loss_at_own_scale: set.loss(&net, f64::from(net.eval_scale()), lambda),
    })
}
