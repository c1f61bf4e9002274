//! Which document a question is about, and which authors and kinds of change it
//! names: the filters every structured answer applies before scoring.

use std::collections::{HashMap, HashSet};

use unicode_segmentation::UnicodeSegmentation;

use super::asks::unquoted;
use super::source::Src;
use super::words::{self, Query, Weights};

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
    // A question that names a document by a word of its title ("the remoteStorage
    // draft") is not about a document that never writes that word, however well
    // one of its sentences matches the rest ("security risks").
    let unnamed = unnamed_documents(srcs, q);
    for (title, v) in out.iter_mut() {
        if unnamed.contains(title) {
            *v *= UNNAMED_FACTOR;
        }
    }
    let top = out.values().copied().fold(0.0, f64::max);
    for v in out.values_mut() {
        *v = if top > 0.0 { *v / top } else { 1.0 };
    }
    out
}

/// The share of its relevance (or of a sentence's score) kept by a document that
/// writes none of the words by which the question names a document
/// ([`unnamed_documents`]).
pub const UNNAMED_FACTOR: f64 = 0.25;

/// The titles of the documents that write none of the question's words that name a
/// document ([`naming_terms`]) in their name, context or text; empty when the
/// question names no document so.
pub fn unnamed_documents(srcs: &[Src], q: &Query) -> HashSet<String> {
    let named = naming_terms(srcs, q);
    if named.is_empty() {
        return HashSet::new();
    }
    let writes: HashSet<&str> = srcs
        .iter()
        .filter(|s| {
            named.iter().any(|t| {
                s.naming.contains(*t)
                    || s.context.contains(*t)
                    || s.units.iter().any(|u| u.terms.contains(*t))
            })
        })
        .map(|s| s.title.as_str())
        .collect();
    srcs.iter()
        .map(|s| s.title.as_str())
        .filter(|t| !writes.contains(t))
        .map(str::to_string)
        .collect()
}

/// The question's terms that name a document: in a source's title or file name,
/// and not a noun for a kind of document ("guide", "article") nor in every
/// document's name.
fn naming_terms<'q>(srcs: &[Src], q: &'q Query) -> Vec<&'q str> {
    let titles: HashSet<&str> = srcs.iter().map(|s| s.title.as_str()).collect();
    q.terms
        .iter()
        .map(|(t, _)| t.as_str())
        .filter(|t| {
            let naming: HashSet<&str> = srcs
                .iter()
                .filter(|s| s.naming.contains(*t))
                .map(|s| s.title.as_str())
                .collect();
            !naming.is_empty() && naming.len() < titles.len() && !kind_of_document(t)
        })
        .collect()
}

/// Whether the question term `t` (a word or its stem) is a noun for a kind of
/// document ([`crate::query::assemble::analyze::DOCUMENT_NOUNS`]: "article",
/// "guide"): it says where to look, not what is asked nor which document.
pub fn kind_of_document(t: &str) -> bool {
    crate::query::assemble::analyze::DOCUMENT_NOUNS
        .iter()
        .any(|n| *n == t || words::stem(n) == t)
}

/// The relevance of `s`'s document in `docs` ([`documents`]); 0 for a document
/// not scored.
pub fn relevance(docs: &HashMap<String, f64>, s: &Src) -> f64 {
    docs.get(&s.title).copied().unwrap_or(0.0)
}

/// `docs` rescaled among the documents whose sources `holds` accepts (those that
/// hold the structure a question asks for: comments, tracked changes, notes, page
/// parts), so that the best of them counts 1. A document without the structure
/// cannot answer, whatever its words: a long text that shares the question's
/// ordinary words ("table", "cell") must not push the one document with comments
/// below the target share. Unchanged when no source holds it.
pub fn among_holders(
    docs: &HashMap<String, f64>,
    srcs: &[Src],
    holds: impl Fn(&Src) -> bool,
) -> HashMap<String, f64> {
    let held: HashSet<&str> = srcs
        .iter()
        .filter(|s| holds(s))
        .map(|s| s.title.as_str())
        .collect();
    let best = docs
        .iter()
        .filter(|(t, _)| held.contains(t.as_str()))
        .map(|x| *x.1)
        .fold(0.0, f64::max);
    if best <= 0.0 {
        return docs.clone();
    }
    docs.iter()
        .map(|(t, &r)| {
            (
                t.clone(),
                if held.contains(t.as_str()) {
                    (r / best).min(1.0)
                } else {
                    r
                },
            )
        })
        .collect()
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
    crate::order::sort(&mut authors);
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

/// Share of the weight of what a question asks about ([`asked_terms`]) that the
/// sources must hold, or the answer declines.
pub const FOCUS_MIN: f64 = 0.5;

/// Most words of the phrase a wh-word introduces.
const PHRASE_WORDS: usize = 2;

/// Words that end the phrase a wh-word introduces: verbs and prepositions. The verbs
/// of events ("what happens on Tuesday", "what occurred") are among them: intransitive,
/// they follow the wh-word directly, and what they ask for is whatever the place or
/// time names, not a thing of their own name.
const PHRASE_END: &[&str] = &[
    "happen",
    "happens",
    "happened",
    "occur",
    "occurs",
    "occurred",
    "is",
    "are",
    "was",
    "were",
    "does",
    "do",
    "did",
    "has",
    "have",
    "had",
    "can",
    "could",
    "will",
    "would",
    "should",
    "may",
    "might",
    "must",
    "shall",
    "of",
    "for",
    "in",
    "on",
    "at",
    "to",
    "from",
    "with",
    "by",
    "and",
    "or",
    "that",
    "if",
    "when",
    "about",
    "according",
];

/// The terms of what a question asks about: the words after its first "what",
/// "which", "whose", "how many" or "how much" up to a verb or preposition, two at
/// most ("Which
/// exchange rate does ..." -> exchange, rate). Empty when there is no such phrase
/// ("Who wrote ...", "What does ... say").
pub fn asked_terms(question: &str) -> Vec<String> {
    let all: Vec<String> = unquoted(question)
        .unicode_words()
        .map(str::to_lowercase)
        .collect();
    let Some(start) = all.iter().enumerate().position(|(i, x)| {
        matches!(x.as_str(), "what" | "which" | "whose")
            || (x == "how" && all.get(i + 1).is_some_and(|n| n == "many" || n == "much"))
    }) else {
        return Vec::new();
    };
    let skip = if all[start] == "how" { 2 } else { 1 };
    // Two words at most: a longer phrase runs into a verb the list does not know
    // ("which critical value goes with ...").
    let phrase: Vec<&str> = all[start + skip..]
        .iter()
        .take_while(|x| !PHRASE_END.contains(&x.as_str()))
        .take(PHRASE_WORDS)
        .map(String::as_str)
        .collect();
    words::terms(&phrase.join(" "))
}

/// Whether every number of two or more characters the question gives ("0.4",
/// "2014", "73") is in the sources: a number is not paraphrased, so one no source
/// holds means they do not speak of what is asked ("the 0.4 release" where only 0.3
/// is described).
pub fn holds_numbers(question: &str, srcs: &[Src]) -> bool {
    versions_held(question, srcs)
        && words::terms(question)
            .into_iter()
            .filter(|t| {
                t.chars().count() >= 2
                    && t.chars()
                        .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
                    && t.chars().any(|c| c.is_ascii_digit())
            })
            .all(|t| {
                srcs.iter()
                    .any(|s| s.context.contains(&t) || s.units.iter().any(|u| u.terms.contains(&t)))
            })
}

/// `text` as lower-case words split at white space, punctuation trimmed from their
/// ends (inner dots and hyphens kept: "pandoc-citeproc", "0.5") and a possessive
/// "'s" dropped.
fn raw_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("\u{2019}s"))
                .map(str::to_string)
                .unwrap_or(w)
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `w` is a dotted number ("0.5", "1.12.3").
fn dotted(w: &str) -> bool {
    w.contains('.')
        && w.split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether each version the question names is written so in the sources. A dotted
/// number right after a name ("pandoc 0.5") names one release of it when the
/// sources write that name before dotted numbers ("pandoc 1.12", "pandoc 0.43"):
/// the same number after another name ("pandoc-citeproc 0.5") is another thing's
/// release, and the sources do not speak of the one asked.
fn versions_held(question: &str, srcs: &[Src]) -> bool {
    let q = raw_words(question);
    let texts: Vec<Vec<String>> = srcs
        .iter()
        .flat_map(|s| s.units.iter().map(|u| raw_words(&u.plain)))
        .collect();
    q.windows(2)
        .filter(|p| dotted(&p[1]) && p[0].chars().any(char::is_alphabetic))
        .all(|p| {
            let mut written = texts.iter().flat_map(|t| {
                t.windows(2)
                    .filter(|w| w[0] == p[0] && dotted(&w[1]))
                    .map(|w| w[1].as_str())
            });
            let first = written.next();
            first.is_none() || first == Some(p[1].as_str()) || written.any(|v| v == p[1])
        })
}

/// Nouns for the numbered places of a document ("Paragraph 7", "clause 12", "step
/// 3"): followed by a number, they name one place, not a kind of thing.
const PLACE_NOUNS: &[&str] = &[
    "paragraph",
    "section",
    "clause",
    "article",
    "chapter",
    "step",
    "item",
    "line",
    "point",
    "part",
    "note",
    "rule",
    "question",
    "exercise",
    "appendix",
    "annex",
    "schedule",
];

/// The numbered places the question names ("on Paragraph 7" → " paragraph 7 ",
/// folded) that the body text of the sources writes out: a place the text itself
/// labels so. A place only the layout knows (a page) is not one of them.
pub fn numbered_places(question: &str, srcs: &[Src]) -> Vec<String> {
    let folded = super::phrase::fold(&unquoted(question));
    let w: Vec<&str> = folded.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    for pair in w.windows(2) {
        let noun = pair[0];
        let n = pair[1];
        if !PLACE_NOUNS.contains(&noun) || !n.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let place = format!(" {noun} {n} ");
        let written = srcs.iter().filter(|s| s.part.is_empty()).any(|s| {
            s.units
                .iter()
                .any(|u| super::phrase::fold(&u.plain).contains(&place))
        });
        if written && !out.contains(&place) {
            out.push(place);
        }
    }
    out
}

/// The names the question writes as runs of two or more capitalized words after its
/// first word ("the Harbour Light Service"), folded, that the body text of the
/// sources writes too, leaving out a run made only of a document's name words: a
/// name picks out one thing among those the text speaks of.
pub fn named_things(question: &str, srcs: &[Src]) -> Vec<String> {
    let text = unquoted(question);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let bare = |t: &str| t.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let capital = |t: &str| {
        let b = bare(t);
        b.chars().next().is_some_and(char::is_uppercase) && b.chars().count() > 1
    };
    let mut runs: Vec<Vec<&str>> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        // A word after a sentence's end is capitalized as a first word is.
        let opens = i == 0 || tokens[i - 1].ends_with(['.', '?', '!', ':']);
        if capital(t) && !opens {
            run.push(t);
        } else {
            runs.push(std::mem::take(&mut run));
        }
        // A name ends at punctuation ("the Pump House, in …").
        if t.ends_with([',', ';', '.', '?', '!', ':', ')']) {
            runs.push(std::mem::take(&mut run));
        }
    }
    runs.push(run);
    let naming: HashSet<&String> = srcs.iter().flat_map(|s| s.naming.iter()).collect();
    let mut out: Vec<String> = Vec::new();
    for r in runs.into_iter().filter(|r| r.len() >= 2) {
        let name = super::phrase::fold(&r.join(" "));
        let terms = words::term_set(&name);
        if terms.iter().all(|t| naming.contains(t)) || out.contains(&name) {
            continue;
        }
        let written = srcs.iter().filter(|s| s.part.is_empty()).any(|s| {
            s.units
                .iter()
                .any(|u| super::phrase::fold(&u.plain).contains(&name))
        });
        if written {
            out.push(name);
        }
    }
    out
}

/// Whether the sources hold at least [`FOCUS_MIN`] of the weight of the question's
/// asked terms (true when it has none).
pub fn holds_focus(question: &str, srcs: &[Src], w: &Weights) -> bool {
    let asked = asked_terms(question);
    if asked.is_empty() {
        return true;
    }
    let held = |t: &str| {
        srcs.iter()
            .any(|s| s.context.contains(t) || s.units.iter().any(|u| u.terms.contains(t)))
    };
    let total: f64 = asked.iter().map(|t| w.weight(t)).sum();
    let got: f64 = asked.iter().filter(|t| held(t)).map(|t| w.weight(t)).sum();
    total <= 0.0 || got / total >= FOCUS_MIN
}

/// Whether the sources are mostly in another script than the question (an English
/// question over a Hebrew document): its words cannot be found there, so low
/// coverage does not mean the answer is absent.
pub fn foreign(question: &str, srcs: &[&Src]) -> bool {
    let latin = |s: &str| {
        let (mut l, mut n) = (0usize, 0usize);
        for c in s.chars().filter(|c| c.is_alphabetic()) {
            n += 1;
            if c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c) {
                l += 1;
            }
        }
        if n == 0 { 1.0 } else { l as f64 / n as f64 }
    };
    let body: String = srcs
        .iter()
        .flat_map(|s| s.units.iter().map(|u| u.plain.as_str()))
        .collect::<Vec<_>>()
        .join(" ");
    (latin(question) - latin(&body)).abs() > 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phrase_after_the_wh_word_is_what_is_asked() {
        assert_eq!(
            asked_terms("Which exchange rate does the sheet give?"),
            ["exchang", "rat"]
        );
        assert_eq!(asked_terms("How many beds are left in ward 3?"), ["bed"]);
        assert!(asked_terms("Who wrote the report?").is_empty());
        assert!(asked_terms("What does the footer say?").is_empty());
    }
}
