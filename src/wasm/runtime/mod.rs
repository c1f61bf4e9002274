//! The persistent collection for JS: `Collection.open`, `addFile`, `remove`,
//! `documents`, `chunks`, `ask`, settings and providers. This is the only place
//! that does the I/O the core leaves out (storage, model calls), one file each:
//! - `collection.rs`: the `Collection` class and its lifecycle;
//! - `add.rs`: adding a file (read, convert, embed with the cache, store);
//! - `ask.rs`: a question (query embedding, routing and classification calls, the
//!   pipeline, the chat call, citations);
//! - `summarize.rs`: summaries (the sans-IO summarizer, model calls in parallel);
//! - `export.rs`: the collection as `docrag.chunk.v1` JSONL lines in a Blob;
//! - `search.rs`: the top-k chunks of a question (cosine, BM25 or hybrid), no answer;
//! - `state.rs`: the in-memory collection rebuilt from stored records;
//! - `store.rs`, `idb.rs`, `memory.rs`, `records.rs`: storage;
//! - `bag.rs`: strict option bags, progress and abort helpers.

mod add;
mod ask;
mod bag;
mod collection;
mod export;
mod idb;
mod memory;
mod records;
mod search;
mod state;
mod store;
mod summarize;

/// Orders stored documents as they were added (`addedAt`, then id).
pub(crate) fn store_order(docs: &mut [store::StoredDoc]) {
    crate::order::sort_by(docs, |a, b| {
        a.info
            .added_at
            .total_cmp(&b.info.added_at)
            .then_with(|| a.info.doc_id.cmp(&b.info.doc_id))
    });
}
