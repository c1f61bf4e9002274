//! Words of a question and of the text that may answer it: matching terms, their
//! weights, and how much of a question a piece of text covers.
//!
//! - Terms: Unicode words (UAX #29) lowercased, CJK as single characters, a short
//!   list of English function words dropped, a light English suffix strip
//!   ("deleted" ~ "delete", "tables" ~ "table"), numbers also in their plain form
//!   ("38.0" also as "38").
//! - Weights: `ln(1 + n / (df + 0.5))` over the `n` units of the sources (sentences,
//!   table rows, notes, comments), so a word every source uses counts little and a
//!   word none uses counts most: a question about a thing the sources never name
//!   is mostly uncovered.

use std::collections::{HashMap, HashSet};

use unicode_segmentation::UnicodeSegmentation;

use crate::query::assemble::analyze::{STOP, is_symbol, plain_number, to_cyrillic};
use crate::retrieve::tokenize::is_cjk;

/// A term's plain stem: the word lowercased with one English suffix removed; an
/// irregular verb's past form stems as its verb does ([`super::irregular`]).
pub fn stem(w: &str) -> String {
    let w = super::irregular::verb(w).unwrap_or(w);
    if w.is_ascii() {
        for suffix in ["ing", "ed", "es", "s"] {
            if let Some(base) = w.strip_suffix(suffix)
                && base.len() >= 3
            {
                return y_to_i(base);
            }
        }
        if let Some(base) = w.strip_suffix('e')
            && base.len() >= 3
        {
            return base.to_string();
        }
        return y_to_i(w);
    }
    w.to_string()
}

/// A final "y" after a consonant as "i": English spells that "y" "i" before a suffix
/// ("verify", "verified", "verifies"; "study", "studies"), so the three forms share
/// one stem. After a vowel it stays ("play", "played").
fn y_to_i(base: &str) -> String {
    let b = base.as_bytes();
    let n = b.len();
    if n >= 3 && b[n - 1] == b'y' && !b"aeiouy".contains(&b[n - 2]) {
        format!("{}i", &base[..n - 1])
    } else {
        base.to_string()
    }
}

/// The matching terms of `text`, in order, with repeats. Symbols (×, ≥, €) are
/// terms of their own.
pub fn terms(text: &str) -> Vec<String> {
    let cleaned;
    let text = if text
        .chars()
        .any(|c| matches!(c as u32, 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF))
    {
        cleaned = super::markup::strip_invisible(text);
        cleaned.as_str()
    } else {
        text
    };
    let mut out: Vec<String> = text
        .chars()
        .filter(|&c| is_symbol(c) || matches!(c, '$' | '%'))
        .map(String::from)
        .collect();
    for (at, word) in text.unicode_word_indices() {
        let lower = word.to_lowercase();
        // "Mead's" is Mead.
        let lower = lower
            .strip_suffix("'s")
            .or_else(|| lower.strip_suffix("\u{2019}s"))
            .map_or(lower.clone(), str::to_string);
        if lower.chars().any(is_cjk) {
            // Characters, and their pairs so that order counts ("一百三十二" is not
            // "一百二十三").
            let chars: Vec<char> = lower.chars().filter(|c| c.is_alphanumeric()).collect();
            out.extend(chars.iter().map(|c| c.to_string()));
            out.extend(chars.windows(2).map(|w| w.iter().collect::<String>()));
            continue;
        }
        if STOP.contains(&lower.as_str()) && !named_word(text, at, word.len()) {
            continue;
        }
        // "38.0" and "38" are one number; "1,234" matches "1234".
        if let Some(plain) = plain_number(&lower) {
            out.push(plain);
        }
        out.push(stem(&lower));
        // "org.docx4j.openpackaging.packages" is one word at Unicode word
        // boundaries, but each part of a dotted path names a thing of its own (a
        // package, a module, a file's extension), and a reader names the whole by
        // one ("the openpackaging class"). A snake_case name is one name whose parts
        // are only words ("line_width" is one setting).
        if lower.contains('.') && lower.chars().any(char::is_alphabetic) {
            out.extend(
                lower
                    .split('.')
                    .filter(|p| !p.is_empty() && !STOP.contains(p))
                    .map(stem),
            );
        }
    }
    out
}

/// Whether the function word at `text[at..at + len]` is written as a name: called
/// (`is()`), quoted (`'that'`, `` `in` ``), or set in text of a script without
/// spaces (`that变量`), where an English word is always a term or an identifier.
fn named_word(text: &str, at: usize, len: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + len..].chars().next();
    let quote = |c: Option<char>| matches!(c, Some('\'' | '"' | '`' | '‘' | '’' | '“' | '”'));
    after == Some('(')
        || (quote(before) && quote(after))
        || before.is_some_and(is_cjk)
        || after.is_some_and(is_cjk)
}

/// The distinct terms of `text`.
pub fn term_set(text: &str) -> HashSet<String> {
    terms(text).into_iter().collect()
}

/// Term weights over a set of units.
#[derive(Debug, Default)]
pub struct Weights {
    df: HashMap<String, usize>,
    n: usize,
}

impl Weights {
    /// Counts each unit's distinct terms once.
    pub fn new<'a>(units: impl IntoIterator<Item = &'a HashSet<String>>) -> Self {
        let mut w = Weights::default();
        for u in units {
            w.n += 1;
            for t in u {
                *w.df.entry(t.clone()).or_insert(0) += 1;
            }
        }
        w
    }

    /// `ln(1 + n / (df + 0.5))`: a term no unit holds weighs most.
    pub fn weight(&self, t: &str) -> f64 {
        let df = self.df.get(t).copied().unwrap_or(0) as f64;
        (1.0 + self.n.max(1) as f64 / (df + 0.5)).ln()
    }
}

/// Names of units and currencies a document writes as a symbol.
const SYMBOL_NAMES: &[(&str, &[&str])] = &[
    ("dollar", &["$"]),
    ("dollars", &["$"]),
    ("euro", &["€"]),
    ("euros", &["€"]),
    ("pound", &["£"]),
    ("pounds", &["£"]),
    ("yen", &["¥", "円"]),
    ("percent", &["%"]),
    ("percentage", &["%"]),
    ("degree", &["°"]),
    ("degrees", &["°"]),
];

/// The terms of a question: [`terms`], plus the parts of a word joined with `_`,
/// `.` or `-` ("pandoc__notes.docx" also as pandoc, notes, docx: a file name), the symbol a unit
/// or currency name stands for ("dollar" also as "$"), and the Cyrillic spelling of each Latin
/// acronym ("KS-3" also as "кс"), since Russian documents write them in Cyrillic.
pub fn question_terms(question: &str) -> Vec<String> {
    let mut out = terms(question);
    // "pandoc__notes.docx" is one word; its parts name the file.
    for w in question.split_whitespace() {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        if w.contains(['_', '.', '-']) && w.chars().any(char::is_alphabetic) {
            out.extend(terms(&w.replace(['_', '.', '-'], " ")));
        }
    }
    for w in question.unicode_words() {
        let lower = w.to_lowercase();
        if let Some((_, symbols)) = SYMBOL_NAMES.iter().find(|(n, _)| *n == lower) {
            out.extend(symbols.iter().map(|s| (*s).to_string()));
        }
        let n = w.chars().count();
        if (2..=4).contains(&n) && w.chars().all(|c| c.is_ascii_uppercase()) {
            out.push(to_cyrillic(&w.to_lowercase()));
        }
    }
    out
}

/// A question's terms with their weights.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Distinct terms and weights.
    pub terms: Vec<(String, f64)>,
    /// Terms of what the question sets apart as known ("Besides the ETag, which
    /// header ...", [`super::phrase::set_apart`]): not asked, so not among `terms`,
    /// and a passage naming them restates what the asker has.
    pub apart: HashSet<String>,
}

impl Query {
    /// The terms of `question` without those in `drop` (words that name the kind of
    /// answer, such as "comment", which the answer's form already covers).
    pub fn new(question: &str, drop: &[&str], w: &Weights) -> Self {
        let apart: HashSet<String> = super::phrase::set_apart(question)
            .iter()
            .flat_map(|w| terms(w))
            .collect();
        let dropped: HashSet<String> = drop.iter().map(|d| stem(d)).collect();
        let mut seen = HashSet::new();
        let terms = question_terms(question)
            .into_iter()
            .filter(|t| !dropped.contains(t) && !apart.contains(t) && seen.insert(t.clone()))
            .map(|t| {
                let x = w.weight(&t);
                (t, x)
            })
            .collect();
        Query { terms, apart }
    }

    /// Sum of all weights.
    pub fn total(&self) -> f64 {
        self.terms.iter().map(|x| x.1).sum()
    }

    /// Share of the question's weight found in `main`, with terms found only in
    /// `context` (a title, a heading, the sentence around a comment) counting half;
    /// 1.0 for a question with no terms.
    pub fn coverage(&self, main: &HashSet<String>, context: &HashSet<String>) -> f64 {
        let total = self.total();
        if total <= 0.0 {
            return 1.0;
        }
        let got: f64 = self
            .terms
            .iter()
            .map(|(t, w)| {
                if main.contains(t) {
                    *w
                } else if context.contains(t) {
                    w * 0.5
                } else {
                    0.0
                }
            })
            .sum();
        got / total
    }

    /// The weight of the terms `main` holds that `have` does not: what a sentence
    /// adds to those already picked.
    pub fn gain(&self, main: &HashSet<String>, have: &HashSet<String>) -> f64 {
        self.terms
            .iter()
            .filter(|(t, _)| main.contains(t) && !have.contains(t))
            .map(|x| x.1)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_final_y_after_a_consonant_stems_as_its_suffixed_forms_do() {
        for w in ["verify", "verified", "verifies", "verifying"] {
            assert_eq!(stem(w), "verifi", "{w}");
        }
        assert_eq!(stem("studies"), stem("study"));
        assert_eq!(stem("played"), "play");
    }

    #[test]
    fn stems_numbers_and_cjk() {
        assert_eq!(
            terms("Deleted tables at 38.0"),
            ["delet", "tabl", "38", "38.0"]
        );
        assert_eq!(terms("東京"), ["東", "京"]);
    }

    #[test]
    fn a_function_word_written_as_a_name_is_a_term() {
        assert_eq!(
            terms("which value does the is() check return"),
            ["is", "check", "return"]
        );
        assert!(terms("the 'that' keyword").contains(&"that".to_string()));
        assert!(term_set("is()方法用来比较").contains("is"));
        assert!(term_set("内部的that变量").contains("that"));
        // Said in passing, it stays a function word.
        assert!(!terms("that is a check").contains(&"that".to_string()));
    }

    #[test]
    fn absent_terms_weigh_most_and_context_counts_half() {
        let a = term_set("the red team");
        let b = term_set("the blue team");
        let w = Weights::new([&a, &b]);
        assert!(w.weight("green") > w.weight("red"));
        assert!(w.weight("red") > w.weight("team"));
        let q = Query::new("red team", &[], &w);
        assert!((q.coverage(&a, &HashSet::new()) - 1.0).abs() < 1e-9);
        let half = q.coverage(&HashSet::new(), &a);
        assert!((half - 0.5).abs() < 1e-9);
    }
}
