//! Tables (ECMA-376 Part 1, 17.4): rows, cells, spans and merges.
//!
//! * `w:gridSpan` (17.4.17) is the cell's column span.
//! * `w:vMerge` (17.4.85): a `restart` cell opens a vertical merge, a cell without a
//!   value (`continue`) extends the merge above it in the same grid column. The model
//!   gets `row_span` on the top cell and omits the covered cells. Grid columns are
//!   counted from `w:gridBefore` (17.4.15) plus the spans of the cells before.
//!   A covered cell that still has text gives its blocks to the top cell.
//! * `w:hMerge` (legacy horizontal merge): a continuing cell widens the cell before.
//! * `w:tblHeader` (17.4.49) marks header rows; only leading rows count.
//! * `w:trPr/w:ins|w:del` (17.13.5.19, 17.13.5.13) is a row revision;
//!   `w:cellIns`/`w:cellDel`/`w:cellMerge` get one warning (the cell is kept as is).
//! * Row- and cell-level `w:sdt`/`w:customXml` are transparent.

use std::collections::HashMap;

use crate::error::ConvertError;
use crate::model::{Block, Cell, RevisionKind, Row, RowRevision, Table};

use super::body::block_element;
use super::ctx::Ctx;
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
}

/// Reads a `w:tbl` whose start was just returned.
///
/// # Errors
/// XML errors; [`ConvertError::TooDeep`] for absurd nesting.
pub(crate) fn read_table(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>) -> Result<Table, ConvertError> {
    let mut rows = Vec::new();
    read_rows(x, cx, &mut rows)?;
    Ok(resolve(rows))
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
                "tr" => rows.push(read_row(x, cx)?),
                "sdt" | "sdtContent" | "customXml" => read_rows(x, cx, rows)?,
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

fn read_row(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>) -> Result<RawRow, ConvertError> {
    let mut row = RawRow {
        cells: Vec::new(),
        header: false,
        revision: None,
        grid_before: 0,
    };
    read_row_content(x, cx, &mut row)?;
    Ok(row)
}

fn read_row_content(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    row: &mut RawRow,
) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) if s.ns == Ns::W => match s.local {
                "trPr" => read_tr_pr(x, row)?,
                "tc" => row.cells.push(read_cell(x, cx)?),
                "sdt" | "sdtContent" | "customXml" => read_row_content(x, cx, row)?,
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
                        "gridBefore" => {
                            row.grid_before =
                                s.w("val").and_then(|v| v.trim().parse().ok()).unwrap_or(0);
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
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "tcPr") => read_tc_pr(x, cx, &mut raw)?,
            Ev::Start(s) => block_element(x, cx, &s, &mut raw.cell.blocks)?,
            Ev::End | Ev::Eof => return Ok(raw),
            Ev::Text(_) => {}
        }
    }
}

fn read_tc_pr(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    raw: &mut RawCell,
) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    match s.local {
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
            Ev::End | Ev::Eof => return Ok(()),
            Ev::Text(_) => {}
        }
    }
}

/// Turns raw rows into model rows: header rows, horizontal merges, vertical merges.
fn resolve(raw: Vec<RawRow>) -> Table {
    let mut rows: Vec<Row> = Vec::with_capacity(raw.len());
    // Grid column -> (row index, cell index) of the open vertical merge's top cell.
    let mut open: HashMap<u32, (usize, usize)> = HashMap::new();
    let mut leading_header = true;
    for r in raw {
        leading_header &= r.header;
        let ri = rows.len();
        let mut cells: Vec<Cell> = Vec::with_capacity(r.cells.len());
        let mut col = r.grid_before;
        let mut extra: Vec<((usize, usize), Vec<Block>)> = Vec::new();
        for rc in r.cells {
            if rc.hmerge_continue {
                if let Some(prev) = cells.last_mut() {
                    prev.col_span = prev.col_span.saturating_add(rc.cell.col_span);
                    col = col.saturating_add(rc.cell.col_span);
                    continue;
                }
            }
            let span = rc.cell.col_span;
            match rc.vmerge {
                Merge::Continue => {
                    if let Some(&(tr, tc)) = open.get(&col) {
                        let has_text = rc.cell.blocks.iter().any(|b| {
                            let mut s = String::new();
                            b.plain_text(&mut s);
                            !s.trim().is_empty()
                        });
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
    Table { rows }
}
