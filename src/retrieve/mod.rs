//! Retrieval: a flat cosine vector index, a BM25 lexical index, and their fusion.
//!
//! - [`VectorIndex`]: exact cosine top-k over L2-normalized `f32` embeddings stored
//!   in fixed-size blocks, scanned with a SIMD128 dot product under wasm ([`dot`]).
//! - [`Bm25Index`]: the built-in retriever when there is no embedding provider; an
//!   inverted index over Unicode words and CJK bigrams ([`tokenize`]).
//! - [`fusion`]: reciprocal-rank fusion, and the BM25-anchored convex combination of
//!   normalized scores the query retriever uses when both exist.
//!
//! Both indexes return [`Hit`]s (a [`ChunkRef`] and a score) best first, break ties by
//! `(doc, seq)` so results never depend on insertion order, can restrict a search to a
//! set of documents, support removing a document, and persist as versioned bytes
//! ([`codec`]). Every failure is a [`RetrieveError`] with a stable code.

mod blocks;
pub mod bm25;
pub mod codec;
mod docs;
pub mod dot;
mod error;
pub mod fusion;
pub mod tokenize;
mod topk;
mod types;
pub mod vector;

pub use bm25::{Bm25Index, Bm25Params};
pub use error::RetrieveError;
pub use fusion::{
    AnchoredFusion, DEFAULT_RRF_K, anchored_hybrid, hybrid, lexical_anchored_fusion,
    reciprocal_rank_fusion,
};
pub use types::{ChunkRef, Hit};
pub use vector::VectorIndex;
