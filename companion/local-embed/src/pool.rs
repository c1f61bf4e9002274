//! Sentence vectors from token vectors, as sentence-transformers' `Pooling`
//! (`pooling_mode_mean_tokens`) followed by its `Normalize` module.

/// The mean of `rows` token vectors of `dim` components each (`hidden` is row-major,
/// `rows * dim` long), L2-normalised. A zero mean (no tokens, or vectors that cancel)
/// stays zero rather than dividing by zero.
pub fn mean_normalized(hidden: &[f32], rows: usize, dim: usize) -> Vec<f32> {
    let mut v = vec![0f32; dim];
    if rows == 0 || dim == 0 {
        return v;
    }
    for row in hidden.chunks_exact(dim).take(rows) {
        for (a, x) in v.iter_mut().zip(row) {
            *a += x;
        }
    }
    let n = rows as f32;
    v.iter_mut().for_each(|a| *a /= n);
    let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
    // sentence-transformers divides by max(norm, 1e-12) (torch's F.normalize).
    let norm = norm.max(1e-12);
    v.iter_mut().for_each(|a| *a /= norm);
    v
}

#[cfg(test)]
mod tests {
    use super::mean_normalized;

    #[test]
    fn averages_rows_then_normalises() {
        // Rows (3, 0) and (1, 0): mean (2, 0), unit length (1, 0).
        assert_eq!(mean_normalized(&[3.0, 0.0, 1.0, 0.0], 2, 2), vec![1.0, 0.0]);
        // Rows (1, 2) and (3, 2): mean (2, 2) -> (0.7071, 0.7071).
        let v = mean_normalized(&[1.0, 2.0, 3.0, 2.0], 2, 2);
        assert!((v[0] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6 && v[0] == v[1]);
    }

    #[test]
    fn no_rows_is_a_zero_vector() {
        assert_eq!(mean_normalized(&[], 0, 3), vec![0.0, 0.0, 0.0]);
        assert_eq!(
            mean_normalized(&[1.0, -1.0, -1.0, 1.0], 2, 2),
            vec![0.0, 0.0]
        );
    }
}
