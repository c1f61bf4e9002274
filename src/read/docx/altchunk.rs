//! Imported content (ECMA-376 Part 1, 17.17.2.1 `w:altChunk`): a relationship to a part
//! in another format that Word converts when it opens the document.
//!
//! HTML parts (content type `text/html` / `application/xhtml+xml`, or a `.htm`/`.html`
//! name) are reduced to paragraphs of text by the small tag stripper below: scripts,
//! styles and comments are dropped, block-level tags end a paragraph, entities are
//! decoded. It is deliberately minimal; the HTML reader of the crate is the place for
//! real HTML. Plain-text parts become one paragraph per line. Other formats (RTF,
//! nested DOCX, MHT) get an `unsupported-altchunk` warning.

use crate::error::ConvertError;
use crate::model::{Block, Inline, Paragraph, TextStyle};

use super::ctx::Ctx;
use super::package::PartError;

/// Reads the altChunk target of relationship `id` into blocks.
///
/// # Errors
/// Fatal package limits only; a missing or damaged part is a warning.
pub(crate) fn read_alt_chunk(cx: &mut Ctx<'_, '_>, id: &str) -> Result<Vec<Block>, ConvertError> {
    let Some(rel) = cx.rels.get(id).filter(|r| !r.external).cloned() else {
        cx.warn(
            "missing-part",
            format!("w:altChunk {id} in {} has no target part", cx.part),
        );
        return Ok(Vec::new());
    };
    let ct = cx.pkg.content_type(&rel.target).unwrap_or("").to_string();
    let lower = rel.target.to_ascii_lowercase();
    let html = ct.contains("html")
        || lower.ends_with(".htm")
        || lower.ends_with(".html")
        || lower.ends_with(".xhtml");
    let text = ct.starts_with("text/plain") || lower.ends_with(".txt");
    if !html && !text {
        let msg = format!(
            "imported part {} ({}) in a w:altChunk is not read",
            rel.target,
            if ct.is_empty() { "unknown type" } else { &ct }
        );
        cx.warn("unsupported-altchunk", msg);
        return Ok(Vec::new());
    }
    let bytes = match cx.pkg.read(&rel.target) {
        Ok(b) => b,
        Err(PartError::Fatal(e)) => return Err(e),
        Err(PartError::Missing) => {
            cx.warn(
                "missing-part",
                format!("imported part {} is missing", rel.target),
            );
            return Ok(Vec::new());
        }
        Err(PartError::Corrupt(d)) => {
            cx.warn(
                "corrupt-part",
                format!("imported part {} is damaged: {d}", rel.target),
            );
            return Ok(Vec::new());
        }
    };
    if html {
        // The crate's HTML reader: encoding sniffing, tables, lists, styles.
        let options = crate::options::ConvertOptions {
            mime: (!ct.is_empty()).then(|| ct.clone()),
            limits: cx.limits.clone(),
            ..Default::default()
        };
        return match crate::read::html::read(&bytes, &options) {
            Ok(doc) => {
                for w in doc.warnings {
                    cx.warn(
                        w.code,
                        format!("imported part {}: {}", rel.target, w.message),
                    );
                }
                Ok(doc.body)
            }
            Err(ConvertError::Empty) => Ok(Vec::new()),
            Err(e) => Err(e),
        };
    }
    let source = decode(&bytes);
    Ok(source
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .map(|text| {
            Block::Paragraph(Paragraph {
                kind: Default::default(),
                inlines: vec![Inline::Text {
                    text,
                    style: TextStyle::default(),
                }],
            })
        })
        .collect())
}

/// UTF-8 (BOM stripped) or UTF-16 with a BOM; anything else is read as UTF-8 lossily.
fn decode(bytes: &[u8]) -> String {
    let utf16 = |be: bool| -> String {
        let units: Vec<u16> = bytes
            .get(2..)
            .unwrap_or(&[])
            .chunks_exact(2)
            .map(|c| {
                let (a, b) = (
                    c.first().copied().unwrap_or(0),
                    c.get(1).copied().unwrap_or(0),
                );
                if be {
                    u16::from_be_bytes([a, b])
                } else {
                    u16::from_le_bytes([a, b])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}
