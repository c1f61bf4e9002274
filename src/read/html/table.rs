//! Tables (HTML Standard 4.9 and its table processing model, 4.9.12): rows from
//! `thead`, `tbody`, `tfoot` and bare `tr`, cells with `colspan` and `rowspan`.
//!
//! The model's table is HTML's own shape (covered cells omitted, a spanning cell
//! carries its spans), so cells pass through; what the reader resolves is:
//! - row order: `thead` rows first and `tfoot` rows last, wherever they are written
//!   (as a browser renders them);
//! - header rows: the `thead` rows, else the leading rows whose cells are all `th`;
//! - spans: `colspan` 1..=1000 and `rowspan` 0..=65534 as the standard clamps them,
//!   `rowspan="0"` reaching to the end of its row group, and a row span never
//!   reaching past its row group (a group is a `thead`, `tbody` or `tfoot`, or a run
//!   of bare rows);
//! - a layout table is replaced by its cells' content in reading order (row by row),
//!   and a table without cells disappears (its caption stays). Layout tables are
//!   told from data tables roughly as browsers tell them for accessibility (Gecko's
//!   `HTMLTableAccessible::IsProbablyLayoutTable`): `role="presentation"`/`"none"`
//!   makes a layout table; a caption, `thead` or `th` makes a data table; otherwise
//!   a table holding another table, or with a single row or a single column, is
//!   layout. Layout tables nest pages out of boxes; read as tables they would make
//!   one giant row that no chunk can hold.

use crate::model::{Block, Cell, Row, Table};

/// Where a row sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Group {
    Head,
    Body,
    Foot,
}

struct RowBuild {
    cells: Vec<(Cell, bool)>,
    group: Group,
    /// Index of the row group (a `thead`/`tbody`/`tfoot` element or a run of bare rows).
    group_id: usize,
}

/// A table being read.
pub(super) struct TableBuild {
    rows: Vec<RowBuild>,
    group: Group,
    group_id: usize,
    in_group: bool,
    row_open: bool,
    /// Caption blocks.
    pub caption: Vec<Block>,
    /// `role="presentation"` or `role="none"`.
    pub presentation: bool,
    /// A caption, `thead` or `th` was seen.
    pub header_markup: bool,
}

impl TableBuild {
    pub fn new() -> Self {
        TableBuild {
            rows: Vec::new(),
            group: Group::Body,
            group_id: 0,
            in_group: false,
            row_open: false,
            caption: Vec::new(),
            presentation: false,
            header_markup: false,
        }
    }

    /// `<thead>`, `<tbody>` or `<tfoot>` starts.
    pub fn open_group(&mut self, g: Group) {
        self.header_markup |= g == Group::Head;
        self.group = g;
        self.group_id += 1;
        self.in_group = true;
        self.row_open = false;
    }

    /// The row group ends.
    pub fn close_group(&mut self) {
        self.group = Group::Body;
        self.group_id += 1;
        self.in_group = false;
        self.row_open = false;
    }

    /// `<tr>` starts.
    pub fn open_row(&mut self) {
        self.rows.push(RowBuild {
            cells: Vec::new(),
            group: self.group,
            group_id: self.group_id,
        });
        self.row_open = true;
    }

    /// `<tr>` ends.
    pub fn close_row(&mut self) {
        self.row_open = false;
    }

    /// A cell ends with its content; `th` for header cells; spans as written.
    pub fn cell(
        &mut self,
        blocks: Vec<Block>,
        colspan: Option<&str>,
        rowspan: Option<&str>,
        th: bool,
    ) {
        if !self.row_open {
            self.open_row();
        }
        self.header_markup |= th;
        let col_span = parse_span(colspan).unwrap_or(1).clamp(1, 1000);
        // 0 = to the end of the row group, resolved in `finish`.
        let row_span = parse_span(rowspan).unwrap_or(1).min(65534);
        if let Some(row) = self.rows.last_mut() {
            row.cells.push((
                Cell {
                    blocks,
                    col_span,
                    row_span,
                },
                th,
            ));
        }
    }

    /// Whether this is a layout table (see the module docs).
    fn is_layout(&self) -> bool {
        if self.presentation {
            return true;
        }
        if self.header_markup {
            return false;
        }
        let columns = self
            .rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|(c, _)| c.col_span as usize)
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        let rows = self.rows.iter().filter(|r| !r.cells.is_empty()).count();
        let nested = self.rows.iter().any(|r| {
            r.cells
                .iter()
                .any(|(c, _)| c.blocks.iter().any(|b| matches!(b, Block::Table(_))))
        });
        nested || rows <= 1 || columns <= 1
    }

    /// The finished table as blocks: the caption, then the table (or the content of a
    /// layout table, or nothing for a table without cells).
    pub fn finish(mut self) -> Vec<Block> {
        let layout = self.is_layout();
        let mut out = std::mem::take(&mut self.caption);
        let cells: usize = self.rows.iter().map(|r| r.cells.len()).sum();
        if cells == 0 {
            return out;
        }
        if layout {
            for row in self.rows {
                for (cell, _) in row.cells {
                    out.extend(cell.blocks);
                }
            }
            return out;
        }
        let mut rows = self.rows;
        // thead first, tfoot last; the sort is stable.
        crate::order::sort_by_key(&mut rows, |r| match r.group {
            Group::Head => 0,
            Group::Body => 1,
            Group::Foot => 2,
        });
        // Row spans end at their group's last row (groups are contiguous after the
        // stable sort); `left[i]` = rows from i to the end of its group.
        let n = rows.len();
        let mut left = vec![1u32; n];
        for i in (0..n.saturating_sub(1)).rev() {
            let same = rows.get(i).map(|r| r.group_id) == rows.get(i + 1).map(|r| r.group_id);
            if same {
                let next = left.get(i + 1).copied().unwrap_or(1);
                if let Some(l) = left.get_mut(i) {
                    *l = next.saturating_add(1);
                }
            }
        }
        for (r, &left) in rows.iter_mut().zip(&left) {
            for (c, _) in &mut r.cells {
                if c.row_span == 0 || c.row_span > left {
                    c.row_span = left;
                }
            }
        }
        let has_thead = rows.iter().any(|r| r.group == Group::Head);
        let mut leading_th = true;
        let mut model_rows = Vec::with_capacity(n);
        for r in rows {
            let all_th = !r.cells.is_empty() && r.cells.iter().all(|(_, th)| *th);
            leading_th &= all_th;
            let header = if has_thead {
                r.group == Group::Head
            } else {
                leading_th
            };
            model_rows.push(Row {
                cells: r.cells.into_iter().map(|(c, _)| c).collect(),
                header,
                revision: None,
            });
        }
        // A table of header rows only has no header: keep its rows as data.
        if model_rows.iter().all(|r| r.header) {
            for r in &mut model_rows {
                r.header = false;
            }
        }
        out.push(Block::Table(Table { rows: model_rows }));
        out
    }
}

/// A span attribute: the HTML Standard's rules for parsing non-negative integers
/// (leading white space, digits, anything after ignored).
fn parse_span(v: Option<&str>) -> Option<u32> {
    let v = v?.trim_start();
    let digits: String = v.chars().take_while(char::is_ascii_digit).take(9).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Inline, Paragraph};

    fn p(s: &str) -> Vec<Block> {
        vec![Block::Paragraph(Paragraph {
            kind: Default::default(),
            inlines: vec![Inline::Text {
                text: s.into(),
                style: Default::default(),
            }],
        })]
    }

    #[test]
    fn spans_clamp_to_group_and_headers() {
        let mut t = TableBuild::new();
        t.open_group(Group::Body);
        t.open_row();
        t.cell(p("a"), None, Some("0"), false);
        t.cell(p("b"), Some("2x"), Some("9"), false);
        t.open_row();
        t.cell(p("c"), None, None, false);
        t.close_group();
        t.open_group(Group::Head);
        t.open_row();
        t.cell(p("H"), Some("3"), None, true);
        t.close_group();
        let blocks = t.finish();
        let Some(Block::Table(table)) = blocks.first() else {
            panic!("no table")
        };
        assert!(table.rows[0].header && !table.rows[1].header);
        assert_eq!(table.rows[0].cells[0].col_span, 3);
        assert_eq!(table.rows[1].cells[0].row_span, 2);
        assert_eq!(table.rows[1].cells[1].row_span, 2);
        assert_eq!(table.rows[1].cells[1].col_span, 2);
    }

    #[test]
    fn layout_tables_unwrap() {
        let mut t = TableBuild::new();
        t.open_row();
        t.cell(p("only"), None, None, false);
        assert!(matches!(t.finish().as_slice(), [Block::Paragraph(_)]));
        // One row of two cells: layout; the same with a th: data.
        for (th, table) in [(false, false), (true, true)] {
            let mut t = TableBuild::new();
            t.open_row();
            t.cell(p("a"), None, None, th);
            t.cell(p("b"), None, None, false);
            let out = t.finish();
            assert_eq!(matches!(out.as_slice(), [Block::Table(_)]), table);
        }
        // role=presentation wins over everything.
        let mut t = TableBuild::new();
        t.presentation = true;
        t.open_row();
        t.cell(p("a"), None, None, true);
        t.open_row();
        t.cell(p("b"), None, None, true);
        assert_eq!(t.finish().len(), 2);
    }
}
