//! The kernels with AVX2: a [`Block`] is two 256-bit registers of 16 `i16`.
//!
//! Every function here is `#[target_feature(enable = "avx2")]`: callers outside this module must
//! have checked that the CPU has AVX2 (see `Simd` in the parent module). Inside, the arithmetic
//! intrinsics are safe to call; only the loads and stores touch memory through raw pointers.

use super::Block;
use std::arch::x86_64::*;

/// The two halves of a block.
#[inline]
#[target_feature(enable = "avx2")]
fn load(b: &Block) -> [__m256i; 2] {
    let p = b.0.as_ptr().cast::<__m256i>();
    // SAFETY: `b` is a live reference to 64 bytes aligned to 64 (`Block` is `repr(C, align(64))`),
    // so `p` and `p + 1` address two in-bounds, 32-byte-aligned 32-byte halves, as
    // `_mm256_load_si256` requires; any bit pattern is a valid `__m256i`.
    unsafe { [_mm256_load_si256(p), _mm256_load_si256(p.add(1))] }
}

/// Writes both halves of a block.
#[inline]
#[target_feature(enable = "avx2")]
fn store(b: &mut Block, v: [__m256i; 2]) {
    let p = b.0.as_mut_ptr().cast::<__m256i>();
    // SAFETY: `b` is an exclusive reference to 64 bytes aligned to 64, so `p` and `p + 1` are two
    // in-bounds, 32-byte-aligned, writable halves that nothing else aliases; any bits are valid
    // `i16` values.
    unsafe {
        _mm256_store_si256(p, v[0]);
        _mm256_store_si256(p.add(1), v[1]);
    }
}

/// The sum of the 8 `i32` lanes, widened to `i64` first so the sum itself cannot overflow.
#[inline]
#[target_feature(enable = "avx2")]
fn sum_lanes(v: __m256i) -> i64 {
    let lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(v));
    let hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(v));
    let s = _mm256_add_epi64(lo, hi);
    _mm256_extract_epi64::<0>(s)
        + _mm256_extract_epi64::<1>(s)
        + _mm256_extract_epi64::<2>(s)
        + _mm256_extract_epi64::<3>(s)
}

#[target_feature(enable = "avx2")]
pub fn add_sub(dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        let (s, a, b) = (load(s), load(a), load(b));
        let r0 = _mm256_sub_epi16(_mm256_add_epi16(s[0], a[0]), b[0]);
        let r1 = _mm256_sub_epi16(_mm256_add_epi16(s[1], a[1]), b[1]);
        store(d, [r0, r1]);
    }
}

#[target_feature(enable = "avx2")]
pub fn add_sub2(dst: &mut [Block], src: &[Block], add: &[Block], sub1: &[Block], sub2: &[Block]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        let (s, a, b, c) = (load(s), load(a), load(b), load(c));
        let r0 = _mm256_sub_epi16(_mm256_sub_epi16(_mm256_add_epi16(s[0], a[0]), b[0]), c[0]);
        let r1 = _mm256_sub_epi16(_mm256_sub_epi16(_mm256_add_epi16(s[1], a[1]), b[1]), c[1]);
        store(d, [r0, r1]);
    }
}

#[target_feature(enable = "avx2")]
pub fn add_assign(dst: &mut [Block], add: &[Block]) {
    for (d, a) in dst.iter_mut().zip(add) {
        let (s, a) = (load(d), load(a));
        store(
            d,
            [_mm256_add_epi16(s[0], a[0]), _mm256_add_epi16(s[1], a[1])],
        );
    }
}

#[target_feature(enable = "avx2")]
pub fn sub_assign(dst: &mut [Block], sub: &[Block]) {
    for (d, b) in dst.iter_mut().zip(sub) {
        let (s, b) = (load(d), load(b));
        store(
            d,
            [_mm256_sub_epi16(s[0], b[0]), _mm256_sub_epi16(s[1], b[1])],
        );
    }
}

#[target_feature(enable = "avx2")]
pub fn add_sub_assign(dst: &mut [Block], add: &[Block], sub: &[Block]) {
    for ((d, a), b) in dst.iter_mut().zip(add).zip(sub) {
        let (s, a, b) = (load(d), load(a), load(b));
        let r0 = _mm256_sub_epi16(_mm256_add_epi16(s[0], a[0]), b[0]);
        let r1 = _mm256_sub_epi16(_mm256_add_epi16(s[1], a[1]), b[1]);
        store(d, [r0, r1]);
    }
}

/// Output dot product over `v = clamp(acc, 0, qa)`. SCReLU (`SQUARE`): `v · w` in `i16` (exact
/// by the loader's bound `qa · |w| <= i16::MAX`), then `madd` with `v` sums pairs of `v² · w`
/// into `i32` lanes. CReLU: `madd(v, w)` sums pairs of `v · w`.
#[target_feature(enable = "avx2")]
pub fn activated_dot<const SQUARE: bool>(acc: &[Block], w: &[Block], qa: i16) -> i64 {
    let zero = _mm256_setzero_si256();
    let max = _mm256_set1_epi16(qa);
    let mut sum = _mm256_setzero_si256();
    for (a, w) in acc.iter().zip(w) {
        let (a, w) = (load(a), load(w));
        for i in 0..2 {
            let v = _mm256_min_epi16(_mm256_max_epi16(a[i], zero), max);
            let products = if SQUARE {
                _mm256_madd_epi16(_mm256_mullo_epi16(v, w[i]), v)
            } else {
                _mm256_madd_epi16(v, w[i])
            };
            sum = _mm256_add_epi32(sum, products);
        }
    }
    sum_lanes(sum)
}
