//! One table cell addressed the way people address it: by the row's key (a name, a
//! year, a number, "the third row") and the column's label ("the Time", "the second
//! column"), in the table the question names by its caption or the text above it.
//!
//! The property this relies on: a table's header labels say what each column holds
//! and one cell of a row (its key, most often the first) says which thing the row is
//! about, so a question that quotes a key and a label of the same table asks for the
//! cell where they cross. Phrases are matched whole (folded to lower-case letters and
//! digits), not as bags of words, so the key "Table row" is not the key "Table", the
//! number 29 is not 129, and a header row is never a row of the answer (labels are
//! not rows of [`Table`]).

use std::collections::HashSet;

use super::cells::{Found, row_line, tables};
use super::draft::{Draft, Line};
use super::phrase::{Nth, QUOTED, fold, named, nth, quoted};
use super::source::Src;
use super::table::Table;
use super::wanted::{self, Wanted};
use super::words;

/// Share of a key in another column than the first: the first column is where a
/// table keeps what its rows are about.
const OTHER_COLUMN: f64 = 0.7;

/// Words for the parts of a table, which a question uses to speak of any table.
pub(super) const STRUCTURE_WORDS: &[&str] = &[
    "table", "tables", "row", "rows", "column", "columns", "cell", "cells", "header", "headers",
    "heading", "value", "values", "entry", "entries", "field", "fields",
];

/// The names `question` writes with a capitalized word for a table's parts after its
/// first word ("the XML element for Table", "for Table row"), folded: capitalized in
/// running text, the word opens a name (a row's or a column's label), as a quote
/// would mark it; a question speaks of its table in lower case. The name runs on
/// through the content words after it, to a function word or punctuation.
fn written_as_names(question: &str) -> Vec<String> {
    let tokens: Vec<&str> = question.split_whitespace().collect();
    let bare = |t: &str| t.trim_matches(|c: char| !c.is_alphanumeric()).to_string();
    let closes = |t: &str| t.ends_with(['.', ',', ';', ':', '?', '!']);
    let mut out = Vec::new();
    for i in 1..tokens.len() {
        let w = bare(tokens[i]);
        let capitalized = w.starts_with(|c: char| c.is_uppercase())
            && w.chars().skip(1).all(|c| c.is_lowercase());
        if closes(tokens[i - 1])
            || !capitalized
            || !STRUCTURE_WORDS.contains(&w.to_lowercase().as_str())
        {
            continue;
        }
        let mut j = i + 1;
        while j < tokens.len() && !closes(tokens[j - 1]) && !words::terms(tokens[j]).is_empty() {
            j += 1;
        }
        let name: Vec<String> = tokens[i..j].iter().map(|t| bare(t)).collect();
        out.push(fold(&name.join(" ")));
    }
    out
}

/// Weight of the row of a one-row table, which the question need not name.
const IMPLIED_ROW: f64 = 0.5;

/// The table cells of at least two words that `question` holds whole (folded): a
/// phrase the question shares with a cell names that cell, so its words ("Footnote
/// or endnote ref") do not ask for a structure.
pub fn named_cells(srcs: &[Src], question: &str) -> Vec<String> {
    let q = fold(question);
    let mut out: Vec<String> = Vec::new();
    for f in tables(srcs) {
        for cell in f.table.rows.iter().flatten() {
            let c = fold(cell);
            let c = c.trim();
            if c.split_whitespace().count() >= 2 && q.contains(c) && !out.iter().any(|o| o == c) {
                out.push(c.to_string());
            }
        }
    }
    out
}

/// Most cells one answer gives when several tables match equally well.
const MAX_TIES: usize = 3;

/// A row position as the question counts it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RowAt {
    nth: Nth,
    /// Counted among data rows ("the second data row"), not as the reader sees the
    /// table, header row first ("the second row").
    data: bool,
}

impl RowAt {
    /// The index in `t.rows` of the row asked for.
    fn data_index(self, t: &Table) -> Option<usize> {
        let heads = usize::from(t.labels.iter().any(|l| !l.trim().is_empty()));
        match self.nth {
            Nth::At(n) if !self.data => Nth::At(n.checked_sub(heads)?).index(t.rows.len()),
            n => n.index(t.rows.len()),
        }
    }
}

/// The row position the folded question asks for. "Row 11" numbers data rows (as
/// a table's own numbering does); "the second row" counts what the reader sees.
fn row_at(folded: &str) -> Option<RowAt> {
    let nth = nth(folded, &["row", "rows"])?;
    let numbered = folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| matches!(w[0], "row" | "rows") && w[1].chars().all(|c| c.is_ascii_digit()));
    let data = numbered
        || [" data row", " body row", " data rows", " body rows"]
            .iter()
            .any(|p| folded.contains(p));
    Some(RowAt { nth, data })
}

/// The label of column `c`, and its lowest header level (merged headers are joined
/// with " / ").
pub(super) fn label_names(t: &Table, c: usize) -> Vec<&str> {
    let Some(l) = t.labels.get(c).map(|l| l.trim()).filter(|l| !l.is_empty()) else {
        return Vec::new();
    };
    let mut out = vec![l];
    if let Some((_, low)) = l.rsplit_once(" / ") {
        out.push(low.trim());
    }
    out
}

/// A candidate row and the columns asked of it.
struct Hit {
    score: f64,
    found: usize,
    row: usize,
    /// The columns asked for, in table order.
    cols: Vec<usize>,
    key: Option<usize>,
    /// Addressed by its first cell or its position: a row named the way tables name
    /// rows, not by a value that may recur in other rows.
    addressed: bool,
}

/// Weight of a column whose label shares stems with the question without being
/// named whole ("censoring" for "Censored"): enough to add it to a named row, not
/// to name a cell on its own.
const STEM_LABEL: f64 = 0.5;

/// The columns of `t` the folded question `q` names, with how strongly: by label
/// ([`named`]), by the label's stems ([`STEM_LABEL`]), or by position (`col_at`).
pub(super) fn named_columns(
    t: &Table,
    q: &str,
    quotes: &[String],
    qterms: &HashSet<String>,
    col_at: Option<Nth>,
    naming: &HashSet<String>,
) -> Vec<(f64, usize)> {
    let width = t
        .labels
        .len()
        .max(t.rows.iter().map(Vec::len).max().unwrap_or(0));
    let mut cols: Vec<(f64, usize)> = Vec::new();
    for c in 0..width {
        let names = label_names(t, c);
        let mut s = names
            .iter()
            .map(|l| {
                let n = named(q, quotes, l);
                // A label that is a word for a table's parts ("Table", "Value") is
                // how questions speak of tables: it names its column only quoted.
                // Nor does a label made of the words that name the table's document
                // ("Supply Agreement Cover Page" over a cover page's preamble): the
                // question says them to choose the document, not a column of it.
                if n < QUOTED
                    && (STRUCTURE_WORDS.contains(&fold(l).trim()) || all_naming(l, naming))
                {
                    0.0
                } else {
                    n
                }
            })
            .fold(0.0, f64::max);
        if s <= 0.0 {
            let lt = names
                .first()
                .map(|l| words::term_set(l))
                .unwrap_or_default();
            let shared = lt
                .iter()
                .filter(|x| qterms.contains(*x) && !naming.contains(*x))
                .count();
            if shared > 0 && shared * 2 >= lt.len() {
                s = STEM_LABEL;
            }
        }
        if col_at.and_then(|at| at.index(width)) == Some(c) {
            s = s.max(1.0);
        }
        if s > 0.0 {
            cols.push((s, c));
        }
    }
    siblings(t, qterms, &mut cols);
    cols
}

/// Whether every term of `label` (at least one) is among `naming`, the words that
/// name a document (its title and file name).
fn all_naming(label: &str, naming: &HashSet<String>) -> bool {
    let terms = words::term_set(label);
    !terms.is_empty() && terms.iter().all(|t| naming.contains(t))
}

/// Under a header of several levels ("Spring / Barley", "Autumn / Barley"), a column
/// is told from its siblings by its upper levels: the same sub-header recurs under
/// each group, so a question that names a sub-header and a group ("the autumn
/// barley") names the one column whose every label word it holds, and its siblings
/// named by the sub-header alone are not asked. Likewise a column under a group
/// matched only by the group's words ([`STEM_LABEL`]) is not asked when a column
/// named whole holds those words as its own group: they were said of that column.
fn siblings(t: &Table, qterms: &HashSet<String>, cols: &mut Vec<(f64, usize)>) {
    let low = |c: usize| label_names(t, c).last().map(|l| fold(l));
    let full = |c: usize| {
        label_names(t, c)
            .first()
            .map(|l| words::term_set(l))
            .unwrap_or_default()
    };
    let held = |c: usize| {
        let f = full(c);
        !f.is_empty() && f.iter().all(|x| qterms.contains(x))
    };
    let whole: Vec<usize> = cols
        .iter()
        .filter(|&&(s, c)| s >= 1.0 && held(c))
        .map(|x| x.1)
        .collect();
    // The group words (every level above the lowest) of the columns named whole.
    let said: HashSet<String> = whole
        .iter()
        .filter_map(|&c| {
            let l = label_names(t, c);
            (l.len() > 1).then(|| l[0].rsplit_once(" / ").map(|x| x.0))?
        })
        .flat_map(words::term_set)
        .collect();
    cols.retain(|&(s, c)| {
        if whole.contains(&c) {
            return true;
        }
        // A sibling of a column named with its group.
        let sibling = label_names(t, c).len() > 1
            && whole
                .iter()
                .any(|&w| label_names(t, w).len() > 1 && low(w) == low(c));
        // A partial match whose words a column named whole already holds.
        let partial = s < 1.0 && label_names(t, c).len() > 1 && {
            let shared: Vec<String> = full(c).into_iter().filter(|x| qterms.contains(x)).collect();
            !shared.is_empty() && shared.iter().all(|x| said.contains(x))
        };
        !(sibling || partial)
    });
}

/// The folded question with the labels of the columns it names whole (`cols` at 1
/// or more) blanked out, so a label word never doubles as a row key or a value.
pub(super) fn mask(q: &str, t: &Table, cols: &[(f64, usize)]) -> String {
    let mut masked = q.to_string();
    for &(s, c) in cols {
        if s < 1.0 {
            continue;
        }
        for l in label_names(t, c) {
            let fl = fold(l);
            if !fl.trim().is_empty() {
                masked = masked.replace(&fl, " ");
            }
        }
    }
    masked
}

/// The row of one table the question addresses and the columns it asks of it, if it
/// names a row and at least one column.
fn best_in(
    f: &Found<'_>,
    fi: usize,
    q: &str,
    quotes: &[String],
    qterms: &HashSet<String>,
    rows_at: Option<RowAt>,
    col_at: Option<Nth>,
    want: Option<Wanted>,
) -> Option<Hit> {
    let t = &f.table;
    let cols = named_columns(t, q, quotes, qterms, col_at, f.naming);
    if cols.iter().all(|c| c.0 < 1.0) && want.is_none() {
        return None;
    }
    let masked = mask(q, t, &cols);
    let named_in: Vec<Vec<(f64, usize)>> = t
        .rows
        .iter()
        .map(|row| named_cells_of(row, &masked, quotes))
        .collect();
    // Values said together address the row that holds them together ("the Tuesday
    // of week 11" over rows keyed by week, each with a Tuesday and a Thursday): a
    // row holding only one of them holds part of the address, and is not the row.
    // Counted by distinct value: one value written in two cells is one condition.
    let distinct = |ri: usize| {
        let mut v: Vec<String> = named_in[ri]
            .iter()
            .map(|x| fold(&t.rows[ri][x.1]))
            .collect();
        v.sort();
        v.dedup();
        v.len()
    };
    let counts: Vec<usize> = (0..t.rows.len()).map(distinct).collect();
    let most = counts.iter().copied().max().unwrap_or(0);
    let mut best: Option<Hit> = None;
    for (ri, row) in t.rows.iter().enumerate() {
        // Rows: one cell of it named by the question, or the row's position.
        let first = row.iter().position(|c| !c.trim().is_empty());
        let named_here = &named_in[ri];
        if most >= 2 && counts[ri] < most {
            continue;
        }
        let key: Option<(f64, usize)> =
            named_here
                .iter()
                .copied()
                .fold(None, |k: Option<(f64, usize)>, x| {
                    if k.is_none_or(|k| x.0 > k.0) {
                        Some(x)
                    } else {
                        k
                    }
                });
        let by_pos = rows_at.and_then(|at| at.data_index(t)) == Some(ri);
        // A table of one data row needs no row named: the column names its cell.
        let only = t.rows.len() == 1;
        let row_score = match (key, by_pos) {
            (Some((s, _)), _) => s,
            (None, true) => 1.0,
            (None, false) if only => IMPLIED_ROW,
            (None, false) => continue,
        };
        // A column the question names only in part ("switch" for "Switch Year") is
        // the one asked when its cell holds the type the question asks for ("when"
        // asks a date): the question word names what the label's other word says.
        let conditions: Vec<usize> = named_here.iter().map(|x| x.1).collect();
        let mut asked: Vec<(f64, usize)> = cols
            .iter()
            .copied()
            .filter(|&(_, c)| {
                row.get(c).is_some_and(|v| !v.trim().is_empty()) && !conditions.contains(&c)
            })
            .map(|(s, c)| match want {
                Some(w) if s < 1.0 && row.get(c).is_some_and(|v| wanted::holds(w, v)) => (1.0, c),
                _ => (s, c),
            })
            .collect();
        // A row addressed by several of its values, whose named column is one of
        // them (the question names "Spring 2026" and its value "Week 11"), is asked
        // for whole: what it holds besides the address.
        if counts[ri] >= 2 && asked.iter().all(|x| x.0 < 1.0) {
            asked = (0..row.len())
                .filter(|c| !conditions.contains(c) && !row[*c].trim().is_empty())
                .map(|c| (1.0, c))
                .collect();
        }
        let top = asked.iter().map(|x| x.0).fold(0.0, f64::max);
        if top < 1.0 {
            continue;
        }
        let score = row_score + top;
        if best.as_ref().is_none_or(|b| score > b.score) {
            best = Some(Hit {
                score,
                found: fi,
                row: ri,
                cols: asked.into_iter().map(|x| x.1).collect(),
                key: key.map(|k| k.1).or(first),
                addressed: by_pos || key.is_none_or(|k| Some(k.1) == first),
            });
        }
    }
    best
}

/// The cells of `row` the folded question (column labels masked) names, as (score,
/// column): a cell elsewhere than the row's first counts [`OTHER_COLUMN`] of its
/// score, a short one only quoted, a word for a table's parts only quoted.
fn named_cells_of(row: &[String], masked: &str, quotes: &[String]) -> Vec<(f64, usize)> {
    let first = row.iter().position(|c| !c.trim().is_empty());
    let mut out = Vec::new();
    for (ci, cell) in row.iter().enumerate() {
        let mut s = named(masked, quotes, cell);
        if s <= 0.0 {
            continue;
        }
        // A key that is a word for a table's parts ("Table", "Row") is how the
        // question speaks of the table: it names its row only quoted.
        if s < QUOTED && STRUCTURE_WORDS.contains(&fold(cell).trim()) {
            continue;
        }
        if Some(ci) != first {
            // A short cell elsewhere in the row ("1", "0") names nothing unless quoted.
            if cell.trim().chars().count() < 3 && s < QUOTED {
                continue;
            }
            s *= OTHER_COLUMN;
        }
        out.push((s, ci));
    }
    out
}

/// The cell the question addresses by row and column among the sources' tables
/// (see the module docs); an empty draft when no table has both. The table's name
/// (caption, the text above it, its document) breaks ties between tables that hold
/// the same key and label.
pub fn cell(srcs: &[Src], question: &str, docs: &std::collections::HashMap<String, f64>) -> Draft {
    let q = fold(question);
    let mut quotes = quoted(question);
    quotes.extend(written_as_names(question));
    let rows_at = row_at(&q);
    let col_at = nth(&q, &["column", "columns", "col", "cell"]);
    let found = tables(srcs);
    let qterms = words::term_set(question);
    let want = wanted::wanted(question);
    let mut hits: Vec<Hit> = Vec::new();
    for (fi, f) in found.iter().enumerate() {
        let Some(mut h) = best_in(f, fi, &q, &quotes, &qterms, rows_at, col_at, want) else {
            continue;
        };
        // What names the table: caption, the text above it, its document's relevance.
        let mut name = f.context.clone();
        name.extend(f.table.caption.iter().flat_map(|c| words::terms(c)));
        let shared = qterms.iter().filter(|t| name.contains(*t)).count();
        let rel = srcs
            .get(f.src)
            .and_then(|s| docs.get(&s.title))
            .copied()
            .unwrap_or(0.0);
        h.score += rel + shared as f64 * 0.05;
        hits.push(h);
    }
    let best = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    hits.retain(|h| h.score >= best - 1e-9);
    hits.truncate(MAX_TIES);
    let lines: Vec<Line> = hits
        .iter()
        .filter_map(|h| {
            let f = found.get(h.found)?;
            let s = srcs.get(f.src)?;
            // The row's key labels the answer ("Obs: 81; Time: 49").
            let cols: Vec<usize> = h.key.into_iter().chain(h.cols.iter().copied()).collect();
            Some(row_line(&f.table, h.row, &cols, s.number))
        })
        .collect();
    // A row named by a value in another column than its key is a weaker address.
    let score = match hits.first() {
        Some(h) if h.addressed => 1.0,
        Some(_) => OTHER_COLUMN,
        None => 0.0,
    };
    Draft {
        kind: "table-cell",
        list: lines.len() > 1,
        lines,
        score,
        at: None,
    }
}
