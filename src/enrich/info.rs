//! Document information: what the document holds, who revised and commented on it,
//! and how large its sections are, so a caller can pick the expansions worth running.

use super::enricher::{Enricher, SectionInfo};

impl Enricher {
    /// Whether any chunk holds (part of) a table.
    pub fn has_tables(&self) -> bool {
        self.table_chunks.len() > 0
    }

    /// Whether any chunk holds tracked revisions.
    pub fn has_revisions(&self) -> bool {
        !self.revision_chunks.is_empty()
    }

    /// Whether any chunk holds comments.
    pub fn has_comments(&self) -> bool {
        !self.comment_chunks.is_empty()
    }

    /// The authors of tracked revisions, each once (case-insensitively), in order of
    /// first appearance; empty when the document has none.
    pub fn revision_authors(&self) -> &[String] {
        &self.revision_authors.names
    }

    /// The authors of comments, each once (case-insensitively), in order of first
    /// appearance; empty when the document has none.
    pub fn comment_authors(&self) -> &[String] {
        &self.comment_authors.names
    }

    /// The heading sections of the page body in document order, each with the
    /// number of pages it covers and of chunks that start in it (headers, footers and
    /// notes belong to no section).
    pub fn sections(&self) -> &[SectionInfo] {
        &self.sections
    }

    /// Number of distinct body pages (from the lowest to the highest page any body
    /// chunk covers, counting only pages some chunk covers).
    pub fn page_count(&self) -> usize {
        self.page_intervals()
            .map(|(_, pages, _)| pages as usize)
            .sum()
    }

    /// Number of distinct tables (a table id within one chunk kind).
    pub fn table_count(&self) -> usize {
        self.table_chunks.len()
    }
}
