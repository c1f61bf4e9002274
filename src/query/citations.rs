//! Sources and citations: the ranked, numbered sources a context is built from, and
//! the builder that finds `[n]` markers in an answer and maps them back to sources.
//!
//! Markers: `[3]`, lists `[1, 2]` / `[1;2]`, ranges `[1-3]` (also with an en dash, and
//! reversed ranges such as `[3-1]`), with any spaces or tabs around the numbers.
//! `[^1]` (a footnote reference), `[1](...)` (a Markdown link) and `\\[1]` (an escaped
//! bracket, which is how [`super::answer`] quotes a bracketed number from a
//! document) are not markers.
//! A number with no source (0, or above the number of sources) stays in the text as
//! it is and is counted in [`CitationReport::unknown`]; no source is invented for it.
//!
//! Spans are given twice: `start`/`end` in UTF-8 bytes for Rust (slice the answer
//! with them), and `startUtf16`/`endUtf16` in UTF-16 code units for JavaScript
//! (`answer.slice(startUtf16, endUtf16)`). A span covers the whole marker, brackets
//! included, so `[1, 2]` gives the same span to source 1 and to source 2.
//!
//! [`build`] is total: it never panics and runs in time linear in the answer.

use serde::Serialize;

use crate::Chunk;

/// Longest snippet, in characters (Unicode scalar values).
pub const SNIPPET_CHARS: usize = 240;

/// Most digits read in one marker number; longer runs are not markers.
const MAX_DIGITS: usize = 9;

/// One numbered source: where a piece of context came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// The number the model cites it by, from 1 (0 before [`rank`]).
    pub number: usize,
    /// The document id (`ssDocId`).
    pub doc_id: String,
    /// The document title (`docTitle`).
    pub title: String,
    /// The heading path (`headingPath`), empty before the first heading.
    pub section: String,
    /// First page (1-based; 0 when unknown).
    pub first_page: i64,
    /// Last page (1-based; 0 when unknown).
    pub last_page: i64,
    /// Where the pages come from (`pageSource`: `rendered`, `explicit`, `estimated`;
    /// empty when the chunk has none).
    pub page_source: String,
    /// The chunk's sequence number in its document (`ssSeq`).
    pub seq: usize,
    /// The start of the chunk's text without its information line, whitespace
    /// collapsed, at most [`SNIPPET_CHARS`] characters (an ellipsis marks a cut).
    pub snippet: String,
    /// The retrieval score it was ranked by (higher is better).
    pub score: f64,
}

impl Source {
    /// The source of `chunk` (default metadata field names), unnumbered.
    pub fn from_chunk(chunk: &Chunk, score: f64) -> Self {
        let m = &chunk.metadata;
        let text = |k: &str| m.get_str(k).unwrap_or("").to_string();
        Source {
            number: 0,
            doc_id: text("ssDocId"),
            title: text("docTitle"),
            section: text("headingPath"),
            first_page: m.get_int("firstPage").unwrap_or(0),
            last_page: m.get_int("lastPage").unwrap_or(0),
            page_source: text("pageSource"),
            seq: m
                .get_int("ssSeq")
                .and_then(|s| usize::try_from(s).ok())
                .unwrap_or(0),
            snippet: snippet(&chunk.text),
            score,
        }
    }
}

/// `text` without a leading `[...]` information line, whitespace collapsed, cut to
/// [`SNIPPET_CHARS`] characters.
pub fn snippet(text: &str) -> String {
    let body = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with('[') && first.ends_with(']') => rest,
        _ => text,
    };
    let collapsed = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= SNIPPET_CHARS {
        return collapsed;
    }
    let mut out: String = collapsed.chars().take(SNIPPET_CHARS - 1).collect();
    // Prefer ending at a word boundary when one is near.
    if let Some(space) = out.rfind(' ')
        && out[space..].chars().count() <= 40
    {
        out.truncate(space);
    }
    out.push('…');
    out
}

/// Ranks `sources` by score (highest first; ties by document id, then sequence),
/// drops repeats of the same chunk, keeps at most `max`, and numbers them from 1.
pub fn rank(mut sources: Vec<Source>, max: usize) -> Vec<Source> {
    crate::order::sort_by(&mut sources, |a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.doc_id.cmp(&b.doc_id))
            .then_with(|| a.seq.cmp(&b.seq))
    });
    let mut out: Vec<Source> = Vec::with_capacity(max.min(sources.len()));
    for s in sources {
        if out.len() >= max {
            break;
        }
        if out.iter().any(|o| o.doc_id == s.doc_id && o.seq == s.seq) {
            continue;
        }
        out.push(s);
    }
    for (i, s) in out.iter_mut().enumerate() {
        s.number = i + 1;
    }
    out
}

/// Where a marker is in the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// Start, UTF-8 bytes (the `[`).
    pub start: usize,
    /// End, UTF-8 bytes, exclusive (after the `]`).
    pub end: usize,
    /// Start, UTF-16 code units (for JavaScript strings).
    pub start_utf16: usize,
    /// End, UTF-16 code units, exclusive.
    pub end_utf16: usize,
}

/// One cited source with every place it is cited.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    /// The source.
    #[serde(flatten)]
    pub source: Source,
    /// Every marker that cites it, in answer order.
    pub spans: Vec<Span>,
}

/// The citations of one answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CitationReport {
    /// One per distinct cited source, in order of first citation.
    pub citations: Vec<Citation>,
    /// How many cited numbers had no source (each number of a range counts).
    pub unknown: u64,
    /// Whether the answer cites at least one known source.
    pub grounded: bool,
}

/// One parsed marker: byte span and its `(low, high)` number ranges.
struct Marker {
    start: usize,
    end: usize,
    ranges: Vec<(u64, u64)>,
}

fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn number(b: &[u8], i: usize) -> Option<(u64, usize)> {
    let mut j = i;
    let mut n: u64 = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        if j - i >= MAX_DIGITS {
            return None;
        }
        n = n * 10 + u64::from(b[j] - b'0');
        j += 1;
    }
    (j > i).then_some((n, j))
}

/// A dash at `i`: `-`, en dash or em dash; returns the index after it.
fn dash(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) == Some(&b'-') {
        return Some(i + 1);
    }
    // U+2013 and U+2014 are E2 80 93 / E2 80 94.
    match b.get(i..i + 3) {
        Some([0xE2, 0x80, 0x93 | 0x94]) => Some(i + 3),
        _ => None,
    }
}

/// The marker starting at `start` (a `[`), if there is one.
fn marker_at(b: &[u8], start: usize) -> Option<Marker> {
    let mut ranges = Vec::new();
    let mut i = start + 1;
    loop {
        i = skip_blanks(b, i);
        let (lo, after) = number(b, i)?;
        i = skip_blanks(b, after);
        let mut hi = lo;
        if let Some(after_dash) = dash(b, i) {
            let (h, after_hi) = number(b, skip_blanks(b, after_dash))?;
            hi = h;
            i = skip_blanks(b, after_hi);
        }
        ranges.push((lo.min(hi), lo.max(hi)));
        match b.get(i) {
            Some(b']') => {
                let end = i + 1;
                if b.get(end) == Some(&b'(') {
                    return None;
                }
                return Some(Marker { start, end, ranges });
            }
            Some(b',' | b';') => i += 1,
            _ => return None,
        }
    }
}

/// Counts UTF-16 units incrementally along `text` (positions must not go back).
struct Utf16Cursor {
    byte: usize,
    units: usize,
}

impl Utf16Cursor {
    fn advance(&mut self, text: &str, to: usize) -> usize {
        if let Some(part) = text.get(self.byte..to) {
            self.units += part.chars().map(char::len_utf16).sum::<usize>();
            self.byte = to;
        }
        self.units
    }
}

/// Finds every marker in `answer` and returns one citation per distinct known source
/// (`sources[k]` is number `k + 1`, whatever its `number` field says).
pub fn build(answer: &str, sources: &[Source]) -> CitationReport {
    let b = answer.as_bytes();
    let known = sources.len() as u64;
    let mut order: Vec<usize> = Vec::new();
    let mut spans: Vec<Vec<Span>> = vec![Vec::new(); sources.len()];
    let mut unknown: u64 = 0;
    let mut cursor = Utf16Cursor { byte: 0, units: 0 };
    let mut i = 0usize;
    while i < b.len() {
        if b[i] != b'[' || (i > 0 && b[i - 1] == b'\\') {
            i += 1;
            continue;
        }
        let Some(m) = marker_at(b, i) else {
            i += 1;
            continue;
        };
        let span = Span {
            start: m.start,
            end: m.end,
            start_utf16: cursor.advance(answer, m.start),
            end_utf16: cursor.advance(answer, m.end),
        };
        let mut cited: Vec<usize> = Vec::new();
        for (lo, hi) in m.ranges {
            let width = hi - lo + 1;
            let k_lo = lo.max(1);
            let k_hi = hi.min(known);
            let inside = if k_lo <= k_hi { k_hi - k_lo + 1 } else { 0 };
            unknown = unknown.saturating_add(width - inside);
            if inside > 0 {
                for n in k_lo..=k_hi {
                    let k = (n - 1) as usize;
                    if !cited.contains(&k) {
                        cited.push(k);
                    }
                }
            }
        }
        for k in cited {
            if spans[k].is_empty() {
                order.push(k);
            }
            spans[k].push(span);
        }
        i = m.end;
    }
    let citations: Vec<Citation> = order
        .into_iter()
        .map(|k| {
            let mut source = sources[k].clone();
            source.number = k + 1;
            Citation {
                source,
                spans: std::mem::take(&mut spans[k]),
            }
        })
        .collect();
    let grounded = !citations.is_empty();
    CitationReport {
        citations,
        unknown,
        grounded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sources(n: usize) -> Vec<Source> {
        (0..n)
            .map(|i| Source {
                number: i + 1,
                doc_id: format!("d{i}"),
                title: format!("T{i}"),
                section: String::new(),
                first_page: 1,
                last_page: 1,
                page_source: "explicit".into(),
                seq: i,
                snippet: String::new(),
                score: 0.0,
            })
            .collect()
    }

    fn numbers(r: &CitationReport) -> Vec<usize> {
        r.citations.iter().map(|c| c.source.number).collect()
    }

    #[test]
    fn single_list_and_range_markers() {
        let a = "Revenue rose [2]. Costs fell [1, 3] and [1-3].";
        let r = build(a, &sources(3));
        assert_eq!(numbers(&r), [2, 1, 3]);
        assert_eq!(r.unknown, 0);
        assert!(r.grounded);
        let one = &r.citations[1];
        assert_eq!(one.spans.len(), 2);
        assert_eq!(&a[one.spans[0].start..one.spans[0].end], "[1, 3]");
        assert_eq!(&a[one.spans[1].start..one.spans[1].end], "[1-3]");
    }

    #[test]
    fn odd_spacing_dashes_and_separators() {
        let r = build("x [ 1 ,2 ] y [2 – 3] z [3;1] w [\t2\t]", &sources(3));
        assert_eq!(numbers(&r), [1, 2, 3]);
        assert_eq!(r.citations[1].spans.len(), 3);
        let r = build("[3-1]", &sources(3));
        assert_eq!(numbers(&r), [1, 2, 3]);
    }

    #[test]
    fn unknown_numbers_are_counted_not_invented() {
        let a = "See [7] and [0] and [2, 9] and [2-5].";
        let r = build(a, &sources(3));
        assert_eq!(numbers(&r), [2, 3]);
        assert_eq!(r.unknown, 1 + 1 + 1 + 2);
        let r = build("Nothing [4].", &sources(3));
        assert!(!r.grounded);
        assert!(r.citations.is_empty());
        assert_eq!(r.unknown, 1);
    }

    #[test]
    fn not_markers() {
        let r = build(
            "[^1] note, [link](x), [1](http://a), [], [a], [1,], [1-], [-1], [12345678901], [1 2], \\[2]",
            &sources(3),
        );
        assert!(r.citations.is_empty());
        assert_eq!(r.unknown, 0);
    }

    #[test]
    fn huge_range_is_cheap() {
        let r = build("[1-999999999]", &sources(2));
        assert_eq!(numbers(&r), [1, 2]);
        assert_eq!(r.unknown, 999_999_997);
    }

    #[test]
    fn utf16_offsets_count_surrogate_pairs() {
        let a = "😀é [1] 中文 [2]";
        let r = build(a, &sources(2));
        let s = r.citations[1].spans[0];
        let units: Vec<u16> = a.encode_utf16().collect();
        assert_eq!(
            String::from_utf16(&units[s.start_utf16..s.end_utf16]).unwrap(),
            "[2]"
        );
        assert_eq!(r.citations[0].spans[0].start_utf16, 4);
    }

    #[test]
    fn rank_sorts_dedupes_clamps_and_numbers() {
        let mut v = sources(4);
        for (s, score) in v.iter_mut().zip([0.1, 0.9, 0.5, 0.9]) {
            s.score = score;
        }
        v.push(v[1].clone());
        let r = rank(v, 3);
        let ids: Vec<&str> = r.iter().map(|s| s.doc_id.as_str()).collect();
        assert_eq!(ids, ["d1", "d3", "d2"]);
        assert_eq!(r.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn snippet_drops_the_info_line_and_cuts() {
        assert_eq!(snippet("[Document: A]\nHello   world\n"), "Hello world");
        let long = "word ".repeat(200);
        let s = snippet(&long);
        assert!(s.chars().count() <= SNIPPET_CHARS);
        assert!(s.ends_with('…'));
        let one = "x".repeat(1000);
        assert_eq!(snippet(&one).chars().count(), SNIPPET_CHARS);
    }

    #[test]
    fn citation_json_has_both_offsets() {
        let r = build("[1]", &sources(1));
        let j = serde_json::to_value(&r).unwrap();
        assert_eq!(j["citations"][0]["docId"], "d0");
        assert_eq!(j["citations"][0]["spans"][0]["endUtf16"], 3);
        assert_eq!(j["grounded"], true);
    }

    proptest! {
        #[test]
        fn any_text_any_sources(text in any::<String>(), n in 0usize..6) {
            let r = build(&text, &sources(n));
            prop_assert_eq!(r.grounded, !r.citations.is_empty());
            for c in &r.citations {
                prop_assert!(c.source.number >= 1 && c.source.number <= n);
                for s in &c.spans {
                    let m = text.get(s.start..s.end).unwrap();
                    prop_assert!(m.starts_with('[') && m.ends_with(']'));
                    prop_assert_eq!(s.start_utf16, text[..s.start].encode_utf16().count());
                    prop_assert_eq!(s.end_utf16, text[..s.end].encode_utf16().count());
                }
            }
        }

        #[test]
        fn markers_spliced_into_text_are_found(
            parts in proptest::collection::vec((any::<String>(), 1usize..4), 1..5)
        ) {
            let mut text = String::new();
            let mut expected = Vec::new();
            for (filler, n) in &parts {
                // Keep filler from touching the marker brackets.
                let clean: String = filler.chars().filter(|c| *c != '[' && *c != ']' && *c != '(').collect();
                text.push_str(&clean);
                text.push(' ');
                expected.push((text.len(), *n));
                text.push_str(&format!("[{n}]"));
                text.push(' ');
            }
            let r = build(&text, &sources(3));
            prop_assert_eq!(r.unknown, 0);
            for (start, n) in expected {
                let c = r.citations.iter().find(|c| c.source.number == n).unwrap();
                prop_assert!(c.spans.iter().any(|s| s.start == start));
            }
        }
    }
}
