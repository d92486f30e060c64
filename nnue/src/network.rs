//! The runtime network: a parsed [`NetFile`] checked against what this binary can run, with its
//! weights in 64-byte-aligned [`Block`]s for the SIMD kernels.
//!
//! Loading goes `bytes -> NetFile::parse -> Network::from_net_file` ([`Network::from_bytes`] does
//! both). Besides the file's own validation, the loader proves that inference cannot overflow:
//!
//! - **Accumulators** (`i16`): for every hidden unit, `|bias| + the sum of the
//!   [`MAX_ACTIVE`] largest |feature weights|` must fit an `i16`, so no position's accumulator can
//!   leave the `i16` range ([`LoadError::AccumulatorOverflow`]).
//! - **SCReLU output**: the kernels multiply `v = clamp(acc, 0, QA)` by the output weight in
//!   `i16` before multiplying by `v` again (one `madd`), so `QA · |w|` must fit an `i16`: with
//!   `QA = 255` that is `|w| <= 128`; trainers clip output weights to `±127/QB`
//!   ([`LoadError::OutputWeightTooLarge`], [`max_screlu_output_weight`]).
//! - **Output sums**: products are summed in `i32` lanes before widening to `i64`; the most
//!   products per lane ([`crate::simd::max_products_per_lane`]) times the largest product must
//!   fit an `i32` ([`LoadError::OutputOverflow`]). With `QA = 255`, SCReLU and any weights the
//!   previous rule allows, this holds up to a hidden size of 2048.
//!
//! Under these bounds every SIMD path computes the same exact integers.

use crate::features::{FeatureSet, OutputBuckets, MAX_ACTIVE};
use crate::format::{Architecture, NetError, NetFile};
use crate::simd::{max_products_per_lane, Block, Simd, BLOCK_LANES};
use engine_core::{Color, Position};
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Hidden sizes (per perspective) this binary runs. The kernels take any multiple of 32; the set
/// is kept to the sizes that are tested and benchmarked.
pub const SUPPORTED_HIDDEN: [usize; 3] = [256, 512, 1024];

/// Evaluations are clamped to `±EVAL_LIMIT` engine units: far from any mate or rule-win score
/// of the search, whatever a net outputs.
pub const EVAL_LIMIT: i32 = 15_000;

/// The largest |output weight| a SCReLU net may have with first-layer quantisation `qa`:
/// `qa · |w|` must fit an `i16` (128 for `qa = 255`).
pub const fn max_screlu_output_weight(qa: i32) -> i32 {
    i16::MAX as i32 / qa
}

/// Why a net could not be loaded into this binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read.
    Io {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The file is not a valid net file.
    Format(NetError),
    /// A valid net of a hidden size this binary does not run.
    UnsupportedHidden(usize),
    /// QA above `i16::MAX` (activations are clamped to `[0, QA]` in `i16`).
    QaTooLarge(i32),
    /// A SCReLU output weight with `QA · |w|` beyond `i16` (see [`max_screlu_output_weight`]).
    OutputWeightTooLarge {
        /// Output bucket.
        bucket: usize,
        /// Position in the bucket's `2·H` weights.
        index: usize,
        /// The weight.
        weight: i16,
        /// The largest magnitude allowed.
        limit: i32,
    },
    /// A hidden unit whose accumulator could leave the `i16` range in some position.
    AccumulatorOverflow {
        /// The hidden unit.
        unit: usize,
        /// `|bias| +` the largest possible sum of active weights.
        reach: i64,
    },
    /// The output layer's `i32` partial sums could overflow.
    OutputOverflow {
        /// The largest possible partial sum.
        bound: i64,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, reason } => write!(f, "cannot read net file {path}: {reason}"),
            LoadError::Format(e) => e.fmt(f),
            LoadError::UnsupportedHidden(h) => {
                let supported: Vec<String> = SUPPORTED_HIDDEN.iter().map(|h| h.to_string()).collect();
                write!(
                    f,
                    "hidden size {h} but this binary supports {}",
                    supported.join(", ")
                )
            }
            LoadError::QaTooLarge(qa) => write!(f, "QA is {qa}, at most {} supported", i16::MAX),
            LoadError::OutputWeightTooLarge {
                bucket,
                index,
                weight,
                limit,
            } => write!(
                f,
                "output weight {weight} (bucket {bucket}, index {index}) exceeds ±{limit}, the SCReLU bound QA·|w| <= {}",
                i16::MAX
            ),
            LoadError::AccumulatorOverflow { unit, reach } => write!(
                f,
                "hidden unit {unit} can reach {reach}, beyond the i16 accumulator (feature weights too large)"
            ),
            LoadError::OutputOverflow { bound } => write!(
                f,
                "output layer partial sums can reach {bound}, beyond i32 (weights or QA too large)"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<NetError> for LoadError {
    fn from(e: NetError) -> LoadError {
        LoadError::Format(e)
    }
}

/// Distinguishes networks in memory, so an accumulator stack notices a net it was not built for.
static NEXT_NETWORK_ID: AtomicU64 = AtomicU64::new(1);

/// Characters of the description that [`Network::summary`] keeps.
pub const SUMMARY_DESCRIPTION_CHARS: usize = 100;

/// A network ready for inference.
#[derive(Clone)]
pub struct Network {
    id: u64,
    architecture: Architecture,
    features: FeatureSet,
    buckets: OutputBuckets,
    hidden: usize,
    qa: i32,
    qb: i32,
    eval_scale: i32,
    description: String,
    hash: u64,
    simd: Simd,
    /// `inputs × H/32` blocks: the row of input `i` starts at block `i · H/32`.
    feature_weights: Vec<Block>,
    /// `H/32` blocks.
    feature_biases: Vec<Block>,
    /// `buckets × 2 × H/32` blocks: per bucket the side to move's half, then the other side's.
    output_weights: Vec<Block>,
    output_biases: Vec<i32>,
}

impl fmt::Debug for Network {
    /// The summary and the kernel path; the weights would be hundreds of kilobytes of text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({}, simd {})", self.summary(), self.simd.name())
    }
}

/// Regroups `values` (a multiple of 32 long) into blocks.
fn to_blocks(values: &[i16]) -> Vec<Block> {
    values
        .chunks_exact(BLOCK_LANES)
        .map(|c| {
            let mut b = Block::ZERO;
            b.0.copy_from_slice(c);
            b
        })
        .collect()
}

impl Network {
    /// Parses and checks a net file's bytes (for example an embedded net).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, LoadError> {
        Network::from_net_file(&NetFile::parse(bytes)?)
    }

    /// Reads, parses and checks the net file at `path`.
    pub fn load_file(path: &Path) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path).map_err(|e| LoadError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Checks a parsed net against what this binary runs (see the module docs) and lays its
    /// weights out for the kernels. Uses the widest SIMD path the CPU has ([`Simd::detected`]).
    pub fn from_net_file(file: &NetFile) -> Result<Network, LoadError> {
        let h = &file.header;
        if !SUPPORTED_HIDDEN.contains(&h.hidden) {
            return Err(LoadError::UnsupportedHidden(h.hidden));
        }
        let qa = i64::from(h.qa);
        if qa > i64::from(i16::MAX) {
            return Err(LoadError::QaTooLarge(h.qa));
        }
        let hidden = h.hidden;
        let max_out = file
            .output_weights
            .iter()
            .map(|&w| i64::from(w).abs())
            .max()
            .unwrap_or(0);
        let max_product = match h.architecture {
            Architecture::PerspectiveScrelu => {
                let limit = max_screlu_output_weight(h.qa);
                if let Some(index) = file
                    .output_weights
                    .iter()
                    .position(|&w| i64::from(w).abs() > i64::from(limit))
                {
                    return Err(LoadError::OutputWeightTooLarge {
                        bucket: index / (2 * hidden),
                        index: index % (2 * hidden),
                        weight: file.output_weights[index],
                        limit,
                    });
                }
                qa * qa * max_out
            }
            Architecture::PerspectiveCrelu => qa * max_out,
        };
        let bound = max_product * max_products_per_lane(hidden / BLOCK_LANES) as i64;
        if bound > i64::from(i32::MAX) {
            return Err(LoadError::OutputOverflow { bound });
        }
        check_accumulator_reach(&file.feature_weights, &file.feature_biases, hidden)?;

        Ok(Network {
            id: NEXT_NETWORK_ID.fetch_add(1, Ordering::Relaxed),
            architecture: h.architecture,
            features: h.features,
            buckets: h.buckets,
            hidden,
            qa: h.qa,
            qb: h.qb,
            eval_scale: h.eval_scale,
            description: h.description.clone(),
            hash: file.weights_hash(),
            simd: Simd::detected(),
            feature_weights: to_blocks(&file.feature_weights),
            feature_biases: to_blocks(&file.feature_biases),
            output_weights: to_blocks(&file.output_weights),
            output_biases: file.output_biases.clone(),
        })
    }

    /// The same network run with another kernel path (to compare or benchmark paths). All paths
    /// give identical results.
    pub fn with_simd(mut self, simd: Simd) -> Network {
        self.simd = simd;
        self
    }

    /// The kernel path in use.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// The file's free-text description (how the net was made).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The score scale K the net was trained with: its output in engine units is the trained
    /// logit times K.
    pub fn eval_scale(&self) -> i32 {
        self.eval_scale
    }

    /// The FNV-1a 64 hash of the weights, as stored in (and checked against) the file header.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// One line naming the net, for `uci`/`d` output: architecture, sizes, hash and the first
    /// line of the description (cut to [`SUMMARY_DESCRIPTION_CHARS`] characters), so that it can
    /// go into a protocol line whatever the description holds.
    pub fn summary(&self) -> String {
        let first = self.description.lines().next().unwrap_or("").trim();
        let mut text: String = first
            .chars()
            .filter(|c| !c.is_control())
            .take(SUMMARY_DESCRIPTION_CHARS)
            .collect();
        if first.chars().count() > SUMMARY_DESCRIPTION_CHARS
            || self.description.lines().nth(1).is_some()
        {
            text.push_str(" ...");
        }
        format!(
            "{}, {} -> {}x2 -> {} output bucket(s), hash {:016x}: {}",
            self.architecture.name(),
            self.features.name(),
            self.hidden,
            self.buckets.count(),
            self.hash,
            text
        )
    }

    /// Layer structure and activation.
    pub fn architecture(&self) -> Architecture {
        self.architecture
    }

    /// The input feature set.
    pub fn features(&self) -> FeatureSet {
        self.features
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output bucket scheme.
    pub fn buckets(&self) -> OutputBuckets {
        self.buckets
    }

    /// Distinguishes network instances (clones share it: same weights).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Blocks per accumulator (`H / 32`).
    pub(crate) fn blocks(&self) -> usize {
        self.hidden / BLOCK_LANES
    }

    /// The feature biases (`H / 32` blocks): an accumulator with no input active.
    pub(crate) fn feature_biases(&self) -> &[Block] {
        &self.feature_biases
    }

    /// The weight row of input `index` (which the feature set keeps below its input count).
    #[inline(always)]
    pub(crate) fn feature_row(&self, index: usize) -> &[Block] {
        let n = self.blocks();
        &self.feature_weights[index * n..(index + 1) * n]
    }

    /// Writes `perspective`'s accumulator for `pos`, computed from scratch, into `out`
    /// (`H / 32` blocks).
    pub fn refresh(&self, pos: &Position, perspective: Color, out: &mut [Block]) {
        out.copy_from_slice(&self.feature_biases);
        for index in self.features.active(pos, perspective) {
            self.simd
                .add_assign(out, self.feature_row(usize::from(index)));
        }
    }

    /// The output for accumulators `us` (side to move) and `them`, in engine units, clamped to
    /// `±EVAL_LIMIT`.
    #[inline]
    pub(crate) fn output(&self, us: &[Block], them: &[Block], bucket: usize) -> i32 {
        let n = self.blocks();
        let w = &self.output_weights[2 * n * bucket..2 * n * (bucket + 1)];
        let (w_us, w_them) = w.split_at(n);
        // QA fits an i16: checked at load.
        let qa = self.qa as i16;
        let bias = i64::from(self.output_biases[bucket]);
        // In units of QA·QB, like the bias.
        let out = match self.architecture {
            Architecture::PerspectiveScrelu => {
                let sum =
                    self.simd.screlu_dot(us, w_us, qa) + self.simd.screlu_dot(them, w_them, qa);
                sum.div_euclid(i64::from(self.qa)) + bias
            }
            Architecture::PerspectiveCrelu => {
                self.simd.crelu_dot(us, w_us, qa) + self.simd.crelu_dot(them, w_them, qa) + bias
            }
        };
        let scaled = out
            .saturating_mul(i64::from(self.eval_scale))
            .div_euclid(i64::from(self.qa) * i64::from(self.qb));
        scaled.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// Evaluates `pos` from scratch (side to move's point of view, engine units, clamped to
    /// `±EVAL_LIMIT`). For one-off evaluations (the `eval` command, tests); the search uses an
    /// [`crate::accumulator::AccumulatorStack`], which updates incrementally.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let n = self.blocks();
        let mut us = vec![Block::ZERO; n];
        let mut them = vec![Block::ZERO; n];
        let stm = pos.side_to_move();
        self.refresh(pos, stm, &mut us);
        self.refresh(pos, stm.opponent(), &mut them);
        self.output(&us, &them, self.buckets.bucket(pos))
    }
}

/// Checks that no hidden unit's accumulator can leave the `i16` range: `|bias|` plus the
/// [`MAX_ACTIVE`] largest |weights| into the unit (at most that many inputs are active).
fn check_accumulator_reach(
    weights: &[i16],
    biases: &[i16],
    hidden: usize,
) -> Result<(), LoadError> {
    let inputs = weights.len() / hidden;
    let mut column: Vec<i64> = vec![0; inputs];
    for (unit, &bias) in biases.iter().enumerate() {
        for (i, c) in column.iter_mut().enumerate() {
            *c = i64::from(weights[i * hidden + unit]).abs();
        }
        let take = MAX_ACTIVE.min(inputs);
        let largest: i64 = if take < inputs {
            column.select_nth_unstable_by(take, |a, b| b.cmp(a));
            column[..take].iter().sum()
        } else {
            column.iter().sum()
        };
        let reach = i64::from(bias).abs() + largest;
        if reach > i64::from(i16::MAX) {
            return Err(LoadError::AccumulatorOverflow { unit, reach });
        }
    }
    Ok(())
}
