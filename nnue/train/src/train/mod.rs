//! The trainer: game records in, a quantised net file out.
//!
//! A perspective network `2 × (inputs → H) → 1` per output bucket over the one feature indexer
//! ([`nnue::features`]), weights shared by both perspectives, side to move first; SCReLU (or
//! CReLU). The loss is `(sigmoid(out) - t)²` with `t = lambda · sigmoid(score / K) + (1 - lambda)
//! · result`, both from the side to move's point of view; K is fitted on the training positions
//! ([`fit_k`]) unless given, rounded, and stored as the net's eval scale, so the engine's
//! evaluation `out · K` is in the scores' units.
//!
//! Optimisation: AdamW (β 0.9 / 0.999, decoupled weight decay on weights), a cosine or step
//! learning-rate schedule, and after every step clipping to the bounds that keep the quantised
//! integer inference exact ([`quantise`]). Batches are split into a fixed number of shards whose
//! gradients are computed in parallel (rayon) and summed in shard order; every floating-point
//! sum has a fixed order, so a run is a deterministic function of its options and data,
//! **whatever the thread count** (`--shards` is part of the recipe, `--threads` is not).
//!
//! Data: by default whole files are loaded into memory as 32-byte packed positions after the
//! load-time filters, and the training positions are shuffled per epoch by the seed. With
//! `--stream` a first pass keeps only the validation positions and counts the training ones; each
//! epoch then reads the files again, in order, in chunks of `--chunk` positions, each chunk
//! shuffled by the seed, the epoch and the chunk's index (one chunk holding everything is the
//! in-memory run, bit for bit). Validation: a fraction of *games* is held out (decided per game by
//! a hash of its moves and the seed, the same games in both modes), or `--validation-file` names
//! game-record files used only for validation (their games are never trained on, even when a
//! data file holds them too).
//!
//! A run ([`run`]) is made of pieces: a loader hands each epoch's training positions over as
//! shuffled batches through one interface, whether they are held in memory or streamed; a
//! stepper applies one batch's gradient; checkpoints are saved and resumed on their own; the
//! export folds, quantises and describes the net.
//!
//! Outputs: the net (`--output`), a resumable float checkpoint (`<output>.ckpt`), and every
//! `--save-every` epochs a checkpoint and a net `<name>-e<epoch>.<ext>`. The net's description
//! holds the canonical command line, the data files with their hashes, the position counts, K
//! and the final losses.

mod args;
mod checkpoint;
mod checkpointing;
mod console;
mod dataset;
mod error;
mod export;
mod gradient;
mod holdout;
mod kfit;
mod loader;
mod network;
mod optimizer;
mod quantise;
mod repeats;
mod report;
mod run;
mod schedule;
mod shard;
mod start;
mod step;
mod validate;

pub use args::{Args, OutputScheme, Schedule};
pub use checkpoint::Checkpoint;
pub use dataset::{
    game_key, load, load_validation_files, open_data_file, read_data_file, scan, stream_chunks,
    DataFile, Dataset, LoadOptions, Scan, ScoreCounts, ValidationFiles,
};
pub use error::TrainError;
pub use gradient::{batch_gradient, gradient, loss, loss_sum, parallel_loss_sum, Target};
pub use holdout::{holdout, Holdout};
pub use kfit::{fit_k, KFit};
pub use network::{sigmoid, Activation, Layout, Network, ParamGroup};
pub use optimizer::{AdamW, BETA1, BETA2, EPSILON};
pub use quantise::{
    clip_bound, output_bias_clip, output_clip, quantise, DEFAULT_QB, FEATURE_CLIP,
    MAX_OUTPUT_WEIGHT, QA,
};
pub use repeats::{count_repeats, RepeatCount};
pub use report::{EpochReport, TrainReport};
pub use run::run;
pub use schedule::LrSchedule;
pub use shard::ShardGradient;
pub use validate::{net_loss, NetLoss, ValidationSet};
