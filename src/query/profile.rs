//! The per-document record: what a document holds as a whole (its language, pages,
//! tables, tracked changes, comments, notes, header and footer parts, and who wrote
//! the changes and comments), counted once when it joins a collection.
//!
//! Questions about the collection as such ("which documents have comments by Ann",
//! "how many tables does the report have", "which files are not in English") are
//! answered from these records ([`super::inventory`]), not from chunk text: the chunks
//! a question retrieves hold a few of a document's comments or tables, the record
//! holds all of them.
//!
//! Everything is read from the chunks as they are stored (text and flat metadata),
//! so a collection rebuilt from stored chunks has the same records:
//! - tables: the distinct ids of `tableIds` (one id per `w:tbl`, HTML `<table>`,
//!   pipe table), so a table split across chunks counts once;
//! - tracked changes: the `<ins>`/`<del>` elements of chunks whose `hasRevisions`
//!   is yes, read by [`markup::render`] (ECMA-376 17.13.5 `w:ins`, `w:del`,
//!   `w:moveFrom`/`w:moveTo`; a move is counted once, at its new place);
//! - comments: the distinct `<comment id>` elements (ECMA-376 17.13.4 `w:comment`),
//!   replies included;
//! - notes: the `[^n]:` (footnote) and `[^en]:` (endnote) definitions of the notes
//!   parts;
//! - header and footer parts: chunks whose `chunkKind` is `header` or `footer`;
//! - pages: the highest `lastPage`;
//! - scripts: the writing systems other than Latin its words use (each word's script
//!   as `whatlang` detects it), with how many words, so "which files contain Arabic
//!   text" finds a mostly English file with an Arabic name in it.

use std::collections::BTreeSet;

use super::answer::markup;
use crate::chunk::Chunk;

/// What a document holds as a whole. Counts are of elements, not of chunks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Distinct tables.
    pub tables: usize,
    /// Tracked insertions (`w:ins`), moves excluded.
    pub insertions: usize,
    /// Tracked deletions (`w:del`), moves excluded.
    pub deletions: usize,
    /// Tracked moves (`w:moveTo`, each counted at its new place).
    pub moves: usize,
    /// Comments and replies (distinct ids).
    pub comments: usize,
    /// Footnotes (distinct `[^n]:` definitions).
    pub footnotes: usize,
    /// Endnotes (distinct `[^en]:` definitions).
    pub endnotes: usize,
    /// Header part chunks.
    pub headers: usize,
    /// Footer part chunks.
    pub footers: usize,
    /// The last page (1-based), 0 when no chunk names one.
    pub pages: u32,
    /// Authors of tracked changes, as written, sorted, each once (an empty author is
    /// left out).
    pub revision_authors: Vec<String>,
    /// Authors of comments, as written, sorted, each once.
    pub comment_authors: Vec<String>,
    /// Scripts other than Latin and how many words each writes, by script name
    /// (`whatlang::Script::name`, e.g. "Arabic", "Cyrillic"), sorted by name.
    pub scripts: Vec<(String, usize)>,
}

/// Fewest letters of a word counted for its script: one stray letter (a Greek
/// symbol in a formula) is not text in that script.
const MIN_SCRIPT_LETTERS: usize = 2;

impl Profile {
    /// Counts what `chunks` (one document's, in order) hold (see the module docs).
    pub fn of(chunks: &[Chunk]) -> Profile {
        let mut p = Profile::default();
        let mut tables: BTreeSet<&str> = BTreeSet::new();
        let mut comments: BTreeSet<String> = BTreeSet::new();
        let mut footnotes: BTreeSet<&str> = BTreeSet::new();
        let mut endnotes: BTreeSet<&str> = BTreeSet::new();
        let mut rev_authors: BTreeSet<String> = BTreeSet::new();
        let mut com_authors: BTreeSet<String> = BTreeSet::new();
        let mut scripts: Vec<(whatlang::Script, usize)> = Vec::new();
        for ch in chunks {
            count_scripts(&ch.text, &mut scripts);
            let m = &ch.metadata;
            let kind = m.get_str("chunkKind").unwrap_or("body");
            match kind {
                "header" => p.headers += 1,
                "footer" => p.footers += 1,
                _ => {}
            }
            if let Some(last) = m.get_int("lastPage").and_then(|x| u32::try_from(x).ok()) {
                p.pages = p.pages.max(last);
            }
            tables.extend(
                m.get_str("tableIds")
                    .unwrap_or("")
                    .split(';')
                    .map(str::trim)
                    .filter(|t| !t.is_empty()),
            );
            if kind == "footnote" || kind == "endnote" {
                for line in ch.text.lines() {
                    if let Some(id) = note_id(line) {
                        if id.starts_with('e') {
                            endnotes.insert(id);
                        } else {
                            footnotes.insert(id);
                        }
                    }
                }
            }
            let yes = |k: &str| m.get_str(k) == Some("yes");
            if !(yes("hasRevisions") || yes("hasComments")) {
                continue;
            }
            let r = markup::render(&ch.text);
            for c in &r.changes {
                match c.kind {
                    "inserted" => p.insertions += 1,
                    "deleted" => p.deletions += 1,
                    "moved here" => p.moves += 1,
                    _ => {}
                }
                if !c.author.trim().is_empty() {
                    rev_authors.insert(c.author.trim().to_string());
                }
            }
            for c in &r.comments {
                comments.insert(c.id.clone());
                if !c.author.trim().is_empty() {
                    com_authors.insert(c.author.trim().to_string());
                }
            }
        }
        p.tables = tables.len();
        p.comments = comments.len();
        p.footnotes = footnotes.len();
        p.endnotes = endnotes.len();
        p.revision_authors = rev_authors.into_iter().collect();
        p.comment_authors = com_authors.into_iter().collect();
        p.scripts = scripts
            .into_iter()
            .map(|(k, n)| (k.name().to_string(), n))
            .collect();
        crate::order::sort(&mut p.scripts);
        p
    }

    /// Words written in `script` (a `whatlang::Script` name).
    pub fn script_words(&self, script: &str) -> usize {
        self.scripts
            .iter()
            .find(|x| x.0 == script)
            .map_or(0, |x| x.1)
    }

    /// Tracked changes of every kind.
    pub fn changes(&self) -> usize {
        self.insertions + self.deletions + self.moves
    }
}

/// Adds the words of `text` not written in Latin letters to `out`, by script. Words
/// of ASCII only are Latin and skipped without detection.
/// Words of `text` written in any of `scripts` (`whatlang::Script` names), counted as
/// the profile counts them.
pub fn script_words_in(text: &str, scripts: &[&str]) -> usize {
    let mut found = Vec::new();
    count_scripts(text, &mut found);
    found
        .iter()
        .filter(|(s, _)| scripts.contains(&s.name()))
        .map(|x| x.1)
        .sum()
}

fn count_scripts(text: &str, out: &mut Vec<(whatlang::Script, usize)>) {
    use unicode_segmentation::UnicodeSegmentation;
    for w in text.unicode_words() {
        if w.is_ascii() || w.chars().filter(|c| c.is_alphabetic()).count() < MIN_SCRIPT_LETTERS {
            continue;
        }
        if let Some(script) = whatlang::detect_script(w)
            && script != whatlang::Script::Latin
        {
            match out.iter_mut().find(|x| x.0 == script) {
                Some(x) => x.1 += 1,
                None => out.push((script, 1)),
            }
        }
    }
}

/// The id of a note definition line (`[^3]: text` -> `3`, `[^e1]: text` -> `e1`).
fn note_id(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("[^")?;
    let (id, after) = rest.split_once(']')?;
    (after.starts_with(':') && !id.is_empty() && id.chars().all(|c| c.is_alphanumeric()))
        .then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_ids() {
        assert_eq!(note_id("[^12]: text"), Some("12"));
        assert_eq!(note_id("[^e1]: text"), Some("e1"));
        assert_eq!(note_id("see [^1] here"), None);
        assert_eq!(note_id("[^1] no colon"), None);
    }
}
