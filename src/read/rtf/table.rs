//! Tables (RTF 1.9.1, "Table Definitions"): a row is the paragraphs marked `\intbl`
//! up to `\row`, its cells end at `\cell`; nested tables (`\itapN` > 1) end their cells
//! and rows with `\nestcell` / `\nestrow`, their row properties written in
//! `\*\nesttableprops`. The row definition (`\trowd`, then per cell the merge flags
//! and `\cellxN`, its right edge in twips) is matched to the cells by position.
//!
//! * `\clmgf` / `\clmrg`: first / continued cell of a horizontal merge; a continued
//!   cell widens the one before it and is omitted.
//! * `\clvmgf` / `\clvmrg`: first / continued cell of a vertical merge; the first cell
//!   gets `row_span`, continued cells are omitted (their text, if any, is moved up).
//! * When rows have different numbers of cells, the right edges of all rows form the
//!   column grid and a cell spans the grid columns its edges cover (Word writes a
//!   merged cell as one wide cell).
//! * `\trhdr` marks header rows; only leading ones count.

use crate::model::{Block, Cell, Row, Table};

use super::inlines::blank;

/// A merge flag of a cell definition.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Merge {
    #[default]
    None,
    First,
    Continue,
}

/// One cell of a row definition.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CellDef {
    pub right: i32,
    pub h: Merge,
    pub v: Merge,
}

/// A row definition (`\trowd ... \cellx`).
#[derive(Debug, Clone, Default)]
pub(crate) struct RowDef {
    pub cells: Vec<CellDef>,
    pub header: bool,
    pending: CellDef,
}

/// Most cells a row definition keeps (Word allows 63).
const MAX_CELLS: usize = 1000;

impl RowDef {
    /// `\trowd`.
    pub(crate) fn reset(&mut self) {
        *self = RowDef::default();
    }

    /// `\clmgf` / `\clmrg` (horizontal) or `\clvmgf` / `\clvmrg` for the next `\cellx`.
    pub(crate) fn merge(&mut self, vertical: bool, m: Merge) {
        if vertical {
            self.pending.v = m;
        } else {
            self.pending.h = m;
        }
    }

    /// `\cellxN`.
    pub(crate) fn cellx(&mut self, right: i32) {
        if self.cells.len() < MAX_CELLS {
            self.cells.push(CellDef {
                right,
                ..self.pending
            });
        }
        self.pending = CellDef::default();
    }
}

/// A finished row before merges are resolved.
#[derive(Debug, Default)]
pub(crate) struct RawRow {
    pub cells: Vec<Vec<Block>>,
    pub def: RowDef,
}

/// A table being read.
#[derive(Debug, Default)]
pub(crate) struct TableBuild {
    pub rows: Vec<RawRow>,
    /// Finished cells of the current row.
    pub cells: Vec<Vec<Block>>,
    /// Blocks of the current cell.
    pub cell: Vec<Block>,
}

impl TableBuild {
    /// `\cell` / `\nestcell`.
    pub(crate) fn end_cell(&mut self) {
        let cell = std::mem::take(&mut self.cell);
        self.cells.push(cell);
    }

    /// `\row` / `\nestrow` with the row's definition.
    pub(crate) fn end_row(&mut self, def: &RowDef) {
        if !self.cell.is_empty() {
            self.end_cell();
        }
        let cells = std::mem::take(&mut self.cells);
        // Only the definitions of cells the row has (bounded by its `\cell`s).
        let def = RowDef {
            cells: def.cells.iter().take(cells.len()).copied().collect(),
            header: def.header,
            pending: CellDef::default(),
        };
        self.rows.push(RawRow { cells, def });
    }

    /// The finished table (an unfinished last row is kept), or `None` when empty.
    pub(crate) fn finish(mut self, def: &RowDef) -> Option<Table> {
        if !self.cell.is_empty() || !self.cells.is_empty() {
            self.end_row(def);
        }
        if self.rows.is_empty() {
            return None;
        }
        Some(resolve(self.rows))
    }
}

/// Edges closer than this (twips) are one grid line.
const SNAP: i32 = 30;

/// Turns raw rows into the model: spans from the grid, merges resolved.
fn resolve(rows: Vec<RawRow>) -> Table {
    let uneven = rows
        .windows(2)
        .any(|w| w[0].cells.len() != w[1].cells.len());
    let mut grid: Vec<i32> = Vec::new();
    if uneven {
        let mut edges: Vec<i32> = rows
            .iter()
            .flat_map(|r| r.def.cells.iter().take(r.cells.len()).map(|c| c.right))
            .collect();
        crate::order::sort(&mut edges);
        for e in edges {
            if grid.last().is_none_or(|&g| e - g > SNAP) {
                grid.push(e);
            }
        }
    }
    let mut table = Table::default();
    // Per grid column: (row, cell) of the open vertical merge.
    let mut vopen: Vec<Option<(usize, usize)>> = Vec::new();
    let mut leading_header = true;
    for (r, raw) in rows.into_iter().enumerate() {
        leading_header &= raw.def.header;
        let mut row = Row {
            header: leading_header,
            ..Row::default()
        };
        let mut col = 0usize;
        for (i, blocks) in raw.cells.into_iter().enumerate() {
            let def = raw.def.cells.get(i).copied().unwrap_or_default();
            let end = if grid.is_empty() || i >= raw.def.cells.len() {
                col + 1
            } else {
                grid.iter()
                    .position(|&g| g >= def.right - SNAP)
                    .map_or(col + 1, |p| p + 1)
            };
            let span = end.saturating_sub(col).max(1);
            let start = col;
            col = start + span;
            if vopen.len() < col {
                vopen.resize(col, None);
            }
            if def.h == Merge::Continue
                && let Some(prev) = row.cells.last_mut()
            {
                prev.col_span = prev.col_span.saturating_add(span as u32);
                absorb(&mut prev.blocks, blocks);
                continue;
            }
            if def.v == Merge::Continue
                && let Some((or, oc)) = vopen[start]
                && let Some(origin) = table.rows.get_mut(or).and_then(|r| r.cells.get_mut(oc))
            {
                origin.row_span = origin.row_span.saturating_add(1);
                absorb(&mut origin.blocks, blocks);
                continue;
            }
            vopen[start] = (def.v == Merge::First).then_some((r, row.cells.len()));
            row.cells.push(Cell {
                blocks,
                col_span: span as u32,
                row_span: 1,
            });
        }
        table.rows.push(row);
    }
    table
}

/// Moves the text of a covered cell into the cell that covers it.
fn absorb(into: &mut Vec<Block>, blocks: Vec<Block>) {
    let has_text = blocks.iter().any(|b| match b {
        Block::Paragraph(p) => !blank(&p.inlines),
        _ => true,
    });
    if has_text {
        into.extend(blocks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Inline, Paragraph, TextStyle};

    fn para(s: &str) -> Vec<Block> {
        vec![Block::Paragraph(Paragraph {
            inlines: vec![Inline::Text {
                text: s.into(),
                style: TextStyle::default(),
            }],
            ..Paragraph::default()
        })]
    }

    #[test]
    fn vertical_and_horizontal_merges() {
        let mut first = RowDef::default();
        first.merge(true, Merge::First);
        first.cellx(1000);
        first.merge(false, Merge::First);
        first.cellx(2000);
        first.merge(false, Merge::Continue);
        first.cellx(3000);
        let mut second = RowDef::default();
        second.merge(true, Merge::Continue);
        second.cellx(1000);
        second.cellx(2000);
        second.cellx(3000);
        let mut t = TableBuild::default();
        for s in ["a", "b", ""] {
            t.cell = para(s);
            t.end_cell();
        }
        t.end_row(&first);
        for s in ["", "d", "e"] {
            t.cell = para(s);
            t.end_cell();
        }
        t.end_row(&second);
        let table = t.finish(&second).unwrap_or_default();
        assert_eq!(table.rows[0].cells.len(), 2);
        assert_eq!(table.rows[0].cells[0].row_span, 2);
        assert_eq!(table.rows[0].cells[1].col_span, 2);
        assert_eq!(table.rows[1].cells.len(), 2);
    }
}
