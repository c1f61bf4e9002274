//! The BM25 lexical index over chunk text: docrag's built-in retriever when no
//! embedding provider is configured.
//!
//! Score of chunk `c` for query terms `t` (each distinct term counted once):
//! `sum idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(c) / avglen))` with
//! `idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))` (the always-positive Lucene form),
//! `tf` the term's count in the chunk, `len` the chunk's term count, `N` and `avglen`
//! over every chunk in the index (also when a search is restricted to some documents,
//! so a chunk's score does not depend on the restriction). Terms come from
//! [`super::tokenize`]. Postings are kept per term in insertion order.

use std::collections::HashMap;

use super::codec::{Reader, Writer};
use super::docs::DocTable;
use super::tokenize::tokenize;
use super::topk::TopK;
use super::{ChunkRef, Hit, RetrieveError};

const MAGIC: &[u8; 4] = b"DRBM";
/// The persisted format version [`Bm25Index::to_bytes`] writes.
/// Version 2: numbers with a zero decimal part are also indexed as whole numbers
/// ([`super::tokenize`]), so an index of version 1 holds other terms.
pub const BM25_FORMAT_VERSION: u16 = 2;
const KIND: &str = "BM25";

/// BM25's two knobs. The defaults (`k1` 1.2, `b` 0.75) are the usual ones from the
/// literature and Lucene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bm25Params {
    /// Term-frequency saturation: 0 ignores repeats, larger values reward them longer.
    /// Default 1.2; any finite value >= 0.
    pub k1: f32,
    /// Length normalization: 0 none, 1 full. Default 0.75; in [0, 1].
    pub b: f32,
}

impl Default for Bm25Params {
    fn default() -> Self {
        Bm25Params { k1: 1.2, b: 0.75 }
    }
}

impl Bm25Params {
    fn validate(self) -> Result<Self, RetrieveError> {
        if !(self.k1.is_finite() && self.k1 >= 0.0) {
            return Err(RetrieveError::InvalidParameter {
                name: "k1",
                value: f64::from(self.k1),
                detail: "must be a finite number >= 0",
            });
        }
        if !(0.0..=1.0).contains(&self.b) {
            return Err(RetrieveError::InvalidParameter {
                name: "b",
                value: f64::from(self.b),
                detail: "must be between 0 and 1",
            });
        }
        Ok(self)
    }
}

#[derive(Debug, Clone)]
struct Chunk {
    doc: u32,
    seq: u32,
    /// Terms in the chunk, counted with repeats.
    len: u32,
    /// `(term id, count)` per distinct term.
    terms: Vec<(u32, u32)>,
}

/// An inverted index of chunk text with BM25 ranking and incremental add/remove.
#[derive(Debug, Clone, Default)]
pub struct Bm25Index {
    params: Bm25Params,
    docs: DocTable,
    vocab: HashMap<String, u32>,
    terms: Vec<String>,
    /// Per term id: `(chunk slot, count)` in slot order.
    postings: Vec<Vec<(u32, u32)>>,
    /// Chunk slots; `None` once removed.
    chunks: Vec<Option<Chunk>>,
    slots: HashMap<(u32, u32), u32>,
    total_len: u64,
}

impl Bm25Index {
    /// An empty index with the default parameters.
    pub fn new() -> Self {
        Bm25Index::default()
    }

    /// An empty index with `params`.
    ///
    /// # Errors
    /// [`RetrieveError::InvalidParameter`] when `k1` is negative or not finite, or
    /// `b` is outside [0, 1].
    pub fn with_params(params: Bm25Params) -> Result<Self, RetrieveError> {
        Ok(Bm25Index {
            params: params.validate()?,
            ..Bm25Index::default()
        })
    }

    /// The parameters in use.
    pub fn params(&self) -> Bm25Params {
        self.params
    }

    /// The number of chunks held.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the index holds no chunks.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Indexes the text of chunk `seq` of document `doc`.
    ///
    /// # Errors
    /// [`RetrieveError::DuplicateChunk`] when `(doc, seq)` is already in the index;
    /// [`RetrieveError::Full`] past `u32::MAX` chunks, terms or documents.
    pub fn add(&mut self, doc: &str, seq: u32, text: &str) -> Result<(), RetrieveError> {
        if let Some(id) = self.docs.get(doc)
            && self.slots.contains_key(&(id, seq))
        {
            return Err(RetrieveError::DuplicateChunk {
                doc: doc.to_string(),
                seq,
            });
        }
        let mut counts: HashMap<String, u32> = HashMap::new();
        for term in tokenize(text) {
            *counts.entry(term).or_insert(0) += 1;
        }
        let mut sorted: Vec<(String, u32)> = counts.into_iter().collect();
        crate::order::sort(&mut sorted);
        let doc_id = self.docs.intern(doc)?;
        self.insert(doc_id, seq, sorted.iter().map(|(t, n)| (t.as_str(), *n)))
    }

    fn insert<'t>(
        &mut self,
        doc: u32,
        seq: u32,
        counts: impl Iterator<Item = (&'t str, u32)>,
    ) -> Result<(), RetrieveError> {
        let slot = u32::try_from(self.chunks.len()).map_err(|_| RetrieveError::Full)?;
        let mut terms = Vec::new();
        let mut len = 0u32;
        for (term, n) in counts {
            let id = match self.vocab.get(term) {
                Some(&id) => id,
                None => {
                    let id = u32::try_from(self.terms.len()).map_err(|_| RetrieveError::Full)?;
                    self.vocab.insert(term.to_string(), id);
                    self.terms.push(term.to_string());
                    self.postings.push(Vec::new());
                    id
                }
            };
            self.postings[id as usize].push((slot, n));
            terms.push((id, n));
            len = len.saturating_add(n);
        }
        self.total_len += u64::from(len);
        self.chunks.push(Some(Chunk {
            doc,
            seq,
            len,
            terms,
        }));
        self.slots.insert((doc, seq), slot);
        Ok(())
    }

    /// Removes every chunk of document `doc`; returns how many were removed (0 when
    /// the document is unknown).
    pub fn remove_document(&mut self, doc: &str) -> usize {
        let Some(id) = self.docs.get(doc) else {
            return 0;
        };
        let mut removed = 0;
        for slot in 0..self.chunks.len() {
            if !matches!(&self.chunks[slot], Some(c) if c.doc == id) {
                continue;
            }
            if let Some(chunk) = self.chunks[slot].take() {
                for &(term, _) in &chunk.terms {
                    self.postings[term as usize].retain(|&(s, _)| s as usize != slot);
                }
                self.total_len -= u64::from(chunk.len);
                self.slots.remove(&(chunk.doc, chunk.seq));
                removed += 1;
            }
        }
        removed
    }

    /// The `k` chunks that best match `query`, best first; ties go to the smaller
    /// `(doc, seq)`. Chunks sharing no term with the query are never returned.
    pub fn search(&self, query: &str, k: usize) -> Vec<Hit> {
        self.rank(query, k, None::<&[&str]>)
    }

    /// As [`Bm25Index::search`], over the chunks of the documents in `docs` only.
    pub fn search_in<S: AsRef<str>>(&self, query: &str, k: usize, docs: &[S]) -> Vec<Hit> {
        self.rank(query, k, Some(docs))
    }

    /// The inverse document frequency of index term `term` (a term as
    /// [`super::tokenize`] writes it) over every chunk in the index, in the module's
    /// Lucene form; a term no chunk holds gets the largest value (df = 0), so a rare
    /// word of a question weighs as much as it can. 0 for an empty index.
    pub fn idf(&self, term: &str) -> f64 {
        let n = self.slots.len() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let df = self
            .vocab
            .get(term)
            .map_or(0.0, |&id| self.postings[id as usize].len() as f64);
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    fn rank<S: AsRef<str>>(&self, query: &str, k: usize, docs: Option<&[S]>) -> Vec<Hit> {
        let n = self.slots.len() as f64;
        if n == 0.0 || k == 0 {
            return Vec::new();
        }
        let mask = self.docs.mask(docs);
        let avg = (self.total_len as f64 / n).max(1.0);
        let (k1, b) = (f64::from(self.params.k1), f64::from(self.params.b));
        let mut terms = tokenize(query);
        crate::order::sort(&mut terms);
        terms.dedup();
        let mut scores = vec![0.0f64; self.chunks.len()];
        let mut touched = Vec::new();
        for term in &terms {
            let Some(&id) = self.vocab.get(term) else {
                continue;
            };
            let postings = &self.postings[id as usize];
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(slot, tf) in postings {
                let Some(chunk) = &self.chunks[slot as usize] else {
                    continue;
                };
                if mask.as_ref().is_some_and(|m| !m[chunk.doc as usize]) {
                    continue;
                }
                let tf = f64::from(tf);
                let norm = k1 * (1.0 - b + b * f64::from(chunk.len) / avg);
                if scores[slot as usize] == 0.0 {
                    touched.push(slot);
                }
                scores[slot as usize] += idf * tf * (k1 + 1.0) / (tf + norm);
            }
        }
        let ranks = self.docs.ranks();
        let mut top = TopK::new(k);
        for slot in touched {
            if let Some(c) = &self.chunks[slot as usize] {
                top.offer(scores[slot as usize] as f32, || {
                    (ranks[c.doc as usize], c.seq, c.doc)
                });
            }
        }
        top.into_sorted()
            .into_iter()
            .map(|e| Hit {
                chunk: ChunkRef::new(self.docs.name(e.key.2), e.key.1),
                score: e.score,
            })
            .collect()
    }

    /// The persisted form: magic `DRBM`, format version (`u16`), `k1` and `b` (`f32`),
    /// the document ids, the terms, then per chunk its document, sequence and
    /// `(term, count)` pairs; postings are rebuilt on load. See [`super::codec`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, BM25_FORMAT_VERSION);
        w.f32(self.params.k1);
        w.f32(self.params.b);
        w.len(self.docs.len());
        for name in self.docs.names() {
            w.str(name);
        }
        w.len(self.terms.len());
        for t in &self.terms {
            w.str(t);
        }
        w.len(self.slots.len());
        for c in self.chunks.iter().flatten() {
            w.u32(c.doc);
            w.u32(c.seq);
            w.len(c.terms.len());
            for &(t, n) in &c.terms {
                w.u32(t);
                w.u32(n);
            }
        }
        w.buf
    }

    /// Loads what [`Bm25Index::to_bytes`] wrote.
    ///
    /// # Errors
    /// [`RetrieveError::NotAnIndex`] for other bytes, [`RetrieveError::UnsupportedVersion`]
    /// for another format version, [`RetrieveError::Corrupt`] for truncated or
    /// inconsistent bytes (bad parameters, ids out of range, duplicates). Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RetrieveError> {
        let mut r = Reader::open(bytes, MAGIC, BM25_FORMAT_VERSION, KIND)?;
        let params = Bm25Params {
            k1: r.f32()?,
            b: r.f32()?,
        };
        let mut index = Bm25Index::with_params(params).map_err(|e| r.corrupt(e.to_string()))?;
        for _ in 0..r.count(4)? {
            index.docs.intern(r.str()?)?;
        }
        let nterms = r.count(4)?;
        let mut terms = Vec::with_capacity(nterms);
        for _ in 0..nterms {
            terms.push(r.str()?);
        }
        for _ in 0..r.count(12)? {
            let (doc, seq) = (r.u32()?, r.u32()?);
            if doc as usize >= index.docs.len() || index.slots.contains_key(&(doc, seq)) {
                return Err(r.corrupt(format!("bad or duplicate chunk ({doc}, {seq})")));
            }
            let n = r.count(8)?;
            let mut counts = Vec::with_capacity(n);
            for _ in 0..n {
                let (t, c) = (r.u32()?, r.u32()?);
                let term = terms
                    .get(t as usize)
                    .ok_or_else(|| r.corrupt(format!("term id {t}")))?;
                counts.push((*term, c));
            }
            index.insert(doc, seq, counts.into_iter())?;
        }
        r.finish()?;
        Ok(index)
    }
}
