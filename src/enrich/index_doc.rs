//! The index document entry of one document: who and what it is about, in key
//! phrases taken from the metadata records, sized as a share of the document's
//! tokens, for a low-cost model to route questions (see [`super::prompts`]).
//!
//! Selection: the phrase allowance (the entry's token target minus its header) is
//! spread over the chunks in proportion to their `tokenCount`, unspent allowance
//! carrying over to the next chunk. Each chunk spends its share on its own phrases in
//! the order of their value for routing (reviewers, comment authors, field data,
//! important terms, persons, organizations, places, headings, bold, a plain-text
//! sample, italic, table column headings, list text), skipping a phrase that does not
//! fit, one already taken (case-insensitively), and a bare number other than a year
//! (1000-2100). The chosen phrases are then listed by group, in document order.
//! Building counts tokens with [`crate::tokens::count`]; it is not query-time work.

use super::enricher::Enricher;
use super::error::EnrichError;
use super::record::{PHRASE_LABELS, split_list};
use crate::tokens;

/// The default entry size, as a percentage of the document's tokens.
pub const DEFAULT_INDEX_PERCENT: f64 = 5.0;

/// The approximate size of one part of a long entry, in o200k_base tokens.
pub const PART_TOKENS: usize = 900;

/// The heading of each phrase group, in [`PHRASE_LABELS`] order.
const GROUP_NAMES: [&str; PHRASE_LABELS.len()] = [
    "Reviewers",
    "Comment authors",
    "Field data",
    "Important terms",
    "Persons",
    "Organizations",
    "Places",
    "Headings",
    "Bold",
    "Text sample",
    "Italic",
    "Table column headings",
    "List text",
];

/// Index of the plain-text sample group (split into sentences before selection).
const PLAIN_GROUP: usize = 9;

/// One document's index entry, split into parts of about [`PART_TOKENS`] tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// The parts in order; every part after the first has a header line ending with
    /// `(continued)`.
    pub parts: Vec<String>,
    /// o200k_base tokens of [`IndexEntry::text`].
    pub tokens: usize,
}

impl IndexEntry {
    /// The whole entry: the parts separated by a blank line.
    pub fn text(&self) -> String {
        self.parts.join("\n\n")
    }
}

/// Whether `phrase` is a bare number (digits and punctuation only) that is not a year
/// from 1000 to 2100; such phrases say nothing about a document.
pub(crate) fn is_bare_number(phrase: &str) -> bool {
    if phrase.chars().any(char::is_alphabetic) {
        return false;
    }
    let core = phrase.trim_matches(|c: char| !c.is_ascii_digit());
    let year = core.len() == 4
        && core.chars().all(|c| c.is_ascii_digit())
        && core
            .parse::<u32>()
            .is_ok_and(|y| (1000..=2100).contains(&y));
    !year
}

/// Splits a plain-text sample into sentence-sized phrases.
fn sentences(sample: &str) -> impl Iterator<Item = &str> {
    sample
        .split_inclusive(['.', '!', '?'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

impl Enricher {
    /// The header line of this document's entry; `continued` for later parts.
    fn index_header(&self, continued: bool) -> String {
        let title = if self.title.trim().is_empty() {
            "Untitled"
        } else {
            self.title.trim()
        };
        let mut s = format!("## {title} (id: {})", self.doc_id);
        if continued {
            s.push_str(" (continued)");
        }
        s
    }

    fn index_facts(&self) -> String {
        let mut holds = Vec::new();
        if self.has_tables() {
            holds.push("tables");
        }
        if self.has_revisions() {
            holds.push("tracked revisions");
        }
        if self.has_comments() {
            holds.push("comments");
        }
        let holds = if holds.is_empty() {
            "no tables, revisions or comments".to_string()
        } else {
            holds.join(", ")
        };
        format!(
            "Holds: {holds}. Pages: {}. Sections: {}.",
            self.page_count(),
            self.sections.len()
        )
    }

    /// This document's index entry, sized at about `percent` of the document's tokens
    /// (the header lines always appear, so a very small document may exceed it).
    ///
    /// # Errors
    /// [`EnrichError::InvalidPercent`] unless `0 < percent <= 100`.
    pub fn index_document(&self, percent: f64) -> Result<IndexEntry, EnrichError> {
        if !(percent > 0.0 && percent <= 100.0) {
            return Err(EnrichError::InvalidPercent {
                value: percent.to_string(),
            });
        }
        let header = self.index_header(false);
        let facts = self.index_facts();
        let head_tokens = tokens::count(&header) + tokens::count(&facts) + 2;
        let target = (self.total_tokens as f64 * percent / 100.0).floor();
        let allowance = (target - head_tokens as f64).max(0.0);
        let groups = self.select_phrases(allowance);
        Ok(self.lay_out(header, facts, head_tokens, &groups))
    }

    /// The chosen phrases per group, each with its token cost, in document order.
    fn select_phrases(&self, allowance: f64) -> Vec<Vec<(String, usize)>> {
        let mut groups: Vec<Vec<(String, usize)>> = vec![Vec::new(); PHRASE_LABELS.len()];
        let mut seen = std::collections::HashSet::new();
        let total = self.total_tokens.max(1) as f64;
        let mut carry = 0.0;
        for (chunk, phrases) in self.chunks.iter().zip(&self.phrases) {
            let mut left = carry + allowance * f64::from(chunk.tokens) / total;
            for (g, field) in phrases.iter().enumerate() {
                let items: Box<dyn Iterator<Item = &str>> = if g == PLAIN_GROUP {
                    Box::new(sentences(field))
                } else {
                    Box::new(split_list(field))
                };
                for p in items {
                    if left < 2.0 {
                        break;
                    }
                    if is_bare_number(p) || !p.chars().any(char::is_alphanumeric) {
                        continue;
                    }
                    // `;` separates phrases in the index, so a sentence keeps none.
                    let p = p.replace(';', ",");
                    let key = p.to_lowercase();
                    if seen.contains(&key) {
                        continue;
                    }
                    let cost = tokens::count(&p) + 1;
                    if cost as f64 <= left {
                        left -= cost as f64;
                        seen.insert(key);
                        groups[g].push((p, cost));
                    }
                }
            }
            carry = left;
        }
        groups
    }

    /// Writes the groups as `Name: a; b; c` lines, starting a new part (with a
    /// `(continued)` header) when a part would pass [`PART_TOKENS`].
    fn lay_out(
        &self,
        header: String,
        facts: String,
        head_tokens: usize,
        groups: &[Vec<(String, usize)>],
    ) -> IndexEntry {
        let mut parts = Vec::new();
        let mut part = format!("{header}\n{facts}");
        let mut used = head_tokens;
        for (name, phrases) in GROUP_NAMES.iter().zip(groups) {
            if phrases.is_empty() {
                continue;
            }
            let label_cost = tokens::count(name) + 2;
            let mut open = false;
            for (p, cost) in phrases {
                let cost = *cost;
                if used + cost + label_cost > PART_TOKENS && used > head_tokens {
                    parts.push(std::mem::take(&mut part));
                    let cont = self.index_header(true);
                    used = tokens::count(&cont) + 1;
                    part = cont;
                    open = false;
                }
                if open {
                    part.push_str("; ");
                } else {
                    part.push('\n');
                    part.push_str(name);
                    part.push_str(": ");
                    used += label_cost;
                    open = true;
                }
                part.push_str(p);
                used += cost;
            }
        }
        parts.push(part);
        let tokens = tokens::count(&parts.join("\n\n"));
        IndexEntry { parts, tokens }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_numbers_except_years() {
        assert!(is_bare_number("42"));
        assert!(is_bare_number("3.14"));
        assert!(is_bare_number("(12)"));
        assert!(is_bare_number("999"));
        assert!(is_bare_number("2101"));
        assert!(!is_bare_number("1999"));
        assert!(!is_bare_number("2024."));
        assert!(!is_bare_number("Q3 2024"));
    }
}
