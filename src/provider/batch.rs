//! Splitting texts into embeddings requests.

use std::ops::Range;

/// Consecutive ranges of `token_counts` (tokens per text, in order) such that each
/// range has at most `max_inputs` texts and at most `max_tokens` tokens in total.
/// A single text over `max_tokens` gets a batch of its own: docrag does not cut it,
/// and the provider may truncate or reject it (an `http-status` error). Limits of 0
/// count as 1. Every index is covered exactly once, in order.
pub fn plan_batches(
    token_counts: &[usize],
    max_inputs: usize,
    max_tokens: usize,
) -> Vec<Range<usize>> {
    let max_inputs = max_inputs.max(1);
    let max_tokens = max_tokens.max(1);
    let mut out = Vec::new();
    let (mut start, mut tokens) = (0, 0usize);
    for (i, &t) in token_counts.iter().enumerate() {
        let full = i - start == max_inputs || (i > start && tokens.saturating_add(t) > max_tokens);
        if full {
            out.push(start..i);
            start = i;
            tokens = 0;
        }
        tokens = tokens.saturating_add(t);
    }
    if start < token_counts.len() {
        out.push(start..token_counts.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_count_and_by_tokens() {
        assert_eq!(plan_batches(&[1; 5], 2, 100), vec![0..2, 2..4, 4..5]);
        assert_eq!(plan_batches(&[40, 40, 40, 10], 10, 100), vec![0..2, 2..4]);
        assert_eq!(plan_batches(&[100, 100], 10, 100), vec![0..1, 1..2]);
        assert!(plan_batches(&[], 3, 3).is_empty());
    }

    #[test]
    fn oversized_text_gets_its_own_batch() {
        assert_eq!(
            plan_batches(&[5, 900, 5, 5], 10, 100),
            vec![0..1, 1..2, 2..4]
        );
        assert_eq!(plan_batches(&[3, 3], 0, 0), vec![0..1, 1..2]);
    }

    #[test]
    fn covers_every_index_once_within_limits() {
        let counts: Vec<usize> = (0..200).map(|i| (i * 37) % 150).collect();
        let plan = plan_batches(&counts, 7, 300);
        let mut next = 0;
        for r in &plan {
            assert_eq!(r.start, next);
            assert!(r.len() <= 7 && !r.is_empty());
            let sum: usize = counts[r.clone()].iter().sum();
            assert!(sum <= 300 || r.len() == 1);
            next = r.end;
        }
        assert_eq!(next, counts.len());
    }
}
