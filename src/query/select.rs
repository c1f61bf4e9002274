//! Selection: which chunks of which documents go into the context, for a pointed or
//! a broad question, with enrichment.
//!
//! Searches go through a [`Retriever`] (BM25, cosine vectors, or both fused).
//! Pointed: one top-k search over the documents in scope. Broad: the same first
//! search, then per-document quotas from [`super::distribute::broad_quotas`] and one
//! search per document with its quota; a document whose search returns fewer chunks
//! than its quota (BM25 returns only chunks sharing a term with the question) is
//! filled up with its first chunks, so every document is represented. Then each
//! document with retrieved chunks is expanded by its [`crate::enrich::Enricher`]
//! (`add_related_chunks`: complete tables, revision runs and comment runs) within
//! its share of the enrichment budget.

use std::collections::BTreeMap;

use crate::enrich::RelatedOptions;

use super::collection::Collection;
use super::distribute::{broad_quotas, enrichment_budgets, enrichment_total};
use super::retriever::Retriever;
use super::route::Scope;

/// One chunk chosen for the context.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pick {
    /// The document's position in the collection.
    pub doc: usize,
    /// The chunk's sequence number.
    pub seq: usize,
    /// Its retrieval score (0 for chunks added by enrichment, filling or sending
    /// whole documents).
    pub score: f64,
    /// Whether retrieval found it (false: enrichment, filling, whole documents).
    pub retrieved: bool,
}

/// The chosen chunks and their tokens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Chunks in collection order (document position, then sequence).
    pub picks: Vec<Pick>,
    /// Tokens of retrieved chunks (and filled chunks).
    pub retrieval_tokens: usize,
    /// Tokens enrichment added.
    pub enrichment_tokens: usize,
}

/// Every chunk of the documents at `docs`.
pub fn whole_documents(c: &Collection, docs: &[usize]) -> Selection {
    let mut s = Selection::default();
    for &d in docs {
        let Some(doc) = c.documents().get(d) else {
            continue;
        };
        for seq in 0..doc.chunks.len() {
            s.picks.push(Pick {
                doc: d,
                seq,
                score: 0.0,
                retrieved: false,
            });
        }
        s.retrieval_tokens += doc.tokens;
    }
    s
}

/// Retrieves `k` chunks (pointed) or distributes `k` over `docs` (broad) with `r`
/// (BM25, vectors or both; every per-document search uses the same choice), then
/// enriches with `enrichment_percent` of the collection's tokens.
pub fn retrieve(
    r: &Retriever<'_>,
    docs: &[usize],
    k: usize,
    scope: Scope,
    coverage_percent: u32,
    enrichment_percent: u32,
) -> Selection {
    // doc position -> seq -> score
    let mut found: BTreeMap<usize, BTreeMap<usize, f64>> = BTreeMap::new();
    let c = r.collection();
    let first = r.search(k, docs);
    let record =
        |found: &mut BTreeMap<usize, BTreeMap<usize, f64>>, doc: &str, seq: u32, score: f32| {
            if let Some(d) = c.position(doc) {
                found
                    .entry(d)
                    .or_default()
                    .insert(seq as usize, f64::from(score));
            }
        };
    match scope {
        Scope::Pointed => {
            for h in &first {
                record(&mut found, &h.chunk.doc, h.chunk.seq, h.score);
            }
        }
        Scope::Broad => {
            let hits: Vec<usize> = docs
                .iter()
                .map(|&d| {
                    let id = c.documents().get(d).map_or("", |x| x.doc_id.as_str());
                    first.iter().filter(|h| h.chunk.doc == id).count()
                })
                .collect();
            let chunks: Vec<usize> = docs
                .iter()
                .map(|&d| c.documents().get(d).map_or(0, |x| x.chunks.len()))
                .collect();
            let quotas = broad_quotas(k, coverage_percent, &hits, &chunks);
            for ((&d, &quota), &n) in docs.iter().zip(&quotas).zip(&chunks) {
                if quota == 0 {
                    continue;
                }
                for h in r.search(quota, &[d]) {
                    record(&mut found, &h.chunk.doc, h.chunk.seq, h.score);
                }
                let got = found.entry(d).or_default();
                let mut seq = 0usize;
                while got.len() < quota && seq < n {
                    got.entry(seq).or_insert(0.0);
                    seq += 1;
                }
            }
        }
    }
    enrich(c, found, enrichment_percent)
}

/// Expands each document's retrieved chunks with its enricher.
fn enrich(
    c: &Collection,
    found: BTreeMap<usize, BTreeMap<usize, f64>>,
    enrichment_percent: u32,
) -> Selection {
    let retrieved: Vec<usize> = found
        .iter()
        .map(|(&d, seqs)| match c.documents().get(d) {
            Some(doc) => seqs.keys().map(|&s| doc.chunk_tokens(s)).sum(),
            None => 0,
        })
        .collect();
    let budgets = enrichment_budgets(
        enrichment_total(c.total_tokens(), enrichment_percent),
        &retrieved,
    );
    let mut sel = Selection {
        retrieval_tokens: retrieved.iter().sum(),
        ..Selection::default()
    };
    for ((d, seqs), budget) in found.into_iter().zip(budgets) {
        let Some(doc) = c.documents().get(d) else {
            continue;
        };
        let anchors: Vec<i64> = seqs.keys().map(|&s| s as i64).collect();
        let mut members: Vec<usize> = seqs.keys().copied().collect();
        if let Some(exp) = doc.enricher.as_ref().and_then(|e| e.expand(&anchors).ok()) {
            let mut exp = exp;
            exp.add_related_chunks(&RelatedOptions::new(budget as u64));
            sel.enrichment_tokens += usize::try_from(exp.enrichment_tokens()).unwrap_or(usize::MAX);
            members = exp.expanded().into_iter().map(|s| s as usize).collect();
        }
        for seq in members {
            let score = seqs.get(&seq).copied();
            sel.picks.push(Pick {
                doc: d,
                seq,
                score: score.unwrap_or(0.0),
                retrieved: score.is_some(),
            });
        }
    }
    sel
}
