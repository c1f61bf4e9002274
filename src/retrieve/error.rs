//! The one error type of retrieval, with stable codes for the JS binding.

/// Why a retrieval call failed. Each variant has a stable [`RetrieveError::code`] that
/// the wasm layer puts on the JS `Error` as `code`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RetrieveError {
    /// A vector index needs at least one dimension.
    #[error("a vector index needs a dimension of at least 1 (got {dim})")]
    InvalidDimension {
        /// The dimension asked for.
        dim: usize,
    },
    /// A vector's length is not the index's dimension.
    #[error(
        "the vector has {got} dimensions but the index holds {expected}-dimensional vectors; \
         use the same embedding model for documents and questions"
    )]
    DimensionMismatch {
        /// The index's dimension.
        expected: usize,
        /// The vector's length.
        got: usize,
    },
    /// A zero vector has no direction, so its cosine with anything is undefined.
    #[error("the vector is all zeros (or too small to normalize), so it has no direction")]
    ZeroVector,
    /// A vector holds NaN or an infinity.
    #[error("the vector holds a NaN or infinite component at index {index}")]
    NonFinite {
        /// The index of the first bad component.
        index: usize,
    },
    /// The chunk is already in the index.
    #[error("chunk {seq} of document {doc:?} is already in the index; remove the document first")]
    DuplicateChunk {
        /// The document id.
        doc: String,
        /// The chunk's sequence number.
        seq: u32,
    },
    /// The index is full (more than 2^32 - 1 chunks or documents).
    #[error("the index is full (at most 4294967295 chunks and documents)")]
    Full,
    /// The bytes are not a docrag index of the expected kind.
    #[error("not a docrag {kind} index (wrong magic bytes)")]
    NotAnIndex {
        /// "vector" or "BM25".
        kind: &'static str,
    },
    /// The bytes are a docrag index of a format version this build cannot read.
    #[error(
        "{kind} index format version {version} is not supported (this build reads version {supported})"
    )]
    UnsupportedVersion {
        /// "vector" or "BM25".
        kind: &'static str,
        /// The version in the bytes.
        version: u16,
        /// The version this build reads and writes.
        supported: u16,
    },
    /// The bytes are truncated or inconsistent.
    #[error("corrupt {kind} index: {detail}")]
    Corrupt {
        /// "vector" or "BM25".
        kind: &'static str,
        /// What was wrong, and at which byte offset where known.
        detail: String,
    },
    /// A BM25 parameter is out of range.
    #[error("invalid BM25 parameter {name} = {value}: {detail}")]
    InvalidParameter {
        /// "k1", "b" or "k".
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range.
        detail: &'static str,
    },
}

impl RetrieveError {
    /// A stable, machine-readable code (kebab-case) that never changes between versions.
    pub fn code(&self) -> &'static str {
        match self {
            RetrieveError::InvalidDimension { .. } => "invalid-dimension",
            RetrieveError::DimensionMismatch { .. } => "dimension-mismatch",
            RetrieveError::ZeroVector => "zero-vector",
            RetrieveError::NonFinite { .. } => "non-finite-vector",
            RetrieveError::DuplicateChunk { .. } => "duplicate-chunk",
            RetrieveError::Full => "index-full",
            RetrieveError::NotAnIndex { .. } => "not-an-index",
            RetrieveError::UnsupportedVersion { .. } => "unsupported-index-version",
            RetrieveError::Corrupt { .. } => "corrupt-index",
            RetrieveError::InvalidParameter { .. } => "invalid-parameter",
        }
    }
}
