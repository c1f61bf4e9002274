//! Completions: finish a structure an anchor chunk is part of — a table cut across
//! chunks, a run of tracked changes, a run of comments. They ignore any budget: a
//! half table or half an edit misleads a model more than its absence would.

use std::ops::Deref;

use super::enricher::Enricher;
use super::expansion::{Expansion, Selection};

/// Adds every chunk of every table that chunk `seq` holds part of (tables are keyed
/// by id within the chunk's own kind, so body tables come from body chunks and
/// header/footer tables from chunks of the same kind).
pub(crate) fn table_of(e: &Enricher, set: &mut Selection, seq: u32) {
    for &slot in e.chunk_tables.row(seq as usize) {
        for &c in e.table_chunks.row(slot as usize) {
            set.add(e, c);
        }
    }
}

/// Adds the run of consecutive same-kind chunks around `seq` listed in `runs`.
fn run_of(e: &Enricher, set: &mut Selection, runs: &[(u32, u32)], seq: u32) {
    if let Some(&(lo, hi)) = runs.get(seq as usize) {
        for c in lo..=hi {
            set.add(e, c);
        }
    }
}

impl<E: Deref<Target = Enricher>> Expansion<E> {
    /// Completes the tables of the anchor chunks: an anchor holding part of a table
    /// brings in every chunk holding the rest of it, so the model sees the whole
    /// table with its column headings. Ignores budgets.
    ///
    /// Returns the cumulative enrichment tokens (tokens of expanded chunks not
    /// retrieved).
    pub fn complete_tables(&mut self) -> u64 {
        let e = &*self.enricher;
        for &a in &self.anchors {
            table_of(e, &mut self.set, a);
        }
        self.set.enrichment()
    }

    /// Completes the tables met anywhere in the expanded set, repeating until no new
    /// chunk comes in (a completed table may end in a chunk that starts another).
    /// Ignores budgets. Returns the cumulative enrichment tokens.
    pub fn complete_expanded_tables(&mut self) -> u64 {
        let e = &*self.enricher;
        let mut done = vec![false; e.table_chunks.len()];
        let mut work = self.set.members();
        while let Some(seq) = work.pop() {
            for &slot in e.chunk_tables.row(seq as usize) {
                let Some(flag) = done.get_mut(slot as usize) else {
                    continue;
                };
                if std::mem::replace(flag, true) {
                    continue;
                }
                for &c in e.table_chunks.row(slot as usize) {
                    if self.set.add(e, c) {
                        work.push(c);
                    }
                }
            }
        }
        self.set.enrichment()
    }

    /// Completes the revision runs of the anchors: for each anchor with tracked
    /// changes, adds the neighbouring chunks (same kind) before and after it that
    /// also have tracked changes, up to the first chunk without. Ignores budgets.
    /// Returns the cumulative enrichment tokens.
    pub fn complete_revisions(&mut self) -> u64 {
        let e = &*self.enricher;
        for &a in &self.anchors {
            run_of(e, &mut self.set, &e.revision_run, a);
        }
        self.set.enrichment()
    }

    /// Completes the comment runs of the anchors, as
    /// [`Expansion::complete_revisions`] does for tracked changes. Ignores budgets.
    /// Returns the cumulative enrichment tokens.
    pub fn complete_comments(&mut self) -> u64 {
        let e = &*self.enricher;
        for &a in &self.anchors {
            run_of(e, &mut self.set, &e.comment_run, a);
        }
        self.set.enrichment()
    }
}
