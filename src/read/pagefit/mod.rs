//! Page estimation for files that saved no layout: where would a word processor have
//! started each page?
//!
//! A DOCX saved by Word carries its pagination (`w:lastRenderedPageBreak`); files saved
//! by LibreOffice, Google Docs or generators carry none, and without an estimate every
//! citation past the first explicit break would name the wrong page. This module is
//! the format-neutral part: page boxes, paragraph metrics, text widths and a cursor
//! that fills pages top to bottom ([`Cursor`]), the measures a reader takes while it
//! reads (`measure.rs`), the pass that turns them into page breaks (`flow.rs`) and the
//! breaks themselves (`breaks.rs`). The DOCX and RTF readers use it.
//!
//! All lengths are twips (1/20 point, 1/1440 inch), the unit of WordprocessingML
//! (ECMA-376 Part 1, 17.18.87 ST_TwipsMeasure) and of RTF. Font sizes are half-points
//! (17.3.2.38 `w:sz`, RTF `\fs`).
//!
//! The estimate is a model, not a layout engine: no font files, no kerning, no line
//! breaking by real glyph widths. Text width comes from an average advance per script
//! (`glyphs.rs`), a line holds what fits in the text width, and a page holds what fits
//! in the text height. Measured against Word's own breaks in `make bench`
//! (`docrag pages`), which reports per document how many chunks start on Word's page.

mod breaks;
mod flow;
mod glyphs;
mod measure;

pub(crate) use breaks::breaks_in;
pub(crate) use flow::{Section, paginate};
pub(crate) use measure::{Measure, ParaMeasure, TableMeasure, What};

use glyphs::advance_milli_twips;
pub(crate) use glyphs::{Face, is_wide};

/// The text area of a page (page size less margins), in twips, and its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageBox {
    /// Width of the text area (all columns and gaps).
    pub width: u32,
    /// Height of the text area.
    pub height: u32,
    /// Newspaper columns (at least 1); text fills one column, then the next.
    pub columns: u16,
    /// Space between columns.
    pub gap: u32,
}

impl PageBox {
    /// US Letter with 1-inch margins: Word's page when a file states none
    /// (ECMA-376 gives no default for `w:pgSz`; Word and LibreOffice use the locale's).
    pub(crate) const LETTER: PageBox = PageBox {
        width: 12_240 - 2 * 1_440,
        height: 15_840 - 2 * 1_440,
        columns: 1,
        gap: 0,
    };

    /// From a page size and margins (all twips). Margins larger than the page leave a
    /// one-inch text area, so a damaged file still paginates.
    pub(crate) fn from_page(
        width: u32,
        height: u32,
        margins: [u32; 4],
        columns: u16,
        gap: u32,
    ) -> PageBox {
        let [top, right, bottom, left] = margins;
        // A page under 2 inches is damage (Letter then), over 22 inches (Word's
        // largest, 31,680 twips) is clamped.
        let size = |v: u32, letter: u32| if v < 2_880 { letter } else { v.min(31_680) };
        let (width, height) = (size(width, 12_240), size(height, 15_840));
        let inner = |size: u32, a: u32, b: u32| {
            size.checked_sub(a.saturating_add(b))
                .filter(|v| *v >= 1_440)
                .unwrap_or(1_440)
        };
        let width = inner(width, left, right);
        PageBox {
            width,
            height: inner(height, top, bottom),
            columns: columns.clamp(1, 16),
            // Gaps take at most half the width.
            gap: gap.min(width / 2 / u32::from(columns.clamp(1, 16))),
        }
    }

    /// The width of one column.
    pub(crate) fn column_width(&self) -> u32 {
        let n = u32::from(self.columns.max(1));
        let gaps = self.gap.saturating_mul(n - 1);
        (self.width.saturating_sub(gaps) / n).max(720)
    }
}

/// Line spacing of a paragraph (ECMA-376 Part 1, 17.3.1.33 `w:spacing` `@w:line` and
/// `@w:lineRule`, 17.18.48 ST_LineSpacingRule; RTF `\sl` / `\slmult`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineSpacing {
    /// A multiple of single spacing, in 240ths (240 = single, 480 = double).
    Auto(u32),
    /// Exactly this many twips per line.
    Exact(u32),
    /// At least this many twips per line.
    AtLeast(u32),
}

/// What the estimate needs to know about a paragraph's look, resolved through the
/// style chain. Lengths in twips, font size in half-points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ParaMetrics {
    /// Font size of the paragraph's text, half-points.
    pub font: u16,
    /// Line spacing.
    pub line: LineSpacing,
    /// Space before the paragraph.
    pub before: u32,
    /// Space after the paragraph.
    pub after: u32,
    /// Left plus right indentation (negative indents widen the line).
    pub indent: i32,
    /// First-line indentation (negative for a hanging indent).
    pub first_line: i32,
    /// Keep with the next paragraph (17.3.1.15 `w:keepNext`, RTF `\keepn`).
    pub keep_next: bool,
    /// Monospaced text (code): a wider average advance.
    pub mono: bool,
    /// The typeface's proportions.
    pub face: Face,
}

impl Default for ParaMetrics {
    /// Word's built-in defaults when a file sets nothing (ECMA-376 Part 1, 17.7.5:
    /// `w:sz` 20 half-points, single spacing, no space around paragraphs).
    fn default() -> Self {
        ParaMetrics {
            font: 20,
            line: LineSpacing::Auto(240),
            before: 0,
            after: 0,
            indent: 0,
            first_line: 0,
            keep_next: false,
            mono: false,
            face: Face::UNKNOWN,
        }
    }
}

impl ParaMetrics {
    /// Height of one line, twips. Single spacing is the face's line height, about 1.2
    /// em for the common text faces (Calibri 1.22, Times New Roman 1.15, Arial 1.15).
    pub(crate) fn line_height(&self) -> u32 {
        let natural = u32::from(self.font.max(2)) * 10 * u32::from(self.face.line) / 1_000;
        match self.line {
            LineSpacing::Auto(n) => natural * n.clamp(24, 2_400) / 240,
            LineSpacing::Exact(t) => t.clamp(20, 31_680),
            LineSpacing::AtLeast(t) => natural.max(t.min(31_680)),
        }
    }
}

/// Lines of a paragraph by greedy word wrapping, as word processors break lines:
/// a word that does not fit on the line starts the next one; a word longer than a
/// line is broken; spaces may hang past the end of a line.
#[derive(Debug, Clone)]
pub(crate) struct Wrap {
    /// Width of a line, thousandths of a twip.
    avail: i64,
    /// Width used on the current line.
    used: i64,
    /// Width of the word being read.
    word: i64,
    /// Lines completed.
    lines: u32,
    /// Characters read (for placing breaks between words).
    pub chars: usize,
    font: u16,
    face: Face,
    mono: bool,
    /// Whether anything was read since the last line break.
    any: bool,
}

impl Wrap {
    /// A paragraph of `m` in a column `column` twips wide.
    pub(crate) fn new(m: &ParaMetrics, column: u32) -> Wrap {
        // Indents beyond the column (negative ones into the margin) are damage: at
        // most half the column either way.
        let half = i64::from(column / 2);
        let avail = (i64::from(column) - i64::from(m.indent).clamp(-half, half)) * 1_000;
        Wrap {
            avail,
            used: i64::from(m.first_line).clamp(-half, half) * 1_000,
            word: 0,
            lines: 0,
            chars: 0,
            font: m.font,
            face: m.face,
            mono: m.mono,
            any: false,
        }
    }

    /// Reads text; `code`: set in a monospaced face.
    pub(crate) fn text(&mut self, text: &str, code: bool) {
        let mono = self.mono || code;
        for c in text.chars() {
            self.chars += 1;
            self.any = true;
            let w = advance_milli_twips(c, self.font, self.face, mono) as i64;
            if c.is_whitespace() {
                self.commit();
                self.used += w;
            } else if !c.is_ascii() && is_wide(c) {
                // Ideographs break anywhere: each is a word of its own.
                self.word += w;
                self.commit();
            } else {
                self.word += w;
            }
        }
    }

    /// Adds an unbreakable width (a tab, a formula), thousandths of a twip.
    pub(crate) fn advance(&mut self, milli_twips: u64) {
        self.any = true;
        self.word += milli_twips.min(i64::MAX as u64 / 4) as i64;
        self.commit();
    }

    /// A line break (`w:br`).
    pub(crate) fn line_break(&mut self) {
        self.commit();
        self.lines = self.lines.saturating_add(1);
        self.used = 0;
    }

    /// The lines of what was read, at least one; starts afresh.
    pub(crate) fn finish(&mut self) -> u32 {
        self.commit();
        let lines = self.lines.saturating_add(1);
        self.lines = 0;
        self.used = 0;
        self.chars = 0;
        self.any = false;
        lines
    }

    fn commit(&mut self) {
        if self.word == 0 {
            return;
        }
        if self.used > 0 && self.used + self.word > self.avail {
            self.lines = self.lines.saturating_add(1);
            self.used = 0;
        }
        if self.word > self.avail {
            let full = self.word / self.avail;
            self.lines = self
                .lines
                .saturating_add(full.min(i64::from(u32::MAX)) as u32);
            self.used = self.word % self.avail;
        } else {
            self.used += self.word;
        }
        self.word = 0;
    }
}

/// One thing that takes vertical space, for [`Cursor::place`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    /// Space between this and what came before (the previous paragraph's space after
    /// plus this one's space before), twips; dropped at the top of a column, as Word
    /// does on a page that starts by flowing.
    pub gap: u32,
    /// Line height, twips.
    pub line: u32,
    /// Lines, at least 1.
    pub lines: u32,
    /// Extra height that cannot be split (images), twips.
    pub fixed: u32,
    /// May be split across pages between lines (false for table rows and keepLines).
    pub splits: bool,
}

/// Where the pages of a flow start, as the cursor fills them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// The item starts on a new page.
    Before,
    /// A new page starts after this many of the item's lines (1.. lines-1).
    AfterLines(u32),
}

/// Fills pages (column by column) from the top; says where new pages start.
#[derive(Debug, Clone)]
pub(crate) struct Cursor {
    page: PageBox,
    /// Height used in the current column, twips.
    used: u32,
    /// Current column, 0-based.
    column: u16,
    /// Page starts [`Cursor::place`] may still report (the document's page limit).
    pub budget: u32,
}

impl Cursor {
    /// A cursor at the top of a fresh page of `page`.
    pub(crate) fn new(page: PageBox) -> Cursor {
        Cursor {
            page,
            used: 0,
            column: 0,
            budget: u32::MAX,
        }
    }

    /// Starts a new page (an explicit or saved break) with page box `page`.
    pub(crate) fn break_page(&mut self, page: PageBox) {
        self.page = page;
        self.used = 0;
        self.column = 0;
    }

    /// Changes the page box without a break (a continuous section).
    pub(crate) fn set_box(&mut self, page: PageBox) {
        self.page = page;
        self.column = self.column.min(page.columns.saturating_sub(1));
    }

    /// The height of the text area, twips.
    pub(crate) fn page_height(&self) -> u32 {
        self.page.height
    }

    /// The width of the current column, twips.
    pub(crate) fn column_width(&self) -> u32 {
        self.page.column_width()
    }

    /// Places `e` and returns the page starts it causes, in order (empty when it fits).
    /// A column overflow that moves to the next column of the same page is not a page
    /// start. At least two lines stay together at either end of a split (Word's
    /// widow/orphan control, 17.3.1.44 `w:widowControl`, on by default).
    pub(crate) fn place(&mut self, e: Extent) -> Vec<Start> {
        let mut starts = Vec::new();
        let height = self.page.height;
        let line = e.line.clamp(1, height);
        let gap = if self.used == 0 { 0 } else { e.gap };
        let whole = gap
            .saturating_add(line.saturating_mul(e.lines))
            .saturating_add(e.fixed);
        if self.used.saturating_add(whole) <= height {
            self.used += whole;
            return starts;
        }
        // Kept-together text longer than a page is split anyway, as Word does.
        let splits = e.splits || line.saturating_mul(e.lines) > height;
        let mut left = e.lines;
        let room = height.saturating_sub(self.used.saturating_add(gap)) / line;
        if splits && e.fixed == 0 && e.lines >= 4 && room >= 2 && self.used > 0 {
            let first = room.min(e.lines - 2);
            left -= first;
            if self.next_column() {
                self.start(&mut starts, Start::AfterLines(first));
            }
        } else if self.used > 0 && self.next_column() {
            self.start(&mut starts, Start::Before);
        }
        // What is left flows from the top of a column, until the page budget ends.
        let per = (height / line).max(1);
        let mut done = e.lines - left;
        while splits && left > per && self.budget > 0 {
            let take = if left - per >= 2 {
                per
            } else {
                per.saturating_sub(2).max(1)
            };
            left -= take;
            done += take;
            if self.next_column() {
                self.start(&mut starts, Start::AfterLines(done));
            }
        }
        self.used = line
            .saturating_mul(left)
            .saturating_add(e.fixed)
            .min(height);
        starts
    }

    /// Records a page start while the budget lasts.
    fn start(&mut self, starts: &mut Vec<Start>, s: Start) {
        if self.budget > 0 {
            self.budget -= 1;
            starts.push(s);
        }
    }

    /// Moves to the next column; true when that starts a new page.
    fn next_column(&mut self) -> bool {
        self.used = 0;
        if self.column + 1 < self.page.columns {
            self.column += 1;
            false
        } else {
            self.column = 0;
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn para(lines: u32) -> Extent {
        Extent {
            gap: 200,
            line: 276,
            lines,
            fixed: 0,
            splits: true,
        }
    }

    #[test]
    fn a_letter_page_holds_27_one_line_paragraphs_with_space_between() {
        let mut c = Cursor::new(PageBox::LETTER);
        let mut n = 0;
        while c.place(para(1)).is_empty() {
            n += 1;
        }
        // 12,960 twips: 276 for the first, 476 for each one after.
        assert_eq!(n, 27);
    }

    #[test]
    fn a_long_paragraph_splits_keeping_two_lines_at_each_end() {
        let mut c = Cursor::new(PageBox::LETTER);
        c.place(Extent {
            lines: 44,
            ..para(0)
        });
        // 12,960 / 276 = 46 lines fit; 44 used, 2 left: a 5-line paragraph puts 2 here.
        assert_eq!(c.place(para(5)), vec![Start::AfterLines(2)]);
        let mut c = Cursor::new(PageBox::LETTER);
        c.place(Extent {
            lines: 45,
            ..para(0)
        });
        // One line of room: the paragraph moves whole.
        assert_eq!(c.place(para(5)), vec![Start::Before]);
    }

    #[test]
    fn two_columns_fill_before_a_page_starts() {
        let two = PageBox {
            columns: 2,
            gap: 720,
            ..PageBox::LETTER
        };
        let mut c = Cursor::new(two);
        let column = Extent {
            lines: 46,
            splits: false,
            ..para(0)
        };
        // Two columns' worth fit on the first page.
        for _ in 0..2 {
            assert!(c.place(column).is_empty());
        }
        assert_eq!(c.place(column), vec![Start::Before]);
    }

    #[test]
    fn smaller_margins_or_text_mean_more_per_page() {
        let wide = PageBox::from_page(12_240, 15_840, [720, 720, 720, 720], 1, 0);
        assert!(wide.height > PageBox::LETTER.height && wide.width > PageBox::LETTER.width);
        let small = ParaMetrics {
            font: 16,
            ..ParaMetrics::default()
        };
        let big = ParaMetrics {
            font: 28,
            ..ParaMetrics::default()
        };
        assert!(small.line_height() < big.line_height());
        let text = "lorem ipsum dolor ".repeat(40);
        let lines = |m: &ParaMetrics, column| {
            let mut w = Wrap::new(m, column);
            w.text(&text, false);
            w.finish()
        };
        let normal = ParaMetrics::default();
        assert!(lines(&normal, 4_000) > lines(&normal, 9_360));
        assert!(lines(&big, 9_360) > lines(&small, 9_360));
        let double = ParaMetrics {
            line: LineSpacing::Auto(480),
            ..ParaMetrics::default()
        };
        assert_eq!(
            double.line_height(),
            2 * ParaMetrics::default().line_height()
        );
    }

    #[test]
    fn hostile_sizes_stay_bounded() {
        // A paragraph of a billion lines reports no more page starts than the budget.
        let mut c = Cursor::new(PageBox::LETTER);
        c.budget = 1_000;
        let starts = c.place(Extent {
            lines: 1_000_000_000,
            ..para(0)
        });
        assert_eq!(starts.len(), 1_000);
        // Kept-together text longer than a page splits anyway.
        let mut c = Cursor::new(PageBox::LETTER);
        let kept = c.place(Extent {
            lines: 200,
            splits: false,
            ..para(0)
        });
        assert_eq!(kept.len(), 4);
        // A page of zero size is Letter; one of a mile is Word's largest.
        assert_eq!(PageBox::from_page(0, 0, [1_440; 4], 1, 0), PageBox::LETTER);
        assert_eq!(
            PageBox::from_page(u32::MAX, u32::MAX, [0; 4], 1, 0).height,
            31_680
        );
        // A column gap wider than the page takes at most half of it.
        let b = PageBox::from_page(12_240, 15_840, [1_440; 4], 3, u32::MAX);
        assert!(b.column_width() >= b.width / 6);
    }
}
