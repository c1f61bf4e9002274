//! Context assembly under a token budget: the default way a question's context is
//! chosen.
//!
//! Evidence lives in units smaller than a chunk (a table row, a list item, a
//! sentence's paragraph, a comment and the text it marks, a note and the sentence
//! that references it), and a chunk of a thousand tokens usually holds one that
//! matters. So the assembler:
//!
//! 1. analyses the question with no model ([`analyze`]: its terms and quoted
//!    phrases, whether it asks for every row or item, names a header, footer, note,
//!    comment, change, table or section, or is broad);
//! 2. reads a fixed number of candidate chunks ([`pool::CANDIDATE_CHUNKS`], from the
//!    same retriever top-k uses: BM25, cosine or both) plus the parts the question
//!    names in the documents the hits point to, cuts them into units ([`units`]) and
//!    scores each unit ([`pool`]);
//! 3. fills the budget with the best units and what each needs to be read ([`fill`]);
//! 4. writes each touched chunk as an excerpt (information line + chosen units) or
//!    whole when nearly all of it was chosen ([`render`]).
//!
//! The cost of a question depends on the budget and on how much scores near the
//! best unit, not on the collection's size; the candidate set is fixed, so selection
//! time stays flat too (BM25 over the whole index aside). Citations still name
//! chunks: an excerpt is its chunk's source, with the chunk's document, section and
//! pages.

pub mod analyze;
pub mod fill;
pub mod pool;
pub mod render;
pub mod section;
pub mod units;

use super::collection::Collection;
use super::language;
use super::retriever::Retriever;
use crate::tokens;

pub use analyze::{Analysis, analyze};

/// The default token budget for retrieved and completing text together, in o200k
/// tokens (the context message's excerpts; instructions and question come on top).
pub const DEFAULT_TOKEN_BUDGET: usize = 4_000;

/// One chunk of the context: whole or an excerpt.
#[derive(Debug, Clone, PartialEq)]
pub struct Excerpt {
    /// Document position in the collection.
    pub doc: usize,
    /// Chunk sequence number.
    pub seq: usize,
    /// The text the context shows (the chunk's, or its excerpt).
    pub text: String,
    /// Whether `text` is the whole chunk.
    pub whole: bool,
    /// Best score among its units chosen for their own score (0: only completion).
    pub score: f64,
}

/// What [`assemble`] chose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Assembly {
    /// Excerpts in collection order (document position, then sequence).
    pub excerpts: Vec<Excerpt>,
    /// Tokens of units chosen for their score (with information lines), o200k.
    pub retrieval_tokens: usize,
    /// Tokens of units added to complete them, o200k.
    pub enrichment_tokens: usize,
    /// The analysis, for the accounting reason.
    pub analysis: Analysis,
    /// How the documents read were narrowed from those given (a language the
    /// question names), for the accounting reason; None when they were not.
    pub narrowed: Option<String>,
}

/// Chooses the context of `question` over the documents at `docs` within `budget`
/// tokens (see the module docs). `broad` overrides the analysis' broad flag (a
/// classification reply, or routing that chose more than fits).
pub fn assemble(
    r: &Retriever<'_>,
    question: &str,
    docs: &[usize],
    budget: usize,
    broad: Option<bool>,
) -> Assembly {
    let c = r.collection();
    let mut a = analyze(question);
    if let Some(b) = broad {
        a.broad = b;
    }
    // A question that names a file ("in report_2019.docx") is read in that file; one
    // that names a language few documents use, in those documents and the
    // ones it names by title (detection needs some text, and "the German lists
    // document" may be mostly markup). Either is sent whole when it fits.
    let files = named_files(c, &a, docs, question);
    let (scoped, narrowed) = if !files.is_empty() && files.len() < docs.len() {
        let why = format!(
            "the question names the file of {} document(s): read in those",
            files.len()
        );
        (Some(files), Some(why))
    } else if let Some(s) = script_holders(c, &a, docs) {
        let why = format!(
            "the question asks which documents hold text in a script: read in the {} of {} document(s) holding some",
            s.len(),
            docs.len()
        );
        (Some(s), Some(why))
    } else if let Some(mut s) = a
        .language_scope
        .then(|| language::scope(c, &a.terms, docs))
        .flatten()
    {
        s.extend(pool::named_by_title(c, &a, docs).into_iter().map(|x| x.0));
        crate::order::sort(&mut s);
        s.dedup();
        let why = format!(
            "the question names a language: read in the {} of {} document(s) written in it or named by title",
            s.len(),
            docs.len()
        );
        (Some(s), Some(why))
    } else if let Some(s) = by_format(c, &a, docs) {
        let why = format!(
            "the question names a file format: read in the {} of {} document(s) of that format",
            s.len(),
            docs.len()
        );
        (Some(s), Some(why))
    } else {
        (None, None)
    };
    let docs: &[usize] = scoped.as_deref().unwrap_or(docs);
    if scoped.is_some() {
        let total: usize = docs
            .iter()
            .filter_map(|&d| c.documents().get(d))
            .map(|x| x.tokens)
            .sum();
        if total <= budget {
            return whole(c, docs, a, narrowed);
        }
    }
    let mut pool = pool::build(r, &a, docs);
    let picked = fill::fill(c, &mut pool, &a, budget);
    let mut excerpts = Vec::with_capacity(picked.units.len());
    for (&(d, seq), chosen) in &picked.units {
        let (Some(cand), Some(ch)) = (
            pool.cands.get(&(d, seq)),
            c.documents().get(d).and_then(|x| x.chunks.get(seq)),
        ) else {
            continue;
        };
        let (text, whole) = render::excerpt(&ch.text, &cand.units, &cand.unit_tokens, chosen);
        let score = chosen
            .iter()
            .filter(|&&i| picked.primary.contains(&((d, seq), i)))
            .filter_map(|&i| cand.scores.get(i))
            .fold(0.0f64, |m, &s| m.max(s));
        excerpts.push(Excerpt {
            doc: d,
            seq,
            text,
            whole,
            score,
        });
    }
    // Exact counts of what is sent, split in the proportion the fill measured.
    let sent: usize = excerpts.iter().map(|e| tokens::count(&e.text)).sum();
    let measured = picked.retrieval_tokens + picked.completion_tokens;
    let retrieval = if measured == 0 {
        sent
    } else {
        (sent as u128 * picked.retrieval_tokens as u128 / measured as u128) as usize
    };
    Assembly {
        excerpts,
        retrieval_tokens: retrieval,
        enrichment_tokens: sent - retrieval,
        analysis: a,
        narrowed,
    }
}

/// The documents of the format the question names them by ("the RTF files"): a
/// format narrows what is read as a file name does. None when it names no format,
/// or when every document or none is of it.
fn by_format(c: &Collection, a: &Analysis, docs: &[usize]) -> Option<Vec<usize>> {
    if a.formats.is_empty() {
        return None;
    }
    let s: Vec<usize> = docs
        .iter()
        .copied()
        .filter(|&d| {
            c.documents()
                .get(d)
                .is_some_and(|x| pool::of_format(&a.formats, &x.file_name))
        })
        .collect();
    (!s.is_empty() && s.len() < docs.len()).then_some(s)
}

/// The documents of `docs` whose file name a question term spells: a term joining
/// words with `.`, `_` or `-` ("report_2019.docx", "notes-v2.md") whose parts (at
/// least two, [`Analysis::spelled`]) are all parts of the file name.
fn named_files(c: &Collection, a: &Analysis, docs: &[usize], question: &str) -> Vec<usize> {
    let by_identifier = identifier_file(c, docs, question);
    if !by_identifier.is_empty() {
        return by_identifier;
    }
    if a.spelled.is_empty() {
        return Vec::new();
    }
    docs.iter()
        .copied()
        .filter(|&d| {
            c.documents().get(d).is_some_and(|doc| {
                a.spelled.iter().any(|parts| {
                    parts
                        .iter()
                        .all(|p| doc.file_terms.binary_search(p).is_ok())
                })
            })
        })
        .collect()
}

/// The one document of `docs` whose file name holds, as a whole word, an identifier
/// the question writes: a word of five characters or more spelled as file names
/// are and prose words are not, with an upper-case letter after a lower-case one
/// ("testRTFVarious") or letters and digits ("Comment042"). Empty when no such
/// word names exactly one document: an identifier several file names share
/// ("docx4j") names a project, not a file.
fn identifier_file(c: &Collection, docs: &[usize], question: &str) -> Vec<usize> {
    let identifiers: Vec<String> = question
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| w.chars().count() >= 5)
        .filter(|w| {
            let camel = w
                .chars()
                .zip(w.chars().skip(1))
                .any(|(x, y)| x.is_lowercase() && y.is_uppercase());
            let mixed =
                w.chars().any(char::is_alphabetic) && w.chars().any(|ch| ch.is_ascii_digit());
            camel || mixed
        })
        .map(str::to_lowercase)
        .collect();
    for t in &identifiers {
        let holders: Vec<usize> = docs
            .iter()
            .copied()
            .filter(|&d| {
                c.documents()
                    .get(d)
                    .is_some_and(|doc| doc.file_terms.binary_search(t).is_ok())
            })
            .collect();
        if holders.len() == 1 {
            return holders;
        }
    }
    Vec::new()
}

/// Every chunk of the documents at `docs`, whole.
fn whole(c: &Collection, docs: &[usize], a: Analysis, narrowed: Option<String>) -> Assembly {
    let mut excerpts = Vec::new();
    let mut sent = 0usize;
    for &d in docs {
        let Some(doc) = c.documents().get(d) else {
            continue;
        };
        for (seq, ch) in doc.chunks.iter().enumerate() {
            sent += doc.chunk_tokens(seq);
            excerpts.push(Excerpt {
                doc: d,
                seq,
                text: ch.text.clone(),
                whole: true,
                score: 1.0,
            });
        }
    }
    crate::order::sort_by_key(&mut excerpts, |e| (e.doc, e.seq));
    Assembly {
        excerpts,
        retrieval_tokens: sent,
        enrichment_tokens: 0,
        analysis: a,
        narrowed,
    }
}

/// The documents of `docs` holding words in the scripts the question asks about
/// ([`Analysis::scripts`]); None when it asks about none or no document holds any.
fn script_holders(c: &Collection, a: &Analysis, docs: &[usize]) -> Option<Vec<usize>> {
    if a.scripts.is_empty() {
        return None;
    }
    let holders: Vec<usize> = docs
        .iter()
        .copied()
        .filter(|&d| {
            c.documents().get(d).is_some_and(|x| {
                a.scripts
                    .iter()
                    .map(|s| x.profile.script_words(s))
                    .sum::<usize>()
                    > 0
            })
        })
        .collect();
    (!holders.is_empty()).then_some(holders)
}
