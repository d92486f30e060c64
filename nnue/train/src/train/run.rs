//! A whole training run, in its pieces: the data loaded ([`loader`](super::loader)), the net
//! started fresh or resumed from a checkpoint, then epoch by epoch the batches stepped
//! ([`Stepper`]), the validation loss, a line, and every `--save-every` epochs a checkpoint
//! ([`Checkpointer`]) and a net ([`ExportOptions`]); in the end the last checkpoint and the net.

use super::args::Args;
use super::checkpointing::{fingerprint, Checkpointer};
use super::console::Console;
use super::dataset::Dataset;
use super::error::TrainError;
use super::export::ExportOptions;
use super::gradient::Target;
use super::loader::{self, Loaded, TrainingPositions};
use super::network::Network;
use super::report::{EpochReport, TrainReport};
use super::schedule::LrSchedule;
use super::start::{start, Start};
use super::step::Stepper;
use std::time::Instant;

/// Runs a training as `args` say, on `args.threads` worker threads (all cores by default).
///
/// ```no_run
/// let args = nnue_train::train::Args::parse_from(["games.xqg", "-o", "net.nnue", "--epochs", "40"])?;
/// let report = nnue_train::train::run(&args)?;
/// println!("K {} validation loss {:?}", report.eval_scale, report.epochs.last().unwrap().validation_loss);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(args: &Args) -> Result<TrainReport, TrainError> {
    args.check()?;
    // 0 means every core, as for the engine's `Threads` and every other `--threads`.
    let threads = match args.threads {
        Some(t) if t > 0 => t as usize,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TrainError::Threads(e.to_string()))?;
    pool.install(|| train(args, threads))
}

fn train(args: &Args, threads: usize) -> Result<TrainReport, TrainError> {
    let console = Console::new(args.quiet);

    // Load.
    let total_bytes: u64 = args
        .data
        .iter()
        .chain(&args.validation_file)
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    console.start_loading(total_bytes);
    let started = Instant::now();
    let Loaded { mut training, data } = loader::load(args, &|n| console.advance(n))?;
    let n = training.len();
    describe_data(
        &console,
        &data,
        training.as_ref(),
        started.elapsed().as_secs_f64(),
    );
    if n == 0 {
        return Err(TrainError::NoPositions);
    }
    let fingerprint = fingerprint(args, &data);

    // Resume or start.
    let Start {
        net,
        adam,
        k,
        k_fit,
        k_fitted,
        mut history,
    } = start(args, training.as_ref(), fingerprint, &console)?;
    let target = Target {
        k: k as f32,
        lambda: args.lambda,
    };
    let schedule = LrSchedule {
        kind: args.lr_schedule,
        lr: args.lr,
        lr_min: args.lr_min,
        step_epochs: args.lr_step_epochs,
        gamma: args.lr_gamma,
        steps_per_epoch: n.div_ceil(args.batch_size as usize) as u64,
        epochs: args.epochs,
    };
    let mut stepper = Stepper::new(net, adam, args.shards as usize, schedule, target, args.qb);
    let checkpointer = Checkpointer {
        path: args.checkpoint_path(),
        qb: args.qb,
        k,
        k_fitted,
        fingerprint,
    };
    let exporter = ExportOptions {
        args,
        data: &data,
        train_positions: n,
        k,
        k_fitted,
    };

    // Train.
    let first_epoch = history.len() as u32;
    console.line(&start_line(args, &stepper.net, training.as_ref(), threads));
    console.start_training(u64::from(args.epochs.saturating_sub(first_epoch)) * n as u64);
    for epoch in first_epoch..args.epochs {
        let report = train_epoch(
            args,
            &mut stepper,
            training.as_mut(),
            &data,
            epoch,
            &console,
        )?;
        console.line(&report.line(args.epochs));
        history.push(report);
        let done = epoch + 1;
        if args.save_every > 0 && done % args.save_every == 0 && done < args.epochs {
            checkpointer.save(&stepper, done, &history)?;
            let path = args.epoch_net_path(done);
            let hash = exporter.export(&stepper.net, &history, &path)?;
            console.line(&format!(
                "saved {} and {} (weights hash {hash:016x})",
                checkpointer.path.display(),
                path.display()
            ));
        }
    }
    console.finish();

    // Export.
    checkpointer.save(&stepper, args.epochs.max(first_epoch), &history)?;
    let net_hash = exporter.export(&stepper.net, &history, &args.output)?;
    console.line(&format!(
        "wrote {} (eval scale {k}, weights hash {net_hash:016x}) and checkpoint {}",
        args.output.display(),
        checkpointer.path.display()
    ));
    Ok(TrainReport {
        k_fit,
        eval_scale: k as i32,
        train_positions: n,
        validation_positions: data.validation.len(),
        games: data.games(),
        validation_games: data.validation_games(),
        excluded_games: data.excluded_games(),
        filter_stats: data.stats(),
        epochs: history,
        output: args.output.clone(),
        net_hash,
    })
}

/// Trains epoch `epoch` (0-based): every batch of `training` stepped, then the loss on the
/// validation positions of `data`.
fn train_epoch(
    args: &Args,
    stepper: &mut Stepper,
    training: &mut dyn TrainingPositions,
    data: &Dataset,
    epoch: u32,
    console: &Console,
) -> Result<EpochReport, TrainError> {
    let n = training.len();
    let started = Instant::now();
    let (mut loss_sum, mut seen, mut lr) = (0.0, 0usize, args.lr);
    training.for_each_batch(epoch, &mut |batch| {
        let step = stepper.step(batch);
        lr = step.lr;
        loss_sum += step.loss_sum;
        seen += batch.len();
        console.advance(batch.len() as u64);
        console.message(format!(
            "epoch {}/{} loss {:.5}",
            epoch + 1,
            args.epochs,
            loss_sum / seen as f64
        ));
    })?;
    if seen != n {
        return Err(TrainError::BadArgs(format!(
            "epoch {} read {seen} training positions, the first pass counted {n} (did the data change?)",
            epoch + 1
        )));
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(EpochReport {
        epoch: epoch + 1,
        lr,
        train_loss: loss_sum / n as f64,
        validation_loss: stepper.mean_loss(&data.validation),
        seconds,
        positions_per_second: n as f64 / seconds.max(1e-9),
    })
}

/// The line that opens the training: the net, the epochs, how the data is held, the threads.
fn start_line(
    args: &Args,
    net: &Network,
    training: &dyn TrainingPositions,
    threads: usize,
) -> String {
    let buckets = net.layout().buckets;
    format!(
        "training {} ({} {}→{}, {} output bucket{}{}), {} epochs of {} positions{}, batch {}, {} thread{}",
        args.activation.name(),
        super::args::feature_set_option(net.features()),
        net.layout().inputs,
        args.hidden,
        buckets,
        if buckets == 1 { "" } else { "s" },
        if buckets == 1 {
            String::new()
        } else {
            format!(" by {}", args.output_buckets.name())
        },
        args.epochs,
        training.len(),
        match training.chunk() {
            Some(chunk) => format!(" streamed in chunks of {chunk}"),
            None => String::new(),
        },
        args.batch_size,
        threads,
        if threads == 1 { "" } else { "s" },
    )
}

fn describe_data(
    console: &Console,
    data: &Dataset,
    training: &dyn TrainingPositions,
    seconds: f64,
) {
    for f in &data.files {
        console.line(&format!("{f}: {}", f.stats));
    }
    for f in &data.validation_files {
        console.line(&format!("validation file {f}: {}", f.stats));
    }
    let n = training.len();
    console.line(&format!(
        "{} {n} training and {} validation positions from {} games in {seconds:.1} s",
        if training.chunk().is_none() && n > 0 {
            "loaded"
        } else {
            "counted"
        },
        data.validation.len(),
        data.games()
    ));
}
