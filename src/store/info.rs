//! The summary row of one stored document: what a collection list shows without
//! reading the chunks.

use serde::{Deserialize, Serialize};

use crate::Conversion;
use crate::options::Format;

/// One stored document's summary (the `documents` store's record; JS shape
/// `DocumentInfo` in index.d.ts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentInfo {
    /// The document id (`ssDocId`).
    pub doc_id: String,
    /// The title.
    pub title: String,
    /// The file name it was added from (may be empty).
    pub file_name: String,
    /// The format it was read as: `docx`, `html`, `rtf`, `markdown` or `text`.
    pub format: String,
    /// Size of the added file, in bytes.
    pub size_bytes: u64,
    /// When it was added, in milliseconds since the Unix epoch (caller's clock).
    pub added_at: f64,
    /// Number of chunks.
    pub chunk_count: u32,
    /// Sum of the chunks' `tokenCount` (o200k_base tokens).
    pub token_count: u64,
    /// The highest `lastPage` of any chunk (1 for a document without page breaks).
    pub pages: u32,
    /// Whether any chunk has a table (`tableIds` not empty).
    pub has_tables: bool,
    /// Whether any chunk has tracked changes (`hasRevisions`).
    pub has_revisions: bool,
    /// Whether any chunk has comments (`hasComments`).
    pub has_comments: bool,
    /// The converter's warnings, as `code: message` lines.
    pub warnings: Vec<String>,
    /// The embedding models with stored vectors for this document.
    pub embedding_models: Vec<String>,
}

/// The lower-case name of a format as stored in [`DocumentInfo::format`].
pub fn format_name(format: Format) -> &'static str {
    format.name()
}

impl DocumentInfo {
    /// The summary of `conversion`, read from its chunks' metadata.
    pub fn from_conversion(
        conversion: &Conversion,
        file_name: &str,
        format: Format,
        size_bytes: u64,
        added_at: f64,
    ) -> Self {
        let flag = |name: &str| {
            conversion
                .chunks
                .iter()
                .any(|c| c.metadata.get_str(name) == Some("yes"))
        };
        let int = |c: &crate::chunk::Chunk, name: &str| c.metadata.get_int(name).unwrap_or(0);
        let has_tables = conversion.chunks.iter().any(|c| {
            c.metadata
                .get_str("tableIds")
                .is_some_and(|t| !t.is_empty())
        });
        DocumentInfo {
            doc_id: conversion.doc_id.clone(),
            title: conversion.title.clone(),
            file_name: file_name.to_string(),
            format: format_name(format).to_string(),
            size_bytes,
            added_at,
            chunk_count: u32::try_from(conversion.chunks.len()).unwrap_or(u32::MAX),
            token_count: conversion
                .chunks
                .iter()
                .map(|c| u64::try_from(int(c, "tokenCount")).unwrap_or(0))
                .sum(),
            pages: conversion
                .chunks
                .iter()
                .map(|c| u32::try_from(int(c, "lastPage")).unwrap_or(0))
                .max()
                .unwrap_or(0)
                .max(1),
            has_tables,
            has_revisions: flag("hasRevisions"),
            has_comments: flag("hasComments"),
            warnings: conversion
                .warnings
                .iter()
                .map(|w| format!("{}: {}", w.code, w.message))
                .collect(),
            embedding_models: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConvertOptions, convert};

    #[test]
    fn summary_of_a_markdown_document() {
        let md = "# Prices\n\n| Item | Price |\n|---|---|\n| Tea | 3 |\n\nSome text.";
        let o = ConvertOptions::new().with_file_name("prices.md");
        let c = convert(md.as_bytes(), &o).unwrap();
        let info = DocumentInfo::from_conversion(&c, "prices.md", Format::Markdown, 60, 1.5e12);
        assert_eq!(info.title, "Prices");
        assert_eq!(info.format, "markdown");
        assert_eq!(info.chunk_count as usize, c.chunks.len());
        let tokens: i64 = c
            .chunks
            .iter()
            .filter_map(|c| c.metadata.get_int("tokenCount"))
            .sum();
        assert_eq!(info.token_count as i64, tokens);
        assert!(info.has_tables);
        assert!(!info.has_revisions && !info.has_comments);
        assert_eq!(info.pages, 1);
        let json = serde_json::to_string(&info).unwrap();
        assert!(json.contains("\"docId\":\"sha256-") && json.contains("\"chunkCount\":"));
        let back: DocumentInfo = serde_json::from_str(&json).unwrap();
        assert_eq!(back, info);
    }
}
