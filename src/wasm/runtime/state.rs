//! The in-memory side of an open collection: the query-pipeline collection rebuilt
//! from stored records (no re-parsing, no re-embedding), plus each document's info
//! and stored vectors.

use std::collections::{BTreeMap, HashMap};

use crate::Conversion;
use crate::query::{Collection, QueryError};
use crate::store::DocumentInfo;

use super::store::{Snapshot, StoreError, StoredDoc, StoredEmbeddings};

/// One document's runtime record (same order as the core collection's documents).
pub(crate) struct DocState {
    pub info: DocumentInfo,
    pub embeddings: Vec<StoredEmbeddings>,
}

#[derive(Default)]
pub(crate) struct State {
    pub core: Collection,
    pub docs: Vec<DocState>,
    pub settings: BTreeMap<String, String>,
    /// Documents quarantined at load for a damaged record: (id, reason).
    pub damaged: Vec<(String, String)>,
}

impl State {
    /// Rebuilds from a load; vectors of `model_id` go into the core collection.
    pub(crate) fn from_snapshot(s: Snapshot, model_id: Option<&str>) -> Result<State, StoreError> {
        let mut state = State {
            settings: s.settings,
            damaged: s.damaged,
            ..State::default()
        };
        for d in s.docs {
            let id = d.info.doc_id.clone();
            if let Err(e) = state.insert(d, model_id) {
                state.damaged.push((id, e.message()));
            }
        }
        Ok(state)
    }

    /// Adds a stored document read back at load (its chunks move into the core
    /// collection); a document that cannot be indexed is storage damage.
    pub(crate) fn insert(
        &mut self,
        d: StoredDoc,
        model_id: Option<&str>,
    ) -> Result<(), StoreError> {
        let doc_id = d.info.doc_id.clone();
        self.index(d, model_id)
            .map_err(|e| StoreError::Corrupt(format!("document {doc_id}: {e}")))
    }

    /// Adds a document to the in-memory indexes (BM25, enrichment engine, the vectors
    /// of `model_id`).
    ///
    /// # Errors
    /// The core collection's [`QueryError`] (duplicate id, records or texts that cannot
    /// be indexed, vectors that do not fit); the state is unchanged then.
    pub(crate) fn index(&mut self, d: StoredDoc, model_id: Option<&str>) -> Result<(), QueryError> {
        let StoredDoc {
            info,
            chunks,
            embeddings,
        } = d;
        let doc_id = info.doc_id.clone();
        let conversion = Conversion {
            doc_id: doc_id.clone(),
            title: info.title.clone(),
            chunks,
            warnings: Vec::new(),
        };
        self.core.add(conversion)?;
        self.core.set_file_name(&doc_id, &info.file_name);
        if let Some(e) = model_id.and_then(|m| embeddings.iter().find(|e| e.model_id == m))
            && let Err(err) = self
                .core
                .add_embeddings_flat(&doc_id, &e.model_id, &e.vectors, e.dim)
        {
            self.core.remove(&doc_id);
            return Err(err);
        }
        self.docs.push(DocState { info, embeddings });
        Ok(())
    }

    /// Takes document `doc_id` out of the indexes, returning everything needed to put
    /// it back with [`State::index`] (a replace that fails restores it).
    pub(crate) fn take(&mut self, doc_id: &str) -> Option<StoredDoc> {
        let pos = self.docs.iter().position(|d| d.info.doc_id == doc_id)?;
        let DocState { info, embeddings } = self.docs.remove(pos);
        let chunks = self.core.take(doc_id).map(|d| d.chunks).unwrap_or_default();
        Some(StoredDoc {
            info,
            chunks,
            embeddings,
        })
    }

    pub(crate) fn remove(&mut self, doc_id: &str) -> bool {
        self.damaged.retain(|(id, _)| id != doc_id);
        self.docs.retain(|d| d.info.doc_id != doc_id);
        self.core.remove(doc_id)
    }

    pub(crate) fn info(&self, doc_id: &str) -> Option<&DocumentInfo> {
        self.docs
            .iter()
            .map(|d| &d.info)
            .find(|i| i.doc_id == doc_id)
    }

    /// Puts the vectors of `model_id` (or none) into the core collection.
    pub(crate) fn use_model(&mut self, model_id: Option<&str>) {
        self.core.clear_embeddings();
        let Some(m) = model_id else { return };
        for d in &self.docs {
            if let Some(e) = d.embeddings.iter().find(|e| e.model_id == m) {
                // Stored vectors were checked when they were written.
                let _ = self
                    .core
                    .add_embeddings_flat(&d.info.doc_id, m, &e.vectors, e.dim);
            }
        }
    }

    /// Records `e` as document `info.doc_id`'s vectors (and `info` as its summary);
    /// the core collection gets them when `e` is of the current `model`.
    pub(crate) fn set_embeddings(&mut self, info: DocumentInfo, e: StoredEmbeddings, model: &str) {
        let Some(d) = self.docs.iter_mut().find(|d| d.info.doc_id == info.doc_id) else {
            return;
        };
        if e.model_id == model {
            // Checked by the provider layer and the dimension check before storing.
            let _ = self
                .core
                .add_embeddings_flat(&info.doc_id, &e.model_id, &e.vectors, e.dim);
        }
        d.embeddings.retain(|x| x.model_id != e.model_id);
        d.embeddings.push(e);
        d.info = info;
    }

    /// Every stored vector of `model_id` by content hash (the re-embedding cache).
    pub(crate) fn cached_vectors(&self, model_id: &str) -> HashMap<&str, &[f32]> {
        let mut out = HashMap::new();
        for d in &self.docs {
            for e in d.embeddings.iter().filter(|e| e.model_id == model_id) {
                for (i, h) in e.hashes.iter().enumerate() {
                    if let Some(v) = e.vectors.get(i * e.dim..(i + 1) * e.dim) {
                        out.insert(h.as_str(), v);
                    }
                }
            }
        }
        out
    }

    /// The dimension of `model_id`'s stored vectors, when any are stored.
    pub(crate) fn model_dim(&self, model_id: &str) -> Option<usize> {
        self.docs
            .iter()
            .flat_map(|d| d.embeddings.iter())
            .find(|e| e.model_id == model_id)
            .map(|e| e.dim)
    }
}
