//! One shard's gradient buffer: the values laid out like the parameters, and which rows of the
//! feature weights hold anything. A shard of a few thousand positions writes only the rows of
//! the inputs its positions activate (and their shared rows), so clearing, folding and summing
//! visit those rows alone; every other row is zero and is skipped. Adding a zero row changes no
//! bit of a sum that starts at zero, so the skipped work leaves results exactly as a dense sum.

use super::network::{Layout, ParamGroup};

/// A gradient buffer that knows which feature-weight rows it has written.
#[derive(Clone, Debug)]
pub struct ShardGradient {
    /// Laid out like [`super::Network::params`]; zero outside the marked rows and the tail.
    pub(super) values: Vec<f32>,
    /// Hidden units: the length of a feature-weight row.
    row_len: usize,
    /// Start of the dense tail (feature biases, output weights and biases), always summed.
    tail: usize,
    /// Per feature-weight row (the inputs' rows, then a factorised net's shared rows): written?
    written: Vec<bool>,
    /// The written rows, each once.
    written_rows: Vec<u32>,
}

impl ShardGradient {
    /// An all-zero buffer for a network of `layout`.
    pub fn new(layout: &Layout) -> ShardGradient {
        let tail = layout.range(ParamGroup::FeatureWeights).end;
        ShardGradient {
            values: vec![0.0; layout.len()],
            row_len: layout.hidden,
            tail,
            written: vec![false; layout.inputs + layout.factor_rows],
            written_rows: Vec::new(),
        }
    }

    /// A buffer holding `values` (laid out like the parameters), every row marked written.
    #[cfg(test)]
    pub(super) fn dense(layout: &Layout, values: Vec<f32>) -> ShardGradient {
        assert_eq!(
            values.len(),
            layout.len(),
            "values laid out like the parameters"
        );
        let mut shard = ShardGradient::new(layout);
        shard.values = values;
        shard.written.fill(true);
        shard.written_rows = (0..shard.written.len() as u32).collect();
        shard
    }

    /// The gradient, laid out like the parameters.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Whether feature-weight row `row` may hold a non-zero value.
    #[inline(always)]
    pub fn is_written(&self, row: usize) -> bool {
        self.written[row]
    }

    /// Zeroes everything written since the last clear.
    pub(super) fn clear(&mut self) {
        let h = self.row_len;
        for &r in &self.written_rows {
            let r = r as usize;
            self.values[r * h..(r + 1) * h].fill(0.0);
            self.written[r] = false;
        }
        self.written_rows.clear();
        self.values[self.tail..].fill(0.0);
    }

    /// Adds every written input row to the shared row it reads (`inputs + i % factor_rows`), in
    /// ascending input order: a factorised net's shared rows get the sum of their inputs' rows.
    /// Called once per batch, after the inputs' rows are written.
    pub(super) fn fold_shared_rows(&mut self, inputs: usize, factor_rows: usize) {
        if factor_rows == 0 {
            return;
        }
        let h = self.row_len;
        self.written_rows.sort_unstable();
        let (own, shared) = self.values[..self.tail].split_at_mut(inputs * h);
        for k in 0..self.written_rows.len() {
            let i = self.written_rows[k] as usize;
            let s = i % factor_rows;
            let row = &own[i * h..(i + 1) * h];
            for (a, b) in shared[s * h..(s + 1) * h].iter_mut().zip(row) {
                *a += *b;
            }
            if !self.written[inputs + s] {
                self.written[inputs + s] = true;
                self.written_rows.push((inputs + s) as u32);
            }
        }
    }

    /// The feature-weight rows and the tail, to write into, and a marker for the rows written.
    pub(super) fn parts_mut(&mut self) -> (&mut [f32], &mut [f32], RowMarks<'_>) {
        let (rows, tail) = self.values.split_at_mut(self.tail);
        let marks = RowMarks {
            written: &mut self.written,
            rows: &mut self.written_rows,
        };
        (rows, tail, marks)
    }
}

/// Records which feature-weight rows a shard writes.
pub(super) struct RowMarks<'a> {
    written: &'a mut [bool],
    rows: &'a mut Vec<u32>,
}

impl RowMarks<'_> {
    /// Marks row `row` written.
    #[inline(always)]
    pub fn mark(&mut self, row: usize) {
        if !self.written[row] {
            self.written[row] = true;
            self.rows.push(row as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::synthetic_games;
    use crate::train::gradient::{batch_gradient, Target};
    use crate::train::network::{Activation, Network};
    use crate::train::optimizer::AdamW;
    use nnue::features::{FeatureSet, OutputBuckets};

    /// After each of two different batches, the reused buffers hold what fresh ones would, every
    /// feature-weight row holding a non-zero value is marked written (the optimiser reads only
    /// those), and a sparse step updates the net bit for bit as a step on the same gradients
    /// with every row read.
    #[test]
    fn sparse_shards_step_exactly_as_dense_ones() {
        let target = Target {
            k: 400.0,
            lambda: 0.7,
        };
        let mut net = Network::factorised(
            FeatureSet::AttackBuckets,
            64,
            OutputBuckets::PieceConfiguration,
            Activation::Screlu,
            5,
        )
        .expect("a factorised net");
        let layout = net.layout().clone();
        let rows = layout.inputs + layout.factor_rows;
        let h = layout.hidden;
        let mut shards = vec![ShardGradient::new(&layout); 3];
        let mut sparse_adam = AdamW::new(layout.len(), 0.01).with_bucket_lr_scale(0.5);
        let mut dense_adam = sparse_adam.clone();
        let mut dense_net = net.clone();
        for seed in [1, 2] {
            let data =
                synthetic_games::packed_positions(seed, 120, OutputBuckets::PieceConfiguration);
            let order: Vec<u32> = (0..data.len() as u32).collect();
            batch_gradient(&net, &data, &order, target, &mut shards);
            let mut fresh = vec![ShardGradient::new(&layout); shards.len()];
            batch_gradient(&net, &data, &order, target, &mut fresh);
            for (used, fresh) in shards.iter().zip(&fresh) {
                assert!(used
                    .values()
                    .iter()
                    .zip(fresh.values())
                    .all(|(a, b)| a.to_bits() == b.to_bits()));
            }
            let mut written = 0;
            for shard in &shards {
                for r in 0..rows {
                    let row = &shard.values()[r * h..(r + 1) * h];
                    if shard.is_written(r) {
                        written += 1;
                    } else {
                        assert!(row.iter().all(|&x| x == 0.0), "row {r} unmarked");
                    }
                }
            }
            assert!(0 < written && written < shards.len() * rows / 2);
            let dense: Vec<ShardGradient> = shards
                .iter()
                .map(|s| ShardGradient::dense(&layout, s.values().to_vec()))
                .collect();
            sparse_adam.step(&mut net, &shards, 1e-3, 128);
            dense_adam.step(&mut dense_net, &dense, 1e-3, 128);
            assert!(net
                .params()
                .iter()
                .zip(dense_net.params())
                .all(|(a, b)| a.to_bits() == b.to_bits()));
            assert_eq!(sparse_adam, dense_adam);
        }
    }
}
