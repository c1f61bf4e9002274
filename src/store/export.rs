//! The JSONL export of chunks: what leaves the browser (or the CLI) for a server-side
//! vector database, one JSON object per line, one line per chunk.
//!
//! Format `docrag.chunk.v1` (every line carries it in `format`; a reader refuses any
//! other value). Fields, camelCase:
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `format` | string | `"docrag.chunk.v1"` |
//! | `chunkId` | string | `{documentId}:{seq}`, unique in a collection |
//! | `documentId` | string | the document id (`ssDocId`) |
//! | `seq` | integer | 0-based position of the chunk in its document (`ssSeq`) |
//! | `fileName` | string | the file the document was read from (`""` when unknown) |
//! | `text` | string | the chunk's Markdown, chunk-information line first |
//! | `tokenCount` | integer | o200k_base tokens of `text` |
//! | `metadata` | object | the flat metadata record (strings and integers) |
//! | `embedding` | number[] | optional: the chunk's vector |
//! | `embeddingModel` | string | with `embedding`: the model id (`openai:text-embedding-3-small`, `ollama:nomic-embed-text@768`, ...) |
//!
//! Lines of one document are consecutive and in `seq` order. New optional fields may
//! be added within v1; a change of meaning gets a new format value.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::metadata::Metadata;

/// The `format` value of every line this version writes and reads.
pub const EXPORT_FORMAT: &str = "docrag.chunk.v1";

/// The id of chunk `seq` of document `doc_id`: `{doc_id}:{seq}`.
pub fn chunk_id(doc_id: &str, seq: u32) -> String {
    format!("{doc_id}:{seq}")
}

/// One chunk as written: borrowed from the collection or the conversion.
#[derive(Debug, Clone, Copy)]
pub struct ExportChunk<'a> {
    /// The document id (`ssDocId`).
    pub document_id: &'a str,
    /// 0-based position in the document (`ssSeq`).
    pub seq: u32,
    /// The file the document came from (`""` when unknown).
    pub file_name: &'a str,
    /// The chunk's Markdown.
    pub text: &'a str,
    /// o200k_base tokens of `text`.
    pub token_count: usize,
    /// The flat metadata record.
    pub metadata: &'a Metadata,
    /// `(model id, vector)` when the chunk has been embedded.
    pub embedding: Option<(&'a str, &'a [f32])>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Line<'a> {
    format: &'static str,
    chunk_id: String,
    document_id: &'a str,
    seq: u32,
    file_name: &'a str,
    text: &'a str,
    token_count: usize,
    metadata: &'a Metadata,
    #[serde(skip_serializing_if = "Option::is_none")]
    embedding: Option<&'a [f32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    embedding_model: Option<&'a str>,
}

/// The JSONL line of `chunk` (no trailing newline). A non-finite vector component
/// (which a validated provider reply never has) is written as `null` by serde_json
/// and refused by [`parse_line`].
pub fn export_line(chunk: &ExportChunk) -> String {
    let line = Line {
        format: EXPORT_FORMAT,
        chunk_id: chunk_id(chunk.document_id, chunk.seq),
        document_id: chunk.document_id,
        seq: chunk.seq,
        file_name: chunk.file_name,
        text: chunk.text,
        token_count: chunk.token_count,
        metadata: chunk.metadata,
        embedding: chunk.embedding.map(|e| e.1),
        embedding_model: chunk.embedding.map(|e| e.0),
    };
    // Serializing strings, integers and f32s into a String cannot fail.
    serde_json::to_string(&line).unwrap_or_default()
}

/// One chunk as read back from an export.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportRow {
    /// [`EXPORT_FORMAT`] (checked by [`parse_line`]).
    pub format: String,
    /// `{document_id}:{seq}`.
    pub chunk_id: String,
    /// The document id.
    pub document_id: String,
    /// 0-based position in the document.
    pub seq: u32,
    /// The file the document came from (`""` when unknown).
    #[serde(default)]
    pub file_name: String,
    /// The chunk's Markdown.
    pub text: String,
    /// o200k_base tokens of `text`.
    pub token_count: u32,
    /// The flat metadata record.
    pub metadata: Map<String, Value>,
    /// The chunk's vector, when it was embedded.
    #[serde(default)]
    pub embedding: Option<Vec<f32>>,
    /// The model id of `embedding`.
    #[serde(default)]
    pub embedding_model: Option<String>,
}

/// Why a line of an export cannot be read. `line` is 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// Not JSON, or not a chunk object (a missing field, a wrong type).
    #[error("line {line}: not a docrag chunk: {detail}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// What serde_json reported.
        detail: String,
    },
    /// Another format version.
    #[error(
        "line {line}: format {found:?} is not {EXPORT_FORMAT:?} (written by another docrag version)"
    )]
    Format {
        /// 1-based line number.
        line: usize,
        /// The line's `format` value.
        found: String,
    },
    /// Well-formed but inconsistent (ids, an embedding without its model).
    #[error("line {line}: {detail}")]
    Invalid {
        /// 1-based line number.
        line: usize,
        /// What is inconsistent.
        detail: String,
    },
}

/// Reads line number `line` (1-based, for errors) of an export.
///
/// # Errors
/// [`ExportError::Malformed`] for JSON that is not a chunk object (a missing field, a
/// wrong type, a non-finite vector component written as `null`),
/// [`ExportError::Format`] for another format version, [`ExportError::Invalid`] for
/// an empty id, a `chunkId` that is not `{documentId}:{seq}`, an empty vector or a
/// vector without its model.
pub fn parse_line(text: &str, line: usize) -> Result<ExportRow, ExportError> {
    let row: ExportRow = serde_json::from_str(text).map_err(|e| {
        // The format is checked first when the line is JSON at all, so an old or new
        // version is reported as such rather than as a missing field.
        match serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| v.get("format").and_then(Value::as_str).map(str::to_string))
        {
            Some(found) if found != EXPORT_FORMAT => ExportError::Format { line, found },
            _ => ExportError::Malformed {
                line,
                detail: e.to_string(),
            },
        }
    })?;
    if row.format != EXPORT_FORMAT {
        return Err(ExportError::Format {
            line,
            found: row.format,
        });
    }
    let invalid = |detail: String| Err(ExportError::Invalid { line, detail });
    if row.document_id.is_empty() {
        return invalid("documentId is empty".into());
    }
    if row.chunk_id != chunk_id(&row.document_id, row.seq) {
        return invalid(format!(
            "chunkId {:?} is not {:?}",
            row.chunk_id,
            chunk_id(&row.document_id, row.seq)
        ));
    }
    match (&row.embedding, &row.embedding_model) {
        (Some(v), _) if v.is_empty() => invalid("the embedding is empty".into()),
        (Some(_), None) => invalid("an embedding without embeddingModel".into()),
        (None, Some(_)) => invalid("embeddingModel without an embedding".into()),
        _ => Ok(row),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Metadata {
        let mut m = Metadata::new();
        m.set("ssDocId", "sha256-0011");
        m.set("ssSeq", 3);
        m.set("headingPath", "Intro > Scope");
        m
    }

    #[test]
    fn a_line_reads_back_as_written() {
        let m = meta();
        let v = [0.25f32, -1.0, 0.5];
        let chunk = ExportChunk {
            document_id: "sha256-0011",
            seq: 3,
            file_name: "report.docx",
            text: "[Document: R]\n\nTéxt “quoted”",
            token_count: 9,
            metadata: &m,
            embedding: Some(("openai:text-embedding-3-small", &v)),
        };
        let line = export_line(&chunk);
        assert!(line.starts_with(r#"{"format":"docrag.chunk.v1","chunkId":"sha256-0011:3""#));
        let row = parse_line(&line, 1).expect("reads back");
        assert_eq!(row.chunk_id, "sha256-0011:3");
        assert_eq!(row.text, chunk.text);
        assert_eq!(row.embedding.as_deref(), Some(&v[..]));
        assert_eq!(row.metadata["headingPath"], "Intro > Scope");
        assert_eq!(row.metadata["ssSeq"], 3);
        let bare = export_line(&ExportChunk {
            embedding: None,
            ..chunk
        });
        assert!(!bare.contains("embedding"));
        assert_eq!(parse_line(&bare, 1).expect("reads back").embedding, None);
    }

    #[test]
    fn bad_lines_name_the_line_and_the_fault() {
        let m = meta();
        let chunk = ExportChunk {
            document_id: "d",
            seq: 0,
            file_name: "",
            text: "t",
            token_count: 1,
            metadata: &m,
            embedding: None,
        };
        let good = export_line(&chunk);
        let v2 = good.replace("docrag.chunk.v1", "docrag.chunk.v2");
        assert!(matches!(
            parse_line(&v2, 7),
            Err(ExportError::Format { line: 7, .. })
        ));
        let moved = good.replace(r#""chunkId":"d:0""#, r#""chunkId":"d:1""#);
        assert!(matches!(
            parse_line(&moved, 2),
            Err(ExportError::Invalid { line: 2, .. })
        ));
        let nan = good.replace(
            r#""metadata""#,
            r#""embedding":[1.0,null],"embeddingModel":"m","metadata""#,
        );
        assert!(matches!(
            parse_line(&nan, 3),
            Err(ExportError::Malformed { line: 3, .. })
        ));
        let orphan = good.replace(r#""metadata""#, r#""embedding":[1.0],"metadata""#);
        let e = parse_line(&orphan, 4).expect_err("no model");
        assert_eq!(e.to_string(), "line 4: an embedding without embeddingModel");
        assert!(matches!(
            parse_line("{", 5),
            Err(ExportError::Malformed { line: 5, .. })
        ));
    }
}
