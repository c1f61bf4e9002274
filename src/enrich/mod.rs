//! The enrichment engine: expansion of retrieved chunk sets from metadata records
//! alone (never the chunk text), document information, and the index document.
//!
//! One [`Enricher`] per document, built once from that document's records; per
//! query, an [`Expansion`] from the retrieved sequence numbers (the anchor set):
//! - completions finish what an anchor is part of, whatever the budget:
//!   [`Expansion::complete_tables`], [`Expansion::complete_revisions`],
//!   [`Expansion::complete_comments`];
//! - additions widen the context within a token budget:
//!   [`Expansion::add_page_chunks`], [`Expansion::add_section_pages`],
//!   [`Expansion::add_revision_chunks`], [`Expansion::add_comment_chunks`];
//! - [`Expansion::add_related_chunks`] does the completions and, budget allowing,
//!   the remaining tables.
//!
//! Every method works from the anchor set (chaining does not compound; call
//! [`Expansion::anchor_expanded`] to compound) and returns the cumulative enrichment
//! tokens. Files: `record.rs` parses a record, `enricher.rs` builds the indexes
//! (`csr.rs` is their storage), `info.rs` answers document questions,
//! `expansion.rs`/`complete.rs`/`add.rs` expand, `index_doc.rs` and `prompts.rs`
//! produce the index document and its prompts.
//!
//! ```
//! use docrag::{convert, ConvertOptions, enrich::{Enricher, RelatedOptions}};
//! let text = "# Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nClosing words.";
//! let out = convert(text.as_bytes(), &ConvertOptions::new())?;
//! let records: Vec<_> = out.chunks.iter().map(|c| c.metadata.clone()).collect();
//! let enricher = Enricher::new(&records)?;
//! let mut exp = enricher.expand(&[0])?;
//! let added = exp.add_related_chunks(&RelatedOptions::new(500));
//! assert_eq!(added, exp.token_count() - exp.retrieved_tokens());
//! assert!(exp.expanded().contains(&0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod add;
mod complete;
mod csr;
mod enricher;
mod error;
mod expansion;
mod index_doc;
mod info;
mod prompts;
mod record;

pub use add::RelatedOptions;
pub use enricher::{Enricher, SectionInfo};
pub use error::{EnrichError, RecordRef};
pub use expansion::Expansion;
pub use index_doc::{DEFAULT_INDEX_PERCENT, IndexEntry, PART_TOKENS};
pub use prompts::{INDEX_ANSWER_PROMPT, ROUTING_PROMPT};
pub use record::ChunkKind;

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn engine_is_send_and_sync() {
        assert_send_sync::<Enricher>();
        assert_send_sync::<Expansion<&Enricher>>();
    }
}
