//! A whole training run: load (or scan, when streaming), fit K, train epoch by epoch with
//! validation, checkpoints and a progress bar, export.

use super::args::{Args, OutputScheme};
use super::checkpoint::Checkpoint;
use super::dataset::{load, load_validation_files, scan, stream_chunks, Dataset, LoadOptions};
use super::error::{write_atomically, TrainError};
use super::gradient::{batch_gradient, parallel_loss_sum, Target};
use super::kfit::{fit_k, KFit};
use super::network::{factor_rows, Network};
use super::optimizer::AdamW;
use super::quantise::{quantise, FEATURE_CLIP};
use super::schedule::LrSchedule;
use crate::data::{FilterStats, PackedPosition};
use engine_core::SplitMix64;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nnue::format::{fnv1a64, MAX_DESCRIPTION_BYTES};
use std::path::PathBuf;
use std::time::Instant;

/// Stream of the per-epoch shuffles (the epoch number is added; chunk `c` of a streamed epoch
/// adds `c << 32` as well, so chunk 0 shuffles as the in-memory epoch does).
const SHUFFLE_STREAM: u64 = 0x5_0000_0000;

/// The random stream that shuffles chunk `chunk` of epoch `epoch` (0-based both).
fn shuffle_stream(epoch: u32, chunk: usize) -> u64 {
    SHUFFLE_STREAM
        .wrapping_add(u64::from(epoch))
        .wrapping_add((chunk as u64) << 32)
}

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

/// Where the run's text goes: lines above the progress bar on standard output, or nowhere.
struct Console {
    bar: ProgressBar,
    quiet: bool,
    /// Set once standard output could not be written: the lines stop, the training goes on.
    silenced: std::sync::atomic::AtomicBool,
}

impl Console {
    fn line(&self, text: &str) {
        use std::io::Write;
        use std::sync::atomic::Ordering;
        if self.quiet || self.silenced.load(Ordering::Relaxed) {
            return;
        }
        self.bar.suspend(|| {
            let mut out = std::io::stdout().lock();
            if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
                // The net file is what the run makes: a reader gone or a full disk costs these
                // lines, not hours of training (and `println!` would panic).
                self.silenced.store(true, Ordering::Relaxed);
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("warning: cannot write to standard output: {e}; training goes on");
                }
            }
        });
    }
}

/// Checks what clap cannot (for `Args` built in code).
fn validate(args: &Args) -> Result<(), TrainError> {
    let bad = |m: String| Err(TrainError::BadArgs(m));
    if args.data.is_empty() {
        return bad("no data files given".to_string());
    }
    if args.hidden == 0
        || args.hidden > nnue::format::MAX_HIDDEN
        || !args.hidden.is_multiple_of(nnue::format::HIDDEN_MULTIPLE)
    {
        return bad(format!(
            "hidden size {} is not a positive multiple of {} up to {}",
            args.hidden,
            nnue::format::HIDDEN_MULTIPLE,
            nnue::format::MAX_HIDDEN
        ));
    }
    if args.factorise && factor_rows(args.features) == 0 {
        return bad(format!(
            "--factorise needs a feature set with king or attack buckets; {} has one block",
            args.features.name()
        ));
    }
    if args.buckets == 0 || usize::from(args.buckets) > nnue::features::MAX_OUTPUT_BUCKETS {
        return bad(format!("{} output buckets (1-16)", args.buckets));
    }
    // The count belongs to piece-count; piece-configuration has its own, so a count given with
    // it would be silently ignored.
    if args.output_buckets == OutputScheme::PieceConfiguration && args.buckets != 1 {
        return bad(format!(
            "--buckets {} with --output-buckets piece-configuration, which always has {} buckets; \
             leave --buckets out",
            args.buckets,
            nnue::features::PIECE_CONFIGURATION_BUCKETS
        ));
    }
    if !(8..=1024).contains(&args.qb) {
        return bad(format!("QB {} not in 8..=1024", args.qb));
    }
    if args.epochs == 0 || args.batch_size == 0 || args.shards == 0 {
        return bad("epochs, batch size and shards must be positive".to_string());
    }
    if !(0.0..1.0).contains(&args.validation) {
        return bad(format!(
            "validation fraction {} not in [0, 1)",
            args.validation
        ));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return bad(format!("lambda {} not in [0, 1]", args.lambda));
    }
    if let Some(k) = args.k {
        if !(k.is_finite() && k >= 1.0 && k <= f64::from(i32::MAX)) {
            return bad(format!("K {k} is not a scale of at least 1"));
        }
    }
    if args.stream && args.chunk == 0 {
        return bad("the chunk size must be positive".to_string());
    }
    check_writable_dir(&args.output)?;
    check_writable_dir(&args.checkpoint_path())
}

/// Fails early (before hours of training) when the folder that will receive `path` does not
/// exist or is not a folder; the file itself is written later, atomically.
fn check_writable_dir(path: &std::path::Path) -> Result<(), TrainError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(TrainError::BadArgs(format!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            dir.display()
        )))
    }
}

/// Runs a training as `args` say, on `args.threads` worker threads (all cores by default).
///
/// ```no_run
/// let args = nnue_train::train::Args::parse_from(["games.xqg", "-o", "net.nnue", "--epochs", "40"])?;
/// let report = nnue_train::train::run(&args)?;
/// println!("K {} validation loss {:?}", report.eval_scale, report.epochs.last().unwrap().validation_loss);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(args: &Args) -> Result<TrainReport, TrainError> {
    validate(args)?;
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
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
    };
    let console = Console {
        bar,
        quiet: args.quiet,
        silenced: std::sync::atomic::AtomicBool::new(false),
    };

    // Load.
    let mut options = LoadOptions::new(
        args.filters(),
        args.output_buckets(),
        args.validation_fraction(),
        args.seed,
        args.mirror,
    );
    let total_bytes: u64 = args
        .data
        .iter()
        .chain(&args.validation_file)
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    console.bar.set_length(total_bytes);
    console.bar.set_style(style(
        "loading {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
    ));
    let start = Instant::now();
    let on_bytes = |n| console.bar.inc(n);
    let fixed = load_validation_files(&args.validation_file, &options, &on_bytes)?;
    options.exclude = fixed.keys;
    // Streaming keeps the score counts of the scan for fitting K; in memory they are the
    // positions themselves.
    let (mut data, n, scores) = if args.stream {
        let s = scan(&args.data, &options, &on_bytes)?;
        (s.data, s.train_positions as usize, Some(s.scores))
    } else {
        let d = load(&args.data, &options, &on_bytes)?;
        let n = d.train.len();
        (d, n, None)
    };
    data.validation_files = fixed.files;
    data.validation.extend_from_slice(&fixed.positions);
    drop(fixed.positions);
    describe_data(&console, &data, n, start.elapsed().as_secs_f64());
    if n == 0 {
        return Err(TrainError::NoPositions);
    }
    let fingerprint = fingerprint(args, &data);

    // Resume or start.
    let resumed = match &args.resume {
        Some(path) => Some(resume(path, args, fingerprint)?),
        None => None,
    };
    let (mut net, mut adam, k, k_fit, k_fitted, mut history) = match resumed {
        Some(c) => {
            console.line(&format!(
                "resuming after epoch {} (K {})",
                c.epochs_done, c.k
            ));
            let history: Vec<EpochReport> = c
                .history
                .iter()
                .enumerate()
                .map(|(i, &(train_loss, validation_loss))| EpochReport {
                    epoch: i as u32 + 1,
                    lr: 0.0,
                    train_loss,
                    validation_loss,
                    seconds: 0.0,
                    positions_per_second: 0.0,
                })
                .collect();
            (c.net, c.adam, c.k, None, c.k_fitted, history)
        }
        None => {
            let (k, fit) = match args.k {
                Some(k) => (k.round(), None),
                None => {
                    let fit = match &scores {
                        Some(counts) => fit_k(counts.samples()),
                        None => fit_k(data.train.iter().map(|p| (p.score(), p.result()))),
                    }
                    .ok_or(TrainError::CannotFitK)?;
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
            let adam = AdamW::new(net.params().len(), args.weight_decay);
            let fitted = fit.as_ref().map(|f| f.k);
            (net, adam, k, fit, fitted, Vec::new())
        }
    };
    let target = Target {
        k: k as f32,
        lambda: args.lambda,
    };

    // Train.
    let batch_size = args.batch_size as usize;
    let schedule = LrSchedule {
        kind: args.lr_schedule,
        lr: args.lr,
        lr_min: args.lr_min,
        step_epochs: args.lr_step_epochs,
        gamma: args.lr_gamma,
        steps_per_epoch: n.div_ceil(batch_size) as u64,
        epochs: args.epochs,
    };
    let first_epoch = history.len() as u32;
    let mut shards = vec![vec![0.0f32; net.params().len()]; args.shards as usize];
    let chunk = args.chunk_positions();
    console.line(&format!(
        "training {} ({} {}→{}, {} output bucket{}{}), {} epochs of {} positions{}, batch {}, {} thread{}",
        args.activation.name(),
        super::args::feature_set_option(net.features()),
        net.layout().inputs,
        args.hidden,
        net.layout().buckets,
        if net.layout().buckets == 1 { "" } else { "s" },
        if net.layout().buckets == 1 {
            String::new()
        } else {
            format!(" by {}", args.output_buckets.name())
        },
        args.epochs,
        n,
        if args.stream {
            format!(" streamed in chunks of {chunk}")
        } else {
            String::new()
        },
        batch_size,
        threads,
        if threads == 1 { "" } else { "s" },
    ));
    let remaining = u64::from(args.epochs.saturating_sub(first_epoch)) * n as u64;
    console.bar.reset();
    console.bar.set_length(remaining);
    console.bar.set_position(0);
    console.bar.set_style(style(
        "{msg} [{wide_bar}] {human_pos}/{human_len} {per_sec} ETA {eta}",
    ));
    let mut order: Vec<u32> = Vec::new();
    for epoch in first_epoch..args.epochs {
        let started = Instant::now();
        let mut loss_sum = 0.0;
        let mut seen = 0usize;
        let mut lr = args.lr;
        // One chunk of the epoch: shuffled by its own stream, then trained batch by batch.
        let mut train_chunk = |c: usize, positions: &[PackedPosition]| {
            order.clear();
            order.extend(0..positions.len() as u32);
            SplitMix64::stream(args.seed, shuffle_stream(epoch, c)).shuffle(&mut order);
            for batch in order.chunks(batch_size) {
                lr = schedule.at(adam.steps());
                loss_sum += batch_gradient(&net, positions, batch, target, &mut shards);
                adam.step(&mut net, &shards, lr, args.qb);
                seen += batch.len();
                console.bar.inc(batch.len() as u64);
                console.bar.set_message(format!(
                    "epoch {}/{} loss {:.5}",
                    epoch + 1,
                    args.epochs,
                    loss_sum / seen as f64
                ));
            }
        };
        if args.stream {
            stream_epoch(&data, &options, chunk, &mut train_chunk)?;
        } else {
            train_chunk(0, &data.train);
        }
        if seen != n {
            return Err(TrainError::BadArgs(format!(
                "epoch {} read {seen} training positions, the first pass counted {n} (did the data change?)",
                epoch + 1
            )));
        }
        let seconds = started.elapsed().as_secs_f64();
        let validation_loss = (!data.validation.is_empty()).then(|| {
            parallel_loss_sum(&net, &data.validation, target) / data.validation.len() as f64
        });
        let report = EpochReport {
            epoch: epoch + 1,
            lr,
            train_loss: loss_sum / n as f64,
            validation_loss,
            seconds,
            positions_per_second: n as f64 / seconds.max(1e-9),
        };
        console.line(&epoch_line(&report, args.epochs));
        history.push(report);
        let done = epoch + 1;
        if args.save_every > 0 && done % args.save_every == 0 && done < args.epochs {
            let checkpoint = Checkpoint {
                net: net.clone(),
                adam: adam.clone(),
                epochs_done: done,
                qb: args.qb,
                k,
                k_fitted,
                fingerprint,
                history: losses(&history),
            };
            write_atomically(&args.checkpoint_path(), &checkpoint.to_bytes())?;
            let path = args.epoch_net_path(done);
            let hash = export(&net, args, &data, n, k, k_fitted, &history, &path)?;
            console.line(&format!(
                "saved {} and {} (weights hash {hash:016x})",
                args.checkpoint_path().display(),
                path.display()
            ));
        }
    }
    console.bar.finish_and_clear();

    let checkpoint = Checkpoint {
        net: net.clone(),
        adam,
        epochs_done: args.epochs.max(first_epoch),
        qb: args.qb,
        k,
        k_fitted,
        fingerprint,
        history: losses(&history),
    };
    write_atomically(&args.checkpoint_path(), &checkpoint.to_bytes())?;
    let net_hash = export(&net, args, &data, n, k, k_fitted, &history, &args.output)?;
    console.line(&format!(
        "wrote {} (eval scale {k}, weights hash {net_hash:016x}) and checkpoint {}",
        args.output.display(),
        args.checkpoint_path().display()
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

/// Trains one streamed epoch: a reader thread reads the chunks of `data.files` in order while
/// `train_chunk` trains on the one before (so two chunks are in memory at a time); the chunks and
/// their order do not depend on timing or on the thread count.
fn stream_epoch(
    data: &Dataset,
    options: &LoadOptions,
    chunk: usize,
    train_chunk: &mut dyn FnMut(usize, &[PackedPosition]),
) -> Result<(), TrainError> {
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel::<Vec<PackedPosition>>(0);
        let reader = scope
            .spawn(move || stream_chunks(&data.files, options, chunk, |c| send.send(c).is_ok()));
        for (c, positions) in receive.iter().enumerate() {
            train_chunk(c, &positions);
        }
        reader
            .join()
            .unwrap_or_else(|_| Err(TrainError::Threads("the data reader panicked".to_string())))
    })
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}

fn losses(history: &[EpochReport]) -> Vec<(f64, Option<f64>)> {
    history
        .iter()
        .map(|e| (e.train_loss, e.validation_loss))
        .collect()
}

fn epoch_line(e: &EpochReport, epochs: u32) -> String {
    let validation = e
        .validation_loss
        .map_or("-".to_string(), |v| format!("{v:.6}"));
    format!(
        "epoch {}/{epochs}: train loss {:.6}, validation loss {validation}, lr {:.3e}, {:.0} positions/s, {:.1} s",
        e.epoch, e.train_loss, e.lr, e.positions_per_second, e.seconds
    )
}

fn describe_data(console: &Console, data: &Dataset, train_positions: usize, seconds: f64) {
    for f in &data.files {
        console.line(&format!("{f}: {}", f.stats));
    }
    for f in &data.validation_files {
        console.line(&format!("validation file {f}: {}", f.stats));
    }
    console.line(&format!(
        "{} {train_positions} training and {} validation positions from {} games in {seconds:.1} s",
        if data.train.is_empty() {
            "counted"
        } else {
            "loaded"
        },
        data.validation.len(),
        data.games()
    ));
}

/// Identifies what a checkpoint may be resumed with: the data's content, the filters, the split,
/// the seed and the bucket scheme.
fn fingerprint(args: &Args, data: &Dataset) -> u64 {
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

fn resume(path: &PathBuf, args: &Args, fingerprint: u64) -> Result<Checkpoint, TrainError> {
    let fail = |reason: String| TrainError::Checkpoint {
        path: path.clone(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|error| TrainError::Read {
        path: path.clone(),
        error,
    })?;
    let c = Checkpoint::parse(&bytes, args.weight_decay).map_err(fail)?;
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

/// Quantises and writes the net; returns its weights hash.
#[allow(clippy::too_many_arguments)]
fn export(
    net: &Network,
    args: &Args,
    data: &Dataset,
    train_positions: usize,
    k: f64,
    k_fitted: Option<f64>,
    history: &[EpochReport],
    path: &std::path::Path,
) -> Result<u64, TrainError> {
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
        "positions {train_positions} training, {} validation ({} of {} games held out {held_out}); {}\n",
        data.validation.len(),
        data.validation_games(),
        data.games(),
        data.stats()
    ));
    match k_fitted {
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
    let file = quantise(&folded, args.qb, k as i32, d).map_err(TrainError::Export)?;
    write_atomically(path, &file.to_bytes())?;
    Ok(file.weights_hash())
}
