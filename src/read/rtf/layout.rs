//! Page and paragraph geometry for the page estimate (`read::pagefit`): RTF saves no
//! layout, so every page after the first explicit break is estimated from these.
//!
//! Lengths are twips, font sizes half-points (RTF 1.9.1). Document formatting
//! (`\paperw`, `\margl`, ...) is the default of every section; section formatting
//! (`\pgwsxn`, `\marglsxn`, `\cols`, ...) applies from there to the section's `\sect`,
//! and `\sectd` returns to the document's. Paragraph words (`\sb`, `\sl`, `\li`,
//! `\keepn`, ...) are reset by `\pard`; the font size (`\fs`) by `\plain`.

use crate::model::{Block, Inline};
use crate::read::pagefit::{
    LineSpacing, Measure, PageBox, ParaMeasure, ParaMetrics, Section, TableMeasure, What,
};

use super::keywords::Kw;

/// RTF's default font size when a file sets none (`\fs24`: 12 points).
pub(crate) const DEFAULT_FONT_SIZE: u16 = 24;

/// A page's size and margins, twips, and its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Geometry {
    width: i32,
    height: i32,
    /// Top, right, bottom, left.
    margins: [i32; 4],
    columns: i32,
    gap: i32,
}

impl Default for Geometry {
    /// The spec's defaults: `\paperw12240 \paperh15840` (US Letter), `\margl1800
    /// \margr1800 \margt1440 \margb1440`, one column, `\colsx720`.
    fn default() -> Self {
        Geometry {
            width: 12_240,
            height: 15_840,
            margins: [1_440, 1_800, 1_440, 1_800],
            columns: 1,
            gap: 720,
        }
    }
}

impl Geometry {
    fn page_box(&self) -> PageBox {
        let len = |v: i32| u32::try_from(v).unwrap_or(0);
        PageBox::from_page(
            len(self.width),
            len(self.height),
            self.margins.map(len),
            u16::try_from(self.columns.clamp(1, 45)).unwrap_or(1),
            len(self.gap),
        )
    }

    /// Sets the length `kw` names; false for a word that is not a page length.
    fn set(&mut self, kw: Kw, n: i32) -> bool {
        match kw {
            Kw::Paperw | Kw::Pgwsxn => self.width = n,
            Kw::Paperh | Kw::Pghsxn => self.height = n,
            Kw::Margt | Kw::Margtsxn => self.margins[0] = n,
            Kw::Margr | Kw::Margrsxn => self.margins[1] = n,
            Kw::Margb | Kw::Margbsxn => self.margins[2] = n,
            Kw::Margl | Kw::Marglsxn => self.margins[3] = n,
            Kw::Cols => self.columns = n,
            Kw::Colsx => self.gap = n,
            _ => return false,
        }
        true
    }
}

/// A paragraph's spacing, indents and keep flags as its words set them (reset by
/// `\pard`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ParaLayout {
    /// `\sbN`, `\saN`: space before and after.
    before: i32,
    after: i32,
    /// `\slN`: 0 = single; positive = at least, negative = exactly its magnitude;
    /// with `\slmult1` a multiple of single spacing in 240ths.
    line: i32,
    multiple: bool,
    /// `\liN` / `\linN`, `\riN` / `\rinN`, `\fiN`.
    left: i32,
    right: i32,
    first: i32,
    /// `\keepn`, `\keep`.
    keep_next: bool,
    keep: bool,
}

impl ParaLayout {
    /// Applies a paragraph word; false for a word that is not one.
    pub(crate) fn set(&mut self, kw: Kw, n: i32, on: bool) -> bool {
        match kw {
            Kw::Sb => self.before = n,
            Kw::Sa => self.after = n,
            Kw::Sl => self.line = n,
            Kw::Slmult => self.multiple = on,
            Kw::Li => self.left = n,
            Kw::Ri => self.right = n,
            Kw::Fi => self.first = n,
            Kw::Keepn => self.keep_next = on,
            Kw::Keep => self.keep = on,
            _ => return false,
        }
        true
    }

    /// The estimate's view of a paragraph in this layout whose text is `size`
    /// half-points.
    pub(crate) fn metrics(&self, size: u16) -> ParaMetrics {
        let len = |v: i32| u32::try_from(v.clamp(0, 31_680)).unwrap_or(0);
        let line = match (self.line, self.multiple) {
            (0, _) => LineSpacing::Auto(240),
            (n, true) => LineSpacing::Auto(len(n.saturating_abs())),
            (n, false) if n < 0 => LineSpacing::Exact(len(n.saturating_abs())),
            (n, false) => LineSpacing::AtLeast(len(n)),
        };
        let indent = |v: i32| v.clamp(-31_680, 31_680);
        ParaMetrics {
            font: size.clamp(2, 3_276),
            line,
            before: len(self.before),
            after: len(self.after),
            indent: indent(self.left) + indent(self.right),
            first_line: indent(self.first),
            keep_next: self.keep_next,
            ..ParaMetrics::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extreme_line_spacing_is_clamped_not_wrapped() {
        let mut l = ParaLayout::default();
        l.set(Kw::Sl, i32::MIN, true);
        l.set(Kw::Slmult, 1, true);
        assert_eq!(l.metrics(24).line, LineSpacing::Auto(31_680));
        l.set(Kw::Slmult, 0, false);
        assert_eq!(l.metrics(24).line, LineSpacing::Exact(31_680));
    }
}

/// The body's page geometry and measures, gathered while reading.
#[derive(Debug, Default)]
pub(crate) struct Layout {
    document: Geometry,
    section: Geometry,
    /// The sections ended so far (`\sect`).
    pub sections: Vec<Section>,
    /// The top-level paragraphs of the body, measured.
    pub measures: Vec<Measure>,
    /// The top-level table being read: row heights from its cells' paragraphs at
    /// their widths (`\cellx`) and metrics.
    table: TableMeasure,
    /// A cell of `table` has started and not ended.
    in_cell: bool,
    /// Row heights of the top-level tables read, in order.
    tables: Vec<Vec<u32>>,
}

impl Layout {
    /// A page word: document words set the document's default and the current
    /// section's (a file without `\sectd` has one section in the document's
    /// geometry); section words the current section's. False for any other word.
    pub(crate) fn page_word(&mut self, kw: Kw, n: i32) -> bool {
        let document = matches!(
            kw,
            Kw::Paperw | Kw::Paperh | Kw::Margl | Kw::Margr | Kw::Margt | Kw::Margb
        );
        if document {
            self.document.set(kw, n);
        }
        self.section.set(kw, n)
    }

    /// `\sectd`: the section's geometry returns to the document's.
    pub(crate) fn section_defaults(&mut self) {
        self.section = self.document;
    }

    /// `\sect` in the body (and the end of the document): the section ends.
    pub(crate) fn end_section(&mut self) {
        self.end_table();
        self.sections.push(Section {
            page: self.section.page_box(),
            rendered: false,
        });
    }

    /// A paragraph ended in a cell of a top-level table whose width (twips, from
    /// `\cellx`) is `width` when the row defines it.
    pub(crate) fn cell_paragraph(
        &mut self,
        width: Option<i32>,
        inlines: &[Inline],
        layout: &ParaLayout,
        size: u16,
    ) {
        if !self.in_cell {
            self.table
                .start_cell(1, width.and_then(|w| u32::try_from(w).ok()));
            self.in_cell = true;
        }
        let m = layout.metrics(size);
        self.table.paragraph(inlines, &m, 0);
    }

    /// `\cell` of a top-level table.
    pub(crate) fn end_cell(&mut self) {
        if self.in_cell {
            self.table.end_cell();
            self.in_cell = false;
        }
    }

    /// `\row` of a top-level table.
    pub(crate) fn end_row(&mut self) {
        self.end_cell();
        self.table.end_row(0);
    }

    /// The top-level table being read (if any) has ended.
    fn end_table(&mut self) {
        self.in_cell = false;
        let rows = std::mem::take(&mut self.table).rows;
        if !rows.is_empty() {
            self.tables.push(rows);
        }
    }

    /// The measures of the body `body` in block order: the paragraphs' and, for each
    /// top-level table, its row heights (the tables read, in order; a table whose rows
    /// do not match what was measured is measured from its text by the estimate).
    pub(crate) fn take_measures(&mut self, body: &[Block]) -> Vec<Measure> {
        self.end_table();
        let mut tables = std::mem::take(&mut self.tables).into_iter();
        let mut paragraphs = std::mem::take(&mut self.measures).into_iter().peekable();
        let mut out = Vec::new();
        for (i, b) in body.iter().enumerate() {
            while let Some(m) = paragraphs.next_if(|m| m.at <= i) {
                out.push(m);
            }
            if let Block::Table(t) = b {
                let rows = tables.next().unwrap_or_default();
                if rows.len() == t.rows.len() {
                    out.push(Measure {
                        at: i,
                        what: What::Table { rows },
                    });
                }
            }
        }
        out.extend(paragraphs);
        out
    }

    /// A top-level paragraph of the body ended at block `at` (for a blank one, the
    /// index of the block after it).
    pub(crate) fn paragraph(&mut self, at: usize, layout: &ParaLayout, size: u16, blank: bool) {
        self.end_table();
        self.measures.push(Measure {
            at,
            what: What::Para(ParaMeasure {
                metrics: layout.metrics(size),
                blank,
                images: 0,
                keep_lines: layout.keep,
                contextual: false,
                style: 0,
            }),
        });
    }
}
