//! Stored records <-> JS objects for IndexedDB (shapes in
//! [`crate::store::schema`]). Reading validates every record: a damaged one is a
//! `storage-corrupt` error naming the store and key, never a panic.

use std::collections::BTreeMap;

use js_sys::{Array, Float32Array, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use crate::chunk::Chunk;
use crate::store::DocumentInfo;

use super::super::enricher::metadata_from_object;
use super::store::{Snapshot, StoreError, StoredDoc, StoredEmbeddings};

fn set(o: &Object, k: &str, v: &JsValue) {
    // Setting a plain property on a fresh Object cannot fail.
    let _ = Reflect::set(o, &JsValue::from_str(k), v);
}

fn get(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true)
}

pub(crate) fn info_to_js(info: &DocumentInfo) -> Result<JsValue, JsValue> {
    info.serialize(&serializer())
        .map_err(|e| JsValue::from_str(&e.to_string()))
}

pub(crate) fn chunk_to_js(doc_id: &str, seq: usize, chunk: &Chunk) -> JsValue {
    let o = Object::new();
    set(&o, "docId", &doc_id.into());
    set(&o, "seq", &(seq as f64).into());
    set(&o, "text", &chunk.text.as_str().into());
    o.into()
}

pub(crate) fn metadata_to_js(doc_id: &str, seq: usize, chunk: &Chunk) -> Result<JsValue, JsValue> {
    let o = Object::new();
    set(&o, "docId", &doc_id.into());
    set(&o, "seq", &(seq as f64).into());
    let record = chunk
        .metadata
        .serialize(&serializer())
        .map_err(|e| JsValue::from_str(&e.to_string()))?;
    set(&o, "record", &record);
    Ok(o.into())
}

pub(crate) fn embeddings_to_js(doc_id: &str, e: &StoredEmbeddings) -> JsValue {
    let o = Object::new();
    set(&o, "docId", &doc_id.into());
    set(&o, "modelId", &e.model_id.as_str().into());
    set(&o, "dim", &(e.dim as f64).into());
    // A copy into the JS heap: IndexedDB clones it as binary, not as numbers.
    set(
        &o,
        "vectors",
        &Float32Array::from(e.vectors.as_slice()).into(),
    );
    let hashes: Array = e.hashes.iter().map(|h| JsValue::from_str(h)).collect();
    set(&o, "hashes", &hashes.into());
    o.into()
}

fn corrupt(store: &str, key: &str, what: &str) -> StoreError {
    StoreError::Corrupt(format!("{store} record {key}: {what}"))
}

fn string(o: &JsValue, k: &str, store: &str, key: &str) -> Result<String, StoreError> {
    get(o, k)
        .as_string()
        .ok_or_else(|| corrupt(store, key, &format!("`{k}` is not a string")))
}

fn index(o: &JsValue, k: &str, store: &str, key: &str) -> Result<usize, StoreError> {
    get(o, k)
        .as_f64()
        .filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n < 4.0e9)
        .map(|n| n as usize)
        .ok_or_else(|| corrupt(store, key, &format!("`{k}` is not a whole number")))
}

/// The document id of a record, when it has a readable one.
fn doc_of(v: &JsValue) -> Option<String> {
    get(v, "docId").as_string()
}

/// Assembles the `getAll` results of the five stores into documents.
///
/// A damaged record quarantines its document (listed in [`Snapshot::damaged`] with
/// the reason, left out of the collection, its records untouched so `remove` can
/// delete them) instead of making the whole collection unreadable. A record with no
/// readable document id is reported under the id `?`.
pub(crate) fn snapshot(
    documents: &Array,
    chunks: &Array,
    metadata: &Array,
    embeddings: &Array,
    settings: &Array,
) -> Result<Snapshot, StoreError> {
    let mut docs: BTreeMap<String, StoredDoc> = BTreeMap::new();
    let mut damaged: BTreeMap<String, String> = BTreeMap::new();
    let mut quarantine = |v: &JsValue, e: StoreError| {
        let id = doc_of(v).unwrap_or_else(|| "?".into());
        damaged.entry(id).or_insert_with(|| e.message());
    };
    for v in documents.iter() {
        match serde_wasm_bindgen::from_value::<DocumentInfo>(v.clone()) {
            Ok(info) => {
                docs.insert(
                    info.doc_id.clone(),
                    StoredDoc {
                        chunks: Vec::with_capacity(info.chunk_count as usize),
                        info,
                        embeddings: Vec::new(),
                    },
                );
            }
            Err(e) => {
                let key = doc_of(&v).unwrap_or_default();
                quarantine(&v, corrupt("documents", &key, &e.to_string()));
            }
        }
    }
    // getAll returns compound keys in order: [docId, 0], [docId, 1], ...
    for v in chunks.iter() {
        let read = || -> Result<(String, usize, String), StoreError> {
            let doc_id = string(&v, "docId", "chunks", "?")?;
            let seq = index(&v, "seq", "chunks", &doc_id)?;
            let text = string(&v, "text", "chunks", &format!("[{doc_id}, {seq}]"))?;
            Ok((doc_id, seq, text))
        };
        let (doc_id, seq, text) = match read() {
            Ok(r) => r,
            Err(e) => {
                quarantine(&v, e);
                continue;
            }
        };
        let Some(doc) = docs.get_mut(&doc_id) else {
            continue;
        };
        if seq != doc.chunks.len() {
            quarantine(
                &v,
                corrupt("chunks", &format!("[{doc_id}, {seq}]"), "sequence gap"),
            );
            continue;
        }
        doc.chunks.push(Chunk {
            text,
            metadata: crate::metadata::Metadata::new(),
        });
    }
    for v in metadata.iter() {
        let read = || -> Result<(String, usize, Object), StoreError> {
            let doc_id = string(&v, "docId", "metadata", "?")?;
            let seq = index(&v, "seq", "metadata", &doc_id)?;
            let record = get(&v, "record");
            let obj = record
                .dyn_into::<Object>()
                .map_err(|_| corrupt("metadata", &format!("[{doc_id}, {seq}]"), "no record"))?;
            Ok((doc_id, seq, obj))
        };
        match read() {
            Ok((doc_id, seq, obj)) => {
                if let Some(chunk) = docs.get_mut(&doc_id).and_then(|d| d.chunks.get_mut(seq)) {
                    chunk.metadata = metadata_from_object(&obj);
                }
            }
            Err(e) => quarantine(&v, e),
        }
    }
    for v in embeddings.iter() {
        let read = || -> Result<(String, StoredEmbeddings), StoreError> {
            let doc_id = string(&v, "docId", "embeddings", "?")?;
            let model_id = string(&v, "modelId", "embeddings", &doc_id)?;
            let key = format!("[{doc_id}, {model_id}]");
            let dim = index(&v, "dim", "embeddings", &key)?;
            let vectors = get(&v, "vectors")
                .dyn_into::<Float32Array>()
                .map_err(|_| corrupt("embeddings", &key, "`vectors` is not a Float32Array"))?
                .to_vec();
            let hashes: Vec<String> = Array::from(&get(&v, "hashes"))
                .iter()
                .map(|h| h.as_string().unwrap_or_default())
                .collect();
            Ok((
                doc_id,
                StoredEmbeddings {
                    model_id,
                    dim,
                    vectors,
                    hashes,
                },
            ))
        };
        let (doc_id, e) = match read() {
            Ok(r) => r,
            Err(err) => {
                quarantine(&v, err);
                continue;
            }
        };
        if let Some(doc) = docs.get_mut(&doc_id) {
            let n = doc.chunks.len();
            if e.dim == 0 || e.vectors.len() != n * e.dim || e.hashes.len() != n {
                let key = format!("[{doc_id}, {}]", e.model_id);
                quarantine(
                    &v,
                    corrupt("embeddings", &key, "size does not match the chunks"),
                );
                continue;
            }
            doc.embeddings.push(e);
        }
    }
    for d in docs.values() {
        if d.chunks.len() != d.info.chunk_count as usize {
            let detail = format!(
                "{} chunks stored, {} expected",
                d.chunks.len(),
                d.info.chunk_count
            );
            damaged
                .entry(d.info.doc_id.clone())
                .or_insert_with(|| corrupt("chunks", &d.info.doc_id, &detail).message());
        }
    }
    let mut out: Vec<StoredDoc> = docs
        .into_values()
        .filter(|d| !damaged.contains_key(&d.info.doc_id))
        .collect();
    super::store_order(&mut out);
    let mut map = BTreeMap::new();
    for v in settings.iter() {
        // A damaged setting is dropped, not fatal: settings are preferences.
        if let (Some(key), Some(value)) = (get(&v, "key").as_string(), get(&v, "value").as_string())
        {
            map.insert(key, value);
        }
    }
    Ok(Snapshot {
        docs: out,
        settings: map,
        damaged: damaged.into_iter().collect(),
    })
}
