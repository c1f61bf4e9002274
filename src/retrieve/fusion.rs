//! Fusion of rankings: reciprocal-rank fusion (ranks only), and the BM25-anchored
//! convex combination of normalized scores ([`lexical_anchored_fusion`]) that hybrid
//! retrieval in [`crate::query`] uses.
//!
//! Reciprocal-rank fusion: cosine similarities and BM25 sums live on unrelated
//! scales, so scores are not combined; each list contributes `1 / (k + rank)` (rank
//! from 1) for every chunk it holds, and chunks are ordered by the sum. `k` damps the
//! weight of the very top ranks; 60 is the value from Cormack, Clarke and Büttcher
//! (SIGIR 2009), used by most search engines.

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
    ranked(sums, limit)
}

/// The reciprocal-rank hybrid: the fusion of `vector` and `lexical` with
/// [`DEFAULT_RRF_K`] when both are present, else whichever one is (its scores
/// unchanged), truncated to `limit` hits. Hybrid retrieval in [`crate::query`] and the
/// wasm `Collection.search` use [`anchored_hybrid`] instead.
pub fn hybrid(vector: Option<&[Hit]>, lexical: Option<&[Hit]>, limit: usize) -> Vec<Hit> {
    match (vector, lexical) {
        (Some(v), Some(l)) => reciprocal_rank_fusion(&[v, l], DEFAULT_RRF_K, limit),
        (Some(one), None) | (None, Some(one)) => one.iter().take(limit).cloned().collect(),
        (None, None) => Vec::new(),
    }
}

/// Weights of [`lexical_anchored_fusion`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnchoredFusion {
    /// The lexical (BM25) weight of the convex combination, 0 to 1; the cosine weight
    /// is `1 - lexical`.
    pub lexical: f32,
    /// The cosine floor as a share of the best cosine, 0 to 1: cosines at or below
    /// `floor x best` count nothing, the best counts 1, linearly between.
    pub floor: f32,
}

impl AnchoredFusion {
    /// The default weights: BM25 0.7, cosine 0.3, floor 0.7 of the best cosine.
    ///
    /// Measured on the evaluation set (62 questions of ten kinds, all-MiniLM-L6-v2):
    /// every pair with the lexical weight in 0.5 to 0.8 and the floor in 0.6 to 0.8
    /// kept BM25's complete evidence and answers on every kind at fewer tokens; a
    /// floor of 0.5 let enough near-ish chunks in to cost an answer, one of 0.9 (with
    /// a lexical weight up to 0.7) took the cosine part from BM25 hits that need it
    /// and cost a table's evidence. The default is the middle of the safe region,
    /// not the best point of it.
    pub const DEFAULT: AnchoredFusion = AnchoredFusion {
        lexical: 0.7,
        floor: 0.7,
    };
}

impl Default for AnchoredFusion {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Fuses a BM25 ranking and cosine similarities by a convex combination of normalized
/// scores, anchored on BM25, into at most `limit` hits, best first.
///
/// Each chunk in `lexical` or `vector` scores `w x bm25 / best_bm25 + (1 - w) x c`,
/// `c = clamp((cos - f x best_cos) / (best_cos - f x best_cos), 0, 1)`, with `w` =
/// [`AnchoredFusion::lexical`] and `f` = [`AnchoredFusion::floor`]; a chunk missing
/// from one list counts 0 there. Give both lists in full (every chunk in scope with
/// its cosine, every chunk sharing a word with its BM25 score), as the query
/// retriever does, and each chunk is fused with its real scores, whatever `limit`.
///
/// Why not reciprocal-rank fusion: RRF ([`reciprocal_rank_fusion`], Cormack et al.
/// 2009) discards the score distribution. With k = 60 the 40th rank still scores 60%
/// of the first, so a BM25 ranking with one decisive hit and a tail of chance matches
/// comes out flat, and every vector hit (cosine top-k always returns k chunks, related
/// or not) enters at the same weight as BM25's best. Readers of the scores (the
/// assembler's retrieval prior and document mass) then see no difference between
/// evidence and noise. Score fusion keeps the shape: Bruch, Gai and Ingber, "An
/// Analysis of Fusion Functions for Hybrid Retrieval" (ACM TOIS 42(1), 2023) find a
/// convex combination of normalized scores at least as good as RRF and more robust
/// across domains, normalizing each score by its observed maximum and a theoretical
/// minimum (their TM2C2). BM25's theoretical minimum is 0, so its part is
/// `bm25 / best`, the scale BM25 alone already gives its readers. Cosine has no usable
/// theoretical minimum for a sentence encoder (unrelated text scores well above 0 and
/// the spread between related and unrelated is narrow), so its floor is relative to
/// the best cosine of the question: only chunks near the nearest count, and the tail
/// of the cosine list adds nothing.
///
/// BM25 weighs more ([`AnchoredFusion::DEFAULT`]): a strong lexical match keeps its
/// rank (a BM25 hit at 1 outscores any chunk that is only near in cosine, at most
/// `1 - w`), agreement of both raises a chunk, and a chunk with no shared word is
/// admitted on cosine alone when it is among the nearest, beside BM25 hits of less
/// than `(1 - w) / w` of the best: what a paraphrase or another language needs.
/// Scores are in [0, 1]; ties go to the smaller `(doc, seq)`. Weights outside [0, 1]
/// or not finite are clamped (NaN: the default).
pub fn lexical_anchored_fusion(
    lexical: &[Hit],
    vector: &[Hit],
    weights: AnchoredFusion,
    limit: usize,
) -> Vec<Hit> {
    let clamp = |x: f32, d: f32| {
        if x.is_nan() {
            f64::from(d)
        } else {
            f64::from(x.clamp(0.0, 1.0))
        }
    };
    let w = clamp(weights.lexical, AnchoredFusion::DEFAULT.lexical);
    let f = clamp(weights.floor, AnchoredFusion::DEFAULT.floor);
    let best = |list: &[Hit]| {
        list.iter()
            .map(|h| f64::from(h.score))
            .filter(|s| s.is_finite())
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut sums: HashMap<&ChunkRef, f64> = HashMap::new();
    let best_lexical = best(lexical);
    if best_lexical > 0.0 {
        let mut seen = std::collections::HashSet::new();
        for h in lexical {
            let s = f64::from(h.score);
            if seen.insert(&h.chunk) && s.is_finite() && s > 0.0 && w > 0.0 {
                *sums.entry(&h.chunk).or_insert(0.0) += w * s / best_lexical;
            }
        }
    }
    let best_cos = best(vector);
    if best_cos > 0.0 {
        let floor = f * best_cos;
        let span = (best_cos - floor).max(f64::MIN_POSITIVE);
        let mut seen = std::collections::HashSet::new();
        for h in vector {
            let s = f64::from(h.score);
            if !seen.insert(&h.chunk) || !s.is_finite() {
                continue;
            }
            let v = if s >= best_cos {
                1.0
            } else {
                ((s - floor) / span).clamp(0.0, 1.0)
            };
            if v > 0.0 && w < 1.0 {
                *sums.entry(&h.chunk).or_insert(0.0) += (1.0 - w) * v;
            }
        }
    }
    ranked(sums, limit)
}

/// Hybrid retrieval's result from a BM25 ranking and cosine similarities (both in
/// full, as [`lexical_anchored_fusion`] asks): their fusion at
/// [`AnchoredFusion::DEFAULT`], or the cosine top `limit` alone when no chunk shares a
/// word with the question (`lexical` empty).
pub fn anchored_hybrid(lexical: &[Hit], mut vector: Vec<Hit>, limit: usize) -> Vec<Hit> {
    if lexical.is_empty() {
        vector.truncate(limit);
        return vector;
    }
    lexical_anchored_fusion(lexical, &vector, AnchoredFusion::DEFAULT, limit)
}

/// The fused sums as hits, best first (ties: smaller `(doc, seq)`), at most `limit`.
fn ranked(sums: HashMap<&ChunkRef, f64>, limit: usize) -> Vec<Hit> {
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
