//! Quantisation: the clipping bounds that keep the integer inference exact, and the export of a
//! float network to the net file format ([`crate::format`]).
//!
//! Bounds (float values; stored values are `round(x · scale)`):
//!
//! - feature weights and biases: `|x| <=` [`FEATURE_CLIP`] = 1.98, stored as at most
//!   `round(1.98 · 255) = 505`. An accumulator is the bias plus at most 32 active weights
//!   ([`crate::features::MAX_ACTIVE`]), so `|acc| <= 33 · 505 = 16,665 < 32,767`: the `i16`
//!   accumulator cannot overflow, whatever the order of incremental updates.
//! - output weights: `|x| <=` [`OUTPUT_CLIP`] = 127/64, stored as at most 127. With the clipped
//!   activation `0 <= v <= QA = 255`, the SCReLU product `v · w` is at most `255 · 127 = 32,385`,
//!   so it fits an `i16` exactly (the "multiply in i16, then multiply-add with v into i32" trick).
//! - output biases: `|x| <=` [`OUTPUT_BIAS_CLIP`], so `x · QA · QB` fits an `i32`.

use super::network::{Network, ParamGroup};
use crate::format::{NetError, NetFile, NetHeader};

/// First-layer quantisation: float 1.0 is stored as 255.
pub const QA: i32 = 255;
/// Output-weight quantisation: float 1.0 is stored as 64.
pub const QB: i32 = 64;
/// Bound of the feature weights and biases.
pub const FEATURE_CLIP: f32 = 1.98;
/// Bound of the output weights: `127 / QB`.
pub const OUTPUT_CLIP: f32 = 127.0 / QB as f32;
/// Bound of the output biases: below `i32::MAX / (QA · QB)` (131,586).
pub const OUTPUT_BIAS_CLIP: f32 = 131_000.0;

/// The bound the optimiser clips `group` to.
pub fn clip_bound(group: ParamGroup) -> f32 {
    match group {
        ParamGroup::FeatureWeights | ParamGroup::FeatureBiases => FEATURE_CLIP,
        ParamGroup::OutputWeights => OUTPUT_CLIP,
        ParamGroup::OutputBiases => OUTPUT_BIAS_CLIP,
    }
}

/// `round(x · scale)`, saturating (clipped weights never reach the limits).
fn round_i16(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round() as i16
}

/// The net file of `net` with eval scale `eval_scale` (K) and `description`. Values beyond the
/// clipping bounds (only possible for a network that did not come from the optimiser) saturate.
pub fn quantise(net: &Network, eval_scale: i32, description: String) -> Result<NetFile, NetError> {
    let header = NetHeader {
        architecture: net.activation().architecture(),
        features: net.features(),
        hidden: net.hidden(),
        buckets: net.buckets(),
        qa: QA,
        qb: QB,
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
        .map(|&x| (f64::from(x) * f64::from(QA * QB)).round() as i32)
        .collect();
    NetFile::new(
        header,
        q16(ParamGroup::FeatureWeights, QA),
        q16(ParamGroup::FeatureBiases, QA),
        q16(ParamGroup::OutputWeights, QB),
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
        assert!((crate::features::MAX_ACTIVE as i32 + 1) * max_feature <= i16::MAX as i32);
        let max_output = round_i16(OUTPUT_CLIP, QB) as i32;
        assert_eq!(max_output, 127);
        assert!(QA * max_output <= i16::MAX as i32);
        assert!(f64::from(OUTPUT_BIAS_CLIP) * f64::from(QA * QB) < f64::from(i32::MAX));
    }
}
