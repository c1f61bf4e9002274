//! Tables without rules: lines whose fragments (pieces split at wide gaps) stand in
//! the same columns line after line. Typesetting aligns a table's columns on a
//! common left edge (text), right edge (numbers) or centre; prose never repeats wide
//! gaps at the same places over three lines.

use crate::error::ConvertError;
use crate::model::{Row, Table};
use crate::read::budget;

use super::cells::{Seg1, cell};
use super::lines::{Frag, Line};
use super::lists;
use super::order::{Bx, prose};
use super::paragraphs::Seg;

/// Fewest rows of an unruled table.
const MIN_ROWS: usize = 3;

/// Most wrapped lines one row may add to its cells.
const MAX_WRAPS: usize = 3;

/// Widest vertical gap between rows, in ems.
const ROW_GAP: f32 = 3.0;

/// How far (ems) two edges may differ and still be one column edge.
const EDGE: f32 = 0.5;

/// A column: the x extent its cells reach so far, and its first cell's edges.
#[derive(Debug, Clone, Copy)]
struct Col {
    x0: f32,
    x1: f32,
    left: f32,
    right: f32,
}

impl Col {
    fn new(f: &Frag) -> Self {
        Col {
            x0: f.x0,
            x1: f.x1,
            left: f.x0,
            right: f.x1,
        }
    }

    /// Whether fragment `f` stands in this column: an edge or the centre lines up,
    /// or it overlaps what the column holds.
    fn takes(&self, f: &Frag) -> bool {
        let tol = EDGE * f.size;
        (f.x0 - self.left).abs() <= tol
            || (f.x1 - self.right).abs() <= tol
            || (0.5 * (f.x0 + f.x1) - 0.5 * (self.left + self.right)).abs() <= tol
            || (f.x0 < self.x1 && f.x1 > self.x0)
    }
}

/// Places a line's fragments into `cols`, left to right, one column each: the column
/// of each fragment, or `None` when one fits nowhere.
fn place(cols: &[Col], frags: &[Frag]) -> Option<Vec<usize>> {
    let mut at = 0;
    let mut out = Vec::with_capacity(frags.len());
    for f in frags {
        let k = (at..cols.len()).find(|&k| cols.get(k).is_some_and(|c| c.takes(f)))?;
        // A fragment that also reaches into the next column spans both: not a row.
        if cols.get(k + 1).is_some_and(|c| f.x1 > c.x0 && f.x0 < c.x1) {
            return None;
        }
        out.push(k);
        at = k + 1;
    }
    Some(out)
}

/// Splits a column's lines into runs of lines and the unruled tables among them.
/// `hrules` (horizontal rules of the page) mark a header row ruled off.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget.
pub(crate) fn split(lines: Vec<Line>, hrules: &[Seg1]) -> Result<Vec<Seg>, ConvertError> {
    let mut out = Vec::new();
    let mut plain: Vec<Line> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match table_at(&lines, i, hrules)? {
            Some((end, Some(table))) => {
                if !plain.is_empty() {
                    out.push(Seg::Lines(std::mem::take(&mut plain)));
                }
                out.push(Seg::Table(table));
                i = end.max(i + 1);
                continue;
            }
            Some((end, None)) => {
                // Prose side by side or a list: its lines stay text, and are not
                // tried again.
                plain.extend(
                    lines
                        .get(i..end.max(i + 1))
                        .unwrap_or_default()
                        .iter()
                        .cloned(),
                );
                i = end.max(i + 1);
                continue;
            }
            None => {}
        }
        if let Some(l) = lines.get(i) {
            plain.push(l.clone());
        }
        i += 1;
    }
    if !plain.is_empty() {
        out.push(Seg::Lines(plain));
    }
    Ok(out)
}

/// The table starting at line `i`, with the index of the first line after it; no
/// table (but the end) when the aligned lines are prose side by side or a list.
fn table_at(
    lines: &[Line],
    i: usize,
    hrules: &[Seg1],
) -> Result<Option<(usize, Option<Table>)>, ConvertError> {
    let Some(first) = lines.get(i).filter(|l| l.frags.len() >= 2) else {
        return Ok(None);
    };
    // The columns come from the fullest of the first lines (a header may leave the
    // top-left cell empty).
    let mut anchor = first;
    for l in lines.iter().skip(i + 1).take(2) {
        if l.frags.len() > anchor.frags.len() {
            anchor = l;
        }
    }
    let mut cols: Vec<Col> = anchor.frags.iter().map(Col::new).collect();
    // rows[r][k]: the lines of column k in row r.
    let mut rows: Vec<Vec<Vec<Line>>> = Vec::new();
    let mut last_base = first.base;
    let mut wraps = 0;
    let mut j = i;
    while let Some(n) = lines.get(j) {
        if !rows.is_empty() && n.base - last_base > ROW_GAP * n.size.max(1.0) {
            break;
        }
        if n.frags.len() >= 2 {
            let Some(at) = place(&cols, &n.frags) else {
                break;
            };
            let mut row = vec![Vec::new(); cols.len()];
            for (f, &k) in n.frags.iter().zip(&at) {
                if let (Some(c), Some(slot)) = (cols.get_mut(k), row.get_mut(k)) {
                    c.x0 = c.x0.min(f.x0);
                    c.x1 = c.x1.max(f.x1);
                    slot.push(single(f));
                }
            }
            rows.push(row);
            wraps = 0;
        } else {
            // A wrapped cell: one fragment under a column other than the first (a
            // line under the first column is the text after the table).
            let f = n.frags.first();
            let k = f.and_then(|f| place(&cols, std::slice::from_ref(f)));
            let slot = match (k.as_deref(), rows.last_mut(), f) {
                (Some([k]), Some(row), Some(f)) if *k > 0 && wraps < MAX_WRAPS => {
                    row.get_mut(*k).map(|s| (s, f))
                }
                _ => None,
            };
            let Some((slot, f)) = slot else {
                break;
            };
            slot.push(single(f));
            wraps += 1;
        }
        last_base = n.base;
        j += 1;
    }
    if rows.len() < MIN_ROWS {
        return Ok(None);
    }
    // Two columns of prose side by side are a page's columns, not a table.
    let prose_cols = (0..cols.len())
        .filter(|&k| {
            prose(rows.iter().filter_map(|r| r.get(k)).flatten().map(|l| Bx {
                x0: l.x0,
                x1: l.x1,
                top: 0.0,
                bottom: 0.0,
                size: l.size,
                key: 0.0,
            }))
        })
        .count();
    // A first column of bullets or numbers set off by a tab is a list.
    let markers = rows.iter().all(|r| {
        r.first()
            .and_then(|c| c.first())
            .is_some_and(|l| lists::marker_only(&l.text()))
    });
    if prose_cols >= 2 || markers {
        return Ok(Some((j, None)));
    }
    budget::take(rows.iter().map(|r| r.len() as u64 + 1).sum())?;
    let bold = |r: &Vec<Vec<Line>>| r.iter().flatten().all(Line::all_bold);
    let first_bold = rows.first().is_some_and(bold) && !rows.iter().all(bold);
    let ruled_off = match (rows.first(), rows.get(1)) {
        (Some(a), Some(b)) => {
            let below = a
                .iter()
                .flatten()
                .map(|l| l.base)
                .fold(f32::NEG_INFINITY, f32::max);
            let above = b
                .iter()
                .flatten()
                .map(|l| l.base - l.size)
                .fold(f32::INFINITY, f32::min);
            let (x0, x1) = (
                cols.first().map_or(0.0, |c| c.x0),
                cols.last().map_or(0.0, |c| c.x1),
            );
            hrules.iter().any(|h| {
                h.at > below && h.at < above && (h.to.min(x1) - h.from.max(x0)) >= 0.5 * (x1 - x0)
            })
        }
        _ => false,
    };
    let header = first_bold || ruled_off;
    let table = Table {
        rows: rows
            .iter()
            .enumerate()
            .map(|(r, row)| Row {
                cells: row
                    .iter()
                    .map(|ls| cell(&ls.iter().collect::<Vec<_>>()))
                    .collect(),
                header: header && r == 0,
                revision: None,
            })
            .collect(),
    };
    Ok(Some((j, Some(table))))
}

/// A line holding one fragment.
fn single(f: &Frag) -> Line {
    Line {
        frags: vec![f.clone()],
        x0: f.x0,
        x1: f.x1,
        base: f.base,
        size: f.size,
    }
}
