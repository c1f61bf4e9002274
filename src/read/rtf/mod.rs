//! RTF reader: Rich Text Format (RTF 1.9.1, the subset real files use) into the
//! [`Document`] model.
//!
//! # Why a reader of its own
//! The RTF crates on crates.io were considered: `rtf-parser` lexes from a `&str`
//! (RTF is bytes: `\bin` data and 8-bit text are not UTF-8), recurses per group and
//! builds its own model without tables, fields, notes or revisions; `rtf-grimoire` is
//! a nom tokenizer that allocates every token and fails the whole input on a syntax
//! error. Tokenizing RTF is small (`lexer.rs`); the work is in the destinations, which
//! no crate models the way this one needs, so the reader is written here.
//!
//! # Shape
//! `lexer.rs` turns bytes into tokens; `parser.rs` runs one loop over them with an
//! explicit group stack (`state.rs`), decoding text through `fonts_codepage.rs` and
//! sending it to the current destination (`destinations.rs`); control words are in
//! `words.rs`. Each story (body, header or footer, note, comment) is built by
//! `blocks.rs` from paragraphs (`inlines.rs`) and tables (`table.rs`). Headings come
//! from the stylesheet (`stylesheet.rs`), list items from the list tables (`lists.rs`),
//! links and other fields from `fields.rs`, tracked changes from `revisions.rs`, the
//! properties from `info.rs`. Page and paragraph geometry (`layout.rs`) feeds the page
//! estimate (`read::pagefit`): RTF saves no layout, so pages past explicit breaks are
//! estimated.
//!
//! # Bad input
//! Never an error: input without `{\rtf` gets a `not-rtf` warning, a truncated file keeps what was read (warning
//! `truncated`), extra `}` are ignored (`unbalanced-braces`), groups deeper than
//! `Limits::max_depth` are read as part of their parent (`deep-nesting`), `\binN`
//! beyond the input and parameters beyond `i32` are clamped. Memory is linear in the
//! input and time is linear too.

mod blocks;
mod destinations;
mod fields;
mod fonts_codepage;
mod info;
mod inlines;
mod keywords;
mod layout;
mod lexer;
mod lists;
mod notes;
mod parser;
mod revisions;
mod state;
mod stylesheet;
mod table;
mod words;

use crate::error::ConvertError;
use crate::model::Document;
use crate::options::ConvertOptions;

/// Reads an RTF document.
///
/// # Errors
/// None so far: every input is read best-effort, with warnings (input that does not
/// start with `{\rtf` is read as RTF all the same, with a `not-rtf` warning). The
/// `Result` keeps the reader's signature the same as the others'.
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let body = &body[start..];
    let mut p = parser::Parser::new(body, options);
    if !body.starts_with(b"{\\rtf") {
        p.warn_once(
            "not-rtf",
            "the input does not start with {\\rtf; it was read as RTF all the same",
        );
    }
    p.run()
}
