//! Phrases of a question matched whole against the documents' phrases: both folded to
//! lower-case words of letters and digits (any script), so "2004" is not "2014" and
//! "Table row" is not "Table"; quoted spans; positions ("the third", "row 3", "the
//! last"). Shared by the table lookup, links, lists and sections.

pub use crate::query::assemble::analyze::fold;
use crate::query::assemble::analyze::quote_spans;

/// Ordinal words, by position from 1.
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth",
];

/// Words that set a thing the asker already has apart from what is asked:
/// "Besides the ETag, which header ...", "apart from X", "other than X".
const SET_APART: &[&str] = &[
    "besides",
    "apart from",
    "aside from",
    "other than",
    "in addition to",
];

/// The words a question sets apart as already known ([`SET_APART`]): those after the
/// phrase up to the next comma or question mark (at most a few words). The answer
/// is something else, so a passage does not answer better for naming them.
pub fn set_apart(question: &str) -> Vec<String> {
    let lower = question.to_lowercase();
    let mut out = Vec::new();
    for p in SET_APART {
        let mut from = 0;
        while let Some(i) = lower[from..].find(p) {
            let at = from + i;
            let end = at + p.len();
            from = end;
            let starts_word = lower[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            let ends_word = lower[end..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric());
            if !(starts_word && ends_word) {
                continue;
            }
            let rest = &lower[end..];
            let stop = rest.find([',', '?', ';']).unwrap_or(rest.len());
            out.extend(
                rest[..stop]
                    .split_whitespace()
                    .take(SET_APART_WORDS)
                    .map(str::to_string),
            );
        }
    }
    out
}

/// At most this many words after a [`SET_APART`] phrase name what it sets apart:
/// "besides the ETag" is short, and a clause with no comma after it is the question.
const SET_APART_WORDS: usize = 4;

/// Weight of a row key quoted in the question ('Text'): quoting is how a user marks
/// the exact name of a thing.
pub const QUOTED: f64 = 2.0;

/// A position asked for: 1-based, or the last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Nth {
    /// The nth, from 1.
    At(usize),
    /// The last.
    Last,
}

impl Nth {
    /// The 0-based index among `len` things.
    pub fn index(self, len: usize) -> Option<usize> {
        match self {
            Nth::At(n) if n >= 1 && n <= len => Some(n - 1),
            Nth::Last if len > 0 => Some(len - 1),
            _ => None,
        }
    }
}

/// The position the folded question gives to `noun` ("row", "column"): "the second
/// row", "row 3", "the 3rd row", "the last row", "the fourth data row".
pub fn nth(folded: &str, nouns: &[&str]) -> Option<Nth> {
    let w: Vec<&str> = folded.split_whitespace().collect();
    for (i, x) in w.iter().enumerate() {
        if !nouns.contains(x) {
            continue;
        }
        // "row 3": a number right after the noun.
        if let Some(n) = w.get(i + 1).and_then(|n| n.parse::<usize>().ok()) {
            return Some(Nth::At(n));
        }
        // "second row", "second data row", "3rd body row".
        let before = if i >= 2 && matches!(w[i - 1], "data" | "body") {
            w.get(i - 2)
        } else {
            i.checked_sub(1).and_then(|j| w.get(j))
        };
        if let Some(b) = before {
            if *b == "last" || *b == "final" {
                return Some(Nth::Last);
            }
            if let Some(p) = ORDINALS.iter().position(|o| o == b) {
                return Some(Nth::At(p + 1));
            }
            let digits: String = b.chars().take_while(char::is_ascii_digit).collect();
            let suffix = &b[digits.len()..];
            if !digits.is_empty() && matches!(suffix, "st" | "nd" | "rd" | "th") {
                return digits.parse().ok().map(Nth::At);
            }
        }
    }
    None
}

/// Quoted spans of the question, folded.
pub fn quoted(question: &str) -> Vec<String> {
    quote_spans(question)
        .into_iter()
        .map(|q| fold(&q))
        .filter(|q| q.trim().chars().any(char::is_alphanumeric))
        .collect()
}

/// How strongly the folded question names the phrase `cell`: 0 when it does not
/// contain it whole; otherwise 1 plus a little per character (a longer name is the
/// more specific one), [`QUOTED`] when the question quotes exactly it.
pub fn named(folded_q: &str, quotes: &[String], cell: &str) -> f64 {
    let c = fold(cell);
    let chars = c.trim().chars().count();
    if chars == 0 || !folded_q.contains(&c) {
        return 0.0;
    }
    let base = if quotes.iter().any(|q| *q == c) {
        QUOTED
    } else {
        1.0
    };
    base + (chars.min(40) as f64) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_from_words_and_numbers() {
        assert_eq!(
            nth(&fold("the second row, third column"), &["row"]),
            Some(Nth::At(2))
        );
        assert_eq!(
            nth(&fold("the second row, third column"), &["column"]),
            Some(Nth::At(3))
        );
        assert_eq!(
            nth(&fold("what is in row 11?"), &["row"]),
            Some(Nth::At(11))
        );
        assert_eq!(nth(&fold("the 3rd data row"), &["row"]), Some(Nth::At(3)));
        assert_eq!(
            nth(&fold("the last cell of it"), &["cell"]),
            Some(Nth::Last)
        );
        assert_eq!(nth(&fold("which rows are there"), &["row"]), None);
    }

    #[test]
    fn a_phrase_is_named_whole() {
        let q = fold("What is the Time for 29 in table row 'Text'?");
        let quotes = quoted("What is the Time for 29 in table row 'Text'?");
        assert!(named(&q, &quotes, "29") > 0.0);
        assert_eq!(named(&q, &quotes, "129"), 0.0);
        assert_eq!(named(&q, &quotes, "Table cell"), 0.0);
        assert!(named(&q, &quotes, "Text") >= QUOTED);
    }
}
