//! The cell where two things a matrix relates cross: "the distance between Point D
//! and Point B", "the score of Ann against Bo".
//!
//! The property this relies on: a table whose rows and columns are keyed by the same
//! things (a distance chart, a correlation matrix, a tournament's cross table) holds
//! a value for each pair at the crossing of one's row and the other's column. Such a
//! table often fills only one triangle (the other repeats it) and marks the diagonal
//! with a dash, so a question naming the pair in either order asks for whichever of
//! the two crossings holds a value.

use std::collections::HashMap;

use super::cells::{row_line, tables};
use super::draft::Draft;
use super::focus;
use super::phrase::fold;
use super::source::Src;

/// Fewest things a table's first column and its column labels must share for it to be
/// a matrix (one could be chance: a "Total" row and a "Total" column).
const MATRIX_KEYS: usize = 2;

/// The cell where the two row keys of a matrix that `question` names cross (see the
/// module docs), from the tables of the documents the question is about (relevance
/// in `docs` at least [`focus::TARGET_SHARE`]); the first-named thing's row is read
/// first. Empty when the question names other than exactly two keys of one matrix,
/// or neither crossing holds a value.
pub fn crossed(srcs: &[Src], question: &str, docs: &HashMap<String, f64>) -> Draft {
    let q = fold(question);
    let mut best: Option<(f64, usize, usize, usize)> = None;
    let found = tables(srcs);
    for (fi, f) in found.iter().enumerate() {
        let rel = srcs.get(f.src).map_or(0.0, |s| focus::relevance(docs, s));
        if rel < focus::TARGET_SHARE || best.is_some_and(|b| b.0 >= rel) {
            continue;
        }
        let t = &f.table;
        let keys: Vec<String> = t
            .rows
            .iter()
            .map(|r| r.first().map_or_else(String::new, |k| fold(k)))
            .collect();
        let labels: Vec<String> = t.labels.iter().map(|l| fold(l)).collect();
        let is_key = |k: &String| !k.trim().is_empty() && labels.contains(k);
        if keys.iter().filter(|k| is_key(k)).count() < MATRIX_KEYS {
            continue;
        }
        let mut named: Vec<(usize, usize)> = keys
            .iter()
            .enumerate()
            .filter(|(_, k)| is_key(k))
            .filter_map(|(ri, k)| q.find(k.as_str()).map(|at| (at, ri)))
            .collect();
        if named.len() != 2 {
            continue;
        }
        named.sort_unstable();
        let (a, b) = (named[0].1, named[1].1);
        let column = |ri: usize| labels.iter().position(|l| *l == keys[ri]);
        let holds = |r: usize, c: usize| {
            t.rows[r]
                .get(c)
                .is_some_and(|v| v.chars().any(char::is_alphanumeric))
        };
        let hit = [(a, column(b)), (b, column(a))]
            .into_iter()
            .find_map(|(r, c)| c.filter(|&c| holds(r, c)).map(|c| (r, c)));
        if let Some((r, c)) = hit {
            best = Some((rel, fi, r, c));
        }
    }
    let Some((_, fi, r, c)) = best else {
        return Draft::default();
    };
    let f = &found[fi];
    let number = srcs.get(f.src).map_or(0, |s| s.number);
    Draft {
        kind: "table-cell",
        list: false,
        lines: vec![row_line(&f.table, r, &[0, c], number)],
        score: 1.0,
        at: None,
    }
}
