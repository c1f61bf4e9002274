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
