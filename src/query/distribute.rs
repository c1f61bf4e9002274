//! Budgets for the retrieval step: the collection-wide top-k, the per-document quotas
//! of a broad question, and the per-document enrichment budgets.
//!
//! - Retrieval quota: `ceil(chunks x retrieval% / 100)`, at least 1 (default 15%).
//! - Broad questions: a coverage share of the quota (default 25%) is spread equally
//!   over the documents (at least one chunk each, so every document is represented);
//!   the rest goes to documents in proportion to their hits in the first,
//!   collection-wide search (largest remainder, ties to the earlier document). With
//!   no hits at all the rest is spread equally. A quota never exceeds the document's
//!   chunk count, and a document with no chunks gets 0.
//! - Enrichment: a percentage of the collection's tokens (default 10%) shared among
//!   documents in proportion to the tokens retrieved from each (rounded down).

/// Default retrieval percentage of the collection's chunks.
pub const DEFAULT_RETRIEVAL_PERCENT: u32 = 15;
/// Default coverage share of a broad question's quota, percent.
pub const DEFAULT_COVERAGE_PERCENT: u32 = 25;
/// Default enrichment budget, percent of the collection's tokens.
pub const DEFAULT_ENRICHMENT_PERCENT: u32 = 10;

/// Chunks to retrieve: `ceil(total_chunks x percent / 100)`, at least 1 (0 when the
/// collection has no chunks).
pub fn retrieval_quota(total_chunks: usize, percent: u32) -> usize {
    if total_chunks == 0 {
        return 0;
    }
    let p = percent.min(100) as usize;
    (total_chunks.saturating_mul(p).div_ceil(100)).max(1)
}

/// Splits `total` over `weights` by largest remainder (ties to the lower index).
/// Equal weights when all are zero.
fn apportion(total: usize, weights: &[usize]) -> Vec<usize> {
    let n = weights.len();
    if n == 0 {
        return Vec::new();
    }
    let sum: usize = weights.iter().sum();
    let (weights, sum): (Vec<u128>, u128) = if sum == 0 {
        (vec![1; n], n as u128)
    } else {
        (weights.iter().map(|&w| w as u128).collect(), sum as u128)
    };
    let t = total as u128;
    let mut out: Vec<usize> = weights.iter().map(|w| (t * w / sum) as usize).collect();
    let given: usize = out.iter().sum();
    let mut order: Vec<usize> = (0..n).collect();
    crate::order::sort_by(&mut order, |&a, &b| {
        let ra = t * weights[a] % sum;
        let rb = t * weights[b] % sum;
        rb.cmp(&ra).then(a.cmp(&b))
    });
    for &k in order.iter().take(total.saturating_sub(given)) {
        out[k] += 1;
    }
    out
}

/// Per-document quotas of a broad question.
///
/// `hits[d]` is the number of document `d`'s chunks in the first search and
/// `chunks[d]` its chunk count (the slices have one entry per document; a shorter
/// `hits` counts as zero). `quota` is the collection's retrieval quota.
pub fn broad_quotas(
    quota: usize,
    coverage_percent: u32,
    hits: &[usize],
    chunks: &[usize],
) -> Vec<usize> {
    let n = chunks.iter().filter(|&&c| c > 0).count();
    if n == 0 {
        return vec![0; chunks.len()];
    }
    let coverage = quota.saturating_mul(coverage_percent.min(100) as usize) / 100;
    let each = (coverage / n).max(1);
    let mut out: Vec<usize> = chunks
        .iter()
        .map(|&c| if c > 0 { each } else { 0 })
        .collect();
    let rest = quota.saturating_sub(each * n);
    let weights: Vec<usize> = chunks
        .iter()
        .enumerate()
        .map(|(d, &c)| {
            if c > 0 {
                hits.get(d).copied().unwrap_or(0)
            } else {
                0
            }
        })
        .collect();
    let weights = if weights.iter().all(|&w| w == 0) {
        chunks.iter().map(|&c| usize::from(c > 0)).collect()
    } else {
        weights
    };
    for (o, extra) in out.iter_mut().zip(apportion(rest, &weights)) {
        *o += extra;
    }
    for (o, &c) in out.iter_mut().zip(chunks) {
        *o = (*o).min(c);
    }
    out
}

/// The collection's enrichment budget: `collection_tokens x percent / 100` tokens.
pub fn enrichment_total(collection_tokens: usize, percent: u32) -> usize {
    collection_tokens.saturating_mul(percent.min(100) as usize) / 100
}

/// `total` enrichment tokens shared by `retrieved[d]` (tokens retrieved from document
/// `d`), rounded down; 0 for documents with nothing retrieved.
pub fn enrichment_budgets(total: usize, retrieved: &[usize]) -> Vec<usize> {
    let sum: u128 = retrieved.iter().map(|&r| r as u128).sum();
    if sum == 0 {
        return vec![0; retrieved.len()];
    }
    retrieved
        .iter()
        .map(|&r| (total as u128 * r as u128 / sum) as usize)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quota_rounds_up_with_a_floor_of_one() {
        assert_eq!(retrieval_quota(100, 15), 15);
        assert_eq!(retrieval_quota(101, 15), 16);
        assert_eq!(retrieval_quota(3, 15), 1);
        assert_eq!(retrieval_quota(0, 15), 0);
        assert_eq!(retrieval_quota(10, 250), 10);
    }

    #[test]
    fn coverage_then_hit_share() {
        // 40 chunks of quota, 25% = 10 spread over 4 docs = 2 each; 32 left by hits.
        let q = broad_quotas(40, 25, &[30, 10, 0, 0], &[100, 100, 100, 100]);
        assert_eq!(q, [2 + 24, 2 + 8, 2, 2]);
        assert_eq!(q.iter().sum::<usize>(), 40);
    }

    #[test]
    fn at_least_one_each_and_capped_by_chunks() {
        let q = broad_quotas(3, 25, &[3, 0, 0, 0, 0], &[10, 1, 1, 0, 1]);
        assert_eq!(q, [1, 1, 1, 0, 1]);
        let q = broad_quotas(10, 25, &[], &[2, 50]);
        assert_eq!(q, [2, 5]);
    }

    #[test]
    fn largest_remainder_is_deterministic() {
        assert_eq!(apportion(5, &[1, 1, 1]), [2, 2, 1]);
        assert_eq!(apportion(0, &[1, 2]), [0, 0]);
        assert_eq!(apportion(3, &[0, 0]), [2, 1]);
    }

    #[test]
    fn enrichment_split_by_retrieved_tokens() {
        assert_eq!(enrichment_total(50_000, 10), 5_000);
        assert_eq!(enrichment_budgets(5_000, &[300, 100, 0]), [3_750, 1_250, 0]);
        assert_eq!(enrichment_budgets(5_000, &[0, 0]), [0, 0]);
    }
}
