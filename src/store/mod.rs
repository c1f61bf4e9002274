//! What a persistent collection stores, independent of where it is stored.
//!
//! The wasm layer (`src/wasm/runtime/`) keeps these records in IndexedDB (or in
//! memory under Node); this module only decides their shapes and the schema:
//! - [`schema`]: the database version, object store names and key paths;
//! - [`info`]: [`DocumentInfo`], the summary row of one stored document;
//! - [`export`]: the JSONL lines (`docrag.chunk.v1`) a collection is exported as.

pub mod export;
pub mod info;
pub mod schema;

pub use info::DocumentInfo;
