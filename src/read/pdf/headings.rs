//! Headings. A PDF marks no headings (unless tagged); a reader sees them by type
//! size: the size most of the text is set in is the body, titles are set larger, the
//! larger the higher, and a minor heading is body-size bold text alone on its line.
//! So sizes are tallied by how many characters use them, the most used is the body,
//! and larger sizes are ranked from the largest down. The outline (bookmarks), when
//! the file has one, is the author's own list of headings and wins over sizes.

use std::collections::BTreeMap;

use super::runs::{OutlineEntry, Run};

/// Deepest heading level a type size gives (body-size bold may take the next one).
const MAX_SIZE_LEVEL: u8 = 5;

/// Most lines of a heading set large (titles wrap to two or three lines; more is a
/// passage set large, such as an abstract or a pull quote).
const MAX_LINES: usize = 3;

/// Most characters of a heading set large.
const MAX_CHARS: usize = 200;

/// Most words of a body-size bold heading alone on its line.
const BOLD_WORDS: usize = 12;

/// Most characters of a body-size bold heading.
const BOLD_CHARS: usize = 100;

/// A size key: sizes within half a unit are one (producers write 9.9626 and 9.96).
fn bucket(size: f32) -> i32 {
    // Sizes are finite and at most 2,000 (`runs::MAX_SIZE`), so this cannot saturate.
    (size * 2.0).round() as i32
}

/// Characters per size bucket, over the whole document.
#[derive(Debug, Default)]
pub(crate) struct Tally(BTreeMap<i32, u64>);

impl Tally {
    /// Counts a run's characters at its size.
    pub fn add(&mut self, run: &Run) {
        *self.0.entry(bucket(run.size)).or_insert(0) += run.weight() as u64;
    }

    /// The body size and the ranked heading sizes.
    pub fn sizes(&self) -> Sizes {
        // Most characters; ties to the smaller size (body text is the small print
        // of a page that has as much title as text).
        let body = self
            .0
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map_or(0, |(k, _)| *k);
        let body_size = body as f32 / 2.0;
        let mut larger: Vec<i32> = self
            .0
            .iter()
            .filter(|&(k, n)| *n > 0 && larger_than(*k as f32 / 2.0, body_size))
            .map(|(k, _)| *k)
            .collect();
        larger.reverse();
        Sizes {
            body: body_size,
            larger,
        }
    }
}

/// Whether `size` is set clearly larger than `body` (10% and half a unit).
fn larger_than(size: f32, body: f32) -> bool {
    size >= body * 1.1 && size >= body + 0.5
}

/// The document's type sizes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sizes {
    /// The body size in units (0 when the document has no text).
    pub body: f32,
    /// Size buckets larger than the body, largest first.
    larger: Vec<i32>,
}

impl Sizes {
    /// The heading level of a paragraph set at `size` (its dominant size), of
    /// `lines` lines, all bold or not, reading `text`; `None` for body text.
    pub fn level(&self, size: f32, bold: bool, lines: usize, text: &str) -> Option<u8> {
        // A heading has a word: a lone large letter is a drop cap, a lone large
        // number a figure or a page number.
        if text.chars().filter(|c| c.is_alphabetic()).count() < 2 {
            return None;
        }
        let chars = text.chars().count();
        let key = bucket(size);
        if let Some(rank) = self.larger.iter().position(|&k| k == key) {
            let level = u8::try_from(rank + 1).unwrap_or(MAX_SIZE_LEVEL);
            return (lines <= MAX_LINES && chars <= MAX_CHARS).then_some(level.min(MAX_SIZE_LEVEL));
        }
        let body_size = !larger_than(size, self.body) && !larger_than(self.body, size);
        let sentence_end = text.ends_with(['.', ',', ';', ':']);
        if body_size
            && bold
            && lines == 1
            && chars <= BOLD_CHARS
            && text.split_whitespace().count() <= BOLD_WORDS
            && !sentence_end
        {
            let below = u8::try_from(self.larger.len()).unwrap_or(MAX_SIZE_LEVEL);
            return Some(below.min(MAX_SIZE_LEVEL) + 1);
        }
        None
    }
}

/// Text reduced to what an outline title and the line it names share: letters and
/// digits, lower-cased (producers drop or change punctuation, spacing and case).
pub(crate) fn norm(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The outline's titles by page, each matched at most once.
#[derive(Debug, Default)]
pub(crate) struct Outline {
    /// (page, normalized title) -> levels not yet matched, first entry first.
    titles: BTreeMap<(u32, String), Vec<u8>>,
}

impl Outline {
    /// Indexes `entries`; levels are clamped to the model's 1 to 9.
    pub fn new(entries: &[OutlineEntry]) -> Self {
        let mut titles: BTreeMap<(u32, String), Vec<u8>> = BTreeMap::new();
        for e in entries {
            let key = norm(&e.title);
            if key.is_empty() {
                continue;
            }
            titles
                .entry((e.page, key))
                .or_default()
                .push(e.level.clamp(1, 9));
        }
        for levels in titles.values_mut() {
            levels.reverse();
        }
        Outline { titles }
    }

    /// The level of the outline entry on `page` that `text` matches, if one is left.
    pub fn peek(&self, page: u32, text: &str) -> Option<u8> {
        let key = norm(text);
        if key.is_empty() {
            return None;
        }
        self.titles
            .get(&(page, key))
            .and_then(|l| l.last().copied())
    }

    /// Like [`Outline::peek`], and uses the entry up.
    pub fn take(&mut self, page: u32, text: &str) -> Option<u8> {
        let key = norm(text);
        if key.is_empty() {
            return None;
        }
        self.titles.get_mut(&(page, key)).and_then(Vec::pop)
    }
}
