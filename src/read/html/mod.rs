//! HTML reader: real-world HTML, parsed per the HTML Standard with html5ever, into the
//! [`Document`] model.
//!
//! # Pipeline
//! 1. `encoding.rs` (with `prescan.rs`): bytes to text. BOM, then the caller's MIME
//!    `charset=`, then the `<meta>` prescan, else UTF-8; bytes that are invalid in the
//!    declared encoding are recovered by `chardetng` (`read::encoding::guess_legacy`),
//!    with an `encoding` warning.
//! 2. `parse.rs` (with `sink.rs`): html5ever's tokenizer and tree builder into an
//!    `RcDom`, with a guard that keeps the tree at most `limits.max_depth` deep.
//! 3. `walk.rs`: an iterative walk of the tree into blocks (`builder.rs` for
//!    paragraphs and white space, `table.rs` for tables, `word.rs` for Word's HTML),
//!    and `props.rs` for `<title>`/`<meta>` properties.
//! 4. `preformatted.rs`: a page that is nearly all `<pre>` text (an RFC as the IETF
//!    renders it) is read as the plain-text document it is.
//!
//! # Depth
//! Elements nested deeper than `limits.max_depth` are flattened, not refused: the
//! parser does not create them, their text lands in the deepest allowed element, and
//! a `too-deep` warning says how many start tags were affected. A browser shows such
//! pages too, and the text is what retrieval needs; [`ConvertError::TooDeep`] is
//! never returned. Quotes and tables nest at most 32 deep in the model (deeper ones
//! are flattened likewise).
//!
//! # What is dropped
//! `<script>`, `<style>`, `<template>`, `<noscript>` (parsed as with scripting on),
//! `<head>` content other than `<title>`/`<meta>`, media (`<audio>`, `<video>`),
//! content hidden by the `hidden` attribute, `aria-hidden="true"`, or an inline style
//! `display: none` / `visibility: hidden` / `mso-hide: all` (never on `<html>` or
//! `<body>`, which some pages hide until a script runs), decorative images (`alt=""`)
//! and tracking pixels. SVG drawings become an image described by their `aria-label`
//! or `<title>` (their `<text>` is not read); MathML becomes its `alttext` or the text
//! of its token elements. `<iframe>`, `<embed>`, `<frame>`, `<applet>` and `<object>`
//! are reported in one `embedded-content` warning per element name (an `<object>`'s
//! fallback content is read). Form controls show their value (text fields, buttons,
//! the selected option) or a check box mark.

mod builder;
mod css;
mod dom;
mod elements;
mod encoding;
mod parse;
mod preformatted;
mod prescan;
mod props;
mod sink;
mod table;
mod walk;
mod word;

use crate::error::ConvertError;
use crate::model::{Document, Warning};
use crate::options::ConvertOptions;

/// Reads an HTML document.
///
/// # Errors
/// [`ConvertError::Empty`] for zero bytes and [`ConvertError::TooLarge`] over
/// `limits.max_input_bytes`; any other input gives a document (possibly empty) with
/// warnings.
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    if bytes.is_empty() {
        return Err(ConvertError::Empty);
    }
    let limit = options.limits.max_input_bytes;
    if bytes.len() as u64 > limit {
        return Err(ConvertError::TooLarge {
            what: "the input".into(),
            actual: bytes.len() as u64,
            limit,
        });
    }
    let decoded = encoding::decode(bytes, options.mime.as_deref());
    let mut warnings: Vec<Warning> = decoded.warning.into_iter().collect();
    let cap = options.limits.max_depth;
    let mut parsed = parse::parse(&decoded.text, cap);
    drop(decoded.text);
    if let Some(e) = parsed.over_budget.take() {
        return Err(e);
    }
    if parsed.flattened > 0 {
        warnings.push(Warning::new(
            "too-deep",
            format!(
                "elements nest deeper than the limit of {cap}; {} start tags below that depth were flattened into their ancestors (their text is kept)",
                parsed.flattened
            ),
        ));
    }
    let mut walked = walk::walk(&parsed.document);
    warnings.extend(walked.warnings);
    let parts = preformatted::as_text(&mut walked.body)?;
    Ok(Document {
        properties: walked.properties,
        body: walked.body,
        parts,
        warnings,
        ..Document::default()
    })
}
