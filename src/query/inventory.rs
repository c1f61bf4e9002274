//! Questions about the collection as such, answered from the per-document records
//! ([`super::profile`]): which documents hold comments, tracked changes (by whom, of
//! which kind), notes, tables, header or footer parts, which are written in a
//! language (or not), and how many of a thing one document holds.
//!
//! Such a question is about every document at once, so the chunks a retriever
//! returns cannot answer it: they hold the few documents whose text matches best.
//! The records count each document whole. A question is read as one only when
//! everything it asks is something the records hold (a kind of element, an author,
//! a language, a document named by title); a question with any other content word
//! ("which documents have a table about tumours") asks about text and is left to
//! the extractive answerer.

use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;
use whatlang::Lang;

use super::answer::words;
use super::assemble::analyze::{self, Analysis};
use super::assemble::pool::{named_by_title, of_format};
use super::collection::Collection;
use super::profile::Profile;

/// A kind of element the records count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// Comments and replies.
    Comments,
    /// Tracked changes of every kind.
    Changes,
    /// Tracked insertions.
    Insertions,
    /// Tracked deletions.
    Deletions,
    /// Tracked moves.
    Moves,
    /// Footnotes and endnotes.
    Notes,
    /// Footnotes.
    Footnotes,
    /// Endnotes.
    Endnotes,
    /// Tables.
    Tables,
    /// Header parts.
    Headers,
    /// Footer parts.
    Footers,
    /// Pages.
    Pages,
}

/// The words that name each [`Thing`] (lowercase; plurals and verb forms listed).
const THINGS: &[(Thing, &[&str])] = &[
    (
        Thing::Comments,
        &[
            "comment",
            "comments",
            "commented",
            "annotation",
            "annotations",
        ],
    ),
    (Thing::Moves, &["move", "moves", "moved", "moving"]),
    (
        Thing::Insertions,
        &["insertion", "insertions", "inserted", "insert", "inserts"],
    ),
    (
        Thing::Deletions,
        &["deletion", "deletions", "deleted", "delete", "deletes"],
    ),
    (
        Thing::Changes,
        &[
            "change",
            "changes",
            "changed",
            "revision",
            "revisions",
            "tracked",
            "edits",
        ],
    ),
    (Thing::Footnotes, &["footnote", "footnotes"]),
    (Thing::Endnotes, &["endnote", "endnotes"]),
    (Thing::Notes, &["note", "notes"]),
    (Thing::Tables, &["table", "tables"]),
    (Thing::Headers, &["header", "headers"]),
    (Thing::Footers, &["footer", "footers"]),
    (Thing::Pages, &["page", "pages"]),
];

/// Words a question about the collection uses besides what it asks for: the
/// documents, authorship, counting, language (and holding: [`CONTAIN_WORDS`]). They
/// carry no topic.
const FRAME: &[&str] = &[
    "collection",
    "corpus",
    "set",
    "sets",
    "folder",
    "made",
    "make",
    "author",
    "authors",
    "authored",
    "kind",
    "kinds",
    "type",
    "types",
    "number",
    "count",
    "language",
    "languages",
    "written",
    "english",
    "non",
    "other",
    "track",
    "tracked",
    "anyone",
    "someone",
    "somebody",
    "person",
    "people",
    "names",
    "named",
    "left",
    "leave",
    "wrote",
    "least",
    "more",
    "most",
    "fewest",
    "none",
    "there",
    "here",
    "total",
    "altogether",
    "different",
    "distinct",
    "parts",
    "part",
    "page",
    "pages",
    "reply",
    "replies",
    "document",
    "documents",
    "file",
    "files",
    "which",
    "list",
    "many",
    "ones",
    "one",
    "them",
    "each",
    "every",
    "all",
    "whom",
    "who",
    "by",
    "what",
];

/// Words a question uses to ask what each document's thing says ("what does each
/// header read"): they ask for text the records do not hold, which the extractive
/// answer appended to the records gives ([`asks_content`]).
const CONTENT_ASKS: &[&str] = &["read", "reads", "say", "says", "wording"];

/// Whether `term` (an index term) is a word of [`THINGS`] or [`FRAME`], or its stem.
fn is_frame(term: &str) -> bool {
    let stem = words::stem(term);
    THINGS
        .iter()
        .flat_map(|(_, n)| n.iter())
        .chain(FRAME)
        .chain(analyze::CONTAIN_WORDS)
        .any(|w| *w == term || words::stem(w) == stem)
}

/// What a collection question asks, read with no model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ask {
    /// The kinds of element asked about.
    pub things: Vec<Thing>,
    /// Authors the question names (as the records write them).
    pub authors: Vec<String>,
    /// A language the documents must be written in (ISO 639-3), or must not be
    /// (`negated`).
    pub language: Option<&'static str>,
    /// Whether `language` is excluded ("not in English", "non-English").
    pub negated: bool,
    /// Whether the question asks for the languages themselves ("in which language").
    pub languages: bool,
    /// The scripts of `language` when the question asks which documents hold text
    /// written in it ("contain Arabic text") rather than which are written in it:
    /// `whatlang::Script` names; empty otherwise.
    pub scripts: Vec<&'static str>,
    /// Documents the question names by title (positions), empty when none.
    pub named: Vec<usize>,
    /// "How many ..." of one named document, rather than which documents.
    pub count: bool,
    /// Formats the documents must have by their file name ("the RTF files"), empty
    /// when the question names no format.
    pub formats: Vec<crate::Format>,
    /// The format's name as the question wrote it ("RTF"), for the answer.
    pub format_name: String,
    /// Whether a document qualifies by holding any of `things` ("footnotes or
    /// endnotes") rather than all of them ("comments and tracked changes").
    pub any: bool,
}

/// One line of the answer: the document it is about and the statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// Document position in the collection.
    pub doc: usize,
    /// The statement, plain text.
    pub text: String,
}

/// Reads `question` as a question about the collection over the documents at `docs`
/// (see the module docs); None when it asks about text.
pub fn read(c: &Collection, question: &str, a: &Analysis, docs: &[usize]) -> Option<Ask> {
    let lower: Vec<String> = question.unicode_words().map(str::to_lowercase).collect();
    let has = |w: &str| lower.iter().any(|x| x == w);
    let how_many = lower.windows(2).any(|w| w[0] == "how" && w[1] == "many");
    let mut ask = Ask::default();
    for (thing, names) in THINGS {
        if lower.iter().any(|w| names.contains(&w.as_str())) {
            ask.things.push(*thing);
        }
    }
    // "tracked changes" names changes; "moved" in it names only moves.
    if ask
        .things
        .iter()
        .any(|t| matches!(t, Thing::Moves | Thing::Insertions | Thing::Deletions))
    {
        ask.things.retain(|t| *t != Thing::Changes);
    }
    if ask
        .things
        .iter()
        .any(|t| matches!(t, Thing::Footnotes | Thing::Endnotes))
    {
        ask.things.retain(|t| *t != Thing::Notes);
    }
    // "header row" or "page 3" are places in a text, not things a document holds:
    // pages count only when asked for by number ("how many pages"), headers and
    // footers only as parts.
    let after = |w: &str| {
        lower.windows(2).any(|p| {
            p[0] == w && matches!(p[1].as_str(), "row" | "rows" | "cell" | "cells" | "column")
        })
    };
    if after("header") || after("table") {
        ask.things
            .retain(|t| !matches!(t, Thing::Headers | Thing::Tables));
    }
    if !how_many {
        ask.things.retain(|t| *t != Thing::Pages);
    }
    // "footnotes or endnotes": an "or" between two things' names offers either.
    let named_thing = |w: &str| THINGS.iter().any(|(_, n)| n.contains(&w));
    ask.any = ask.things.len() > 1
        && lower.iter().enumerate().any(|(i, w)| {
            w == "or"
                && lower[..i].iter().rev().take(3).any(|x| named_thing(x))
                && lower[i + 1..].iter().take(3).any(|x| named_thing(x))
        });
    // "the RTF files", "Word documents": the analysis reads the format.
    ask.formats = a.formats.clone();
    ask.format_name = a.format_name.clone();
    let format_words: HashSet<String> = if ask.formats.is_empty() {
        HashSet::new()
    } else {
        [words::stem(&a.format_name.to_lowercase())].into()
    };
    ask.languages = has("language") || has("languages");
    if let Some((code, name)) = a.languages.first() {
        ask.language = Some(code);
        let at = lower.iter().position(|w| w == name).unwrap_or(0);
        let before = &lower[at.saturating_sub(3)..at];
        ask.negated = before
            .iter()
            .any(|w| matches!(w.as_str(), "not" | "non" | "than"))
            || question.to_lowercase().contains(&format!("non-{name}"));
        ask.scripts = a.scripts.clone();
    }
    // Authors: a record's author whose every name part the question spells.
    let qwords: HashSet<&str> = lower.iter().map(String::as_str).collect();
    let mut authors: Vec<String> = docs
        .iter()
        .filter_map(|&d| c.documents().get(d))
        .flat_map(|d| {
            d.profile
                .revision_authors
                .iter()
                .chain(&d.profile.comment_authors)
        })
        .filter(|name| {
            let parts: Vec<String> = name.unicode_words().map(str::to_lowercase).collect();
            // An author recorded as "Author" or "Unknown" is not named by the
            // question's word "author".
            !parts.is_empty()
                && parts.iter().all(|p| qwords.contains(p.as_str()))
                && parts
                    .iter()
                    .any(|p| !is_frame(p) && !words::terms(p).is_empty())
        })
        .cloned()
        .collect();
    crate::order::sort(&mut authors);
    authors.dedup();
    ask.authors = authors;
    // A title that shares only the words of the ask ("track_changes_move" for
    // "which documents have tracked changes"), an author's name, a language or a
    // function word is not named by them.
    let author_words: HashSet<String> = ask
        .authors
        .iter()
        .flat_map(|n| n.unicode_words().map(str::to_lowercase))
        .collect();
    let naming = Analysis {
        terms: a
            .terms
            .iter()
            .filter(|t| {
                !is_frame(t)
                    && !author_words.contains(t.as_str())
                    && !a.languages.iter().any(|(_, n)| n == *t)
                    && !format_words.contains(&words::stem(t))
                    && !words::terms(t).is_empty()
            })
            .cloned()
            .collect(),
        ..a.clone()
    };
    ask.named = named_by_title(c, &naming, docs)
        .into_iter()
        .map(|x| x.0)
        .collect();
    ask.count = how_many && !a.documents;
    if ask.things.is_empty() && ask.language.is_none() && !ask.languages && ask.formats.is_empty() {
        return None;
    }
    // Only a question about documents as such, or one counting a thing: "which
    // documents ...", "how many tables ...".
    if !(a.documents || how_many) {
        return None;
    }
    // Every other content word must name a document or an author: otherwise the
    // question asks about text.
    let thing_words: HashSet<String> = THINGS
        .iter()
        .flat_map(|(_, n)| n.iter())
        .chain(FRAME)
        .chain(analyze::CONTAIN_WORDS)
        .map(|w| words::stem(w))
        .collect();
    let author_words: HashSet<String> = ask.authors.iter().flat_map(|n| words::terms(n)).collect();
    let title_words: HashSet<String> = ask
        .named
        .iter()
        .filter_map(|&d| c.documents().get(d))
        .flat_map(|d| {
            words::terms(&d.title.replace(['_', '.', '-'], " "))
                .into_iter()
                .chain(words::terms(&d.file_name.replace(['_', '.', '-'], " ")))
        })
        .collect();
    let language_words: HashSet<String> = a.languages.iter().map(|(_, n)| words::stem(n)).collect();
    // "harvest.md" is the words of a file name.
    let rest = words::terms(&question.replace(['_', '.', '-'], " "))
        .into_iter()
        .filter(|t| {
            !thing_words.contains(t)
                && !author_words.contains(t)
                && !title_words.contains(t)
                && !language_words.contains(t)
                && !format_words.contains(t)
                && (ask.scripts.is_empty()
                    || !analyze::SCRIPT_NOUNS.iter().any(|w| words::stem(w) == *t))
                && !CONTENT_ASKS.iter().any(|w| words::stem(w) == *t)
                && !t.chars().all(|c| c.is_ascii_punctuation())
        });
    if rest.count() > 0 {
        return None;
    }
    if ask.count && ask.named.is_empty() && docs.len() > 1 && !a.documents {
        // "How many tables are there?" over several documents: each document's count.
        ask.count = false;
    }
    Some(ask)
}

/// How many of `t` the record holds.
fn count(p: &Profile, t: Thing) -> usize {
    match t {
        Thing::Comments => p.comments,
        Thing::Changes => p.changes(),
        Thing::Insertions => p.insertions,
        Thing::Deletions => p.deletions,
        Thing::Moves => p.moves,
        Thing::Notes => p.footnotes + p.endnotes,
        Thing::Footnotes => p.footnotes,
        Thing::Endnotes => p.endnotes,
        Thing::Tables => p.tables,
        Thing::Headers => p.headers,
        Thing::Footers => p.footers,
        Thing::Pages => p.pages as usize,
    }
}

/// `n` and the singular or plural noun of `t`.
fn counted(n: usize, t: Thing) -> String {
    let (one, many) = match t {
        Thing::Comments => ("comment", "comments"),
        Thing::Changes => ("tracked change", "tracked changes"),
        Thing::Insertions => ("insertion", "insertions"),
        Thing::Deletions => ("deletion", "deletions"),
        Thing::Moves => ("move", "moves"),
        Thing::Notes => ("note", "notes"),
        Thing::Footnotes => ("footnote", "footnotes"),
        Thing::Endnotes => ("endnote", "endnotes"),
        Thing::Tables => ("table", "tables"),
        Thing::Headers => ("header part", "header parts"),
        Thing::Footers => ("footer part", "footer parts"),
        Thing::Pages => ("page", "pages"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The English name of a language code ("rus" -> "Russian").
pub fn language_name(code: &str) -> &'static str {
    Lang::from_code(code).map_or("an undetected language", |l| l.eng_name())
}

/// Whether the record's authors of `t` include one of `authors` (any when empty).
fn by(p: &Profile, t: Thing, authors: &[String]) -> bool {
    authors.is_empty() || !authored(t) || authors.iter().any(|a| authors_of(p, t).contains(a))
}

/// Whether things of kind `t` have authors (comments and tracked changes do).
fn authored(t: Thing) -> bool {
    matches!(
        t,
        Thing::Comments | Thing::Changes | Thing::Insertions | Thing::Deletions | Thing::Moves
    )
}

/// The record's authors of things of kind `t` (empty for kinds without authors).
fn authors_of(p: &Profile, t: Thing) -> &[String] {
    match t {
        Thing::Comments => &p.comment_authors,
        _ if authored(t) => &p.revision_authors,
        _ => &[],
    }
}

/// What the record of a document says about what `ask` asks, or None when the
/// document does not qualify.
fn statement(c: &Collection, d: usize, ask: &Ask) -> Option<String> {
    let doc = c.documents().get(d)?;
    let p = &doc.profile;
    let mut parts: Vec<String> = Vec::new();
    if !of_format(&ask.formats, &doc.file_name) {
        return None;
    }
    if !ask.formats.is_empty() && ask.things.is_empty() && ask.language.is_none() && !ask.languages
    {
        parts.push(format!("{} file", ask.format_name));
    }
    if !ask.scripts.is_empty() {
        let n: usize = ask.scripts.iter().map(|s| p.script_words(s)).sum();
        if (n > 0) == ask.negated {
            return None;
        }
        if n > 0 {
            let what = ask.language.map_or("", language_name);
            parts.push(format!(
                "{n} word{} in {what} script",
                if n == 1 { "" } else { "s" }
            ));
        }
    } else if let Some(code) = ask.language {
        let is = doc.language == Some(code);
        if is == ask.negated {
            return None;
        }
    }
    if (ask.language.is_some() && ask.scripts.is_empty()) || ask.languages {
        parts.push(match doc.language {
            Some(code) => format!("written in {}", language_name(code)),
            None => "language not detected".to_string(),
        });
    }
    // With `any`, the things the document holds are told and the rest left out.
    let held = |t: Thing| count(p, t) > 0 && by(p, t, &ask.authors);
    if ask.any && !ask.count && !ask.things.iter().any(|&t| held(t)) {
        return None;
    }
    for &t in &ask.things {
        let n = count(p, t);
        if ask.any && !ask.count && !held(t) {
            continue;
        }
        if !ask.count && (n == 0 || !by(p, t, &ask.authors)) {
            return None;
        }
        let mut s = counted(n, t);
        let names = authors_of(p, t);
        if n > 0 && !names.is_empty() {
            s.push_str(" by ");
            s.push_str(&names_list(names));
        }
        // A change of unnamed kind is told by kind.
        if t == Thing::Changes && n > 0 {
            let kinds: Vec<String> = [
                (Thing::Insertions, p.insertions),
                (Thing::Deletions, p.deletions),
                (Thing::Moves, p.moves),
            ]
            .into_iter()
            .filter(|x| x.1 > 0)
            .map(|(k, n)| counted(n, k))
            .collect();
            s.push_str(&format!(" ({})", kinds.join(", ")));
        }
        parts.push(s);
    }
    Some(format!("{}: {}", name(c, d), parts.join("; ")))
}

/// Most authors a statement names; the rest are counted ("and 3 others"), so a
/// document with dozens of reviewers stays one line.
const MAX_AUTHORS: usize = 5;

/// `names` joined with commas, at most [`MAX_AUTHORS`] of them.
fn names_list(names: &[String]) -> String {
    let shown = names[..names.len().min(MAX_AUTHORS)].join(", ");
    match names.len().saturating_sub(MAX_AUTHORS) {
        0 => shown,
        1 => format!("{shown} and 1 other"),
        more => format!("{shown} and {more} others"),
    }
}

/// A document as an answer names it: its title, and its file name when that differs.
pub fn name(c: &Collection, d: usize) -> String {
    let Some(doc) = c.documents().get(d) else {
        return String::new();
    };
    let stem = doc
        .file_name
        .rsplit_once('.')
        .map_or(doc.file_name.as_str(), |x| x.0);
    if doc.file_name.is_empty() || stem == doc.title {
        doc.title.clone()
    } else {
        format!("{} ({})", doc.title, doc.file_name)
    }
}

/// The answer's statements for `ask` over the documents at `docs`, one per
/// qualifying document in collection order; a count of a named document first says
/// how many. Empty when no document qualifies.
pub fn facts(c: &Collection, ask: &Ask, docs: &[usize]) -> Vec<Fact> {
    let scope: Vec<usize> = if ask.count && !ask.named.is_empty() {
        ask.named.iter().take(1).copied().collect()
    } else if !ask.named.is_empty() && ask.language.is_none() {
        ask.named.clone()
    } else {
        docs.to_vec()
    };
    let mut out: Vec<Fact> = scope
        .iter()
        .filter_map(|&d| statement(c, d, ask).map(|text| Fact { doc: d, text }))
        .collect();
    crate::order::sort_by_key(&mut out, |f| f.doc);
    out
}

/// The records block of the context: one line per document of `facts`, so a chat
/// model reads the same counts as the extractive answer.
pub fn block(facts: &[Fact], total: usize) -> String {
    let mut s = format!(
        "[Collection records: counted over every chunk of each document when it was added; {} of {} documents match]",
        facts.len(),
        total
    );
    for f in facts {
        s.push_str("\n- ");
        s.push_str(&f.text);
    }
    s
}

/// The answer when no document qualifies: "There is no document with comments by
/// Ann among the 12 documents."
pub fn none(ask: &Ask, total: usize) -> String {
    let mut what: Vec<String> = ask
        .things
        .iter()
        .map(|&t| counted(2, t).trim_start_matches("2 ").to_string())
        .collect();
    if !ask.authors.is_empty() {
        let last = what.pop().unwrap_or_default();
        what.push(format!("{last} by {}", ask.authors.join(" or ")));
    }
    let mut s = if ask.formats.is_empty() {
        String::from("There is no document")
    } else {
        format!("There is no {} file", ask.format_name)
    };
    if let Some(code) = ask.language {
        let neg = if ask.negated { " not" } else { "" };
        if ask.scripts.is_empty() {
            s.push_str(&format!("{neg} written in {}", language_name(code)));
        } else {
            let with = if ask.negated { "without" } else { "with" };
            s.push_str(&format!(" {with} {} text", language_name(code)));
        }
        if !what.is_empty() {
            s.push_str(" and");
        }
    }
    if !what.is_empty() {
        let join = if ask.any { " or " } else { " and " };
        s.push_str(&format!(" with {}", what.join(join)));
    }
    if total == 1 {
        s.push_str(" in the collection's one document.");
    } else {
        s.push_str(&format!(" among the {total} documents."));
    }
    s
}

/// Whether a question about the collection also asks what the documents say
/// ("... and what is each about?", "summarize them"): the records tell which
/// documents, their text what they say.
pub fn asks_content(question: &str) -> bool {
    question.unicode_words().any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "about" | "summarize" | "summarise" | "summary" | "describe"
        ) || CONTENT_ASKS.contains(&w.to_lowercase().as_str())
    })
}
