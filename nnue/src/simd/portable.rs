//! The kernels in plain Rust: the reference the vector paths are tested against, and the path
//! on CPUs and targets without them. Written lane by lane over whole blocks so the compiler can
//! vectorise them with whatever the target guarantees (SSE2 on x86-64).

use super::{Block, BLOCK_LANES};

pub fn add_sub(dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        for k in 0..BLOCK_LANES {
            d.0[k] = s.0[k].wrapping_add(a.0[k]).wrapping_sub(b.0[k]);
        }
    }
}

pub fn add_sub2(dst: &mut [Block], src: &[Block], add: &[Block], sub1: &[Block], sub2: &[Block]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        for k in 0..BLOCK_LANES {
            d.0[k] = s.0[k]
                .wrapping_add(a.0[k])
                .wrapping_sub(b.0[k])
                .wrapping_sub(c.0[k]);
        }
    }
}

pub fn add_assign(dst: &mut [Block], add: &[Block]) {
    for (d, a) in dst.iter_mut().zip(add) {
        for k in 0..BLOCK_LANES {
            d.0[k] = d.0[k].wrapping_add(a.0[k]);
        }
    }
}

pub fn sub_assign(dst: &mut [Block], sub: &[Block]) {
    for (d, b) in dst.iter_mut().zip(sub) {
        for k in 0..BLOCK_LANES {
            d.0[k] = d.0[k].wrapping_sub(b.0[k]);
        }
    }
}

pub fn add_sub_assign(dst: &mut [Block], add: &[Block], sub: &[Block]) {
    for ((d, a), b) in dst.iter_mut().zip(add).zip(sub) {
        for k in 0..BLOCK_LANES {
            d.0[k] = d.0[k].wrapping_add(a.0[k]).wrapping_sub(b.0[k]);
        }
    }
}

/// Lanes of the portable dot products: pairs of products are summed into 16 `i32` lanes, the
/// shape of SSE2's `pmaddwd` (measured fastest of the plain-Rust forms tried on the x86-64
/// baseline).
const PAIRS: usize = BLOCK_LANES / 2;

/// `Σ x · y` over the block's lanes after `prepare` turns each (accumulator, weight) pair into
/// the `i16` factors `(x, y)`; pairs of products go into `i32` lanes (`2 · blocks` products per
/// lane over all blocks, within the loader's bound), widened at the end.
#[inline(always)]
fn pairwise_dot(acc: &[Block], w: &[Block], prepare: impl Fn(i16, i16) -> (i16, i16)) -> i64 {
    let mut lanes = [0i32; PAIRS];
    for (a, w) in acc.iter().zip(w) {
        let mut x = [0i16; BLOCK_LANES];
        let mut y = [0i16; BLOCK_LANES];
        for k in 0..BLOCK_LANES {
            (x[k], y[k]) = prepare(a.0[k], w.0[k]);
        }
        for (k, lane) in lanes.iter_mut().enumerate() {
            let pair = i32::from(x[2 * k]) * i32::from(y[2 * k])
                + i32::from(x[2 * k + 1]) * i32::from(y[2 * k + 1]);
            *lane = lane.wrapping_add(pair);
        }
    }
    lanes.iter().map(|&l| i64::from(l)).sum()
}

/// Output dot product over `v = clamp(acc, 0, qa)`: SCReLU (`SQUARE`) forms `v · w` in `i16`
/// like the vector paths (exact by the loader's bound), then times `v`; CReLU is `v · w`.
pub fn activated_dot<const SQUARE: bool>(acc: &[Block], w: &[Block], qa: i16) -> i64 {
    pairwise_dot(acc, w, |a, w| {
        let v = a.clamp(0, qa);
        if SQUARE {
            (v.wrapping_mul(w), v)
        } else {
            (v, w)
        }
    })
}
