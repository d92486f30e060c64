//! What a run reports: its numbers epoch by epoch, and in the end what it did.

use super::kfit::KFit;
use crate::data::FilterStats;
use std::path::PathBuf;

/// One epoch's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: u32,
    /// Learning rate of the epoch's last step (0 for epochs restored from a checkpoint).
    pub lr: f32,
    /// Mean training loss over the epoch (as the weights changed).
    pub train_loss: f64,
    /// Mean validation loss after the epoch (`None` without validation positions).
    pub validation_loss: Option<f64>,
    /// Wall time of the training pass (not the validation), seconds; 0 for epochs restored
    /// from a checkpoint.
    pub seconds: f64,
    /// Training positions per second of the pass.
    pub positions_per_second: f64,
}

impl EpochReport {
    /// An epoch restored from a checkpoint's history: its losses, without a rate or a time.
    pub(crate) fn restored(epoch: u32, train_loss: f64, validation_loss: Option<f64>) -> Self {
        EpochReport {
            epoch,
            lr: 0.0,
            train_loss,
            validation_loss,
            seconds: 0.0,
            positions_per_second: 0.0,
        }
    }

    /// The run's line for the epoch, of `epochs`.
    pub(crate) fn line(&self, epochs: u32) -> String {
        let validation = self
            .validation_loss
            .map_or("-".to_string(), |v| format!("{v:.6}"));
        format!(
            "epoch {}/{epochs}: train loss {:.6}, validation loss {validation}, lr {:.3e}, {:.0} positions/s, {:.1} s",
            self.epoch, self.train_loss, self.lr, self.positions_per_second, self.seconds
        )
    }
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// K fitted on the training positions (`None` when given with `--k` or restored).
    pub k_fit: Option<KFit>,
    /// The K trained with and stored as the net's eval scale.
    pub eval_scale: i32,
    /// Training positions.
    pub train_positions: usize,
    /// Validation positions.
    pub validation_positions: usize,
    /// Games read.
    pub games: u64,
    /// Games held out (every game of the validation files included).
    pub validation_games: u64,
    /// Games of the data files left out of training because they are in a validation file.
    pub excluded_games: u64,
    /// Filter counts.
    pub filter_stats: FilterStats,
    /// Every epoch of the run, restored ones included.
    pub epochs: Vec<EpochReport>,
    /// The net written.
    pub output: PathBuf,
    /// Its weights hash.
    pub net_hash: u64,
}
