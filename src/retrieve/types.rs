//! What retrieval returns: a chunk reference and a scored hit.

use serde::Serialize;

/// One chunk of one document: the document id and the chunk's 0-based sequence number
/// (`ssSeq` in the chunk metadata).
///
/// Ordered by `(doc, seq)` (document id as a byte string, then sequence); retrieval
/// breaks score ties in this order so results never depend on insertion order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ChunkRef {
    /// The document id (`ssDocId`).
    pub doc: String,
    /// The chunk's 0-based position in its document (`ssSeq`).
    pub seq: u32,
}

impl ChunkRef {
    /// A reference to chunk `seq` of document `doc`.
    pub fn new(doc: impl Into<String>, seq: u32) -> Self {
        ChunkRef {
            doc: doc.into(),
            seq,
        }
    }
}

/// A retrieved chunk and its score. Higher is better; the scale depends on the
/// retriever: cosine similarity in [-1, 1] for the vector index, a non-negative BM25
/// sum for the lexical index, a reciprocal-rank sum or a 0-to-1 combination for fusion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// The chunk.
    pub chunk: ChunkRef,
    /// The score (higher is better).
    pub score: f32,
}

/// Sorts hits best first: score descending, then `(doc, seq)` ascending.
pub(crate) fn sort_hits(hits: &mut [Hit]) {
    crate::order::sort_by(hits, |a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.chunk.cmp(&b.chunk))
    });
}
