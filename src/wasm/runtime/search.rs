//! `Collection.search(question, {k, method, signal})`: the top-k chunks of the
//! collection for a question, with no answer, no model call but the question's
//! embedding, and no routing: the retrieval `ask()` runs, exposed on its own.
//!
//! - `cosine` (the default): the question is embedded by the current provider, as
//!   `ask()` embeds it (the question as given, one text), and the core collection's
//!   exact cosine scan over every document with vectors of that model answers
//!   ([`crate::query::Collection::vector_search`]). The score is the cosine
//!   similarity. This is the order `docrag search --exact` gives in PostgreSQL for
//!   the same export and provider.
//! - `bm25`: the built-in BM25 index ([`crate::query::Collection::search`]); the
//!   score is the BM25 sum. No provider needed.
//! - `hybrid`: every chunk's cosine and BM25 score fused as `ask()` fuses them
//!   ([`crate::retrieve::anchored_hybrid`]: the anchored fusion at its default weights;
//!   the cosine top-k alone when no chunk shares a word with the question); the score is the
//!   fused score in [0, 1].
//!
//! Ties are broken by `(docId, seq)` ascending (document ids compared as byte
//! strings), by the core indexes themselves. `cosine` and `hybrid` without a provider
//! with an embedding model, or with one whose vectors the collection does not hold,
//! fail with `no-embedding-model` rather than silently falling back to BM25.

use std::rc::Rc;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

use crate::query::embeddings::check_vector;
use crate::retrieve::{Hit, anchored_hybrid};

use super::super::errors::js_error;
use super::super::provider::{CallControl, provider_error_to_js};
use super::bag::{Bag, check_abort, invalid, query_error};
use super::collection::Inner;

/// The default number of chunks.
const DEFAULT_K: usize = 10;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Cosine,
    Bm25,
    Hybrid,
}

fn hit_to_js(h: &Hit) -> JsValue {
    let o = Object::new();
    let id = format!("{}:{}", h.chunk.doc, h.chunk.seq);
    let _ = Reflect::set(&o, &"chunkId".into(), &id.into());
    let _ = Reflect::set(&o, &"docId".into(), &h.chunk.doc.as_str().into());
    let _ = Reflect::set(&o, &"seq".into(), &f64::from(h.chunk.seq).into());
    let _ = Reflect::set(&o, &"score".into(), &f64::from(h.score).into());
    o.into()
}

/// `search(question, {k, method, signal})`: resolves to `[{chunkId, docId, seq,
/// score}]`, best first.
pub(crate) async fn search(
    inner: Rc<Inner>,
    question: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let bag = Bag::new("search", &options, &["k", "method", "signal"])?;
    let Some(question) = question.as_string() else {
        return Err(js_error(
            "invalid-input",
            "search() takes the question as a string",
        ));
    };
    if question.trim().is_empty() {
        return Err(js_error(
            "empty-question",
            "the question is empty (only whitespace)",
        ));
    }
    let k = bag
        .whole("k", 1.0, 1.0e6)?
        .map_or(DEFAULT_K, |n| n as usize);
    let method = match bag.string("method")?.as_deref() {
        None | Some("cosine") => Method::Cosine,
        Some("bm25") => Method::Bm25,
        Some("hybrid") => Method::Hybrid,
        Some(other) => {
            return Err(invalid(
                "method",
                &format!("expected cosine, bm25 or hybrid, got {other:?}"),
            ));
        }
    };
    let signal = bag.signal("signal")?;
    check_abort(signal.as_ref())?;

    // The question's vector, for cosine and hybrid.
    let mut query: Option<Vec<f32>> = None;
    if method != Method::Bm25 {
        let name = if method == Method::Cosine {
            "cosine"
        } else {
            "hybrid"
        };
        let provider = inner.provider();
        let Some((p, model)) = provider
            .as_ref()
            .and_then(|p| Some((p, p.embedding_model_id()?)))
        else {
            return Err(js_error(
                "no-embedding-model",
                &format!(
                    "search() with method {name:?} needs a provider with an embedding model (setProvider); method \"bm25\" needs none"
                ),
            ));
        };
        let (held, empty) = {
            let state = inner.state.borrow();
            let held = state
                .core
                .embeddings()
                .is_some_and(|e| e.model_id() == model);
            (held, state.core.total_chunks() == 0)
        };
        if empty {
            return Ok(Array::new().into());
        }
        if !held {
            return Err(js_error(
                "no-embedding-model",
                &format!(
                    "search() with method {name:?}: the collection holds no vectors of the provider's model {model} (embedMissing() makes them)"
                ),
            ));
        }
        let ctl = CallControl {
            signal: signal.clone(),
            on_progress: None,
        };
        let mut v = p
            .embed(std::slice::from_ref(&question), &ctl)
            .await
            .map_err(|e| provider_error_to_js(&e))?;
        check_abort(signal.as_ref())?;
        query = Some(v.pop().unwrap_or_default());
    }

    let state = inner.state.borrow();
    let core = &state.core;
    let all: Vec<usize> = (0..core.documents().len()).collect();
    let in_scope: usize = core.documents().iter().map(|d| d.chunks.len()).sum();
    let vector = match &query {
        Some(q) => {
            // The provider (or its model) may have changed while the question was
            // embedded: check against the vectors held now.
            let Some(store) = core.embeddings() else {
                return Err(js_error(
                    "no-embedding-model",
                    "search(): the collection's vectors were removed while the question was embedded",
                ));
            };
            check_vector(q, store.dim(), None).map_err(|e| query_error(&e))?;
            // Hybrid fuses each chunk with its real scores, so it reads every cosine.
            let n = if method == Method::Hybrid {
                in_scope.max(k)
            } else {
                k
            };
            Some(core.vector_search(q, n, &all))
        }
        None => None,
    };
    let hits = match method {
        Method::Cosine => vector.unwrap_or_default(),
        Method::Bm25 => core.search(&question, k, &all),
        Method::Hybrid => {
            let lexical = core.search(&question, in_scope.max(k), &all);
            anchored_hybrid(&lexical, vector.unwrap_or_default(), k)
        }
    };
    Ok(hits.iter().map(hit_to_js).collect::<Array>().into())
}
