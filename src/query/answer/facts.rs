//! Answers from sentences: the sentence that covers most of the question, any that
//! cover nearly as much (a near tie: the question's words cannot tell them apart, so
//! choosing one would be a guess), then those that add what it leaves uncovered (a
//! question with two parts gets a sentence for each); and for broad questions a few
//! sentences per document.

use std::collections::{HashMap, HashSet};

use super::draft::{Draft, Line};
use super::source::{BlockKind, Src, Unit};
use super::wanted::{Follow, Wanted, holds};
use super::words::{Query, Weights};

/// A sentence adds itself when it covers at least this share of the question's
/// weight not yet covered.
const MIN_GAIN: f64 = 0.15;

/// A line of code scores this share of its coverage.
const CODE_FACTOR: f64 = 0.8;

/// A sentence without the type of thing asked for ([`Wanted`]) scores this share of
/// its coverage.
const UNTYPED_FACTOR: f64 = 0.5;

/// Score factor of a passage away from what the question asks for
/// ([`AskedHeadings::away`]).
pub(super) const UNASKED_FACTOR: f64 = 0.5;

/// Score factor of a sentence without the verb a "who" question asks about
/// ([`super::wanted::who_verb`]): the person is named where the deed is, so a
/// sentence that only describes what was done (however many of the question's
/// other words it shares) ranks below the one stating who did it.
const VERBLESS_FACTOR: f64 = 0.25;

/// Score factor of a sentence naming what the question sets apart as known
/// ([`Query::apart`]): it is about the thing the asker has, not the one asked for.
const APART_FACTOR: f64 = 0.5;

/// A sentence scoring at least this share of the best one's coverage is a near tie.
const NEAR_TIE: f64 = 0.9;
/// Most sentences a near tie may bring (the best included).
const NEAR_TIES: usize = 2;

/// How many sentences after the best one may give the reason or the way asked
/// for ([`Follow`]): the next, or the one after a sentence that restates the problem.
const FOLLOW_WINDOW: usize = 2;

/// Sentences per document in a broad answer.
const PER_DOCUMENT: usize = 2;

/// Documents in a broad answer.
const MAX_DOCUMENTS: usize = 6;

pub(super) fn usable(s: &Src, block: usize) -> bool {
    s.blocks
        .get(block)
        .is_some_and(|b| !matches!(b.kind, BlockKind::Table))
}

/// Whether a unit's terms are all words of its document's name (the title heading,
/// a running title): it names the document and says nothing about it, so it only
/// ever matched a question by the name the question calls the document by.
pub(super) fn names_only(s: &Src, terms: &HashSet<String>) -> bool {
    !terms.is_empty() && terms.iter().all(|t| s.naming.contains(t))
}

/// Whether unit `u` of `s` may be quoted as a statement: not a table row ([`usable`]),
/// not only pictures ([`only_images`]), not only the document's name
/// ([`names_only`]), not filler ([`filler`]).
pub(super) fn quotable(s: &Src, u: &super::source::Unit) -> bool {
    usable(s, u.block) && !only_images(&u.plain) && !names_only(s, &u.terms) && !filler(&u.plain)
}

/// Words a sentence needs before its repetition says it is filler.
const FILLER_MIN_WORDS: usize = 12;

/// Whether a sentence is a few words said over and over ("I am some text I am some
/// text …", the placeholder text of templates and test files): at least
/// [`FILLER_MIN_WORDS`] words of which at most a quarter are distinct. Prose repeats
/// its function words, never most of itself; such a sentence is central to nothing
/// and answers nothing.
pub(super) fn filler(plain: &str) -> bool {
    let words: Vec<String> = plain.split_whitespace().map(str::to_lowercase).collect();
    let distinct: HashSet<&String> = words.iter().collect();
    words.len() >= FILLER_MIN_WORDS && distinct.len() * 4 <= words.len()
}

/// Whether a sentence is nothing but picture placeholders (`[image]`, `[image: alt]`,
/// and `(image: alt)`, as a picture inside a link's text is written, chunk/render.rs):
/// a picture's description names the picture and states nothing, so it never answers.
pub(super) fn only_images(plain: &str) -> bool {
    let mut rest = plain.trim();
    let mut any = false;
    loop {
        let (r, close) = if let Some(r) = rest.strip_prefix("[image") {
            (r, ']')
        } else if let Some(r) = rest.strip_prefix("(image") {
            (r, ')')
        } else {
            break;
        };
        let Some(end) = r.find(close) else {
            return false;
        };
        rest = r[end + 1..].trim_start();
        any = true;
    }
    any && rest.is_empty()
}

/// The best sentence and up to `max - 1` more that each add uncovered terms.
pub fn sentences(
    srcs: &[Src],
    q: &Query,
    max: usize,
    want: Option<Wanted>,
    follow: Option<Follow>,
    verb: Option<&str>,
    heads: &AskedHeadings<'_>,
) -> Draft {
    let mut cands: Vec<(f64, usize, usize)> = Vec::new();
    // Sentences of a document the question does not name, when it names one, answer
    // about something else ([`super::focus::unnamed_documents`]).
    let unnamed = super::focus::unnamed_documents(srcs, q);
    for (si, s) in srcs.iter().enumerate() {
        let elsewhere = if unnamed.contains(&s.title) {
            super::focus::UNNAMED_FACTOR
        } else {
            1.0
        };
        for (ui, u) in s.units.iter().enumerate() {
            if !quotable(s, u) {
                continue;
            }
            // Prose answers better than a line of code that shares its words.
            let code = s
                .blocks
                .get(u.block)
                .is_some_and(|b| b.kind == BlockKind::Code);
            let mut factor = if code { CODE_FACTOR } else { 1.0 } * elsewhere;
            // A sentence without the date or number asked for restates the question,
            // unless the heading it stands under gives it ([`dated_by_heading`]).
            if want.is_some_and(|w| !holds(w, &u.plain) && dated_by_heading(s, u, w).is_none()) {
                factor *= UNTYPED_FACTOR;
            }
            // "Besides the ETag, which header ...?": a sentence naming what the
            // question sets apart states what the asker has already.
            if u.terms.iter().any(|t| q.apart.contains(t)) {
                factor *= APART_FACTOR;
            }
            // "Who discovered ...?" is answered where the deed is stated: a sentence
            // without the verb names someone else, or no one.
            if verb.is_some_and(|v| !u.terms.contains(v)) {
                factor *= VERBLESS_FACTOR;
            }
            if heads.away(s, u.block, &u.terms) {
                factor *= UNASKED_FACTOR;
            }
            cands.push((q.coverage(&u.terms, &s.context) * factor, si, ui));
        }
    }
    crate::order::sort_by(&mut cands, |a, b| {
        b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2)))
    });
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
    // Near ties: sentences the question's words cannot tell from the best are shown
    // beside it rather than dropped by a guess.
    for c in cands.iter().skip(1) {
        if picked.len() >= max.min(NEAR_TIES) || c.0 < best * NEAR_TIE {
            break;
        }
        if srcs[c.1].units[c.2].plain != srcs[bs].units[bu].plain {
            have.extend(srcs[c.1].units[c.2].terms.iter().cloned());
            picked.push((c.1, c.2));
        }
    }
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
    let mut lines = Vec::new();
    let mut list = false;
    let mut shown: HashSet<(usize, usize)> = HashSet::new();
    // One lead-in per answer brings what it introduces; more would bury the answer.
    let mut expanded = false;
    for &(si, ui) in &picked {
        // An item of a list that a sentence introduces ("... the following:") is
        // answered by that sentence and what it introduces.
        let ui = lead_in(&srcs[si], ui).unwrap_or(ui);
        if !shown.insert((si, ui)) {
            continue;
        }
        let s = &srcs[si];
        let u = &s.units[ui];
        // The last unit the line holds: what the line introduces starts after it.
        let mut last = ui;
        let text = match short_paragraph(s, u.block) {
            Some(whole) => {
                // Its other sentences are in the line already.
                for (k, other) in s.units.iter().enumerate() {
                    if other.block == u.block {
                        shown.insert((si, k));
                        last = last.max(k);
                    }
                }
                whole
            }
            None => trim(q, &u.plain, want),
        };
        // A paragraph quoted whole introduces what follows when it ends with a colon,
        // whichever of its sentences was chosen ("... are in performance. Here are
        // some benchmarks:").
        let lead = u.plain.ends_with(':') || text.trim_end().ends_with(':');
        let text = super::structured::clip_to(&text, super::structured::ANSWER_CHARS);
        // The date or number asked for, given by the heading above, opens the line.
        let text = match want
            .filter(|w| !holds(*w, &text))
            .and_then(|w| dated_by_heading(s, u, w))
        {
            Some(h) => format!("{h}: {text}"),
            None => text,
        };
        lines.push(Line::new(text, s.number));
        let heading = s
            .blocks
            .get(u.block)
            .is_some_and(|b| b.kind == BlockKind::Heading);
        if expanded || !(lead || heading) {
            continue;
        }
        expanded = true;
        if heading {
            let under = label_sections(srcs, si, u.block);
            if !under.is_empty() {
                list = true;
                lines.extend(under);
                continue;
            }
        }
        // What a lead-in or a heading introduces is the answer, up to the next
        // heading, into the document's next source when this one ends.
        let mut taken = 0;
        let mut at = (si, last + 1);
        while taken < MAX_ITEMS {
            let (ssi, k) = at;
            let Some(src) = srcs.get(ssi) else {
                break;
            };
            let Some(next) = src.units.get(k) else {
                let same = srcs.get(ssi + 1).is_some_and(|n| {
                    n.title == src.title && n.part.is_empty() && n.part == src.part
                });
                if !same {
                    break;
                }
                at = (ssi + 1, 0);
                continue;
            };
            let b = &src.blocks[next.block];
            if b.kind == BlockKind::Heading || !shown.insert((ssi, k)) {
                break;
            }
            // Filler and picture placeholders are no part of what is introduced
            // ([`filler`], [`only_images`]): they say nothing the reader asked for.
            if filler(&next.plain) || only_images(&next.plain) {
                at = (ssi, k + 1);
                continue;
            }
            list = true;
            taken += 1;
            lines.push(if b.kind == BlockKind::Item {
                Line {
                    plain: b.r.plain.clone(),
                    markdown: b.r.markdown.clone(),
                    number: src.number,
                }
            } else {
                Line::new(next.plain.clone(), src.number)
            });
            at = (ssi, k + 1);
        }
    }
    // "Why ...?" and "How can I ...?": the sentence that states what is asked about
    // is most often followed, within a sentence or two, by the one that gives its
    // reason ("... is a separate project. The reason being that ...") or the way to
    // do it ("... include timestamps. That means ... To avoid this, set ..."), which
    // shares few of the question's words ([`Follow`]).
    if let Some(f) = follow.filter(|f| !lines.iter().any(|l| f.given(&l.plain))) {
        let (si, ui) = picked[0];
        let s = &srcs[si];
        let next = s
            .units
            .iter()
            .skip(ui + 1)
            .take(FOLLOW_WINDOW)
            .take_while(|n| {
                s.blocks
                    .get(n.block)
                    .is_some_and(|b| b.kind != BlockKind::Heading)
            })
            .find(|n| f.given(&n.plain));
        if let Some(n) = next {
            lines.insert(1.min(lines.len()), Line::new(n.plain.clone(), s.number));
        }
    }
    Draft {
        kind: "facts",
        lines,
        score: best,
        list,
        at: Some((bs, bu)),
    }
}

/// What a question asks for, when it names it in one word after its wh-word
/// ([`super::focus::asked_terms`]: "what qualifications must ..."), and the documents
/// with a heading that holds that word. Such a document answers under that heading:
/// the question's other words name the document's subject ("... must the contractor
/// have for the commitment-management coaching contract"), which its opening
/// sentences and its form's fields restate without answering, and "3. Qualifications
/// of Key Personnel" is where the answer stands. A phrase of two words ("which map
/// generator settings") may be a modifier and its noun, and the heading that holds
/// the modifier ("Map generator") the whole document's: only one word is a noun
/// sure enough to steer by.
pub struct AskedHeadings<'a> {
    asked: HashSet<String>,
    titles: HashSet<&'a str>,
}

impl<'a> AskedHeadings<'a> {
    /// Reads `question` and the headings of `srcs` (body sources: their path and
    /// heading blocks).
    pub fn new(srcs: &'a [Src], question: &str) -> Self {
        let terms = super::focus::asked_terms(question);
        let asked: HashSet<String> = if terms.len() == 1 {
            terms.into_iter().collect()
        } else {
            HashSet::new()
        };
        let mut titles = HashSet::new();
        if !asked.is_empty() {
            for s in srcs.iter().filter(|s| s.part.is_empty()) {
                let mut heads = std::iter::once(s.section.as_str()).chain(
                    s.blocks
                        .iter()
                        .filter(|b| b.kind == BlockKind::Heading)
                        .map(|b| b.r.plain.as_str()),
                );
                if heads.any(|h| names_any(&asked, h)) {
                    titles.insert(s.title.as_str());
                }
            }
        }
        AskedHeadings { asked, titles }
    }

    /// Whether a passage of `s` at block `block` with `terms` (its own words, or a
    /// row's with its labels) is away from what is asked: its document has a heading
    /// naming it, and the passage neither holds it nor stands under such a heading.
    pub fn away(&self, s: &Src, block: usize, terms: &HashSet<String>) -> bool {
        self.titles.contains(s.title.as_str())
            && terms.is_disjoint(&self.asked)
            && !heading_above(s, block).is_some_and(|h| names_any(&self.asked, h))
    }
}

/// Whether `text` holds one of the terms `asked`.
fn names_any(asked: &HashSet<String>, text: &str) -> bool {
    !super::words::term_set(text).is_disjoint(asked)
}

/// The nearest heading above block `block` of `s`: a heading block before it in the
/// source, else the last heading of the source's path (the chunk opens inside it).
pub(super) fn heading_above(s: &Src, block: usize) -> Option<&str> {
    s.blocks[..block.min(s.blocks.len())]
        .iter()
        .rev()
        .find(|b| b.kind == BlockKind::Heading)
        .map(|b| b.r.plain.as_str())
        .or_else(|| s.section.rsplit(" > ").next().filter(|h| !h.is_empty()))
}

/// The heading above `u` when the question asks a date (`w`), the heading holds one
/// and `u` does not: entries under a dated heading (a changelog's "4.0.0 -
/// 2025-08-11", minutes under their meeting's date, a diary's day) state their facts
/// of that date without repeating it, so the heading gives what the sentence leaves
/// out. (A number in a heading is most often its outline number, no quantity.)
fn dated_by_heading<'a>(s: &'a Src, u: &Unit, w: Wanted) -> Option<&'a str> {
    if w != Wanted::Date
        || holds(w, &u.plain)
        || s.blocks
            .get(u.block)
            .is_some_and(|b| b.kind == BlockKind::Heading)
    {
        return None;
    }
    heading_above(s, u.block).filter(|h| holds(w, h))
}

/// Whether a question that names things the text writes (`names`, from
/// [`super::focus::named_things`]) and asks for a date or a number (`want`) finds
/// no quotable sentence that holds the type asked for and every name, or, with the
/// names only in its paragraph or the heading above it, the type and a word of what
/// the question says of them (its terms besides the names and the documents' names).
/// The property: a date or number about a named thing is stated where that thing is
/// named, with the words of what happened; one found elsewhere, or beside other
/// words, belongs to something else (the shutdown date of another service of the
/// same maker, the year the named one opened), so the answer declines rather than
/// give it.
pub fn unlocated(srcs: &[Src], question: &str, names: &[String], want: Option<Wanted>) -> bool {
    let Some(w) = want else {
        return false;
    };
    if names.is_empty() {
        return false;
    }
    let mut said = super::words::term_set(question);
    for n in names {
        for t in super::words::term_set(n) {
            said.remove(&t);
        }
    }
    for s in srcs {
        said.retain(|t| !s.naming.contains(t));
    }
    !srcs.iter().any(|s| {
        s.units.iter().any(|u| {
            if !quotable(s, u) || !super::wanted::holds(w, &u.plain) {
                return false;
            }
            // A sentence that writes the names and the type states it of them.
            let own = super::phrase::fold(&u.plain);
            if names.iter().all(|n| own.contains(n.as_str())) {
                return true;
            }
            if !said.is_empty() && u.terms.is_disjoint(&said) {
                return false;
            }
            let mut here = format!("{} {}", u.plain, s.section);
            if let Some(b) = s.blocks.get(u.block) {
                here.push(' ');
                here.push_str(&b.r.plain);
            }
            if let Some(h) = heading_above(s, u.block) {
                here.push(' ');
                here.push_str(h);
            }
            let here = super::phrase::fold(&here);
            names.iter().all(|n| here.contains(n.as_str()))
        })
    })
}

/// A paragraph of at most this many words is quoted whole.
const SHORT_PARAGRAPH_WORDS: usize = 50;

/// The whole text of paragraph `block` when it is short and has several sentences:
/// a short paragraph is one statement (a reference entry, an address, a caption, a
/// note), which sentence splitting cuts where a question's answer runs on ("Smith,
/// D. M. (2013). A study. Climate Dynamics, 41"). None otherwise.
fn short_paragraph(s: &Src, block: usize) -> Option<String> {
    let b = s.blocks.get(block)?;
    if !matches!(b.kind, BlockKind::Paragraph | BlockKind::NoteDef) {
        return None;
    }
    let sentences = s.units.iter().filter(|u| u.block == block).count();
    let plain = b.r.plain.replace('\n', " ");
    let words = plain.split_whitespace().count();
    (sentences > 1 && words <= SHORT_PARAGRAPH_WORDS).then(|| plain.trim().to_string())
}

/// A sentence longer than this many words is cut to the clauses that answer.
const TRIM_WORDS: usize = 40;

/// A heading without its leading outline number ("6. Versioning", "2.1 Scope",
/// "3.0 Critical Events", "IV. Results"): the words a person names it by.
pub(super) fn unnumbered(h: &str) -> &str {
    let t = h.trim_start();
    let Some((first, rest)) = t.split_once(char::is_whitespace) else {
        return h;
    };
    let core = first.trim_end_matches(['.', ')']);
    let arabic = !core.is_empty()
        // Outline numbers are short ("12.3"); "2019" in "2019 Harbour Guide" is a year.
        && core.split('.').all(|p| (1..=3).contains(&p.len()) && p.chars().all(|c| c.is_ascii_digit()));
    let roman = !core.is_empty()
        && first.ends_with('.')
        && core.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L'));
    if (arabic || roman) && !rest.trim().is_empty() {
        rest.trim_start()
    } else {
        h
    }
}

/// Fewest words a cut sentence keeps, clauses allowing.
const MIN_CUT_WORDS: usize = 12;

/// A long sentence cut to the run of its clauses (split after `,` `;` `:`), at most
/// [`TRIM_WORDS`] words (or one clause), that covers the most of the question, the
/// shortest such run on a tie, with `…` where text was left out; a short sentence
/// whole. A sentence that lists many things (the names in an acknowledgement) answers
/// with the part that holds what was asked, not with its opening. When the question
/// asks for a date, number or sum (`want`) and the sentence gives one, the cut holds
/// it: the clauses that restate the question ("a stockholder may authorize ... by
/// proxy, ...") are not its answer ("... after three years from its date").
fn trim(q: &Query, sentence: &str, want: Option<Wanted>) -> String {
    if sentence.split_whitespace().count() <= TRIM_WORDS {
        return sentence.to_string();
    }
    let mut clauses: Vec<&str> = Vec::new();
    let mut from = 0;
    for (i, c) in sentence.char_indices() {
        if matches!(c, ',' | ';' | ':') && sentence[i + 1..].starts_with(' ') {
            clauses.push(&sentence[from..=i]);
            from = i + 1;
        }
    }
    clauses.push(&sentence[from..]);
    let typed = |text: &str| want.is_some_and(|w| holds(w, text));
    let must_type = typed(sentence);
    let mut best: Option<(bool, f64, usize, usize, usize)> = None;
    for a in 0..clauses.len() {
        let mut words = 0;
        for b in a..clauses.len() {
            words += clauses[b].split_whitespace().count();
            if b > a && words > TRIM_WORDS {
                break;
            }
            let text: String = clauses[a..=b].concat();
            let has = must_type && typed(&text);
            let gain = q.gain(&super::words::term_set(&text), &HashSet::new());
            let len = text.len();
            let better = best.is_none_or(|x| {
                (has && !x.0)
                    || (has == x.0 && (gain > x.1 + 1e-9 || (gain + 1e-9 >= x.1 && len < x.4)))
            });
            if better {
                best = Some((has, gain, a, b, len));
            }
        }
    }
    let Some((_, _, mut a, mut b, _)) = best else {
        return sentence.to_string();
    };
    // A clause or two alone ("Ada Lovelace,") says nothing of what is around it (who
    // comes next in a list, what the number is of): the cut grows by a clause after,
    // then before, up to [`MIN_CUT_WORDS`].
    let count = |a: usize, b: usize| -> usize {
        clauses[a..=b]
            .iter()
            .map(|c| c.split_whitespace().count())
            .sum()
    };
    while count(a, b) < MIN_CUT_WORDS && (a > 0 || b + 1 < clauses.len()) {
        if b + 1 < clauses.len() {
            b += 1;
        }
        if count(a, b) < MIN_CUT_WORDS && a > 0 {
            a -= 1;
        }
    }
    let body = clauses[a..=b].concat();
    let body = body.trim().trim_end_matches([',', ';']);
    let lead = if a > 0 { "… " } else { "" };
    let tail = if b + 1 < clauses.len() { " …" } else { "" };
    format!("{lead}{body}{tail}")
}

/// How many units back a list's lead-in sentence is looked for.
const LEAD_IN_REACH: usize = 12;

/// For a unit in a list, the unit just before the list when it ends with ':' (the
/// sentence that introduces the list; paragraphs between items of one list are
/// crossed).
fn lead_in(s: &Src, ui: usize) -> Option<usize> {
    let block = |k: usize| s.blocks.get(s.units.get(k)?.block);
    if block(ui)?.kind != BlockKind::Item {
        return None;
    }
    let mut k = ui;
    while k > 0 && ui - k < LEAD_IN_REACH {
        k -= 1;
        let b = block(k)?;
        if b.kind == BlockKind::Heading {
            return None;
        }
        if s.units[k].plain.ends_with(':') {
            return Some(k);
        }
    }
    None
}

/// Most units a lead-in sentence brings, and most units of a section answer.
const MAX_ITEMS: usize = 32;

/// The section the question names by its heading: a heading (the last of a source's
/// heading path, or a heading inside it) whose words are at least
/// [`HEADING_SHARE`] of their weight question terms. Its units follow in order,
/// across the document's next sources while the section goes on, up to
/// [`MAX_ITEMS`].
///
/// A heading the question quotes whole (`'Using docx4j via Maven'`) names its
/// section outright: its score is 1 plus its coverage.
///
/// `question` is the question as asked: a heading of two or more words written out
/// in it names its section too.
pub fn section(
    srcs: &[Src],
    question: &str,
    q: &Query,
    w: &Weights,
    docs: &HashMap<String, f64>,
    quotes: &[String],
) -> Draft {
    let folded_q = super::phrase::fold(question);
    let qt: HashSet<&str> = q.terms.iter().map(|t| t.0.as_str()).collect();
    // A word most headings share ("edit" of a wiki's "[edit]" links, "Chapter")
    // tells no section from another: it is left out of every heading's name.
    // Each source's headings (its path's last and those in its text), with their
    // document's title.
    let mut headings: Vec<(&str, HashSet<String>)> = Vec::new();
    for s in srcs {
        let own = std::iter::once(s.section.rsplit(" > ").next().unwrap_or("")).chain(
            s.blocks
                .iter()
                .filter(|b| b.kind == BlockKind::Heading)
                .map(|b| b.r.plain.as_str()),
        );
        for h in own {
            headings.push((s.title.as_str(), super::words::term_set(h)));
        }
    }
    let mut df: HashMap<String, usize> = HashMap::new();
    for (_, h) in &headings {
        for t in h {
            *df.entry(t.clone()).or_insert(0) += 1;
        }
    }
    // How many distinct headings of each document hold each word (a heading is both
    // a source's path and a heading in its text: counted once). A number tells a
    // document's headings apart within it ("Day 10" of an itinerary), whatever
    // another document numbers ("10. Automatic Licensing" of a licence).
    let mut distinct: Vec<&(&str, HashSet<String>)> = Vec::new();
    for h in &headings {
        if !distinct.contains(&h) {
            distinct.push(h);
        }
    }
    let mut heading_df: HashMap<(&str, &str), usize> = HashMap::new();
    for (title, h) in &distinct {
        for t in h.iter() {
            *heading_df.entry((title, t.as_str())).or_insert(0) += 1;
        }
    }
    let common: HashSet<String> = df
        .into_iter()
        .filter(|&(_, n)| headings.len() >= COMMON_HEADINGS_MIN && n * 2 > headings.len())
        .map(|x| x.0)
        .collect();
    let named = |h: &str, title: &str| {
        let mut ht = super::words::term_set(h);
        ht.retain(|t| !common.contains(t));
        // The heading's name is its words without its outline number: a question
        // may say "Versioning" for "6. Versioning" (and the number, when it says
        // "section 6", still counts in the coverage).
        let mut name = super::words::term_set(unnumbered(h));
        name.retain(|t| !common.contains(t));
        // In term order: a float sum in hash order differs from run to run.
        let mut sorted: Vec<&String> = name.iter().collect();
        sorted.sort();
        let all: f64 = sorted.iter().map(|t| w.weight(t)).sum();
        let hit: f64 = sorted
            .iter()
            .filter(|t| qt.contains(t.as_str()))
            .map(|t| w.weight(t))
            .sum();
        // Numbers identify, words describe: in a series of headings told apart by a
        // number ("Kettle 2.4 released", "ANN: Kettle 1.3"; "Step 3"; "Chapter 12"),
        // a question holding a number that no other heading holds names that heading,
        // though it leaves out the words around the number.
        let by_number = sorted.iter().any(|t| {
            t.chars().any(|c| c.is_ascii_digit())
                && qt.contains(t.as_str())
                && heading_df.get(&(title, t.as_str())).copied().unwrap_or(0) == 1
        });
        if all > 0.0 && (hit / all >= HEADING_SHARE || by_number) {
            (q.coverage(&ht, &HashSet::new()), by_number)
        } else {
            (0.0, false)
        }
    };
    let mut best: Option<(f64, usize, usize)> = None;
    for (si, s) in srcs.iter().enumerate() {
        // Only in a document the question is about, and a heading that with the
        // document's name covers a good part of the question.
        if !s.part.is_empty() || super::focus::relevance(docs, s) < super::focus::TARGET_SHARE {
            continue;
        }
        let named = |h: &str, level: u8| {
            let fh = super::phrase::fold(h);
            let (sc, by_number) = named(h, &s.title);
            let mut ht = super::words::term_set(h);
            // A heading that only repeats the document's name names no section.
            let adds = ht.iter().any(|t| !s.naming.contains(t));
            // Quoted, the heading is named whole: as written, or without the words
            // most headings share ("Firefox" names "Firefox [edit]").
            let mut own = super::words::term_set(unnumbered(h));
            own.retain(|t| !common.contains(t));
            let bare = super::phrase::fold(unnumbered(h));
            let exact = quotes.iter().any(|x| *x == fh || *x == bare);
            let by_terms = quotes
                .iter()
                .any(|x| !own.is_empty() && super::words::term_set(x) == own);
            // A heading quoted as written is named even when its words are the
            // document's ("What is docx4j?" in the docx4j guide), unless it is the
            // title itself; it outranks one whose words only match the quote's.
            let is_title = fh == super::phrase::fold(&s.title);
            // Of several quoted headings, the deepest is what is asked: "under 'One
            // Column'" in "the document headed '2010 Word Complex Document'" is a
            // place inside a place, and the outer one only says where to look.
            if !fh.trim().is_empty() && exact && (adds || !is_title) {
                return 1.0 + QUOTED_AS_WRITTEN + QUOTED_DEPTH * f64::from(level) + sc * 0.01;
            }
            if !fh.trim().is_empty() && (by_terms || by_number) && adds {
                return 1.0 + sc;
            }
            // A heading of several words all of which the question holds, in any order
            // and form ("the weaknesses of the current spine it verifies" for "4.
            // Weaknesses in the current spine, verified"), names its section as a quote
            // would: so many shared words are no chance. The question's other words
            // (its own adjectives, "concrete", "main") are not the heading's to hold.
            // It ranks below a heading named by quote or by number (no coverage added):
            // words describe, and a number names.
            if own.len() >= OWN_WORDS_NAMED
                && own.iter().all(|t| qt.contains(t.as_str()))
                && adds
                && !is_title
            {
                return 1.0;
            }
            // A heading of two or more words written out whole in the question, not
            // quoted ("what does it say about Kettle.reset()"), names its section
            // however many other words the question has: a question of several parts
            // ("what does it return, and when is it useful?") covers little of any
            // heading, yet says which one it is about.
            let written = fh.split_whitespace().count() >= 2 && folded_q.contains(&fh);
            if written && adds && !is_title && sc > 0.0 {
                return sc;
            }
            ht.extend(s.naming.iter().cloned());
            if adds && sc > 0.0 && q.coverage(&ht, &HashSet::new()) >= SECTION_MIN {
                sc
            } else {
                0.0
            }
        };
        let last = s.section.rsplit(" > ").next().unwrap_or("");
        let sc = named(last, s.section.split(" > ").count().min(6) as u8);
        if sc > 0.0 && best.is_none_or(|b| sc > b.0) {
            best = Some((sc, si, 0));
        }
        for (bi, b) in s.blocks.iter().enumerate() {
            if b.kind == BlockKind::Heading {
                let sc = named(&b.r.plain, b.level);
                if sc > 0.0 && best.is_none_or(|x| sc > x.0) {
                    best = Some((sc, si, bi + 1));
                }
            }
        }
    }
    let Some((score, si, start)) = best else {
        return Draft::default();
    };
    read_section(srcs, si, start, q, w, score)
}

/// The section that opens at block `start` of source `si` (0: the source's own
/// section, named by its path), read as a section answer scored `score`: its units in
/// order, across the document's next sources while it goes on; a section of prose
/// cut to its key sentences ([`KEY_SENTENCES`]) and what they introduce, a list
/// whole (up to [`MAX_ITEMS`]).
fn read_section(
    srcs: &[Src],
    si: usize,
    start: usize,
    q: &Query,
    w: &Weights,
    score: f64,
) -> Draft {
    // The section's units in order, its subsections' included: a heading at its own
    // level or above ends it, in whichever source it comes.
    let mut picked: Vec<(usize, usize)> = Vec::new();
    let mut items = 0usize;
    let first = &srcs[si];
    // Named by the source's path, the section's own heading may stand in the source
    // (after its parents' headings, in a chunk that opens a part): the section starts
    // after it, as if named by it.
    let own = first.section.rsplit(" > ").next().map(super::phrase::fold);
    let start = match start {
        0 => first
            .blocks
            .iter()
            .position(|b| {
                b.kind == BlockKind::Heading
                    && own
                        .as_ref()
                        .is_some_and(|o| super::phrase::fold(&b.r.plain) == *o)
            })
            .map_or(0, |b| b + 1),
        s => s,
    };
    if start > 0 {
        let lines = label_sections(srcs, si, start - 1);
        if !lines.is_empty() {
            return Draft {
                kind: "section",
                list: true,
                lines,
                score,
                at: None,
            };
        }
    }
    // Its level: its heading's, else (a chunk that continues it) its path's depth.
    let level = match start {
        0 => first.section.split(" > ").count().min(6) as u8,
        s => first.blocks[s - 1].level,
    };
    // A section named by a heading inside a source goes on into the next sources only
    // while their heading path holds that heading; one named by its source's path,
    // while their path starts with it.
    let inner = (start > 0)
        .then(|| first.blocks.get(start - 1))
        .flatten()
        .map(|b| super::phrase::fold(&b.r.plain));
    'srcs: for (k, s) in srcs.iter().enumerate().skip(si) {
        let same = match &inner {
            Some(h) => s.section.split(" > ").any(|p| super::phrase::fold(p) == *h),
            None => s.section.starts_with(&first.section),
        };
        if k > si && (s.title != first.title || !same) {
            break;
        }
        let from = if k == si { start } else { 0 };
        for (ui, u) in s.units.iter().enumerate() {
            // Header fields record who and when: what a section says is elsewhere.
            if u.block < from
                || !usable(s, u.block)
                || only_images(&u.plain)
                || filler(&u.plain)
                || fields(&u.plain)
            {
                continue;
            }
            let kind = s.blocks.get(u.block).map(|b| b.kind);
            if kind == Some(BlockKind::Heading) {
                // A heading of unknown level (0) ends it, as any heading did.
                let at = s.blocks[u.block].level;
                if at == 0 || level == 0 || at <= level {
                    break 'srcs;
                }
            }
            if picked.len() >= MAX_SECTION_UNITS {
                break 'srcs;
            }
            if kind == Some(BlockKind::Item) {
                items += 1;
            }
            picked.push((k, ui));
        }
    }
    let list = items * 2 >= picked.len() && !picked.is_empty();
    // A section of prose says what its key sentences say: those central to it (as the
    // extractive summarizer ranks them) and those that cover the question, in order.
    // A list is its items, in order.
    if !list && picked.len() > KEY_SENTENCES {
        let central = centrality(srcs, &picked, w);
        let mut ranked: Vec<(f64, usize)> = picked
            .iter()
            .enumerate()
            .map(|(i, &(k, ui))| {
                let u = &srcs[k].units[ui];
                let lead = if i == 0 { LEAD_BONUS } else { 0.0 };
                let short = u.plain.split_whitespace().count()
                    < super::super::summarize::extractive::MIN_WORDS;
                let sc = central[i] + q.coverage(&u.terms, &HashSet::new()) + lead;
                (if short { sc * 0.5 } else { sc }, i)
            })
            .collect();
        crate::order::sort_by(&mut ranked, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // The opening (its first sentence that is not a heading) states the topic: it
        // is always kept, with the best others. A label before it ("Main article:
        // Firefox Mobile", "See also: …") points elsewhere and states nothing.
        let body = |&(k, ui): &(usize, usize)| {
            let b = srcs[k].units[ui].block;
            srcs[k]
                .blocks
                .get(b)
                .is_some_and(|b| b.kind != BlockKind::Heading)
        };
        let opening = picked
            .iter()
            .position(|p| body(p) && states(&srcs[p.0].units[p.1].plain))
            .or_else(|| picked.iter().position(body))
            .unwrap_or(0);
        let mut keep: Vec<usize> = std::iter::once(opening)
            .chain(ranked.iter().map(|x| x.1).filter(|&i| i != opening))
            .take(KEY_SENTENCES)
            .collect();
        keep.extend(introduced(srcs, &picked, &keep));
        keep.sort_unstable();
        keep.dedup();
        picked = keep.into_iter().map(|i| picked[i]).collect();
    }
    let lines = picked
        .iter()
        .take(MAX_ITEMS)
        .map(|&(k, ui)| Line::new(srcs[k].units[ui].plain.clone(), srcs[k].number))
        .collect();
    Draft {
        kind: "section",
        list,
        lines,
        score,
        at: None,
    }
}

/// The sections under a label heading, each as its heading and the first sentence
/// under it ("Page Inspector: Examine the HTML ..."); empty when the heading at
/// block `heading` of source `si` is no label. A heading with nothing but pictures or
/// filler before the next heading of its level is a label over the sections that
/// follow at that level: flat pages write "Features and tools" and then one heading
/// of the same size per tool, and those sections are what it heads. They run, across
/// the document's next sources, to a heading above its level.
fn label_sections(srcs: &[Src], si: usize, heading: usize) -> Vec<Line> {
    let Some(first) = srcs.get(si) else {
        return Vec::new();
    };
    let Some(level) = first
        .blocks
        .get(heading)
        .filter(|b| b.kind == BlockKind::Heading && b.level > 0)
        .map(|b| b.level)
    else {
        return Vec::new();
    };
    let mut lines: Vec<Line> = Vec::new();
    // The heading of the section being read, until its first sentence is read.
    let mut open: Option<(&str, usize)> = None;
    let mut seen_sibling = false;
    'srcs: for (k, s) in srcs.iter().enumerate().skip(si) {
        // The next source goes on while it is the same document's body, at least as
        // deep as the label (a heading path of one part per level).
        if k > si
            && (s.title != first.title
                || !s.part.is_empty()
                || s.section.split(" > ").count() < usize::from(level))
        {
            break;
        }
        for u in &s.units {
            if k == si && u.block <= heading {
                continue;
            }
            if only_images(&u.plain) || filler(&u.plain) {
                continue;
            }
            let b = &s.blocks[u.block];
            if b.kind == BlockKind::Heading {
                if b.level == 0 || b.level < level {
                    break 'srcs;
                }
                if b.level == level {
                    if let Some((h, n)) = open.take() {
                        lines.push(Line::new(h.to_string(), n));
                    }
                    if lines.len() >= MAX_ITEMS {
                        break 'srcs;
                    }
                    seen_sibling = true;
                    open = Some((&u.plain, s.number));
                }
                continue;
            }
            // Text before the first sibling heading: the section has its own content.
            if !seen_sibling {
                return Vec::new();
            }
            if let Some((h, n)) = open.take() {
                lines.push(Line::new(format!("{h}: {}", u.plain), n));
            }
        }
    }
    if let Some((h, n)) = open {
        lines.push(Line::new(h.to_string(), n));
    }
    lines
}

/// The section the best sentence of a fact answer (`facts.at`) stands in, read as a
/// section answer with that sentence first, when its heading shares a word of the
/// question besides the document's name ("what does someone commit to as a Mozilla
/// Rep" quotes the "Mozilla Reps" section, whose list of duties follows the sentence
/// that matched). A question asking what something does, covers or requires is
/// answered by the passage written on it, and a heading that names the question's
/// topic marks where that passage begins and ends. None when the sentence stands
/// under no such heading, or the section is the sentence alone.
pub fn enclosing(srcs: &[Src], facts: &Draft, q: &Query, w: &Weights) -> Option<Draft> {
    let (si, ui) = facts.at?;
    let s = srcs.get(si)?;
    let block = s.units.get(ui)?.block;
    let start = s.blocks[..block.min(s.blocks.len())]
        .iter()
        .rposition(|b| b.kind == BlockKind::Heading)
        .map_or(0, |b| b + 1);
    let heading = heading_above(s, block)?;
    let named = super::words::term_set(heading)
        .iter()
        .any(|t| !s.naming.contains(t) && q.terms.iter().any(|(x, _)| x == t));
    if !named {
        return None;
    }
    let mut d = read_section(srcs, si, start, q, w, facts.score);
    let first = facts.lines.first()?;
    if !d
        .lines
        .iter()
        .any(|l| l.plain.contains(first.plain.as_str()))
    {
        // The sentence may stand in its line as part of its paragraph, quoted whole.
        d.lines.retain(|l| !first.plain.contains(l.plain.as_str()));
        d.lines.insert(0, first.clone());
    }
    (d.lines.len() > 1).then_some(d)
}

/// Words of its own (outline number and words most headings share left out) from
/// which a heading whose every word the question holds is named by it.
const OWN_WORDS_NAMED: usize = 3;

/// Most list items a kept sentence's paragraph brings into a section answer.
const INTRODUCED_ITEMS: usize = 12;

/// Indices into `picked` of what the kept sentences' paragraphs introduce: a
/// paragraph that ends with a colon ("These include:") is completed by the list right
/// after it, so a key sentence of that paragraph brings the paragraph's rest and the
/// list's items (up to [`INTRODUCED_ITEMS`]). Items are short, and ranked alone they
/// fall below the section's long sentences, though they are what the paragraph says.
fn introduced(srcs: &[Src], picked: &[(usize, usize)], keep: &[usize]) -> Vec<usize> {
    let unit = |i: usize| &srcs[picked[i].0].units[picked[i].1];
    let kind = |i: usize| srcs[picked[i].0].blocks.get(unit(i).block).map(|b| b.kind);
    let same_block =
        |a: usize, b: usize| picked[a].0 == picked[b].0 && unit(a).block == unit(b).block;
    let mut out = Vec::new();
    for &i in keep {
        if kind(i) == Some(BlockKind::Item) {
            continue;
        }
        let mut end = i;
        while end + 1 < picked.len() && same_block(end + 1, i) {
            end += 1;
        }
        let opens_list = unit(end).plain.trim_end().ends_with(':')
            && end + 1 < picked.len()
            && kind(end + 1) == Some(BlockKind::Item);
        if !opens_list {
            continue;
        }
        out.extend(i + 1..=end);
        out.extend(
            (end + 1..picked.len())
                .take_while(|&j| kind(j) == Some(BlockKind::Item))
                .take(INTRODUCED_ITEMS),
        );
    }
    out
}

/// Words from which a unit with no closing punctuation still reads as a statement.
const STATEMENT_WORDS: usize = 8;

/// Whether a unit reads as a statement: it closes like a sentence, or it is long
/// enough to say something ([`STATEMENT_WORDS`]). A short unclosed line is a label.
pub(super) fn states(plain: &str) -> bool {
    let t = plain.trim_end();
    !fields(t)
        && (t.ends_with(['.', '!', '?', '。', '！', '？', '।', '؟'])
            || t.split_whitespace().count() >= STATEMENT_WORDS)
}

/// Whether a unit is a block of header fields ("From: … Date: … Link: …", as a mail
/// or a memo opens): two or more capitalized one-word labels each followed by a
/// colon. It records who and when, and states nothing (RFC 5322 section 2.2 fields).
fn fields(plain: &str) -> bool {
    let words: Vec<&str> = plain.split_whitespace().collect();
    let labels = words
        .iter()
        .enumerate()
        .filter(|&(i, w)| {
            let Some(name) = w.strip_suffix(':') else {
                return false;
            };
            // A label opens the unit or follows the previous field's value.
            (i == 0 || !words[i - 1].ends_with(':'))
                && (2..=20).contains(&name.chars().count())
                && name.chars().next().is_some_and(char::is_uppercase)
                && name.chars().all(|c| c.is_alphabetic() || c == '-')
        })
        .count();
    labels >= 2 && words.first().is_some_and(|w| w.ends_with(':'))
}

/// Headings among the sources before a word they share counts as common to them.
const COMMON_HEADINGS_MIN: usize = 4;

/// What a heading quoted exactly as written adds over one whose words match a quote.
const QUOTED_AS_WRITTEN: f64 = 0.5;

/// What each level of depth adds to a heading quoted as written (levels 1-6).
const QUOTED_DEPTH: f64 = 0.1;

/// Sentences a section answer quotes from a section of prose: what a section says is
/// spread over its paragraphs (one point each, as a rule), and eight sentences cover a
/// section of several paragraphs where five left its later points out, at a length
/// (some 150 to 250 words) still read as one answer.
const KEY_SENTENCES: usize = 8;

/// Units of a section read for its key sentences.
const MAX_SECTION_UNITS: usize = 400;

/// What being a section's first sentence adds to its rank (openings state the topic).
const LEAD_BONUS: f64 = 0.2;

/// Share of the question a named heading and its document's name must cover.
pub const SECTION_MIN: f64 = 0.3;

/// Share of a heading's term weight the question must hold to name it.
pub const HEADING_SHARE: f64 = 0.7;

/// A few sentences from each of the most relevant documents: per document, the
/// sentences that best mix covering the question with being central to the
/// document (as the extractive summarizer picks them: cosine similarity to the
/// document's centroid of term weights), with a small lead for its opening;
/// more sentences when fewer documents are shown. Each line starts with the title.
///
/// With `every`, each document among the sources (the question asks which
/// documents: the context already holds those it chose); else those at least half as
/// relevant as the best.
pub fn documents(
    srcs: &[Src],
    q: &Query,
    w: &Weights,
    docs: &HashMap<String, f64>,
    every: bool,
) -> Draft {
    let mut order: Vec<(&String, f64)> = docs.iter().map(|(t, s)| (t, *s)).collect();
    crate::order::sort_by(&mut order, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let best = order.first().map_or(0.0, |x| x.1);
    if !every {
        order.retain(|x| x.1 >= best * 0.5);
    }
    order.truncate(MAX_DOCUMENTS);
    let per_document = match order.len() {
        1 => 4,
        2 => 3,
        _ => PER_DOCUMENT,
    };
    let mut lines = Vec::new();
    for (title, _) in &order {
        let mut units: Vec<(usize, usize)> = Vec::new();
        for (si, s) in srcs.iter().enumerate() {
            if &&s.title != title || !s.part.is_empty() {
                continue;
            }
            for (ui, u) in s.units.iter().enumerate() {
                if usable(s, u.block) && u.plain.chars().count() > 20 && !filler(&u.plain) {
                    units.push((si, ui));
                }
            }
        }
        let central = centrality(srcs, &units, w);
        let mut scored: Vec<(f64, usize, usize)> = units
            .iter()
            .zip(&central)
            .enumerate()
            .map(|(k, (&(si, ui), c))| {
                let cover = q.coverage(&srcs[si].units[ui].terms, &HashSet::new());
                let lead = if k < 3 { OPENING_LEAD } else { 0.0 };
                (cover * 0.6 + c * 0.4 + lead, si, ui)
            })
            .collect();
        crate::order::sort_by(&mut scored, |a, b| {
            b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2)))
        });
        let mut take: Vec<(usize, usize)> = scored
            .iter()
            .take(per_document)
            .map(|x| (x.1, x.2))
            .collect();
        crate::order::sort(&mut take);
        // One line per source, so each sentence cites its own.
        let mut first = true;
        for group in take.chunk_by(|a, b| a.0 == b.0) {
            let si = group[0].0;
            let text: Vec<&str> = group
                .iter()
                .map(|&(si, ui)| srcs[si].units[ui].plain.as_str())
                .collect();
            let lead = if first {
                format!("{title}: ")
            } else {
                "… ".to_string()
            };
            first = false;
            lines.push(Line::new(
                format!("{lead}{}", text.join(" ")),
                srcs[si].number,
            ));
        }
    }
    Draft {
        kind: "documents",
        list: lines.len() > 1,
        lines,
        score: best,
        at: None,
    }
}

/// A document's opening sentences gain this much in a broad answer.
const OPENING_LEAD: f64 = 0.1;

/// For each unit of `units` (one document's), its cosine similarity to the
/// document's centroid of term weights, divided by the best (1.0 for the most central).
fn centrality(srcs: &[Src], units: &[(usize, usize)], w: &Weights) -> Vec<f64> {
    let mut centroid: HashMap<&str, f64> = HashMap::new();
    for &(si, ui) in units {
        for t in &srcs[si].units[ui].terms {
            *centroid.entry(t.as_str()).or_insert(0.0) += w.weight(t);
        }
    }
    let norm = centroid
        .values()
        .map(|v| v * v)
        .sum::<f64>()
        .sqrt()
        .max(f64::MIN_POSITIVE);
    let raw: Vec<f64> = units
        .iter()
        .map(|&(si, ui)| {
            let terms = &srcs[si].units[ui].terms;
            let len = terms
                .iter()
                .map(|t| w.weight(t).powi(2))
                .sum::<f64>()
                .sqrt();
            if len <= 0.0 {
                return 0.0;
            }
            let dot: f64 = terms
                .iter()
                .map(|t| w.weight(t) * centroid.get(t.as_str()).copied().unwrap_or(0.0))
                .sum();
            dot / (len * norm)
        })
        .collect();
    let top = raw.iter().copied().fold(0.0, f64::max);
    raw.iter()
        .map(|r| if top > 0.0 { r / top } else { 0.0 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::words::{Weights, term_set};
    use super::*;

    #[test]
    fn a_long_sentence_is_cut_to_the_clauses_that_answer() {
        let s = "The committee met on Tuesday, after the long winter recess that had kept \
                 most members away from the capital for several weeks, and it approved the \
                 harbour budget of 12 million euros, which the mayor had proposed in March, \
                 while the opposition, as expected, voted against every single line of it.";
        let w = Weights::new([&term_set(s)]);
        let q = Query::new("How large is the harbour budget?", &[], &w);
        assert_eq!(
            trim(&q, s, None),
            "… and it approved the harbour budget of 12 million euros, which the mayor had proposed in March …"
        );
        assert_eq!(
            trim(&q, "A short one, with a harbour budget.", None),
            "A short one, with a harbour budget."
        );
    }

    #[test]
    fn a_long_list_is_cut_where_the_asked_name_is() {
        let names: Vec<String> = (0..30).map(|i| format!("Person{i} Surname{i}")).collect();
        let s = format!(
            "We thank everybody who helped, including {}, Ada Lovelace, Grace Hopper, and {}.",
            names[..20].join(", "),
            names[20..].join(", ")
        );
        let w = Weights::new([&term_set(&s)]);
        let q = Query::new("Is Ada Lovelace thanked, and who follows her?", &[], &w);
        let cut = trim(&q, &s, None);
        assert!(cut.contains("Ada Lovelace, Grace Hopper"), "{cut}");
        assert!(cut.split_whitespace().count() <= TRIM_WORDS + 2, "{cut}");
    }

    #[test]
    fn a_heading_is_named_without_its_outline_number() {
        assert_eq!(unnumbered("6. Versioning"), "Versioning");
        assert_eq!(unnumbered("2.1 Scope"), "Scope");
        assert_eq!(unnumbered("3.0 Critical EVENTS"), "Critical EVENTS");
        assert_eq!(unnumbered("IV. Results"), "Results");
        assert_eq!(unnumbered("2019 Harbour Guide"), "2019 Harbour Guide");
        assert_eq!(unnumbered("Versioning"), "Versioning");
        assert_eq!(unnumbered("7"), "7");
        assert_eq!(unnumbered("I am here"), "I am here");
    }

    #[test]
    fn placeholder_text_said_over_and_over_is_filler() {
        assert!(filler(&"I am some text ".repeat(10)));
        assert!(!filler(
            "The ferry leaves at noon and the bus leaves at one, so the ferry is first."
        ));
        assert!(!filler("text text text"));
    }

    #[test]
    fn a_picture_placeholder_is_no_sentence() {
        assert!(only_images("[image: Picture 1]"));
        assert!(only_images("[image] [image: logo]"));
        assert!(!only_images("[image: Picture 1] The ferry leaves at noon."));
        assert!(!only_images("An [image] of it"));
    }

    #[test]
    fn header_fields_state_nothing() {
        assert!(!states(
            "From: John Smith Date: May 28, 2015, 7:37:29 AM Link: https://example.org/x"
        ));
        assert!(!states("To: the board Subject: Quarterly figures"));
        // A sentence with a colon in it still states.
        assert!(states(
            "Note: the bridge opened in 1931 after four years of work."
        ));
        assert!(states(
            "The meeting covered two points: budget and staffing."
        ));
    }
}
