//! Tables (ECMA-376 Part 1, 17.4): rows, cells, spans and merges.
//!
//! * `w:gridSpan` (17.4.17) is the cell's column span.
//! * `w:vMerge` (17.4.85): a `restart` cell opens a vertical merge, a cell without a
//!   value (`continue`) extends the merge above it in the same grid column. The model
//!   gets `row_span` on the top cell and omits the covered cells. Grid columns are
//!   counted from `w:gridBefore` (17.4.15) plus the spans of the cells before.
//! * `w:gridBefore`/`w:gridAfter` (17.4.15, 17.4.14): grid columns a row leaves
//!   without a `w:tc`. Each leading slot becomes an empty cell, so every real cell
//!   keeps its grid column (under its header) in the rendered table; trailing slots
//!   move no cell and stay implicit (a short row), saving a `<td></td>` per row. Both
//!   end a vertical merge that reaches them.
//!   A covered cell that still has text gives its blocks to the top cell.
//! * `w:hMerge` (legacy horizontal merge): a continuing cell widens the cell before.
//! * `w:tblHeader` (17.4.49) marks header rows; only leading rows count.
//! * `w:trPr/w:ins|w:del` (17.13.5.19, 17.13.5.13) is a row revision;
//!   `w:cellIns`/`w:cellDel`/`w:cellMerge` get one warning (the cell is kept as is).
//! * Row- and cell-level `w:sdt`/`w:customXml` are transparent.
//! * A comment range mark between rows or cells (a child of `w:tbl` or `w:tr`) starts
//!   at the next paragraph or ends after the last paragraph read (`body::range_mark`).

use std::collections::HashMap;

use crate::error::ConvertError;
use crate::model::{Block, Cell, RevisionKind, Row, RowRevision, Table};

use super::body::{block_element, last_paragraph, range_mark};
use super::ctx::Ctx;
use super::layout_props::twips;
use super::xml::{Ev, Ns, Xml};

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Merge {
    None,
    Restart,
    Continue,
}

struct RawCell {
    cell: Cell,
    vmerge: Merge,
    hmerge_continue: bool,
}

struct RawRow {
    cells: Vec<RawCell>,
    header: bool,
    revision: Option<RowRevision>,
    grid_before: u32,
    grid_after: u32,
    /// `w:trHeight` (17.4.81), twips: the row is at least this tall.
    height: u32,
}

/// At most this many empty cells stand for `w:gridBefore`/`w:gridAfter` (a grid is
/// at most 63 columns in Word; a larger value is damage, not layout).
const MAX_GRID_GAP: u32 = 64;

/// Reads a `w:tbl` whose start was just returned.
///
/// # Errors
/// XML errors; [`ConvertError::TooDeep`] for absurd nesting.
pub(crate) fn read_table(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>) -> Result<Table, ConvertError> {
    let mut rows = Vec::new();
    read_rows(x, cx, &mut rows)?;
    resolve(rows)
}

/// Reads a `w:tblPr` (17.4.60) whose start was just returned: its `w:tblStyle`.
fn read_table_style(x: &mut Xml<'_>) -> Result<Option<String>, ConvertError> {
    let mut id = None;
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.is(Ns::W, "tblStyle") {
                    id = s.w("val").map(str::to_string);
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(id),
            Ev::Text(_) => {}
        }
    }
}

/// Reads a `w:tblGrid` (17.4.48) whose start was just returned: the `w:gridCol`
/// widths (17.4.16 `@w:w`), twips.
fn read_grid(x: &mut Xml<'_>) -> Result<Vec<u32>, ConvertError> {
    let mut widths = Vec::new();
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.is(Ns::W, "gridCol") && widths.len() < 1_000 {
                    let w = s
                        .w("w")
                        .and_then(twips)
                        .map_or(0, |v| v.clamp(0, 1_000_000) as u32);
                    widths.push(w);
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(widths),
            Ev::Text(_) => {}
        }
    }
}

/// Reads rows (descending into row-level `w:sdt`/`w:customXml`) until the end of the
/// current element.
fn read_rows(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    rows: &mut Vec<RawRow>,
) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) if s.ns == Ns::W => match s.local {
                "tr" => {
                    let row = read_row(x, cx, rows)?;
                    rows.push(row);
                }
                "sdt" | "sdtContent" | "customXml" => read_rows(x, cx, rows)?,
                // Only the outermost table's grid is measured (the page estimate).
                "tblGrid" if measuring(cx) => cx.table.grid = read_grid(x)?,
                "tblPr" if measuring(cx) => {
                    if let Some(id) = read_table_style(x)? {
                        cx.table_style = cx.styles.table_layout(&id);
                    }
                }
                "commentRangeStart" | "commentRangeEnd" => {
                    range_mark(cx, &s, rows.last_mut().and_then(last_cell_paragraph));
                    x.skip()?;
                }
                _ => {
                    cx.unknown(&s);
                    x.skip()?;
                }
            },
            Ev::Start(s) => {
                cx.unknown(&s);
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(()),
            Ev::Text(_) => {}
        }
    }
}

/// The last paragraph read in `row`.
fn last_cell_paragraph(row: &mut RawRow) -> Option<&mut crate::model::Paragraph> {
    last_paragraph(&mut row.cells.last_mut()?.cell.blocks)
}

/// Reads a `w:tr` whose start was just returned; `above` are the rows read before it
/// (a comment range that ends before the row's first cell closes in them).
fn read_row(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    above: &mut [RawRow],
) -> Result<RawRow, ConvertError> {
    let mut row = RawRow {
        cells: Vec::new(),
        header: false,
        revision: None,
        grid_before: 0,
        grid_after: 0,
        height: 0,
    };
    if cx.tables == 1 {
        cx.row_marks = (0, 0);
    }
    read_row_content(x, cx, &mut row, above)?;
    if measuring(cx) {
        cx.table.end_row(row.height);
    }
    Ok(row)
}

fn read_row_content(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    row: &mut RawRow,
    above: &mut [RawRow],
) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) if s.ns == Ns::W => match s.local {
                "trPr" => {
                    read_tr_pr(x, row)?;
                    if measuring(cx) {
                        cx.table.col = row.grid_before as usize;
                    }
                }
                "tc" => row.cells.push(read_cell(x, cx)?),
                "sdt" | "sdtContent" | "customXml" => read_row_content(x, cx, row, above)?,
                "commentRangeStart" | "commentRangeEnd" => {
                    let before = match last_cell_paragraph(row) {
                        Some(p) => Some(p),
                        None => above.last_mut().and_then(last_cell_paragraph),
                    };
                    range_mark(cx, &s, before);
                    x.skip()?;
                }
                _ => {
                    cx.unknown(&s);
                    x.skip()?;
                }
            },
            Ev::Start(s) => {
                cx.unknown(&s);
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(()),
            Ev::Text(_) => {}
        }
    }
}

fn read_tr_pr(x: &mut Xml<'_>, row: &mut RawRow) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    match s.local {
                        "tblHeader" => row.header = s.on_off(),
                        "trHeight" => {
                            let v = s.w("val").and_then(twips).unwrap_or(0);
                            row.height = v.clamp(0, 31_680) as u32;
                        }
                        "gridBefore" | "gridAfter" => {
                            let n = s
                                .w("val")
                                .and_then(|v| v.trim().parse().ok())
                                .unwrap_or(0u32)
                                .min(MAX_GRID_GAP);
                            if s.local == "gridBefore" {
                                row.grid_before = n;
                            } else {
                                row.grid_after = n;
                            }
                        }
                        "ins" | "del" => {
                            row.revision = Some(RowRevision {
                                kind: if s.local == "ins" {
                                    RevisionKind::Insertion
                                } else {
                                    RevisionKind::Deletion
                                },
                                author: s.w("author").filter(|a| !a.is_empty()).map(str::to_string),
                                date: s.w("date").filter(|a| !a.is_empty()).map(str::to_string),
                            });
                        }
                        _ => {}
                    }
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(()),
            Ev::Text(_) => {}
        }
    }
}

fn read_cell(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>) -> Result<RawCell, ConvertError> {
    let mut raw = RawCell {
        cell: Cell::default(),
        vmerge: Merge::None,
        hmerge_continue: false,
    };
    let mut width = None;
    // The cell starts for the page estimate once its properties (w:tcPr, first) are read.
    let measure = measuring(cx);
    let mut started = false;
    if cx.tables == 1 {
        let (before, cell) = cx.row_marks;
        cx.row_marks = (before.max(cell), 0);
    }
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "tcPr") => width = read_tc_pr(x, cx, &mut raw)?,
            Ev::Start(s) => {
                if measure && !started {
                    cx.table.start_cell(raw.cell.col_span as usize, width);
                    started = true;
                }
                block_element(x, cx, &s, &mut raw.cell.blocks)?;
            }
            Ev::End | Ev::Eof => {
                if measure {
                    if !started {
                        cx.table.start_cell(raw.cell.col_span as usize, width);
                    }
                    cx.table.end_cell();
                }
                return Ok(raw);
            }
            Ev::Text(_) => {}
        }
    }
}

/// Whether the table being read is measured for the page estimate (the outermost
/// table of the main story).
fn measuring(cx: &Ctx<'_, '_>) -> bool {
    cx.tables == 1 && cx.counts_pages()
}

/// Reads a `w:tcPr` whose start was just returned into `raw`; returns the cell's
/// width when `w:tcW` (17.4.72) gives it in twips (`dxa`).
fn read_tc_pr(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    raw: &mut RawCell,
) -> Result<Option<u32>, ConvertError> {
    let mut width = None;
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    match s.local {
                        "tcW" if s.w("type").is_none_or(|t| t == "dxa") => {
                            width = s
                                .w("w")
                                .and_then(twips)
                                .map(|v| v.clamp(0, 1_000_000) as u32);
                        }
                        "gridSpan" => {
                            let span: u32 =
                                s.w("val").and_then(|v| v.trim().parse().ok()).unwrap_or(1);
                            raw.cell.col_span = span.clamp(1, 1000);
                        }
                        "vMerge" => {
                            raw.vmerge = if s.w("val") == Some("restart") {
                                Merge::Restart
                            } else {
                                Merge::Continue
                            };
                        }
                        "hMerge" => raw.hmerge_continue = s.w("val") != Some("restart"),
                        "cellIns" | "cellDel" | "cellMerge" => {
                            let msg = format!(
                                "tracked table cell change w:{} in {} is shown as a plain cell",
                                s.local, cx.part
                            );
                            cx.warn_once(s.local, "cell-revision", msg);
                        }
                        _ => {}
                    }
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(width),
            Ev::Text(_) => {}
        }
    }
}

/// Turns raw rows into model rows: header rows, horizontal merges, vertical merges.
///
/// # Errors
/// [`ConvertError::TooManyElements`] when the empty cells of `w:gridBefore` slots take
/// the document over its element budget (`read::budget`).
fn resolve(raw: Vec<RawRow>) -> Result<Table, ConvertError> {
    let mut rows: Vec<Row> = Vec::with_capacity(raw.len());
    // Grid column -> (row index, cell index) of the open vertical merge's top cell.
    let mut open: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut leading_header = true;
    for r in raw {
        leading_header &= r.header;
        let ri = rows.len();
        let mut cells: Vec<Cell> = Vec::with_capacity(r.cells.len());
        // The slots before the first cell: empty, and they end any merge above them.
        // They are model cells like any other, so they count against the budget.
        crate::read::budget::take(u64::from(r.grid_before))?;
        for c in 0..r.grid_before {
            open.remove(&c);
            cells.push(Cell::default());
        }
        let slots = cells.len();
        let mut col = r.grid_before;
        let mut extra: Vec<((usize, usize), Vec<Block>)> = Vec::new();
        for rc in r.cells {
            // A continuing hMerge widens the real cell before it; one that follows only
            // empty grid slots (or nothing) stays a cell, so its text is kept.
            if rc.hmerge_continue && cells.len() > slots {
                if let Some(prev) = cells.last_mut() {
                    prev.col_span = prev.col_span.saturating_add(rc.cell.col_span);
                    prev.blocks
                        .extend(rc.cell.blocks.into_iter().filter(Block::has_text));
                    col = col.saturating_add(rc.cell.col_span);
                    continue;
                }
            }
            let span = rc.cell.col_span;
            match rc.vmerge {
                Merge::Continue => {
                    if let Some(&(tr, tc)) = open.get(&col) {
                        let has_text = rc.cell.blocks.iter().any(Block::has_text);
                        if has_text {
                            extra.push(((tr, tc), rc.cell.blocks));
                        }
                        if let Some(top) = rows.get_mut(tr).and_then(|row| row.cells.get_mut(tc)) {
                            top.row_span = top.row_span.saturating_add(1);
                        }
                        col = col.saturating_add(span);
                        continue;
                    }
                    open.insert(col, (ri, cells.len()));
                }
                Merge::Restart => {
                    open.insert(col, (ri, cells.len()));
                }
                Merge::None => {
                    for c in col..col.saturating_add(span) {
                        open.remove(&c);
                    }
                }
            }
            cells.push(rc.cell);
            col = col.saturating_add(span);
        }
        for c in col..col.saturating_add(r.grid_after) {
            open.remove(&c);
        }
        for ((tr, tc), blocks) in extra {
            if let Some(top) = rows.get_mut(tr).and_then(|row| row.cells.get_mut(tc)) {
                top.blocks.extend(blocks);
            }
        }
        rows.push(Row {
            cells,
            header: leading_header,
            revision: r.revision,
        });
    }
    Ok(Table { rows })
}
