//! The one error type of the enrichment engine: a record set that cannot describe one
//! whole document, or a query argument out of range. Each variant has a stable
//! [`EnrichError::code`] that the wasm layer puts on the JS `Error` as `code`.

use std::fmt;

/// Which record an error is about: its `ssSeq` when that could be read, else its
/// 0-based position in the array the caller passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordRef {
    /// The record's own sequence number.
    Seq(i64),
    /// The record's position in the input array (its `ssSeq` was unreadable).
    Index(usize),
}

impl fmt::Display for RecordRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordRef::Seq(s) => write!(f, "the record with ssSeq {s}"),
            RecordRef::Index(i) => write!(f, "record #{i} of the array"),
        }
    }
}

/// Why an [`crate::enrich::Enricher`] could not be built, or a query was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EnrichError {
    /// No records at all.
    #[error("no metadata records were given; pass every record of one document")]
    EmptySet,
    /// A record lacks a field the engine needs.
    #[error(
        "{record} has no field \"{field}\"; pass the records exactly as the converter made them (with the same label renames)"
    )]
    MissingField {
        /// The record.
        record: RecordRef,
        /// The field name as looked up (after label renames).
        field: String,
    },
    /// A numeric field holds something that is not a whole number.
    #[error("{record} has \"{field}\" = \"{value}\", which is not a whole number")]
    NotANumber {
        /// The record.
        record: RecordRef,
        /// The field name.
        field: String,
        /// The value found, as text.
        value: String,
    },
    /// A field holds a value outside what the converter writes (a flag other than
    /// yes/no, an unknown chunk kind, a negative page).
    #[error("{record} has \"{field}\" = \"{value}\", expected {expected}")]
    BadValue {
        /// The record.
        record: RecordRef,
        /// The field name.
        field: String,
        /// The value found, as text.
        value: String,
        /// What would have been accepted.
        expected: &'static str,
    },
    /// A sequence number is not below the number of records: the set is incomplete.
    #[error(
        "{record} is out of range: {count} records were given, so ssSeq must be 0 to {max}; pass the document's complete set of records",
        max = count.saturating_sub(1)
    )]
    SeqOutOfRange {
        /// The record.
        record: RecordRef,
        /// How many records were given.
        count: usize,
    },
    /// Two records share a sequence number.
    #[error("two records have ssSeq {seq}; a set holds each chunk of one document once")]
    DuplicateSeq {
        /// The repeated sequence number.
        seq: u32,
    },
    /// Records of two documents were mixed.
    #[error(
        "{record} belongs to document \"{found}\" but the set started with \"{expected}\"; build one Enricher per document"
    )]
    MixedDocuments {
        /// The record.
        record: RecordRef,
        /// The first record's `ssDocId`.
        expected: String,
        /// This record's `ssDocId`.
        found: String,
    },
    /// A retrieved sequence number is negative or not below the chunk count.
    #[error("anchor {seq} is out of range: the document has {count} chunks (0 to {max})", max = count.saturating_sub(1))]
    AnchorOutOfRange {
        /// The offending sequence number as given.
        seq: i64,
        /// The document's chunk count.
        count: usize,
    },
    /// An index-document size that is not a percentage above 0 and at most 100.
    #[error("the index size must be a percentage above 0 and at most 100, got {value}")]
    InvalidPercent {
        /// The value given.
        value: String,
    },
}

impl EnrichError {
    /// The stable, kebab-case code of this error (also the JS `code`).
    pub fn code(&self) -> &'static str {
        match self {
            EnrichError::EmptySet => "empty-record-set",
            EnrichError::MissingField { .. } => "missing-field",
            EnrichError::NotANumber { .. } => "not-a-number",
            EnrichError::BadValue { .. } => "bad-field-value",
            EnrichError::SeqOutOfRange { .. } => "seq-out-of-range",
            EnrichError::DuplicateSeq { .. } => "duplicate-seq",
            EnrichError::MixedDocuments { .. } => "mixed-documents",
            EnrichError::AnchorOutOfRange { .. } => "anchor-out-of-range",
            EnrichError::InvalidPercent { .. } => "invalid-percent",
        }
    }
}
