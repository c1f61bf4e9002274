//! Fair truncation for entire-document mode: the full texts of the selected documents
//! are capped together at [`ENTIRE_CHAR_CAP`] characters.
//!
//! Characters here are Unicode scalar values (Rust `char`s), not bytes and not UTF-16
//! units, so the cap means the same for every script.
//!
//! The cap is shared by water-filling: find the largest level `L` such that keeping
//! `min(length, L)` characters of every document fits the cap. Documents shorter than
//! `L` stay whole; the others are cut to `L` characters, which includes the
//! [`TRUNCATED_MARKER`] line appended to each cut document. A cut prefers a line end
//! when one falls in the last quarter of the allowance, and is always on a character
//! boundary. The result is deterministic and never longer than the cap.

/// The combined cap of entire-document mode, in characters (Unicode scalar values).
pub const ENTIRE_CHAR_CAP: usize = 400_000;

/// The value of the "vector chunks" output when entire-document text was truncated.
pub const TRUNCATED: &str = "TRUNCATED";

/// The line appended to a document that was cut (counted in its allowance).
pub const TRUNCATED_MARKER: &str =
    "\n[TRUNCATED: the rest of this document was left out to fit the size limit]";

/// The result of [`fair_truncate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truncation {
    /// The texts, in input order, each whole or cut with the marker.
    pub texts: Vec<String>,
    /// Per input: whether it was cut.
    pub cut: Vec<bool>,
    /// Whether any text was cut.
    pub truncated: bool,
    /// The common level in characters (marker included) when something was cut.
    pub level: Option<usize>,
}

impl Truncation {
    /// Total characters of all texts.
    pub fn chars(&self) -> usize {
        self.texts.iter().map(|t| t.chars().count()).sum()
    }
}

/// The water-filling level: the largest `L` with `sum(min(len, L)) <= cap`, or None
/// when everything fits.
pub fn level(lengths: &[usize], cap: usize) -> Option<usize> {
    if lengths.iter().sum::<usize>() <= cap {
        return None;
    }
    let mut sorted: Vec<usize> = lengths.to_vec();
    crate::order::sort(&mut sorted);
    let mut remaining = cap;
    let n = sorted.len();
    for (i, &len) in sorted.iter().enumerate() {
        let share = remaining / (n - i);
        if len > share {
            return Some(share);
        }
        remaining -= len;
    }
    None
}

/// The byte index at which to cut `text` to at most `keep` characters, at a line end
/// when one is in the last quarter of the kept part.
fn cut_point(text: &str, keep: usize) -> usize {
    let end = text.char_indices().nth(keep).map_or(text.len(), |(b, _)| b);
    let window_start_chars = keep - keep / 4;
    let window_start = text
        .char_indices()
        .nth(window_start_chars)
        .map_or(end, |(b, _)| b);
    match text[window_start..end].rfind('\n') {
        Some(nl) => window_start + nl,
        None => end,
    }
}

/// Caps `texts` together at `cap` characters by water-filling (see the module docs).
pub fn fair_truncate(texts: &[&str], cap: usize) -> Truncation {
    let lengths: Vec<usize> = texts.iter().map(|t| t.chars().count()).collect();
    let Some(level) = level(&lengths, cap) else {
        return Truncation {
            texts: texts.iter().map(|t| (*t).to_string()).collect(),
            cut: vec![false; texts.len()],
            truncated: false,
            level: None,
        };
    };
    let marker_chars = TRUNCATED_MARKER.chars().count();
    let mut out = Vec::with_capacity(texts.len());
    let mut cut = Vec::with_capacity(texts.len());
    for (text, &len) in texts.iter().zip(&lengths) {
        if len <= level {
            out.push((*text).to_string());
            cut.push(false);
            continue;
        }
        cut.push(true);
        if level < marker_chars {
            // No room for the marker: keep what fits of the text itself.
            let at = cut_point(text, level);
            out.push(text[..at].to_string());
            continue;
        }
        let at = cut_point(text, level - marker_chars);
        let mut s = String::with_capacity(at + TRUNCATED_MARKER.len());
        s.push_str(&text[..at]);
        s.push_str(TRUNCATED_MARKER);
        out.push(s);
    }
    Truncation {
        texts: out,
        cut,
        truncated: true,
        level: Some(level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn everything_fits_untouched() {
        let t = fair_truncate(&["a", "bb"], 3);
        assert!(!t.truncated);
        assert_eq!(t.texts, ["a", "bb"]);
    }

    #[test]
    fn small_stay_whole_large_share_a_level() {
        let big1 = "x".repeat(1000);
        let big2 = "y".repeat(5000);
        let t = fair_truncate(&["small", &big1, &big2], 505);
        assert!(t.truncated);
        assert_eq!(t.cut, [false, true, true]);
        assert_eq!(t.texts[0], "small");
        assert_eq!(t.level, Some(250));
        assert_eq!(t.texts[1].chars().count(), 250);
        assert_eq!(t.texts[2].chars().count(), 250);
        assert!(t.texts[1].ends_with(TRUNCATED_MARKER));
        assert!(t.chars() <= 505);
    }

    #[test]
    fn prefers_a_line_end_and_char_boundaries() {
        let text = format!("{}\n{}", "é".repeat(150), "中".repeat(500));
        let t = fair_truncate(&[&text], 250);
        assert!(t.texts[0].starts_with(&"é".repeat(150)));
        assert!(t.texts[0][..t.texts[0].len() - TRUNCATED_MARKER.len()].ends_with('é'));
        let t = fair_truncate(&[&"中".repeat(500)], 200);
        assert_eq!(t.texts[0].chars().count(), 200);
    }

    #[test]
    fn tiny_cap_has_no_marker_room() {
        let t = fair_truncate(&["abcdefghijklmnop"], 5);
        assert_eq!(t.texts[0], "abcde");
        assert!(t.truncated);
    }

    #[test]
    fn default_cap_is_400k() {
        let a = "a".repeat(300_000);
        let b = "b".repeat(300_000);
        let t = fair_truncate(&[&a, &b, "tiny"], ENTIRE_CHAR_CAP);
        assert_eq!(t.texts[2], "tiny");
        assert!(t.chars() <= ENTIRE_CHAR_CAP);
        assert!(t.chars() > ENTIRE_CHAR_CAP - 10);
    }

    proptest! {
        #[test]
        fn never_exceeds_small_untouched_deterministic(
            texts in proptest::collection::vec(any::<String>(), 0..6),
            cap in 0usize..400,
        ) {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let t = fair_truncate(&refs, cap);
            let total: usize = refs.iter().map(|s| s.chars().count()).sum();
            if total <= cap {
                prop_assert!(!t.truncated);
                prop_assert_eq!(&t.texts, &texts);
            } else {
                prop_assert!(t.chars() <= cap);
            }
            let fair_share = if refs.is_empty() { 0 } else { cap / refs.len() };
            for (i, s) in refs.iter().enumerate() {
                if s.chars().count() <= fair_share {
                    prop_assert_eq!(&t.texts[i], *s);
                    prop_assert!(!t.cut[i]);
                }
            }
            prop_assert_eq!(fair_truncate(&refs, cap), t);
        }
    }
}
