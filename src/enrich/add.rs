//! Additions: widen the context with neighbouring or related chunks, within a token
//! budget. They are optional — the part to cut when tokens are short.
//!
//! Budget rule (every addition): chunks come in units (one anchor's page, one page,
//! one table, one chunk), in a fixed order; a unit is added whole only if the
//! cumulative enrichment stays at or below `budget` tokens, and the first unit that
//! does not fit ends the call, so later stages never run past a full budget. When
//! completions already spent more than the budget, additions add nothing.

use std::ops::Deref;

use super::enricher::Enricher;
use super::expansion::Expansion;
use super::record::ChunkKind;

/// What [`Expansion::add_related_chunks`] does beyond completing the anchors' tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelatedOptions {
    /// Enrichment budget in o200k_base tokens; only the remaining-tables step obeys
    /// it (completions ignore budgets).
    pub budget: u64,
    /// Complete the anchors' revision runs. Default true.
    pub revisions: bool,
    /// Complete the anchors' comment runs. Default true.
    pub comments: bool,
    /// Then add the document's other tables, whole, while the budget allows. Default
    /// false.
    pub all_tables: bool,
    /// Complete every table met in the expanded set (brought in by the steps above or
    /// by earlier additions), so no table is sent in part. Default true.
    pub adjacent_tables: bool,
}

impl RelatedOptions {
    /// The defaults with an enrichment budget of `budget` tokens.
    pub fn new(budget: u64) -> Self {
        RelatedOptions {
            budget,
            revisions: true,
            comments: true,
            all_tables: false,
            adjacent_tables: true,
        }
    }
}

impl<E: Deref<Target = Enricher>> Expansion<E> {
    /// Body anchors (page and section additions start only from the page body).
    fn body_anchors(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        let e = &*self.enricher;
        self.anchors.iter().filter_map(move |&a| {
            let c = e.chunks.get(a as usize)?;
            (c.kind == ChunkKind::Body).then_some((a, c.first_page, c.last_page))
        })
    }

    /// Adds page context around the body anchors, in four stages: (1) when
    /// `rest_of_page`, the other chunks of each anchor's page(s); (2) the first and
    /// last page of the document; (3) `around` pages before and after each anchor,
    /// nearest first; (4) the second and second-to-last page. Nothing happens when
    /// `rest_of_page` is false and `around` is 0. Obeys `budget` (tokens) as the
    /// module documents. Returns the cumulative enrichment tokens.
    pub fn add_page_chunks(&mut self, rest_of_page: bool, around: u32, budget: u64) -> u64 {
        if rest_of_page || around > 0 {
            self.page_stages(rest_of_page, around, budget);
        }
        self.set.enrichment()
    }

    fn page_stages(&mut self, rest_of_page: bool, around: u32, budget: u64) -> Option<()> {
        let anchors: Vec<(u32, u32, u32)> = self.body_anchors().collect();
        let e = &*self.enricher;
        let set = &mut self.set;
        let mut page = |p: Option<u32>| -> Option<()> {
            let rows = p.map_or(&[][..], |p| e.page_row(p));
            set.try_add(e, rows.iter().copied(), budget).then_some(())
        };
        if rest_of_page {
            for &(_, first, last) in &anchors {
                for p in e.interval_pages(first, last) {
                    page(Some(p))?;
                }
            }
        }
        page(e.nth_page(0, false))?;
        page(e.nth_page(0, true))?;
        let span = e.page_span();
        for d in 1..=around.min(span) {
            for &(_, first, last) in &anchors {
                page(first.checked_sub(d))?;
                page(last.checked_add(d))?;
            }
        }
        page(e.nth_page(1, false))?;
        page(e.nth_page(1, true))
    }

    /// Adds pages around each body anchor without leaving the anchor's section:
    /// first the rest of the anchor's own page(s), then `pages` pages before and
    /// after, nearest first, each page limited to chunks of that section (pass
    /// `u32::MAX` for the whole section). Obeys `budget` (tokens) as the module
    /// documents. Returns the cumulative enrichment tokens.
    pub fn add_section_pages(&mut self, pages: u32, budget: u64) -> u64 {
        self.section_stages(pages, budget);
        self.set.enrichment()
    }

    fn section_stages(&mut self, pages: u32, budget: u64) -> Option<()> {
        let anchors: Vec<(u32, u32, u32)> = self.body_anchors().collect();
        let e = &*self.enricher;
        let set = &mut self.set;
        let mut page = |p: Option<u32>, s: u32| -> Option<()> {
            let rows = p.map_or(&[][..], |p| e.page_row(p));
            let mine = rows
                .iter()
                .copied()
                .filter(|&c| e.section_of.get(c as usize) == Some(&s));
            set.try_add(e, mine, budget).then_some(())
        };
        let section = |a: u32| e.section_of.get(a as usize).copied().unwrap_or(u32::MAX);
        for &(a, first, last) in &anchors {
            for p in e.interval_pages(first, last) {
                page(Some(p), section(a))?;
            }
        }
        let widest = anchors
            .iter()
            .filter_map(|&(a, first, last)| {
                let (lo, hi) = *e.section_span.get(section(a) as usize)?;
                Some(first.saturating_sub(lo).max(hi.saturating_sub(last)))
            })
            .max()
            .unwrap_or(0);
        for d in 1..=pages.min(widest) {
            for &(a, first, last) in &anchors {
                page(first.checked_sub(d), section(a))?;
                page(last.checked_add(d), section(a))?;
            }
        }
        Some(())
    }

    /// Adds every chunk with tracked revisions, anywhere in the document, in
    /// document order — only those by `author` (matched case-insensitively, spaces
    /// trimmed) when given; an unknown author adds nothing. Independent of the
    /// anchors. Obeys `budget` (tokens) as the module documents. Returns the
    /// cumulative enrichment tokens.
    pub fn add_revision_chunks(&mut self, author: Option<&str>, budget: u64) -> u64 {
        let e = &*self.enricher;
        let list = match author {
            None => &e.revision_chunks[..],
            Some(name) => e.revision_authors.chunks_of(name),
        };
        for &c in list {
            if !self.set.try_add(e, [c], budget) {
                break;
            }
        }
        self.set.enrichment()
    }

    /// Adds every chunk with comments, as [`Expansion::add_revision_chunks`] does for
    /// tracked changes. Returns the cumulative enrichment tokens.
    pub fn add_comment_chunks(&mut self, author: Option<&str>, budget: u64) -> u64 {
        let e = &*self.enricher;
        let list = match author {
            None => &e.comment_chunks[..],
            Some(name) => e.comment_authors.chunks_of(name),
        };
        for &c in list {
            if !self.set.try_add(e, [c], budget) {
                break;
            }
        }
        self.set.enrichment()
    }

    /// The combined call: completes the anchors' tables, then (per `options`) their
    /// revision runs and comment runs — always, whatever the budget — then, when
    /// `all_tables`, adds the document's other tables whole, in document order,
    /// while the budget allows, and when `adjacent_tables` completes every table met
    /// in the expanded set. Adds no pages or sections. Returns the cumulative
    /// enrichment tokens.
    pub fn add_related_chunks(&mut self, options: &RelatedOptions) -> u64 {
        self.complete_tables();
        if options.revisions {
            self.complete_revisions();
        }
        if options.comments {
            self.complete_comments();
        }
        if options.adjacent_tables {
            self.complete_expanded_tables();
        }
        if options.all_tables {
            let e = &*self.enricher;
            for slot in 0..e.table_chunks.len() {
                let rows = e.table_chunks.row(slot).iter().copied();
                if !self.set.try_add(e, rows, options.budget) {
                    break;
                }
            }
            if options.adjacent_tables {
                self.complete_expanded_tables();
            }
        }
        self.set.enrichment()
    }
}
