//! Quantisation: the clipping bounds that keep the integer inference exact, and the export of a
//! float network to the net file format ([`nnue::format`]).
//!
//! Bounds (float values; stored values are `round(x · scale)`):
//!
//! - feature weights and biases: `|x| <=` [`FEATURE_CLIP`] = 1.98, stored as at most
//!   `round(1.98 · 255) = 505`. An accumulator is the bias plus at most 32 active weights
//!   ([`nnue::features::MAX_ACTIVE`]), so `|acc| <= 33 · 505 = 16,665 < 32,767`: the `i16`
//!   accumulator cannot overflow, whatever the order of incremental updates.
//! - output weights: `|x| <= 127 / QB` ([`output_clip`]; 1.984375 for the default QB = 64), stored
//!   as at most 127. With the clipped activation `0 <= v <= QA = 255`, the SCReLU product `v · w`
//!   is at most `255 · 127 = 32,385`, so it fits an `i16` exactly (the "multiply in i16, then
//!   multiply-add with v into i32" trick).
//! - output biases: `|x| <=` [`output_bias_clip`] (0.99 · `i32::MAX / (QA · QB)`), so `x · QA · QB`
//!   fits an `i32`.
//!
//! QB is a choice of the trainer (`--qb`, stored in the net's header): a larger QB stores the
//! output weights more finely but clips them to a narrower range. The output weights' rounding
//! (at most `0.5 / QB` each) is the larger part of the quantisation error of trained nets.

use super::network::{Network, ParamGroup};
use nnue::format::{NetError, NetFile, NetHeader};

/// First-layer quantisation: float 1.0 is stored as 255.
pub const QA: i32 = 255;
/// The default output-weight quantisation: float 1.0 is stored as 64.
pub const DEFAULT_QB: i32 = 64;
/// Bound of the feature weights and biases.
pub const FEATURE_CLIP: f32 = 1.98;
/// The largest stored output weight magnitude: `QA · 127` fits an `i16`.
pub const MAX_OUTPUT_WEIGHT: i32 = 127;

/// Bound of the output weights for output quantisation `qb`: `127 / qb`.
pub fn output_clip(qb: i32) -> f32 {
    MAX_OUTPUT_WEIGHT as f32 / qb as f32
}

/// Bound of the output biases for output quantisation `qb`: 0.99 · `i32::MAX / (QA · qb)`.
pub fn output_bias_clip(qb: i32) -> f32 {
    (0.99 * f64::from(i32::MAX) / f64::from(QA * qb)) as f32
}

/// The bound the optimiser clips `group` to, for output quantisation `qb`.
pub fn clip_bound(group: ParamGroup, qb: i32) -> f32 {
    match group {
        ParamGroup::FeatureWeights | ParamGroup::FeatureBiases => FEATURE_CLIP,
        ParamGroup::OutputWeights => output_clip(qb),
        ParamGroup::OutputBiases => output_bias_clip(qb),
    }
}

/// `round(x · scale)`, saturating (clipped weights never reach the limits).
fn round_i16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round() as i16
}

/// The net file of `net` with output quantisation `qb`, eval scale `eval_scale` (K) and
/// `description`. Values beyond the clipping bounds (only possible for a network that did not
/// come from the optimiser with the same `qb`, or for a factorised one whose shared and own
/// rows add up past [`FEATURE_CLIP`]) saturate. A factorised network is folded first
/// ([`Network::folded`]): net files hold the inputs' rows only.
pub fn quantise(
    net: &Network,
    qb: i32,
    eval_scale: i32,
    description: String,
) -> Result<NetFile, NetError> {
    let folded;
    let net = if net.is_factorised() {
        folded = net.folded(FEATURE_CLIP).0;
        &folded
    } else {
        net
    };
    let header = NetHeader {
        architecture: net.activation().architecture(),
        features: net.features(),
        hidden: net.hidden(),
        buckets: net.buckets(),
        qa: QA,
        qb,
        eval_scale,
        description,
    };
    let q16 = |group: ParamGroup, scale: i32| -> Vec<i16> {
        net.group(group)
            .iter()
            .map(|&x| round_i16(x, scale))
            .collect()
    };
    let output_biases = net
        .group(ParamGroup::OutputBiases)
        .iter()
        .map(|&x| (f64::from(x) * f64::from(QA) * f64::from(qb)).round() as i32)
        .collect();
    NetFile::new(
        header,
        q16(ParamGroup::FeatureWeights, QA),
        q16(ParamGroup::FeatureBiases, QA),
        q16(ParamGroup::OutputWeights, qb),
        output_biases,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_keep_the_integer_arithmetic_exact() {
        let max_feature = round_i16(FEATURE_CLIP, QA) as i32;
        assert_eq!(max_feature, 505);
        assert!((nnue::features::MAX_ACTIVE as i32 + 1) * max_feature <= i16::MAX as i32);
        for qb in [16, 64, 100, 256, 1024] {
            let max_output = round_i16(output_clip(qb), qb) as i32;
            assert_eq!(max_output, MAX_OUTPUT_WEIGHT);
            assert!(QA * max_output <= i16::MAX as i32);
            assert!(f64::from(output_bias_clip(qb)) * f64::from(QA * qb) < f64::from(i32::MAX));
        }
    }
}
