//! The flat vector index: exact cosine top-k over L2-normalized `f32` vectors.
//!
//! Vectors live in one contiguous `Vec<f32>` (row `i` is `data[i*dim..(i+1)*dim]`),
//! normalized once on insert, so a query is normalized once and scored with one dot
//! product per row ([`super::dot`]); the scan reads `4 * dim` bytes per chunk and is
//! bound by memory bandwidth. A flat scan is exact and, up to a few hundred thousand
//! chunks, as fast as an approximate index in a browser without its build cost.

use std::collections::HashSet;

use super::codec::{Reader, Writer};
use super::docs::DocTable;
use super::dot::dot;
use super::topk::TopK;
use super::{ChunkRef, Hit, RetrieveError};

const MAGIC: &[u8; 4] = b"DRVX";
/// The persisted format version [`VectorIndex::to_bytes`] writes.
pub const VECTOR_FORMAT_VERSION: u16 = 1;
const KIND: &str = "vector";

/// Exact cosine search over chunk embeddings of one fixed dimension.
#[derive(Debug, Clone)]
pub struct VectorIndex {
    dim: usize,
    docs: DocTable,
    /// `(doc id, seq)` per row.
    rows: Vec<(u32, u32)>,
    present: HashSet<(u32, u32)>,
    data: Vec<f32>,
}

impl VectorIndex {
    /// An empty index for `dim`-dimensional vectors (e.g. 384 or 1536).
    ///
    /// # Errors
    /// [`RetrieveError::InvalidDimension`] when `dim` is 0 or over `u32::MAX`.
    pub fn new(dim: usize) -> Result<Self, RetrieveError> {
        if dim == 0 || u32::try_from(dim).is_err() {
            return Err(RetrieveError::InvalidDimension { dim });
        }
        Ok(VectorIndex {
            dim,
            docs: DocTable::default(),
            rows: Vec::new(),
            present: HashSet::new(),
            data: Vec::new(),
        })
    }

    /// The dimension of every vector, in `f32` components.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of chunks (vectors) held.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the index holds no vectors.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Adds the embedding of chunk `seq` of document `doc`, stored L2-normalized.
    ///
    /// # Errors
    /// [`RetrieveError::DimensionMismatch`] when `vector.len() != dim`;
    /// [`RetrieveError::NonFinite`] for a NaN or infinite component;
    /// [`RetrieveError::ZeroVector`] when the vector has no direction;
    /// [`RetrieveError::DuplicateChunk`] when `(doc, seq)` is already in the index.
    pub fn add(&mut self, doc: &str, seq: u32, vector: &[f32]) -> Result<(), RetrieveError> {
        let unit = normalize(vector, self.dim)?;
        if let Some(id) = self.docs.get(doc)
            && self.present.contains(&(id, seq))
        {
            return Err(RetrieveError::DuplicateChunk {
                doc: doc.to_string(),
                seq,
            });
        }
        if u32::try_from(self.rows.len() + 1).is_err() {
            return Err(RetrieveError::Full);
        }
        let id = self.docs.intern(doc)?;
        self.rows.push((id, seq));
        self.present.insert((id, seq));
        self.data.extend_from_slice(&unit);
        Ok(())
    }

    /// Removes every chunk of document `doc`; returns how many were removed (0 when
    /// the document is unknown). O(chunks x dim): the rows after it move down.
    pub fn remove_document(&mut self, doc: &str) -> usize {
        let Some(id) = self.docs.get(doc) else {
            return 0;
        };
        let dim = self.dim;
        let mut kept = 0;
        for row in 0..self.rows.len() {
            if self.rows[row].0 == id {
                self.present.remove(&self.rows[row]);
                continue;
            }
            if kept != row {
                self.rows[kept] = self.rows[row];
                self.data
                    .copy_within(row * dim..(row + 1) * dim, kept * dim);
            }
            kept += 1;
        }
        let removed = self.rows.len() - kept;
        self.rows.truncate(kept);
        self.data.truncate(kept * dim);
        removed
    }

    /// The `k` chunks most similar to `query` by cosine, best first; ties go to the
    /// smaller `(doc, seq)`. Scores are cosine similarities in [-1, 1].
    ///
    /// # Errors
    /// As [`VectorIndex::add`] for the query vector (dimension, finite, non-zero).
    pub fn search(&self, query: &[f32], k: usize) -> Result<Vec<Hit>, RetrieveError> {
        self.scan(query, k, None::<&[&str]>)
    }

    /// As [`VectorIndex::search`], over the chunks of the documents in `docs` only
    /// (unknown ids are ignored; an empty set gives no hits).
    ///
    /// # Errors
    /// As [`VectorIndex::search`].
    pub fn search_in<S: AsRef<str>>(
        &self,
        query: &[f32],
        k: usize,
        docs: &[S],
    ) -> Result<Vec<Hit>, RetrieveError> {
        self.scan(query, k, Some(docs))
    }

    fn scan<S: AsRef<str>>(
        &self,
        query: &[f32],
        k: usize,
        docs: Option<&[S]>,
    ) -> Result<Vec<Hit>, RetrieveError> {
        let q = normalize(query, self.dim)?;
        let ranks = self.docs.ranks();
        let mask = self.docs.mask(docs);
        let mut top = TopK::new(k);
        let rows = self.data.chunks_exact(self.dim).zip(&self.rows);
        match &mask {
            None => {
                for (v, &(doc, seq)) in rows {
                    top.offer(dot(&q, v), || (ranks[doc as usize], seq, doc));
                }
            }
            Some(mask) => {
                for (v, &(doc, seq)) in rows {
                    if mask[doc as usize] {
                        top.offer(dot(&q, v), || (ranks[doc as usize], seq, doc));
                    }
                }
            }
        }
        Ok(top
            .into_sorted()
            .into_iter()
            .map(|e| Hit {
                chunk: ChunkRef::new(self.docs.name(e.key.2), e.key.1),
                score: e.score,
            })
            .collect())
    }

    /// The persisted form: magic `DRVX`, format version (`u16`), then dim, the
    /// document ids, the `(doc, seq)` rows and the normalized vectors as little-endian
    /// `f32` (4 x dim bytes per chunk). See [`super::codec`] for the encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, VECTOR_FORMAT_VERSION);
        w.len(self.dim);
        w.len(self.docs.len());
        for name in self.docs.names() {
            w.str(name);
        }
        w.len(self.rows.len());
        for &(doc, seq) in &self.rows {
            w.u32(doc);
            w.u32(seq);
        }
        w.buf.reserve(self.data.len() * 4);
        for &x in &self.data {
            w.f32(x);
        }
        w.buf
    }

    /// Loads what [`VectorIndex::to_bytes`] wrote.
    ///
    /// # Errors
    /// [`RetrieveError::NotAnIndex`] for other bytes, [`RetrieveError::UnsupportedVersion`]
    /// for another format version, [`RetrieveError::Corrupt`] for truncated or
    /// inconsistent bytes (bad document ids, duplicate chunks, vectors that are not
    /// finite unit vectors). Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RetrieveError> {
        let mut r = Reader::open(bytes, MAGIC, VECTOR_FORMAT_VERSION, KIND)?;
        let dim = r.u32()? as usize;
        let mut index = VectorIndex::new(dim).map_err(|_| r.corrupt("dimension 0"))?;
        let ndocs = r.count(4)?;
        for _ in 0..ndocs {
            let name = r.str()?;
            index.docs.intern(name)?;
        }
        let nrows = r.count(dim.saturating_mul(4).saturating_add(8))?;
        for _ in 0..nrows {
            let (doc, seq) = (r.u32()?, r.u32()?);
            if doc as usize >= ndocs || !index.present.insert((doc, seq)) {
                return Err(r.corrupt(format!("bad or duplicate chunk row ({doc}, {seq})")));
            }
            index.rows.push((doc, seq));
        }
        index.data = r.f32s(nrows * dim)?;
        r.finish()?;
        for (i, v) in index.data.chunks_exact(dim).enumerate() {
            let norm2: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
            if !norm2.is_finite() || (norm2 - 1.0).abs() > 1e-3 {
                return Err(RetrieveError::Corrupt {
                    kind: KIND,
                    detail: format!("vector {i} is not a unit vector"),
                });
            }
        }
        Ok(index)
    }
}

/// `v / |v|`, checked: length `dim`, finite, non-zero. The norm is taken in `f64`
/// so large components cannot overflow it.
fn normalize(v: &[f32], dim: usize) -> Result<Vec<f32>, RetrieveError> {
    if v.len() != dim {
        return Err(RetrieveError::DimensionMismatch {
            expected: dim,
            got: v.len(),
        });
    }
    if let Some(index) = v.iter().position(|x| !x.is_finite()) {
        return Err(RetrieveError::NonFinite { index });
    }
    let norm = v
        .iter()
        .map(|&x| f64::from(x) * f64::from(x))
        .sum::<f64>()
        .sqrt();
    if norm <= f64::from(f32::MIN_POSITIVE) {
        return Err(RetrieveError::ZeroVector);
    }
    let unit: Vec<f32> = v.iter().map(|&x| (f64::from(x) / norm) as f32).collect();
    if unit.iter().all(|&x| x == 0.0) {
        return Err(RetrieveError::ZeroVector);
    }
    Ok(unit)
}
