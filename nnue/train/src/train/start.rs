//! The state a run starts from: a checkpoint's, checked against the options and the data, or a
//! fresh net with K given or fitted on the training positions.

use super::args::Args;
use super::checkpointing::resume;
use super::console::Console;
use super::error::TrainError;
use super::kfit::{fit_k, KFit};
use super::loader::TrainingPositions;
use super::network::Network;
use super::optimizer::AdamW;
use super::report::EpochReport;

/// Where a run starts from: a checkpoint's state, or a fresh net with K given or fitted.
pub(crate) struct Start {
    pub net: Network,
    pub adam: AdamW,
    pub k: f64,
    /// The fit, when K was fitted by this run.
    pub k_fit: Option<KFit>,
    /// The K fitted, by this run or the one that wrote the checkpoint.
    pub k_fitted: Option<f64>,
    /// The epochs done (restored from the checkpoint).
    pub history: Vec<EpochReport>,
}

/// Resumes from `--resume` (checked against the options and the data's `fingerprint`), or
/// starts a fresh net with K given or fitted on `training`.
pub(crate) fn start(
    args: &Args,
    training: &dyn TrainingPositions,
    fingerprint: u64,
    console: &Console,
) -> Result<Start, TrainError> {
    if let Some(path) = &args.resume {
        let c = resume(path, args, fingerprint)?;
        console.line(&format!(
            "resuming after epoch {} (K {})",
            c.epochs_done, c.k
        ));
        let history = c
            .history
            .iter()
            .enumerate()
            .map(|(i, &(train, validation))| EpochReport::restored(i as u32 + 1, train, validation))
            .collect();
        return Ok(Start {
            net: c.net,
            adam: c.adam,
            k: c.k,
            k_fit: None,
            k_fitted: c.k_fitted,
            history,
        });
    }
    let (k, fit) = match args.k {
        Some(k) => (k.round(), None),
        None => {
            let fit = fit_k(training.score_samples()).ok_or(TrainError::CannotFitK)?;
            (fit.k.round().max(1.0), Some(fit))
        }
    };
    match &fit {
        Some(f) => console.line(&format!(
            "K fitted: {:.2} (mean squared error {:.5} over {} positions); training with K = {k}",
            f.k, f.mse, f.positions
        )),
        None => console.line(&format!("K given: training with K = {k}")),
    }
    let (features, hidden, buckets) = (args.features, args.hidden, args.output_buckets());
    let net = if args.factorise {
        Network::factorised(features, hidden, buckets, args.activation, args.seed)
            .ok_or_else(|| TrainError::BadArgs("--factorise: no shared block".into()))?
    } else {
        Network::with_features(features, hidden, buckets, args.activation, args.seed)
    };
    let adam =
        AdamW::new(net.params().len(), args.weight_decay).with_bucket_lr_scale(args.bucket_lr);
    Ok(Start {
        net,
        adam,
        k,
        k_fitted: fit.as_ref().map(|f| f.k),
        k_fit: fit,
        history: Vec::new(),
    })
}
