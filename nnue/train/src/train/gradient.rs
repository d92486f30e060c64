//! The loss and its gradient.
//!
//! Per position, with `p = sigmoid(out)` and the target `t = lambda * sigmoid(score / K) +
//! (1 - lambda) * result` (both from the side to move's point of view), the loss is `(p - t)²`.
//! Back-propagation: `dL/dout = 2 (p - t) p (1 - p)`; the output layer's gradient is the
//! activations times that; each accumulator's gradient is `dL/dout · w · a'(acc)`, added to the
//! feature bias and to the weight row of every active input of that perspective. A factorised
//! network's shared row receives the sum of its inputs' gradients, folded in once per call.

use super::network::{
    add_assign, sigmoid, Activation, ActivationFn, Crelu, Network, ParamGroup, Screlu,
};
use super::shard::ShardGradient;
use crate::data::{ActiveFeatures, PackedPosition};

/// What the network is trained to predict.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Target {
    /// The score scale K (engine units): the score's win probability is `sigmoid(score / K)`.
    pub k: f32,
    /// Weight of the score against the game result.
    pub lambda: f32,
}

impl Target {
    /// The target probability for `p`.
    #[inline(always)]
    pub fn of(&self, p: &PackedPosition) -> f32 {
        self.lambda * sigmoid(p.score() as f32 / self.k) + (1.0 - self.lambda) * p.result()
    }
}

/// The loss of one position.
pub fn loss(net: &Network, p: &PackedPosition, target: Target) -> f32 {
    let e = sigmoid(net.output_packed(p)) - target.of(p);
    e * e
}

/// The summed loss over `positions` (no gradient), in order, in `f64`.
pub fn loss_sum<'a>(
    net: &Network,
    positions: impl IntoIterator<Item = &'a PackedPosition>,
    target: Target,
) -> f64 {
    match net.activation() {
        Activation::Screlu => loss_sum_with::<Screlu>(net, positions, target),
        Activation::Crelu => loss_sum_with::<Crelu>(net, positions, target),
    }
}

fn loss_sum_with<'a, A: ActivationFn>(
    net: &Network,
    positions: impl IntoIterator<Item = &'a PackedPosition>,
    target: Target,
) -> f64 {
    let rows = net.input_rows();
    let mut scratch = Accumulators::new(net.hidden());
    let mut total = 0.0f64;
    for p in positions {
        let e = sigmoid(scratch.forward::<A>(net, &rows, p)) - target.of(p);
        total += f64::from(e * e);
    }
    total
}

/// Both perspectives' accumulators and active inputs of the position last evaluated.
struct Accumulators {
    stm: Vec<f32>,
    other: Vec<f32>,
    active_stm: ActiveFeatures,
    active_other: ActiveFeatures,
}

impl Accumulators {
    fn new(hidden: usize) -> Accumulators {
        Accumulators {
            stm: vec![0.0; hidden],
            other: vec![0.0; hidden],
            active_stm: ActiveFeatures::new(),
            active_other: ActiveFeatures::new(),
        }
    }

    /// Fills the accumulators for `p` from `rows` ([`Network::input_rows`]) and returns the
    /// network's output.
    #[inline(always)]
    fn forward<A: ActivationFn>(&mut self, net: &Network, rows: &[f32], p: &PackedPosition) -> f32 {
        (self.active_stm, self.active_other) = p.features(net.features());
        let biases = net.group(ParamGroup::FeatureBiases);
        accumulate(rows, biases, &self.active_stm, &mut self.stm);
        accumulate(rows, biases, &self.active_other, &mut self.other);
        net.output_from::<A>(&self.stm, &self.other, p.bucket())
    }
}

/// Accumulator units summed at once: a slice this wide stays in registers while every active
/// input's row is added to it, so the sum is stored once instead of once per input.
const TILE: usize = 64;

/// `acc = biases + Σ rows[i]` over the active inputs `i`, in order (tile by tile).
#[inline(always)]
fn accumulate(rows: &[f32], biases: &[f32], active: &[u16], acc: &mut [f32]) {
    let h = acc.len();
    let mut start = 0;
    for (tile, bias) in acc.chunks_mut(TILE).zip(biases.chunks(TILE)) {
        if tile.len() == TILE {
            let mut sum = [0.0f32; TILE];
            sum.copy_from_slice(bias);
            for &i in active.iter() {
                let row = usize::from(i) * h + start;
                add_assign(&mut sum, &rows[row..row + TILE]);
            }
            tile.copy_from_slice(&sum);
        } else {
            tile.copy_from_slice(bias);
            for &i in active.iter() {
                let row = usize::from(i) * h + start;
                add_assign(tile, &rows[row..row + tile.len()]);
            }
        }
        start += tile.len();
    }
}

/// Writes `scale ×` the gradient of the summed loss over `positions` into `shard` (overwritten);
/// returns the summed loss. `rows` are the network's [`Network::input_rows`], formed once by the
/// caller. Positions are processed in order, so the result is a deterministic function of the
/// inputs.
fn gradient_with_rows<'a>(
    net: &Network,
    rows: &[f32],
    positions: impl IntoIterator<Item = &'a PackedPosition>,
    target: Target,
    scale: f32,
    shard: &mut ShardGradient,
) -> f64 {
    match net.activation() {
        Activation::Screlu => dispatch::<Screlu, _>(net, rows, positions, target, scale, shard),
        Activation::Crelu => dispatch::<Crelu, _>(net, rows, positions, target, scale, shard),
    }
}

/// Runs the kernel compiled for AVX2 when the CPU has it (the portable build targets SSE2, and
/// the kernel's row additions run twice as wide with AVX2), else the portable one. Both compute
/// bit-identical results: the kernel's arithmetic is element-wise or summed in a fixed order, and
/// Rust never fuses multiplies and adds on its own, so the instruction set changes only the speed.
#[inline(always)]
fn dispatch<'a, A: ActivationFn, I: IntoIterator<Item = &'a PackedPosition>>(
    net: &Network,
    rows: &[f32],
    positions: I,
    target: Target,
    scale: f32,
    shard: &mut ShardGradient,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `kernel_avx2` only requires the `avx2` target feature, and the line above has
        // just checked that the running CPU supports it.
        return unsafe { kernel_avx2::<A, I>(net, rows, positions, target, scale, shard) };
    }
    kernel::<A>(net, rows, positions, target, scale, shard)
}

/// [`kernel`] compiled with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn kernel_avx2<'a, A: ActivationFn, I: IntoIterator<Item = &'a PackedPosition>>(
    net: &Network,
    rows: &[f32],
    positions: I,
    target: Target,
    scale: f32,
    shard: &mut ShardGradient,
) -> f64 {
    kernel::<A>(net, rows, positions, target, scale, shard)
}

/// The mean loss over `positions` and its gradient (single-threaded; for tests and tools).
pub fn gradient(net: &Network, positions: &[PackedPosition], target: Target) -> (f64, Vec<f32>) {
    let mut shard = ShardGradient::new(net.layout());
    let n = positions.len().max(1);
    let sum = gradient_with_rows(
        net,
        &net.input_rows(),
        positions,
        target,
        1.0 / n as f32,
        &mut shard,
    );
    (sum / n as f64, shard.values)
}

#[inline(always)]
fn kernel<'a, A: ActivationFn>(
    net: &Network,
    rows: &[f32],
    positions: impl IntoIterator<Item = &'a PackedPosition>,
    target: Target,
    scale: f32,
    shard: &mut ShardGradient,
) -> f64 {
    shard.clear();
    let h = net.hidden();
    let layout = net.layout().clone();
    let params = net.params();
    let ow_start = layout.range(ParamGroup::OutputWeights).start;
    let ob_start = layout.range(ParamGroup::OutputBiases).start;
    let fb = layout.range(ParamGroup::FeatureBiases);
    let (grad_fw, rest, mut marks) = shard.parts_mut();
    let (grad_fb, rest) = rest.split_at_mut(h);
    let (grad_ow, grad_ob) = rest.split_at_mut(ob_start - ow_start);
    debug_assert_eq!(fb.start, grad_fw.len());

    let mut acc = Accumulators::new(h);
    let mut d_stm = vec![0.0f32; h];
    let mut d_other = vec![0.0f32; h];
    let mut total = 0.0f64;
    for p in positions {
        let out = acc.forward::<A>(net, rows, p);
        let bucket = p.bucket();
        let w = &params[ow_start + bucket * 2 * h..ow_start + (bucket + 1) * 2 * h];
        let prob = sigmoid(out);
        let err = prob - target.of(p);
        total += f64::from(err * err);
        let g = 2.0 * err * prob * (1.0 - prob) * scale;

        grad_ob[bucket] += g;
        let gw = &mut grad_ow[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (gw_stm, gw_other) = gw.split_at_mut(h);
        let (w_stm, w_other) = w.split_at(h);
        backward_unit::<A>(g, &acc.stm, w_stm, gw_stm, &mut d_stm);
        backward_unit::<A>(g, &acc.other, w_other, gw_other, &mut d_other);
        for j in 0..h {
            grad_fb[j] += d_stm[j] + d_other[j];
        }
        for (active, d) in [(&acc.active_stm, &d_stm), (&acc.active_other, &d_other)] {
            add_to_rows(grad_fw, h, active, d);
            for &i in active.iter() {
                marks.mark(usize::from(i));
            }
        }
    }
    // Every input's row and the shared row it reads get the same gradient per position, so
    // the shared rows' gradient is the sum of their inputs' rows, added once here.
    shard.fold_shared_rows(layout.inputs, layout.factor_rows);
    total
}

/// `rows[i] += d` for every active input `i`, tile by tile (a tile of `d` stays in registers).
#[inline(always)]
fn add_to_rows(rows: &mut [f32], h: usize, active: &[u16], d: &[f32]) {
    let mut start = 0;
    for part in d.chunks(TILE) {
        if part.len() == TILE {
            let mut tile = [0.0f32; TILE];
            tile.copy_from_slice(part);
            for &i in active.iter() {
                let row = usize::from(i) * h + start;
                add_assign(&mut rows[row..row + TILE], &tile);
            }
        } else {
            for &i in active.iter() {
                let row = usize::from(i) * h + start;
                add_assign(&mut rows[row..row + part.len()], part);
            }
        }
        start += part.len();
    }
}

/// One perspective's half of the output layer: `gw += g · a(acc)`, `d = g · w · a'(acc)`.
#[inline(always)]
fn backward_unit<A: ActivationFn>(g: f32, acc: &[f32], w: &[f32], gw: &mut [f32], d: &mut [f32]) {
    for (((a, w), gw), d) in acc.iter().zip(w).zip(gw.iter_mut()).zip(d.iter_mut()) {
        *gw += g * A::f(*a);
        *d = g * w * A::df(*a);
    }
}

/// The summed loss over `positions` in fixed-size chunks, each chunk summed in order and the
/// chunk sums added in order: the same total whatever the thread count.
pub fn parallel_loss_sum(net: &Network, positions: &[PackedPosition], target: Target) -> f64 {
    use rayon::prelude::*;
    /// Positions per chunk of the validation sum.
    const CHUNK: usize = 4096;
    let sums: Vec<f64> = positions
        .par_chunks(CHUNK)
        .map(|c| loss_sum(net, c, target))
        .collect();
    sums.iter().sum()
}

/// The gradient of the mean loss over the batch `data[batch[i]]`, split into `shards.len()`
/// fixed consecutive parts computed in parallel, one gradient buffer each (the optimiser sums
/// them in order). Returns the summed loss. The result depends on the number of shards, not on
/// the number of threads.
pub fn batch_gradient(
    net: &Network,
    data: &[PackedPosition],
    batch: &[u32],
    target: Target,
    shards: &mut [ShardGradient],
) -> f64 {
    use rayon::prelude::*;
    let n = shards.len().max(1);
    let len = batch.len();
    let scale = 1.0 / len.max(1) as f32;
    let rows = net.input_rows();
    let losses: Vec<f64> = shards
        .par_iter_mut()
        .enumerate()
        .map(|(s, shard)| {
            let part = &batch[s * len / n..(s + 1) * len / n];
            gradient_with_rows(
                net,
                &rows,
                part.iter().map(|&i| &data[i as usize]),
                target,
                scale,
                shard,
            )
        })
        .collect();
    losses.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::synthetic_games;
    use nnue::features::OutputBuckets;

    /// The tiled row sums equal a row-by-row sum, bit for bit, for whole tiles and a partial one.
    #[test]
    fn tiled_row_sums_equal_row_by_row_sums() {
        const H: usize = 2 * TILE + 32;
        const INPUTS: usize = 7;
        let mut rng = engine_core::SplitMix64::new(3);
        let mut values = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.unit_f32() - 0.5).collect() };
        let rows = values(INPUTS * H);
        let biases = values(H);
        let d = values(H);
        let active: Vec<u16> = vec![5, 0, 3, 3, 6];

        let mut tiled = vec![0.0; H];
        accumulate(&rows, &biases, &active, &mut tiled);
        let mut plain = biases.clone();
        for &i in &active {
            for j in 0..H {
                plain[j] += rows[usize::from(i) * H + j];
            }
        }
        assert!(tiled
            .iter()
            .zip(&plain)
            .all(|(a, b)| a.to_bits() == b.to_bits()));

        let mut tiled = rows.clone();
        add_to_rows(&mut tiled, H, &active, &d);
        let mut plain = rows;
        for &i in &active {
            for j in 0..H {
                plain[usize::from(i) * H + j] += d[j];
            }
        }
        assert!(tiled
            .iter()
            .zip(&plain)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    /// The AVX2 build of the kernel and the portable one give bit-identical gradients (so results
    /// do not depend on the CPU either).
    #[test]
    fn every_instruction_set_computes_the_same_bits() {
        let positions = synthetic_games::packed_positions(5, 200, OutputBuckets::PieceCount(4));
        for activation in [Activation::Screlu, Activation::Crelu] {
            let net = Network::new(64, OutputBuckets::PieceCount(4), activation, 11);
            let target = Target {
                k: 350.0,
                lambda: 0.5,
            };
            let mut portable = ShardGradient::new(net.layout());
            let rows = net.input_rows();
            let a = match activation {
                Activation::Screlu => {
                    kernel::<Screlu>(&net, &rows, &positions, target, 0.01, &mut portable)
                }
                Activation::Crelu => {
                    kernel::<Crelu>(&net, &rows, &positions, target, 0.01, &mut portable)
                }
            };
            let mut dispatched = ShardGradient::new(net.layout());
            let b = gradient_with_rows(&net, &rows, &positions, target, 0.01, &mut dispatched);
            assert_eq!(a.to_bits(), b.to_bits());
            assert!(portable
                .values()
                .iter()
                .zip(dispatched.values())
                .all(|(x, y)| x.to_bits() == y.to_bits()));
        }
    }
}
