//! Training positions streamed from the data files: each epoch reads the files again, in order,
//! in chunks, each chunk shuffled on its own (a chunk holding everything is the in-memory run,
//! bit for bit).

use super::{Batch, Shuffler, TrainingPositions};
use crate::data::PackedPosition;
use crate::train::dataset::{stream_chunks, DataFile, LoadOptions, Scan, ScoreCounts};
use crate::train::error::TrainError;

/// The data files as the first pass ([`crate::train::scan`]) found them, read again every
/// epoch.
pub(crate) struct Streamed {
    files: Vec<DataFile>,
    options: LoadOptions,
    chunk: usize,
    positions: usize,
    /// The training positions' scores and results, counted by the first pass.
    scores: ScoreCounts,
    shuffler: Shuffler,
}

impl Streamed {
    /// The training positions of the files `scan` describes, read with `options` in chunks of
    /// `chunk`, shuffled by `seed`, the epoch and the chunk, in batches of `batch_size`.
    pub fn new(
        scan: &Scan,
        options: LoadOptions,
        chunk: usize,
        seed: u64,
        batch_size: usize,
    ) -> Streamed {
        Streamed {
            files: scan.data.files.clone(),
            options,
            chunk,
            positions: scan.train_positions as usize,
            scores: scan.scores.clone(),
            shuffler: Shuffler::new(seed, batch_size),
        }
    }
}

impl TrainingPositions for Streamed {
    fn len(&self) -> usize {
        self.positions
    }

    fn chunk(&self) -> Option<usize> {
        Some(self.chunk)
    }

    fn score_samples(&self) -> Box<dyn Iterator<Item = (i32, f32)> + '_> {
        Box::new(self.scores.samples())
    }

    /// A reader thread reads the chunks in order while the batches of the one before are
    /// stepped (so two chunks are in memory at a time); the chunks and their order do not
    /// depend on timing or on the thread count.
    fn for_each_batch(
        &mut self,
        epoch: u32,
        step: &mut dyn FnMut(Batch<'_>),
    ) -> Result<(), TrainError> {
        let Streamed {
            files,
            options,
            chunk,
            shuffler,
            ..
        } = self;
        let (files, options, chunk) = (&*files, &*options, *chunk);
        std::thread::scope(|scope| {
            let (send, receive) = std::sync::mpsc::sync_channel::<Vec<PackedPosition>>(0);
            let reader =
                scope.spawn(move || stream_chunks(files, options, chunk, |c| send.send(c).is_ok()));
            for (c, positions) in receive.iter().enumerate() {
                shuffler.batches(epoch, c, &positions, step);
            }
            reader.join().unwrap_or_else(|_| {
                Err(TrainError::Threads("the data reader panicked".to_string()))
            })
        })
    }
}
