//! Answers from sentences: the sentence that covers most of the question, then those
//! that add what it leaves uncovered (a question with two parts gets a sentence for
//! each); and for broad questions a few sentences per document.

use std::collections::{HashMap, HashSet};

use super::draft::{Draft, Line};
use super::source::{BlockKind, Src};
use super::words::Query;

/// A sentence adds itself when it covers at least this share of the question's
/// weight not yet covered.
const MIN_GAIN: f64 = 0.15;

/// Sentences per document in a broad answer.
const PER_DOCUMENT: usize = 2;

/// Documents in a broad answer.
const MAX_DOCUMENTS: usize = 6;

fn usable(s: &Src, block: usize) -> bool {
    s.blocks
        .get(block)
        .is_some_and(|b| !matches!(b.kind, BlockKind::Code | BlockKind::Table))
}

/// The best sentence and up to `max - 1` more that each add uncovered terms.
pub fn sentences(srcs: &[Src], q: &Query, max: usize) -> Draft {
    let mut cands: Vec<(f64, usize, usize)> = Vec::new();
    for (si, s) in srcs.iter().enumerate() {
        for (ui, u) in s.units.iter().enumerate() {
            if !usable(s, u.block) {
                continue;
            }
            cands.push((q.coverage(&u.terms, &s.context), si, ui));
        }
    }
    cands.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let Some(&(best, bs, bu)) = cands.first() else {
        return Draft::default();
    };
    if best <= 0.0 {
        return Draft {
            kind: "facts",
            score: 0.0,
            ..Draft::default()
        };
    }
    let total = q.total().max(f64::MIN_POSITIVE);
    let mut have: HashSet<String> = srcs[bs].units[bu].terms.clone();
    let mut picked = vec![(bs, bu)];
    while picked.len() < max {
        let next = cands
            .iter()
            .filter(|c| !picked.contains(&(c.1, c.2)) && c.0 >= best * 0.5)
            .map(|c| (q.gain(&srcs[c.1].units[c.2].terms, &have), c))
            .filter(|(g, _)| *g / total >= MIN_GAIN)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, &(_, si, ui))) = next else {
            break;
        };
        have.extend(srcs[si].units[ui].terms.iter().cloned());
        picked.push((si, ui));
    }
    let lines = picked
        .iter()
        .map(|&(si, ui)| Line::new(srcs[si].units[ui].plain.clone(), srcs[si].number))
        .collect();
    Draft {
        kind: "facts",
        lines,
        score: best,
        list: false,
    }
}

/// A few sentences from each of the most relevant documents: per document, its best
/// sentences for the question, or its opening when none matches, prefixed with its
/// title.
pub fn documents(srcs: &[Src], q: &Query, docs: &HashMap<String, f64>) -> Draft {
    let mut order: Vec<(&String, f64)> = docs.iter().map(|(t, s)| (t, *s)).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let best = order.first().map_or(0.0, |x| x.1);
    order.retain(|x| x.1 >= best * 0.5);
    order.truncate(MAX_DOCUMENTS);
    let mut lines = Vec::new();
    for (title, _) in &order {
        let mut units: Vec<(f64, usize, usize)> = Vec::new();
        for (si, s) in srcs.iter().enumerate() {
            if &&s.title != title || !s.part.is_empty() {
                continue;
            }
            for (ui, u) in s.units.iter().enumerate() {
                if usable(s, u.block) && u.plain.chars().count() > 20 {
                    units.push((q.coverage(&u.terms, &HashSet::new()), si, ui));
                }
            }
        }
        // Best first; a document with no matching sentence shows its opening.
        units.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
        let mut take: Vec<(usize, usize)> =
            units.iter().take(PER_DOCUMENT).map(|x| (x.1, x.2)).collect();
        take.sort();
        let text: Vec<String> = take
            .iter()
            .map(|&(si, ui)| srcs[si].units[ui].plain.clone())
            .collect();
        let Some(&(si, _)) = take.first() else {
            continue;
        };
        lines.push(Line::new(format!("{title}: {}", text.join(" ")), srcs[si].number));
    }
    Draft {
        kind: "documents",
        list: lines.len() > 1,
        lines,
        score: best,
    }
}
