//! The float evaluation: the net file's float semantics (see [`crate::format`]) computed in
//! `f64` with the dequantised weights, no clamping of intermediate values and no rounding.
//!
//! The quantised evaluation computes the same function in integers; the only differences are its
//! two floor divisions (by `QA` after the SCReLU products, and by `QA · QB` when scaling to engine
//! units), so for every position
//!
//! ```text
//! 0 <= float - quantised < 1 + eval_scale / (QA · QB)        (SCReLU)
//! 0 <= float - quantised < 1                                  (CReLU)
//! ```
//!
//! before both are clamped to `±EVAL_LIMIT` (clamping keeps the bound). [`FloatNetwork::error_bound`]
//! returns it; the tests check it on thousands of positions.

use crate::features::{FeatureSet, OutputBuckets};
use crate::format::{Architecture, NetFile};
use engine_core::{Color, Position};

/// A net with its weights as floats.
#[derive(Clone, Debug)]
pub struct FloatNetwork {
    architecture: Architecture,
    features: FeatureSet,
    buckets: OutputBuckets,
    hidden: usize,
    qa: f64,
    qb: f64,
    eval_scale: f64,
    /// `inputs × hidden`, feature-major.
    feature_weights: Vec<f64>,
    feature_biases: Vec<f64>,
    /// `buckets × 2·hidden`.
    output_weights: Vec<f64>,
    output_biases: Vec<f64>,
}

impl FloatNetwork {
    /// The float net a quantised file stands for: weights divided by their quantisation.
    pub fn dequantise(file: &NetFile) -> FloatNetwork {
        let h = &file.header;
        let (qa, qb) = (f64::from(h.qa), f64::from(h.qb));
        FloatNetwork {
            architecture: h.architecture,
            features: h.features,
            buckets: h.buckets,
            hidden: h.hidden,
            qa,
            qb,
            eval_scale: f64::from(h.eval_scale),
            feature_weights: file
                .feature_weights
                .iter()
                .map(|&w| f64::from(w) / qa)
                .collect(),
            feature_biases: file
                .feature_biases
                .iter()
                .map(|&w| f64::from(w) / qa)
                .collect(),
            output_weights: file
                .output_weights
                .iter()
                .map(|&w| f64::from(w) / qb)
                .collect(),
            output_biases: file
                .output_biases
                .iter()
                .map(|&b| f64::from(b) / (qa * qb))
                .collect(),
        }
    }

    /// `perspective`'s first-layer output for `pos`, before the activation.
    pub fn accumulator(&self, pos: &Position, perspective: Color) -> Vec<f64> {
        let mut acc = self.feature_biases.clone();
        for index in self.features.active(pos, perspective) {
            let row = &self.feature_weights[usize::from(index) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The evaluation of `pos` in engine units, side to move's point of view, not clamped.
    pub fn evaluate(&self, pos: &Position) -> f64 {
        let stm = pos.side_to_move();
        let us = self.accumulator(pos, stm);
        let them = self.accumulator(pos, stm.opponent());
        let bucket = self.buckets.bucket(pos);
        let w = &self.output_weights[2 * self.hidden * bucket..][..2 * self.hidden];
        let activate = |x: f64| {
            let c = x.clamp(0.0, 1.0);
            match self.architecture {
                Architecture::PerspectiveScrelu => c * c,
                Architecture::PerspectiveCrelu => c,
            }
        };
        let out: f64 = us
            .iter()
            .chain(&them)
            .zip(w)
            .map(|(&a, &w)| activate(a) * w)
            .sum::<f64>()
            + self.output_biases[bucket];
        out * self.eval_scale
    }

    /// How far below this evaluation the quantised one may lie, exclusive (see the module docs).
    pub fn error_bound(&self) -> f64 {
        match self.architecture {
            Architecture::PerspectiveScrelu => 1.0 + self.eval_scale / (self.qa * self.qb),
            Architecture::PerspectiveCrelu => 1.0,
        }
    }
}
