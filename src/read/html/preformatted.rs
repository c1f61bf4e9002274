//! A page that is a plain-text document shown in HTML: nearly all of its text sits in
//! `<pre>` blocks with nothing between them (an RFC or Internet-Draft as the IETF's
//! tools render it, one `<pre>` per printed page; a text file served as a page).
//! Read as code, such a page would have no headings, no lists and no pages; read
//! as plain text ([`crate::read::text::structure`]) it has all three, and the running
//! header and footer of its printed pages become header/footer parts.

use crate::error::ConvertError;
use crate::model::{Block, Part};
use crate::read::text::structure;

/// Share of the page's text the run of `<pre>` blocks must hold.
const MIN_SHARE: f64 = 0.8;

/// Characters of preformatted text below which a page is not read as a text document
/// (a short code sample is code, whatever surrounds it).
const MIN_CHARS: usize = 2000;

fn chars(b: &Block) -> usize {
    let mut s = String::new();
    b.plain_text(&mut s);
    s.chars().filter(|c| !c.is_whitespace()).count()
}

/// Replaces the longest run of adjacent preformatted blocks (code with no language)
/// by its plain-text structure, when it holds at least [`MIN_SHARE`] of the page's
/// text; a page starts at each `<pre>` after the first. Returns the header/footer
/// parts its pages repeat (none when the page is not read so).
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget.
pub(super) fn as_text(body: &mut Vec<Block>) -> Result<Vec<Part>, ConvertError> {
    let pre = |b: &Block| matches!(b, Block::Code { language: None, .. });
    let total: usize = body.iter().map(chars).sum();
    let mut best: Option<(usize, usize, usize)> = None;
    let mut i = 0;
    while i < body.len() {
        if !pre(&body[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut n = 0;
        while i < body.len() && pre(&body[i]) {
            n += chars(&body[i]);
            i += 1;
        }
        if best.is_none_or(|b| n > b.2) {
            best = Some((start, i, n));
        }
    }
    let Some((start, end, n)) = best else {
        return Ok(Vec::new());
    };
    if n < MIN_CHARS || (n as f64) < total as f64 * MIN_SHARE {
        return Ok(Vec::new());
    }
    let texts: Vec<&str> = body[start..end]
        .iter()
        .filter_map(|b| match b {
            Block::Code { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let read = structure::read(&texts.join("\u{000C}"))?;
    body.splice(start..end, read.body);
    Ok(read.parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ParagraphKind, PartKind};

    fn page(n: usize, body: &str) -> Block {
        Block::Code {
            language: None,
            text: format!(
                "Internet-Draft      Widgets      May 2020\n\n{body}\n\nSmith        Expires June 2020        [Page {n}]"
            ),
        }
    }

    #[test]
    fn a_page_of_pre_blocks_reads_as_paginated_text() {
        let filler = "   The protocol sends each request over one connection and waits for\n   the answer before it sends the next one, so that order is kept.\n"
            .repeat(6);
        let mut body = vec![
            page(1, &format!("1. Introduction\n\n{filler}")),
            page(2, &format!("2. Requests\n\n{filler}\n{filler}")),
            page(3, &format!("2.1. Errors\n\n{filler}\n{filler}\n{filler}")),
        ];
        let parts = as_text(&mut body).unwrap();
        let headings: Vec<(u8, String)> = body
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph(p) => match p.kind {
                    ParagraphKind::Heading(l) => {
                        let mut s = String::new();
                        b.plain_text(&mut s);
                        Some((l, s.trim().to_string()))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(
            headings,
            [
                (1, "1. Introduction".into()),
                (1, "2. Requests".into()),
                (2, "2.1. Errors".into())
            ]
        );
        assert_eq!(body.iter().filter(|b| **b == Block::PageBreak).count(), 2);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].kind, PartKind::Header);
        let mut all = String::new();
        for b in &body {
            b.plain_text(&mut all);
        }
        assert!(
            !all.contains("Expires"),
            "footer lines left the body: {all}"
        );
    }

    #[test]
    fn a_code_sample_in_prose_stays_code() {
        let prose = Block::Paragraph(crate::model::Paragraph {
            kind: ParagraphKind::Normal,
            inlines: vec![crate::model::Inline::Text {
                text: "word ".repeat(200),
                style: Default::default(),
            }],
        });
        let code = Block::Code {
            language: None,
            text: "1. Step\n\n   let x = 1;\n".repeat(100),
        };
        let mut body = vec![prose, code.clone()];
        assert!(as_text(&mut body).unwrap().is_empty());
        assert_eq!(body[1], code);
    }
}
