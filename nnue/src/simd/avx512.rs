//! The kernels with AVX-512 (F for the 512-bit registers, BW for the 16-bit lane arithmetic): a
//! [`Block`] is exactly one register of 32 `i16`.
//!
//! Every function here is `#[target_feature(enable = "avx512f,avx512bw")]`: callers outside this
//! module must have checked that the CPU has both (see `Simd` in the parent module). Inside, the
//! arithmetic intrinsics are safe to call; only the loads and stores touch memory through raw
//! pointers.

use super::Block;
use std::arch::x86_64::*;

#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load(b: &Block) -> __m512i {
    // SAFETY: `b` is a live reference to 64 bytes aligned to 64 (`Block` is `repr(C, align(64))`),
    // exactly the in-bounds, aligned 64 bytes `_mm512_load_si512` reads; any bits are a valid
    // `__m512i`.
    unsafe { _mm512_load_si512(b.0.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn store(b: &mut Block, v: __m512i) {
    // SAFETY: `b` is an exclusive reference to 64 writable bytes aligned to 64 that nothing else
    // aliases, exactly what `_mm512_store_si512` writes; any bits are valid `i16` values.
    unsafe { _mm512_store_si512(b.0.as_mut_ptr().cast(), v) }
}

/// The sum of the 16 `i32` lanes, widened to `i64` first so the sum itself cannot overflow.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn sum_lanes(v: __m512i) -> i64 {
    let lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
    let hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(v));
    _mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi))
}

#[target_feature(enable = "avx512f,avx512bw")]
pub fn add_sub(dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        store(
            d,
            _mm512_sub_epi16(_mm512_add_epi16(load(s), load(a)), load(b)),
        );
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
pub fn add_sub2(dst: &mut [Block], src: &[Block], add: &[Block], sub1: &[Block], sub2: &[Block]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        let r = _mm512_sub_epi16(
            _mm512_sub_epi16(_mm512_add_epi16(load(s), load(a)), load(b)),
            load(c),
        );
        store(d, r);
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
pub fn add_assign(dst: &mut [Block], add: &[Block]) {
    for (d, a) in dst.iter_mut().zip(add) {
        let r = _mm512_add_epi16(load(d), load(a));
        store(d, r);
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
pub fn sub_assign(dst: &mut [Block], sub: &[Block]) {
    for (d, b) in dst.iter_mut().zip(sub) {
        let r = _mm512_sub_epi16(load(d), load(b));
        store(d, r);
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
pub fn add_sub_assign(dst: &mut [Block], add: &[Block], sub: &[Block]) {
    for ((d, a), b) in dst.iter_mut().zip(add).zip(sub) {
        let r = _mm512_sub_epi16(_mm512_add_epi16(load(d), load(a)), load(b));
        store(d, r);
    }
}

/// Output dot product over `v = clamp(acc, 0, qa)`. SCReLU (`SQUARE`): `v · w` in `i16` (exact
/// by the loader's bound `qa · |w| <= i16::MAX`), then `madd` with `v` sums pairs of `v² · w`
/// into `i32` lanes. CReLU: `madd(v, w)` sums pairs of `v · w`.
#[target_feature(enable = "avx512f,avx512bw")]
pub fn activated_dot<const SQUARE: bool>(acc: &[Block], w: &[Block], qa: i16) -> i64 {
    let zero = _mm512_setzero_si512();
    let max = _mm512_set1_epi16(qa);
    let mut sum = _mm512_setzero_si512();
    for (a, w) in acc.iter().zip(w) {
        let v = _mm512_min_epi16(_mm512_max_epi16(load(a), zero), max);
        let products = if SQUARE {
            _mm512_madd_epi16(_mm512_mullo_epi16(v, load(w)), v)
        } else {
            _mm512_madd_epi16(v, load(w))
        };
        sum = _mm512_add_epi32(sum, products);
    }
    sum_lanes(sum)
}
