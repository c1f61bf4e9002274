//! Page starts. The model keeps only the breaks that start a new page, so this module
//! decides which of the file's page marks become [`Block::PageBreak`] /
//! [`Inline::PageBreak`].
//!
//! Sources of page starts in WordprocessingML:
//! * explicit: `w:br w:type="page"` (17.3.3.1) and `w:pageBreakBefore` (17.3.1.23);
//! * section breaks whose next section's `w:type` is not `continuous` (17.6.22),
//!   emitted as [`Block::SectionBreak`] `{ new_page: true }`;
//! * rendered: `w:lastRenderedPageBreak` (17.3.3.13), written by Word where a page
//!   began when it last laid the document out. Word's own layout is the only way to
//!   know where text overflows onto the next page, so these are trusted.
//!
//! Word also writes a rendered break at the start of the page that follows an
//! explicit break or a new-page section, and at the start of every continuous
//! section (a new layout region, checked on `openxmlsdk__complex2010.docx`), so the
//! rule is: **a rendered break counts only when visible content came after the last
//! page or section break**; an explicit break counts unless it follows another page
//! break with nothing visible between, and `w:pageBreakBefore` does not count at the
//! start of a section (the section break already placed it). Files whose layout info stops part way (Word
//! paginates in the background; tools edit files) still get their later explicit
//! breaks. Any break before the first visible content is dropped (no empty page 1),
//! and breaks outside the main story (headers, notes, comments, text boxes) are
//! ignored.
//!
//! Section breaks keep `new_page` truthful to the file; when the next section is
//! `oddPage`/`evenPage` and the page number it would start on has the wrong parity,
//! Word inserts a blank page, and so does this reader (an extra `PageBreak`).
//!
//! In a table row that flows onto the next page, Word writes a rendered break in each
//! cell that continues there; the row's page starts count once (as many as the cell
//! with the most). Tools that edit a file after Word saved it leave the marks where
//! they were: within a table, a rendered break less than [`STALE_ROWS`] of rows
//! (as the page estimate measures them) after the last counted one is stale and
//! dropped (seen on `poi__bug65649.docx`: marks in three consecutive one-line rows).
//!
//! Known gap: in multi-column sections Word also writes rendered breaks at column
//! starts, which this reader counts as pages.

use crate::model::{Block, Inline};
use crate::read::pagefit::breaks_in;

use super::ctx::Ctx;
use super::inlines::Inl;
use super::sections::SectProps;

/// Rows less tall than this (twips, about a sixth of a page) after a page start
/// counted in the same table cannot fill a page: a rendered break there is stale.
const STALE_ROWS: u32 = 2_000;

/// What came last in the main story, for page-break merging.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Since {
    /// Visible content.
    Content,
    /// A page start (also the start of the document).
    Page,
    /// A section break.
    Section,
}

/// The kinds of page mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// `w:lastRenderedPageBreak`.
    Rendered,
    /// `w:br w:type="page"`.
    Explicit,
    /// `w:pageBreakBefore` (no effect when the paragraph already starts a page).
    Before,
}

/// A page mark at this point of the paragraph being read.
pub(crate) fn page_break(cx: &mut Ctx<'_, '_>, inl: &mut Inl, mark: Mark) {
    if !cx.counts_pages() {
        return;
    }
    if mark == Mark::Rendered {
        if cx.ignore_rendered {
            return;
        }
        cx.rendered_marks += 1;
        if cx.tables == 1 {
            // A row that flows onto the next page has the mark in every cell that
            // continues there: one page start, counted in the first such cell.
            let (before, cell) = &mut cx.row_marks;
            *cell += 1;
            if *cell <= *before {
                return;
            }
            // Marks a tool left behind when it edited the table after Word laid it
            // out: a page holds more than a few rows.
            if cx.table.since_break.is_some_and(|h| h < STALE_ROWS) {
                return;
            }
            cx.table.since_break = Some(0);
        }
    }
    let since = if inl.visible_since_break() {
        Since::Content
    } else {
        cx.since
    };
    let counts = match since {
        Since::Content => true,
        Since::Page => false,
        Since::Section => mark == Mark::Explicit,
    };
    if !counts {
        return;
    }
    cx.since = Since::Page;
    if inl.has_visible() {
        inl.push(Inline::PageBreak);
    } else {
        inl.break_before = true;
    }
}

/// Records the end of a paragraph of the main story.
pub(crate) fn paragraph_end(cx: &mut Ctx<'_, '_>, visible_since_break: bool) {
    if cx.counts_pages() && visible_since_break {
        cx.since = Since::Content;
    }
}

/// Sets `new_page` of the section-break placeholders in `body` (top level, in order):
/// the break after section `k` takes the type of section `k + 1`. Inserts a blank
/// page where an `oddPage`/`evenPage` section would start on a page of the wrong
/// parity.
pub(crate) fn patch_section_breaks(body: Vec<Block>, sections: &[SectProps]) -> Vec<Block> {
    let mut out = Vec::with_capacity(body.len());
    let mut k = 0usize;
    let mut page = 1usize;
    for block in body {
        page += breaks_in(&block);
        if let Block::SectionBreak { .. } = block {
            k += 1;
            let next = sections.get(k);
            let new_page = next.is_none_or(SectProps::new_page);
            out.push(Block::SectionBreak { new_page });
            if new_page {
                page += 1;
                let parity = next.and_then(|s| s.kind.as_deref());
                let blank = match parity {
                    Some("oddPage") => page.is_multiple_of(2),
                    Some("evenPage") => !page.is_multiple_of(2),
                    _ => false,
                };
                if blank {
                    out.push(Block::PageBreak);
                    page += 1;
                }
            }
            continue;
        }
        out.push(block);
    }
    out
}
