//! The in-memory store: the collection lives as long as the page (or Node process).
//! Same semantics as IndexedDB (whole-document writes and deletes), no persistence.

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::store::DocumentInfo;

use super::store::{Snapshot, StoredDoc, StoredEmbeddings};

#[derive(Default)]
pub(crate) struct MemoryStore {
    docs: RefCell<BTreeMap<String, StoredDoc>>,
    settings: RefCell<BTreeMap<String, String>>,
}

impl MemoryStore {
    pub(crate) fn load(&self) -> Snapshot {
        let mut docs: Vec<StoredDoc> = self.docs.borrow().values().cloned().collect();
        super::store_order(&mut docs);
        Snapshot {
            docs,
            settings: self.settings.borrow().clone(),
            damaged: Vec::new(),
        }
    }

    pub(crate) fn put_document(&self, doc: &StoredDoc) {
        self.docs
            .borrow_mut()
            .insert(doc.info.doc_id.clone(), doc.clone());
    }

    pub(crate) fn put_embeddings(&self, info: &DocumentInfo, e: &StoredEmbeddings) {
        if let Some(doc) = self.docs.borrow_mut().get_mut(&info.doc_id) {
            doc.info = info.clone();
            doc.embeddings.retain(|x| x.model_id != e.model_id);
            doc.embeddings.push(e.clone());
        }
    }

    pub(crate) fn remove_document(&self, doc_id: &str) {
        self.docs.borrow_mut().remove(doc_id);
    }

    pub(crate) fn put_setting(&self, key: &str, json: Option<&str>) {
        let mut s = self.settings.borrow_mut();
        match json {
            Some(v) => {
                s.insert(key.to_string(), v.to_string());
            }
            None => {
                s.remove(key);
            }
        }
    }
}
