//! Where a collection's records live: IndexedDB in a browser, memory under Node
//! (or when asked), behind one async interface so the collection logic is the same.

use std::collections::BTreeMap;

use crate::chunk::Chunk;
use crate::store::DocumentInfo;

use super::idb::IdbStore;
use super::memory::MemoryStore;

/// A document's vectors from one embedding model.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StoredEmbeddings {
    /// The embedding model id (the provider's `embeddingModelId`).
    pub model_id: String,
    /// Components per vector.
    pub dim: usize,
    /// Chunk count x `dim` components, in `ssSeq` order, as the provider returned them.
    pub vectors: Vec<f32>,
    /// The content hash of each chunk's text (the re-embedding cache key).
    pub hashes: Vec<String>,
}

/// Everything stored for one document.
#[derive(Debug, Clone)]
pub(crate) struct StoredDoc {
    pub info: DocumentInfo,
    pub chunks: Vec<Chunk>,
    pub embeddings: Vec<StoredEmbeddings>,
}

/// What a whole collection load returns: documents in the order they were added
/// (by `addedAt`, then id), the settings as JSON text by key, and the documents
/// quarantined for a damaged record.
#[derive(Debug, Default)]
pub(crate) struct Snapshot {
    pub docs: Vec<StoredDoc>,
    pub settings: BTreeMap<String, String>,
    /// Documents left out because a record of theirs is damaged: (id, reason).
    pub damaged: Vec<(String, String)>,
}

/// Storage failures, each with a stable code (the JS `DocragError.code`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum StoreError {
    /// No IndexedDB in this context (a private window, an old browser, Node).
    Unavailable(String),
    /// Another tab holds the database open at an older schema version.
    UpgradeBlocked,
    /// The stored schema is newer than this version of docrag knows.
    SchemaTooNew(String),
    /// The browser's storage quota is used up; the transaction was rolled back.
    QuotaExceeded(String),
    /// The database was closed (another tab upgraded it, or `close()` was called).
    Closed,
    /// A stored record is not what this version wrote.
    Corrupt(String),
    /// The caller's AbortSignal fired during the write; the transaction was rolled back.
    Aborted,
    /// Any other storage failure (DOMException name and message).
    Failed(String),
}

impl StoreError {
    pub(crate) fn code(&self) -> &'static str {
        match self {
            StoreError::Unavailable(_) => "storage-unavailable",
            StoreError::UpgradeBlocked => "upgrade-blocked",
            StoreError::SchemaTooNew(_) => "schema-too-new",
            StoreError::QuotaExceeded(_) => "quota-exceeded",
            StoreError::Closed => "storage-closed",
            StoreError::Corrupt(_) => "storage-corrupt",
            StoreError::Aborted => "aborted",
            StoreError::Failed(_) => "storage-failed",
        }
    }

    pub(crate) fn message(&self) -> String {
        match self {
            StoreError::Unavailable(d) => format!(
                "IndexedDB is not available here ({d}); pass {{storage: 'memory'}} to keep the collection in memory for this page only"
            ),
            StoreError::UpgradeBlocked => "the collection's database is open in another tab at an older version; close the other tabs of this app and try again (nothing stored was changed)".into(),
            StoreError::SchemaTooNew(d) => format!(
                "the stored collection was written by a newer docrag ({d}); update the app (nothing stored was changed)"
            ),
            StoreError::QuotaExceeded(d) => format!(
                "the browser's storage quota is used up ({d}); the document was not stored and everything stored before is intact; remove documents or free space"
            ),
            StoreError::Closed => "the collection's database was closed (another tab upgraded it, or close() was called); open the collection again".into(),
            StoreError::Corrupt(d) => format!("a stored record is damaged: {d}"),
            StoreError::Aborted => {
                "the operation was aborted by its AbortSignal; the write was rolled back and nothing was stored".into()
            }
            StoreError::Failed(d) => format!("storage failed: {d}"),
        }
    }
}

/// One collection's storage.
pub(crate) enum Store {
    Idb(IdbStore),
    Memory(MemoryStore),
}

impl Store {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Store::Idb(_) => "indexeddb",
            Store::Memory(_) => "memory",
        }
    }

    pub(crate) async fn load(&self) -> Result<Snapshot, StoreError> {
        match self {
            Store::Idb(s) => s.load().await,
            Store::Memory(s) => Ok(s.load()),
        }
    }

    /// Writes every record of `doc` in one transaction (all or nothing), replacing
    /// a stored document with the same id. `signal` firing before the transaction
    /// completes rolls it back ([`StoreError::Aborted`]); after that it changes nothing.
    pub(crate) async fn put_document(
        &self,
        doc: &StoredDoc,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<(), StoreError> {
        if signal.is_some_and(web_sys::AbortSignal::aborted) {
            return Err(StoreError::Aborted);
        }
        match self {
            Store::Idb(s) => s.put_document(doc, signal).await,
            Store::Memory(s) => {
                s.put_document(doc);
                Ok(())
            }
        }
    }

    /// Adds or replaces one model's vectors of a stored document (with its info).
    pub(crate) async fn put_embeddings(
        &self,
        info: &DocumentInfo,
        e: &StoredEmbeddings,
    ) -> Result<(), StoreError> {
        match self {
            Store::Idb(s) => s.put_embeddings(info, e).await,
            Store::Memory(s) => {
                s.put_embeddings(info, e);
                Ok(())
            }
        }
    }

    /// Deletes every record of `doc_id` in one transaction.
    pub(crate) async fn remove_document(&self, doc_id: &str) -> Result<(), StoreError> {
        match self {
            Store::Idb(s) => s.remove_document(doc_id).await,
            Store::Memory(s) => {
                s.remove_document(doc_id);
                Ok(())
            }
        }
    }

    /// Sets (Some) or deletes (None) a setting, as JSON text.
    pub(crate) async fn put_setting(
        &self,
        key: &str,
        json: Option<&str>,
    ) -> Result<(), StoreError> {
        match self {
            Store::Idb(s) => s.put_setting(key, json).await,
            Store::Memory(s) => {
                s.put_setting(key, json);
                Ok(())
            }
        }
    }

    pub(crate) fn close(&self) {
        if let Store::Idb(s) = self {
            s.close();
        }
    }
}
