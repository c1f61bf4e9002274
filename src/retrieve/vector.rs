//! The flat vector index: exact cosine top-k over L2-normalized `f32` vectors.
//!
//! Vectors live in fixed-size blocks ([`super::blocks`]: adding or loading n vectors
//! never holds more than their bytes plus one block), normalized once on insert, so a query is normalized once and scored with one dot
//! product per row ([`super::dot`]); the scan reads `4 * dim` bytes per chunk and is
//! bound by memory bandwidth. A flat scan is exact and, up to a few hundred thousand
//! chunks, as fast as an approximate index in a browser without its build cost.

use std::collections::HashSet;

use super::blocks::Blocks;
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
    data: Blocks,
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
            data: Blocks::new(dim),
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
        self.data.push(&unit);
        Ok(())
    }

    /// Removes every chunk of document `doc`; returns how many were removed (0 when
    /// the document is unknown). O(chunks x dim): the rows after it move down.
    pub fn remove_document(&mut self, doc: &str) -> usize {
        let Some(id) = self.docs.get(doc) else {
            return 0;
        };
        let mut kept = 0;
        for row in 0..self.rows.len() {
            if self.rows[row].0 == id {
                self.present.remove(&self.rows[row]);
                continue;
            }
            if kept != row {
                self.rows[kept] = self.rows[row];
                self.data.copy_row(row, kept);
            }
            kept += 1;
        }
        let removed = self.rows.len() - kept;
        self.rows.truncate(kept);
        self.data.truncate(kept);
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
        let rows = &self.rows;
        match &mask {
            None => self.data.for_each_row(|i, v| {
                let (doc, seq) = rows[i];
                top.offer(dot(&q, v), || (ranks[doc as usize], seq, doc));
            }),
            Some(mask) => self.data.for_each_row(|i, v| {
                let (doc, seq) = rows[i];
                if mask[doc as usize] {
                    top.offer(dot(&q, v), || (ranks[doc as usize], seq, doc));
                }
            }),
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
        w.buf.reserve(self.data.len() * self.dim * 4);
        self.data.for_each_row(|_, row| {
            for &x in row {
                w.f32(x);
            }
        });
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
        Self::from_source(bytes.len(), &mut |at, buf| {
            buf.copy_from_slice(&bytes[at..at + buf.len()]);
        })
    }

    /// As [`VectorIndex::from_bytes`], for `len` persisted bytes read through
    /// `read(offset, buf)`, which fills `buf` with the bytes at `offset` (it is only
    /// asked for bytes inside `0..len`). The vectors are read a block at a time, so
    /// the bytes never need to be in memory whole: loading peaks at the index's own
    /// size plus one block (the wasm layer reads a JS `Uint8Array` this way).
    ///
    /// # Errors
    /// As [`VectorIndex::from_bytes`].
    pub fn from_source(
        len: usize,
        read: &mut dyn FnMut(usize, &mut [u8]),
    ) -> Result<Self, RetrieveError> {
        // The header (dimension, document ids, rows) comes from a prefix that grows
        // until it holds the whole header.
        let mut prefix = vec![0; len.min(1 << 16)];
        read(0, &mut prefix);
        loop {
            let want = match Self::header(&prefix, len) {
                Ok(Header::Done(index, at)) => return index.load_vectors(len, at, read),
                Ok(Header::Needs(n)) => n,
                // Running out of the prefix reads as corruption: read more and retry.
                Err(RetrieveError::Corrupt { .. }) if prefix.len() < len => {
                    prefix.len().saturating_mul(2)
                }
                Err(e) => return Err(e),
            }
            .min(len);
            if want <= prefix.len() {
                return Err(RetrieveError::Corrupt {
                    kind: KIND,
                    detail: "header longer than the bytes".into(),
                });
            }
            let have = prefix.len();
            prefix.resize(want, 0);
            read(have, &mut prefix[have..]);
        }
    }

    /// The index without its vectors, and where they start; or the prefix length
    /// the header needs.
    fn header(prefix: &[u8], len: usize) -> Result<Header, RetrieveError> {
        let mut r = Reader::open(prefix, MAGIC, VECTOR_FORMAT_VERSION, KIND)?;
        let dim = r.u32()? as usize;
        let mut index = VectorIndex::new(dim).map_err(|_| r.corrupt("dimension 0"))?;
        let ndocs = r.count(4)?;
        for _ in 0..ndocs {
            let name = r.str()?;
            index.docs.intern(name)?;
        }
        if index.docs.len() != ndocs {
            return Err(r.corrupt("a document id is listed twice"));
        }
        let nrows = r.u32()? as usize;
        let rows_at = r.pos();
        let row_bytes = dim.saturating_mul(4).saturating_add(8);
        if nrows.saturating_mul(row_bytes) != len - rows_at {
            return Err(r.corrupt(format!(
                "{nrows} rows of {dim} dimensions do not fill the {} bytes after offset {rows_at}",
                len - rows_at
            )));
        }
        let vectors_at = rows_at + nrows * 8;
        if vectors_at > prefix.len() {
            return Ok(Header::Needs(vectors_at));
        }
        for _ in 0..nrows {
            let (doc, seq) = (r.u32()?, r.u32()?);
            if doc as usize >= ndocs || !index.present.insert((doc, seq)) {
                return Err(r.corrupt(format!("bad or duplicate chunk row ({doc}, {seq})")));
            }
            index.rows.push((doc, seq));
        }
        Ok(Header::Done(index, vectors_at))
    }

    /// Reads the `rows.len()` vectors stored from offset `at`, checking each is a
    /// finite unit vector.
    fn load_vectors(
        mut self,
        len: usize,
        at: usize,
        read: &mut dyn FnMut(usize, &mut [u8]),
    ) -> Result<Self, RetrieveError> {
        let n = self.rows.len();
        if n == 0 {
            return Ok(self);
        }
        // `header` checked that n rows of this size fill the bytes, so this is no
        // larger than the input.
        let row_bytes = self.dim.saturating_mul(4);
        let per_read = (BATCH_BYTES / row_bytes).max(1);
        let mut buf = vec![0u8; per_read * row_bytes];
        let mut row = vec![0f32; self.dim];
        let mut i = 0;
        while i < n {
            let take = per_read.min(n - i);
            let from = at + i * row_bytes;
            let bytes = &mut buf[..take * row_bytes];
            if from + bytes.len() > len {
                return Err(RetrieveError::Corrupt {
                    kind: KIND,
                    detail: "vector data runs past the end".into(),
                });
            }
            read(from, bytes);
            for (k, raw) in bytes.chunks_exact(row_bytes).enumerate() {
                for (x, c) in row.iter_mut().zip(raw.chunks_exact(4)) {
                    *x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
                let norm2: f64 = row.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
                if !norm2.is_finite() || (norm2 - 1.0).abs() > 1e-3 {
                    return Err(RetrieveError::Corrupt {
                        kind: KIND,
                        detail: format!("vector {} is not a unit vector", i + k),
                    });
                }
                self.data.push(&row);
            }
            i += take;
        }
        Ok(self)
    }

    /// Bytes the index holds for its vectors (allocated, not just used): the figure
    /// `make bench` compares with `len x dim x 4`.
    pub fn vector_bytes_allocated(&self) -> usize {
        self.data.allocated_bytes()
    }
}

/// Bytes of vectors [`VectorIndex::from_source`] reads at a time.
const BATCH_BYTES: usize = 1 << 16;

enum Header {
    Done(VectorIndex, usize),
    Needs(usize),
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
