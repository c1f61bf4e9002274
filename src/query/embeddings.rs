//! Chunk embeddings of a collection: one embedding model per collection, its vectors
//! in one [`VectorIndex`].
//!
//! Sans-IO: the caller runs the embedding model (in the browser, a worker or a
//! provider API) and hands the vectors in; the core never calls a provider. One
//! model per collection is what a browser app needs (documents and questions must be
//! embedded by the same model to be comparable); the model id is a caller-chosen
//! label (e.g. `"text-embedding-3-small"`) checked on every call so vectors of two
//! models are never mixed. The dimension is fixed by the first vector added.

use crate::retrieve::{Hit, RetrieveError, VectorIndex};

use super::error::QueryError;

/// The vectors of one embedding model.
#[derive(Debug, Clone)]
pub struct EmbeddingStore {
    model_id: String,
    index: VectorIndex,
}

impl EmbeddingStore {
    /// The embedding model's id.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// The dimension of every vector, in `f32` components.
    pub fn dim(&self) -> usize {
        self.index.dim()
    }

    /// The number of chunk vectors held.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no vectors are held.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Removes document `doc_id`'s vectors; returns how many were removed.
    pub fn remove_document(&mut self, doc_id: &str) -> usize {
        self.index.remove_document(doc_id)
    }

    /// The index of the vectors (for persistence or direct searches).
    pub fn index(&self) -> &VectorIndex {
        &self.index
    }

    /// The `k` chunks of the documents `ids` nearest `query` by cosine, best first;
    /// all documents when `ids` is None. `query` must have passed [`check_vector`]
    /// (a vector that did not gives no hits).
    pub fn search(&self, query: &[f32], k: usize, ids: Option<&[&str]>) -> Vec<Hit> {
        let found = match ids {
            None => self.index.search(query, k),
            Some(ids) => self.index.search_in(query, k, ids),
        };
        found.unwrap_or_default()
    }
}

/// Sets the vectors of document `doc_id` (one per chunk, `chunks` of them, in `ssSeq`
/// order) in `store`, creating the store for `model_id` when there is none and
/// replacing the document's earlier vectors. Every vector is checked before anything
/// changes, so on error `store` is as it was (except for a full index, where
/// the document is left without vectors).
///
/// # Errors
/// [`QueryError::EmbeddingModel`] when `store` holds another model's vectors;
/// [`QueryError::EmbeddingCount`] when the number of vectors is not `chunks`;
/// [`QueryError::EmbeddingDimension`] when a vector's length differs from the store's
/// dimension (or from the first vector's, for a new store);
/// [`QueryError::Embedding`] for an empty, non-finite or zero vector (the code is the
/// retrieval error's: `invalid-dimension`, `non-finite-vector`, `zero-vector`).
pub fn set_document_vectors<'v>(
    store: &mut Option<EmbeddingStore>,
    doc_id: &str,
    model_id: &str,
    chunks: usize,
    vectors: impl ExactSizeIterator<Item = &'v [f32]> + Clone,
) -> Result<(), QueryError> {
    if let Some(s) = store.as_ref()
        && s.model_id != model_id
    {
        return Err(QueryError::EmbeddingModel {
            expected: s.model_id.clone(),
            got: model_id.to_string(),
        });
    }
    if vectors.len() != chunks {
        return Err(QueryError::EmbeddingCount {
            doc_id: doc_id.to_string(),
            expected: chunks,
            got: vectors.len(),
        });
    }
    let dim = match (store.as_ref(), vectors.clone().next()) {
        (Some(s), _) => s.dim(),
        (None, Some(first)) => first.len(),
        (None, None) => return Ok(()),
    };
    for (seq, v) in vectors.clone().enumerate() {
        check_vector(v, dim, Some((doc_id, seq)))?;
    }
    let mut fresh = match store.take() {
        Some(s) => s,
        None => EmbeddingStore {
            model_id: model_id.to_string(),
            index: VectorIndex::new(dim).map_err(|e| embedding(&e, Some((doc_id, 0))))?,
        },
    };
    fresh.index.remove_document(doc_id);
    for (seq, v) in vectors.enumerate() {
        let added = u32::try_from(seq)
            .map_err(|_| RetrieveError::Full)
            .and_then(|s| fresh.index.add(doc_id, s, v));
        if let Err(e) = added {
            // Only a full index gets here (every vector was checked): the document
            // is left without vectors rather than with some of them.
            fresh.index.remove_document(doc_id);
            *store = Some(fresh);
            return Err(embedding(&e, Some((doc_id, seq))));
        }
    }
    *store = Some(fresh);
    Ok(())
}

/// Checks that `v` can be searched with or stored in a `dim`-dimensional index:
/// length `dim`, every component finite, not all zeros. `at` names the document and
/// chunk for the error (None for a query vector).
///
/// # Errors
/// [`QueryError::EmbeddingDimension`] for another length; [`QueryError::Embedding`]
/// with code `non-finite-vector` or `zero-vector`.
pub fn check_vector(v: &[f32], dim: usize, at: Option<(&str, usize)>) -> Result<(), QueryError> {
    if v.len() != dim || dim == 0 {
        return Err(QueryError::EmbeddingDimension {
            expected: dim,
            got: v.len(),
        });
    }
    if let Some(index) = v.iter().position(|x| !x.is_finite()) {
        return Err(embedding(&RetrieveError::NonFinite { index }, at));
    }
    let norm2: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
    if norm2.sqrt() <= f64::from(f32::MIN_POSITIVE) {
        return Err(embedding(&RetrieveError::ZeroVector, at));
    }
    Ok(())
}

fn embedding(e: &RetrieveError, at: Option<(&str, usize)>) -> QueryError {
    QueryError::Embedding {
        doc_id: at.map(|(d, _)| d.to_string()),
        seq: at.map(|(_, s)| s),
        code: e.code(),
        detail: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[Vec<f32>]) -> impl ExactSizeIterator<Item = &[f32]> + Clone {
        v.iter().map(Vec::as_slice)
    }

    #[test]
    fn checked_before_anything_changes() {
        let mut s = None;
        let good = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        set_document_vectors(&mut s, "a", "m", 2, rows(&good)).unwrap();
        assert_eq!(s.as_ref().unwrap().len(), 2);
        let e = set_document_vectors(&mut s, "b", "other", 2, rows(&good)).unwrap_err();
        assert_eq!(e.code(), "embedding-model-mismatch");
        let e = set_document_vectors(&mut s, "b", "m", 3, rows(&good)).unwrap_err();
        assert_eq!(e.code(), "embedding-count-mismatch");
        let bad = vec![vec![1.0, 0.0, 0.0]];
        let e = set_document_vectors(&mut s, "b", "m", 1, rows(&bad)).unwrap_err();
        assert_eq!(e.code(), "dimension-mismatch");
        let zero = vec![vec![0.0, 0.0]];
        let e = set_document_vectors(&mut s, "a", "m", 1, rows(&zero)).unwrap_err();
        assert_eq!(e.code(), "zero-vector");
        let nan = vec![vec![f32::NAN, 0.0]];
        let e = set_document_vectors(&mut s, "a", "m", 1, rows(&nan)).unwrap_err();
        assert_eq!(e.code(), "non-finite-vector");
        assert_eq!(s.as_ref().unwrap().len(), 2);
        // Replacing a document's vectors.
        set_document_vectors(&mut s, "a", "m", 1, rows(&good[..1])).unwrap();
        let s = s.unwrap();
        assert_eq!(s.len(), 1);
        let hits = s.search(&[0.0, 1.0], 5, None);
        assert_eq!(hits.len(), 1);
        assert!(s.search(&[1.0, 0.0], 5, Some(&["b"])).is_empty());
    }
}
