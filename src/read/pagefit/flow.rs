//! Estimated page starts for a document read without a saved layout.
//!
//! While reading, a reader measures each top-level paragraph and table
//! ([`Measure`](super::measure::Measure)). Once the sections' page boxes are known,
//! [`paginate`] fills pages with [`Cursor`] and inserts the page breaks it predicts: a
//! [`Block::PageBreak`] before a block that does not fit, an
//! [`Inline::PageBreak`](crate::model::Inline::PageBreak)
//! between the words of a paragraph that flows onto the next page, a break at the start
//! of the first cell of a table row that does not fit.
//!
//! Which sections are estimated ([`PageMode::Auto`]): a word processor that laid a
//! section out marks where each of its pages after the first starts, so a section with
//! no marks after one that has some is a part it never paginated (layout info stops
//! part way, or a tool added it). Sections up to the last one with marks keep the saved
//! pages; the ones after it, or all of them when there are none, are estimated.
//! Explicit breaks and new-page sections always start a page.

use crate::model::{Block, PageSource, Pagination, Table};
use crate::options::PageMode;

use super::breaks::{breaks_in, insert_breaks};
use super::measure::{Measure, ParaMeasure, Seg, TableMeasure, What, segments};
use super::{Cursor, Extent, PageBox, ParaMetrics, Start};

/// A section as the estimate sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section {
    /// Its page text area.
    pub page: PageBox,
    /// The saved layout marks its page starts (DOCX `w:lastRenderedPageBreak`).
    pub rendered: bool,
}

/// The first section (0-based) whose pages are estimated, or `None`.
fn first_estimated(sections: &[Section], mode: PageMode) -> Option<usize> {
    match mode {
        PageMode::Saved => None,
        PageMode::Estimate => Some(0),
        PageMode::Auto => Some(
            sections
                .iter()
                .rposition(|s| s.rendered)
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
    sections: &[Section],
    mode: PageMode,
    fallback: ParaMetrics,
    max_pages: u64,
) -> (Vec<Block>, Pagination) {
    let rendered = mode != PageMode::Estimate && sections.iter().any(|s| s.rendered);
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
    let boxes: Vec<PageBox> = sections.iter().map(|s| s.page).collect();
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
            if !starts.is_empty()
                && r >= header_rows
                && header_height > 0
                && header_height < self.cursor.page_height()
            {
                // Header rows repeat at the top of each page (17.4.49 `w:tblHeader`),
                // unless they fill a page themselves (a repeat would leave no room).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Paragraph;
    use crate::read::pagefit::breaks::tests::text;

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
        let letter = Section {
            page: PageBox::LETTER,
            rendered: false,
        };
        let (out, p) = paginate(
            body.clone(),
            &[],
            &[letter],
            PageMode::Auto,
            fallback,
            1_000,
        );
        let a = pages(&out);
        assert!(a > 5, "{a} pages");
        assert_eq!(p.source, PageSource::Explicit);
        assert_eq!(p.estimated_from, Some(2));
        // A5 with Word's default 1-inch margins.
        let half = Section {
            page: PageBox::from_page(8_390, 11_905, [1_440; 4], 1, 720),
            rendered: false,
        };
        let (out, _) = paginate(body.clone(), &[], &[half], PageMode::Auto, fallback, 1_000);
        assert!(pages(&out) > a, "A5 {} vs Letter {a}", pages(&out));
        let (out, p) = paginate(body, &[], &[letter], PageMode::Saved, fallback, 1_000);
        assert_eq!((pages(&out), p.estimated_from), (1, None));
    }

    #[test]
    fn sections_word_laid_out_keep_their_pages() {
        let body: Vec<Block> = (0..60).map(|_| para(120)).collect();
        let laid = Section {
            page: PageBox::LETTER,
            rendered: true,
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
