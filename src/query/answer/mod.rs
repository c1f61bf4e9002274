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

pub mod asks;
pub mod cells;
pub mod compose;
pub mod draft;
pub mod facts;
pub mod filter;
pub mod focus;
pub mod irregular;
pub mod links;
pub mod lookup;
pub mod markup;
pub mod matrix;
pub mod outline;
pub mod parts;
pub mod phrase;
pub mod series;
pub mod source;
pub mod structured;
pub mod table;
pub mod wanted;
pub mod words;

use std::collections::HashSet;

use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

use self::asks::{Ask, asks, dropped, wants_all, what};
use self::compose::{decline, write};
use self::draft::Draft;
use self::focus::{foreign, holds_focus, holds_numbers};
use self::source::Src;
use self::words::{Query, Weights};
use super::assemble::analyze;

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

/// Words for a table's parts, which a table answer's form already says.
const TABLE_WORDS: [&str; 4] = ["table", "row", "column", "cell"];

/// Words that name the members of a list ("the third item").
const ITEM_WORDS: [&str; 8] = [
    "item", "items", "point", "points", "bullet", "entry", "step", "steps",
];

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
    /// `notes`, `header-footer`, `facts`, `documents`, `records` (a question about the
    /// collection as such, answered from the per-document records), or `none` when it
    /// declined.
    pub kind: String,
    /// Whether the answer says the documents do not answer the question.
    pub declined: bool,
    /// The statements in answer order.
    pub quotes: Vec<Quote>,
    /// o200k tokens of `text`.
    pub tokens: usize,
}

/// Whether source `s` holds the structure `ask` is for.
fn held_by(s: &Src, ask: Ask) -> bool {
    match ask {
        Ask::Changes => s.changes().next().is_some(),
        Ask::Comments => s.comments().next().is_some(),
        Ask::Notes => s
            .blocks
            .iter()
            .any(|b| b.kind == source::BlockKind::NoteDef),
        Ask::Parts => s.is_header_footer(),
    }
}

/// Whether a weak ask ("which headers", "the change") is for the structure: a
/// document the question is about holds it, and, for a page header or footer, the
/// body text of the documents it is about does not use the word itself. A word that names a structure in only one
/// of its senses ("the change figure" of a table, "revised versions" of a licence, a
/// document that talks about HTTP headers) means the structure only in a document
/// that has one: a question naming a document without tracked changes asks about its
/// text, however many changes another document of the collection carries. `docs` is
/// the documents' relevance to the question ([`focus::documents`]).
fn weak_ask_holds(srcs: &[Src], ask: Ask, docs: &std::collections::HashMap<String, f64>) -> bool {
    let about: Vec<&Src> = srcs
        .iter()
        .filter(|s| focus::relevance(docs, s) >= focus::TARGET_SHARE)
        .collect();
    if !about.iter().any(|s| held_by(s, ask)) {
        return false;
    }
    if ask != Ask::Parts {
        return true;
    }
    // Only the documents asked about: another document of the collection that talks
    // about HTTP headers says nothing of what "the footers" means in this one.
    !about
        .iter()
        .filter(|s| !s.is_header_footer())
        .flat_map(|s| &s.units)
        .any(|u| {
            u.terms
                .iter()
                .any(|t| asks::part_nouns().contains(&t.as_str()))
        })
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
    let docs = focus::documents(&srcs, &Query::new(question, &[], &w));
    // What the question asks for ("what qualifications ..."): a passage away from a
    // heading that names it ranks lower, sentence or table row alike.
    let heads = facts::AskedHeadings::new(&srcs, question);
    // A weak ask ("moved", "headers") counts only where a document the question is
    // about holds the structure; a phrase naming a table cell asks for none.
    let cells = lookup::named_cells(&srcs, question);
    let outside_cells: Option<Vec<Ask>> = (!cells.is_empty()).then(|| {
        let mut rest = phrase::fold(question);
        for c in &cells {
            rest = rest.replace(c.as_str(), " ");
        }
        asks(&rest).into_iter().map(|x| x.0).collect()
    });
    let asked_strength: Vec<(Ask, bool)> = asks(question)
        .into_iter()
        .filter(|(ask, _)| outside_cells.as_ref().is_none_or(|o| o.contains(ask)))
        .filter(|&(ask, strong)| strong || weak_ask_holds(&srcs, ask, &docs))
        .collect();
    let asked: Vec<Ask> = asked_strength.iter().map(|x| x.0).collect();
    // A weak ask ("the move", "the note") whose structure answers nothing, or less
    // than the text does, was the ordinary word: the question is read as if it
    // named no structure.
    let first_weak = asked_strength.first().is_some_and(|x| !x.1);
    let all_kind_words: Vec<&str> = asked.iter().flat_map(|k| dropped(*k)).collect();
    let plain_q = Query::new(question, &all_kind_words, &w);
    let facts = facts::sentences(
        &srcs,
        &plain_q,
        max_sentences.max(1),
        wanted::wanted(question),
        wanted::follow(question),
        wanted::who_verb(question).as_deref(),
        &heads,
    );

    if let Some(&first) = asked.first() {
        'structured: {
            // A change asked for in a header or footer: changes in those parts only.
            let in_parts = asked.contains(&Ask::Parts) && srcs.iter().any(Src::is_header_footer);
            // "Which documents have tracked changes, by whom": per document.
            if a.documents && asked.contains(&Ask::Changes) {
                let d = structured::change_summary(&srcs);
                if d.lines.is_empty() {
                    return decline(what(Ask::Changes), &facts, max_tokens);
                }
                return write(vec![d], max_tokens * 2);
            }
            let places = focus::numbered_places(question, &srcs);
            let mut drafts: Vec<Draft> = Vec::new();
            for (i, &ask) in asked.iter().enumerate() {
                let q = Query::new(question, &dropped(ask), &w);
                let held = focus::among_holders(&docs, &srcs, |s| held_by(s, ask));
                let reading = structured::Reading {
                    srcs: &srcs,
                    qterms: &qterms,
                    docs: &held,
                    wants_all: a.wants_all,
                    in_parts,
                    places: &places,
                    question,
                };
                let d = match ask {
                    Ask::Changes => structured::changes(&reading, &q),
                    Ask::Comments => structured::comments(&reading, &q),
                    Ask::Notes => structured::notes(&reading, &q),
                    Ask::Parts => structured::parts(&srcs, &q, question, &held),
                };
                let ok = !d.lines.is_empty();
                // A weak "note" must answer at least as well as the text does:
                // body text labels its own paragraphs so ("Note: ...", "the safety
                // note"), which the change and page-part words are not. A second
                // structure named beside it confirms the structural sense.
                // The sentence the question restates pointing to a note ("... due
                // in 2021.(note 4)") confirms it too: a question that describes the
                // remark a note hangs on covers that remark better than the note,
                // and asks what the note adds.
                let anchored = ok
                    && facts
                        .lines
                        .first()
                        .is_some_and(|l| l.plain.contains(markup::NOTE_MARK));
                let weaker =
                    ask == Ask::Notes && !anchored && (d.score < FACT_MIN || d.score < facts.score);
                if i == 0 && first_weak && (!ok || (asked.len() == 1 && weaker)) {
                    break 'structured;
                }
                if i == 0 && !ok {
                    return decline(what(first), &facts, max_tokens);
                }
                if ok {
                    drafts.push(d);
                }
            }
            return write(drafts, max_tokens * 2);
        }
    }

    let link = links::target(question, passages);
    if !link.lines.is_empty() {
        return write(vec![link], max_tokens);
    }
    // A numbered row the table's series of keys skips ("week 8" between Week 7 and
    // Week 9) is not in the documents.
    if let Some(label) = series::skipped(&srcs, question, &docs) {
        return decline(&format!("a row for \"{label}\""), &facts, max_tokens);
    }
    // Two things a matrix relates ("between Point D and Point B") name their crossing.
    if !a.wants_all {
        let crossed = matrix::crossed(&srcs, question, &docs);
        if !crossed.lines.is_empty() {
            return write(vec![crossed], max_tokens);
        }
    }
    // A question naming a row and a column of one table asks for their cell; one
    // naming a column and one of its values asks which rows hold it. A row addressed
    // by its key (or position) is the more exact reading of the two.
    let hit = if a.wants_all {
        Draft::default()
    } else {
        lookup::cell(&srcs, question, &docs)
    };
    let selected = filter::rows_with(&srcs, question, &docs);
    if !selected.lines.is_empty() && (hit.lines.is_empty() || hit.score < 1.0) {
        return write(vec![selected], max_tokens * 2);
    }
    if !hit.lines.is_empty() {
        return write(vec![hit], max_tokens);
    }
    // A column named whole, no row: the column down the table.
    let column = filter::column(&srcs, question, &docs);
    if !column.lines.is_empty() {
        return write(vec![column], max_tokens * 2);
    }
    // "What does each of its sections say?": each section's heading and opening.
    if outline::asks_each_section(question) {
        let d = outline::sections(&srcs, &docs);
        if !d.lines.is_empty() {
            return write(vec![d], max_tokens * 2);
        }
    }
    let table_q = Query::new(question, &TABLE_WORDS, &w);
    let quotes = phrase::quoted(question);
    // "The third item of the list after ...": one item of the list the question names.
    if let Some(at) = phrase::nth(&phrase::fold(question), &ITEM_WORDS) {
        if let Some(d) = cells::list_item(&srcs, &table_q, &quotes, &docs, at) {
            return write(vec![d], max_tokens);
        }
    }
    if a.wants_all {
        let t = cells::whole_table(&srcs, &table_q, &quotes, &docs);
        let l = cells::whole_list(&srcs, &table_q, &quotes, &docs);
        // A question that names a table ("what's in the table", "list all its
        // cells") asks for that table, however well a list near it matches: the
        // structure's noun says which structure. ("List" itself is most often the verb.)
        let best = if t.score >= l.score || (a.table && !t.lines.is_empty()) {
            t
        } else {
            l
        };
        if !best.lines.is_empty() && best.score >= FACT_MIN && best.score >= facts.score {
            let rest = parts::left_out(question, &best, &srcs, &w, &TABLE_WORDS);
            return write(vec![best, rest], max_tokens * 2);
        }
    }
    // A section the question quotes by its heading, or one it asks about as a whole,
    // is answered from that section even when the question also reads as broad
    // ("Summarize the section 'Installation'").
    let mut section = facts::section(&srcs, question, &plain_q, &w, &docs, &quotes);
    // The sentence that answers best, when the section holds it, is part of the
    // section's answer: key sentences are chosen for the section as a whole, and a
    // section of code lines or list items quoted from its top can leave it out
    // ("If no properties file is found, the defaults apply").
    // Only for a pointed question: a summary asks for the section as a whole.
    let pointed = !asks::asks_about(question) && !a.broad && facts.score >= FACT_MIN;
    if let Some(f) = facts
        .lines
        .first()
        .filter(|f| pointed && facts::states(&f.plain))
    {
        let inside = section.lines.iter().any(|l| l.number == f.number);
        if inside
            && !section
                .lines
                .iter()
                .any(|l| l.plain.contains(f.plain.as_str()))
        {
            section.lines.insert(0, f.clone());
        }
    }
    // A line holding the date or number must be about what is asked: share a
    // word of the question besides the documents' names and the words that ask for
    // the type ("founded by two brothers" counts no deckhands; "Date: 20 June" in a
    // mail's header dates no signing).
    // Nouns for a kind of document ("according to the article", "in the guide")
    // point at where to look, not at what is asked, unless nothing else is asked
    // ("how many pages does the report have").
    let mut asked_words: HashSet<&str> = plain_q
        .terms
        .iter()
        .map(|t| t.0.as_str())
        .filter(|t| !srcs.iter().any(|s| s.naming.contains(*t)) && !wanted::is_type_word(t))
        .collect();
    if asked_words.iter().any(|t| !focus::kind_of_document(t)) {
        asked_words.retain(|t| !focus::kind_of_document(t));
    }
    // A question asking for a date, a quantity or a sum of money is answered by a
    // statement of one about what is asked: a section none of whose key sentences
    // gives one is the topic the question names, not its answer ("how much does the
    // tour cost" and the tour's section that counts species but gives no price).
    // A question asking what the section says is answered by it whatever else it
    // asks ("what does it return, and when is it useful?").
    // A sum of money may be written as a bare number under a label that says what it
    // is ("price" heading a column of "2.05"): the lines must speak of money, and one
    // of them give a number about what is asked.
    let gives_asked_type = |lines: &[draft::Line]| {
        wanted::wanted(question).is_none_or(|w| {
            let number = if w == wanted::Wanted::Money {
                wanted::Wanted::Number
            } else {
                w
            };
            lines.iter().any(|l| {
                wanted::holds(number, &l.plain)
                    && words::terms(&l.plain)
                        .iter()
                        .any(|t| asked_words.contains(t.as_str()))
            }) && (w != wanted::Wanted::Money
                || lines.iter().any(|l| wanted::names_money(&l.plain)))
        })
    };
    let section_typed = gives_asked_type(&section.lines);
    let about_section = a.section || asks::asks_about(question);
    if !section.lines.is_empty()
        && ((section.score >= 1.0 && section_typed) || about_section)
        && !a.documents
    {
        let rest = parts::left_out(question, &section, &srcs, &w, &[]);
        return write(vec![section, rest], max_tokens * 2);
    }
    // A question with no word to look for ("What is this about?"), or none but the
    // name of a document ("What is the ferry handbook about?"), reads as broad.
    let only_names = !plain_q.terms.is_empty()
        && plain_q
            .terms
            .iter()
            .all(|(t, _)| srcs.iter().any(|s| s.naming.contains(t)));
    if a.documents || (a.broad && !a.table) || plain_q.terms.is_empty() || only_names {
        let d = facts::documents(&srcs, &plain_q, &w, &docs, a.documents);
        if !d.lines.is_empty() {
            return write(vec![d], max_tokens * 2);
        }
    }
    // The asked noun may be a kind the document never writes ("which engineer") when
    // the question names the row that holds the instance.
    let focus = holds_focus(question, &srcs, &w) || cells::names_row(&srcs, question);
    let names = focus::named_things(question, &srcs);
    if (!focus
        || !holds_numbers(question, &srcs)
        || facts::unlocated(&srcs, question, &names, wanted::wanted(question)))
        && !foreign(question, &srcs.iter().collect::<Vec<_>>())
    {
        return decline("an answer to this question", &facts, max_tokens);
    }
    if !section.lines.is_empty()
        && (about_section || (section.score > facts.score && section_typed))
    {
        let rest = parts::left_out(question, &section, &srcs, &w, &[]);
        return write(vec![section, rest], max_tokens * 2);
    }
    let cell = cells::cell(&srcs, &table_q, &heads);
    if !cell.lines.is_empty()
        && cell.score >= FACT_MIN
        && (a.table || cell.score >= facts.score * CELL_OVER_FACT)
    {
        return write(vec![cell], max_tokens);
    }
    let target: Vec<&Src> = srcs
        .iter()
        .filter(|s| focus::relevance(&docs, s) >= 1.0)
        .collect();
    // "When ...?" and "How many ...?" are answered by a date or a number: when none
    // of the chosen sentences holds one, they restate the question, and the
    // documents do not say.
    // The line holding the date or number must be about what is asked
    // (`gives_asked_type`).
    let typed = gives_asked_type(&facts.lines);
    if facts.lines.is_empty() || (facts.score < FACT_MIN && !foreign(question, &target)) || !typed {
        return decline("an answer to this question", &facts, max_tokens);
    }
    // Over a document in another script, a sentence sharing no word or number with the
    // question was chosen by its document's name alone: that is a guess (most often
    // the title), so the answer declines and cites it as the closest passage.
    if foreign(question, &target)
        && facts
            .lines
            .iter()
            .all(|l| words::term_set(&l.plain).is_disjoint(&qterms))
    {
        return decline("an answer to this question", &facts, max_tokens);
    }
    // What a lead-in introduces is already the passage on the topic.
    if wanted::describes(question)
        && !facts.list
        && let Some(d) = facts::enclosing(&srcs, &facts, &plain_q, &w)
    {
        return write(vec![d], max_tokens * 2);
    }
    let budget = if facts.list {
        max_tokens * 2
    } else {
        max_tokens
    };
    write(vec![facts], budget)
}
