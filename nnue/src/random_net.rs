//! Deterministic pseudo-random nets, for tests and benchmarks that need a net of a given shape
//! before (or besides) a trained one. The same spec and seed always give the same file.
//!
//! Two weight regimes:
//! - **typical**: first-layer values spread the accumulators over the whole activation range and
//!   around it, output weights give evaluations of a few hundred engine units, like a trained net;
//! - **extreme**: every weight as large as the loader allows (accumulators can reach the `i16`
//!   limit, SCReLU output weights reach `±i16::MAX / QA`), to prove the kernels exact at their
//!   bounds.

use crate::features::{FeatureSet, OutputBuckets};
use crate::format::{Architecture, NetFile, NetHeader};
use crate::network::max_screlu_output_weight;
use engine_core::SplitMix64;

/// The generator of the synthetic nets and test games: [`SplitMix64`], with a modulo `below`
/// (kept so that a seed gives the same nets and games as before).
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
}

/// QA of the synthetic nets (bullet's usual choice: 255).
pub const QA: i32 = 255;
/// QB of the synthetic nets.
pub const QB: i32 = 64;
/// Engine units per float output unit.
pub const EVAL_SCALE: i32 = 400;

/// The shape and regime of a synthetic net.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Input features.
    pub features: FeatureSet,
    /// Activation.
    pub architecture: Architecture,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: OutputBuckets,
    /// Weights at the loader's limits instead of typical values.
    pub extreme: bool,
}

impl Spec {
    /// A typical-regime SCReLU piece-square net of `hidden` units with 8 material buckets.
    pub fn screlu(hidden: usize) -> Spec {
        Spec {
            features: FeatureSet::PieceSquare,
            architecture: Architecture::PerspectiveScrelu,
            hidden,
            buckets: OutputBuckets::PieceCount(8),
            extreme: false,
        }
    }

    /// A typical-regime SCReLU king-bucket net ([`FeatureSet::KingBuckets`]) of `hidden` units
    /// with 8 material buckets.
    pub fn king_buckets(hidden: usize) -> Spec {
        Spec::with_features(FeatureSet::KingBuckets, hidden)
    }

    /// A typical-regime SCReLU net on `features` of `hidden` units with 8 material buckets.
    pub fn with_features(features: FeatureSet, hidden: usize) -> Spec {
        Spec {
            features,
            ..Spec::screlu(hidden)
        }
    }

    /// The net file for this spec and `seed`.
    pub fn build(&self, seed: u64) -> NetFile {
        let mut rng = Rng::new(seed);
        let features = self.features;
        let header = NetHeader {
            architecture: self.architecture,
            features,
            hidden: self.hidden,
            buckets: self.buckets,
            qa: QA,
            qb: QB,
            eval_scale: EVAL_SCALE,
            description: format!(
                "synthetic {}{} hidden {} buckets {} {} seed {seed}",
                self.architecture.name(),
                match features {
                    FeatureSet::PieceSquare => String::new(),
                    other => format!(", {}", other.name()),
                },
                self.hidden,
                self.buckets.count(),
                if self.extreme { "extreme" } else { "typical" },
            ),
        };
        // Extreme: |bias| + 32 · |w| = 767 + 32 · 1000 = i16::MAX, the accumulator limit.
        let (w_lim, b_lo, b_hi) = if self.extreme {
            (1000, -767, 767)
        } else {
            (24, -32, 160)
        };
        let out_lim = match (self.extreme, self.architecture) {
            (false, _) => 16,
            (true, Architecture::PerspectiveScrelu) => max_screlu_output_weight(QA),
            (true, Architecture::PerspectiveCrelu) => i32::from(i16::MAX),
        };
        let mut draw = |lim: i32| -> i16 {
            // In the extreme regime a quarter of the values sit at each end of the range.
            let v = match (self.extreme, rng.below(4)) {
                (true, 0) => lim,
                (true, 1) => -lim,
                _ => rng.range(-lim, lim),
            };
            v as i16
        };
        let feature_weights = (0..header.feature_weight_count())
            .map(|_| draw(w_lim))
            .collect();
        let output_weights = (0..header.output_weight_count())
            .map(|_| draw(out_lim))
            .collect();
        let feature_biases = (0..self.hidden)
            .map(|_| rng.range(b_lo, b_hi) as i16)
            .collect();
        let bias_lim = QA * QB / 4;
        let output_biases = (0..self.buckets.count())
            .map(|_| rng.range(-bias_lim, bias_lim))
            .collect();
        // The lengths follow the header by construction.
        NetFile::new(
            header,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        )
        .expect("synthetic weights match their header")
    }
}
