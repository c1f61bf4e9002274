//! The parts of a question that asks several things at once ("which implementations
//! are supported, which jar does each need, and what changed in 11.4?"), and the
//! statement that answers a part the chosen answer leaves out.
//!
//! The property this relies on: each interrogative word (what, which, who, when,
//! where, why, how) opens one thing asked, and a part names what it asks with words
//! of its own (the words the parts share name their common topic). A list, table or
//! section answer is chosen for one part; a part none of its statements speaks of is
//! answered by the sentence that covers that part best, preferably from a source the
//! answer already cites (the parts of one question are about one topic, so their
//! answers sit together).

use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;

use super::draft::{Draft, Line};
use super::facts::quotable;
use super::source::Src;
use super::words::{self, Query, Weights};

/// Words that open one thing asked.
const WH: &[&str] = &[
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
];

/// A part counts as answered when the answer's statements hold this share of its
/// own terms' weight.
const ANSWERED: f64 = 0.5;

/// A sentence answers a part when it holds at least this share of the part's weight.
const PART_MIN: f64 = 0.5;

/// A sentence from a source the answer does not cite scores this share.
const OTHER_SOURCE: f64 = 0.8;

/// Most statements added for the parts left out.
const MAX_ADDED: usize = 2;

/// Words that join the items of an enumeration.
const JOINERS: &[&str] = &["and", "or"];

/// The parts of `question`, one per interrogative word (text before the first one
/// belongs to the first part), and one per item of an enumeration after a colon
/// ("What did the harbour notice say: the new pier, the fares and when it opens?"):
/// a colon introduces what is asked, and its commas, semicolons
/// and joining words ("and", "or") part the things asked. A single part when there
/// are fewer than two.
pub fn split(question: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut seen = 0usize;
    let mut listed = 0usize;
    let mut colon = false;
    for w in question.split_word_bounds() {
        let lower = w.to_lowercase();
        let wh = WH.contains(&lower.as_str());
        if wh {
            seen += 1;
        }
        let item_end = colon && ([",", ";"].contains(&w) || JOINERS.contains(&lower.as_str()));
        if ((wh && seen > 1) || item_end) && !cur.trim().is_empty() {
            // The text before the colon stays with the first item: it says what
            // that item is of.
            parts.push(std::mem::take(&mut cur));
            if item_end {
                listed += 1;
            }
        }
        if w == ":" {
            colon = true;
        }
        if !item_end {
            cur.push_str(w);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur);
    }
    if seen < 2 && listed == 0 {
        return vec![question.to_string()];
    }
    parts
}

/// Statements for the parts of `question` that `answer` leaves out (see the module
/// docs), as a `facts` draft; empty when the question asks one thing or every part
/// is answered. `drop` are words the answer's form already says.
pub fn left_out(question: &str, answer: &Draft, srcs: &[Src], w: &Weights, drop: &[&str]) -> Draft {
    let mut out = Draft {
        kind: "facts",
        ..Draft::default()
    };
    let parts = split(question);
    if parts.len() < 2 || answer.lines.is_empty() {
        return out;
    }
    let part_terms: Vec<HashSet<String>> = parts
        .iter()
        .map(|p| {
            Query::new(p, drop, w)
                .terms
                .into_iter()
                .map(|t| t.0)
                .collect()
        })
        .collect();
    let mut have: HashSet<String> = answer
        .lines
        .iter()
        .flat_map(|l| words::terms(&l.plain))
        .collect();
    let cited: HashSet<usize> = answer.lines.iter().map(|l| l.number).collect();
    // Words that name the documents name no part.
    let naming: HashSet<&String> = srcs.iter().flat_map(|s| s.naming.iter()).collect();
    for (i, p) in parts.iter().enumerate() {
        if out.lines.len() >= MAX_ADDED {
            break;
        }
        let mut q = Query::new(p, drop, w);
        q.terms.retain(|(t, _)| {
            !naming.contains(t)
                && part_terms
                    .iter()
                    .enumerate()
                    .all(|(j, o)| j == i || !o.contains(t))
        });
        if q.terms.is_empty() {
            continue;
        }
        let empty = HashSet::new();
        if q.coverage(&have, &empty) >= ANSWERED {
            continue;
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for (si, s) in srcs.iter().enumerate() {
            let factor = if cited.contains(&s.number) {
                1.0
            } else {
                OTHER_SOURCE
            };
            for (ui, u) in s.units.iter().enumerate() {
                if !quotable(s, u) {
                    continue;
                }
                let sc = q.coverage(&u.terms, &empty);
                if sc < PART_MIN || best.is_some_and(|b| sc * factor <= b.0) {
                    continue;
                }
                best = Some((sc * factor, si, ui));
            }
        }
        let Some((_, si, ui)) = best else {
            continue;
        };
        let u = &srcs[si].units[ui];
        if answer
            .lines
            .iter()
            .chain(&out.lines)
            .any(|l| l.plain == u.plain)
        {
            continue;
        }
        have.extend(u.terms.iter().cloned());
        out.lines.push(Line::new(u.plain.clone(), srcs[si].number));
    }
    out.score = if out.lines.is_empty() { 0.0 } else { 1.0 };
    out
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn a_question_splits_at_each_interrogative_word_after_the_first() {
        let p = split("In the guide, which jars are needed, and what changed in 11.4?");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0], "In the guide, which jars are needed, and ");
        assert_eq!(p[1], "what changed in 11.4?");
        assert_eq!(split("What is the capital of France?").len(), 1);
    }

    #[test]
    fn an_enumeration_after_a_colon_is_one_part_per_item() {
        let p = split("What did the note say: the new pier, the fares and when it opens?");
        assert_eq!(
            p,
            vec![
                "What did the note say: the new pier",
                " the fares ",
                " when it opens?"
            ]
        );
        // Commas without a colon list what one part asks.
        assert_eq!(
            split("Which time, flag and count does row 7 hold?").len(),
            1
        );
        // A colon with one thing after it asks one thing.
        assert_eq!(split("Summarize section 2: Installation").len(), 1);
    }
}
