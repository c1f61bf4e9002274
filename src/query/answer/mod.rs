//! The extractive answerer, the default when no chat model is configured: a short,
//! cited answer read from the sources the context holds, by the kind of question,
//! with no model and no I/O (deterministic).
//!
//! 1. Each source is parsed ([`source`]): its information line (document, section,
//!    part), blocks, units (sentences, list items, table rows), tables as grids
//!    ([`table`]), and the tracked changes and comments its markup carries
//!    ([`markup`]).
//! 2. The question's terms are weighted over those units ([`words`]): a term no
//!    source holds weighs most, so a question about something the sources never
//!    mention is mostly uncovered.
//! 3. A question that names a structure asks for it: a tracked change ("who
//!    deleted"), a comment, a footnote or endnote, a page header or footer. The
//!    structure named first is what is asked; its candidates ([`structured`]) are
//!    filtered by the authors and kinds of change the question names, scored by how
//!    much of the rest of the question they and their document cover, and the best
//!    are written as words ("pavel deleted on 2009-07-24: …"). When none qualifies
//!    the answer declines.
//! 4. Otherwise a table row ([`cells`]: the row whose cells match, the columns
//!    whose labels match), every row or item of a table or list the question asks
//!    for, a few sentences per document for broad questions, or the sentences that
//!    cover the question ([`facts`]).
//! 5. Nothing covers enough of the question: the answer says the documents do not
//!    say, and cites the closest passage.
//!
//! The answer is written twice: `text`, plain text with no markup (changes and
//! comments as words, document brackets before a digit escaped as `\[` so they are
//! not read as citations), and `markdown`, balanced Markdown (every special
//! character of document text escaped; emphasis and strikethrough only our own).
//! Both cite sources with the same `[n]` markers, in the same order.

pub mod cells;
pub mod draft;
pub mod facts;
pub mod focus;
pub mod markup;
pub mod source;
pub mod structured;
pub mod table;
pub mod words;

use std::collections::HashSet;

use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

use self::draft::{Draft, Line};
use self::source::Src;
use self::words::{Query, Weights};
use super::assemble::analyze;
use crate::tokens;

/// The first words of a declining answer.
pub const NO_ANSWER: &str = "The documents do not appear to contain an answer to this question.";

/// Default answer budget, in o200k tokens (lists of rows may take twice this).
pub const DEFAULT_MAX_TOKENS: usize = 400;

/// Default number of sentences for a fact answer.
pub const DEFAULT_MAX_SENTENCES: usize = 3;

/// A sentence or table answer must cover at least this share of the question's
/// weight, or the answer declines.
pub const FACT_MIN: f64 = 0.05;

/// A table row answers instead of the best sentence when it covers at least this
/// share of what the sentence covers: a row is the more exact answer.
pub const CELL_OVER_FACT: f64 = 0.75;

/// Share of the weight of what a question asks about ([`asked_terms`]) that the
/// sources must hold, or the answer declines.
pub const FOCUS_MIN: f64 = 0.5;

/// A source's text under its citation number.
#[derive(Debug, Clone, Copy)]
pub struct Passage<'a> {
    /// The number the answer cites it by (`[number]`; 0 cites nothing).
    pub number: usize,
    /// The chunk text, its information line first.
    pub text: &'a str,
    /// The document's file name (may be empty): it names the document as its title
    /// does.
    pub file: &'a str,
    /// The retrieval score it was ranked by.
    pub score: f64,
}

/// One statement of the answer and its source.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// The source number (0: uncited).
    pub number: usize,
    /// The statement, plain text.
    pub text: String,
}

/// The extractive answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// Plain text, no markup: the direct answer first, each statement followed by
    /// ` [n]`.
    pub text: String,
    /// The same answer as balanced Markdown (a list when it has several items).
    pub markdown: String,
    /// How it was answered: `table-cell`, `table`, `list`, `section`, `changes`, `comments`,
    /// `notes`, `header-footer`, `facts`, `documents`, or `none` when it declined.
    pub kind: String,
    /// Whether the answer says the documents do not answer the question.
    pub declined: bool,
    /// The statements in answer order.
    pub quotes: Vec<Quote>,
    /// o200k tokens of `text`.
    pub tokens: usize,
}

/// Structures a question can ask for, in the order of [`ASKS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    Changes,
    Comments,
    Notes,
    Parts,
}

/// Words (stems) that ask for a structure. "note", "change" and "remark" are left
/// out: they name other things too often ("the security note").
const ASKS: &[(Ask, &[&str])] = &[
    (
        Ask::Changes,
        &[
            "insert",
            "insertion",
            "delet",
            "deletion",
            "mov",
            "track",
            "revision",
            "revis",
        ],
    ),
    (
        Ask::Comments,
        &["comment", "annotation", "reply", "repli", "commented"],
    ),
    (Ask::Notes, &["footnot", "endnot", "footnote", "endnote"]),
    (Ask::Parts, &["header", "footer", "watermark"]),
];

/// Words each ask drops from the question before scoring: the answer's form already
/// says them.
fn dropped(ask: Ask) -> &'static [&'static str] {
    match ask {
        Ask::Changes => &[
            "change",
            "changes",
            "changed",
            "insert",
            "inserted",
            "insertion",
            "delete",
            "deleted",
            "deletion",
            "move",
            "moved",
            "tracked",
            "track",
            "revision",
            "who",
            "author",
            "made",
        ],
        Ask::Comments => &[
            "comment",
            "comments",
            "commented",
            "reply",
            "replies",
            "annotation",
            "author",
            "who",
            "wrote",
            "anchored",
            "attached",
            "mark",
            "marks",
        ],
        Ask::Notes => &[
            "footnote",
            "footnotes",
            "endnote",
            "endnotes",
            "note",
            "notes",
        ],
        Ask::Parts => &[
            "header",
            "headers",
            "footer",
            "footers",
            "page",
            "pages",
            "running",
            "watermark",
            "head",
        ],
    }
}

/// `question` without its quoted spans ('Headers', "Tables"): a quoted word names
/// a thing in the document, not what is asked. An opening quote follows a space,
/// an opening bracket or the start; the closing one is followed by a non-letter.
fn unquoted(question: &str) -> String {
    let chars: Vec<char> = question.chars().collect();
    let mut out = String::with_capacity(question.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let opens = matches!(c, '\'' | '"' | '\u{2018}' | '\u{201C}')
            && (i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(');
        if opens {
            let close = |x: char| match c {
                '\u{2018}' => x == '\u{2019}',
                '\u{201C}' => x == '\u{201D}',
                _ => x == c,
            };
            if let Some(j) = (i + 1..chars.len())
                .find(|&j| close(chars[j]) && chars.get(j + 1).is_none_or(|n| !n.is_alphanumeric()))
            {
                out.push(' ');
                i = j + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Words that end the phrase a wh-word introduces: verbs and prepositions.
const PHRASE_END: &[&str] = &[
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
/// "which", "whose", "how many" or "how much" up to a verb or preposition ("Which
/// exchange rate does ..." -> exchange, rate). Empty when there is no such phrase
/// ("Who wrote ...", "What does ... say").
fn asked_terms(question: &str) -> Vec<String> {
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
    let phrase: Vec<&str> = all[start + skip..]
        .iter()
        .take_while(|x| !PHRASE_END.contains(&x.as_str()))
        .map(String::as_str)
        .collect();
    words::terms(&phrase.join(" "))
}

/// Whether the sources hold at least [`FOCUS_MIN`] of the weight of the question's
/// asked terms (true when it has none).
fn holds_focus(question: &str, srcs: &[Src], w: &Weights) -> bool {
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

/// Whether the question asks for every row or item: "list", "all", "every",
/// "each", "complete", "enumerate" ("how many" asks for a count, not a list).
fn wants_all(question: &str) -> bool {
    question.unicode_words().any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "list" | "all" | "every" | "each" | "complete" | "enumerate"
        )
    })
}

/// The structures `question` asks for, the one named first first.
fn asks(question: &str) -> Vec<Ask> {
    let mut found: Vec<Ask> = Vec::new();
    let question = unquoted(question);
    // Words joined into a name ("inserted-cells", "track-changes", "Comment042.docx")
    // name a document, not what is asked.
    let all: Vec<String> = question
        .split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|t| !t.contains(['-', '_', '.']))
        .flat_map(|t| {
            t.unicode_words()
                .map(|w| words::stem(&w.to_lowercase()))
                .collect::<Vec<_>>()
        })
        .collect();
    for (i, s) in all.iter().enumerate() {
        // "header row", "header cell": a table's header, not a page's.
        if s == "header"
            && all
                .get(i + 1)
                .is_some_and(|n| ["row", "column", "cell"].contains(&n.as_str()))
        {
            continue;
        }
        for (ask, stems) in ASKS {
            if stems.contains(&s.as_str()) && !found.contains(ask) {
                found.push(*ask);
            }
        }
    }
    found
}

/// Answers `question` from `passages` within `max_tokens` (see the module docs).
/// `max_sentences` caps a fact answer. Never fails; with no passages it declines.
pub fn answer(
    question: &str,
    passages: &[Passage<'_>],
    max_tokens: usize,
    max_sentences: usize,
) -> Answer {
    let srcs: Vec<Src> = passages.iter().map(source::parse).collect();
    let w = Weights::new(srcs.iter().flat_map(|s| s.units.iter().map(|u| &u.terms)));
    let mut a = analyze(question);
    a.wants_all = wants_all(question);
    let qterms: HashSet<String> = question
        .unicode_words()
        .map(|x| words::stem(&x.to_lowercase()))
        .chain(words::terms(question))
        .collect();
    let asked = asks(question);
    let all_kind_words: Vec<&str> = asked
        .iter()
        .flat_map(|k| dropped(*k).iter().copied())
        .collect();
    let plain_q = Query::new(question, &all_kind_words, &w);
    let docs = focus::documents(&srcs, &Query::new(question, &[], &w));
    let facts = facts::sentences(&srcs, &plain_q, max_sentences.max(1));

    if let Some(&first) = asked.first() {
        // A change asked for in a header or footer: changes in those parts only.
        let in_parts = asked.contains(&Ask::Parts) && srcs.iter().any(Src::is_header_footer);
        let mut drafts: Vec<Draft> = Vec::new();
        for (i, &ask) in asked.iter().enumerate() {
            let q = Query::new(question, dropped(ask), &w);
            let d = match ask {
                Ask::Changes => {
                    structured::changes(&srcs, &q, &qterms, &docs, a.wants_all, in_parts)
                }
                Ask::Comments => {
                    structured::comments(&srcs, &q, &qterms, &docs, a.wants_all, in_parts)
                }
                Ask::Notes => structured::notes(&srcs, &q, &docs),
                Ask::Parts => structured::parts(&srcs, &q, &qterms, &docs),
            };
            let ok = !d.lines.is_empty();
            if i == 0 && !ok {
                return decline(what(first), &facts, max_tokens);
            }
            if ok {
                drafts.push(d);
            }
        }
        if a.documents && asked.contains(&Ask::Changes) {
            drafts.insert(0, structured::change_summary(&srcs));
        }
        return write(drafts, max_tokens * 2);
    }

    let table_q = Query::new(question, &["table", "row", "column", "cell"], &w);
    if a.wants_all {
        let t = cells::whole_table(&srcs, &table_q);
        let l = cells::whole_list(&srcs, &table_q);
        let best = if t.score >= l.score { t } else { l };
        if !best.lines.is_empty() && best.score >= FACT_MIN && best.score >= facts.score {
            return write(vec![best], max_tokens * 2);
        }
    }
    if a.documents || (a.broad && !a.table) {
        let d = facts::documents(&srcs, &plain_q, &docs, a.documents);
        if !d.lines.is_empty() {
            return write(vec![d], max_tokens * 2);
        }
    }
    if !holds_focus(question, &srcs, &w) && !foreign(question, &srcs.iter().collect::<Vec<_>>()) {
        return decline("an answer to this question", &facts, max_tokens);
    }
    let section = facts::section(&srcs, &plain_q, &w, &docs);
    if !section.lines.is_empty() && (a.section || section.score > facts.score) {
        return write(vec![section], max_tokens * 2);
    }
    let cell = cells::cell(&srcs, &table_q);
    if !cell.lines.is_empty()
        && cell.score >= FACT_MIN
        && (a.table || cell.score >= facts.score * CELL_OVER_FACT)
    {
        return write(vec![cell], max_tokens);
    }
    let target: Vec<&Src> = srcs
        .iter()
        .filter(|s| docs.get(&s.title).copied().unwrap_or(0.0) >= 1.0)
        .collect();
    if facts.lines.is_empty() || (facts.score < FACT_MIN && !foreign(question, &target)) {
        return decline("an answer to this question", &facts, max_tokens);
    }
    let budget = if facts.list {
        max_tokens * 2
    } else {
        max_tokens
    };
    write(vec![facts], budget)
}

/// What a declined ask was for, in words.
fn what(ask: Ask) -> &'static str {
    match ask {
        Ask::Changes => "a tracked change that answers this question",
        Ask::Comments => "a comment that answers this question",
        Ask::Notes => "a footnote or endnote that answers this question",
        Ask::Parts => "a page header or footer that answers this question",
    }
}

/// Whether the sources are mostly in another script than the question (an English
/// question over a Hebrew document): its words cannot be found there, so low
/// coverage does not mean the answer is absent.
fn foreign(question: &str, srcs: &[&Src]) -> bool {
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

/// The declining answer: what was not found, and the closest passage.
fn decline(what: &str, facts: &Draft, max_tokens: usize) -> Answer {
    let mut d = Draft {
        kind: "none",
        ..Draft::default()
    };
    let lead = format!("The documents do not show {what}.");
    d.lines.push(Line::new(lead, 0));
    if let Some(l) = facts.lines.first() {
        d.lines.push(Line {
            plain: format!("The closest passage: \"{}\"", l.plain),
            markdown: format!("The closest passage: \"{}\"", l.markdown),
            number: l.number,
        });
    }
    let mut a = write(vec![d], max_tokens);
    a.declined = true;
    a.kind = "none".into();
    a
}

/// `text` with every `[` that is followed (after spaces) by a digit written `\[`,
/// so a document's own bracket is not read as a citation.
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

/// Writes drafts as the answer, within `max_tokens` (at least the first statement).
fn write(drafts: Vec<Draft>, max_tokens: usize) -> Answer {
    let kind = drafts.first().map_or("none", |d| d.kind).to_string();
    let mut text = String::new();
    let mut md = String::new();
    let mut quotes = Vec::new();
    let mut used = 0usize;
    'all: for d in &drafts {
        let mut distinct: Vec<&str> = d.lines.iter().map(|l| l.plain.as_str()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let as_list = d.list && distinct.len() > 1;
        for (k, l) in d.lines.iter().enumerate() {
            // The same statement from several sources (a table repeated in the
            // document) is written once, citing each.
            if d.lines[..k].iter().any(|p| p.plain == l.plain) {
                continue;
            }
            let mut numbers: Vec<usize> = d.lines[k..]
                .iter()
                .filter(|x| x.plain == l.plain && x.number > 0)
                .map(|x| x.number)
                .collect();
            numbers.dedup();
            let cite = if numbers.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = numbers.iter().map(ToString::to_string).collect();
                format!(" [{}]", list.join(", "))
            };
            let bullet = if as_list { "- " } else { "" };
            let line = format!("{bullet}{}{cite}", escape_brackets(&l.plain));
            let cost = tokens::count(&line) + 1;
            if !quotes.is_empty() && used + cost > max_tokens {
                break 'all;
            }
            used += cost;
            let sep = if text.is_empty() {
                ""
            } else if as_list || quotes.is_empty() {
                "\n"
            } else {
                " "
            };
            text.push_str(sep);
            text.push_str(&line);
            let md_sep = if md.is_empty() {
                ""
            } else if as_list {
                "\n"
            } else {
                "\n\n"
            };
            md.push_str(md_sep);
            md.push_str(bullet);
            md.push_str(&l.markdown);
            md.push_str(&cite);
            quotes.push(Quote {
                number: l.number,
                text: l.plain.clone(),
            });
        }
    }
    if text.is_empty() {
        text = NO_ANSWER.to_string();
        md = NO_ANSWER.to_string();
    }
    let tokens = tokens::count(&text);
    Answer {
        declined: kind == "none",
        text,
        markdown: md,
        kind,
        quotes,
        tokens,
    }
}
