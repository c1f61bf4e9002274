//! The retriever choice: BM25, cosine vectors, or both fused.
//!
//! BM25 over chunk text is the built-in default and always runs. When the options
//! carry a query embedding ([`super::QueryOptions::with_query_embedding`]) of the
//! model the collection holds vectors for ([`super::Collection::add_embeddings`]),
//! every search also scores every chunk of the same documents (the routed or broad
//! set, exactly as BM25) by cosine, and every chunk's BM25 score and cosine are
//! fused with [`crate::retrieve::lexical_anchored_fusion`] at its default weights: a
//! convex combination of BM25 over its best (weight 0.7) and cosine above 0.7 of the
//! best cosine (weight 0.3), so BM25's strong hits keep their ranks and their score
//! shape (which the assembler reads as a prior and as document mass), and chunks that
//! share no word with the question are admitted when they are among the nearest in
//! cosine.
//! Reciprocal-rank fusion, used before, flattened BM25's scores and let the unrelated
//! tail of the cosine list in; on the evaluation set with all-MiniLM-L6-v2 it lost
//! evidence and answers against BM25 alone, which the anchored fusion does not (see
//! the function's docs for the rule and its source). A search where BM25 finds
//! nothing (no shared word) returns the cosine top-k alone, and one where the
//! documents in scope have no vectors returns the BM25 hits alone. Scores are then
//! the fused scores (0 to 1), cosine similarities or BM25 sums respectively; only
//! their order and their ratio to the best within one question matter.

use std::cell::Cell;

use serde::Serialize;

use crate::retrieve::{Hit, anchored_hybrid};

use super::collection::Collection;
use super::embeddings::check_vector;
use super::error::QueryError;
use super::options::QueryOptions;

/// Which retrieval ran for a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Retrieval {
    /// BM25 alone.
    Bm25,
    /// Cosine top-k alone (BM25 found nothing).
    Vector,
    /// BM25 and cosine, fused by [`crate::retrieve::lexical_anchored_fusion`].
    Hybrid,
}

impl Retrieval {
    /// `"bm25"`, `"vector"` or `"hybrid"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Retrieval::Bm25 => "bm25",
            Retrieval::Vector => "vector",
            Retrieval::Hybrid => "hybrid",
        }
    }
}

/// Runs the searches of one question with the retriever its options allow, and
/// remembers which ran.
#[derive(Debug)]
pub struct Retriever<'a> {
    collection: &'a Collection,
    question: &'a str,
    /// The query vector, when the collection has vectors of its model.
    query: Option<&'a [f32]>,
    /// Why a given query embedding is not used (None: used, or none given).
    unused: Option<String>,
    given: bool,
    vector_ran: Cell<bool>,
    lexical_ran: Cell<bool>,
}

impl<'a> Retriever<'a> {
    /// The retriever for `question` over `collection` with `options`' query
    /// embedding, if any.
    ///
    /// # Errors
    /// When the collection holds vectors of the embedding's model:
    /// [`QueryError::EmbeddingDimension`] for a vector of another dimension,
    /// [`QueryError::Embedding`] for a non-finite or zero vector.
    pub fn new(
        collection: &'a Collection,
        question: &'a str,
        options: &'a QueryOptions,
    ) -> Result<Self, QueryError> {
        let mut r = Retriever {
            collection,
            question,
            query: None,
            unused: None,
            given: options.query_embedding.is_some(),
            vector_ran: Cell::new(false),
            lexical_ran: Cell::new(false),
        };
        if let Some(qe) = &options.query_embedding {
            match collection.embeddings() {
                Some(store) if store.model_id() == qe.model_id && !store.is_empty() => {
                    check_vector(&qe.vector, store.dim(), None)?;
                    r.query = Some(qe.vector.as_slice());
                }
                Some(store) => {
                    r.unused = Some(format!(
                        "the collection holds vectors of model {:?}, not {:?}",
                        store.model_id(),
                        qe.model_id
                    ));
                }
                None => r.unused = Some("the collection holds no vectors".into()),
            }
        }
        Ok(r)
    }

    /// The collection searched.
    pub fn collection(&self) -> &'a Collection {
        self.collection
    }

    /// The `k` best chunks of the documents at `positions` (all documents when
    /// `positions` covers them all), best first.
    pub fn search(&self, k: usize, positions: &[usize]) -> Vec<Hit> {
        let lexical = self.collection.search(self.question, k, positions);
        let Some(q) = self.query else {
            self.lexical_ran.set(true);
            return lexical;
        };
        // Every chunk in scope with its cosine and every chunk sharing a word with its
        // BM25 score: each chunk is fused with both its real scores, not with none
        // where it fell outside one list's top-k, so the fused ranking does not
        // depend on k (a smaller k gives a prefix of a larger one).
        let in_scope: usize = positions
            .iter()
            .filter_map(|&p| self.collection.documents().get(p))
            .map(|d| d.chunks.len())
            .sum::<usize>()
            .max(k);
        let vector = self.collection.vector_search(q, in_scope, positions);
        if vector.is_empty() {
            self.lexical_ran.set(true);
            return lexical;
        }
        let lexical = if lexical.len() < k {
            lexical
        } else {
            self.collection.search(self.question, in_scope, positions)
        };
        self.vector_ran.set(true);
        if !lexical.is_empty() {
            self.lexical_ran.set(true);
        }
        anchored_hybrid(&lexical, vector, k)
    }

    /// Which retrieval ran over the searches so far: None when the options carry no
    /// query embedding (BM25 as always) or no search ran.
    pub fn retrieval(&self) -> Option<Retrieval> {
        if !self.given {
            return None;
        }
        match (self.vector_ran.get(), self.lexical_ran.get()) {
            (true, true) => Some(Retrieval::Hybrid),
            (true, false) => Some(Retrieval::Vector),
            (false, true) => Some(Retrieval::Bm25),
            (false, false) => None,
        }
    }

    /// The retrieval for the accounting reason (`"; retrieval: hybrid ..."`), empty
    /// when [`Retriever::retrieval`] is None.
    pub fn reason(&self) -> String {
        let Some(kind) = self.retrieval() else {
            return String::new();
        };
        let how = match kind {
            Retrieval::Hybrid => "BM25 and cosine, BM25-anchored score fusion",
            Retrieval::Vector => "cosine top-k (BM25 found no shared word)",
            Retrieval::Bm25 => match &self.unused {
                Some(why) => why.as_str(),
                None => "the documents in scope have no vectors",
            },
        };
        format!("; retrieval: {} ({how})", kind.as_str())
    }
}
