//! AdamW with decoupled weight decay and clipping to the quantisation bounds after every step.
//!
//! The gradient arrives as several shard buffers; each parameter's gradient is their sum in shard
//! order, formed here, so the update is the same whatever thread computed which shard.

use super::network::{Network, ParamGroup};
use super::quantise::clip_bound;
use rayon::prelude::*;

/// First-moment decay.
pub const BETA1: f32 = 0.9;
/// Second-moment decay.
pub const BETA2: f32 = 0.999;
/// Added to the root of the second moment.
pub const EPSILON: f32 = 1e-8;
/// Parameters per parallel work item of the update.
const CHUNK: usize = 8192;

/// The optimiser state.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moments, laid out like the parameters.
    pub(crate) m: Vec<f32>,
    /// Second moments.
    pub(crate) v: Vec<f32>,
    /// Steps taken (for the bias correction).
    pub(crate) steps: u64,
    /// Decoupled weight decay, applied to weights, not biases.
    pub weight_decay: f32,
}

impl AdamW {
    /// A fresh state for `len` parameters.
    pub fn new(len: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
            weight_decay,
        }
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One step with learning rate `lr` and the gradient `Σ shards` (each laid out like the
    /// parameters), then clipping to the bounds of [`clip_bound`] for output quantisation `qb`.
    pub fn step(&mut self, net: &mut Network, shards: &[Vec<f32>], lr: f32, qb: i32) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let layout = net.layout().clone();
        let params = net.params_mut();
        for group in ParamGroup::ALL {
            let range = layout.range(group);
            let bound = clip_bound(group, qb);
            let decay = if group.decays() {
                self.weight_decay
            } else {
                0.0
            };
            let base = range.start;
            params[range.clone()]
                .par_chunks_mut(CHUNK)
                .zip(self.m[range.clone()].par_chunks_mut(CHUNK))
                .zip(self.v[range].par_chunks_mut(CHUNK))
                .enumerate()
                .for_each(|(c, ((w, m), v))| {
                    let start = base + c * CHUNK;
                    let mut g = vec![0.0f32; w.len()];
                    for shard in shards {
                        for (g, s) in g.iter_mut().zip(&shard[start..start + w.len()]) {
                            *g += *s;
                        }
                    }
                    for (((w, m), v), g) in w.iter_mut().zip(m).zip(v).zip(&g) {
                        *m = BETA1 * *m + (1.0 - BETA1) * g;
                        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                        let update = (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
                        *w -= lr * (update + decay * *w);
                        *w = w.clamp(-bound, bound);
                    }
                });
        }
    }
}
