//! The trainer's options: a clap `Args` struct that a command-line tool mounts as a subcommand.

use super::error::TrainError;
use super::network::{factor_rows, Activation};
use crate::data::Filters;
use nnue::features::{FeatureSet, OutputBuckets};
use nnue::format::{HIDDEN_MULTIPLE, MAX_HIDDEN};
use std::path::{Path, PathBuf};

/// Default `--lambda`: the search score with a tenth of the game's result. On 17 M positions it
/// beat the score alone (net 11); on the first 0.9 M, 0.7 and 0.4 had lost to the score alone.
pub const DEFAULT_LAMBDA: f32 = 0.9;

/// Learning-rate schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Schedule {
    /// Cosine decay from `--lr` to `--lr-min` over the whole run (per batch).
    Cosine,
    /// `--lr` multiplied by `--lr-gamma` every `--lr-step-epochs` epochs.
    Step,
}

impl Schedule {
    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Cosine => "cosine",
            Schedule::Step => "step",
        }
    }
}

/// How `--output-buckets` picks the output layer ([`OutputBuckets`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum OutputScheme {
    /// `--buckets` buckets by the number of pieces on the board (one output with `--buckets 1`).
    PieceCount,
    /// 16 buckets by whether each side still has a chariot, and a horse or cannon (side to
    /// move's state times 4 plus the opponent's), as Pikafish picks its layer stacks.
    PieceConfiguration,
}

impl OutputScheme {
    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            OutputScheme::PieceCount => "piece-count",
            OutputScheme::PieceConfiguration => "piece-configuration",
        }
    }
}

/// Parses a number and checks it with `valid`, which `expected` describes.
fn parse_checked<T: std::str::FromStr + std::fmt::Display>(
    text: &str,
    valid: impl Fn(&T) -> bool,
    expected: &str,
) -> Result<T, String> {
    let v: T = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if !valid(&v) {
        return Err(format!("{v} is not {expected}"));
    }
    Ok(v)
}

fn parse_hidden(text: &str) -> Result<usize, String> {
    parse_checked(
        text,
        |&h: &usize| h > 0 && h <= MAX_HIDDEN && h % HIDDEN_MULTIPLE == 0,
        &format!("a positive multiple of {HIDDEN_MULTIPLE} up to {MAX_HIDDEN}"),
    )
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    parse_checked(text, |v: &f64| (0.0..1.0).contains(v), "in [0, 1)")
}

fn parse_unit(text: &str) -> Result<f32, String> {
    parse_checked(text, |v: &f32| (0.0..=1.0).contains(v), "in [0, 1]")
}

fn parse_positive_f32(text: &str) -> Result<f32, String> {
    parse_checked(
        text,
        |v: &f32| v.is_finite() && *v > 0.0,
        "a positive number",
    )
}

/// The option value of a feature set: the first word of its name (`piece-square`).
pub fn feature_set_option(set: FeatureSet) -> &'static str {
    let name = set.name();
    name.split(' ').next().unwrap_or(name)
}

/// A feature set by its option value or its file id.
fn parse_features(text: &str) -> Result<FeatureSet, String> {
    FeatureSet::ALL
        .into_iter()
        .find(|&f| feature_set_option(f) == text || f.id().to_string() == text)
        .ok_or_else(|| {
            let known: Vec<&str> = FeatureSet::ALL
                .into_iter()
                .map(feature_set_option)
                .collect();
            format!(
                "unknown feature set '{text}' (this build has: {})",
                known.join(", ")
            )
        })
}

/// Default `--chunk`: 2^22 positions, 128 MiB of packed positions per chunk.
pub const DEFAULT_CHUNK: usize = 1 << 22;

fn parse_chunk(text: &str) -> Result<usize, String> {
    parse_checked(text, |&c: &usize| c > 0, "a positive number of positions")
}

fn parse_k(text: &str) -> Result<f64, String> {
    parse_checked(
        text,
        |k: &f64| k.is_finite() && *k >= 1.0 && *k <= f64::from(i32::MAX),
        "a scale of at least 1",
    )
}

/// Options of the trainer (`cotuong train`). Every option has a default except the data.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct Args {
    /// Game-record files (each a concatenation of records), read in the order given.
    #[arg(required = true, value_name = "FILE")]
    pub data: Vec<PathBuf>,

    /// Where to write the net (a temporary file is renamed into place).
    #[arg(short, long, default_value = "net.nnue")]
    pub output: PathBuf,

    /// Input feature set (its input count sizes the first layer; stored in the net file):
    /// piece-square (1260 inputs), king-bucket (6 palace buckets of the own general, f-file
    /// mirrored: 7560 inputs), attack-bucket (4 buckets by whether the side still has a
    /// chariot, and a horse or cannon: 5040 inputs) or king-attack-bucket (both: 30240 inputs).
    #[arg(long, default_value = "piece-square", value_parser = parse_features)]
    pub features: FeatureSet,

    /// Train the king or attack buckets as one shared piece-square block plus each bucket's
    /// difference from it (a factoriser; folded into the buckets in the exported net), so that
    /// rarely seen buckets lean on what every bucket learns. Needs a bucketed feature set.
    #[arg(long)]
    pub factorise: bool,

    /// Hidden units per perspective (a multiple of 32).
    #[arg(long, default_value_t = 256, value_parser = parse_hidden)]
    pub hidden: usize,

    /// Hidden-layer activation.
    #[arg(long, value_enum, default_value_t = Activation::Screlu)]
    pub activation: Activation,

    /// Output buckets by the number of pieces on the board (1: a single output), for
    /// `--output-buckets piece-count`; leave it at 1 with piece-configuration (always 16).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub buckets: u8,

    /// How the output bucket is chosen: piece-count (`--buckets` buckets by the number of pieces)
    /// or piece-configuration (16 buckets by whether each side still has a chariot, and a horse
    /// or cannon).
    #[arg(long, value_enum, default_value_t = OutputScheme::PieceCount)]
    pub output_buckets: OutputScheme,

    /// Passes over the training positions.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,

    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_size: u32,

    /// Initial learning rate.
    #[arg(long, default_value_t = 1e-3, value_parser = parse_positive_f32)]
    pub lr: f32,

    /// Learning-rate schedule.
    #[arg(long, value_enum, default_value_t = Schedule::Cosine)]
    pub lr_schedule: Schedule,

    /// Final learning rate of the cosine schedule (default: 0.3^5 of 1e-3).
    #[arg(long, default_value_t = 2.43e-6, value_parser = parse_positive_f32)]
    pub lr_min: f32,

    /// Epochs between learning-rate drops of the step schedule.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub lr_step_epochs: u32,

    /// Factor of each learning-rate drop of the step schedule.
    #[arg(long, default_value_t = 0.3, value_parser = parse_positive_f32)]
    pub lr_gamma: f32,

    /// AdamW decoupled weight decay (weights only, not biases).
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f32,

    /// Learning-rate scale of the buckets' own rows in a factorised net (1: as fast as the
    /// shared block, so a bucket learns at twice its pace; 0.5 holds them to it). Needs
    /// --factorise.
    #[arg(long, default_value_t = 1.0, value_parser = parse_positive_f32, requires = "factorise")]
    pub bucket_lr: f32,

    /// Output-weight quantisation QB: output weights are stored as round(w * QB) and clipped to
    /// 127 / QB (finer steps, narrower range as QB grows).
    #[arg(long, default_value_t = super::quantise::DEFAULT_QB, value_parser = clap::value_parser!(i32).range(8..=1024))]
    pub qb: i32,

    /// Weight of the score in the target: lambda * sigmoid(score / K) + (1 - lambda) * result.
    /// The default won in games against 1.0, which had beaten 0.7 and 0.4 (nnue/nets/README.md).
    #[arg(long, default_value_t = DEFAULT_LAMBDA, value_parser = parse_unit)]
    pub lambda: f32,

    /// The score scale K (engine units); fitted on the training positions when not given.
    #[arg(long, value_parser = parse_k)]
    pub k: Option<f64>,

    /// Fraction of games (not positions) of the data files held out for validation, chosen by a
    /// hash of each game and the seed (not with --validation-file).
    #[arg(long, default_value_t = 0.02, value_parser = parse_fraction)]
    pub validation: f64,

    /// Validate on the games of this game-record file instead of a fraction of the data
    /// (repeatable). They are never trained on: a data file's games that are also in a
    /// validation file are left out of training. Keeps validation losses comparable between
    /// nets trained on different data (`nnue holdout` cuts such a file).
    #[arg(long, value_name = "FILE", conflicts_with = "validation")]
    pub validation_file: Vec<PathBuf>,

    /// Do not load the training positions into memory: read the data files again at every
    /// epoch, in chunks of --chunk positions, each shuffled on its own. For data larger than
    /// memory; the validation positions are still held in memory.
    #[arg(long)]
    pub stream: bool,

    /// Training positions per shuffled chunk with --stream (rounded up to a multiple of
    /// --batch-size; two chunks are in memory at a time, 32 bytes a position). Part of the
    /// recipe: a chunk holding all positions gives the in-memory run exactly.
    #[arg(long, default_value_t = DEFAULT_CHUNK, value_parser = parse_chunk)]
    pub chunk: usize,

    /// Seed of the validation split, the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Worker threads (default, or 0: all cores). Results do not depend on it. With --stream one
    /// more thread reads the data.
    #[arg(long)]
    pub threads: Option<u32>,

    /// Fixed parts of each batch whose gradients are summed in order; results depend on it (and
    /// not on --threads). Use at least --threads.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub shards: u32,

    /// Save a checkpoint and a net every this many epochs (0: only at the end).
    #[arg(long, default_value_t = 10)]
    pub save_every: u32,

    /// Continue from this checkpoint (same data, filters, split and architecture).
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,

    /// Skip positions fewer than this many plies after a record's start.
    #[arg(long, default_value_t = 16)]
    pub min_ply: usize,

    /// Keep positions where the side to move is in check.
    #[arg(long)]
    pub keep_in_check: bool,

    /// Keep positions whose recorded move is a capture.
    #[arg(long)]
    pub keep_captures: bool,

    /// Keep positions with mate or rule-win scores (as +-19000).
    #[arg(long)]
    pub keep_decided: bool,

    /// Keep only positions whose |score| is below this (engine units).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(i32).range(1..))]
    pub max_score: i32,

    /// Keep only positions whose no-capture counter is below this (plies).
    #[arg(long, default_value_t = 80)]
    pub max_no_capture: u16,

    /// Do not also train on the mirror image (files a-i reversed) of every training position.
    /// Mirroring is on by default: the rules are symmetric, so it doubles the training
    /// positions at no data-generation cost (it won +72 Elo for net 4, nnue/nets/README.md).
    #[arg(long = "no-mirror", action = clap::ArgAction::SetFalse)]
    pub mirror: bool,

    /// No progress bar and no per-epoch lines.
    #[arg(long)]
    pub quiet: bool,
}

/// A parser holding only [`Args`], for [`Args::parse_from`].
#[derive(clap::Parser)]
#[command(name = "train", args_override_self = true)]
struct ArgsOnly {
    #[command(flatten)]
    args: Args,
}

impl Args {
    /// Parses `words` as a command line (without the program name), e.g.
    /// `Args::parse_from(["data.xqg", "--epochs", "2"])`; a repeated option's last value wins.
    pub fn parse_from<I, T>(words: I) -> Result<Args, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::Parser;
        let all = std::iter::once(std::ffi::OsString::from("train"))
            .chain(words.into_iter().map(Into::into));
        ArgsOnly::try_parse_from(all).map(|a| a.args)
    }

    /// The load-time filters these options select.
    pub fn filters(&self) -> Filters {
        Filters {
            min_ply: self.min_ply,
            skip_in_check: !self.keep_in_check,
            skip_captures: !self.keep_captures,
            skip_decided: !self.keep_decided,
            max_score: self.max_score,
            max_no_capture_plies: self.max_no_capture,
        }
    }

    /// The fraction of the data files' games held out: none when validation files are given.
    pub fn validation_fraction(&self) -> f64 {
        if self.validation_file.is_empty() {
            self.validation
        } else {
            0.0
        }
    }

    /// The chunk size of streaming: `--chunk` rounded up to a multiple of the batch size, so
    /// that no batch spans two chunks (only an epoch's last batch is short, as in memory).
    pub fn chunk_positions(&self) -> usize {
        let batch = (self.batch_size as usize).max(1);
        self.chunk.max(1).div_ceil(batch) * batch
    }

    /// The output bucket scheme (`--buckets` is checked against it before training).
    pub fn output_buckets(&self) -> OutputBuckets {
        match (self.output_buckets, self.buckets) {
            (OutputScheme::PieceConfiguration, _) => OutputBuckets::PieceConfiguration,
            (OutputScheme::PieceCount, 0 | 1) => OutputBuckets::Single,
            (OutputScheme::PieceCount, n) => OutputBuckets::PieceCount(n),
        }
    }

    /// Where checkpoints go: the output path with `.ckpt` appended.
    pub fn checkpoint_path(&self) -> PathBuf {
        with_suffix(&self.output, ".ckpt")
    }

    /// Where the net saved after `epoch` goes: `NAME-eEPOCH.EXT` next to the output.
    pub fn epoch_net_path(&self, epoch: u32) -> PathBuf {
        let stem = self
            .output
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "net".to_string());
        let name = match self.output.extension() {
            Some(ext) => format!("{stem}-e{epoch}.{}", ext.to_string_lossy()),
            None => format!("{stem}-e{epoch}"),
        };
        self.output.with_file_name(name)
    }

    /// The options as one canonical command line (every option spelled out, defaults included),
    /// so a net's description says exactly how to make it again.
    pub fn command_line(&self) -> String {
        let mut words = vec!["cotuong train".to_string()];
        let mut opt = |name: &str, value: String| words.push(format!("--{name} {value}"));
        opt("output", quote(&self.output));
        opt("hidden", self.hidden.to_string());
        opt("features", feature_set_option(self.features).to_string());
        opt("activation", self.activation.name().to_string());
        opt("buckets", self.buckets.to_string());
        opt("output-buckets", self.output_buckets.name().to_string());
        opt("epochs", self.epochs.to_string());
        opt("batch-size", self.batch_size.to_string());
        opt("lr", self.lr.to_string());
        opt("lr-schedule", self.lr_schedule.name().to_string());
        opt("lr-min", self.lr_min.to_string());
        opt("lr-step-epochs", self.lr_step_epochs.to_string());
        opt("lr-gamma", self.lr_gamma.to_string());
        opt("weight-decay", self.weight_decay.to_string());
        if self.factorise {
            opt("bucket-lr", self.bucket_lr.to_string());
        }
        opt("qb", self.qb.to_string());
        opt("lambda", self.lambda.to_string());
        if let Some(k) = self.k {
            opt("k", k.to_string());
        }
        if self.validation_file.is_empty() {
            opt("validation", self.validation.to_string());
        }
        for f in &self.validation_file {
            opt("validation-file", quote(f));
        }
        if self.stream {
            opt("chunk", self.chunk.to_string());
        }
        opt("seed", self.seed.to_string());
        opt("shards", self.shards.to_string());
        opt("save-every", self.save_every.to_string());
        opt("min-ply", self.min_ply.to_string());
        opt("max-score", self.max_score.to_string());
        opt("max-no-capture", self.max_no_capture.to_string());
        for (flag, on) in [
            ("keep-in-check", self.keep_in_check),
            ("keep-captures", self.keep_captures),
            ("keep-decided", self.keep_decided),
            ("no-mirror", !self.mirror),
            ("stream", self.stream),
            ("factorise", self.factorise),
        ] {
            if on {
                words.push(format!("--{flag}"));
            }
        }
        words.extend(self.data.iter().map(|p| quote(p)));
        words.join(" ")
    }
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A path as a shell word (single-quoted when it has characters a shell would split or expand).
fn quote(path: &Path) -> String {
    let text = path.to_string_lossy();
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@".contains(c))
    {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

impl Args {
    /// Checks what clap cannot (for `Args` built in code).
    pub(crate) fn check(&self) -> Result<(), TrainError> {
        let bad = |m: String| Err(TrainError::BadArgs(m));
        if self.data.is_empty() {
            return bad("no data files given".to_string());
        }
        if self.hidden == 0
            || self.hidden > nnue::format::MAX_HIDDEN
            || !self.hidden.is_multiple_of(nnue::format::HIDDEN_MULTIPLE)
        {
            return bad(format!(
                "hidden size {} is not a positive multiple of {} up to {}",
                self.hidden,
                nnue::format::HIDDEN_MULTIPLE,
                nnue::format::MAX_HIDDEN
            ));
        }
        if self.factorise && factor_rows(self.features) == 0 {
            return bad(format!(
                "--factorise needs a feature set with king or attack buckets; {} has one block",
                self.features.name()
            ));
        }
        if self.buckets == 0 || usize::from(self.buckets) > nnue::features::MAX_OUTPUT_BUCKETS {
            return bad(format!("{} output buckets (1-16)", self.buckets));
        }
        // The count belongs to piece-count; piece-configuration has its own, so a count given with
        // it would be silently ignored.
        if self.output_buckets == OutputScheme::PieceConfiguration && self.buckets != 1 {
            return bad(format!(
            "--buckets {} with --output-buckets piece-configuration, which always has {} buckets; \
             leave --buckets out",
            self.buckets,
            nnue::features::PIECE_CONFIGURATION_BUCKETS
        ));
        }
        if !(8..=1024).contains(&self.qb) {
            return bad(format!("QB {} not in 8..=1024", self.qb));
        }
        if self.epochs == 0 || self.batch_size == 0 || self.shards == 0 {
            return bad("epochs, batch size and shards must be positive".to_string());
        }
        if !(0.0..1.0).contains(&self.validation) {
            return bad(format!(
                "validation fraction {} not in [0, 1)",
                self.validation
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad(format!("lambda {} not in [0, 1]", self.lambda));
        }
        if let Some(k) = self.k {
            if !(k.is_finite() && k >= 1.0 && k <= f64::from(i32::MAX)) {
                return bad(format!("K {k} is not a scale of at least 1"));
            }
        }
        if self.stream && self.chunk == 0 {
            return bad("the chunk size must be positive".to_string());
        }
        check_writable_dir(&self.output)?;
        check_writable_dir(&self.checkpoint_path())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_derived_paths() {
        let a = Args::parse_from(["games.xqg", "-o", "nets/x.nnue"]).unwrap();
        assert_eq!(a.hidden, 256);
        assert_eq!(a.activation, Activation::Screlu);
        assert_eq!(a.output_buckets(), OutputBuckets::Single);
        assert_eq!(a.filters(), Filters::default());
        assert!(a.mirror);
        let plain = Args::parse_from(["games.xqg", "--no-mirror"]).unwrap();
        assert!(!plain.mirror);
        assert!(plain.command_line().contains(" --no-mirror "));
        assert!(!a.command_line().contains("mirror"));
        assert_eq!(a.checkpoint_path(), PathBuf::from("nets/x.nnue.ckpt"));
        assert_eq!(a.epoch_net_path(10), PathBuf::from("nets/x-e10.nnue"));
        assert!(a
            .command_line()
            .starts_with("cotuong train --output nets/x.nnue --hidden 256"));
        assert!(a.command_line().ends_with(" games.xqg"));
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(Args::parse_from(["d", "--hidden", "100"]).is_err());
        assert!(Args::parse_from(["d", "--buckets", "17"]).is_err());
        assert!(Args::parse_from(["d", "--lambda", "1.5"]).is_err());
        assert!(Args::parse_from(["d", "--validation", "1"]).is_err());
        assert!(Args::parse_from(["d", "--k", "0"]).is_err());
        assert!(Args::parse_from(Vec::<String>::new()).is_err());
        assert!(Args::parse_from(["d", "--features", "king"]).is_err());
        assert!(Args::parse_from(["d", "--features", "5"]).is_err());
        assert!(Args::parse_from(["d", "--chunk", "0"]).is_err());
        // A fixed validation file replaces the fraction; both at once are refused.
        assert!(Args::parse_from(["d", "--validation", "0.1", "--validation-file", "v"]).is_err());
        // The bucket rows' learning rate needs a factorised net, and a positive scale.
        assert!(Args::parse_from(["d", "--bucket-lr", "0.5"]).is_err());
        let args = [
            "d",
            "--features",
            "attack-bucket",
            "--factorise",
            "--bucket-lr",
        ];
        assert!(Args::parse_from(args.iter().chain(&["0"])).is_err());
        let scaled = Args::parse_from(args.iter().chain(&["0.5"])).unwrap();
        assert_eq!(scaled.bucket_lr, 0.5);
        assert!(scaled.command_line().contains(" --bucket-lr 0.5"));
    }

    #[test]
    fn output_bucket_schemes() {
        let count = Args::parse_from(["d", "--buckets", "8"]).unwrap();
        assert_eq!(count.output_buckets(), OutputBuckets::PieceCount(8));
        assert!(count
            .command_line()
            .contains(" --buckets 8 --output-buckets piece-count "));
        let config = Args::parse_from(["d", "--output-buckets", "piece-configuration"]).unwrap();
        assert_eq!(config.output_buckets(), OutputBuckets::PieceConfiguration);
        let line = config.command_line();
        assert!(
            line.contains(" --output-buckets piece-configuration "),
            "{line}"
        );
        // The canonical command line parses back to the same options.
        let words: Vec<&str> = line.split_whitespace().skip(2).collect();
        assert_eq!(Args::parse_from(words).unwrap(), config);
        assert!(Args::parse_from(["d", "--output-buckets", "pieces"]).is_err());
    }

    #[test]
    fn features_streaming_and_validation_files() {
        let a = Args::parse_from(["d"]).unwrap();
        assert_eq!(a.features, FeatureSet::PieceSquare);
        assert!(a.command_line().contains(" --features piece-square "));
        assert!(!a.stream && !a.command_line().contains("--stream"));
        assert_eq!(a.validation_fraction(), 0.02);
        let by_id = Args::parse_from(["d", "--features", "1"]).unwrap();
        assert_eq!(by_id.features, FeatureSet::PieceSquare);
        let king = Args::parse_from(["d", "--features", "king-bucket"]).unwrap();
        assert_eq!(king.features, FeatureSet::KingBuckets);
        assert!(king.command_line().contains(" --features king-bucket "));
        let king_by_id = Args::parse_from(["d", "--features", "2"]).unwrap();
        assert_eq!(king_by_id.features, FeatureSet::KingBuckets);
        for (text, set) in [
            ("attack-bucket", FeatureSet::AttackBuckets),
            ("3", FeatureSet::AttackBuckets),
            ("king-attack-bucket", FeatureSet::KingAttackBuckets),
            ("4", FeatureSet::KingAttackBuckets),
        ] {
            let a = Args::parse_from(["d", "--features", text]).unwrap();
            assert_eq!(a.features, set);
            assert!(a
                .command_line()
                .contains(&format!(" --features {} ", feature_set_option(set))));
        }
        let s = Args::parse_from([
            "d",
            "--stream",
            "--chunk",
            "1000",
            "--batch-size",
            "256",
            "--validation-file",
            "v1.xqg",
            "--validation-file",
            "v2.xqg",
        ])
        .unwrap();
        assert_eq!(s.chunk_positions(), 1024);
        assert_eq!(s.validation_fraction(), 0.0);
        let line = s.command_line();
        assert!(line.contains(" --validation-file v1.xqg --validation-file v2.xqg "));
        assert!(line.contains(" --chunk 1000 ") && line.contains(" --stream "));
        assert!(!line.contains("--validation 0"));
    }
}
