//! One optimiser step: a batch's gradient, computed in a fixed number of shards, applied by
//! AdamW at the learning rate the schedule gives for the step.

use super::gradient::{batch_gradient, parallel_loss_sum, Target};
use super::loader::Batch;
use super::network::Network;
use super::optimizer::AdamW;
use super::schedule::LrSchedule;
use super::shard::ShardGradient;
use crate::data::PackedPosition;

/// The net being trained and its optimiser, stepped one batch at a time.
pub(crate) struct Stepper {
    /// The float net.
    pub net: Network,
    /// Its optimiser's state.
    pub adam: AdamW,
    /// One gradient buffer per shard.
    shards: Vec<ShardGradient>,
    schedule: LrSchedule,
    target: Target,
    /// The output quantisation the weights are clipped for.
    qb: i32,
}

/// What one step did.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Step {
    /// The batch's summed loss, before the step.
    pub loss_sum: f64,
    /// The learning rate of the step.
    pub lr: f32,
}

impl Stepper {
    /// Steps `net` with `adam`, each batch's gradient split into `shards` parts, towards
    /// `target`, clipping to the bounds of output quantisation `qb`.
    pub fn new(
        net: Network,
        adam: AdamW,
        shards: usize,
        schedule: LrSchedule,
        target: Target,
        qb: i32,
    ) -> Stepper {
        let shards = vec![ShardGradient::new(net.layout()); shards];
        Stepper {
            net,
            adam,
            shards,
            schedule,
            target,
            qb,
        }
    }

    /// Trains on `batch`: one optimiser step.
    pub fn step(&mut self, batch: Batch<'_>) -> Step {
        let lr = self.schedule.at(self.adam.steps());
        let loss_sum = batch_gradient(
            &self.net,
            batch.positions,
            batch.order,
            self.target,
            &mut self.shards,
        );
        self.adam.step(&mut self.net, &self.shards, lr, self.qb);
        Step { loss_sum, lr }
    }

    /// The net's mean loss on `positions` (the validation positions), summed in a fixed order;
    /// `None` when there are none.
    pub fn mean_loss(&self, positions: &[PackedPosition]) -> Option<f64> {
        (!positions.is_empty())
            .then(|| parallel_loss_sum(&self.net, positions, self.target) / positions.len() as f64)
    }
}
