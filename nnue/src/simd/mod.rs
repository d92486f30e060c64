//! The vector kernels of inference: accumulator updates and the output layer, in a portable
//! version and, on x86-64, AVX2 and AVX-512 (F + BW) versions.
//!
//! The path is chosen once at run time ([`Simd::detected`]) from what the CPU reports, so the
//! default build (no `target-cpu`) runs the widest path the machine has; other targets compile the
//! portable path only. Every path computes exactly the same integers: accumulator arithmetic is
//! wrapping `i16` (a group, so the order of additions does not matter) and the output sums are
//! exact (the net loader rejects weights whose products could overflow an `i32` lane, see
//! [`crate::network`]). The tests compare every available path with the portable one bit for bit.
//!
//! All kernels work on [`Block`]s: 32 `i16` (64 bytes, one AVX-512 register, two AVX2
//! registers), 64-byte aligned, so hidden sizes are multiples of 32 and loads never straddle a
//! cache line.

mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

use std::sync::OnceLock;

/// `i16` values per [`Block`].
pub const BLOCK_LANES: usize = 32;

/// 32 `i16` values aligned to 64 bytes: the unit of every weight row and accumulator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Block(pub [i16; BLOCK_LANES]);

impl Block {
    /// All lanes zero.
    pub const ZERO: Block = Block([0; BLOCK_LANES]);
}

impl Default for Block {
    fn default() -> Block {
        Block::ZERO
    }
}

/// Environment variable that caps the detected path (`portable`, `avx2` or `avx512`), to compare
/// paths in whole-engine benchmarks. A path the CPU lacks is never chosen.
pub const SIMD_ENV: &str = "COTUONG_SIMD";

/// The instruction-set paths this build knows. Private, so that a [`Simd`] naming a path can only
/// be obtained from run-time detection: holding one proves the CPU has the instructions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Level {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// A kernel path that this CPU can run.
///
/// Values other than [`Simd::PORTABLE`] come only from [`Simd::available`] / [`Simd::detected`],
/// which check the CPU; that invariant is what makes the dispatch below sound.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Simd(Level);

impl Simd {
    /// Plain Rust, every target (the compiler auto-vectorises what it can).
    pub const PORTABLE: Simd = Simd(Level::Portable);

    /// Every path this CPU can run, narrowest first (the portable path is always first).
    pub fn available() -> Vec<Simd> {
        #[allow(unused_mut)]
        let mut out = vec![Simd::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                out.push(Simd(Level::Avx2));
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
            {
                out.push(Simd(Level::Avx512));
            }
        }
        out
    }

    /// The widest path this CPU can run, capped by the environment variable [`SIMD_ENV`] if set
    /// to a known path name. Detected once per process and cached.
    pub fn detected() -> Simd {
        static DETECTED: OnceLock<Simd> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let rank = |name: &str| Simd::ALL_NAMES.iter().position(|&n| n == name);
            let cap = std::env::var(SIMD_ENV)
                .ok()
                .and_then(|name| rank(name.trim()))
                .unwrap_or(usize::MAX);
            Simd::available()
                .into_iter()
                .rfind(|s| rank(s.name()).is_some_and(|r| r <= cap))
                .unwrap_or(Simd::PORTABLE)
        })
    }

    /// Names of every path any build knows, narrowest first.
    pub const ALL_NAMES: [&'static str; 3] = ["portable", "avx2", "avx512"];

    /// The path called `name` (see [`Simd::ALL_NAMES`]), if this CPU can run it.
    pub fn from_name(name: &str) -> Option<Simd> {
        Simd::available().into_iter().find(|s| s.name() == name)
    }

    /// The path's name: `portable`, `avx2` or `avx512`.
    pub const fn name(self) -> &'static str {
        match self.0 {
            Level::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => "avx512",
        }
    }

    /// `dst = src + add - sub`, lane by lane, wrapping (a quiet move for one perspective).
    #[inline]
    pub fn add_sub(self, dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block]) {
        debug_assert!(src.len() == dst.len() && add.len() == dst.len() && sub.len() == dst.len());
        match self.0 {
            Level::Portable => portable::add_sub(dst, src, add, sub),
            // SAFETY: a `Simd` holding `Level::Avx2` is only built by `Simd::available`, after
            // `is_x86_feature_detected!("avx2")` returned true, so the CPU runs AVX2 code.
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::add_sub(dst, src, add, sub) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::add_sub(dst, src, add, sub) },
        }
    }

    /// `dst = src + add - sub1 - sub2`, lane by lane, wrapping (a capture for one perspective).
    #[inline]
    pub fn add_sub2(
        self,
        dst: &mut [Block],
        src: &[Block],
        add: &[Block],
        sub1: &[Block],
        sub2: &[Block],
    ) {
        debug_assert!(src.len() == dst.len() && add.len() == dst.len());
        debug_assert!(sub1.len() == dst.len() && sub2.len() == dst.len());
        match self.0 {
            Level::Portable => portable::add_sub2(dst, src, add, sub1, sub2),
            // SAFETY: `Level::Avx2` is only built after AVX2 was detected (see `add_sub`).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::add_sub2(dst, src, add, sub1, sub2) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::add_sub2(dst, src, add, sub1, sub2) },
        }
    }

    /// `dst += add`, lane by lane, wrapping (building an accumulator from its active inputs).
    #[inline]
    pub fn add_assign(self, dst: &mut [Block], add: &[Block]) {
        debug_assert!(add.len() == dst.len());
        match self.0 {
            Level::Portable => portable::add_assign(dst, add),
            // SAFETY: `Level::Avx2` is only built after AVX2 was detected (see `add_sub`).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::add_assign(dst, add) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::add_assign(dst, add) },
        }
    }

    /// `dst -= sub`, lane by lane, wrapping (a piece removed in an accumulator cache update).
    #[inline]
    pub fn sub_assign(self, dst: &mut [Block], sub: &[Block]) {
        debug_assert!(sub.len() == dst.len());
        match self.0 {
            Level::Portable => portable::sub_assign(dst, sub),
            // SAFETY: `Level::Avx2` is only built after AVX2 was detected (see `add_sub`).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::sub_assign(dst, sub) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::sub_assign(dst, sub) },
        }
    }

    /// `dst += add - sub`, lane by lane, wrapping (one piece added and one removed in place).
    #[inline]
    pub fn add_sub_assign(self, dst: &mut [Block], add: &[Block], sub: &[Block]) {
        debug_assert!(add.len() == dst.len() && sub.len() == dst.len());
        match self.0 {
            Level::Portable => portable::add_sub_assign(dst, add, sub),
            // SAFETY: `Level::Avx2` is only built after AVX2 was detected (see `add_sub`).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::add_sub_assign(dst, add, sub) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::add_sub_assign(dst, add, sub) },
        }
    }

    /// `Σ clamp(acc, 0, qa)² · w` over all lanes, exactly, provided every `clamp(acc, 0, qa) · w`
    /// fits an `i16` and the partial sums fit the `i32` lanes (the net loader checks both).
    #[inline]
    pub fn screlu_dot(self, acc: &[Block], w: &[Block], qa: i16) -> i64 {
        self.activated_dot::<true>(acc, w, qa)
    }

    /// `Σ clamp(acc, 0, qa) · w` over all lanes, exactly, provided the partial sums fit the
    /// `i32` lanes (the net loader checks it).
    #[inline]
    pub fn crelu_dot(self, acc: &[Block], w: &[Block], qa: i16) -> i64 {
        self.activated_dot::<false>(acc, w, qa)
    }

    /// The output layer's dot product, squared activation if `SQUARE` (SCReLU), else CReLU.
    #[inline]
    fn activated_dot<const SQUARE: bool>(self, acc: &[Block], w: &[Block], qa: i16) -> i64 {
        debug_assert!(acc.len() == w.len());
        match self.0 {
            Level::Portable => portable::activated_dot::<SQUARE>(acc, w, qa),
            // SAFETY: `Level::Avx2` is only built after AVX2 was detected (see `add_sub`).
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { avx2::activated_dot::<SQUARE>(acc, w, qa) },
            // SAFETY: `Level::Avx512` is only built after AVX-512F and AVX-512BW were detected.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { avx512::activated_dot::<SQUARE>(acc, w, qa) },
        }
    }
}

/// The most products any path adds into one `i32` lane of a dot product over `blocks` blocks,
/// before widening to `i64`: AVX2 sums 4 products per lane per block (two registers of 8 lanes,
/// 2 products per `madd`), the portable path and AVX-512 sum 2. The net loader multiplies this by
/// the largest product to prove the lanes cannot overflow.
pub const fn max_products_per_lane(blocks: usize) -> usize {
    4 * blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic generator for kernel inputs.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    fn random_blocks(state: &mut u64, n: usize, lo: i16, hi: i16) -> Vec<Block> {
        let span = (i32::from(hi) - i32::from(lo) + 1) as u64;
        (0..n)
            .map(|_| {
                let mut b = Block::ZERO;
                for v in &mut b.0 {
                    *v = (i64::from(lo) + (lcg(state) % span) as i64) as i16;
                }
                b
            })
            .collect()
    }

    #[test]
    fn the_portable_path_is_always_available_and_first() {
        let all = Simd::available();
        assert_eq!(all[0], Simd::PORTABLE);
        assert!(all.contains(&Simd::detected()));
        for s in &all {
            assert_eq!(Simd::from_name(s.name()), Some(*s));
        }
        assert_eq!(Simd::from_name("sse9"), None);
    }

    #[test]
    fn every_path_matches_the_portable_kernels_bit_for_bit_at_the_extremes() {
        let mut state = 7;
        for blocks in [1, 8, 16, 32] {
            // Accumulator updates wrap: full-range values exercise the wrap-around.
            let src = random_blocks(&mut state, blocks, i16::MIN, i16::MAX);
            let add = random_blocks(&mut state, blocks, i16::MIN, i16::MAX);
            let s1 = random_blocks(&mut state, blocks, i16::MIN, i16::MAX);
            let s2 = random_blocks(&mut state, blocks, i16::MIN, i16::MAX);
            // Dot products at their bounds: qa 255, |w| <= 128 so qa * w fits an i16.
            let acc = random_blocks(&mut state, blocks, -400, 400);
            let w = random_blocks(&mut state, blocks, -128, 128);
            let max_acc = vec![Block([i16::MAX; 32]); blocks];
            let max_w = vec![Block([128; 32]); blocks];
            let min_w = vec![Block([-128; 32]); blocks];

            let p = Simd::PORTABLE;
            let mut want = vec![Block::ZERO; blocks];
            p.add_sub(&mut want, &src, &add, &s1);
            let mut want2 = vec![Block::ZERO; blocks];
            p.add_sub2(&mut want2, &src, &add, &s1, &s2);
            let mut want3 = src.clone();
            p.add_assign(&mut want3, &add);
            let mut want4 = src.clone();
            p.sub_assign(&mut want4, &s1);
            let mut want5 = src.clone();
            p.add_sub_assign(&mut want5, &add, &s1);
            assert_eq!(want5, want);
            for s in Simd::available() {
                let mut got = vec![Block::ZERO; blocks];
                s.add_sub(&mut got, &src, &add, &s1);
                assert_eq!(got, want, "{} add_sub", s.name());
                let mut got2 = vec![Block::ZERO; blocks];
                s.add_sub2(&mut got2, &src, &add, &s1, &s2);
                assert_eq!(got2, want2, "{} add_sub2", s.name());
                let mut got3 = src.clone();
                s.add_assign(&mut got3, &add);
                assert_eq!(got3, want3, "{} add_assign", s.name());
                let mut got4 = src.clone();
                s.sub_assign(&mut got4, &s1);
                assert_eq!(got4, want4, "{} sub_assign", s.name());
                let mut got5 = src.clone();
                s.add_sub_assign(&mut got5, &add, &s1);
                assert_eq!(got5, want5, "{} add_sub_assign", s.name());
                for (a, w) in [(&acc, &w), (&max_acc, &max_w), (&max_acc, &min_w)] {
                    assert_eq!(s.screlu_dot(a, w, 255), p.screlu_dot(a, w, 255));
                    assert_eq!(s.crelu_dot(a, &src, 255), p.crelu_dot(a, &src, 255));
                }
            }
            // The exact value, computed the slow way.
            let exact: i64 = acc
                .iter()
                .zip(&w)
                .flat_map(|(a, w)| a.0.iter().zip(w.0.iter()))
                .map(|(&a, &w)| {
                    let v = i64::from(a.clamp(0, 255));
                    v * v * i64::from(w)
                })
                .sum();
            assert_eq!(p.screlu_dot(&acc, &w, 255), exact);
            let all_max = p.screlu_dot(&max_acc, &max_w, 255);
            assert_eq!(all_max, 255 * 255 * 128 * 32 * blocks as i64);
        }
    }
}
