//! Citation markers of summaries: `[chunk-N]` within one document, `[docId:N]`
//! across a collection (N = `ssSeq`), and their validation against one call's input.
//!
//! Reading a marker: a `[` not preceded by `\`, up to the next `]` on the same line
//! (at most 300 bytes), not followed by `(` (a Markdown link). Its content is split at
//! `,` and `;`; each trimmed item is a citation when it is `chunk-N` (any case) or
//! `ID:N` with an id of no whitespace that is not all digits. Brackets with no such
//! item (`[Document: X]`, `[12]`, `[note]`) are not citations. So `[chunk-3, chunk-5]`
//! is two citations.
//!
//! Validation is strict about the style: in a one-document summary only `chunk-N`
//! items count as valid, across a collection only `docId:N` items; each must name a
//! chunk in the call's input.

use std::collections::BTreeSet;

use serde::Serialize;

/// How markers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CiteStyle {
    /// `[chunk-N]`: one document.
    Chunk,
    /// `[docId:N]`: several documents.
    DocSeq,
}

/// A chunk as the summarizer names it: position of the document in the run, `ssSeq`.
pub(crate) type Key = (usize, usize);

/// One item read from a reply, as written (without brackets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// `chunk-N`.
    Chunk(usize),
    /// `ID:N`.
    Doc(String, usize),
}

/// Where a marker is: byte range of the whole bracket, and its items.
#[derive(Debug, Clone)]
pub(crate) struct Marker {
    pub start: usize,
    pub end: usize,
    pub items: Vec<(Item, String)>,
}

fn item(s: &str) -> Option<Item> {
    let s = s.trim();
    if let Some(n) = s.get(..6).filter(|p| p.eq_ignore_ascii_case("chunk-")) {
        let digits = &s[n.len()..];
        if !digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit()) {
            return digits.parse().ok().map(Item::Chunk);
        }
        return None;
    }
    let (id, n) = s.rsplit_once(':')?;
    if id.is_empty()
        || id.chars().any(char::is_whitespace)
        || id.bytes().all(|b| b.is_ascii_digit())
        || n.is_empty()
        || n.len() > 9
        || !n.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some(Item::Doc(id.to_string(), n.parse().ok()?))
}

/// Every citation marker of `text`, in order.
pub(crate) fn markers(text: &str) -> Vec<Marker> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = text[i..].find('[') {
        let start = i + off;
        i = start + 1;
        if start > 0 && bytes[start - 1] == b'\\' {
            continue;
        }
        let rest = &text[start + 1..];
        let Some(close) = rest.find([']', '\n', '[']) else {
            break;
        };
        if rest.as_bytes()[close] != b']' || close > 300 {
            continue;
        }
        let end = start + 1 + close + 1;
        if bytes.get(end) == Some(&b'(') {
            continue;
        }
        let items: Vec<(Item, String)> = rest[..close]
            .split([',', ';'])
            .filter_map(|s| item(s).map(|it| (it, s.trim().to_string())))
            .collect();
        if !items.is_empty() {
            out.push(Marker { start, end, items });
            i = end;
        }
    }
    out
}

/// The names of the documents of a run, to read and write markers.
#[derive(Debug, Clone)]
pub(crate) struct Namer {
    pub style: CiteStyle,
    pub doc_ids: Vec<String>,
}

impl Namer {
    /// The marker text of `key`, without brackets.
    pub fn id(&self, key: Key) -> String {
        match self.style {
            CiteStyle::Chunk => format!("chunk-{}", key.1),
            CiteStyle::DocSeq => format!("{}:{}", self.doc_ids[key.0], key.1),
        }
    }

    /// The key an item names, when it is of the run's style and names a known
    /// document (the chunk may still be outside a call's input).
    pub fn key(&self, item: &Item) -> Option<Key> {
        match (self.style, item) {
            (CiteStyle::Chunk, Item::Chunk(n)) => Some((0, *n)),
            (CiteStyle::DocSeq, Item::Doc(id, n)) => {
                self.doc_ids.iter().position(|d| d == id).map(|p| (p, *n))
            }
            _ => None,
        }
    }
}

/// What the markers of one reply say about one call's input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Check {
    /// Distinct valid keys cited, in order of first citation.
    pub valid: Vec<Key>,
    /// Distinct invalid items, as written, in order.
    pub invalid: Vec<String>,
}

impl Check {
    /// Whether the reply passes: at least one citation and none invalid.
    pub fn passes(&self) -> bool {
        !self.valid.is_empty() && self.invalid.is_empty()
    }
}

/// Checks the markers of `text` against `allowed`.
pub(crate) fn check(text: &str, namer: &Namer, allowed: &BTreeSet<Key>) -> Check {
    let mut c = Check::default();
    for m in markers(text) {
        for (it, raw) in &m.items {
            match namer.key(it).filter(|k| allowed.contains(k)) {
                Some(k) => {
                    if !c.valid.contains(&k) {
                        c.valid.push(k);
                    }
                }
                None => {
                    if !c.invalid.contains(raw) {
                        c.invalid.push(raw.clone());
                    }
                }
            }
        }
    }
    c
}

/// `text` without its invalid items: a marker keeps its valid items, and a marker
/// with none left is removed (with one space before it).
pub(crate) fn strip_invalid(text: &str, namer: &Namer, allowed: &BTreeSet<Key>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in markers(text) {
        let keep: Vec<String> = m
            .items
            .iter()
            .filter(|(it, _)| namer.key(it).is_some_and(|k| allowed.contains(&k)))
            .map(|(it, _)| namer.id(namer.key(it).unwrap_or_default()))
            .collect();
        let mut head = &text[last..m.start];
        if keep.is_empty() {
            head = head.strip_suffix(' ').unwrap_or(head);
        }
        out.push_str(head);
        if !keep.is_empty() {
            out.push('[');
            out.push_str(&keep.join(", "));
            out.push(']');
        }
        last = m.end;
    }
    out.push_str(&text[last..]);
    out
}

/// `text` with a `\` before every `[` that would read as a citation marker, so
/// document text quoted in a summary cannot cite.
pub(crate) fn escape(text: &str) -> String {
    let ms = markers(text);
    if ms.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + ms.len());
    let mut last = 0;
    for m in ms {
        out.push_str(&text[last..m.start]);
        out.push('\\');
        last = m.start;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one() -> Namer {
        Namer {
            style: CiteStyle::Chunk,
            doc_ids: vec!["a".into()],
        }
    }

    #[test]
    fn reads_markers_and_lists() {
        let t =
            "x [chunk-3] y [Chunk-4; chunk-5] [Document: A] [12] [see](u) \\[chunk-9] [doc-1:7]";
        let m = markers(t);
        let items: Vec<Vec<String>> = m
            .iter()
            .map(|m| m.items.iter().map(|(_, r)| r.clone()).collect())
            .collect();
        assert_eq!(
            items,
            vec![
                vec!["chunk-3".to_string()],
                vec!["Chunk-4".into(), "chunk-5".into()],
                vec!["doc-1:7".into()]
            ]
        );
    }

    #[test]
    fn checks_against_the_input() {
        let allowed: BTreeSet<Key> = [(0, 3), (0, 4)].into();
        let c = check(
            "- a [chunk-3]\n- b [chunk-4, chunk-99] [x:2]",
            &one(),
            &allowed,
        );
        assert_eq!(c.valid, vec![(0, 3), (0, 4)]);
        assert_eq!(c.invalid, vec!["chunk-99".to_string(), "x:2".into()]);
        assert!(!c.passes());
        assert!(!check("no markers", &one(), &allowed).passes());
        assert!(check("[chunk-4]", &one(), &allowed).passes());
    }

    #[test]
    fn collection_style_and_stripping() {
        let n = Namer {
            style: CiteStyle::DocSeq,
            doc_ids: vec!["a".into(), "b-2".into()],
        };
        let allowed: BTreeSet<Key> = [(1, 7)].into();
        let c = check("- p [b-2:7] [chunk-7] [a:7]", &n, &allowed);
        assert_eq!(c.valid, vec![(1, 7)]);
        assert_eq!(c.invalid, vec!["chunk-7".to_string(), "a:7".into()]);
        assert_eq!(
            strip_invalid("- p [b-2:7, a:1] q [a:7].", &n, &allowed),
            "- p [b-2:7] q."
        );
    }

    #[test]
    fn escaping_disarms_document_markers() {
        let e = escape("see [chunk-2] and [1]");
        assert_eq!(e, "see \\[chunk-2] and [1]");
        assert!(markers(&e).is_empty());
    }
}
