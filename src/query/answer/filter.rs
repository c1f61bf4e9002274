//! Rows selected by a value ("which rooms is Mara the lead for?"): the reverse of a
//! cell lookup ([`super::lookup`]).
//!
//! The property this relies on: a question that names a column together with one of
//! the values that column holds already writes the cell a lookup would return, so it
//! is not asking for that cell; it uses the value as a condition and asks which rows
//! meet it. The rows are then named by their key (the first cell with text), which is
//! what a table keeps its rows by. A question that names a row by its key is a lookup
//! and is left to it. With no column named, a question whose asked noun is the key
//! column's label ("which rooms …" over a *Room* column) selects the rows whose other
//! cells hold a value it names.

use std::collections::HashMap;

use super::cells::{Found, row_line, tables};
use super::draft::{Draft, Line};
use super::focus::asked_terms;
use super::lookup::{STRUCTURE_WORDS, label_names, mask, named_columns};
use super::phrase::{QUOTED, fold, named, quoted};
use super::source::Src;
use super::table::Table;
use super::words;

/// Words that mark the word after them as a column's label ("column B").
const LABEL_WORDS: &[&str] = &["column", "header", "heading", "label"];

/// Most rows one answer lists.
const MAX_ROWS: usize = 60;

/// Fewest characters of an unquoted value that is not a number: shorter cells ("a",
/// "no") occur in questions as ordinary words.
const MIN_VALUE_CHARS: usize = 3;

/// How strongly the folded question names a value of `cell`: the cell whole, or one
/// of the items a cell lists ("Mara, Olek"; "Mara and Olek"), as [`named`] scores
/// it; 0 for a word for a table's parts, or a short word-like value not quoted.
/// A number names its cell at any length only where the question names its column
/// (`numbers`).
fn value_named(q: &str, quotes: &[String], cell: &str, numbers: bool) -> f64 {
    let items = cell
        .split([',', ';', '/', '\n'])
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
        .filter(|p| !p.is_empty());
    std::iter::once(cell.trim())
        .chain(items)
        .map(|v| {
            let s = named(q, quotes, v);
            let folded = fold(v);
            let f = folded.trim();
            let number = f.chars().all(|c| c.is_ascii_digit() || c == ' ');
            if s <= 0.0
                || (s < QUOTED && STRUCTURE_WORDS.contains(&f))
                || (s < QUOTED && f.chars().count() < MIN_VALUE_CHARS && !(number && numbers))
                || (number && !numbers && s < QUOTED)
            {
                0.0
            } else {
                s
            }
        })
        .fold(0.0, f64::max)
}

/// A table's matching rows: (row, key column, the columns whose values matched).
type Rows = Vec<(usize, usize, Vec<usize>)>;

/// One table across its chunks: (document title, labels), its best score, and the
/// matching rows of each of its parts (by index into [`tables`]).
type Group = ((String, Vec<String>), f64, Vec<(usize, Rows)>);

/// Whether column `c`'s label (whole or its lowest level) is said in the question
/// outside its quotes (`bare`, folded) or is exactly one of its `quotes`: a label
/// inside a longer quoted phrase ("list what follows 'Reading the meter body'") is
/// part of what the quote names, not a column asked for.
fn said_outside(t: &Table, c: usize, bare: &str, quotes: &[String]) -> bool {
    label_names(t, c)
        .into_iter()
        .map(fold)
        .any(|l| bare.contains(l.as_str()) || quotes.contains(&l))
}

/// The rows of one table the question selects by value, and the best value's score.
fn select(
    f: &Found<'_>,
    question: &str,
    q: &str,
    quotes: &[String],
    qterms: &std::collections::HashSet<String>,
) -> Option<(f64, Rows)> {
    let t = &f.table;
    let key_col = t
        .rows
        .iter()
        .find_map(|r| r.iter().position(|c| !c.trim().is_empty()))?;
    let bare = fold(&super::asks::unquoted(question));
    let cols = named_columns(t, q, quotes, qterms, None, f.naming);
    let whole: Vec<usize> = cols
        .iter()
        .filter(|&&(s, c)| s >= 1.0 && c != key_col && said_outside(t, c, &bare, quotes))
        .map(|x| x.1)
        .collect();
    let masked = mask(q, t, &cols);
    // The asked noun ("which rooms") is the key column's label ("Room").
    let key_label = label_names(t, key_col)
        .first()
        .map(|l| words::term_set(l))
        .unwrap_or_default();
    let asks_keys = asked_terms(question).iter().any(|a| key_label.contains(a));
    // Which columns may hold the condition: those named, else (the asked noun being
    // the key column's label) every other column.
    let (value_cols, numbers): (Vec<usize>, bool) = if !whole.is_empty() {
        (whole, true)
    } else if asks_keys {
        let width = t.rows.iter().map(Vec::len).max().unwrap_or(0);
        ((0..width).filter(|&c| c != key_col).collect(), false)
    } else {
        return by_terms(f, question, q, qterms, key_col);
    };
    let mut rows: Rows = Vec::new();
    let mut best = 0.0f64;
    for (ri, row) in t.rows.iter().enumerate() {
        let Some(first) = row.iter().position(|c| !c.trim().is_empty()) else {
            continue;
        };
        // A row named by its key is addressed, not selected: a lookup's question.
        if !value_cols.contains(&first) && value_named(&masked, quotes, &row[first], false) > 0.0 {
            return None;
        }
        let hit: Vec<(f64, usize)> = value_cols
            .iter()
            .filter_map(|&c| {
                let s = value_named(&masked, quotes, row.get(c)?, numbers);
                (s > 0.0).then_some((s, c))
            })
            .collect();
        if hit.is_empty() {
            continue;
        }
        best = hit.iter().map(|x| x.0).fold(best, f64::max);
        rows.push((ri, first, hit.into_iter().map(|x| x.1).collect()));
    }
    (!rows.is_empty()).then_some((best, rows))
}

/// With no column named: the rows holding every question term that some rows of the
/// table hold and others do not ("which screens is Vera doing?" over rows keyed
/// "Train screen *Vera*"), when what the question asks for ([`asked_terms`]) is what
/// the table lists (its labels, its context, its key cells). A term every row holds
/// tells no row from another; the asked noun names the rows, it does not pick them.
fn by_terms(
    f: &Found<'_>,
    question: &str,
    q: &str,
    qterms: &std::collections::HashSet<String>,
    key_col: usize,
) -> Option<(f64, Rows)> {
    let t = &f.table;
    let asked: Vec<String> = asked_terms(question);
    // A row named by its key is addressed, not selected: a lookup's question.
    if t.rows.iter().any(|r| {
        r.get(key_col)
            .is_some_and(|k| value_named(q, &[], k, false) > 0.0)
    }) {
        return None;
    }
    let row_terms: Vec<std::collections::HashSet<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().flat_map(|c| words::terms(c)).collect())
        .collect();
    let keys: std::collections::HashSet<String> = t
        .rows
        .iter()
        .filter_map(|r| r.get(key_col))
        .flat_map(|c| words::terms(c))
        .collect();
    let lists = |a: &String| f.labels.contains(a) || f.context.contains(a) || keys.contains(a);
    if asked.is_empty() || !asked.iter().all(lists) {
        return None;
    }
    let mut picks: Vec<&String> = qterms
        .iter()
        .filter(|x| !asked.contains(x) && x.chars().count() >= MIN_VALUE_CHARS)
        .filter(|x| {
            let n = row_terms.iter().filter(|r| r.contains(*x)).count();
            n > 0 && n < t.rows.len()
        })
        .collect();
    picks.sort();
    if picks.is_empty() {
        return None;
    }
    let rows: Rows = row_terms
        .iter()
        .enumerate()
        .filter(|(_, r)| picks.iter().all(|x| r.contains(*x)))
        .filter_map(|(ri, _)| {
            let row = &t.rows[ri];
            let first = row.iter().position(|c| !c.trim().is_empty())?;
            // The cells holding the picked terms, besides the key.
            let cols: Vec<usize> = (0..row.len())
                .filter(|&c| c != first)
                .filter(|&c| {
                    let ct = words::term_set(&row[c]);
                    picks.iter().any(|x| ct.contains(*x))
                })
                .collect();
            Some((ri, first, cols))
        })
        .collect();
    (!rows.is_empty()).then_some((1.0, rows))
}

/// The rows the question selects by a value in one table (see the module docs),
/// each written as its key and the matching cells, cited; an empty draft when no
/// table's rows are selected.
pub fn rows_with(srcs: &[Src], question: &str, docs: &HashMap<String, f64>) -> Draft {
    let q = fold(question);
    let quotes = quoted(question);
    let qterms = words::term_set(question);
    best_rows(srcs, question, docs, |f| {
        select(f, question, &q, &quotes, &qterms)
    })
}

/// Whether a question asks for a column across its rows: it says "column", or asks
/// for all of something ("list", "every") without asking for rows or a table.
fn asks_column(question: &str) -> bool {
    let f = fold(question);
    let says = |w: &[&str]| w.iter().any(|x| f.contains(&format!(" {x} ")));
    says(&["column", "columns"])
        || (super::asks::wants_all(question) && !says(&["row", "rows", "table", "tables"]))
}

/// A column asked for whole ("What are the values in the Autumn Wheat column?"):
/// every row's key and its cell in the columns the question names by their whole
/// label, when it names no row (a row named is a lookup). The property: a label
/// says what a column holds, so a question naming one and no row, and asking for a
/// column or for all of something, asks for the column down the table.
pub fn column(srcs: &[Src], question: &str, docs: &HashMap<String, f64>) -> Draft {
    if !asks_column(question) {
        return Draft::default();
    }
    let q = fold(question);
    let quotes = quoted(question);
    let qterms = words::term_set(question);
    let bare = fold(&super::asks::unquoted(question));
    best_rows(srcs, question, docs, |f| {
        let t = &f.table;
        let key_col = t
            .rows
            .iter()
            .find_map(|r| r.iter().position(|c| !c.trim().is_empty()))?;
        // A label of a letter or two ("A", "No") is named only quoted or right after
        // a word that marks it as a label ("the column B", "the sub-header H"), and
        // never from inside a longer quote ([`said_outside`]).
        let long = |c: usize| {
            label_names(t, c).into_iter().map(fold).any(|l| {
                l.trim().chars().count() >= MIN_VALUE_CHARS
                    || LABEL_WORDS
                        .iter()
                        .any(|w| bare.contains(&format!(" {w}{l}")))
            })
        };
        let cols: Vec<usize> = named_columns(t, &q, &quotes, &qterms, None, f.naming)
            .into_iter()
            .filter(|&(s, c)| {
                (s >= QUOTED || (s >= 1.0 && long(c) && said_outside(t, c, &bare, &quotes)))
                    && c != key_col
            })
            .map(|x| x.1)
            .collect();
        if cols.is_empty() {
            return None;
        }
        let labelled: Vec<(f64, usize)> = cols
            .iter()
            .chain(std::iter::once(&key_col))
            .map(|&c| (1.0, c))
            .collect();
        let masked = mask(&q, t, &labelled);
        let mut rows: Rows = Vec::new();
        for (ri, row) in t.rows.iter().enumerate() {
            let Some(first) = row.iter().position(|c| !c.trim().is_empty()) else {
                continue;
            };
            // A key names its row at any length but a letter ("K2", "73"), as a
            // lookup reads it: keys are short identifiers more often than words.
            let key = fold(&row[first]);
            let named_key = named(&masked, &quotes, &row[first]);
            if named_key >= QUOTED
                || (named_key > 0.0
                    && key.trim().chars().count() >= 2
                    && !STRUCTURE_WORDS.contains(&key.trim()))
            {
                return None;
            }
            rows.push((ri, first, cols.clone()));
        }
        Some((1.0, rows))
    })
}

/// The rows `pick` gives for the table the question names best, as cited lines.
/// Parts of one table cut across chunks (same document, same labels) are one table;
/// it is scored by `pick`'s score plus its document's relevance in `docs` and the
/// question terms its name holds (caption, the text above it).
fn best_rows<'a>(
    srcs: &'a [Src],
    question: &str,
    docs: &HashMap<String, f64>,
    pick: impl Fn(&Found<'a>) -> Option<(f64, Rows)>,
) -> Draft {
    let qterms = words::term_set(question);
    let found = tables(srcs);
    // (document, labels) identifies a table across its chunks.
    let mut groups: Vec<Group> = Vec::new();
    for (fi, f) in found.iter().enumerate() {
        let Some((value, rows)) = pick(f) else {
            continue;
        };
        let Some(s) = srcs.get(f.src) else {
            continue;
        };
        let mut name = f.context.clone();
        name.extend(f.table.caption.iter().flat_map(|c| words::terms(c)));
        let shared = qterms.iter().filter(|t| name.contains(*t)).count();
        let score = value + super::focus::relevance(docs, s) + shared as f64 * 0.05;
        let id = (s.title.clone(), f.table.labels.clone());
        match groups.iter_mut().find(|g| g.0 == id) {
            Some(g) => {
                g.1 = g.1.max(score);
                g.2.push((fi, rows));
            }
            None => groups.push((id, score, vec![(fi, rows)])),
        }
    }
    let Some(best) = groups
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1).then(b.0.cmp(&a.0)))
        .map(|x| x.0)
    else {
        return Draft::default();
    };
    let mut lines: Vec<Line> = Vec::new();
    for (fi, rows) in &groups[best].2 {
        let f = &found[*fi];
        let number = srcs.get(f.src).map_or(0, |s| s.number);
        for (ri, key, cols) in rows {
            let cols: Vec<usize> = std::iter::once(*key).chain(cols.iter().copied()).collect();
            if lines.len() < MAX_ROWS {
                lines.push(row_line(&f.table, *ri, &cols, number));
            }
        }
    }
    Draft {
        kind: "table",
        list: lines.len() > 1,
        lines,
        score: 1.0,
        at: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::answer::Passage;
    use crate::query::answer::source::parse;

    /// A rota: rooms by lead and helper, with values repeated across columns.
    const ROTA: &str = "[Rota — Kitchen refit]\n\n| Room | Lead | Helper | State |\n|---|---|---|---|\n| Pantry | Mara | Olek | done |\n| Scullery | Tomas | Mara | started |\n| Larder | Mara | Ines | waiting |\n| Boot room | Ines | Tomas, Mara | done |\n";

    /// One source holding `text`, cited as 1.
    fn source(text: &str) -> Vec<Src> {
        vec![parse(&Passage {
            number: 1,
            text,
            file: "t.md",
        })]
    }

    /// The plain lines of a draft.
    fn plain(d: Draft) -> Vec<String> {
        d.lines.into_iter().map(|l| l.plain).collect()
    }

    fn ask(question: &str) -> Vec<String> {
        plain(rows_with(&source(ROTA), question, &HashMap::new()))
    }

    #[test]
    fn a_value_in_a_named_column_selects_the_rows_that_hold_it() {
        assert_eq!(
            ask("Which rooms is Mara the lead for?"),
            vec!["Room: Pantry; Lead: Mara", "Room: Larder; Lead: Mara"]
        );
        // An item of a cell listing several values counts.
        assert_eq!(
            ask("Where is Mara a helper?"),
            vec![
                "Room: Scullery; Helper: Mara",
                "Room: Boot room; Helper: Tomas, Mara"
            ]
        );
    }

    #[test]
    fn the_key_columns_label_asks_for_rows_with_a_value_anywhere() {
        assert_eq!(
            ask("Which rooms are waiting?"),
            vec!["Room: Larder; State: waiting"]
        );
    }

    #[test]
    fn a_name_some_key_cells_carry_selects_their_rows() {
        // The person in charge written into the key cell, under no column label.
        let board = "[Board — Screens]\n\nProgress of the screens this week.\n\n| | Draft | Review |\n|---|---|---|\n| Load map *Vera* | yes | no |\n| Save map *Quin* | yes | yes |\n| Train screen *Vera* | no | no |\n";
        let srcs = source(board);
        let got = plain(rows_with(
            &srcs,
            "Which screens is Vera doing?",
            &HashMap::new(),
        ));
        assert_eq!(got, vec!["Load map Vera", "Train screen Vera"]);
        // The asked noun alone picks no row; nor does a question that asks for
        // something the table does not list.
        assert!(
            rows_with(&srcs, "Which screens are on the board?", &HashMap::new())
                .lines
                .is_empty()
        );
        assert!(
            rows_with(&srcs, "Which budget does Vera have?", &HashMap::new())
                .lines
                .is_empty()
        );
    }

    #[test]
    fn a_column_named_outside_quotes_is_listed_down_the_table() {
        let grid = "[Grid — Codes]\n\nThe meter body codes.\n\n| Code | B | Meter body |\n|---|---|---|\n| K1 | 4 | brass |\n| K2 | 7 | steel |\n";
        let srcs = source(grid);
        let lines = |q: &str| plain(column(&srcs, q, &HashMap::new()));
        assert_eq!(
            lines("What are the values in column B?"),
            vec!["Code: K1; B: 4", "Code: K2; B: 7"]
        );
        assert_eq!(
            lines("List every meter body."),
            vec!["Code: K1; Meter body: brass", "Code: K2; Meter body: steel"]
        );
        // A one-letter label said as a word, a label inside a longer quote, or a row
        // named: no column is asked for.
        assert!(lines("List a few columns.").is_empty());
        assert!(lines("List what follows 'Reading the meter body'.").is_empty());
        assert!(lines("List the meter body column of K2.").is_empty());
    }

    #[test]
    fn a_row_named_by_its_key_is_a_lookup_not_a_selection() {
        assert!(ask("Who is the lead in the Pantry?").is_empty());
        // No column and not the key's label: nothing selects.
        assert!(ask("What does Mara do?").is_empty());
    }
}
