//! The chunker: document model -> Markdown chunks + flat metadata records.
//! (Placeholder: one chunk of plain text per document until the chunker lands.)

use crate::error::ConvertError;
use crate::metadata::Metadata;
use crate::model::Document;
use crate::names::NameFinder;
use crate::options::ConvertOptions;

/// The system message that tells a model how to read docrag's Markdown.
pub const SYSTEM_MESSAGE: &str = "placeholder";

/// One chunk: Markdown text plus its metadata record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Chunk {
    /// The chunk's Markdown, starting with the chunk-information line.
    pub text: String,
    /// The flat metadata record.
    pub metadata: Metadata,
}

/// Splits `doc` into chunks.
///
/// # Errors
/// [`ConvertError::InvalidOption`] for bad label renames.
pub fn chunk_document(
    doc: &Document,
    doc_id: &str,
    _title: &str,
    _options: &ConvertOptions,
    _finder: &dyn NameFinder,
) -> Result<Vec<Chunk>, ConvertError> {
    let text = doc.body_text();
    let mut metadata = Metadata::new();
    metadata.set("ssDocId", doc_id);
    metadata.set("ssSeq", 0i64);
    metadata.set("tokenCount", crate::tokens::count(&text) as i64);
    Ok(vec![Chunk { text, metadata }])
}
