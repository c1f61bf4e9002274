//! Markdown reader: CommonMark 0.31 with the GFM extensions (tables, task lists,
//! strikethrough, footnotes), heading attributes and definition lists, parsed by
//! pulldown-cmark and turned straight into the document model from its event stream
//! (no detour through HTML).
//!
//! The bytes are decoded like plain text ([`super::encoding`]); NUL and other control
//! characters are dropped with a warning (CommonMark 2.3 would make NUL U+FFFD). A
//! YAML front-matter block or a pandoc title block at the very start becomes the
//! document properties ([`front_matter`]) and is not part of the text. The block and
//! inline mapping is in [`blocks`] and [`inlines`].

mod blocks;
mod events;
mod front_matter;
mod inlines;
mod simple_tables;

use pulldown_cmark::{Options, Parser};

use crate::error::ConvertError;
use crate::model::{Document, Warning};
use crate::options::ConvertOptions;

use super::{encoding, text};

/// Reads a Markdown document.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the document's element budget
/// (`super::budget`); every byte sequence reads as some Markdown otherwise. Empty
/// input is refused before the reader runs.
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    let hint = options.mime.as_deref().and_then(encoding::mime_charset);
    let decoded = encoding::decode(bytes, hint);
    let mut doc = Document::default();
    doc.warnings.extend(decoded.warning);
    let (clean, dropped) = text::strip_controls(&decoded.text);
    if dropped > 0 {
        doc.warnings.push(Warning::new(
            "control-characters",
            format!("{dropped} NUL or other control character(s) carry no text and were dropped"),
        ));
    }
    let (properties, rest) = front_matter::split(&clean);
    doc.properties = properties;

    let mut opts = Options::empty();
    opts.insert(Options::ENABLE_TABLES);
    opts.insert(Options::ENABLE_FOOTNOTES);
    opts.insert(Options::ENABLE_STRIKETHROUGH);
    opts.insert(Options::ENABLE_TASKLISTS);
    opts.insert(Options::ENABLE_HEADING_ATTRIBUTES);
    opts.insert(Options::ENABLE_DEFINITION_LIST);
    let mut builder = blocks::Builder::new(options.limits.max_depth);
    let rest = simple_tables::rewrite(rest);
    for ev in Parser::new_ext(&rest, opts) {
        // Each start tag is one element of the model (a block, a cell, a span).
        if matches!(ev, pulldown_cmark::Event::Start(_)) {
            super::budget::take(1)?;
        }
        builder.event(ev);
    }
    let (body, notes, warnings) = builder.finish();
    doc.body = body;
    doc.notes = notes;
    doc.warnings.extend(warnings);
    Ok(doc)
}
