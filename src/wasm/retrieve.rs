//! The `VectorIndex` and `Bm25Index` JS classes: thin wrappers over
//! [`crate::retrieve`]. Hits come back as plain `{docId, seq, score}` objects; errors
//! as `DocragError`s with the [`RetrieveError::code`].

use js_sys::{ArrayBuffer, Uint8Array};
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::retrieve::{Bm25Index, Hit, RetrieveError, VectorIndex, dot};

use super::errors::{INTERNAL, INVALID_INPUT, js_error};

/// The JS error for a retrieval error.
fn from_retrieve(err: &RetrieveError) -> JsValue {
    js_error(err.code(), &err.to_string())
}

/// The JS hit shape (`SearchHit` in the d.ts).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsHit<'a> {
    doc_id: &'a str,
    seq: u32,
    score: f32,
}

fn hits_to_js(hits: &[Hit]) -> Result<JsValue, JsValue> {
    let out: Vec<JsHit> = hits
        .iter()
        .map(|h| JsHit {
            doc_id: &h.chunk.doc,
            seq: h.chunk.seq,
            score: h.score,
        })
        .collect();
    serde_wasm_bindgen::to_value(&out).map_err(|e| js_error(INTERNAL, &e.to_string()))
}

/// `undefined`/`null` -> no restriction; an array of strings -> those documents.
fn doc_ids(value: &JsValue) -> Result<Option<Vec<String>>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let bad = || {
        js_error(
            INVALID_INPUT,
            "docIds must be an array of document id strings",
        )
    };
    if !js_sys::Array::is_array(value) {
        return Err(bad());
    }
    js_sys::Array::from(value)
        .iter()
        .map(|v| v.as_string().ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Exact cosine search over embeddings (`VectorIndex` in JS).
#[wasm_bindgen(js_name = VectorIndex)]
pub struct JsVectorIndex {
    inner: VectorIndex,
}

#[wasm_bindgen(js_class = VectorIndex)]
impl JsVectorIndex {
    /// An empty index for `dim`-dimensional vectors.
    #[wasm_bindgen(constructor)]
    pub fn new(dim: JsValue) -> Result<JsVectorIndex, JsValue> {
        super::install_panic_hook();
        // Taken as a JS number: a `u32` parameter would wrap -1 to 4294967295.
        let n = dim.as_f64().unwrap_or(f64::NAN);
        if !n.is_finite() || n.fract() != 0.0 || !(1.0..=65_536.0).contains(&n) {
            return Err(super::errors::js_error(
                "invalid-dimension",
                &format!(
                    "the dimension must be a whole number from 1 to 65536, got {}",
                    super::objects::describe(&dim)
                ),
            ));
        }
        let inner = VectorIndex::new(n as usize).map_err(|e| from_retrieve(&e))?;
        Ok(JsVectorIndex { inner })
    }

    /// The dimension of every vector.
    #[wasm_bindgen(getter)]
    pub fn dim(&self) -> u32 {
        self.inner.dim() as u32
    }

    /// The number of vectors held.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Adds the embedding of chunk `seq` of document `docId` (stored normalized).
    pub fn add(&mut self, doc_id: &str, seq: u32, vector: &[f32]) -> Result<(), JsValue> {
        self.inner
            .add(doc_id, seq, vector)
            .map_err(|e| from_retrieve(&e))
    }

    /// The `k` most similar chunks, best first, optionally within `docIds`.
    pub fn search(
        &self,
        query: &[f32],
        k: u32,
        doc_ids_value: JsValue,
    ) -> Result<JsValue, JsValue> {
        let hits = match doc_ids(&doc_ids_value)? {
            None => self.inner.search(query, k as usize),
            Some(docs) => self.inner.search_in(query, k as usize, &docs),
        }
        .map_err(|e| from_retrieve(&e))?;
        hits_to_js(&hits)
    }

    /// Removes every chunk of `docId`; returns how many were removed.
    #[wasm_bindgen(js_name = removeDocument)]
    pub fn remove_document(&mut self, doc_id: &str) -> u32 {
        self.inner.remove_document(doc_id) as u32
    }

    /// The versioned binary form (for IndexedDB).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Loads what `toBytes` wrote (a `Uint8Array` or `ArrayBuffer`). The bytes are
    /// read from JS memory a block at a time, never copied into wasm memory whole, so
    /// loading needs about the index's own size.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: JsValue) -> Result<JsVectorIndex, JsValue> {
        super::install_panic_hook();
        let array = if let Some(a) = bytes.dyn_ref::<Uint8Array>() {
            a.clone()
        } else if let Some(b) = bytes.dyn_ref::<ArrayBuffer>() {
            // A detached buffer has no bytes, and constructing a view over it throws.
            if b.byte_length() == 0 {
                return Err(from_retrieve(&RetrieveError::NotAnIndex { kind: "vector" }));
            }
            Uint8Array::new(b)
        } else {
            return Err(js_error(
                INVALID_INPUT,
                "VectorIndex.fromBytes expects a Uint8Array or an ArrayBuffer",
            ));
        };
        let len = array.length() as usize;
        if len == 0 {
            return Err(from_retrieve(&RetrieveError::NotAnIndex { kind: "vector" }));
        }
        // A view whose length or subarray lies (a subclass) must not reach `copy_to`,
        // which panics on a length mismatch.
        let mut lied = false;
        let inner = VectorIndex::from_source(len, &mut |at, buf| {
            let part = array.subarray(at as u32, (at + buf.len()) as u32);
            if part.length() as usize == buf.len() {
                part.copy_to(buf);
            } else {
                lied = true;
                buf.fill(0);
            }
        });
        if lied {
            return Err(js_error(
                INVALID_INPUT,
                "VectorIndex.fromBytes: the Uint8Array reported a length its contents do not have",
            ));
        }
        let inner = inner.map_err(|e| from_retrieve(&e))?;
        Ok(JsVectorIndex { inner })
    }

    /// Whether this build scores with wasm SIMD128 instructions.
    #[wasm_bindgen(js_name = simd)]
    pub fn simd() -> bool {
        dot::SIMD128
    }
}

/// The built-in lexical index (`Bm25Index` in JS).
#[wasm_bindgen(js_name = Bm25Index)]
pub struct JsBm25Index {
    inner: Bm25Index,
}

#[wasm_bindgen(js_class = Bm25Index)]
impl JsBm25Index {
    /// An empty index (k1 1.2, b 0.75).
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> JsBm25Index {
        super::install_panic_hook();
        JsBm25Index {
            inner: Bm25Index::new(),
        }
    }

    /// The number of chunks held.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Indexes the text of chunk `seq` of document `docId`.
    pub fn add(&mut self, doc_id: &str, seq: u32, text: &str) -> Result<(), JsValue> {
        self.inner
            .add(doc_id, seq, text)
            .map_err(|e| from_retrieve(&e))
    }

    /// The `k` best-matching chunks, best first, optionally within `docIds`.
    pub fn search(&self, query: &str, k: u32, doc_ids_value: JsValue) -> Result<JsValue, JsValue> {
        let hits = match doc_ids(&doc_ids_value)? {
            None => self.inner.search(query, k as usize),
            Some(docs) => self.inner.search_in(query, k as usize, &docs),
        };
        hits_to_js(&hits)
    }

    /// Removes every chunk of `docId`; returns how many were removed.
    #[wasm_bindgen(js_name = removeDocument)]
    pub fn remove_document(&mut self, doc_id: &str) -> u32 {
        self.inner.remove_document(doc_id) as u32
    }

    /// The versioned binary form (for IndexedDB).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Loads what `toBytes` wrote.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<JsBm25Index, JsValue> {
        super::install_panic_hook();
        let inner = Bm25Index::from_bytes(bytes).map_err(|e| from_retrieve(&e))?;
        Ok(JsBm25Index { inner })
    }
}
