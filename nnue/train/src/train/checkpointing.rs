//! A run's checkpoints: saving one ([`Checkpointer`]), and reading one to resume from, checked
//! against the options and the data ([`resume`]). The file format is [`Checkpoint`]'s.

use super::args::Args;
use super::checkpoint::Checkpoint;
use super::dataset::Dataset;
use super::error::{write_atomically, TrainError};
use super::report::EpochReport;
use super::step::Stepper;
use nnue::format::fnv1a64;
use std::path::{Path, PathBuf};

/// Saves a run's checkpoints, all to one path.
pub(crate) struct Checkpointer {
    /// Where.
    pub path: PathBuf,
    /// The output quantisation the weights are clipped for.
    pub qb: i32,
    /// The K trained with.
    pub k: f64,
    /// The K fitted on the data, if it was fitted.
    pub k_fitted: Option<f64>,
    /// The data's [`fingerprint`].
    pub fingerprint: u64,
}

impl Checkpointer {
    /// Writes the state of `stepper` after `epochs_done` epochs whose numbers are `history`
    /// (through a temporary file).
    pub fn save(
        &self,
        stepper: &Stepper,
        epochs_done: u32,
        history: &[EpochReport],
    ) -> Result<(), TrainError> {
        let checkpoint = Checkpoint {
            net: stepper.net.clone(),
            adam: stepper.adam.clone(),
            epochs_done,
            qb: self.qb,
            k: self.k,
            k_fitted: self.k_fitted,
            fingerprint: self.fingerprint,
            history: history
                .iter()
                .map(|e| (e.train_loss, e.validation_loss))
                .collect(),
        };
        write_atomically(&self.path, &checkpoint.to_bytes())
    }
}

/// Identifies what a checkpoint may be resumed with: the data's content, the filters, the split,
/// the seed and the bucket scheme.
pub(crate) fn fingerprint(args: &Args, data: &Dataset) -> u64 {
    let files: Vec<(u64, u64)> = data.files.iter().map(|f| (f.bytes, f.hash)).collect();
    // Mirroring changes the training positions; it is marked only when on, so checkpoints
    // written before the option existed (unmirrored) keep their fingerprint. Validation files
    // likewise, only when given. Streaming is not part of it: a run may be resumed either way
    // (exactly so with the same chunk size, or any chunk holding everything in memory's place).
    let validation_files: Vec<(u64, u64)> = data
        .validation_files
        .iter()
        .map(|f| (f.bytes, f.hash))
        .collect();
    let text = format!(
        "{files:?} {:?} {} {} {:?}{}{}",
        args.filters(),
        args.validation.to_bits(),
        args.seed,
        args.output_buckets(),
        if args.mirror { " mirrored" } else { "" },
        if validation_files.is_empty() {
            String::new()
        } else {
            format!(" validation files {validation_files:?}")
        }
    );
    fnv1a64(text.as_bytes())
}

/// Reads the checkpoint at `path` for a run with `args` on data of `fingerprint`: refused when
/// it was made for another architecture, QB, data, filters, split or seed.
pub(crate) fn resume(path: &Path, args: &Args, fingerprint: u64) -> Result<Checkpoint, TrainError> {
    let fail = |reason: String| TrainError::Checkpoint {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|error| TrainError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut c = Checkpoint::parse(&bytes, args.weight_decay).map_err(fail)?;
    c.adam.bucket_lr_scale = args.bucket_lr;
    if c.net.features() != args.features
        || c.net.is_factorised() != args.factorise
        || c.net.hidden() != args.hidden
        || c.net.buckets() != args.output_buckets()
        || c.net.activation() != args.activation
        || c.qb != args.qb
    {
        return Err(fail(format!(
            "made for {}{} / hidden {} / {:?} / {} / QB {}, the options say {}{} / hidden {} / {:?} / {} / QB {}",
            c.net.features().name(),
            if c.net.is_factorised() { " factorised" } else { "" },
            c.net.hidden(),
            c.net.buckets(),
            c.net.activation().name(),
            c.qb,
            args.features.name(),
            if args.factorise { " factorised" } else { "" },
            args.hidden,
            args.output_buckets(),
            args.activation.name(),
            args.qb
        )));
    }
    if c.fingerprint != fingerprint {
        return Err(fail(
            "made with other data, filters, validation split or seed".to_string(),
        ));
    }
    Ok(c)
}
