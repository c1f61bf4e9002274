//! Content sniffing among the text formats: HTML by how the file starts, Markdown by
//! several distinct kinds of Markdown syntax, dense enough for the file's length.

use crate::read::encoding;

/// How sure the start of a file is that it is HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Html {
    /// Not HTML.
    No,
    /// Starts with a common body tag (`<p>`, `<div>`, `<table>`, ...): HTML unless the
    /// rest reads as Markdown (which allows HTML blocks).
    Likely,
    /// Starts with a doctype, `<html>`, `<head>` or `<body>`.
    Certain,
}

/// The first `n` bytes as text, for sniffing: UTF-16 (BOM or NUL pattern) is decoded,
/// anything else read as UTF-8 with replacement; a BOM is removed.
pub(super) fn text_sample(bytes: &[u8], n: usize) -> String {
    let utf16 = match encoding_rs::Encoding::for_bom(bytes) {
        Some((enc, bom)) if enc != encoding_rs::UTF_8 => Some((enc, bom)),
        _ => encoding::utf16_without_bom(bytes).map(|e| (e, 0)),
    };
    match utf16 {
        Some((enc, bom)) => {
            let end = (bom + 2 * n).min(bytes.len());
            enc.decode_without_bom_handling(&bytes[bom..end])
                .0
                .into_owned()
        }
        None => {
            let b = &bytes[..n.min(bytes.len())];
            let b = b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b);
            String::from_utf8_lossy(b).into_owned()
        }
    }
}

/// The first `n` bytes as text (see [`text_sample`]).
pub(super) fn ascii_head(bytes: &[u8], n: usize) -> String {
    text_sample(bytes, n)
}

/// Whether `head` (the start of a file) is HTML. White space, comments (`<!-- -->`)
/// and processing instructions (`<?xml ...?>`) are skipped first; tag names compare
/// case-insensitively (HTML Standard 13.2.5.8).
pub fn looks_like_html(head: &str) -> Html {
    let mut s = head.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    for _ in 0..64 {
        let (open, close) = if s.starts_with("<!--") {
            ("<!--", "-->")
        } else if s.starts_with("<?") {
            ("<?", "?>")
        } else {
            break;
        };
        match s[open.len()..].find(close) {
            Some(end) => s = s[open.len() + end + close.len()..].trim_start(),
            None => return Html::No,
        }
    }
    let lower: String = s.chars().take(16).collect::<String>().to_ascii_lowercase();
    let tag_is = |names: &[&str]| {
        names.iter().any(|n| {
            lower
                .strip_prefix('<')
                .and_then(|r| r.strip_prefix(n))
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '>', '/', '\t', '\n', '\r']))
        })
    };
    if lower.starts_with("<!doctype html") || tag_is(&["html", "head", "body"]) {
        Html::Certain
    } else if tag_is(&[
        "meta", "title", "table", "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "br",
        "span", "section", "article", "header", "main", "link", "style", "script", "center",
        "font",
    ]) {
        Html::Likely
    } else {
        Html::No
    }
}

/// Whether `text` reads as Markdown rather than plain text.
///
/// Counts, per line: ATX headings (`# Title`), fenced code (pairs of ```` ``` ```` or
/// `~~~` lines), GFM pipe tables (a delimiter row such as `|---|:--:|` under a row with
/// a `|`), inline links `[text](url)`, link reference definitions `[x]: url`, and
/// setext underlines (`===`/`---` under a text line). Markdown needs two distinct
/// kinds (a pipe table counts as two: its header and delimiter rows), at least two
/// strong signals, and one strong signal per 50 non-blank lines; setext underlines
/// count as a kind but not as a strong signal, because plain-text banners look the
/// same. So `# comment` lines alone, or a long e-mail digest with a few links, stay
/// text.
pub fn looks_like_markdown(text: &str) -> bool {
    let mut c = Counts::default();
    let mut prev = "";
    for line in text.lines() {
        let t = line.trim_end();
        if t.trim().is_empty() {
            prev = "";
            continue;
        }
        c.nonblank += 1;
        let lead = t.len() - t.trim_start().len();
        let body = t.trim_start();
        if lead <= 3 {
            if is_atx(body) {
                c.atx += 1;
            } else if body.starts_with("```") || body.starts_with("~~~") {
                c.fences += 1;
            } else if is_refdef(body) {
                c.refdefs += 1;
            } else if prev.contains('|') && is_delimiter_row(body) {
                c.tables += 1;
            } else if !prev.is_empty() && is_setext(body) && !is_setext(prev.trim()) {
                c.setext += 1;
            }
        }
        c.links += inline_links(t);
        prev = t;
    }
    c.is_markdown()
}

#[derive(Default)]
struct Counts {
    nonblank: usize,
    atx: usize,
    fences: usize,
    tables: usize,
    links: usize,
    refdefs: usize,
    setext: usize,
}

impl Counts {
    fn is_markdown(&self) -> bool {
        let fence_pairs = self.fences / 2;
        let kinds = [
            self.atx,
            fence_pairs,
            self.tables,
            self.tables,
            self.links,
            self.refdefs,
            self.setext,
        ]
        .iter()
        .filter(|&&n| n > 0)
        .count();
        let strong = self.atx + fence_pairs + 2 * self.tables + self.links + self.refdefs;
        kinds >= 2 && strong >= 2 && strong * 50 >= self.nonblank
    }
}

/// `#`..`######` followed by a space and some text (CommonMark 4.2).
fn is_atx(s: &str) -> bool {
    let hashes = s.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes)
        && s[hashes..].starts_with([' ', '\t'])
        && !s[hashes..].trim_matches(['#', ' ', '\t']).is_empty()
}

/// `[label]: destination` (CommonMark 4.7), on one line.
fn is_refdef(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('[') else {
        return false;
    };
    match rest.find("]:") {
        Some(end) if end > 0 && !rest[..end].contains(['[', ']']) => {
            !rest[end + 2..].trim().is_empty() && rest[end + 2..].starts_with([' ', '\t'])
        }
        _ => false,
    }
}

/// A GFM table delimiter row (GFM 4.10): cells of `:?-+:?` separated by `|`.
fn is_delimiter_row(s: &str) -> bool {
    if !s.contains('|') || !s.contains('-') {
        return false;
    }
    let inner = s.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').all(|cell| {
        let c = cell.trim();
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        !c.is_empty() && c.bytes().all(|b| b == b'-')
    })
}

/// A setext underline: only `=` (or only `-`), at least three.
fn is_setext(s: &str) -> bool {
    s.len() >= 3 && (s.bytes().all(|b| b == b'=') || s.bytes().all(|b| b == b'-'))
}

/// How many `[text](target)` links with a target free of white space the line has.
fn inline_links(line: &str) -> usize {
    let mut n = 0;
    let mut rest = line;
    while let Some(pos) = rest.find("](") {
        let before = &rest[..pos];
        let after = &rest[pos + 2..];
        let text_ok = before
            .rfind('[')
            .is_some_and(|open| open + 1 < before.len() && !before[open + 1..].contains(']'));
        let target_ok = after
            .find(')')
            .is_some_and(|end| end > 0 && !after[..end].contains(char::is_whitespace));
        if text_ok && target_ok {
            n += 1;
        }
        rest = after;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_starts() {
        assert_eq!(
            looks_like_html("<?xml version=\"1.0\"?>\n<!DOCTYPE HTML PUBLIC"),
            Html::Certain
        );
        assert_eq!(looks_like_html("  <HTML lang=en>"), Html::Certain);
        assert_eq!(looks_like_html("<p>Hi"), Html::Likely);
        assert_eq!(looks_like_html("<pre>"), Html::No);
        assert_eq!(looks_like_html("<!-- unclosed"), Html::No);
        assert_eq!(looks_like_html("Hello <html>"), Html::No);
    }

    #[test]
    fn markdown_signals() {
        assert!(looks_like_markdown(
            "# Title\n\nSee [the docs](http://x.org).\n"
        ));
        assert!(looks_like_markdown("| a | b |\n|---|--:|\n| 1 | 2 |\n"));
        assert!(!looks_like_markdown(
            "# comment\n# another comment\nplain\n"
        ));
        assert!(!looks_like_markdown("Title\n=====\n\nJust prose.\n"));
        let long = "prose line\n".repeat(500) + "# One\n[a](b)\n";
        assert!(!looks_like_markdown(&long));
    }
}
