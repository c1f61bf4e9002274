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
    let source = decode(&bytes);
    let lines = if html {
        strip_html(&source)
    } else {
        source.lines().map(str::to_string).collect()
    };
    Ok(lines
        .into_iter()
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

/// Tags that end a line of text.
const BLOCK_TAGS: &[&str] = &[
    "p",
    "div",
    "br",
    "li",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "blockquote",
    "pre",
    "hr",
    "section",
    "article",
    "header",
    "footer",
    "title",
    "td",
    "th",
    "body",
];

/// The text lines of an HTML document.
fn strip_html(src: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut rest = src;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            cur.push_str(&decode_entities(rest));
            break;
        };
        cur.push_str(&decode_entities(rest.get(..lt).unwrap_or("")));
        rest = rest.get(lt..).unwrap_or("");
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after
                .find("-->")
                .and_then(|i| after.get(i + 3..))
                .unwrap_or("");
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = rest.get(1..end).unwrap_or("");
        rest = rest.get(end + 1..).unwrap_or("");
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if !tag.starts_with('/') && matches!(name.as_str(), "script" | "style") {
            let close = format!("</{name}");
            let lower = rest.to_ascii_lowercase();
            let at = lower.find(&close).unwrap_or(rest.len());
            rest = rest.get(at..).unwrap_or("");
            continue;
        }
        if BLOCK_TAGS.contains(&name.as_str()) {
            if matches!(name.as_str(), "td" | "th") {
                cur.push(' ');
                continue;
            }
            lines.push(std::mem::take(&mut cur));
        }
    }
    lines.push(cur);
    lines
}

/// Decodes the common named entities and numeric character references.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp).unwrap_or(""));
        rest = rest.get(amp..).unwrap_or("");
        let semi = rest.find(';').filter(|&i| i <= 10);
        let decoded = semi.and_then(|i| {
            let name = rest.get(1..i)?;
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" | "#39" => '\'',
                "nbsp" => ' ',
                n if n.starts_with("#x") || n.starts_with("#X") => {
                    char::from_u32(u32::from_str_radix(n.get(2..)?, 16).ok()?)?
                }
                n if n.starts_with('#') => char::from_u32(n.get(1..)?.parse().ok()?)?,
                _ => return None,
            };
            Some((c, i))
        });
        match decoded {
            Some((c, i)) => {
                out.push(c);
                rest = rest.get(i + 1..).unwrap_or("");
            }
            None => {
                out.push('&');
                rest = rest.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::strip_html;

    #[test]
    fn strips_tags() {
        let lines: Vec<String> = strip_html("<html><head><style>p{}</style></head><body><p>A &amp; B</p><script>x()</script><p>C<br>D</p></body></html>")
            .into_iter()
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert_eq!(lines, vec!["A & B", "C", "D"]);
    }
}
