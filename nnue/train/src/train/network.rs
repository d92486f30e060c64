//! The float network the trainer optimises, with the exact semantics of the net file (see
//! [`nnue::format`]): `acc = bias + Σ W[i]` per perspective, `out = Σ a(acc_stm)·w[b][..H] +
//! Σ a(acc_other)·w[b][H..] + bias[b]`, `eval = out · K`.
//!
//! All parameters live in one flat vector (feature weights, feature biases, output weights,
//! output biases), so the optimiser and the gradient buffers treat them alike.

use crate::data::PackedPosition;
use engine_core::Position;
use engine_core::SplitMix64;
use nnue::features::{FeatureSet, OutputBuckets, MAX_ACTIVE};
use nnue::format::Architecture;
use std::borrow::Cow;
use std::ops::Range;

/// Width of the fixed-order partial sums in dot products: the summation order is part of the
/// code, not of the instruction set, so results are bit-identical on every x86-64 CPU.
pub(crate) const LANES: usize = 8;

/// Hidden-layer activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Activation {
    /// Squared clipped ReLU, `clamp(x, 0, 1)²`.
    Screlu,
    /// Clipped ReLU, `clamp(x, 0, 1)`.
    Crelu,
}

impl Activation {
    /// The net-file architecture with this activation.
    pub fn architecture(self) -> Architecture {
        match self {
            Activation::Screlu => Architecture::PerspectiveScrelu,
            Activation::Crelu => Architecture::PerspectiveCrelu,
        }
    }

    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Screlu => "screlu",
            Activation::Crelu => "crelu",
        }
    }
}

/// The parameter groups, in storage order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamGroup {
    /// `inputs × hidden`, feature-major (the H weights of input 0 first).
    FeatureWeights,
    /// `hidden`.
    FeatureBiases,
    /// `buckets × 2·hidden`, bucket-major, the side to move's half first.
    OutputWeights,
    /// `buckets`.
    OutputBiases,
}

impl ParamGroup {
    /// Every group in storage order.
    pub const ALL: [ParamGroup; 4] = [
        ParamGroup::FeatureWeights,
        ParamGroup::FeatureBiases,
        ParamGroup::OutputWeights,
        ParamGroup::OutputBiases,
    ];

    /// Whether weight decay applies (weights yes, biases no).
    pub fn decays(self) -> bool {
        matches!(self, ParamGroup::FeatureWeights | ParamGroup::OutputWeights)
    }
}

/// Where each group lies in the flat parameter vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Inputs per perspective.
    pub inputs: usize,
    /// Rows of the shared block of a factorised network, stored after the inputs' rows (0: not
    /// factorised). Input `i` also reads row `inputs + i % factor_rows`.
    pub factor_rows: usize,
    /// Hidden units per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
}

impl Layout {
    /// The index range of `group`.
    pub fn range(&self, group: ParamGroup) -> Range<usize> {
        let fw = (self.inputs + self.factor_rows) * self.hidden;
        let fb = fw + self.hidden;
        let ow = fb + self.buckets * 2 * self.hidden;
        let ob = ow + self.buckets;
        match group {
            ParamGroup::FeatureWeights => 0..fw,
            ParamGroup::FeatureBiases => fw..fb,
            ParamGroup::OutputWeights => fb..ow,
            ParamGroup::OutputBiases => ow..ob,
        }
    }

    /// The bucket rows of a factorised network's feature weights (each bucket's own difference
    /// from the shared block, which follows them); empty when it is not factorised.
    pub fn bucket_rows(&self) -> Range<usize> {
        if self.factor_rows > 0 {
            0..self.inputs * self.hidden
        } else {
            0..0
        }
    }

    /// Total number of parameters.
    pub fn len(&self) -> usize {
        self.range(ParamGroup::OutputBiases).end
    }

    /// Whether there are no parameters (never, for a real layout).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The shared row input `input` also reads in a factorised network.
    #[inline(always)]
    pub fn factor_row(&self, input: usize) -> Option<usize> {
        (self.factor_rows > 0).then(|| self.inputs + input % self.factor_rows)
    }
}

/// Rows of the shared block a factorised network on `features` trains: one piece-square block,
/// read by every king and attack bucket (none for the piece-square set, which has a single
/// block).
pub fn factor_rows(features: FeatureSet) -> usize {
    if features.blocks() > 1 {
        FeatureSet::PieceSquare.inputs()
    } else {
        0
    }
}

/// Scale of the uniform initial feature weights: with about 30 active inputs the initial
/// accumulators spread over roughly ±0.3, inside the activation's linear range.
const FEATURE_WEIGHT_INIT: f32 = 0.088;

/// A float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    features: FeatureSet,
    buckets: OutputBuckets,
    activation: Activation,
    layout: Layout,
    params: Vec<f32>,
}

impl Network {
    /// A network on the piece-square feature set with seeded random weights (see
    /// [`Network::with_features`]).
    pub fn new(
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
        seed: u64,
    ) -> Network {
        Network::with_features(FeatureSet::PieceSquare, hidden, buckets, activation, seed)
    }

    /// A network on `features` (its input count sizes the first layer) with seeded random
    /// weights: feature weights uniform in ±0.088, output weights uniform in ±1/√(2H), biases
    /// zero.
    pub fn with_features(
        features: FeatureSet,
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
        seed: u64,
    ) -> Network {
        let net = Network::zeroed_with_features(features, hidden, buckets, activation);
        net.randomised(seed)
    }

    /// A factorised network on `features` (see `factor_rows`): the inputs' rows start at zero
    /// and the shared block random, so every bucket starts as one piece-square net and
    /// learns only its difference from what all buckets share. The export folds the shared
    /// block into the buckets ([`Network::folded`]). `None` for a set with a single block.
    pub fn factorised(
        features: FeatureSet,
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
        seed: u64,
    ) -> Option<Network> {
        let net = Network::zeroed_factorised(features, hidden, buckets, activation)?;
        let mut net = net.randomised(seed);
        let own_rows = 0..net.layout.inputs * hidden;
        net.params[own_rows].fill(0.0);
        Some(net)
    }

    /// Feature weights uniform in ±0.088, output weights uniform in ±1/√(2H).
    fn randomised(mut self, seed: u64) -> Network {
        let mut rng = SplitMix64::stream(seed, 0x1417);
        let mut uniform = |scale: f32| (rng.unit_f32() * 2.0 - 1.0) * scale;
        let out_scale = 1.0 / ((2 * self.layout.hidden) as f32).sqrt();
        let fw = self.layout.range(ParamGroup::FeatureWeights);
        let ow = self.layout.range(ParamGroup::OutputWeights);
        for w in &mut self.params[fw] {
            *w = uniform(FEATURE_WEIGHT_INIT);
        }
        for w in &mut self.params[ow] {
            *w = uniform(out_scale);
        }
        self
    }

    /// A piece-square network with every parameter zero.
    pub fn zeroed(hidden: usize, buckets: OutputBuckets, activation: Activation) -> Network {
        Network::zeroed_with_features(FeatureSet::PieceSquare, hidden, buckets, activation)
    }

    /// A network on `features` with every parameter zero.
    pub fn zeroed_with_features(
        features: FeatureSet,
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
    ) -> Network {
        Network::zeroed_with_rows(features, 0, hidden, buckets, activation)
    }

    /// A factorised network on `features` with every parameter zero (`None` for a set with a
    /// single block).
    pub fn zeroed_factorised(
        features: FeatureSet,
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
    ) -> Option<Network> {
        let rows = factor_rows(features);
        (rows > 0).then(|| Network::zeroed_with_rows(features, rows, hidden, buckets, activation))
    }

    fn zeroed_with_rows(
        features: FeatureSet,
        factor_rows: usize,
        hidden: usize,
        buckets: OutputBuckets,
        activation: Activation,
    ) -> Network {
        let layout = Layout {
            inputs: features.inputs(),
            factor_rows,
            hidden,
            buckets: buckets.count(),
        };
        Network {
            features,
            buckets,
            activation,
            params: vec![0.0; layout.len()],
            layout,
        }
    }

    /// Whether the network trains a shared block beside its inputs' rows.
    pub fn is_factorised(&self) -> bool {
        self.layout.factor_rows > 0
    }

    /// The same function without the shared block: each input's row plus the shared row it
    /// reads, clamped to `±clip`; with the number of weights the clamp changed. A network that
    /// is not factorised comes back as it is (a copy).
    pub fn folded(&self, clip: f32) -> (Network, usize) {
        if !self.is_factorised() {
            return (self.clone(), 0);
        }
        let mut out = Network::zeroed_with_features(
            self.features,
            self.layout.hidden,
            self.buckets,
            self.activation,
        );
        let mut clamped = 0;
        for (o, &sum) in out.params.iter_mut().zip(self.input_rows().iter()) {
            *o = sum.clamp(-clip, clip);
            clamped += usize::from(*o != sum);
        }
        for group in [
            ParamGroup::FeatureBiases,
            ParamGroup::OutputWeights,
            ParamGroup::OutputBiases,
        ] {
            let (from, to) = (self.layout.range(group), out.layout.range(group));
            out.params[to].copy_from_slice(&self.params[from]);
        }
        (out, clamped)
    }

    /// Every input's row of feature weights as the forward pass adds it (`inputs × hidden`,
    /// input-major): a factorised network's own rows each plus the shared row they read, summed
    /// once here so that the training loop adds one row per active input instead of two; the
    /// stored rows of any other network.
    pub fn input_rows(&self) -> Cow<'_, [f32]> {
        let own = &self.params[..self.layout.inputs * self.layout.hidden];
        if !self.is_factorised() {
            return Cow::Borrowed(own);
        }
        let shared = &self.params[own.len()..self.layout.range(ParamGroup::FeatureWeights).end];
        let mut rows = own.to_vec();
        // Input `i` reads shared row `i % factor_rows`: block by block, the same rows in order.
        for block in rows.chunks_mut(shared.len()) {
            add_assign(block, shared);
        }
        Cow::Owned(rows)
    }

    /// The input feature set.
    pub fn features(&self) -> FeatureSet {
        self.features
    }

    /// The output bucket scheme.
    pub fn buckets(&self) -> OutputBuckets {
        self.buckets
    }

    /// The activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.layout.hidden
    }

    /// Where the groups lie in [`Network::params`].
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// All parameters.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// All parameters, mutable.
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// One group's parameters.
    pub fn group(&self, group: ParamGroup) -> &[f32] {
        &self.params[self.layout.range(group)]
    }

    /// The float output for the active inputs of both perspectives (side to move first) and the
    /// output bucket; the evaluation is this times the eval scale K.
    pub fn output(&self, stm: &[u16], other: &[u16], bucket: usize) -> f32 {
        let h = self.layout.hidden;
        let mut acc_stm = vec![0.0; h];
        let mut acc_other = vec![0.0; h];
        self.accumulate(stm, &mut acc_stm);
        self.accumulate(other, &mut acc_other);
        match self.activation {
            Activation::Screlu => self.output_from::<Screlu>(&acc_stm, &acc_other, bucket),
            Activation::Crelu => self.output_from::<Crelu>(&acc_stm, &acc_other, bucket),
        }
    }

    /// The float output for a packed position.
    pub fn output_packed(&self, p: &PackedPosition) -> f32 {
        let (stm, other) = p.features(self.features);
        self.output(&stm, &other, p.bucket())
    }

    /// The float output for a position.
    pub fn output_position(&self, pos: &Position) -> f32 {
        let stm = pos.side_to_move();
        let a = self.features.active(pos, stm);
        let b = self.features.active(pos, stm.opponent());
        self.output(&a, &b, self.buckets.bucket(pos))
    }

    /// `acc = feature bias + Σ feature weights of the active inputs`.
    #[inline(always)]
    pub(crate) fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        let h = self.layout.hidden;
        let fb = self.layout.range(ParamGroup::FeatureBiases);
        acc.copy_from_slice(&self.params[fb]);
        for &i in active.iter().take(MAX_ACTIVE) {
            let start = usize::from(i) * h;
            add_assign(acc, &self.params[start..start + h]);
            if let Some(row) = self.layout.factor_row(usize::from(i)) {
                add_assign(acc, &self.params[row * h..(row + 1) * h]);
            }
        }
    }

    /// The output from both accumulators.
    #[inline(always)]
    pub(crate) fn output_from<A: ActivationFn>(
        &self,
        acc_stm: &[f32],
        acc_other: &[f32],
        bucket: usize,
    ) -> f32 {
        let h = self.layout.hidden;
        let ow = self.layout.range(ParamGroup::OutputWeights).start + bucket * 2 * h;
        let ob = self.layout.range(ParamGroup::OutputBiases).start + bucket;
        let w = &self.params[ow..ow + 2 * h];
        activated_dot::<A>(acc_stm, &w[..h])
            + activated_dot::<A>(acc_other, &w[h..])
            + self.params[ob]
    }
}

/// `acc[j] += row[j]`.
#[inline(always)]
pub(crate) fn add_assign(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += *w;
    }
}

/// `Σ a(acc[j]) · w[j]`, summed in [`LANES`] fixed partial sums.
#[inline(always)]
pub(crate) fn activated_dot<A: ActivationFn>(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let mut acc_chunks = acc.chunks_exact(LANES);
    let mut w_chunks = w.chunks_exact(LANES);
    for (a, w) in (&mut acc_chunks).zip(&mut w_chunks) {
        for l in 0..LANES {
            lanes[l] += A::f(a[l]) * w[l];
        }
    }
    for (l, (a, w)) in acc_chunks
        .remainder()
        .iter()
        .zip(w_chunks.remainder())
        .enumerate()
    {
        lanes[l] += A::f(*a) * w;
    }
    sum_lanes(lanes)
}

/// Sums the partial sums in a fixed tree order.
#[inline(always)]
pub(crate) fn sum_lanes(l: [f32; LANES]) -> f32 {
    ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

/// An activation and its derivative, as compile-time choices for the hot loops.
pub(crate) trait ActivationFn {
    /// The activation.
    fn f(x: f32) -> f32;
    /// Its derivative (0 at and beyond the clip points).
    fn df(x: f32) -> f32;
}

/// `clamp(x, 0, 1)²`.
pub(crate) struct Screlu;
/// `clamp(x, 0, 1)`.
pub(crate) struct Crelu;

impl ActivationFn for Screlu {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        c * c
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 {
            2.0 * x
        } else {
            0.0
        }
    }
}

impl ActivationFn for Crelu {
    #[inline(always)]
    fn f(x: f32) -> f32 {
        x.clamp(0.0, 1.0)
    }
    #[inline(always)]
    fn df(x: f32) -> f32 {
        if x > 0.0 && x < 1.0 {
            1.0
        } else {
            0.0
        }
    }
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_covers_every_parameter_once() {
        let net = Network::new(32, OutputBuckets::PieceCount(3), Activation::Screlu, 1);
        let l = net.layout();
        let inputs = FeatureSet::PieceSquare.inputs();
        assert_eq!(inputs, 1260);
        assert_eq!(l.range(ParamGroup::FeatureWeights), 0..inputs * 32);
        assert_eq!(l.range(ParamGroup::OutputBiases).end, net.params().len());
        assert_eq!(net.params().len(), inputs * 32 + 32 + 3 * 64 + 3);
        assert!(net
            .group(ParamGroup::FeatureWeights)
            .iter()
            .all(|w| w.abs() <= 0.088));
        assert!(net
            .group(ParamGroup::FeatureBiases)
            .iter()
            .all(|&w| w == 0.0));
    }

    /// A position and its colour-flipped twin (colours swapped, ranks mirrored, the other side
    /// to move) evaluate the same; swapping the perspectives of an asymmetric position does not.
    #[test]
    fn colour_flipped_positions_evaluate_the_same() {
        let net = Network::new(32, OutputBuckets::PieceCount(4), Activation::Screlu, 3);
        let sorted = |pos: &Position, c| {
            let mut v = net.features().active(pos, c).to_vec();
            v.sort_unstable();
            v
        };
        let eval = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let stm = pos.side_to_move();
            let (a, b) = (sorted(&pos, stm), sorted(&pos, stm.opponent()));
            let bucket = net.buckets().bucket(&pos);
            (net.output(&a, &b, bucket), net.output(&b, &a, bucket))
        };
        let (black, swapped) =
            eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        let (red, _) =
            eval("rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 2");
        assert_eq!(black.to_bits(), red.to_bits());
        assert_ne!(black, swapped);
    }
}
