//! What the page estimate knows of a block, measured while a reader reads it: a
//! paragraph's metrics ([`ParaMeasure`]), a table's row heights ([`TableMeasure`]),
//! and the lines a paragraph's text takes in a column ([`segments`]).

use crate::model::Inline;

use super::{ParaMetrics, Wrap};

/// A top-level block of the main story as measured while reading.
#[derive(Debug, Clone)]
pub(crate) struct Measure {
    /// Index in the body of the block (for a blank paragraph, of the block after it).
    pub at: usize,
    /// What was measured.
    pub what: What,
}

/// The kinds of measured block.
#[derive(Debug, Clone)]
pub(crate) enum What {
    /// A paragraph.
    Para(ParaMeasure),
    /// A table: the height of each row, twips.
    Table { rows: Vec<u32> },
}

/// The top-level table being read: its grid and the rows measured so far. Cell
/// paragraphs add their height to `cell`; a row's height is its tallest cell's.
#[derive(Debug, Clone, Default)]
pub(crate) struct TableMeasure {
    /// Grid column widths (DOCX 17.4.16 `w:gridCol`, RTF `\cellx`), twips.
    pub grid: Vec<u32>,
    /// Grid column the next cell starts at.
    pub col: usize,
    /// Width of the cell being read, twips (0 = unknown: the fallback width).
    pub cell_width: u32,
    /// Height of the cell being read so far, twips.
    pub cell: u32,
    /// Height of the row being read so far, twips.
    pub row: u32,
    /// Heights of the rows read, twips.
    pub rows: Vec<u32>,
    /// Measure cell text by its length instead of wrapping it word by word (the file
    /// carries Word's layout, so heights only tell stale rendered breaks apart).
    pub quick: bool,
    /// Height of the rows read since the last page start counted inside this table,
    /// twips; `None` before the first.
    pub since_break: Option<u32>,
}

impl TableMeasure {
    /// A cell spanning `span` grid columns starts; `width` is its `w:tcW` in twips
    /// when given as `dxa`.
    pub(crate) fn start_cell(&mut self, span: usize, width: Option<u32>) {
        let from_grid: u32 = self.grid.iter().skip(self.col).take(span).sum();
        self.cell_width = width.filter(|w| *w > 0).unwrap_or(from_grid);
        self.col += span;
        self.cell = 0;
    }

    /// The cell ends.
    pub(crate) fn end_cell(&mut self) {
        self.row = self.row.max(self.cell);
    }

    /// A row ends; `min` is its `w:trHeight` (17.4.81), twips.
    pub(crate) fn end_row(&mut self, min: u32) {
        let h = self.row.max(min);
        self.rows.push(h);
        if let Some(s) = &mut self.since_break {
            *s = s.saturating_add(h);
        }
        self.row = 0;
        self.col = 0;
    }

    /// A paragraph of `inlines` in the current cell.
    pub(crate) fn paragraph(&mut self, inlines: &[Inline], m: &ParaMetrics, images: u32) {
        let width = if self.cell_width > 0 {
            self.cell_width
        } else {
            4_680
        };
        let inner = width.saturating_sub(CELL_MARGINS).max(360);
        let lines = if self.quick {
            quick_lines(inlines, m, inner)
        } else {
            paragraph_lines(inlines, m, inner)
        };
        let h = m
            .line_height()
            .saturating_mul(lines)
            .saturating_add(m.before)
            .saturating_add(m.after)
            .saturating_add(images);
        self.cell = self.cell.saturating_add(h);
    }
}

/// Lines of a paragraph from its length alone: characters at half an em each (in
/// its face), plus its line breaks.
pub(crate) fn quick_lines(inlines: &[Inline], m: &ParaMetrics, column: u32) -> u32 {
    let (chars, breaks) = inlines.iter().fold((0, 0), |(c, b), i| {
        let (ci, bi) = counts(i);
        (c + ci, b + bi)
    });
    // Half an em a character: font half-points x 10 / 2 twips, scaled by the face.
    let width = chars as u64 * u64::from(m.font) * 5 * u64::from(m.face.width) / 1_000;
    let lines = width.div_ceil(u64::from(column.max(1))).max(1);
    (lines.min(u64::from(u32::MAX / 2)) as u32).saturating_add(breaks)
}

/// Lines a paragraph of `inlines` takes in a column of `column` twips.
pub(crate) fn paragraph_lines(inlines: &[Inline], m: &ParaMetrics, column: u32) -> u32 {
    segments(inlines, m, column).iter().map(|s| s.lines).sum()
}

/// The segments of a paragraph between its page breaks.
pub(crate) fn segments(inlines: &[Inline], m: &ParaMetrics, column: u32) -> Vec<Seg> {
    let mut segs = Vec::new();
    let mut wrap = Wrap::new(m, column);
    measure_inlines(inlines, m, &mut wrap, &mut segs);
    segs.push(Seg::close(&mut wrap));
    segs
}

/// A paragraph's metrics.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParaMeasure {
    pub metrics: ParaMetrics,
    /// No block was made for it (an empty paragraph still takes a line).
    pub blank: bool,
    /// Drawing heights, twips.
    pub images: u32,
    /// `w:keepLines`: never split across pages.
    pub keep_lines: bool,
    /// `w:contextualSpacing`: no space between it and a paragraph of its style.
    pub contextual: bool,
    /// Its paragraph style (a hash of the id).
    pub style: u64,
}

/// Default cell margins left plus right (17.4.42 `w:tblCellMar`: 108 twips each side
/// in Word's default table style).
pub(crate) const CELL_MARGINS: u32 = 216;

/// A piece of a paragraph between explicit page breaks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seg {
    /// Characters of text (for placing a break between words).
    pub chars: usize,
    /// Lines it takes.
    pub lines: u32,
}

impl Seg {
    pub(crate) fn of_text(text: &str, m: &ParaMetrics, column: u32) -> Seg {
        let mut wrap = Wrap::new(m, column);
        for (n, line) in text.split('\n').enumerate() {
            if n > 0 {
                wrap.line_break();
            }
            wrap.text(line, false);
        }
        Seg::close(&mut wrap)
    }

    pub(crate) fn close(wrap: &mut Wrap) -> Seg {
        let chars = wrap.chars;
        Seg {
            chars,
            lines: wrap.finish(),
        }
    }
}

/// Reads `inlines` into `wrap`, closing a segment at each page break.
fn measure_inlines(inlines: &[Inline], m: &ParaMetrics, wrap: &mut Wrap, segs: &mut Vec<Seg>) {
    for i in inlines {
        match i {
            Inline::Text { text, style } => wrap.text(text, style.code),
            // A default tab stop every half inch (17.15.1.25 `w:defaultTabStop`).
            Inline::Tab => wrap.advance(720_000),
            Inline::LineBreak => wrap.line_break(),
            Inline::PageBreak => segs.push(Seg::close(wrap)),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => measure_inlines(children, m, wrap, segs),
            // The LaTeX source stands for the formula's width.
            Inline::Math { tex, .. } => wrap.text(tex, false),
            Inline::NoteRef { .. } => wrap.advance(u64::from(m.font) * 5_000),
            _ => {}
        }
    }
}

/// Characters of text in `i` (as [`measure_inlines`] counts them) and its line breaks.
pub(crate) fn counts(i: &Inline) -> (usize, u32) {
    match i {
        Inline::Text { text, .. } => (text.chars().count(), 0),
        Inline::LineBreak => (0, 1),
        Inline::Link { children, .. }
        | Inline::Revision { children, .. }
        | Inline::Field { children, .. } => children
            .iter()
            .map(counts)
            .fold((0, 0), |(c, b), (ci, bi)| (c + ci, b + bi)),
        _ => (0, 0),
    }
}
