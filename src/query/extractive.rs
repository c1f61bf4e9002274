//! The extractive answerer, the default when no chat model is configured: it answers
//! with the sentences of the sources that best match the question, each followed by
//! the `[n]` marker of its source, so [`super::citations::build`] can cite them.
//!
//! - Units: each source's text without its information line is split into lines
//!   (so a table row or a list item is a unit of its own), and each line into
//!   sentences at Unicode sentence boundaries (UAX #29; this covers `. ! ?` and
//!   `。！？`). Table rule lines and blank lines are skipped; repeated units (such as a
//!   table header repeated on a continuation chunk) are kept once.
//! - Score: the question's terms (Unicode words lowercased, CJK as single characters,
//!   a few English function words dropped, a light English suffix strip) that occur
//!   in the unit, each weighted by `ln(1 + units / units containing it)`, so rare
//!   words count more. Units without any question term are never picked.
//! - Selection: best score first (ties: the earlier unit), at most
//!   `max_sentences`, while the answer stays within `max_tokens` (o200k_base tokens of
//!   the final text, markers included). The picked units are then written in source
//!   order: by source number, then by position in the source.
//! - A bracket that a document uses before a number (`[25] a. Create ...`) is written
//!   `\[` in the answer, so it is not read as a citation marker; a passage numbered 0
//!   gets no marker (entire-document mode cites nothing).

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

use crate::retrieve::tokenize::is_cjk;
use crate::tokens;

/// The answer when no sentence matches the question.
pub const NO_ANSWER: &str = "The documents do not appear to contain an answer to this question.";

/// Default answer budget, in tokens.
pub const DEFAULT_MAX_TOKENS: usize = 400;

/// Default number of sentences.
pub const DEFAULT_MAX_SENTENCES: usize = 6;

/// A source's text under its citation number.
#[derive(Debug, Clone, Copy)]
pub struct Passage<'a> {
    /// The number the answer cites it by (`[number]`).
    pub number: usize,
    /// The chunk text (its information line is skipped).
    pub text: &'a str,
}

/// One picked sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Picked {
    /// The source number.
    pub number: usize,
    /// The sentence (trimmed).
    pub text: String,
    /// Its score.
    pub score: f64,
}

/// The extractive answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractiveAnswer {
    /// The answer text: the sentences, each followed by ` [n]`, separated by spaces or
    /// newlines; [`NO_ANSWER`] when nothing matched.
    pub text: String,
    /// The picked sentences in answer order.
    pub sentences: Vec<Picked>,
    /// Tokens of `text`.
    pub tokens: usize,
}

const STOP: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "for",
    "from",
    "had",
    "has",
    "have",
    "how",
    "i",
    "in",
    "is",
    "it",
    "its",
    "me",
    "of",
    "on",
    "or",
    "so",
    "that",
    "the",
    "their",
    "there",
    "these",
    "this",
    "those",
    "to",
    "was",
    "were",
    "what",
    "when",
    "where",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "about",
    "any",
    "tell",
    "please",
    "give",
    "document",
    "documents",
    "s",
];

fn stem(w: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.chars().count() >= 3
            && w.is_ascii()
        {
            return base.to_string();
        }
    }
    w.to_string()
}

/// The matching terms of `text`.
fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.unicode_words() {
        let lower = word.to_lowercase();
        if lower.chars().any(is_cjk) {
            out.extend(
                lower
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .map(String::from),
            );
            continue;
        }
        if STOP.contains(&lower.as_str()) {
            continue;
        }
        out.push(stem(&lower));
    }
    out
}

/// `text` with every `[` that is followed (after spaces) by a digit written `\[`.
fn escape_brackets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '['
            && text[i + 1..]
                .trim_start_matches([' ', '\t'])
                .starts_with(|d: char| d.is_ascii_digit())
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether a line is a Markdown table rule such as `| --- | :-: |`.
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+' | '='))
}

/// Whether `line` is a chunk-information line (`[Document: ... | ...]`), which
/// entire-document texts repeat at every chunk.
fn is_info_line(line: &str) -> bool {
    line.starts_with('[') && line.ends_with(']') && line.contains(": ")
}

/// The units of one passage, in order.
fn units(text: &str) -> Vec<String> {
    let body = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with('[') && first.trim_end().ends_with(']') => rest,
        _ if text.starts_with('[') && text.trim_end().ends_with(']') && !text.contains('\n') => "",
        _ => text,
    };
    let mut out = Vec::new();
    for line in body.lines() {
        let t = line.trim();
        if t.is_empty() || is_rule(line) || is_info_line(t) {
            continue;
        }
        for s in line.unicode_sentences() {
            let s = s.trim();
            if !s.is_empty() {
                out.push(s.to_string());
            }
        }
    }
    out
}

/// Answers `question` from `passages` (see the module docs).
pub fn answer(
    question: &str,
    passages: &[Passage<'_>],
    max_tokens: usize,
    max_sentences: usize,
) -> ExtractiveAnswer {
    let wanted: HashSet<String> = terms(question).into_iter().collect();
    // (passage index, unit index, number, text, distinct terms)
    // Term sets are ordered so a sentence's score sums in the same order on every run
    // (a hash set's order differs per instance and moves the last float digit).
    let mut all: Vec<(usize, usize, usize, String, BTreeSet<String>)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (p, passage) in passages.iter().enumerate() {
        for (u, text) in units(passage.text).into_iter().enumerate() {
            let key = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !seen.insert(key) {
                continue;
            }
            let t: BTreeSet<String> = terms(&text).into_iter().collect();
            all.push((p, u, passage.number, text, t));
        }
    }
    let mut df: HashMap<&str, usize> = HashMap::new();
    for (.., t) in &all {
        for w in t {
            if wanted.contains(w) {
                *df.entry(w.as_str()).or_insert(0) += 1;
            }
        }
    }
    let n = all.len() as f64;
    let mut scored: Vec<(f64, usize)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, (.., t))| {
            let s: f64 = t
                .iter()
                .filter_map(|w| df.get(w.as_str()))
                .map(|&d| (1.0 + n / d as f64).ln())
                .sum();
            (s > 0.0).then_some((s, i))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));

    let piece = |i: usize| {
        let text = escape_brackets(&all[i].3);
        match all[i].2 {
            0 => text,
            n => format!("{text} [{n}]"),
        }
    };
    let mut chosen: Vec<(f64, usize)> = Vec::new();
    let mut used = 0usize;
    for &(score, i) in &scored {
        if chosen.len() >= max_sentences {
            break;
        }
        let cost = tokens::count(&piece(i)) + usize::from(!chosen.is_empty());
        if used + cost > max_tokens {
            continue;
        }
        used += cost;
        chosen.push((score, i));
    }
    // Token counts of pieces are not exactly additive: recount and drop the weakest
    // until the joined text fits.
    loop {
        let mut order: Vec<(f64, usize)> = chosen.clone();
        order.sort_by(|a, b| {
            let (pa, ua) = (all[a.1].0, all[a.1].1);
            let (pb, ub) = (all[b.1].0, all[b.1].1);
            all[a.1]
                .2
                .cmp(&all[b.1].2)
                .then(pa.cmp(&pb))
                .then(ua.cmp(&ub))
        });
        let text = order
            .iter()
            .map(|&(_, i)| piece(i))
            .collect::<Vec<_>>()
            .join(" ");
        let count = tokens::count(&text);
        if chosen.is_empty() {
            let count = tokens::count(NO_ANSWER);
            return ExtractiveAnswer {
                text: NO_ANSWER.to_string(),
                sentences: Vec::new(),
                tokens: count,
            };
        }
        if count <= max_tokens {
            let sentences = order
                .iter()
                .map(|&(score, i)| Picked {
                    number: all[i].2,
                    text: all[i].3.clone(),
                    score,
                })
                .collect();
            return ExtractiveAnswer {
                text,
                sentences,
                tokens: count,
            };
        }
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(number: usize, text: &str) -> Passage<'_> {
        Passage { number, text }
    }

    #[test]
    fn picks_matching_sentences_in_source_order_with_markers() {
        let ps = [
            p(1, "[Document: A]\nThe sky is blue. Grass is green."),
            p(
                2,
                "[Document: B]\nInvoices are paid monthly. The budget for 2024 was approved by Anna.",
            ),
        ];
        let a = answer("Who approved the 2024 budget?", &ps, 200, 3);
        assert_eq!(a.text, "The budget for 2024 was approved by Anna. [2]");
        assert_eq!(a.sentences.len(), 1);
        assert!(a.tokens <= 200);
    }

    #[test]
    fn order_is_source_order_not_score_order() {
        let ps = [
            p(1, "Paris is a city."),
            p(2, "Paris is the capital city of France."),
        ];
        let a = answer("capital city of France Paris", &ps, 200, 5);
        assert_eq!(
            a.text,
            "Paris is a city. [1] Paris is the capital city of France. [2]"
        );
    }

    #[test]
    fn budget_is_respected() {
        let long = "alpha beta gamma delta. ".repeat(50);
        let ps = [p(1, &long), p(2, "alpha is here. beta too.")];
        for budget in [0, 3, 8, 20, 60] {
            let a = answer("alpha beta", &ps, budget, 10);
            assert!(
                a.tokens <= budget || a.sentences.is_empty(),
                "{budget}: {a:?}"
            );
        }
    }

    #[test]
    fn nothing_matches() {
        let a = answer("quantum chromodynamics", &[p(1, "Cats sleep.")], 100, 3);
        assert_eq!(a.text, NO_ANSWER);
        assert!(a.sentences.is_empty());
        let a = answer("", &[], 100, 3);
        assert_eq!(a.text, NO_ANSWER);
    }

    #[test]
    fn table_rows_and_cjk_sentences() {
        let ps = [p(
            1,
            "| Item | Cost |\n| --- | --- |\n| Paper | 12 |\n| Ink | 40 |\n東京は大きい。京都は古い。",
        )];
        let a = answer("How much for the ink?", &ps, 100, 1);
        assert_eq!(a.text, "| Ink | 40 | [1]");
        let a = answer("京都", &ps, 100, 1);
        assert_eq!(a.text, "京都は古い。 [1]");
    }

    #[test]
    fn document_brackets_are_escaped_and_zero_means_uncited() {
        let ps = [p(1, "[25] Plot the survival curves.")];
        let a = answer("survival curves", &ps, 100, 1);
        assert_eq!(a.text, "\\[25] Plot the survival curves. [1]");
        let r = crate::query::citations::build(&a.text, &[]);
        assert_eq!(r.unknown, 1);
        let ps = [p(0, "[Document: X | Page: 2]\n\nSurvival curves differ.")];
        let a = answer("survival curves", &ps, 100, 1);
        assert_eq!(a.text, "Survival curves differ.");
    }

    #[test]
    fn stemming_matches_inflections() {
        let ps = [p(1, "Timothy deleted the picture. Nothing else.")];
        let a = answer("Who deletes pictures?", &ps, 100, 2);
        assert_eq!(a.sentences.len(), 1);
        assert!(a.text.starts_with("Timothy deleted"));
    }
}
