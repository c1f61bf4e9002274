//! Plain text: paragraphs on blank lines, line breaks inside them, form feed (U+000C)
//! as a page break. The encoding is sniffed by [`super::encoding::decode`] (BOM, UTF-16
//! without BOM, UTF-8, the caller's `charset=`, then a single-byte guess).
//!
//! Line ends may be LF, CRLF or a lone CR. NUL and the other C0 control characters
//! except tab, LF, CR and FF carry no text; they are dropped with one warning.
//! Plain text stays plain: lines that look like Markdown headings are paragraphs.

use crate::error::ConvertError;
use crate::model::{Block, Document, Inline, Paragraph, ParagraphKind, TextStyle, Warning};
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
    doc.body = blocks(&text)?;
    Ok(doc)
}

/// The body blocks of decoded text.
fn blocks(text: &str) -> Result<Vec<Block>, ConvertError> {
    let mut body = Vec::new();
    for (page_no, page) in text.split('\u{000C}').enumerate() {
        if page_no > 0 {
            super::budget::take(1)?;
            body.push(Block::PageBreak);
        }
        let mut para: Vec<&str> = Vec::new();
        for line in lines(page).chain(std::iter::once("")) {
            if line.trim().is_empty() {
                if !para.is_empty() {
                    super::budget::take(1 + para.len() as u64)?;
                    body.push(paragraph(&para));
                    para.clear();
                }
            } else {
                para.push(line.trim_end());
            }
        }
    }
    Ok(body)
}

/// Lines split at LF, CRLF or a lone CR.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r'))
}

/// A paragraph of lines joined by line breaks.
fn paragraph(lines: &[&str]) -> Block {
    let mut inlines = Vec::with_capacity(lines.len() * 2);
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            inlines.push(Inline::LineBreak);
        }
        inlines.push(Inline::Text {
            text: (*l).to_string(),
            style: TextStyle::default(),
        });
    }
    Block::Paragraph(Paragraph {
        kind: ParagraphKind::Normal,
        inlines,
    })
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
