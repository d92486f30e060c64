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

/// One block's products are summed in an `i32` (32 products), then widened: the same bound the
/// vector paths rely on, so all paths are exact under the loader's checks.
pub fn screlu_dot(acc: &[Block], w: &[Block], qa: i16) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.iter().zip(w) {
        let mut sum = 0i32;
        for k in 0..BLOCK_LANES {
            let v = a.0[k].clamp(0, qa);
            // The vector paths multiply in i16 (low half): same here, then by v in i32.
            let vw = v.wrapping_mul(w.0[k]);
            sum = sum.wrapping_add(i32::from(vw) * i32::from(v));
        }
        total += i64::from(sum);
    }
    total
}

pub fn crelu_dot(acc: &[Block], w: &[Block], qa: i16) -> i64 {
    let mut total = 0i64;
    for (a, w) in acc.iter().zip(w) {
        let mut sum = 0i32;
        for k in 0..BLOCK_LANES {
            let v = a.0[k].clamp(0, qa);
            sum = sum.wrapping_add(i32::from(v) * i32::from(w.0[k]));
        }
        total += i64::from(sum);
    }
    total
}
