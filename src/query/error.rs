//! The one error type of the query pipeline: configuration mistakes, reported when a
//! configuration is built rather than in the middle of a question.

/// Why a query configuration or call was rejected. Each variant has a stable
/// [`QueryError::code`] that the wasm layer puts on the JS `Error` as `code`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// A percentage option is outside 0..=100.
    #[error("invalid option {name}: {value} is not a percentage (0 to 100)")]
    BadPercent {
        /// The option's name as the caller spelled it (`retrievalPercent`, ...).
        name: String,
        /// The value given.
        value: u32,
    },
    /// A count or budget option is out of its range.
    #[error("invalid option {name}: {detail}")]
    InvalidOption {
        /// The option's name as the caller spelled it.
        name: String,
        /// What is wrong and what is allowed.
        detail: String,
    },
    /// A processing-mode number that is none of -2, -1, 0 or a positive chunk count.
    #[error(
        "unknown processing mode {value}: use a positive chunk count (RAG), -1 (entire document), 0 (adaptive) or -2 (adaptive RAG)"
    )]
    UnknownMode {
        /// The number given.
        value: i64,
    },
    /// A question with no text.
    #[error("the question is empty; ask something")]
    EmptyQuestion,
    /// A document's records or text could not be indexed (the code and message of the
    /// enrichment or retrieval error are kept).
    #[error("document {doc_id} could not be indexed: [{code}] {detail}")]
    Indexing {
        /// The document.
        doc_id: String,
        /// The underlying error's stable code.
        code: String,
        /// The underlying error's message.
        detail: String,
    },
    /// A document id added twice to one collection.
    #[error("document {doc_id} is already in the collection; remove it first to replace it")]
    DuplicateDocument {
        /// The repeated id.
        doc_id: String,
    },
    /// A document id that is not in the collection.
    #[error("document {doc_id} is not in the collection; add it first")]
    UnknownDocument {
        /// The id given.
        doc_id: String,
    },
    /// Vectors of another embedding model than the collection's.
    #[error(
        "the collection holds vectors of embedding model {expected:?}, not {got:?}; embed documents and questions with one model"
    )]
    EmbeddingModel {
        /// The collection's model id.
        expected: String,
        /// The model id given.
        got: String,
    },
    /// Not one vector per chunk.
    #[error(
        "document {doc_id} has {expected} chunk(s) but {got} vector(s) were given; give one per chunk in ssSeq order"
    )]
    EmbeddingCount {
        /// The document.
        doc_id: String,
        /// Its number of chunks.
        expected: usize,
        /// The number of vectors given.
        got: usize,
    },
    /// A vector whose length is not the collection's embedding dimension.
    #[error(
        "the vector has {got} dimensions but the collection holds {expected}-dimensional vectors; use the same embedding model for documents and questions"
    )]
    EmbeddingDimension {
        /// The collection's dimension, in components.
        expected: usize,
        /// The vector's length, in components.
        got: usize,
    },
    /// A vector that cannot be normalized (non-finite component, all zeros) or an
    /// index that cannot take it; the code is the retrieval error's.
    #[error("{}{detail}", at(doc_id.as_deref(), *seq))]
    Embedding {
        /// The document (None for the query embedding).
        doc_id: Option<String>,
        /// The chunk (None for the query embedding).
        seq: Option<usize>,
        /// The retrieval error's stable code (`non-finite-vector`, `zero-vector`, ...).
        code: &'static str,
        /// The retrieval error's message.
        detail: String,
    },
}

fn at(doc_id: Option<&str>, seq: Option<usize>) -> String {
    match (doc_id, seq) {
        (Some(d), Some(s)) => format!("embedding of chunk {s} of document {d}: "),
        _ => "query embedding: ".to_string(),
    }
}

impl QueryError {
    /// A stable, machine-readable code (kebab-case) that never changes between versions.
    pub fn code(&self) -> &'static str {
        match self {
            QueryError::BadPercent { .. } => "bad-percent",
            QueryError::InvalidOption { .. } => "invalid-option",
            QueryError::UnknownMode { .. } => "unknown-mode",
            QueryError::EmptyQuestion => "empty-question",
            QueryError::DuplicateDocument { .. } => "duplicate-document",
            QueryError::Indexing { .. } => "indexing",
            QueryError::UnknownDocument { .. } => "unknown-document",
            QueryError::EmbeddingModel { .. } => "embedding-model-mismatch",
            QueryError::EmbeddingCount { .. } => "embedding-count-mismatch",
            QueryError::EmbeddingDimension { .. } => "dimension-mismatch",
            QueryError::Embedding { code, .. } => code,
        }
    }
}

/// Checks that `value` is a percentage; `name` is the option as the caller spells it.
///
/// # Errors
/// [`QueryError::BadPercent`] when `value` is over 100.
pub fn check_percent(name: &str, value: u32) -> Result<u32, QueryError> {
    if value > 100 {
        return Err(QueryError::BadPercent {
            name: name.to_string(),
            value,
        });
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable() {
        assert_eq!(QueryError::EmptyQuestion.code(), "empty-question");
        assert_eq!(check_percent("x", 101).unwrap_err().code(), "bad-percent");
        assert_eq!(check_percent("x", 100), Ok(100));
    }
}
