//! Plain text: paragraphs on blank lines, form feed as a page break.

use crate::model::{Block, Document, Inline, Paragraph, ParagraphKind, TextStyle};

/// Reads plain text (UTF-8, BOM stripped; invalid sequences replaced).
pub fn read(bytes: &[u8]) -> Document {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    let mut doc = Document::default();
    for (page_no, page) in text.split('\u{000C}').enumerate() {
        if page_no > 0 {
            doc.body.push(Block::PageBreak);
        }
        let mut para: Vec<&str> = Vec::new();
        for line in page.lines().chain(std::iter::once("")) {
            if line.trim().is_empty() {
                if !para.is_empty() {
                    let joined = para.join("\n");
                    let mut inlines = Vec::new();
                    for (i, l) in joined.split('\n').enumerate() {
                        if i > 0 {
                            inlines.push(Inline::LineBreak);
                        }
                        inlines.push(Inline::Text {
                            text: l.to_string(),
                            style: TextStyle::default(),
                        });
                    }
                    doc.body.push(Block::Paragraph(Paragraph {
                        kind: ParagraphKind::Normal,
                        inlines,
                    }));
                    para.clear();
                }
            } else {
                para.push(line.trim_end());
            }
        }
    }
    doc
}
