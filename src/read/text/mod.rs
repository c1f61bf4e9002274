//! Plain text: paragraphs on blank lines, line breaks inside them, form feed (U+000C)
//! as a page break, and the headings, lists and running headers/footers its layout
//! shows ([`structure`]). The encoding is sniffed by [`super::encoding::decode`] (BOM, UTF-16
//! without BOM, UTF-8, the caller's `charset=`, then a single-byte guess).
//!
//! Line ends may be LF, CRLF or a lone CR. NUL and the other C0 control characters
//! except tab, LF, CR and FF carry no text; they are dropped with one warning.
//! Markdown syntax is not read here: a `#` line is a paragraph (text that is Markdown
//! is sniffed as Markdown before this reader runs).

pub(crate) mod aligned_table;
mod furniture;
pub(crate) mod structure;

use crate::error::ConvertError;
use crate::model::{Document, Warning};
use crate::options::ConvertOptions;

use super::encoding;

/// Reads plain text into paragraphs and page breaks. Undecodable bytes become U+FFFD
/// with a warning.
///
/// # Errors
/// [`ConvertError::TooManyElements`] when the text holds more paragraphs and page
/// breaks than the document's element budget (`super::budget`).
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    let hint = options.mime.as_deref().and_then(encoding::mime_charset);
    let decoded = encoding::decode(bytes, hint);
    let mut doc = Document::default();
    doc.warnings.extend(decoded.warning);
    let (text, dropped) = strip_controls(&decoded.text);
    if dropped > 0 {
        doc.warnings.push(Warning::new(
            "control-characters",
            format!("{dropped} NUL or other control character(s) carry no text and were dropped"),
        ));
    }
    let read = structure::read(&text)?;
    doc.body = read.body;
    doc.parts = read.parts;
    Ok(doc)
}

/// Drops C0 controls other than tab, LF, CR and FF (and DEL); returns the text and
/// how many were dropped. Borrows nothing new when there are none.
pub(crate) fn strip_controls(text: &str) -> (std::borrow::Cow<'_, str>, usize) {
    let bad = |c: char| (c < ' ' && !matches!(c, '\t' | '\n' | '\r' | '\u{000C}')) || c == '\u{7F}';
    let dropped = text.chars().filter(|&c| bad(c)).count();
    if dropped == 0 {
        return (std::borrow::Cow::Borrowed(text), 0);
    }
    (
        std::borrow::Cow::Owned(text.chars().filter(|&c| !bad(c)).collect()),
        dropped,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Block;

    fn texts(doc: &Document) -> Vec<String> {
        doc.body
            .iter()
            .map(|b| {
                let mut s = String::new();
                b.plain_text(&mut s);
                s
            })
            .collect()
    }

    #[test]
    fn paragraphs_breaks_and_pages() {
        let doc = read(b"a\r\nb\r\n\r\nc\x0Cd\re", &ConvertOptions::default()).unwrap();
        assert_eq!(texts(&doc), ["a\nb\n", "c\n", "", "d\ne\n"]);
        assert_eq!(doc.body[2], Block::PageBreak);
    }

    #[test]
    fn nul_dropped_with_warning() {
        let doc = read(b"a\0b", &ConvertOptions::default()).unwrap();
        assert_eq!(texts(&doc), ["ab\n"]);
        assert_eq!(doc.warnings[0].code, "control-characters");
    }
}
