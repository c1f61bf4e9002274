//! A collection: the documents a question is asked over, their chunks, an enrichment
//! engine per document, the built-in BM25 index, and token totals.
//!
//! Token counts come from each chunk's `tokenCount` field (o200k_base tokens counted
//! once at conversion; chunks are never re-tokenized here). Character counts are
//! Unicode scalar values of the chunk texts.
//!
//! Chunk embeddings are optional and come from the caller
//! ([`Collection::add_embeddings`]); see [`super::embeddings`] for the one-model rule.

use crate::Conversion;
use crate::chunk::Chunk;
use crate::enrich::{DEFAULT_INDEX_PERCENT, Enricher};
use crate::retrieve::{Bm25Index, Hit};

use super::assemble::analyze::{lexical_query, name_terms};
use super::embeddings::{EmbeddingStore, set_document_vectors};
use super::error::QueryError;
use super::profile::Profile;

/// One document of a collection.
#[derive(Debug)]
pub struct Document {
    /// The document id (`ssDocId`).
    pub doc_id: String,
    /// The title.
    pub title: String,
    /// The chunks in order (`ssSeq` = index).
    pub chunks: Vec<Chunk>,
    /// The enrichment engine (None for a document without chunks).
    pub enricher: Option<Enricher>,
    /// Sum of the chunks' `tokenCount`, in tokens.
    pub tokens: usize,
    /// Characters (Unicode scalar values) of the full text, [`Document::full_text`].
    pub chars: usize,
    /// The language of its body text as an ISO 639-3 code ("eng", "rus"), detected
    /// when it joined ([`super::language::detect`]); None when none stands out.
    pub language: Option<&'static str>,
    /// What it holds as a whole (tables, tracked changes, comments, notes, parts,
    /// pages, authors), counted when it joined ([`Profile::of`]).
    pub profile: Profile,
    /// The name of the file it was added from, without folders (empty when unknown;
    /// [`Collection::set_file_name`]): a question may name a document by it.
    pub file_name: String,
    /// The index terms of the title as a name ([`name_terms`]: also split at `_`,
    /// `-`, `.` and case changes), sorted; kept so no question splits it again.
    pub title_terms: Vec<String>,
    /// The same of the file name.
    pub file_terms: Vec<String>,
}

/// The separator between chunks in a document's full text.
pub const CHUNK_SEPARATOR: &str = "\n\n";

impl Document {
    /// Tokens of chunk `seq` (its `tokenCount`), 0 when out of range.
    pub fn chunk_tokens(&self, seq: usize) -> usize {
        self.chunks
            .get(seq)
            .and_then(|c| c.metadata.get_int("tokenCount"))
            .and_then(|t| usize::try_from(t).ok())
            .unwrap_or(0)
    }

    /// The full text: every chunk's text, separated by [`CHUNK_SEPARATOR`].
    pub fn full_text(&self) -> String {
        let parts: Vec<&str> = self.chunks.iter().map(|c| c.text.as_str()).collect();
        parts.join(CHUNK_SEPARATOR)
    }
}

/// The documents a question is asked over, with their indexes.
#[derive(Debug, Default)]
pub struct Collection {
    docs: Vec<Document>,
    bm25: Bm25Index,
    embeddings: Option<EmbeddingStore>,
}

impl Collection {
    /// An empty collection.
    pub fn new() -> Self {
        Collection::default()
    }

    /// Adds a converted document: its chunks, an [`Enricher`] from its records, and
    /// its chunks in the BM25 index.
    ///
    /// # Errors
    /// [`QueryError::DuplicateDocument`] when a document with the same id is already
    /// in; [`QueryError::Indexing`] when the records or texts cannot be indexed.
    pub fn add(&mut self, conversion: Conversion) -> Result<(), QueryError> {
        let Conversion {
            doc_id,
            title,
            chunks,
            ..
        } = conversion;
        if self.position(&doc_id).is_some() {
            return Err(QueryError::DuplicateDocument { doc_id });
        }
        let indexing = |code: &str, detail: String| QueryError::Indexing {
            doc_id: doc_id.clone(),
            code: code.to_string(),
            detail,
        };
        let enricher = if chunks.is_empty() {
            None
        } else {
            let records: Vec<_> = chunks.iter().map(|c| c.metadata.clone()).collect();
            Some(Enricher::new(&records).map_err(|e| indexing(e.code(), e.to_string()))?)
        };
        for (seq, c) in chunks.iter().enumerate() {
            let seq = u32::try_from(seq)
                .map_err(|_| indexing("too-many-chunks", "more than 2^32 chunks".into()))?;
            self.bm25
                .add(&doc_id, seq, &c.text)
                .map_err(|e| indexing(e.code(), e.to_string()))?;
        }
        let language = super::language::detect(&chunks);
        let profile = Profile::of(&chunks);
        let title_terms = name_terms(&title);
        let mut doc = Document {
            doc_id,
            title,
            chunks,
            enricher,
            tokens: 0,
            chars: 0,
            language,
            profile,
            file_name: String::new(),
            title_terms,
            file_terms: Vec::new(),
        };
        doc.tokens = (0..doc.chunks.len()).map(|s| doc.chunk_tokens(s)).sum();
        let seps = doc.chunks.len().saturating_sub(1) * CHUNK_SEPARATOR.len();
        doc.chars = doc
            .chunks
            .iter()
            .map(|c| c.text.chars().count())
            .sum::<usize>()
            + seps;
        self.docs.push(doc);
        Ok(())
    }

    /// Records the file document `doc_id` was added from (`name` may hold folders;
    /// only the last component is kept). Returns whether the document is in the
    /// collection.
    pub fn set_file_name(&mut self, doc_id: &str, name: &str) -> bool {
        let Some(pos) = self.position(doc_id) else {
            return false;
        };
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let doc = &mut self.docs[pos];
        doc.file_name = base.to_string();
        doc.file_terms = name_terms(base);
        true
    }

    /// Removes document `doc_id`: its chunks, enrichment engine, BM25 postings and
    /// vectors. Returns whether it was in the collection. When the last vectors go,
    /// the collection no longer has an embedding model (another may be used next).
    pub fn remove(&mut self, doc_id: &str) -> bool {
        self.take(doc_id).is_some()
    }

    /// Removes document `doc_id` like [`Collection::remove`] and returns it (chunks,
    /// title), so a caller can add it back.
    pub fn take(&mut self, doc_id: &str) -> Option<Document> {
        let pos = self.position(doc_id)?;
        let doc = self.docs.remove(pos);
        self.bm25.remove_document(doc_id);
        if let Some(store) = self.embeddings.as_mut() {
            store.remove_document(doc_id);
            if store.is_empty() {
                self.embeddings = None;
            }
        }
        Some(doc)
    }

    /// Drops every document's vectors (for a switch to another embedding model).
    pub fn clear_embeddings(&mut self) {
        self.embeddings = None;
    }

    /// The documents, in the order they were added.
    pub fn documents(&self) -> &[Document] {
        &self.docs
    }

    /// The position of document `doc_id`.
    pub fn position(&self, doc_id: &str) -> Option<usize> {
        self.docs.iter().position(|d| d.doc_id == doc_id)
    }

    /// Total tokens of all chunks.
    pub fn total_tokens(&self) -> usize {
        self.docs.iter().map(|d| d.tokens).sum()
    }

    /// Total number of chunks.
    pub fn total_chunks(&self) -> usize {
        self.docs.iter().map(|d| d.chunks.len()).sum()
    }

    /// The `k` chunks that best match `question` (BM25), over the documents at
    /// `positions` only (all documents when `positions` covers them all). Best first.
    /// The question's stop words are left out of the ranking ([`lexical_query`]).
    pub fn search(&self, question: &str, k: usize, positions: &[usize]) -> Vec<Hit> {
        let question = &lexical_query(question);
        if positions.len() == self.docs.len() {
            return self.bm25.search(question, k);
        }
        let ids: Vec<&str> = positions
            .iter()
            .filter_map(|&p| self.docs.get(p))
            .map(|d| d.doc_id.as_str())
            .collect();
        self.bm25.search_in(question, k, &ids)
    }

    /// The BM25 inverse document frequency of index term `term` over every chunk of
    /// the collection ([`Bm25Index::idf`]).
    pub fn idf(&self, term: &str) -> f64 {
        self.bm25.idf(term)
    }

    /// Sets the embeddings of document `doc_id`'s chunks, computed by embedding model
    /// `model_id`: one vector per chunk in `ssSeq` order, all of one dimension
    /// (fixed by the collection's first vector). Replaces the document's earlier
    /// vectors. Vectors are stored L2-normalized, so any scale is fine.
    ///
    /// # Errors
    /// [`QueryError::UnknownDocument`] for an id not in the collection;
    /// [`QueryError::EmbeddingModel`] for another model than the collection's;
    /// [`QueryError::EmbeddingCount`] when there is not one vector per chunk;
    /// [`QueryError::EmbeddingDimension`] for a vector of another dimension;
    /// [`QueryError::Embedding`] for a non-finite or zero vector. Nothing changes on
    /// error.
    pub fn add_embeddings(
        &mut self,
        doc_id: &str,
        model_id: &str,
        vectors: &[Vec<f32>],
    ) -> Result<(), QueryError> {
        let chunks = self.chunk_count(doc_id)?;
        let rows = vectors.iter().map(Vec::as_slice);
        set_document_vectors(&mut self.embeddings, doc_id, model_id, chunks, rows)
    }

    /// As [`Collection::add_embeddings`], with the vectors in one flat array of
    /// `dim` components per chunk (a `Float32Array` from JS): `data.len()` must be
    /// chunks x `dim`.
    ///
    /// # Errors
    /// As [`Collection::add_embeddings`]; a `dim` of 0 is an
    /// [`QueryError::EmbeddingDimension`], and a length that is not a multiple of `dim`
    /// is one for the last, short vector.
    pub fn add_embeddings_flat(
        &mut self,
        doc_id: &str,
        model_id: &str,
        data: &[f32],
        dim: usize,
    ) -> Result<(), QueryError> {
        let chunks = self.chunk_count(doc_id)?;
        if dim == 0 {
            return Err(QueryError::EmbeddingDimension {
                expected: self.embeddings.as_ref().map_or(0, EmbeddingStore::dim),
                got: 0,
            });
        }
        let rows = data.chunks(dim);
        set_document_vectors(&mut self.embeddings, doc_id, model_id, chunks, rows)
    }

    /// The chunk embeddings, when any were added.
    pub fn embeddings(&self) -> Option<&EmbeddingStore> {
        self.embeddings.as_ref()
    }

    fn chunk_count(&self, doc_id: &str) -> Result<usize, QueryError> {
        self.docs
            .iter()
            .find(|d| d.doc_id == doc_id)
            .map(|d| d.chunks.len())
            .ok_or_else(|| QueryError::UnknownDocument {
                doc_id: doc_id.to_string(),
            })
    }

    /// The `k` chunks nearest `query` by cosine over the documents at `positions`
    /// (all documents when `positions` covers them all), best first; empty without
    /// embeddings. `query` must be a vector of the collection's model and dimension
    /// (checked by [`super::embeddings::check_vector`]; any other gives no hits).
    pub fn vector_search(&self, query: &[f32], k: usize, positions: &[usize]) -> Vec<Hit> {
        let Some(store) = &self.embeddings else {
            return Vec::new();
        };
        if positions.len() == self.docs.len() {
            return store.search(query, k, None);
        }
        let ids: Vec<&str> = positions
            .iter()
            .filter_map(|&p| self.docs.get(p))
            .map(|d| d.doc_id.as_str())
            .collect();
        store.search(query, k, Some(&ids))
    }

    /// The index document of the collection: each document's index entry (about
    /// `percent` of its tokens; the enrichment engine's default when None), separated
    /// by a blank line, in collection order, with the tokens of the result.
    pub fn index_document(&self, percent: Option<f64>) -> (String, usize) {
        let percent = percent.unwrap_or(DEFAULT_INDEX_PERCENT);
        let mut out = Vec::new();
        let mut tokens = 0usize;
        for d in &self.docs {
            if let Some(entry) = d
                .enricher
                .as_ref()
                .and_then(|e| e.index_document(percent).ok())
            {
                tokens += entry.tokens;
                out.push(entry.text());
            }
        }
        (out.join("\n\n"), tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConvertOptions, convert};

    fn conv(text: &str, id: &str) -> Conversion {
        let o = ConvertOptions::new()
            .with_doc_id(id)
            .unwrap()
            .with_file_name("a.md");
        convert(text.as_bytes(), &o).unwrap()
    }

    #[test]
    fn add_counts_and_searches() {
        let mut c = Collection::new();
        c.add(conv("# A\n\nApples are red.", "a")).unwrap();
        c.add(conv("# B\n\nBananas are yellow.", "b")).unwrap();
        assert_eq!(c.documents().len(), 2);
        assert!(c.total_tokens() > 0);
        assert_eq!(c.total_chunks(), 2);
        let hits = c.search("bananas", 5, &[0, 1]);
        assert_eq!(hits[0].chunk.doc, "b");
        assert!(c.search("bananas", 5, &[0]).is_empty());
        let d = &c.documents()[0];
        assert_eq!(d.chars, d.full_text().chars().count());
        let (index, tokens) = c.index_document(None);
        assert!(index.contains("(id: a)") && index.contains("(id: b)"));
        assert!(tokens > 0);
    }

    #[test]
    fn remove_takes_out_chunks_postings_and_vectors() {
        let mut c = Collection::new();
        c.add(conv("# A\n\nApples are red.", "a")).unwrap();
        c.add(conv("# B\n\nBananas are yellow.", "b")).unwrap();
        c.add_embeddings("b", "m", &[vec![1.0, 0.0]]).unwrap();
        assert!(c.remove("b"));
        assert!(!c.remove("b"));
        assert_eq!(c.documents().len(), 1);
        assert!(c.search("bananas", 5, &[0]).is_empty());
        assert!(c.embeddings().is_none());
        c.add_embeddings("a", "other-model", &[vec![0.0, 1.0]])
            .unwrap();
        assert_eq!(c.embeddings().unwrap().model_id(), "other-model");
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let mut c = Collection::new();
        c.add(conv("x", "same")).unwrap();
        let e = c.add(conv("y", "same")).unwrap_err();
        assert_eq!(e.code(), "duplicate-document");
    }
}
