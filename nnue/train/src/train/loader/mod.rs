//! A run's training positions, epoch by epoch, as shuffled batches, behind one interface
//! ([`TrainingPositions`]) with two implementations: every position held in memory
//! ([`InMemory`]), or the data files read again at every epoch in chunks ([`Streamed`]). The
//! training loop does not know which it has. [`load`] reads the data once and picks one by the
//! options; the validation positions are held in memory either way, in the [`Dataset`] beside.

mod memory;
mod stream;

pub(crate) use memory::InMemory;
pub(crate) use stream::Streamed;

use super::args::Args;
use super::dataset::{load_validation_files, scan, Dataset, LoadOptions};
use super::error::TrainError;
use crate::data::PackedPosition;
use engine_core::SplitMix64;

/// Stream of the per-epoch shuffles (the epoch number is added; chunk `c` of a streamed epoch
/// adds `c << 32` as well, so chunk 0 shuffles as the in-memory epoch does).
const SHUFFLE_STREAM: u64 = 0x5_0000_0000;

/// The random stream that shuffles chunk `chunk` of epoch `epoch` (0-based both).
fn shuffle_stream(epoch: u32, chunk: usize) -> u64 {
    SHUFFLE_STREAM
        .wrapping_add(u64::from(epoch))
        .wrapping_add((chunk as u64) << 32)
}

/// One optimiser step's positions: `positions[i]` for every `i` of `order`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Batch<'a> {
    /// The positions the batch is drawn from (the data in memory, or one streamed chunk).
    pub positions: &'a [PackedPosition],
    /// Indices into `positions`, in the batch's order.
    pub order: &'a [u32],
}

impl Batch<'_> {
    /// Positions in the batch.
    pub fn len(&self) -> usize {
        self.order.len()
    }
}

/// The training positions of a run, handed over one epoch at a time as shuffled batches. The
/// batches depend only on the data, the seed, the epoch and the batch size (and, streamed, the
/// chunk size): never on timing or the thread count.
pub(crate) trait TrainingPositions {
    /// Training positions per epoch (mirror images included).
    fn len(&self) -> usize;

    /// The positions per shuffled chunk when streamed; `None` when all are held in memory (one
    /// shuffle over everything).
    fn chunk(&self) -> Option<usize>;

    /// Every training position's `(score, result)`, for fitting K.
    fn score_samples(&self) -> Box<dyn Iterator<Item = (i32, f32)> + '_>;

    /// Hands the batches of epoch `epoch` (0-based) to `step`, in order.
    fn for_each_batch(
        &mut self,
        epoch: u32,
        step: &mut dyn FnMut(Batch<'_>),
    ) -> Result<(), TrainError>;
}

/// Shuffles a run's chunks and cuts them into batches, reusing one index buffer.
struct Shuffler {
    seed: u64,
    batch_size: usize,
    order: Vec<u32>,
}

impl Shuffler {
    fn new(seed: u64, batch_size: usize) -> Shuffler {
        Shuffler {
            seed,
            batch_size: batch_size.max(1),
            order: Vec::new(),
        }
    }

    /// Hands `positions`, chunk `chunk` of epoch `epoch`, to `step` in batches, shuffled by the
    /// chunk's own random stream.
    fn batches(
        &mut self,
        epoch: u32,
        chunk: usize,
        positions: &[PackedPosition],
        step: &mut dyn FnMut(Batch<'_>),
    ) {
        self.order.clear();
        self.order.extend(0..positions.len() as u32);
        SplitMix64::stream(self.seed, shuffle_stream(epoch, chunk)).shuffle(&mut self.order);
        for order in self.order.chunks(self.batch_size) {
            step(Batch { positions, order });
        }
    }
}

/// What [`load`] read.
pub(crate) struct Loaded {
    /// The training positions.
    pub training: Box<dyn TrainingPositions>,
    /// The files read and the validation positions; its `train` is empty (the training
    /// positions are `training`'s).
    pub data: Dataset,
}

/// Reads the data as `args` say: the validation files, then the data files, whole into memory
/// or (`--stream`) a first pass that keeps the validation positions and counts the training
/// ones. `on_bytes` is told how many bytes were processed as reading goes.
pub(crate) fn load(args: &Args, on_bytes: &(dyn Fn(u64) + Sync)) -> Result<Loaded, TrainError> {
    let mut options = LoadOptions::new(
        args.filters(),
        args.output_buckets(),
        args.validation_fraction(),
        args.seed,
        args.mirror,
    );
    let fixed = load_validation_files(&args.validation_file, &options, on_bytes)?;
    options.exclude = fixed.keys;
    let batch_size = args.batch_size as usize;
    let (training, mut data): (Box<dyn TrainingPositions>, Dataset) = if args.stream {
        let scanned = scan(&args.data, &options, on_bytes)?;
        let streamed = Streamed::new(
            &scanned,
            options,
            args.chunk_positions(),
            args.seed,
            batch_size,
        );
        (Box::new(streamed), scanned.data)
    } else {
        let mut data = super::dataset::load(&args.data, &options, on_bytes)?;
        let train = std::mem::take(&mut data.train);
        (Box::new(InMemory::new(train, args.seed, batch_size)), data)
    };
    data.validation_files = fixed.files;
    data.validation.extend_from_slice(&fixed.positions);
    Ok(Loaded { training, data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{synthetic_games, Filters};
    use crate::train::dataset::load as load_dataset;
    use nnue::features::OutputBuckets;

    /// Every batch of an epoch, as the positions themselves.
    fn epoch_batches(source: &mut dyn TrainingPositions, epoch: u32) -> Vec<Vec<PackedPosition>> {
        let mut batches = Vec::new();
        source
            .for_each_batch(epoch, &mut |b| {
                batches.push(b.order.iter().map(|&i| b.positions[i as usize]).collect())
            })
            .unwrap();
        batches
    }

    /// Both loaders behind the interface: streamed in one chunk, the in-memory batches; in
    /// smaller chunks, other batches over the same positions; a new shuffle every epoch.
    #[test]
    fn both_loaders_yield_every_position_once_an_epoch_in_seeded_batches() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("games.xqg");
        let mut bytes = Vec::new();
        for seed in 0..12 {
            synthetic_games::random_game(seed, 160).encode_into(&mut bytes);
        }
        std::fs::write(&path, bytes).unwrap();
        let paths = vec![path];
        let options = LoadOptions::new(Filters::default(), OutputBuckets::Single, 0.0, 3, true);
        let mut memory_data = load_dataset(&paths, &options, &|_| {}).unwrap();
        let mut sorted = memory_data.train.clone();
        sorted.sort_by_key(|p| format!("{p:?}"));
        let n = memory_data.train.len();
        assert!(n > 1000, "{n} positions");
        let mut memory = InMemory::new(std::mem::take(&mut memory_data.train), 3, 100);
        let scanned = scan(&paths, &options, &|_| {}).unwrap();
        let mut whole = Streamed::new(&scanned, options.clone(), 1 << 30, 3, 100);
        let mut chunked = Streamed::new(&scanned, options, 300, 3, 100);
        assert_eq!((memory.len(), whole.len(), chunked.len()), (n, n, n));
        assert_eq!((memory.chunk(), chunked.chunk()), (None, Some(300)));
        let fit = |s: &dyn TrainingPositions| crate::train::kfit::fit_k(s.score_samples());
        assert!(fit(&memory).is_some());
        assert_eq!(fit(&memory), fit(&whole));

        let first = epoch_batches(&mut memory, 0);
        assert_eq!(first.len(), n.div_ceil(100));
        // Compared with `==`: a failure would print thousands of positions.
        assert!(epoch_batches(&mut whole, 0) == first, "one chunk is memory");
        assert!(
            epoch_batches(&mut memory, 0) == first,
            "the same epoch again"
        );
        assert!(epoch_batches(&mut memory, 1) != first, "another epoch");
        let streamed = epoch_batches(&mut chunked, 0);
        assert!(streamed != first, "smaller chunks shuffle otherwise");
        for batches in [first, streamed] {
            let mut all = batches.concat();
            all.sort_by_key(|p| format!("{p:?}"));
            assert!(all == sorted, "every position once");
        }
    }
}
