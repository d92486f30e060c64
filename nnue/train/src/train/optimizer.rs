//! AdamW with decoupled weight decay and clipping to the quantisation bounds after every step.
//!
//! The gradient arrives as several shard buffers; each parameter's gradient is their sum in shard
//! order, formed here, so the update is the same whatever thread computed which shard. A
//! feature-weight row sums only the shards that wrote it (the others hold zeros there).

use super::network::{Network, ParamGroup};
use super::quantise::clip_bound;
use super::shard::ShardGradient;
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
    /// Learning-rate scale of a factorised network's bucket rows. With Adam each row moves by
    /// about the learning rate, and an input trains its bucket row and the shared row alike, so
    /// at 1 a bucket learns at twice the shared block's pace; below 1 its own rows lean on what
    /// every bucket learns. An option, like the decay, not state.
    pub bucket_lr_scale: f32,
}

impl AdamW {
    /// A fresh state for `len` parameters.
    pub fn new(len: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
            weight_decay,
            bucket_lr_scale: 1.0,
        }
    }

    /// The same state with the bucket rows' learning rate scaled by `scale`.
    pub fn with_bucket_lr_scale(mut self, scale: f32) -> AdamW {
        self.bucket_lr_scale = scale;
        self
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One step with learning rate `lr` and the gradient `Σ shards` (in shard order), then
    /// clipping to the bounds of [`clip_bound`] for output quantisation `qb`.
    pub fn step(&mut self, net: &mut Network, shards: &[ShardGradient], lr: f32, qb: i32) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let layout = net.layout().clone();
        let h = layout.hidden;
        let params = net.params_mut();
        for group in ParamGroup::ALL {
            let range = layout.range(group);
            let rule = Rule {
                lr,
                decay: if group.decays() {
                    self.weight_decay
                } else {
                    0.0
                },
                bound: clip_bound(group, qb),
                correction1,
                correction2,
            };
            let base = range.start;
            let w = &mut params[range.clone()];
            let m = &mut self.m[range.clone()];
            let v = &mut self.v[range];
            if group == ParamGroup::FeatureWeights {
                // Whole rows per work item: each row sums only the shards that wrote it, and a
                // factorised net's bucket rows learn at their own rate.
                let bucket_rows = layout.bucket_rows().end / h;
                let bucket_rule = Rule {
                    lr: lr * self.bucket_lr_scale,
                    ..rule
                };
                let rows_per_item = (CHUNK / h).max(1);
                par_items(w, m, v, rows_per_item * h).for_each(|(c, ((w, m), v))| {
                    let first = c * rows_per_item;
                    let rows = w.chunks_mut(h).zip(m.chunks_mut(h)).zip(v.chunks_mut(h));
                    for (k, ((w, m), v)) in rows.enumerate() {
                        let row = first + k;
                        let at = row * h;
                        let sources = shards
                            .iter()
                            .filter(|s| s.is_written(row))
                            .map(|s| &s.values()[at..at + h]);
                        let rule = if row < bucket_rows {
                            &bucket_rule
                        } else {
                            &rule
                        };
                        rule.apply(w, m, v, sources);
                    }
                });
            } else {
                par_items(w, m, v, CHUNK).for_each(|(c, ((w, m), v))| {
                    let at = base + c * CHUNK;
                    let len = w.len();
                    let sources = shards.iter().map(move |s| &s.values()[at..at + len]);
                    rule.apply(w, m, v, sources);
                });
            }
        }
    }
}

/// A numbered work item: parameters, first moments, second moments.
type Item<'a> = (usize, ((&'a mut [f32], &'a mut [f32]), &'a mut [f32]));

/// The parameters and both moments in parallel items of `len` entries, numbered.
fn par_items<'a>(
    w: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
    len: usize,
) -> impl IndexedParallelIterator<Item = Item<'a>> {
    w.par_chunks_mut(len)
        .zip(m.par_chunks_mut(len))
        .zip(v.par_chunks_mut(len))
        .enumerate()
}

/// Parameters updated per block, the block's summed gradient held on the stack.
const BLOCK: usize = 64;

/// The update of one parameter group in one step.
#[derive(Copy, Clone, Debug)]
struct Rule {
    lr: f32,
    decay: f32,
    bound: f32,
    correction1: f32,
    correction2: f32,
}

impl Rule {
    /// Updates `w` (with its moments `m`, `v`) by the gradient `Σ sources`, summed in order
    /// from zero; every source is as long as `w`.
    #[inline(always)]
    fn apply<'a>(
        &self,
        w: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        sources: impl Iterator<Item = &'a [f32]> + Clone,
    ) {
        for (b, ((w, m), v)) in w
            .chunks_mut(BLOCK)
            .zip(m.chunks_mut(BLOCK))
            .zip(v.chunks_mut(BLOCK))
            .enumerate()
        {
            let at = b * BLOCK;
            let mut g = [0.0f32; BLOCK];
            let g = &mut g[..w.len()];
            for source in sources.clone() {
                for (g, s) in g.iter_mut().zip(&source[at..at + w.len()]) {
                    *g += *s;
                }
            }
            for (((w, m), v), g) in w.iter_mut().zip(m).zip(v).zip(g.iter()) {
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                let update = (*m / self.correction1) / ((*v / self.correction2).sqrt() + EPSILON);
                *w -= self.lr * (update + self.decay * *w);
                *w = w.clamp(-self.bound, self.bound);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::network::Activation;
    use nnue::features::{FeatureSet, OutputBuckets};

    /// One step with the same gradient on every parameter: a factorised net's bucket rows move
    /// by the scaled learning rate, its shared rows and everything else by the full one.
    #[test]
    fn bucket_rows_learn_at_their_scale() {
        let mut net = Network::factorised(
            FeatureSet::AttackBuckets,
            32,
            OutputBuckets::Single,
            Activation::Screlu,
            3,
        )
        .expect("a factorised net");
        let before = net.params().to_vec();
        let layout = net.layout().clone();
        let buckets = layout.bucket_rows();
        let shared = buckets.end..layout.range(ParamGroup::FeatureWeights).end;
        assert!(!buckets.is_empty() && !shared.is_empty());
        let gradient = [ShardGradient::dense(&layout, vec![1.0f32; before.len()])];
        let mut adam = AdamW::new(before.len(), 0.0).with_bucket_lr_scale(0.25);
        let lr = 1e-4;
        adam.step(&mut net, &gradient, lr, 64);
        let moved = |i: usize| before[i] - net.params()[i];
        for i in [buckets.start, buckets.end - 1] {
            assert!(
                (moved(i) - 0.25 * lr).abs() < 1e-7,
                "bucket row {i}: {}",
                moved(i)
            );
        }
        for i in [
            shared.start,
            shared.end - 1,
            layout.range(ParamGroup::OutputWeights).start,
        ] {
            assert!((moved(i) - lr).abs() < 1e-7, "parameter {i}: {}", moved(i));
        }
    }
}
