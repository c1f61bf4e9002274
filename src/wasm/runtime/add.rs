//! Adding a file: read -> convert (parse + chunk) -> embed (only chunks whose
//! content hash has no stored vector) -> store in one transaction -> index.
//!
//! Nothing reaches storage or the in-memory collection until every step before
//! the store succeeded, so a failed add (bad file, provider down mid-batch, abort,
//! quota) leaves the collection exactly as it was.

use std::rc::Rc;

use js_sys::{ArrayBuffer, Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

use crate::options::Format;
use crate::provider::cache::text_hash;
use crate::read::sniff;
use crate::store::DocumentInfo;

use super::super::convert::conversion;
use super::super::errors::{from_convert, js_error};
use super::super::options as convert_options;
use super::super::progress::observed;
use super::super::provider::{CallControl, JsProvider, provider_error_to_js};
use super::bag::{Bag, check_abort, progress, query_error, yield_now};
use super::collection::{Inner, store_error, to_js};
use super::store::{StoredDoc, StoredEmbeddings};
use crate::query::embeddings::check_vector;

/// The bytes, file name and MIME type of `input` (a File/Blob, bytes or text).
async fn read_input(input: &JsValue) -> Result<(Vec<u8>, Option<String>, Option<String>), JsValue> {
    if let Some(text) = input.as_string() {
        return Ok((text.into_bytes(), None, None));
    }
    if let Some(a) = input.dyn_ref::<Uint8Array>() {
        return Ok((a.to_vec(), None, None));
    }
    if let Some(b) = input.dyn_ref::<ArrayBuffer>() {
        return Ok((Uint8Array::new(b).to_vec(), None, None));
    }
    let read = Reflect::get(input, &"arrayBuffer".into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(f) = read.dyn_ref::<Function>().filter(|_| input.is_object()) {
        let promise: Promise = f
            .call0(input)
            .and_then(|p| p.dyn_into::<Promise>())
            .map_err(|e| {
                js_error(
                    "invalid-input",
                    &format!(
                        "reading the file failed: {}",
                        crate::wasm::objects::describe(&e)
                    ),
                )
            })?;
        let buf = JsFuture::from(promise).await.map_err(|e| {
            js_error(
                "invalid-input",
                &format!(
                    "reading the file failed: {}",
                    crate::wasm::objects::describe(&e)
                ),
            )
        })?;
        let bytes = Uint8Array::new(&buf).to_vec();
        let text = |k: &str| {
            Reflect::get(input, &k.into())
                .ok()
                .and_then(|v| v.as_string())
                .filter(|s| !s.is_empty())
        };
        return Ok((bytes, text("name"), text("type")));
    }
    Err(js_error(
        "invalid-input",
        "addFile() takes a File, a Blob, a Uint8Array, an ArrayBuffer or a string",
    ))
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

pub(crate) async fn add_file(
    inner: Rc<Inner>,
    input: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let bag = Bag::new(
        "addFile",
        &options,
        &[
            "fileName",
            "mimeType",
            "convert",
            "replace",
            "signal",
            "onProgress",
        ],
    )?;
    let signal = bag.signal("signal")?;
    let on_progress = bag.function("onProgress")?;
    let replace = bag.bool("replace")?.unwrap_or(false);
    let mut parsed = convert_options::parse(&bag.raw("convert")).map_err(|e| from_convert(&e))?;
    check_abort(signal.as_ref())?;

    let (bytes, file_name, mime) = read_input(&input).await?;
    let file_name = bag
        .string("fileName")?
        .or(file_name)
        .or(parsed.options.file_name.clone());
    let mime = bag
        .string("mimeType")?
        .or(mime)
        .or(parsed.options.mime.clone());
    let label = file_name.clone().unwrap_or_default();
    let extra = |stage_total: f64| -> Vec<(&str, JsValue)> {
        vec![
            ("fileName", JsValue::from(label.as_str())),
            ("bytes", stage_total.into()),
        ]
    };
    let size = bytes.len() as f64;
    progress(on_progress.as_ref(), "read", size, size, &extra(size));

    if let Some(name) = &file_name {
        parsed.options = parsed.options.with_file_name(name.clone());
    }
    if let Some(m) = &mime {
        parsed.options.mime = Some(m.clone());
    }
    let format = match parsed.options.format {
        Some(f) => f,
        None => sniff::detect(&bytes, file_name.as_deref(), mime.as_deref())
            .map_err(|e| from_convert(&e))?,
    };
    // Said before the synchronous conversion, with a turn of the event loop, so a page
    // running it on its own thread shows "parse" while it waits.
    progress(on_progress.as_ref(), "parse", 0.0, size, &extra(size));
    yield_now().await;
    check_abort(signal.as_ref())?;
    let document = if format == Format::Pdf {
        let doc = super::super::pdf::read(
            &bytes,
            &parsed.options,
            on_progress.as_ref(),
            signal.as_ref(),
            &extra(size),
        )
        .await?;
        check_abort(signal.as_ref())?;
        Some(doc)
    } else {
        None
    };
    let conversion = observed(on_progress.clone(), signal.clone(), label.clone(), || {
        conversion(&bytes, document, &parsed.options, parsed.names)
    })?;
    if conversion.chunks.is_empty() {
        return Err(from_convert(&crate::ConvertError::no_text(&parsed.options)));
    }
    // Conversion ran without a break: let an abort (or a worker's abort message) in.
    yield_now().await;
    check_abort(signal.as_ref())?;

    if !replace && let Some(existing) = inner.state.borrow().info(&conversion.doc_id) {
        progress(on_progress.as_ref(), "done", 1.0, 1.0, &extra(size));
        return to_js(existing);
    }

    let mut info =
        DocumentInfo::from_conversion(&conversion, &label, format, bytes.len() as u64, now_ms());
    let mut embeddings = Vec::new();
    if let Some(provider) = inner.provider()
        && let Some(model) = provider.embedding_model_id()
        && !conversion.chunks.is_empty()
    {
        let texts: Vec<&str> = conversion.chunks.iter().map(|c| c.text.as_str()).collect();
        let e = embed_chunks(
            &inner,
            &provider,
            &model,
            &texts,
            signal.as_ref(),
            on_progress.as_ref(),
            &label,
        )
        .await?;
        info.embedding_models.push(model);
        embeddings.push(e);
    }
    check_abort(signal.as_ref())?;

    let doc = StoredDoc {
        info: info.clone(),
        chunks: conversion.chunks,
        embeddings,
    };
    // Indexed in memory before anything is written: a document that cannot be
    // indexed is refused while the stored version (if any) is untouched, and a
    // replaced version stays in memory, ready to come back, until the store
    // transaction (which swaps old records for new in one go) has completed.
    let model = inner.model_id();
    let previous = {
        let mut state = inner.state.borrow_mut();
        let previous = state.take(&info.doc_id);
        if let Err(e) = state.index(doc.clone(), model.as_deref()) {
            if let Some(p) = previous {
                // It was indexed a moment ago, so it indexes again.
                let _ = state.index(p, model.as_deref());
            }
            return Err(query_error(&e));
        }
        previous
    };
    progress(on_progress.as_ref(), "store", 0.0, 1.0, &extra(size));
    inner.pending.borrow_mut().push(info.doc_id.clone());
    let stored = inner.store.put_document(&doc, signal.as_ref()).await;
    {
        let mut pending = inner.pending.borrow_mut();
        if let Some(i) = pending.iter().position(|id| *id == info.doc_id) {
            pending.remove(i);
        }
    }
    if let Err(e) = stored {
        let mut state = inner.state.borrow_mut();
        state.remove(&info.doc_id);
        if let Some(p) = previous {
            let _ = state.index(p, model.as_deref());
        }
        return Err(store_error(&e));
    }
    progress(on_progress.as_ref(), "store", 1.0, 1.0, &extra(size));
    inner.broadcast("added", &info.doc_id);
    progress(on_progress.as_ref(), "done", 1.0, 1.0, &extra(size));
    to_js(&info)
}

/// Vectors of `model` for `texts` (one document's chunks, in order): stored
/// vectors of the same text (content hash) are reused, the rest go to the provider.
///
/// # Errors
/// The provider's errors; `embedding-dimension` when the model's vectors differ in
/// dimension from the ones already stored for it.
pub(crate) async fn embed_chunks(
    inner: &Inner,
    provider: &JsProvider,
    model: &str,
    texts: &[&str],
    signal: Option<&AbortSignal>,
    on_progress: Option<&Function>,
    label: &str,
) -> Result<StoredEmbeddings, JsValue> {
    let hashes: Vec<String> = texts.iter().map(|t| text_hash(model, t)).collect();
    let (missing, known_dim) = {
        let state = inner.state.borrow();
        let cache = state.cached_vectors(model);
        let missing: Vec<usize> = (0..hashes.len())
            .filter(|&i| !cache.contains_key(hashes[i].as_str()))
            .collect();
        (missing, state.model_dim(model))
    };
    let name = || vec![("fileName", JsValue::from(label))];
    let total = missing.len() as f64;
    progress(on_progress, "embed", 0.0, total, &name());
    let batch: Vec<String> = missing.iter().map(|&i| texts[i].to_string()).collect();
    let fresh = if batch.is_empty() {
        Vec::new()
    } else {
        let cb = on_progress.cloned();
        let label2 = label.to_string();
        let relay = Closure::<dyn FnMut(f64, f64)>::new(move |done: f64, total: f64| {
            progress(
                cb.as_ref(),
                "embed",
                done,
                total,
                &[("fileName", JsValue::from(label2.as_str()))],
            );
        });
        let ctl = CallControl {
            signal: signal.cloned(),
            on_progress: Some(relay.as_ref().unchecked_ref::<Function>().clone()),
        };
        let r = provider.embed(&batch, &ctl).await;
        drop(relay);
        r.map_err(|e| provider_error_to_js(&e))?
    };
    let dim = known_dim
        .or_else(|| fresh.first().map(Vec::len))
        .unwrap_or(0);
    if let Some(bad) = fresh.iter().find(|v| v.len() != dim) {
        return Err(js_error(
            "embedding-dimension",
            &format!(
                "model {model} returned a {}-dimensional vector; the collection's vectors for it have {dim} dimensions",
                bad.len()
            ),
        ));
    }
    // The rule the vector index applies (finite, not all zeros), checked before
    // anything is stored so a bad vector is the provider's error, not storage damage.
    for (i, v) in fresh.iter().enumerate() {
        let seq = missing.get(i).copied().unwrap_or(i);
        check_vector(v, dim, Some((label, seq))).map_err(|e| query_error(&e))?;
    }
    let state = inner.state.borrow();
    let cache = state.cached_vectors(model);
    let mut vectors = Vec::with_capacity(hashes.len() * dim);
    let mut next = fresh.iter();
    for h in &hashes {
        match cache.get(h.as_str()) {
            Some(v) => vectors.extend_from_slice(v),
            None => vectors.extend_from_slice(next.next().map(Vec::as_slice).unwrap_or(&[])),
        }
    }
    if vectors.len() != hashes.len() * dim {
        return Err(js_error(
            "embedding-count",
            "the provider returned fewer vectors than texts",
        ));
    }
    progress(on_progress, "embed", total, total, &name());
    Ok(StoredEmbeddings {
        model_id: model.to_string(),
        dim,
        vectors,
        hashes,
    })
}

/// Embeds every document that has no vectors of the current embedding model and
/// stores them (one transaction per document). Resolves to the number of
/// documents embedded.
pub(crate) async fn embed_missing(inner: Rc<Inner>, options: JsValue) -> Result<JsValue, JsValue> {
    let bag = Bag::new("embedMissing", &options, &["signal", "onProgress"])?;
    let signal = bag.signal("signal")?;
    let on_progress = bag.function("onProgress")?;
    // Aborted before it starts: rejected as every long call is, even with nothing to do.
    check_abort(signal.as_ref())?;
    let Some(provider) = inner.provider() else {
        return Ok(JsValue::from(0));
    };
    let Some(model) = provider.embedding_model_id() else {
        return Ok(JsValue::from(0));
    };
    let todo: Vec<String> = inner
        .state
        .borrow()
        .docs
        .iter()
        .filter(|d| !d.embeddings.iter().any(|e| e.model_id == model))
        .map(|d| d.info.doc_id.clone())
        .collect();
    let mut count = 0;
    for doc_id in todo {
        check_abort(signal.as_ref())?;
        let (texts, label) = {
            let state = inner.state.borrow();
            let Some(pos) = state.core.position(&doc_id) else {
                continue;
            };
            let d = &state.core.documents()[pos];
            let texts: Vec<String> = d.chunks.iter().map(|c| c.text.clone()).collect();
            (
                texts,
                state
                    .info(&doc_id)
                    .map(|i| i.file_name.clone())
                    .unwrap_or_default(),
            )
        };
        if texts.is_empty() {
            continue;
        }
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let e = embed_chunks(
            &inner,
            &provider,
            &model,
            &refs,
            signal.as_ref(),
            on_progress.as_ref(),
            &label,
        )
        .await?;
        let Some(mut info) = inner.state.borrow().info(&doc_id).cloned() else {
            continue;
        };
        info.embedding_models.retain(|m| m != &model);
        info.embedding_models.push(model.clone());
        inner
            .store
            .put_embeddings(&info, &e)
            .await
            .map_err(|err| store_error(&err))?;
        inner.state.borrow_mut().set_embeddings(info, e, &model);
        count += 1;
    }
    Ok(JsValue::from(count))
}
