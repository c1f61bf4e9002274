//! Reciprocal-rank fusion: one ranking from several, using ranks only.
//!
//! Cosine similarities and BM25 sums live on unrelated scales, so scores are not
//! combined; each list contributes `1 / (k + rank)` (rank from 1) for every chunk it
//! holds, and chunks are ordered by the sum. `k` damps the weight of the very top
//! ranks; 60 is the value from Cormack, Clarke and Büttcher (SIGIR 2009), used by
//! most search engines.

use std::collections::HashMap;

use super::types::sort_hits;
use super::{ChunkRef, Hit};

/// The default `k` of reciprocal-rank fusion.
pub const DEFAULT_RRF_K: f32 = 60.0;

/// Fuses ranked lists (each best first) into one of at most `limit` hits, best first;
/// the score is the reciprocal-rank sum, ties go to the smaller `(doc, seq)`. A chunk
/// repeated inside one list counts at its best rank only. `k` below 0 or not finite is
/// treated as [`DEFAULT_RRF_K`].
pub fn reciprocal_rank_fusion(lists: &[&[Hit]], k: f32, limit: usize) -> Vec<Hit> {
    let k = if k.is_finite() && k >= 0.0 {
        f64::from(k)
    } else {
        f64::from(DEFAULT_RRF_K)
    };
    let mut sums: HashMap<&ChunkRef, f64> = HashMap::new();
    for list in lists {
        let mut seen = std::collections::HashSet::new();
        for (i, hit) in list.iter().enumerate() {
            if seen.insert(&hit.chunk) {
                *sums.entry(&hit.chunk).or_insert(0.0) += 1.0 / (k + (i + 1) as f64);
            }
        }
    }
    let mut hits: Vec<Hit> = sums
        .into_iter()
        .map(|(chunk, s)| Hit {
            chunk: chunk.clone(),
            score: s as f32,
        })
        .collect();
    sort_hits(&mut hits);
    hits.truncate(limit);
    hits
}

/// The hybrid result: the fusion of `vector` and `lexical` with [`DEFAULT_RRF_K`] when
/// both are present, else whichever one is (its scores unchanged), truncated to
/// `limit` hits.
pub fn hybrid(vector: Option<&[Hit]>, lexical: Option<&[Hit]>, limit: usize) -> Vec<Hit> {
    match (vector, lexical) {
        (Some(v), Some(l)) => reciprocal_rank_fusion(&[v, l], DEFAULT_RRF_K, limit),
        (Some(one), None) | (None, Some(one)) => one.iter().take(limit).cloned().collect(),
        (None, None) => Vec::new(),
    }
}
