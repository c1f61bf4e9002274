//! docrag: documents to token-bounded Markdown chunks with flat metadata, for
//! retrieval-augmented generation in the browser (wasm) or natively.
//!
//! ```no_run
//! let bytes = std::fs::read("report.docx")?;
//! let out = docrag::convert(&bytes, &docrag::ConvertOptions::new())?;
//! for chunk in &out.chunks {
//!     println!("{} tokens: {}", chunk.metadata.get_int("tokenCount").unwrap_or(0), chunk.text);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod chunk;
pub mod enrich;
pub mod error;
pub mod metadata;
pub mod model;
pub mod names;
mod names_simple;
pub mod options;
mod order;
pub mod progress;
pub mod provider;
pub mod query;
pub mod read;
pub mod retrieve;
pub mod store;
pub mod tokens;

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The README's Rust example, run as a doctest so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use chunk::{Chunk, SYSTEM_MESSAGE};
pub use error::ConvertError;
pub use metadata::{MetaValue, Metadata};
pub use model::{PageSource, Pagination, Warning};
pub use names::{NameFinder, Names, SimpleNameFinder};
pub use options::{ConvertOptions, Format, Limits, PageMode};

use sha2::{Digest, Sha256};

/// The result of converting one document.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    /// The document id: the caller's, else `sha256-` + the first 16 hex digits of the
    /// SHA-256 of the input bytes (the same file always gets the same id).
    pub doc_id: String,
    /// The title: the caller's, else document properties, else the first title or
    /// heading, else the file name without extension, else "Untitled".
    pub title: String,
    /// Chunks in document order (`ssSeq` = index).
    pub chunks: Vec<Chunk>,
    /// Content the reader skipped or simplified.
    pub warnings: Vec<Warning>,
}

/// Converts a document to chunks with the built-in name finder
/// ([`SimpleNameFinder`] configured from `options.places` and `options.terms`).
///
/// # Errors
/// [`ConvertError`] when the input is not a document docrag can read, or an option is
/// invalid. Odd content inside a readable document becomes a warning instead.
pub fn convert(bytes: &[u8], options: &ConvertOptions) -> Result<Conversion, ConvertError> {
    let finder = SimpleNameFinder::new(options.places.clone(), options.terms.clone());
    convert_with(bytes, options, &finder)
}

/// Converts a document to chunks, calling `finder` once per chunk for names.
///
/// # Errors
/// As [`convert`].
pub fn convert_with(
    bytes: &[u8],
    options: &ConvertOptions,
    finder: &dyn NameFinder,
) -> Result<Conversion, ConvertError> {
    let doc = read::read(bytes, options)?;
    convert_document(doc, bytes, options, finder)
}

/// Chunks a document some other reader built (the wasm package's PDF path, where
/// pdf.js is the glyph source and [`read::pdf::layout`] the reader). `bytes` are the
/// file's, for the document id ([`content_id`]) when `options.doc_id` is unset.
///
/// # Errors
/// The chunker's: a chunk budget or an invalid option.
pub fn convert_document(
    doc: model::Document,
    bytes: &[u8],
    options: &ConvertOptions,
    finder: &dyn NameFinder,
) -> Result<Conversion, ConvertError> {
    let doc_id = match &options.doc_id {
        Some(id) => id.clone(),
        None => content_id(bytes),
    };
    let title = resolve_title(&doc, options);
    let chunks = chunk::chunk_document(&doc, &doc_id, &title, options, finder)?;
    Ok(Conversion {
        doc_id,
        title,
        chunks,
        warnings: doc.warnings,
    })
}

/// The stable id of content: `sha256-` + the first 16 hex digits of its SHA-256.
pub fn content_id(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut id = String::from("sha256-");
    for b in digest.iter().take(8) {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

/// Most characters of a title taken from the document (properties, first heading,
/// file name); a longer one is cut at a word with `…`. The title is in every chunk's
/// information line and metadata record, so an unbounded one multiplies the output.
pub const MAX_TITLE_CHARS: usize = 200;

fn resolve_title(doc: &model::Document, options: &ConvertOptions) -> String {
    if let Some(t) = options.title.as_ref().filter(|t| !t.trim().is_empty()) {
        return t.trim().to_string();
    }
    chunk::clip_words(&document_title(doc, options), MAX_TITLE_CHARS)
}

fn document_title(doc: &model::Document, options: &ConvertOptions) -> String {
    if let Some(t) = doc
        .properties
        .title
        .as_ref()
        // A title with no letter or digit ("." in some generated files) names
        // nothing a person would ask about: the heading or file name does better.
        .filter(|t| t.chars().any(char::is_alphanumeric))
    {
        return t.trim().to_string();
    }
    if let Some(t) = first_heading(&doc.body) {
        return t;
    }
    if let Some(name) = &options.file_name {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
        if !stem.is_empty() {
            return stem.to_string();
        }
    }
    "Untitled".to_string()
}

/// The document's name as its first heading gives it: a `Title` paragraph, else the
/// first heading when no other heading shares its level. Several headings at the top
/// level (the messages of a mail archive, the chapters of a manual) are parts of equal
/// rank, and the first of them names only itself.
fn first_heading(blocks: &[model::Block]) -> Option<String> {
    use model::{Block, ParagraphKind};
    let text = |p: &model::Paragraph| {
        let mut s = String::new();
        for i in &p.inlines {
            i.plain_text(&mut s);
        }
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty()).then_some(s)
    };
    let paragraphs = || {
        blocks.iter().filter_map(|b| match b {
            Block::Paragraph(p) => Some(p),
            _ => None,
        })
    };
    if let Some(t) = paragraphs()
        .filter(|p| p.kind == ParagraphKind::Title)
        .find_map(text)
    {
        return Some(t);
    }
    let (level, first) = paragraphs().find_map(|p| match p.kind {
        ParagraphKind::Heading(l) => text(p).map(|t| (l, t)),
        _ => None,
    })?;
    let peers = paragraphs()
        .filter(|p| p.kind == ParagraphKind::Heading(level))
        .count();
    (peers == 1).then_some(first)
}
