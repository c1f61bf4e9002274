//! The retriever choice: BM25, cosine vectors, or both fused.
//!
//! BM25 over chunk text is the built-in default and always runs. When the options
//! carry a query embedding ([`super::QueryOptions::with_query_embedding`]) of the
//! model the collection holds vectors for ([`super::Collection::add_embeddings`]),
//! every search also runs cosine top-k over the same documents (the routed or broad
//! set, exactly as BM25) and the two rankings are fused with
//! [`crate::retrieve::hybrid`] (reciprocal-rank fusion, k = 60); a search where BM25
//! finds nothing (no shared word) returns the vector hits alone, and one where the
//! documents in scope have no vectors returns the BM25 hits alone. Scores are then
//! the fused reciprocal-rank sums, cosine similarities or BM25 sums respectively; only
//! their order within one question matters.

use std::cell::Cell;

use serde::Serialize;

use crate::retrieve::{Hit, hybrid};

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
    /// Cosine top-k and BM25, fused by reciprocal rank.
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
        let vector = self.collection.vector_search(q, k, positions);
        match (vector.is_empty(), lexical.is_empty()) {
            (true, _) => {
                self.lexical_ran.set(true);
                lexical
            }
            (false, true) => {
                self.vector_ran.set(true);
                vector
            }
            (false, false) => {
                self.vector_ran.set(true);
                self.lexical_ran.set(true);
                hybrid(Some(&vector), Some(&lexical), k)
            }
        }
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
            Retrieval::Hybrid => "cosine top-k and BM25, reciprocal-rank fusion",
            Retrieval::Vector => "cosine top-k (BM25 found no shared word)",
            Retrieval::Bm25 => match &self.unused {
                Some(why) => why.as_str(),
                None => "the documents in scope have no vectors",
            },
        };
        format!("; retrieval: {} ({how})", kind.as_str())
    }
}
