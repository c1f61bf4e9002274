//! Answers from tables and lists: one cell (the row whose cells match the question,
//! the columns whose labels do), or every row of the table or item of the list the
//! question asks for.

use std::collections::{HashMap, HashSet};

use super::draft::{Draft, Line};
use super::focus::{self, relevance};
use super::phrase::{Nth, fold};
use super::source::{BlockKind, Src};
use super::table::Table;
use super::words::{self, Query};

/// Most rows one answer lists.
const MAX_ROWS: usize = 60;

/// A table among the sources with its context terms.
pub(super) struct Found<'a> {
    /// Index of its source.
    pub src: usize,
    /// Index of its block in the source.
    pub block: usize,
    /// The words that name its document (title and file name, [`Src::naming`]).
    pub naming: &'a HashSet<String>,
    /// The table, with the labels of the table it continues.
    pub table: std::borrow::Cow<'a, Table>,
    /// Terms of the caption and the column labels.
    pub labels: HashSet<String>,
    /// Terms of the source's context and the text right before the table.
    pub context: HashSet<String>,
    /// Nothing but elisions follow it in its source: it may go on in the next chunk.
    closes: bool,
    /// Nothing but elisions precede it in its source: it may go on from the last chunk.
    opens: bool,
    /// The paragraph or heading right above it, plain.
    pub above: Option<String>,
    /// The nearest heading above it in its source, plain: the section it sits in,
    /// which a chunk's information line does not say when the chunk spans several.
    pub heading: Option<String>,
}

/// Whether a block is only an elision mark ("…") or empty.
fn is_gap(text: &str) -> bool {
    text.trim().chars().all(|c| c == '…' || c.is_whitespace())
}

/// Every table of the sources in source order.
pub(super) fn tables(srcs: &[Src]) -> Vec<Found<'_>> {
    let mut out: Vec<Found<'_>> = Vec::new();
    for (si, s) in srcs.iter().enumerate() {
        for (bi, b) in s.blocks.iter().enumerate() {
            let Some(t) = &b.table else {
                continue;
            };
            // A table of placeholder text and pictures only (a layout test's "I am
            // some text" cells) holds no cell to answer with: filler answers nothing
            // ([`super::facts::filler`]).
            // A table of header rows only is kept: a chunk boundary cut its body off,
            // and the continuation in the next source takes its labels from it.
            let says_something = |c: &String| {
                !c.trim().is_empty() && !super::facts::filler(c) && !super::facts::only_images(c)
            };
            let says = if t.rows.is_empty() {
                t.labels.iter().any(says_something)
            } else {
                t.rows.iter().flatten().any(says_something)
            };
            if !says {
                continue;
            }
            // A table cut across chunks continues without its header rows: rows of
            // the same width right after a labelled table of the same document
            // take its labels and caption.
            // A cut table ends one chunk and begins the next, so only a table that
            // opens its source continues one, and only one that closes its source.
            let mut t = std::borrow::Cow::Borrowed(t);
            let width = t.rows.first().map_or(0, Vec::len);
            let opens = s.blocks[..bi].iter().all(|b| is_gap(&b.r.plain));
            if t.labels.iter().all(String::is_empty)
                && opens
                && let Some(prev) = out.last()
                && prev.closes
                && srcs.get(prev.src).is_some_and(|p| p.title == s.title)
                && prev
                    .table
                    .labels
                    .len()
                    .max(prev.table.rows.first().map_or(0, Vec::len))
                    == width
                && width > 0
            {
                let mut owned = t.into_owned();
                owned.labels = prev.table.labels.clone();
                owned.caption = prev.table.caption.clone();
                t = std::borrow::Cow::Owned(owned);
            }
            let mut context = s.context.clone();
            let mut labels = HashSet::new();
            for c in t.caption.iter().chain(t.labels.iter()) {
                labels.extend(words::term_set(c));
            }
            // The paragraph or heading just above names the table. A table that opens
            // its source was cut from the lines above it by a chunk boundary: they
            // close the document's previous source (sources of a document are in
            // document order), and name it as well.
            let mut above = None;
            let before = if opens {
                si.checked_sub(1)
                    .and_then(|p| srcs.get(p))
                    .filter(|p| p.title == s.title && p.part == s.part)
                    .and_then(|p| p.blocks.iter().rev().find(|b| !is_gap(&b.r.plain)))
            } else {
                bi.checked_sub(1).and_then(|i| s.blocks.get(i))
            };
            if let Some(prev) = before
                && prev.kind != BlockKind::Table
            {
                context.extend(words::term_set(&prev.r.plain));
                above = Some(prev.r.plain.clone());
            }
            let heading = s.blocks[..bi]
                .iter()
                .rev()
                .find(|b| b.kind == BlockKind::Heading)
                .map(|b| b.r.plain.clone());
            if let Some(h) = &heading {
                context.extend(words::term_set(h));
            }
            let closes = s.blocks[bi + 1..].iter().all(|b| is_gap(&b.r.plain));
            out.push(Found {
                src: si,
                block: bi,
                naming: &s.naming,
                table: t,
                labels,
                context,
                closes,
                opens,
                above,
                heading,
            });
        }
    }
    out
}

/// Row `ri` of `t` with the labels of columns `cols` ([`Table::labelled`]) and the
/// table's caption, cited to source `number`: how a cell answer is written.
pub(super) fn row_line(t: &Table, ri: usize, cols: &[usize], number: usize) -> Line {
    let mut text = t.labelled(ri, cols);
    if let Some(c) = t.caption.first() {
        text = format!("{text} ({c})");
    }
    Line::new(text, number)
}

/// The best row of any table: its cells must match a question term, and the
/// columns whose labels match terms the row does not hold are the answer; with no
/// such column the whole row is.
///
/// A row away from what the question asks for
/// ([`super::facts::AskedHeadings::away`]) ranks at
/// [`super::facts::UNASKED_FACTOR`] of its coverage, as a sentence does.
pub fn cell(srcs: &[Src], q: &Query, heads: &super::facts::AskedHeadings<'_>) -> Draft {
    let mut rows: Vec<(f64, f64, usize, usize, Vec<usize>)> = Vec::new();
    let found = tables(srcs);
    for (fi, f) in found.iter().enumerate() {
        for (ri, row) in f.table.rows.iter().enumerate() {
            let main: HashSet<String> = row.iter().flat_map(|c| words::terms(c)).collect();
            if q.gain(&main, &HashSet::new()) <= 0.0 {
                continue;
            }
            // The labels say what each cell is: they count as the row's own words.
            let mut own = main.clone();
            own.extend(f.labels.iter().cloned());
            let factor = if heads.away(&srcs[f.src], f.block, &own) {
                super::facts::UNASKED_FACTOR
            } else {
                1.0
            };
            let full = q.coverage(&own, &f.context) * factor;
            // Words that name the row's document (its title, its file name) chose
            // the document; inside it they tell no row from another: a row that
            // repeats the title ("By executing this Cover Page ...") is not the
            // answer to "how long ... under the cover page". They count as context
            // for every row, and only break ties.
            own.retain(|t| !f.naming.contains(t));
            let score = q.coverage(&own, &f.context) * factor;
            // Columns named by question terms the row itself does not hold.
            let cols: Vec<usize> = f
                .table
                .labels
                .iter()
                .enumerate()
                .filter(|(_, l)| {
                    let lt = words::term_set(l);
                    q.terms
                        .iter()
                        .any(|(t, _)| lt.contains(t) && !main.contains(t))
                })
                .map(|x| x.0)
                .collect();
            rows.push((score, full, fi, ri, cols));
        }
    }
    let best = rows.iter().map(|x| x.0).fold(0.0, f64::max);
    rows.retain(|x| x.0 >= best * 0.97);
    let best_full = rows.iter().map(|x| x.1).fold(0.0, f64::max);
    rows.retain(|x| x.1 >= best_full * 0.97);
    crate::order::sort_by(&mut rows, |a, b| {
        b.0.total_cmp(&a.0)
            .then(b.1.total_cmp(&a.1))
            .then((a.2, a.3).cmp(&(b.2, b.3)))
    });
    rows.truncate(3);
    let lines: Vec<Line> = rows
        .iter()
        .filter_map(|(_, _, fi, ri, cols)| {
            let f = found.get(*fi)?;
            let s = srcs.get(f.src)?;
            let mut cols = cols.clone();
            // The row's key (its first non-empty cell) labels the answer. A label
            // named over the key column alone ("Key Terms" heading a column of term
            // names) names the table, not a value of the row: the whole row answers.
            if let Some(k) = f.table.rows[*ri].iter().position(|c| !c.trim().is_empty()) {
                cols.retain(|&c| c != k);
                if !cols.is_empty() {
                    cols.insert(0, k);
                }
            }
            Some(row_line(&f.table, *ri, &cols, s.number))
        })
        .collect();
    Draft {
        kind: "table-cell",
        list: lines.len() > 1,
        lines,
        score: best_full,
        at: None,
    }
}

/// Fewest words of a row key's opening that names the row.
const ROW_NAME_WORDS: usize = 2;

/// Whether the question names one table row by its key: the opening words (at least
/// [`ROW_NAME_WORDS`]) of a row's first non-empty cell, written whole in the question
/// and opening no other row's key ("beside the Pump house" for the row
/// "Pump house *Ben*"). A question that points at a row this precisely asks
/// for something in it, even when its noun for the answer ("which engineer") is a
/// kind the table never writes, only shows instances of.
pub fn names_row(srcs: &[Src], question: &str) -> bool {
    let folded_q = fold(question);
    let keys: Vec<Vec<String>> = tables(srcs)
        .iter()
        .flat_map(|f| {
            f.table
                .rows
                .iter()
                .filter_map(|r| r.iter().find(|c| !c.trim().is_empty()))
                .map(|k| fold(k).split_whitespace().map(str::to_string).collect())
                .collect::<Vec<Vec<String>>>()
        })
        .collect();
    let opens =
        |key: &[String], words: &[String]| key.len() >= words.len() && key[..words.len()] == *words;
    keys.iter().any(|key| {
        (ROW_NAME_WORDS..=key.len()).any(|n| {
            let words = &key[..n];
            folded_q.contains(&format!(" {} ", words.join(" ")))
                && keys.iter().filter(|k| opens(k, words)).count() == 1
        })
    })
}

/// Weight of a table or list whose caption or introducing text the question quotes:
/// quoting the words above a list is how a user points at that list.
const QUOTED_INTRO: f64 = 1.0;

/// [`QUOTED_INTRO`] when one of the folded `quotes` is within one of the `names`.
fn intro_bonus<'a>(quotes: &[String], names: impl IntoIterator<Item = &'a str>) -> f64 {
    let names: Vec<String> = names.into_iter().map(fold).collect();
    let hit = quotes
        .iter()
        .filter(|q| q.trim().chars().count() >= 3)
        .any(|q| names.iter().any(|n| n.contains(q.as_str())));
    if hit { QUOTED_INTRO } else { 0.0 }
}

/// Every row of the table the question matches best (by its caption, labels,
/// context and cells), one line per row; rows of the same table in later sources
/// (a table split across chunks) follow.
pub fn whole_table(
    srcs: &[Src],
    q: &Query,
    quotes: &[String],
    docs: &HashMap<String, f64>,
) -> Draft {
    let found = tables(srcs);
    let mut best: Option<(f64, usize)> = None;
    for (fi, f) in found.iter().enumerate() {
        let rel = srcs.get(f.src).map_or(0.0, |s| relevance(docs, s));
        // What names the table counts whole, its cells half.
        let mut name = f.context.clone();
        name.extend(f.labels.iter().cloned());
        let mut cells = HashSet::new();
        for r in &f.table.rows {
            for c in r {
                cells.extend(words::terms(c));
            }
        }
        let mut s = q.coverage(&name, &cells);
        let named = f.table.caption.iter().chain(&f.above).chain(&f.heading);
        s += intro_bonus(quotes, named.map(String::as_str));
        if !focus::admits(rel, s) {
            continue;
        }
        if best.is_none_or(|b| s > b.0) {
            best = Some((s, fi));
        }
    }
    let Some((score, fi)) = best else {
        return Draft::default();
    };
    // The table, then its continuations: each opens the source after the one its
    // part closes, in the same document, under the same header rows (a chunk that
    // continues a table repeats them). Another table with the same header elsewhere
    // is another table.
    let mut chain = vec![&found[fi]];
    for g in &found[fi + 1..] {
        let last = chain[chain.len() - 1];
        let same_doc = srcs.get(g.src).map(|s| &s.title) == srcs.get(last.src).map(|s| &s.title);
        if !(last.closes
            && g.opens
            && g.src != last.src
            && same_doc
            && g.table.labels == last.table.labels)
        {
            break;
        }
        chain.push(g);
    }
    let mut lines = Vec::new();
    for g in chain {
        let n = srcs.get(g.src).map_or(0, |s| s.number);
        for ri in 0..g.table.rows.len() {
            let t = g.table.labelled(ri, &[]);
            if !t.is_empty() && lines.len() < MAX_ROWS {
                lines.push(Line::new(t, n));
            }
        }
    }
    Draft {
        kind: "table",
        list: true,
        lines,
        score,
        at: None,
    }
}

/// The list the question matches best: (score, source, first block, end block).
fn best_list(
    srcs: &[Src],
    q: &Query,
    quotes: &[String],
    docs: &HashMap<String, f64>,
) -> Option<(f64, usize, usize, usize)> {
    let mut best: Option<(f64, usize, usize, usize)> = None;
    for (si, s) in srcs.iter().enumerate() {
        let rel = relevance(docs, s);
        let mut i = 0;
        while i < s.blocks.len() {
            if s.blocks[i].kind != BlockKind::Item {
                i += 1;
                continue;
            }
            let start = i;
            // A list goes on across a paragraph between two of its items.
            while i < s.blocks.len()
                && (s.blocks[i].kind == BlockKind::Item
                    || (s.blocks[i].kind == BlockKind::Paragraph
                        && s.blocks
                            .get(i + 1)
                            .is_some_and(|b| b.kind == BlockKind::Item)))
            {
                i += 1;
            }
            if i - start < 2 {
                continue;
            }
            // A paragraph the question quotes inside the run (two lists joined across
            // it) introduces the items after it, up to the next paragraph.
            let mut start = start;
            let mut end = i;
            let mut bonus = 0.0;
            for j in start.saturating_sub(1)..i {
                let b = &s.blocks[j];
                if b.kind != BlockKind::Item && intro_bonus(quotes, [b.r.plain.as_str()]) > 0.0 {
                    start = j + 1;
                    end = (start..i)
                        .find(|&k| s.blocks[k].kind != BlockKind::Item)
                        .unwrap_or(i);
                    bonus = QUOTED_INTRO;
                    break;
                }
            }
            if end <= start {
                continue;
            }
            // The paragraph or heading above names the list; its items count half.
            let mut name = s.context.clone();
            if let Some(p) = start.checked_sub(1).and_then(|j| s.blocks.get(j)) {
                name.extend(words::term_set(&p.r.plain));
            }
            let mut items = HashSet::new();
            for b in &s.blocks[start..end] {
                items.extend(words::term_set(&b.r.plain));
            }
            let sc = q.coverage(&name, &items) + bonus;
            if !focus::admits(rel, sc) {
                continue;
            }
            if best.is_none_or(|b| sc > b.0) {
                best = Some((sc, si, start, end));
            }
        }
    }
    best
}

/// Item `at` of the list the question matches best ([`whole_list`]'s choice), the
/// paragraphs between items not counted; None when there is no such list or item.
pub(super) fn list_item(
    srcs: &[Src],
    q: &Query,
    quotes: &[String],
    docs: &HashMap<String, f64>,
    at: Nth,
) -> Option<Draft> {
    let (score, si, start, end) = best_list(srcs, q, quotes, docs)?;
    let s = srcs.get(si)?;
    let items: Vec<&super::source::Block> = s.blocks[start..end]
        .iter()
        .filter(|b| b.kind == BlockKind::Item)
        .collect();
    let b = items.get(at.index(items.len())?)?;
    Some(Draft {
        kind: "list",
        list: false,
        lines: vec![Line {
            plain: b.r.plain.clone(),
            markdown: b.r.markdown.clone(),
            number: s.number,
        }],
        score,
        at: None,
    })
}

/// Every item of the list the question matches best: a run of list items, scored by
/// its items and the paragraph or heading above it (a quoted intro counts most).
pub fn whole_list(
    srcs: &[Src],
    q: &Query,
    quotes: &[String],
    docs: &HashMap<String, f64>,
) -> Draft {
    let best = best_list(srcs, q, quotes, docs);
    let Some((score, si, start, end)) = best else {
        return Draft::default();
    };
    let s = &srcs[si];
    // The sentence that introduces the list ("... the following:") comes first.
    let intro = start
        .checked_sub(1)
        .filter(|&j| s.blocks[j].kind == BlockKind::Paragraph && s.blocks[j].r.plain.ends_with(':'))
        .map(|j| Line::new(s.blocks[j].r.plain.clone(), s.number));
    let lines = intro
        .into_iter()
        .chain(s.blocks[start..end].iter().take(MAX_ROWS).map(|b| Line {
            plain: b.r.plain.clone(),
            markdown: b.r.markdown.clone(),
            number: s.number,
        }))
        .collect();
    Draft {
        kind: "list",
        list: true,
        lines,
        score,
        at: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::answer::{Passage, source};

    fn src(number: usize, text: &str) -> Src {
        source::parse(&Passage {
            number,
            text,
            file: "d.html",
        })
    }

    #[test]
    fn only_a_table_opening_its_source_continues_one_closing_the_last() {
        let head = "[Document: D]\n\n| Month | Day |\n| --- | --- |\n| Jan | Mon |";
        // Opens its source right after a source the labelled table closes: continues it.
        let cont = "[Document: D]\n\n<table><tr><td>Feb</td><td>Tue</td></tr></table>";
        // A paragraph stands between: another table.
        let other =
            "[Document: D]\n\nIdes of March\n\n<table><tr><td>Ides</td><td>Fri</td></tr></table>";
        let srcs = vec![src(1, head), src(2, cont), src(3, other)];
        let t = tables(&srcs);
        assert_eq!(t.len(), 3);
        assert_eq!(t[1].table.labels, ["Month", "Day"]);
        assert!(
            t[2].table.labels.iter().all(String::is_empty),
            "{:?}",
            t[2].table.labels
        );
        // Nor does a table continue one its source does not end with.
        let closed =
            "[Document: D]\n\n| Month | Day |\n| --- | --- |\n| Jan | Mon |\n\nAfter the table.";
        let srcs = vec![src(1, closed), src(2, cont)];
        assert!(tables(&srcs)[1].table.labels.iter().all(String::is_empty));
    }
}
