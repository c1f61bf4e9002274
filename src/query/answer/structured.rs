//! Answers from a document's structure: tracked changes (ECMA-376 17.13.5 `w:ins`,
//! `w:del`, `w:moveFrom`, `w:moveTo`), comments (17.13.4 `w:comment`, replies through
//! `w15:commentEx/@w15:paraIdParent`), footnotes and endnotes (17.11), page headers and
//! footers (17.10). Each reads the facts the chunk markup carries (author, date,
//! anchor, part) and writes them as words.

use std::collections::{HashMap, HashSet};

use super::draft::{Draft, Line};
use super::focus;
use super::source::{BlockKind, Src};
use super::words::{self, Query};

/// Words that name the kind of change asked for, by stem: "inserted", "deleted",
/// "moved".
const CHANGE_KINDS: &[(&str, &[&str])] = &[
    (
        "inserted",
        &["insert", "insertion", "add", "added", "addition"],
    ),
    ("deleted", &["delet", "deletion", "remov", "removal"]),
    ("moved", &["mov", "movement"]),
];

/// The most lines one structured answer writes.
const MAX_LINES: usize = 12;

/// Longest quoted context (a paragraph around a change, a sentence referencing a
/// note), in characters.
const CONTEXT_CHARS: usize = 240;

/// Longest quoted answer text (a note, a comment, a change), in characters.
pub const ANSWER_CHARS: usize = 600;

/// `s` cut to [`CONTEXT_CHARS`] at a word boundary, with an ellipsis.
pub fn clip(s: &str) -> String {
    clip_to(s, CONTEXT_CHARS)
}

/// `s` cut to `max` characters at a word boundary, with an ellipsis.
pub fn clip_to(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |x| x.0);
    format!("{cut} …")
}

/// `text` cut as [`clip`] cuts it, with the passages past the cut that hold a
/// question term the kept start does not (" … Version: 8.28.2011"), as many as fit in
/// [`CONTEXT_CHARS`] more. A page's header or footer can be a long notice whose last
/// words (a version, a date, a form number) are what the question asks for; quoted
/// from its start, they fall past the cut. Passages are the text's sentences and the
/// runs set apart by wide spaces, as a footer's fields are.
fn clip_keeping(text: &str, q: &Query) -> String {
    let head = clip(text);
    if head.chars().count() >= text.chars().count() {
        return head;
    }
    let asked: HashSet<&str> = q.terms.iter().map(|t| t.0.as_str()).collect();
    let mut have: HashSet<String> = words::term_set(&head);
    let mut out = head;
    let mut added = 0usize;
    let kept = out.trim_end_matches(" …").chars().count();
    let mut at = 0usize;
    let total = text.chars().count();
    for piece in passages(text) {
        let start = at;
        at += piece.chars().count();
        if start < kept {
            continue;
        }
        let terms = words::term_set(piece);
        let new = terms
            .iter()
            .any(|t| asked.contains(t.as_str()) && !have.contains(t));
        let len = piece.trim().chars().count();
        if !new || added + len > CONTEXT_CHARS {
            continue;
        }
        have.extend(terms);
        added += len;
        out.push(' ');
        out.push_str(piece.trim());
        if at < total {
            out.push_str(" …");
        }
    }
    out
}

/// `text` in passages, each with the separator that ends it: sentences (to ". ",
/// "! ", "? ") and runs set apart by three or more spaces.
fn passages(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while i < bytes.len() {
        let sentence_end =
            matches!(bytes[i], b'.' | b'!' | b'?') && bytes.get(i + 1) == Some(&b' ');
        let wide = bytes[i] == b' ' && bytes[i..].iter().take_while(|&&b| b == b' ').count() >= 3;
        if sentence_end || wide {
            let mut end = i + 1;
            while end < bytes.len() && bytes[end] == b' ' {
                end += 1;
            }
            out.push(&text[start..end]);
            start = end;
            i = end;
            continue;
        }
        i += 1;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Keeps the best-scored candidates: those within `share` of the best, at most
/// [`MAX_LINES`], in source order.
fn keep<T>(mut c: Vec<(f64, (usize, usize), T)>, share: f64) -> (f64, Vec<T>) {
    let best = c.iter().map(|x| x.0).fold(0.0, f64::max);
    c.retain(|x| x.0 >= best * share);
    crate::order::sort_by(&mut c, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    c.truncate(MAX_LINES);
    crate::order::sort_by_key(&mut c, |x| x.1);
    (best, c.into_iter().map(|x| x.2).collect())
}

/// The draft of `kind` from candidates `c`: those [`keep`] keeps, a list when more
/// than one.
fn drafted(kind: &'static str, c: Vec<(f64, (usize, usize), Line)>, share: f64) -> Draft {
    let (score, lines) = keep(c, share);
    Draft {
        kind,
        list: lines.len() > 1,
        lines,
        score,
        at: None,
    }
}

/// The score of a candidate whose own words are `own`, in block `bi` of `s` (the
/// block and the source's context count half), when its document (relevance `rel`)
/// or its own match admits it ([`focus::admits`]).
///
/// A numbered place the question names and the text writes out (`places`, from
/// [`focus::numbered_places`]: "the comment on Paragraph 7") must be where the
/// candidate is, in its block or its own words: numbers identify, and a candidate
/// elsewhere answers about another place, however well its words match.
fn admitted(
    q: &Query,
    s: &Src,
    bi: usize,
    rel: f64,
    own: &[&str],
    places: &[String],
) -> Option<f64> {
    if !at_places(places, s, bi, own, false) {
        return None;
    }
    let main: HashSet<String> = own.iter().flat_map(|t| words::terms(t)).collect();
    let mut ctx = s.context.clone();
    if let Some(b) = s.blocks.get(bi) {
        ctx.extend(words::term_set(&b.r.plain));
    }
    let score = q.coverage(&main, &ctx);
    focus::admits(rel, score).then_some(score)
}

/// The quoted phrases of `question` that the sources' body text writes (folded),
/// other than a document's name or a heading: in a question about comments, text quoted from
/// the document says which words the comment is on ("the comment on the 'tset'
/// cell"), as a numbered place does ([`admitted`], [`at_places`]).
fn marked_places(srcs: &[Src], question: &str) -> Vec<String> {
    super::phrase::quoted(question)
        .into_iter()
        .filter(|q| {
            // A quoted title or heading says where to look, not which words.
            let heading = |s: &Src| {
                super::phrase::fold(&s.title) == *q
                    || s.section.split(" > ").any(|h| super::phrase::fold(h) == *q)
                    || s.blocks.iter().any(|b| {
                        b.kind == BlockKind::Heading && super::phrase::fold(&b.r.plain) == *q
                    })
            };
            !srcs.iter().any(heading)
                && srcs.iter().any(|s| {
                    s.blocks
                        .iter()
                        .any(|b| super::phrase::fold(&b.r.plain).contains(q.as_str()))
                })
        })
        .collect()
}

/// Whether a candidate at block `bi` of `s` is at every one of `places` (folded):
/// its own words hold it, or its block does. With `cells_apart`, a table is many
/// places and only the candidate's own words count there (the comment on one cell
/// is not on the next).
fn at_places(places: &[String], s: &Src, bi: usize, own: &[&str], cells_apart: bool) -> bool {
    if places.is_empty() {
        return true;
    }
    let mut here = own.join(" ");
    if let Some(b) = s
        .blocks
        .get(bi)
        .filter(|b| !cells_apart || b.kind != BlockKind::Table)
    {
        here.push(' ');
        here.push_str(&b.r.plain);
    }
    let here = super::phrase::fold(&here);
    places.iter().all(|p| here.contains(p.as_str()))
}

/// The change kinds the question asks for (all when it names none).
fn asked_kinds(question: &HashSet<String>) -> Vec<&'static str> {
    let asked: Vec<&'static str> = CHANGE_KINDS
        .iter()
        .filter(|(_, stems)| stems.iter().any(|s| question.contains(*s)))
        .map(|x| x.0)
        .collect();
    asked
}

/// What every structured answer reads: the sources, the question's words (stems,
/// kind words included), the documents' relevance, whether every match is wanted,
/// and whether only page headers and footers count.
pub struct Reading<'a> {
    /// The parsed sources.
    pub srcs: &'a [Src],
    /// Every stem of the question.
    pub qterms: &'a HashSet<String>,
    /// Relevance by document title ([`focus::documents`]).
    pub docs: &'a HashMap<String, f64>,
    /// Keep every match, not only those near the best.
    pub wants_all: bool,
    /// Only candidates in page headers and footers.
    pub in_parts: bool,
    /// The numbered places the question names that the text writes out
    /// ([`focus::numbered_places`]), folded.
    pub places: &'a [String],
    /// The question as asked.
    pub question: &'a str,
}

/// Words that name a note by the label after them ("footnote 3", "the note marked
/// b") or before them ("the dredge note").
const NOTE_WORDS: &[&str] = &["note", "footnote", "endnote"];

/// Words that introduce a note's label ("the note labelled quay").
const LABEL_INTRO: &[&str] = &["labelled", "labeled", "marked", "called", "number"];

/// Whether the question names a note by its label (`label`, as its mark shows it):
/// right after a word for a note or a word that introduces a label, right before
/// a word for a note, or quoted. A label is how the text itself refers to its note
/// (the mark in the text, "[^quay]", "³"), so a question that gives it points at
/// one note, whatever its words share with the others.
fn names_label(question: &str, label: &str) -> bool {
    let l = super::phrase::fold(label);
    let l = l.trim();
    if l.is_empty() {
        return false;
    }
    let q = super::phrase::fold(question);
    let after = NOTE_WORDS
        .iter()
        .chain(LABEL_INTRO)
        .any(|w| q.contains(&format!(" {w} {l} ")));
    let before = NOTE_WORDS.iter().any(|w| q.contains(&format!(" {l} {w} ")));
    // Endnotes are marked "e1", "e2" beside footnotes' "1", "2" (chunk/render.rs);
    // a question says "endnote 1".
    let endnote = l
        .strip_prefix('e')
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .is_some_and(|n| q.contains(&format!(" endnote {n} ")));
    if endnote {
        return true;
    }
    after
        || before
        || super::phrase::quoted(question)
            .iter()
            .any(|x| x.trim() == l)
}

/// Tracked changes matching the question: by the author and of the kind the question
/// names, if any, scored by the changed text and its paragraph; only in page
/// headers and footers when `in_parts`.
pub fn changes(r: &Reading<'_>, q: &Query) -> Draft {
    let Reading {
        srcs,
        qterms,
        docs,
        wants_all,
        in_parts,
        places,
        ..
    } = *r;
    let authors = focus::named_authors(srcs, qterms);
    let kinds = asked_kinds(qterms);
    let mut c = Vec::new();
    for (si, s) in srcs.iter().enumerate() {
        if in_parts && !s.is_header_footer() {
            continue;
        }
        let rel = super::focus::relevance(docs, s);
        for (k, (bi, ch)) in s.changes().enumerate() {
            // A change with no text (a paragraph mark) says nothing on its own.
            if ch.text.is_empty()
                || !focus::by(&authors, &ch.author)
                || !(kinds.is_empty() || kinds.iter().any(|x| ch.kind.starts_with(x)))
            {
                continue;
            }
            let Some(score) = admitted(q, s, bi, rel, &[&ch.text, &ch.author, ch.kind], places)
            else {
                continue;
            };
            let who = if ch.author.is_empty() {
                "An unrecorded author".to_string()
            } else {
                ch.author.clone()
            };
            let when = if ch.date.is_empty() {
                String::new()
            } else {
                format!(" on {}", ch.date)
            };
            let mut plain = format!(
                "{who} {}{when}: \"{}\"",
                ch.kind,
                clip_to(&ch.text, ANSWER_CHARS)
            );
            // The paragraph around the change, unless the change is all of it.
            let alone = format!(
                "[{}{}: {}]",
                ch.kind,
                if ch.author.is_empty() {
                    String::new()
                } else {
                    format!(" by {}", ch.author)
                },
                ch.text
            );
            if let Some(b) = s.blocks.get(bi) {
                if b.r.plain.trim() != alone {
                    if b.r.plain.len() > ch.text.len() + 12 {
                        let around = b.r.plain.replace('\n', " / ");
                        plain.push_str(&format!(", in \"{}\"", clip(&around)));
                    }
                } else {
                    // A whole paragraph changed: where it stands is its neighbours.
                    let text = |k: Option<usize>| {
                        k.and_then(|k| s.blocks.get(k))
                            .map(|n| n.r.plain.trim().to_string())
                            .filter(|t| !t.is_empty() && !t.starts_with('['))
                    };
                    match (text(bi.checked_sub(1)), text(Some(bi + 1))) {
                        (Some(a), Some(z)) => plain.push_str(&format!(
                            ", between \"{}\" and \"{}\"",
                            clip(&a),
                            clip(&z)
                        )),
                        (Some(a), None) => plain.push_str(&format!(", after \"{}\"", clip(&a))),
                        (None, Some(z)) => plain.push_str(&format!(", before \"{}\"", clip(&z))),
                        (None, None) => {}
                    }
                }
            }
            if !s.part.is_empty() {
                plain.push_str(&format!(" ({})", s.part));
            }
            c.push((score, (si, k), Line::new(plain, s.number)));
        }
    }
    drafted("changes", c, if wants_all { 0.0 } else { 0.8 })
}

/// Comments matching the question: by the author the question names, if any, scored by
/// the comment text, its anchor and author; only in page headers and footers when
/// `in_parts`.
pub fn comments(r: &Reading<'_>, q: &Query) -> Draft {
    let Reading {
        srcs,
        qterms,
        docs,
        wants_all,
        in_parts,
        places,
        ..
    } = *r;
    let authors = focus::named_authors(srcs, qterms);
    let marked = marked_places(srcs, r.question);
    let mut c = Vec::new();
    let mut seen = HashSet::new();
    for (si, s) in srcs.iter().enumerate() {
        if in_parts && !s.is_header_footer() {
            continue;
        }
        let rel = super::focus::relevance(docs, s);
        for (k, (bi, n)) in s.comments().enumerate() {
            if !focus::by(&authors, &n.author)
                || !seen.insert((s.title.clone(), n.id.clone(), n.text.clone()))
            {
                continue;
            }
            let anchor = s.anchor(&n.id);
            if !at_places(&marked, s, bi, &[&n.text, &anchor], true) {
                continue;
            }
            let Some(score) = admitted(q, s, bi, rel, &[&n.text, &n.author, &anchor], places)
            else {
                continue;
            };
            let what = if n.reply_to.is_empty() {
                format!("Comment {}", n.id)
            } else {
                format!("Reply {} to comment {}", n.id, n.reply_to)
            };
            let who = if n.author.is_empty() {
                " (no author recorded)".to_string()
            } else {
                format!(" by {}", n.author)
            };
            let on = if anchor.is_empty() || !n.reply_to.is_empty() {
                String::new()
            } else {
                format!(" on \"{}\"", clip(&anchor))
            };
            let said = if n.text.is_empty() {
                "(no text)".to_string()
            } else {
                format!("\"{}\"", clip_to(&n.text, ANSWER_CHARS))
            };
            let plain = format!("{what}{who}{on}: {said}");
            c.push((score, (si, k), Line::new(plain, s.number)));
        }
    }
    drafted("comments", c, if wants_all { 0.0 } else { 0.8 })
}

/// Footnotes and endnotes matching the question (only the kind it names, when it
/// names one), each with the sentence that
/// references it when that sentence is among the sources.
pub fn notes(r: &Reading<'_>, q: &Query) -> Draft {
    let Reading {
        srcs,
        qterms,
        docs,
        question,
        ..
    } = *r;
    // "the endnote" reads endnotes only, "the footnote" footnotes only.
    let endnote = qterms.contains("endnot") || qterms.contains("endnote");
    let footnote = qterms.contains("footnot") || qterms.contains("footnote");
    let mut c = Vec::new();
    for (si, s) in srcs.iter().enumerate() {
        let rel = super::focus::relevance(docs, s);
        let is_end = s.part.starts_with("endnotes");
        if (endnote && !footnote && !is_end) || (footnote && !endnote && is_end) {
            continue;
        }
        let kind = if is_end { "Endnote" } else { "Footnote" };
        for (bi, b) in s.blocks.iter().enumerate() {
            if b.kind != BlockKind::NoteDef {
                continue;
            }
            let mark = format!("{}{})", super::markup::NOTE_MARK, b.label);
            let anchor = srcs
                .iter()
                .filter(|o| o.title == s.title && o.part.is_empty())
                .flat_map(|o| o.units.iter())
                .find(|u| u.plain.contains(&mark))
                .map(|u| u.plain.clone());
            let main = words::term_set(&b.r.plain);
            let mut ctx = s.context.clone();
            if let Some(a) = &anchor {
                ctx.extend(words::term_set(a));
            }
            let score = q.coverage(&main, &ctx);
            if !focus::admits(rel, score) {
                continue;
            }
            let mut plain = format!(
                "{kind} {}: \"{}\"",
                b.label,
                clip_to(&b.r.plain, ANSWER_CHARS)
            );
            if let Some(a) = anchor {
                plain.push_str(&format!(", referenced in \"{}\"", clip(&a)));
            }
            c.push((score, (si, bi), Line::new(plain, s.number)));
        }
    }
    // Notes named by their label are the ones asked for.
    let named: Vec<bool> = c
        .iter()
        .map(|(_, (si, bi), _)| {
            srcs.get(*si)
                .and_then(|s| s.blocks.get(*bi))
                .is_some_and(|b| names_label(question, &b.label))
        })
        .collect();
    if named.iter().any(|&n| n) {
        let mut keep = named.into_iter();
        c.retain(|_| keep.next().unwrap_or(false));
    }
    drafted("notes", c, 0.6)
}

/// Page headers and footers of the most relevant document (the kind the question
/// names: "footer" alone reads footers, "header" or "watermark" headers).
pub fn parts(srcs: &[Src], q: &Query, question: &str, docs: &HashMap<String, f64>) -> Draft {
    let (header, footer) = super::asks::page_parts(question);
    let mut c = Vec::new();
    let mut seen = HashSet::new();
    for (si, s) in srcs.iter().enumerate() {
        if !s.is_header_footer()
            || (footer && !header && !s.part.starts_with("footer"))
            || (header && !footer && !s.part.starts_with("header"))
        {
            continue;
        }
        let text = s
            .blocks
            .iter()
            .map(|b| b.r.plain.as_str())
            .filter(|t| !t.is_empty() && !t.starts_with("[image"))
            .collect::<Vec<_>>()
            .join(" / ");
        if text.is_empty() || !seen.insert((s.title.clone(), text.clone())) {
            continue;
        }
        let rel = super::focus::relevance(docs, s);
        let score = q.coverage(&words::term_set(&text), &s.context);
        if !focus::admits(rel, score) {
            continue;
        }
        let mut name = s.part.clone();
        if let Some(f) = name.get_mut(..1) {
            f.make_ascii_uppercase();
        }
        let plain = format!("{name} of {}: \"{}\"", s.title, clip_keeping(&text, q));
        c.push((score, (si, 0), Line::new(plain, s.number)));
    }
    if !(header && footer) {
        return drafted("header-footer", c, 0.9);
    }
    // A question that names the header and the footer asks for each: the footer's
    // few words ("Page 1 of 2") match less of the question than the header's, yet
    // are half of what is asked. Each part is kept against its own best.
    let (heads, feet): (Vec<_>, Vec<_>) = c
        .into_iter()
        .partition(|x| srcs[x.1.0].part.starts_with("header"));
    let (hs, mut lines) = keep(heads, 0.9);
    let (fs, more) = keep(feet, 0.9);
    lines.extend(more);
    lines.sort_by_key(|l| l.number);
    Draft {
        kind: "header-footer",
        list: lines.len() > 1,
        lines,
        score: hs.max(fs),
        at: None,
    }
}

/// Per document, the authors of tracked changes with a count per kind: the answer to
/// "which documents have changes, by whom".
pub fn change_summary(srcs: &[Src]) -> Draft {
    // (title, author) -> counts per kind, first source number.
    type Tally = ((String, String), Vec<(&'static str, usize)>, usize);
    let mut by: Vec<Tally> = Vec::new();
    for s in srcs {
        for (_, ch) in s.changes() {
            let key = (s.title.clone(), ch.author.clone());
            let i = match by.iter().position(|x| x.0 == key) {
                Some(i) => i,
                None => {
                    by.push((key, Vec::new(), s.number));
                    by.len() - 1
                }
            };
            let counts = &mut by[i].1;
            match counts.iter_mut().find(|c| c.0 == ch.kind) {
                Some(c) => c.1 += 1,
                None => counts.push((ch.kind, 1)),
            }
        }
    }
    let lines: Vec<Line> = by
        .into_iter()
        .map(|((title, author), counts, n)| {
            let who = if author.is_empty() {
                "an unrecorded author".to_string()
            } else {
                author
            };
            let what = counts
                .iter()
                .map(|(k, c)| format!("{k} {c}"))
                .collect::<Vec<_>>()
                .join(", ");
            Line::new(format!("{title}: changes by {who} ({what})"), n)
        })
        .collect();
    Draft {
        kind: "changes",
        list: true,
        score: if lines.is_empty() { 0.0 } else { 1.0 },
        lines,
        at: None,
    }
}
