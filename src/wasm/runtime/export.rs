//! `Collection.export()`: every chunk of the collection as `docrag.chunk.v1` JSONL
//! lines (the format is [`crate::store::export`]'s; nothing here writes a field of its
//! own), in a `Blob` of type `application/x-ndjson` for the page to download or send
//! to a server (`docrag load postgres://... FILE.jsonl`).
//!
//! - Documents in `documents()` order, each document's chunks in `ssSeq` order.
//! - `tokenCount` is the collection's own count of the chunk (`Document::chunk_tokens`,
//!   exact o200k_base; a collection refuses a document whose count field was renamed),
//!   so no chunk is tokenized again.
//! - A chunk carries `embedding` and `embeddingModel` when its document has stored
//!   vectors of the current provider's embedding model (the model id the collection
//!   uses for retrieval, `provider.embeddingModelId`). Without a provider, or with one
//!   that cannot embed, no line has a vector, even when vectors of an earlier model
//!   are stored: which model's vectors leave the browser is the provider's choice,
//!   never a guess among stored ones.
//!
//! The lines go into the Blob in parts of about 1 MiB of UTF-8, so no JS string of
//! the whole export is ever made. Each document is written while the state is
//! borrowed once (its lines are consistent); between documents the event loop runs
//! every 50 ms so an abort (a worker's abort message) gets in. A document removed
//! meanwhile is left out; one added after the call began is not in this export.

use std::rc::Rc;

use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::store::export::{ExportChunk, export_line};

use super::super::errors::js_error;
use super::bag::{Bag, check_abort, progress, yield_now};
use super::collection::Inner;
use super::state::State;

/// The MIME type of the Blob.
const NDJSON: &str = "application/x-ndjson";
/// Bytes of JSONL gathered before they become one part of the Blob.
const PART_BYTES: usize = 1 << 20;
/// Milliseconds of writing between turns of the event loop.
const SLICE_MS: f64 = 50.0;

/// The global `Blob` constructor (browsers, workers, Node >= 18).
fn blob_class() -> Result<Function, JsValue> {
    Reflect::get(&js_sys::global(), &"Blob".into())
        .ok()
        .and_then(|b| b.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            js_error(
                "internal",
                "export() needs the global Blob class, which this JavaScript environment lacks",
            )
        })
}

/// Moves the gathered bytes into the Blob's parts.
fn flush(buf: &mut Vec<u8>, parts: &Array) {
    if !buf.is_empty() {
        parts.push(&Uint8Array::from(&buf[..]));
        buf.clear();
    }
}

/// Writes every line of document `doc_id` (at position `hint` when the collection has
/// not changed) into `buf`; returns how many chunks it had (0 when it is gone).
fn write_document(
    state: &State,
    doc_id: &str,
    hint: usize,
    model: Option<&str>,
    buf: &mut Vec<u8>,
    parts: &Array,
) -> usize {
    let doc = state
        .docs
        .get(hint)
        .filter(|d| d.info.doc_id == doc_id)
        .or_else(|| state.docs.iter().find(|d| d.info.doc_id == doc_id));
    let core = state
        .core
        .documents()
        .get(hint)
        .filter(|d| d.doc_id == doc_id)
        .or_else(|| {
            let pos = state.core.position(doc_id)?;
            state.core.documents().get(pos)
        });
    let (Some(doc), Some(core)) = (doc, core) else {
        return 0;
    };
    let chunks = &core.chunks;
    // Vectors are stored chunk count x dim, in ssSeq order; a record of another shape
    // (never written by this version) gives no vectors rather than wrong ones.
    let vectors = model
        .and_then(|m| doc.embeddings.iter().find(|e| e.model_id == m))
        .filter(|e| e.dim > 0 && e.vectors.len() == chunks.len() * e.dim);
    for (i, chunk) in chunks.iter().enumerate() {
        let Ok(seq) = u32::try_from(i) else { break };
        let embedding = vectors.and_then(|e| {
            let v = e.vectors.get(i * e.dim..(i + 1) * e.dim)?;
            Some((e.model_id.as_str(), v))
        });
        let line = export_line(&ExportChunk {
            document_id: doc_id,
            seq,
            file_name: &doc.info.file_name,
            text: &chunk.text,
            token_count: core.chunk_tokens(i),
            metadata: &chunk.metadata,
            embedding,
        });
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        if buf.len() >= PART_BYTES {
            flush(buf, parts);
        }
    }
    chunks.len()
}

/// `export({signal, onProgress})`: resolves to the Blob. `onProgress` hears
/// `{stage: "export", done, total}` in chunks, after each document.
pub(crate) async fn export(inner: Rc<Inner>, options: JsValue) -> Result<JsValue, JsValue> {
    let bag = Bag::new("export", &options, &["signal", "onProgress"])?;
    let signal = bag.signal("signal")?;
    let on_progress = bag.function("onProgress")?;
    check_abort(signal.as_ref())?;
    let blob = blob_class()?;
    let model = inner.model_id();
    let (ids, total) = {
        let state = inner.state.borrow();
        let ids: Vec<String> = state.docs.iter().map(|d| d.info.doc_id.clone()).collect();
        (ids, state.core.total_chunks())
    };
    let total_f = total as f64;
    progress(on_progress.as_ref(), "export", 0.0, total_f, &[]);
    let parts = Array::new();
    let mut buf = Vec::with_capacity(PART_BYTES + (64 << 10));
    let mut done = 0usize;
    let mut slice_start = js_sys::Date::now();
    for (hint, id) in ids.iter().enumerate() {
        done += {
            let state = inner.state.borrow();
            write_document(&state, id, hint, model.as_deref(), &mut buf, &parts)
        };
        progress(
            on_progress.as_ref(),
            "export",
            done.min(total) as f64,
            total_f,
            &[],
        );
        if js_sys::Date::now() - slice_start >= SLICE_MS {
            yield_now().await;
            slice_start = js_sys::Date::now();
        }
        check_abort(signal.as_ref())?;
    }
    flush(&mut buf, &parts);
    let options = Object::new();
    let _ = Reflect::set(&options, &"type".into(), &NDJSON.into());
    Reflect::construct(&blob, &Array::of2(&parts, &options)).map_err(|e| {
        js_error(
            "internal",
            &format!(
                "the export could not be made into a Blob: {}",
                e.as_string()
                    .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
                    .unwrap_or_default()
            ),
        )
    })
}
