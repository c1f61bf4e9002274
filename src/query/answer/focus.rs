//! Which document a question is about, and which authors and kinds of change it
//! names: the filters every structured answer applies before scoring.

use std::collections::{HashMap, HashSet};

use super::source::Src;
use super::words::{self, Query};

/// A document is a target of the question when its relevance is at least this share
/// of the best document's.
pub const TARGET_SHARE: f64 = 0.67;

/// Document relevance by title: for each title among the sources, the best
/// coverage of the question by one of its units together with the title and file
/// name (the section counts half), divided by the best document's, so the document
/// the question is most about has 1.0. A single document has 1.0 (the context was
/// narrowed to it).
pub fn documents(srcs: &[Src], q: &Query) -> HashMap<String, f64> {
    let mut out: HashMap<String, f64> = HashMap::new();
    for s in srcs {
        let best = s
            .units
            .iter()
            .map(|u| {
                let mut main = u.terms.clone();
                main.extend(s.naming.iter().cloned());
                q.coverage(&main, &s.context)
            })
            .fold(q.coverage(&s.naming, &s.context), f64::max);
        let e = out.entry(s.title.clone()).or_insert(0.0);
        *e = e.max(best);
    }
    let top = out.values().copied().fold(0.0, f64::max);
    for v in out.values_mut() {
        *v = if top > 0.0 { *v / top } else { 1.0 };
    }
    out
}

/// Whether a candidate of the document with relevance `rel` may answer: it is in a
/// target document, or it matches the question well on its own (`own` coverage at
/// least [`ELSEWHERE_MIN`]).
pub fn admits(rel: f64, own: f64) -> bool {
    rel >= TARGET_SHARE || own >= ELSEWHERE_MIN
}

/// Own coverage that admits a candidate outside the target documents.
pub const ELSEWHERE_MIN: f64 = 0.6;

/// The authors (of changes and comments in the sources) the question names: those
/// whose every name term is a question term.
pub fn named_authors(srcs: &[Src], question_terms: &HashSet<String>) -> Vec<String> {
    let mut authors: Vec<String> = srcs
        .iter()
        .flat_map(|s| {
            s.changes()
                .map(|(_, c)| c.author.clone())
                .chain(s.comments().map(|(_, c)| c.author.clone()))
                .collect::<Vec<_>>()
        })
        .filter(|a| !a.is_empty())
        .collect();
    authors.sort();
    authors.dedup();
    authors
        .into_iter()
        .filter(|a| {
            let t = words::term_set(a);
            !t.is_empty() && t.iter().all(|x| question_terms.contains(x))
        })
        .collect()
}

/// Whether `author` is one of `named` (all when none is named).
pub fn by(named: &[String], author: &str) -> bool {
    named.is_empty() || named.iter().any(|n| n == author)
}
