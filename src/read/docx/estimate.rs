//! Estimated page starts for the sections Word did not lay out.
//!
//! While reading the main story the reader measures each top-level paragraph and
//! table ([`Measure`]: metrics through the style chain, drawing heights, the table
//! grid). Once the sections' page boxes are known (`w:sectPr` comes at a section's
//! end), [`paginate`] fills pages with `read::pagefit` and inserts the page breaks it
//! predicts: a [`Block::PageBreak`] before a block that does not fit, an
//! [`Inline::PageBreak`] between the words of a paragraph that flows onto the next page,
//! a break at the start of the first cell of a table row that does not fit.
//!
//! Which sections are estimated ([`PageMode::Auto`]): Word writes a rendered break at
//! the start of every page after the first of each section it laid out, so a section
//! with none after one that has some is a part Word never paginated (layout info stops
//! part way, or a tool added it). Sections up to the last one with rendered breaks keep
//! Word's pages; the ones after it, or all of them when there are none, are estimated.
//! Explicit breaks and new-page sections always start a page.

use crate::model::{Block, Inline, PageSource, Pagination, Table};
use crate::options::PageMode;
use crate::read::pagefit::{
    Cursor, Extent, PageBox, ParaMetrics, Start, Wrap, is_wide as glyphs_wide,
};

use super::layout_props::LayoutProps;
use super::pages::breaks_in;
use super::sections::SectProps;

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
    /// Grid column widths (17.4.16 `w:gridCol`), twips.
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
    /// The paragraph layout of the table's style (`w:tblStyle`).
    pub style: LayoutProps,
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
fn quick_lines(inlines: &[Inline], m: &ParaMetrics, column: u32) -> u32 {
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
fn paragraph_lines(inlines: &[Inline], m: &ParaMetrics, column: u32) -> u32 {
    segments(inlines, m, column).iter().map(|s| s.lines).sum()
}

/// The segments of a paragraph between its page breaks.
fn segments(inlines: &[Inline], m: &ParaMetrics, column: u32) -> Vec<Seg> {
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
const CELL_MARGINS: u32 = 216;

/// The first section (0-based) whose pages are estimated, or `None`.
fn first_estimated(sections: &[SectProps], mode: PageMode) -> Option<usize> {
    match mode {
        PageMode::Saved => None,
        PageMode::Estimate => Some(0),
        PageMode::Auto => Some(
            sections
                .iter()
                .rposition(|s| s.rendered_marks > 0)
                .map_or(0, |k| k + 1),
        ),
    }
}

/// Inserts the estimated page breaks into `body` (top-level blocks) and says where
/// its page numbers come from. `fallback` measures blocks read without a measure
/// (altChunk content). At most `max_pages` pages are made.
pub(crate) fn paginate(
    body: Vec<Block>,
    measures: &[Measure],
    sections: &[SectProps],
    mode: PageMode,
    fallback: ParaMetrics,
    max_pages: u64,
) -> (Vec<Block>, Pagination) {
    let rendered = mode != PageMode::Estimate && sections.iter().any(|s| s.rendered_marks > 0);
    let mut pagination = Pagination {
        source: if rendered {
            PageSource::Rendered
        } else {
            PageSource::Explicit
        },
        estimated_from: None,
    };
    let Some(from) = first_estimated(sections, mode).filter(|k| *k < sections.len().max(1)) else {
        return (body, pagination);
    };
    let boxes: Vec<PageBox> = sections.iter().map(SectProps::page_box).collect();
    let page_box = |k: usize| {
        boxes
            .get(k)
            .or(boxes.last())
            .copied()
            .unwrap_or(PageBox::LETTER)
    };
    let budget = u32::try_from(max_pages).unwrap_or(u32::MAX);
    let mut w = Walk {
        cursor: Cursor::new(page_box(from)),
        page: 1,
        max_pages: u32::try_from(max_pages).unwrap_or(u32::MAX),
        first_estimate: None,
        prev: None,
        fallback,
        out: Vec::with_capacity(body.len() + body.len() / 16),
    };
    w.cursor.budget = budget;
    let mut section = 0usize;
    let mut next = 0usize;
    for (i, block) in body.into_iter().enumerate() {
        let active = section >= from;
        while measures.get(next).is_some_and(|m| m.at < i) {
            next += 1;
        }
        let mut own = None;
        while let Some(m) = measures.get(next).filter(|m| m.at == i) {
            next += 1;
            match &m.what {
                What::Para(p) if p.blank => {
                    if active {
                        w.blank(*p);
                    }
                }
                what => {
                    if own.is_none() {
                        own = Some(what);
                    }
                }
            }
        }
        match block {
            Block::PageBreak => {
                w.page += 1;
                w.cursor.break_page(page_box(section));
                w.prev = None;
                w.out.push(Block::PageBreak);
            }
            Block::SectionBreak { new_page } => {
                section += 1;
                if new_page {
                    w.page += 1;
                    w.cursor.break_page(page_box(section));
                } else if section == from {
                    // Where Word's layout left the page is unknown: start afresh.
                    w.cursor = Cursor::new(page_box(section));
                    w.cursor.budget = budget;
                } else {
                    w.cursor.set_box(page_box(section));
                }
                w.prev = None;
                w.out.push(Block::SectionBreak { new_page });
            }
            Block::Paragraph(p) if active => {
                let m = match own {
                    Some(What::Para(m)) => *m,
                    _ => w.default_measure(),
                };
                w.paragraph(p, m, page_box(section));
            }
            Block::Table(t) if active => {
                let rows = match own {
                    Some(What::Table { rows }) => rows.as_slice(),
                    _ => &[],
                };
                w.table(t, rows);
            }
            other if active => {
                // Content from an imported part (altChunk): its text at the defaults.
                let mut text = String::new();
                other.plain_text(&mut text);
                let m = w.default_measure();
                let ext = w.extent(
                    &m,
                    &[Seg::of_text(&text, &m.metrics, w.cursor.column_width())],
                );
                w.page += breaks_in(&other) as u32;
                if w.place_before(ext[0]) {
                    w.out.push(Block::PageBreak);
                }
                w.out.push(other);
            }
            other => {
                w.page += breaks_in(&other) as u32;
                w.out.push(other);
            }
        }
    }
    pagination.estimated_from = w.first_estimate;
    (w.out, pagination)
}

/// The state of one pass over the body.
struct Walk {
    cursor: Cursor,
    /// The current page, 1-based, counted as the chunker counts.
    page: u32,
    max_pages: u32,
    first_estimate: Option<u32>,
    /// The paragraph placed last: its index in `out`, measure, extent, and whether
    /// its page started with it (keep-with-next moves it only when not).
    prev: Option<(usize, ParaMeasure, Extent, bool)>,
    fallback: ParaMetrics,
    out: Vec<Block>,
}

/// A piece of a paragraph between explicit page breaks.
#[derive(Debug, Clone, Copy)]
struct Seg {
    /// Characters of text (for placing a break between words).
    chars: usize,
    /// Lines it takes.
    lines: u32,
}

impl Seg {
    fn of_text(text: &str, m: &ParaMetrics, column: u32) -> Seg {
        let mut wrap = Wrap::new(m, column);
        for (n, line) in text.split('\n').enumerate() {
            if n > 0 {
                wrap.line_break();
            }
            wrap.text(line, false);
        }
        Seg::close(&mut wrap)
    }

    fn close(wrap: &mut Wrap) -> Seg {
        let chars = wrap.chars;
        Seg {
            chars,
            lines: wrap.finish(),
        }
    }
}

impl Walk {
    fn default_measure(&self) -> ParaMeasure {
        ParaMeasure {
            metrics: self.fallback,
            blank: false,
            images: 0,
            keep_lines: false,
            contextual: false,
            style: 0,
        }
    }

    /// A new estimated page starts; false when the page limit is reached.
    fn new_page(&mut self) -> bool {
        if self.page >= self.max_pages {
            return false;
        }
        self.page += 1;
        self.first_estimate.get_or_insert(self.page);
        true
    }

    /// The extents of a paragraph's segments.
    fn extent(&self, m: &ParaMeasure, segs: &[Seg]) -> Vec<Extent> {
        let gap = match self.prev {
            Some((_, p, _, _)) if m.contextual && p.contextual && p.style == m.style => 0,
            Some((_, p, _, _)) => p.metrics.after.saturating_add(m.metrics.before),
            None => m.metrics.before,
        };
        segs.iter()
            .enumerate()
            .map(|(n, s)| Extent {
                gap: if n == 0 { gap } else { 0 },
                line: m.metrics.line_height(),
                lines: s.lines,
                fixed: if n == 0 { m.images } else { 0 },
                splits: !m.keep_lines,
            })
            .collect()
    }

    /// An empty paragraph: one line of its font.
    fn blank(&mut self, m: ParaMeasure) {
        let ext = self.extent(&m, &[Seg { chars: 0, lines: 1 }])[0];
        if self.place_before(ext) {
            self.out.push(Block::PageBreak);
        }
        self.prev = Some((self.out.len(), m, ext, false));
    }

    /// Places a block that can only move whole; true when a new page starts before it
    /// (the caller inserts the break).
    fn place_before(&mut self, ext: Extent) -> bool {
        let starts = self.cursor.place(Extent {
            splits: false,
            ..ext
        });
        !starts.is_empty() && self.new_page()
    }

    fn paragraph(&mut self, mut p: crate::model::Paragraph, m: ParaMeasure, page: PageBox) {
        let column = self.cursor.column_width();
        let segs = segments(&p.inlines, &m.metrics, column);
        let exts = self.extent(&m, &segs);
        let mut offsets = Vec::new();
        let mut before = false;
        let mut moved_prev = false;
        let mut seg_start = 0usize;
        for (n, (seg, ext)) in segs.iter().zip(&exts).enumerate() {
            if n > 0 {
                // An explicit break inside the paragraph.
                self.page += 1;
                self.cursor.break_page(page);
            }
            let mut starts = self.cursor.place(*ext);
            if n == 0 && starts.first() == Some(&Start::Before) {
                // Keep with next (17.3.1.15): the paragraph before moves too, when it
                // did not start its page and the two fit on one.
                if let Some((at, prev, prev_ext, false)) = self.prev {
                    if prev.metrics.keep_next && at < self.out.len() {
                        let mut trial = self.cursor.clone();
                        trial.break_page(page);
                        let fits = trial
                            .place(Extent {
                                splits: false,
                                ..prev_ext
                            })
                            .is_empty()
                            && trial
                                .place(Extent {
                                    splits: false,
                                    ..*ext
                                })
                                .is_empty();
                        if fits {
                            self.cursor.break_page(page);
                            self.cursor.place(prev_ext);
                            starts = self.cursor.place(*ext);
                            if self.new_page() {
                                self.out.insert(at, Block::PageBreak);
                            }
                            moved_prev = true;
                        }
                    }
                }
            }
            for s in starts {
                match s {
                    Start::Before if n == 0 && !moved_prev => {
                        before = self.new_page();
                    }
                    Start::Before => {}
                    Start::AfterLines(k) => {
                        if self.new_page() {
                            // u64: chars x lines passes 2^32 on wasm32.
                            let lines = u64::from(seg.lines.max(1));
                            let k = u64::from(k).min(lines);
                            let at = seg.chars as u64 * k / lines;
                            offsets.push(seg_start + at as usize);
                        }
                    }
                }
            }
            seg_start += seg.chars;
        }
        if !offsets.is_empty() {
            p.inlines = insert_breaks(std::mem::take(&mut p.inlines), &offsets);
        }
        if before {
            self.out.push(Block::PageBreak);
        }
        let started = before || moved_prev;
        self.prev = Some((
            self.out.len(),
            m,
            exts.last().copied().unwrap_or(exts[0]),
            started,
        ));
        self.out.push(Block::Paragraph(p));
    }

    /// A table, row by row: `rows` are the heights measured while reading (else
    /// each row is measured here from its text at the default paragraph metrics).
    fn table(&mut self, mut t: Table, rows: &[u32]) {
        let column = self.cursor.column_width();
        let gap = self.prev.map_or(0, |(_, p, _, _)| p.metrics.after);
        let measured = rows.len() == t.rows.len();
        let (mut header_rows, mut header_height) = (0usize, 0u32);
        for (r, row) in t.rows.iter_mut().enumerate() {
            let height = if measured {
                rows[r]
            } else {
                let n = row
                    .cells
                    .iter()
                    .map(|c| c.col_span.max(1))
                    .sum::<u32>()
                    .max(1);
                let mut m = TableMeasure::default();
                for c in &row.cells {
                    m.start_cell(1, Some(column / n * c.col_span.max(1)));
                    for b in &c.blocks {
                        if let Block::Paragraph(p) = b {
                            m.paragraph(&p.inlines, &self.fallback, 0);
                        }
                    }
                    m.end_cell();
                }
                m.row
            };
            // A row flows onto the next page line by line when it is taller than
            // what is left (rows split unless `w:cantSplit`); its height in lines of
            // the default paragraph.
            let unit = self.fallback.line_height().max(1);
            let tall = height > self.cursor.page_height();
            let ext = Extent {
                gap: if r == 0 { gap } else { 0 },
                line: if tall { unit } else { height.max(unit) },
                lines: if tall { height.div_ceil(unit) } else { 1 },
                fixed: 0,
                splits: false,
            };
            self.page += row
                .cells
                .iter()
                .flat_map(|c| &c.blocks)
                .map(breaks_in)
                .sum::<usize>() as u32;
            if row.header && r == header_rows {
                header_rows += 1;
                header_height = header_height.saturating_add(ext.line * ext.lines);
            }
            let starts = self.cursor.place(ext);
            if row.cells.is_empty() {
                continue;
            }
            for (n, s) in starts.iter().enumerate() {
                if !self.new_page() {
                    break;
                }
                // The first page start goes before the row when it moves whole, the
                // others (a row longer than a page) after its text.
                let last = row.cells.len() - 1;
                match (n, s) {
                    (0, Start::Before) => row.cells[0].blocks.insert(0, Block::PageBreak),
                    _ => row.cells[last].blocks.push(Block::PageBreak),
                }
            }
            if !starts.is_empty() && r >= header_rows && header_height > 0 {
                // Header rows repeat at the top of each page (17.4.49 `w:tblHeader`).
                let header = Extent {
                    line: header_height.max(1),
                    lines: 1,
                    gap: 0,
                    ..ext
                };
                if !self.cursor.place(header).is_empty() {
                    self.new_page();
                }
            }
        }
        self.prev = None;
        self.out.push(Block::Table(t));
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
fn counts(i: &Inline) -> (usize, u32) {
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

/// Characters past a break offset searched for a word boundary before the break is
/// placed inside the word (a run of text with no space, as a hostile file may have).
const LONGEST_WORD: usize = 200;

/// `inlines` with an [`Inline::PageBreak`] at each of `offsets` (characters of the
/// paragraph's text, ascending): at the first break opportunity at or after it (after
/// a space, before an ideograph), or after the inline holding it when that is a link,
/// change or field. One pass, one break per offset.
fn insert_breaks(inlines: Vec<Inline>, offsets: &[usize]) -> Vec<Inline> {
    let mut out = Vec::with_capacity(inlines.len() + 2 * offsets.len());
    let mut next = offsets.iter().copied().peekable();
    let mut seen = 0usize;
    for inline in inlines {
        let (n, _) = counts(&inline);
        let Inline::Text { text, style } = inline else {
            out.push(inline);
            while next.next_if(|o| *o < seen + n).is_some() {
                out.push(Inline::PageBreak);
            }
            seen += n;
            continue;
        };
        // Breaks owed (offsets passed) and the byte where the current piece starts.
        let (mut owed, mut since, mut start) = (0usize, 0usize, 0usize);
        for (ci, (b, c)) in text.char_indices().enumerate() {
            while next.next_if(|o| *o <= seen + ci).is_some() {
                owed += 1;
            }
            if owed == 0 {
                continue;
            }
            let before_wide = glyphs_wide(c) && b > start;
            if before_wide || since >= LONGEST_WORD {
                out.push(Inline::Text {
                    text: text[start..b].to_string(),
                    style,
                });
                out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
                (owed, since, start) = (0, 0, b);
            } else if c.is_whitespace() {
                let end = b + c.len_utf8();
                out.push(Inline::Text {
                    text: text[start..end].to_string(),
                    style,
                });
                out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
                (owed, since, start) = (0, 0, end);
            } else {
                since += 1;
            }
        }
        if start < text.len() {
            out.push(Inline::Text {
                text: text[start..].to_string(),
                style,
            });
        }
        out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
        seen += n;
    }
    out.extend(next.map(|_| Inline::PageBreak));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Paragraph, TextStyle};

    fn text(s: &str) -> Inline {
        Inline::Text {
            text: s.into(),
            style: TextStyle::default(),
        }
    }

    #[test]
    fn a_break_goes_between_words_or_before_an_ideograph() {
        let v = insert_breaks(vec![text("alpha beta gamma")], &[7]);
        assert_eq!(
            v,
            vec![text("alpha beta "), Inline::PageBreak, text("gamma")]
        );
        let v = insert_breaks(vec![text("alpha"), text("beta")], &[2]);
        assert_eq!(v, vec![text("alpha"), Inline::PageBreak, text("beta")]);
        let v = insert_breaks(vec![text("文档检索工具")], &[2]);
        assert_eq!(v, vec![text("文档"), Inline::PageBreak, text("检索工具")]);
        // Two offsets, one pass; one past the end still gives its break.
        let v = insert_breaks(vec![text("a b c d")], &[1, 5, 99]);
        assert_eq!(
            v,
            vec![
                text("a "),
                Inline::PageBreak,
                text("b c "),
                Inline::PageBreak,
                text("d"),
                Inline::PageBreak
            ]
        );
        // A word longer than LONGEST_WORD is broken inside.
        let long = "x".repeat(500);
        let v = insert_breaks(vec![text(&long)], &[10]);
        assert_eq!(v.len(), 3);
        assert_eq!(v[1], Inline::PageBreak);
    }

    fn para(words: usize) -> Block {
        Block::Paragraph(Paragraph {
            kind: Default::default(),
            inlines: vec![text(&"lorem ipsum ".repeat(words / 2))],
        })
    }

    fn pages(body: &[Block]) -> usize {
        1 + body.iter().map(breaks_in).sum::<usize>()
    }

    #[test]
    fn text_that_overflows_a_page_gets_estimated_breaks_and_a_smaller_page_gets_more() {
        let body: Vec<Block> = (0..60).map(|_| para(120)).collect();
        let fallback = ParaMetrics {
            font: 22,
            after: 160,
            ..ParaMetrics::default()
        };
        let letter = SectProps::default();
        let (out, p) = paginate(
            body.clone(),
            &[],
            &[letter.clone()],
            PageMode::Auto,
            fallback,
            1_000,
        );
        let a = pages(&out);
        assert!(a > 5, "{a} pages");
        assert_eq!(p.source, PageSource::Explicit);
        assert_eq!(p.estimated_from, Some(2));
        let half = SectProps {
            size: Some((8_390, 11_905)),
            ..letter.clone()
        };
        let (out, _) = paginate(body.clone(), &[], &[half], PageMode::Auto, fallback, 1_000);
        assert!(pages(&out) > a, "A5 {} vs Letter {a}", pages(&out));
        let (out, p) = paginate(body, &[], &[letter], PageMode::Saved, fallback, 1_000);
        assert_eq!((pages(&out), p.estimated_from), (1, None));
    }

    #[test]
    fn sections_word_laid_out_keep_their_pages() {
        let body: Vec<Block> = (0..60).map(|_| para(120)).collect();
        let laid = SectProps {
            rendered_marks: 3,
            ..SectProps::default()
        };
        let (out, p) = paginate(
            body,
            &[],
            &[laid],
            PageMode::Auto,
            ParaMetrics::default(),
            1_000,
        );
        assert_eq!(
            (pages(&out), p.source, p.estimated_from),
            (1, PageSource::Rendered, None)
        );
    }
}
