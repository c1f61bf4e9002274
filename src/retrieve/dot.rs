//! The dot-product kernel behind cosine search.
//!
//! Vectors are L2-normalized when they enter the index, so a cosine query is one dot
//! product per stored vector and the scan is bound by memory bandwidth (4 bytes per
//! dimension per vector), not arithmetic, provided the kernel keeps several sums in
//! flight:
//! - under wasm with `simd128` enabled (the repository's `.cargo/config.toml` turns it
//!   on for `wasm32-unknown-unknown`), four `f32x4` accumulators, 16 floats per step;
//! - everywhere else, sixteen independent scalar accumulators, which LLVM turns into
//!   vector registers on x86-64 (SSE2) and aarch64 (NEON).
//!
//! A loop with a single accumulator is a serial chain of dependent adds that the
//! compiler may not reorder (float addition is not associative), so it neither
//! vectorizes nor overlaps; measured in wasm it runs several times slower.
//!
//! Sums are taken in a fixed order, so a result is deterministic for a given build,
//! but the SIMD and scalar paths may differ in the last bits.

/// Lanes of the scalar kernel: independent partial sums.
const LANES: usize = 16;

/// Whether this build computes dot products with wasm SIMD128 instructions.
pub const SIMD128: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// The dot product of `a` and `b` over their common length (in dimensions).
///
/// Uses the SIMD128 kernel in wasm builds with `simd128`, else [`dot_scalar`].
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        simd::dot(a, b)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        dot_scalar(a, b)
    }
}

/// The portable kernel: sixteen independent accumulators, then a pairwise sum.
/// Over the common length of `a` and `b` (in dimensions).
#[inline]
pub fn dot_scalar(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; LANES];
    let mut ca = a.chunks_exact(LANES);
    let mut cb = b.chunks_exact(LANES);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for i in 0..LANES {
            acc[i] += x[i] * y[i];
        }
    }
    let mut tail = 0.0f32;
    for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
        tail += x * y;
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            acc[i] += acc[i + width];
        }
    }
    acc[0] + tail
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::{
        f32x4_add, f32x4_extract_lane, f32x4_mul, f32x4_splat, v128, v128_load,
    };

    /// Loads four floats starting at `s[0]`.
    #[inline(always)]
    fn load4(s: &[f32]) -> v128 {
        debug_assert!(s.len() >= 4);
        // SAFETY: every caller passes a slice of at least 4 floats (a 16-float chunk
        // from `chunks_exact`, at offsets 0, 4, 8, 12), so the 16 bytes read are in
        // bounds; `v128_load` has no alignment requirement (it emits an align=1 load).
        unsafe { v128_load(s.as_ptr().cast::<v128>()) }
    }

    /// Four `f32x4` accumulators, 16 floats per step, then the scalar tail.
    #[inline]
    pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
        let n = a.len().min(b.len());
        let (a, b) = (&a[..n], &b[..n]);
        let mut s0 = f32x4_splat(0.0);
        let mut s1 = f32x4_splat(0.0);
        let mut s2 = f32x4_splat(0.0);
        let mut s3 = f32x4_splat(0.0);
        let mut ca = a.chunks_exact(16);
        let mut cb = b.chunks_exact(16);
        for (x, y) in (&mut ca).zip(&mut cb) {
            s0 = f32x4_add(s0, f32x4_mul(load4(x), load4(y)));
            s1 = f32x4_add(s1, f32x4_mul(load4(&x[4..]), load4(&y[4..])));
            s2 = f32x4_add(s2, f32x4_mul(load4(&x[8..]), load4(&y[8..])));
            s3 = f32x4_add(s3, f32x4_mul(load4(&x[12..]), load4(&y[12..])));
        }
        let s = f32x4_add(f32x4_add(s0, s1), f32x4_add(s2, s3));
        let mut sum = (f32x4_extract_lane::<0>(s) + f32x4_extract_lane::<2>(s))
            + (f32x4_extract_lane::<1>(s) + f32x4_extract_lane::<3>(s));
        for (x, y) in ca.remainder().iter().zip(cb.remainder()) {
            sum += x * y;
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_naive_sum_on_odd_lengths() {
        for n in [0usize, 1, 3, 15, 16, 17, 33, 384, 1537] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 7 % 13) as f32 - 6.0) / 8.0).collect();
            let b: Vec<f32> = (0..n).map(|i| ((i * 5 % 11) as f32 - 5.0) / 4.0).collect();
            let naive: f64 = a
                .iter()
                .zip(&b)
                .map(|(x, y)| f64::from(*x) * f64::from(*y))
                .sum();
            assert!((f64::from(dot(&a, &b)) - naive).abs() < 1e-3, "n={n}");
            assert!(
                (f64::from(dot_scalar(&a, &b)) - naive).abs() < 1e-3,
                "n={n}"
            );
        }
    }

    #[test]
    fn uses_the_common_length() {
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[1.0, 1.0]), 3.0);
    }
}
