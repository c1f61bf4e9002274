//! Ruled tables: horizontal and vertical rules that touch each other form a grid
//! (a table drawn with borders); the text inside each grid cell is the cell. A rule
//! missing between two grid cells merges them (a spanning cell, as a word processor
//! draws it: borders only around the merged area).

use crate::error::ConvertError;
use crate::model::{Cell, Row, Table, Warning};
use crate::read::budget;

use super::cells::{Seg1, cell};
use super::lines::{fragments, lines};
use super::order::{Bx, median};
use super::runs::Run;

/// Distance (units) within which rule ends meet and rule positions are one.
const TOL: f32 = 2.0;

/// Rows or columns narrower than this (units) are the gap of a double rule.
const THIN: f32 = 4.0;

/// Most rules a page's grids are looked for among (the search is quadratic).
const MAX_RULES: usize = 2_000;

/// Most grid cells of one ruled table (each cell is checked against every rule).
const MAX_CELLS: usize = 10_000;

/// A ruled table found on a page, with its box for reading order.
#[derive(Debug)]
pub(crate) struct Ruled {
    pub bx: Bx,
    pub table: Table,
}

/// Union-find root with path halving.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while let Some(&p) = parent.get(i) {
        if p == i {
            break;
        }
        let gp = parent.get(p).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(i) {
            *slot = gp;
        }
        i = gp;
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    if let Some(slot) = parent.get_mut(ra.max(rb)) {
        *slot = ra.min(rb);
    }
}

/// Positions within [`TOL`] merged, sorted.
fn cluster(mut v: Vec<f32>) -> Vec<f32> {
    v.sort_by(f32::total_cmp);
    let mut out: Vec<f32> = Vec::new();
    for x in v {
        if out.last().is_none_or(|l| x - l > TOL) {
            out.push(x);
        }
    }
    out
}

/// Finds the grids among the rules `h` and `v`, takes the runs inside them as their
/// cells, and returns the tables and the runs left for the text flow.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget.
pub(crate) fn extract(
    h: &[Seg1],
    v: &[Seg1],
    mut runs: Vec<Run>,
    warnings: &mut Vec<Warning>,
    page: u32,
) -> Result<(Vec<Ruled>, Vec<Run>), ConvertError> {
    if h.is_empty() || v.is_empty() {
        return Ok((Vec::new(), runs));
    }
    if h.len() + v.len() > MAX_RULES {
        warnings.push(Warning::new(
            "pdf-rules",
            format!(
                "page {page} draws more than {MAX_RULES} rules; its ruled tables are read as text"
            ),
        ));
        return Ok((Vec::new(), runs));
    }
    let n = h.len();
    let mut parent: Vec<usize> = (0..n + v.len()).collect();
    for (i, a) in h.iter().enumerate() {
        for (j, b) in v.iter().enumerate() {
            let touch = b.at >= a.from - TOL
                && b.at <= a.to + TOL
                && a.at >= b.from - TOL
                && a.at <= b.to + TOL;
            if touch {
                union(&mut parent, i, n + j);
            }
        }
    }
    let mut tables = Vec::new();
    for r in 0..n {
        if root(&mut parent, r) != r {
            continue;
        }
        let hs: Vec<Seg1> = (0..n)
            .filter(|&i| root(&mut parent, i) == r)
            .filter_map(|i| h.get(i).copied())
            .collect();
        let vs: Vec<Seg1> = (0..v.len())
            .filter(|&j| root(&mut parent, n + j) == r)
            .filter_map(|j| v.get(j).copied())
            .collect();
        if let Some(t) = grid(&hs, &vs, &mut runs)? {
            tables.push(t);
        }
    }
    tables.sort_by(|a, b| {
        a.bx.top
            .total_cmp(&b.bx.top)
            .then(a.bx.x0.total_cmp(&b.bx.x0))
    });
    Ok((tables, runs))
}

/// Boundaries from rule positions plus the outer extent of the crossing rules;
/// boundaries closer than [`THIN`] merged. Returns them and whether the second
/// boundary was doubled (a double rule under the first row or column).
fn bounds(at: Vec<f32>, lo: f32, hi: f32) -> (Vec<f32>, bool) {
    let mut all = at;
    all.push(lo);
    all.push(hi);
    let raw = cluster(all);
    let mut out: Vec<f32> = Vec::with_capacity(raw.len());
    let mut doubled = false;
    for x in raw {
        match out.last() {
            Some(&l) if x - l < THIN => doubled |= out.len() == 2,
            _ => out.push(x),
        }
    }
    (out, doubled)
}

/// The table one connected set of rules draws, taking its runs out of `runs`.
fn grid(hs: &[Seg1], vs: &[Seg1], runs: &mut Vec<Run>) -> Result<Option<Ruled>, ConvertError> {
    if hs.is_empty() || vs.is_empty() {
        return Ok(None);
    }
    let lo = |s: &[Seg1]| s.iter().map(|r| r.from).fold(f32::INFINITY, f32::min);
    let hi = |s: &[Seg1]| s.iter().map(|r| r.to).fold(f32::NEG_INFINITY, f32::max);
    let (ys, doubled) = bounds(hs.iter().map(|r| r.at).collect(), lo(vs), hi(vs));
    let (xs, _) = bounds(vs.iter().map(|r| r.at).collect(), lo(hs), hi(hs));
    let (rows, cols) = (ys.len().saturating_sub(1), xs.len().saturating_sub(1));
    if rows < 2 || cols < 2 || rows.saturating_mul(cols) > MAX_CELLS {
        return Ok(None);
    }
    budget::take((rows * cols) as u64)?;
    let (Some(&x0), Some(&x1), Some(&y0), Some(&y1)) =
        (xs.first(), xs.last(), ys.first(), ys.last())
    else {
        return Ok(None);
    };
    let mid = |b: &[f32], k: usize| {
        0.5 * (b.get(k).copied().unwrap_or(0.0) + b.get(k + 1).copied().unwrap_or(0.0))
    };
    let ruled = |s: &[Seg1], at: f32, along: f32| {
        s.iter()
            .any(|r| (r.at - at).abs() <= TOL && along >= r.from - TOL && along <= r.to + TOL)
    };
    // Grid cells joined where no rule parts them.
    let id = |r: usize, c: usize| r * cols + c;
    let mut parent: Vec<usize> = (0..rows * cols).collect();
    for r in 0..rows {
        for c in 0..cols {
            let right = xs.get(c + 1).copied().unwrap_or(x1);
            if c + 1 < cols && !ruled(vs, right, mid(&ys, r)) {
                union(&mut parent, id(r, c), id(r, c + 1));
            }
            let below = ys.get(r + 1).copied().unwrap_or(y1);
            if r + 1 < rows && !ruled(hs, below, mid(&xs, c)) {
                union(&mut parent, id(r, c), id(r + 1, c));
            }
        }
    }
    // Each merged area's extent: (r0, r1, c0, c1, count). Areas that are not
    // rectangles cannot be spans; then every grid cell stands alone.
    let mut area: Vec<(usize, usize, usize, usize, usize)> =
        vec![(usize::MAX, 0, usize::MAX, 0, 0); rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let k = root(&mut parent, id(r, c));
            if let Some(a) = area.get_mut(k) {
                *a = (a.0.min(r), a.1.max(r), a.2.min(c), a.3.max(c), a.4 + 1);
            }
        }
    }
    let rect = area
        .iter()
        .all(|a| a.4 == 0 || (a.1 + 1 - a.0) * (a.3 + 1 - a.2) == a.4);
    let owner = |parent: &mut Vec<usize>, r: usize, c: usize| {
        if rect {
            root(parent, id(r, c))
        } else {
            id(r, c)
        }
    };
    // The runs whose middle lies inside the grid go to their cells.
    let mut inside: Vec<Vec<Run>> = vec![Vec::new(); rows * cols];
    let mut rest = Vec::with_capacity(runs.len());
    for run in runs.drain(..) {
        let (cx, cy) = (0.5 * (run.x0 + run.x1), run.base - 0.3 * run.size);
        if cx < x0 || cx > x1 || cy < y0 || cy > y1 {
            rest.push(run);
            continue;
        }
        let r = ys.partition_point(|&y| y <= cy).clamp(1, rows) - 1;
        let c = xs.partition_point(|&x| x <= cx).clamp(1, cols) - 1;
        let k = owner(&mut parent, r, c);
        match inside.get_mut(k) {
            Some(cell_runs) => cell_runs.push(run),
            None => rest.push(run),
        }
    }
    let filled = inside.iter().filter(|c| !c.is_empty()).count();
    if filled < 2 {
        // A frame around text (or an empty grid) is not a table.
        rest.extend(inside.into_iter().flatten());
        *runs = rest;
        return Ok(None);
    }
    *runs = rest;
    let sizes: Vec<f32> = inside.iter().flatten().map(|r| r.size).collect();
    let first_bold = (0..cols).all(|c| {
        let k = owner(&mut parent, 0, c);
        inside.get(k).is_none_or(|rs| rs.iter().all(|r| r.bold))
    }) && (0..cols).any(|c| {
        inside
            .get(owner(&mut parent, 0, c))
            .is_some_and(|rs| !rs.is_empty())
    });
    let header = first_bold || doubled || thick_first(hs, &ys);
    let mut table = Table::default();
    for r in 0..rows {
        let mut row = Row {
            header: header && r == 0,
            ..Row::default()
        };
        for c in 0..cols {
            let k = owner(&mut parent, r, c);
            if k != id(r, c) {
                continue;
            }
            let a = area
                .get(k)
                .copied()
                .filter(|_| rect)
                .unwrap_or((r, r, c, c, 1));
            let frags = fragments(inside.get_mut(k).map(std::mem::take).unwrap_or_default(), 0);
            let ls = lines(frags);
            row.cells.push(Cell {
                row_span: u32::try_from(a.1 + 1 - a.0).unwrap_or(1),
                col_span: u32::try_from(a.3 + 1 - a.2).unwrap_or(1),
                ..cell(&ls.iter().collect::<Vec<_>>())
            });
        }
        table.rows.push(row);
    }
    let bx = Bx {
        x0,
        x1,
        top: y0,
        bottom: y1,
        size: median(sizes).max(1.0),
        key: y0,
    };
    Ok(Some(Ruled { bx, table }))
}

/// Whether the rule under the first row is drawn heavier than the other inner rules.
fn thick_first(hs: &[Seg1], ys: &[f32]) -> bool {
    let at = |k: usize| ys.get(k).copied().unwrap_or(f32::NAN);
    let weight = |y: f32| {
        hs.iter()
            .filter(|r| (r.at - y).abs() <= TOL)
            .map(|r| r.thick)
            .fold(0.0f32, f32::max)
    };
    let first = weight(at(1));
    let others: Vec<f32> = (2..ys.len().saturating_sub(1))
        .map(|k| weight(at(k)))
        .collect();
    !others.is_empty() && first > 1.5 * median(others).max(0.1)
}
