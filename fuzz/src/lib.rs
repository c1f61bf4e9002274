//! What every reader target checks: `convert` returns `Ok` or a typed error (never a
//! panic), and a successful conversion keeps the invariants every consumer relies on.

use docrag::model::Document;
use docrag::{Conversion, ConvertError, ConvertOptions, Format, MAX_TITLE_CHARS};

pub mod package;

/// The smallest chunk size docrag accepts: the most splitting per input byte.
pub const MAX_TOKENS: usize = 64;

/// Options with `format` forced (or detected when `None`) and small chunks.
pub fn options(format: Option<Format>) -> ConvertOptions {
    let o = ConvertOptions::new()
        .with_max_tokens(MAX_TOKENS)
        .expect("64 is a valid max_tokens");
    match format {
        Some(f) => o.with_format(f),
        None => o,
    }
}

/// Converts `bytes` and checks the result (see [`check`]).
pub fn convert_and_check(bytes: &[u8], options: &ConvertOptions) {
    check(docrag::convert(bytes, options));
}

/// Panics when a conversion broke an invariant: every chunk's `ssSeq` is its index,
/// its `tokenCount` is positive, its text is not empty; the id is the content id; the
/// title is clipped. An error must render and carry a code.
pub fn check(result: Result<Conversion, ConvertError>) {
    match result {
        Ok(out) => {
            assert!(out.doc_id.starts_with("sha256-"), "doc id {:?}", out.doc_id);
            assert!(
                out.title.chars().count() <= MAX_TITLE_CHARS + 1,
                "title of {} chars",
                out.title.chars().count()
            );
            for (i, c) in out.chunks.iter().enumerate() {
                let seq = c.metadata.get_int("ssSeq");
                assert_eq!(seq, Some(i as i64), "chunk {i}: ssSeq {seq:?}");
                let tokens = c.metadata.get_int("tokenCount");
                assert!(
                    matches!(tokens, Some(n) if n > 0),
                    "chunk {i}: tokenCount {tokens:?}"
                );
                assert!(!c.text.is_empty(), "chunk {i}: empty text");
            }
            for w in &out.warnings {
                let _ = format!("{w:?}");
            }
        }
        Err(e) => {
            assert!(!e.code().is_empty());
            let _ = e.to_string();
        }
    }
}

/// Runs only the reader of `format` (`docrag::read::read`: bytes to the document model,
/// no chunking or token counting) and checks the result (see [`check_document`]). The
/// `read_*` targets use it: the same parsers as the `convert` targets at tens of times
/// the executions per second, because o200k counting dominates a full conversion.
pub fn read_and_check(bytes: &[u8], format: Format) {
    let options = ConvertOptions::new().with_format(format);
    check_document(docrag::read::read(bytes, &options));
}

/// Panics when a read broke an invariant: a document serializes (every string is
/// whole, every number finite enough for JSON) when the input is small enough for that
/// to stay cheap; an error renders and carries a code.
pub fn check_document(result: Result<Document, ConvertError>) {
    match result {
        Ok(doc) => {
            if doc.body.len() + doc.parts.len() + doc.notes.len() + doc.comments.len() < 64 {
                serde_json::to_string(&doc).expect("a document serializes");
            }
            for w in &doc.warnings {
                let _ = format!("{w:?}");
            }
        }
        Err(e) => {
            assert!(!e.code().is_empty());
            let _ = e.to_string();
        }
    }
}
