//! Writing a run's net: the float net folded, quantised and described (the command line, the
//! data files with their hashes, the position counts, K and the losses so far).

use super::args::Args;
use super::dataset::Dataset;
use super::error::{write_atomically, TrainError};
use super::network::Network;
use super::quantise::{quantise, FEATURE_CLIP};
use super::report::EpochReport;
use nnue::format::MAX_DESCRIPTION_BYTES;
use std::path::Path;

/// What a run's net files say about the run, fixed from its start.
pub(crate) struct ExportOptions<'a> {
    /// The run's options.
    pub args: &'a Args,
    /// Its files and validation positions.
    pub data: &'a Dataset,
    /// Training positions per epoch.
    pub train_positions: usize,
    /// The K trained with, stored as the eval scale.
    pub k: f64,
    /// The K fitted on the data, if it was fitted.
    pub k_fitted: Option<f64>,
}

impl ExportOptions<'_> {
    /// Quantises `net` after the epochs of `history` and writes it to `path` (through a
    /// temporary file); returns its weights hash.
    pub fn export(
        &self,
        net: &Network,
        history: &[EpochReport],
        path: &Path,
    ) -> Result<u64, TrainError> {
        let mut d = self.description(history);
        // Net files hold the folded net; fold once here, for the file and for the clamp count.
        let (folded, clamped) = net.folded(FEATURE_CLIP);
        if net.is_factorised() {
            d.push_str(&format!(
                "factorised: shared block folded into the buckets, {clamped} weights clamped to ±{FEATURE_CLIP}\n"
            ));
        }
        if d.len() > MAX_DESCRIPTION_BYTES {
            let mut cut = MAX_DESCRIPTION_BYTES;
            while !d.is_char_boundary(cut) {
                cut -= 1;
            }
            d.truncate(cut);
        }
        let file = quantise(&folded, self.args.qb, self.k as i32, d).map_err(TrainError::Export)?;
        write_atomically(path, &file.to_bytes())?;
        Ok(file.weights_hash())
    }

    /// The description up to the last epoch's losses.
    fn description(&self, history: &[EpochReport]) -> String {
        let (args, data) = (self.args, self.data);
        let mut d = args.command_line();
        d.push('\n');
        for f in &data.files {
            d.push_str(&format!("data {f}\n"));
        }
        for f in &data.validation_files {
            d.push_str(&format!("validation {f}\n"));
        }
        let held_out = if data.validation_files.is_empty() {
            format!("by seed {}", args.seed)
        } else {
            format!(
                "in validation files, {} data games left out as theirs",
                data.excluded_games()
            )
        };
        d.push_str(&format!(
            "positions {} training, {} validation ({} of {} games held out {held_out}); {}\n",
            self.train_positions,
            data.validation.len(),
            data.validation_games(),
            data.games(),
            data.stats()
        ));
        let k = self.k;
        match self.k_fitted {
            Some(f) => d.push_str(&format!("K fitted {f:.2}, eval scale {k}\n")),
            None => d.push_str(&format!("K given, eval scale {k}\n")),
        }
        if let Some(last) = history.last() {
            let validation = last
                .validation_loss
                .map_or("-".to_string(), |v| format!("{v:.6}"));
            d.push_str(&format!(
                "after epoch {} of {}: train loss {:.6}, validation loss {validation}\n",
                last.epoch, args.epochs, last.train_loss
            ));
        }
        d
    }
}
