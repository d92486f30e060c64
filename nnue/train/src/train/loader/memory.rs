//! Training positions held in memory: one shuffle over all of them every epoch.

use super::{Batch, Shuffler, TrainingPositions};
use crate::data::PackedPosition;
use crate::train::error::TrainError;

/// Every training position, loaded once.
pub(crate) struct InMemory {
    positions: Vec<PackedPosition>,
    shuffler: Shuffler,
}

impl InMemory {
    /// Batches of `batch_size` over `positions`, shuffled every epoch by `seed` and the epoch.
    pub fn new(positions: Vec<PackedPosition>, seed: u64, batch_size: usize) -> InMemory {
        InMemory {
            positions,
            shuffler: Shuffler::new(seed, batch_size),
        }
    }
}

impl TrainingPositions for InMemory {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn chunk(&self) -> Option<usize> {
        None
    }

    fn score_samples(&self) -> Box<dyn Iterator<Item = (i32, f32)> + '_> {
        Box::new(self.positions.iter().map(|p| (p.score(), p.result())))
    }

    fn for_each_batch(
        &mut self,
        epoch: u32,
        step: &mut dyn FnMut(Batch<'_>),
    ) -> Result<(), TrainError> {
        // All the positions are the epoch's chunk 0.
        self.shuffler.batches(epoch, 0, &self.positions, step);
        Ok(())
    }
}
