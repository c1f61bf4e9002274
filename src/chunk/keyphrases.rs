//! Key-phrase lists for the metadata record: deduplicated, capped, `"; "` joined.
//!
//! The enrichment side builds its index document from these lists alone, so they must
//! be informative, but records must stay small: each list keeps at most
//! [`MAX_ITEMS`] phrases and about [`MAX_CHARS`] characters, each phrase at most
//! [`MAX_PHRASE_CHARS`] characters.

use super::escape::{clip_words, one_line};

/// Most phrases in one list.
pub const MAX_ITEMS: usize = 20;
/// Most characters in one joined list (approximately; a phrase is never cut for it).
pub const MAX_CHARS: usize = 500;
/// Longest single phrase, in characters.
pub const MAX_PHRASE_CHARS: usize = 100;
/// Length of the plain-text sample, in characters.
pub const SAMPLE_CHARS: usize = 300;

/// A deduplicated, capped list of phrases in first-seen order.
#[derive(Debug, Clone, Default)]
pub(crate) struct PhraseList {
    items: Vec<String>,
    keys: Vec<String>,
    chars: usize,
}

impl PhraseList {
    /// Adds a phrase (whitespace collapsed, `;` replaced so the join stays parseable);
    /// empty phrases, duplicates (case-insensitive) and phrases past the caps are dropped.
    pub(crate) fn add(&mut self, phrase: &str) {
        if self.items.len() >= MAX_ITEMS || self.chars >= MAX_CHARS {
            return;
        }
        let clean = one_line(&phrase.replace(';', ","));
        let clean = clean.trim_matches(|c: char| c.is_whitespace() || c == ',');
        if clean.is_empty() || !clean.chars().any(char::is_alphanumeric) {
            return;
        }
        let clean = clip_words(clean, MAX_PHRASE_CHARS);
        let key = clean.to_lowercase();
        if self.keys.contains(&key) {
            return;
        }
        self.chars += clean.chars().count() + 2;
        self.keys.push(key);
        self.items.push(clean);
    }

    /// The phrases joined by `"; "`.
    pub(crate) fn joined(&self) -> String {
        self.items.join("; ")
    }
}

/// A plain-text sample: the start of `text`, whitespace collapsed, cut at a word.
pub(crate) fn sample(text: &str) -> String {
    let mut acc = String::new();
    for w in text.split_whitespace() {
        if acc.chars().count() > SAMPLE_CHARS {
            break;
        }
        if !acc.is_empty() {
            acc.push(' ');
        }
        acc.push_str(w);
    }
    clip_words(&acc, SAMPLE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_and_caps() {
        let mut l = PhraseList::default();
        l.add(" Revenue  growth ");
        l.add("revenue growth");
        l.add("a; b");
        l.add("***");
        assert_eq!(l.joined(), "Revenue growth; a, b");
        for i in 0..100 {
            l.add(&format!("phrase number {i}"));
        }
        assert!(l.joined().split("; ").count() <= MAX_ITEMS);
        assert!(l.joined().chars().count() <= MAX_CHARS + MAX_PHRASE_CHARS);
    }

    #[test]
    fn sample_is_short() {
        let long = "word ".repeat(500);
        let s = sample(&long);
        assert!(s.chars().count() <= SAMPLE_CHARS + 1);
        assert!(s.starts_with("word word"));
    }
}
