//! The `Collection` class: a named, persistent set of documents.
//!
//! Methods that do I/O return Promises; the state lives behind `Rc<Inner>` so a
//! Promise keeps what it needs alive and no Rust borrow is held across an await
//! (two calls can run at once: a question while a file is being added).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Array, Function, Object, Promise, Reflect};
use serde::Serialize;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::future_to_promise;

use crate::store::schema;

use super::super::errors::js_error;
use super::super::provider::JsProvider;
use super::bag::{Bag, check_abort, invalid, progress};
use super::idb::{self, IdbStore};
use super::memory::MemoryStore;
use super::state::State;
use super::store::{Store, StoreError};

/// The settings key of the remembered provider options (JSON, no functions).
const PROVIDER_SETTING: &str = "docrag.provider";

pub(crate) struct Inner {
    pub name: String,
    pub store: Store,
    pub state: RefCell<State>,
    pub provider: RefCell<Option<Rc<JsProvider>>>,
    channel: RefCell<Option<web_sys::BroadcastChannel>>,
    on_change: RefCell<Option<Function>>,
    /// Documents of an `addFile` in progress: indexed in memory, their store
    /// transaction not yet complete. A refresh keeps them (the store does not hold
    /// them yet).
    pub pending: RefCell<Vec<String>>,
}

/// `JSON.stringify(value)`, or `invalid-option` naming `what` when the value has no
/// JSON form (a function, a symbol, `undefined` from `toJSON`, a cycle, a BigInt).
fn json_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| invalid(what, "is not JSON-serializable"))
}

/// Whether an options object has a function-valued property.
fn has_function(value: &JsValue) -> bool {
    let Some(obj) = value.dyn_ref::<Object>() else {
        return false;
    };
    crate::wasm::objects::values(obj)
        .map(|vals| vals.iter().any(|v: JsValue| v.is_function()))
        .unwrap_or(false)
}

/// A string argument, or an `invalid-input` DocragError naming it (wasm-bindgen's
/// own string conversion would trap on a number or read `undefined.length`).
pub(crate) fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        let kind = if value.is_null() {
            "null".to_string()
        } else {
            value.js_typeof().as_string().unwrap_or_default()
        };
        js_error(
            "invalid-input",
            &format!("{what} must be a string, got {kind}"),
        )
    })
}

/// A store error as a DocragError.
pub(crate) fn store_error(e: &StoreError) -> JsValue {
    js_error(e.code(), &e.message())
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let s = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&s)
        .map_err(|e| js_error("internal", &format!("could not build the result: {e}")))
}

impl Inner {
    pub(crate) fn provider(&self) -> Option<Rc<JsProvider>> {
        self.provider.borrow().clone()
    }

    pub(crate) fn model_id(&self) -> Option<String> {
        self.provider().and_then(|p| p.embedding_model_id())
    }

    /// Tells other tabs of this collection that it changed.
    pub(crate) fn broadcast(&self, what: &str, doc_id: &str) {
        if let Some(ch) = self.channel.borrow().as_ref() {
            let o = Object::new();
            let _ = Reflect::set(&o, &"type".into(), &what.into());
            let _ = Reflect::set(&o, &"docId".into(), &doc_id.into());
            let _ = ch.post_message(&o);
        }
    }

    /// Reloads every record from storage (another tab changed it).
    pub(crate) async fn refresh(&self) -> Result<(), JsValue> {
        let snapshot = self.store.load().await.map_err(|e| store_error(&e))?;
        let model = self.model_id();
        let mut state =
            State::from_snapshot(snapshot, model.as_deref()).map_err(|e| store_error(&e))?;
        let mut old = self.state.borrow_mut();
        for id in self.pending.borrow().iter() {
            if let Some(d) = old.take(id) {
                state.remove(id);
                // It was indexed in this tab a moment ago, so it indexes again.
                let _ = state.index(d, model.as_deref());
            }
        }
        *old = state;
        Ok(())
    }
}

/// A named document collection, stored in IndexedDB (browsers) or memory (Node).
/// See index.d.ts for the full TypeScript surface.
#[wasm_bindgen(js_name = Collection)]
pub struct JsCollection {
    inner: Rc<Inner>,
}

fn has_global(name: &str) -> bool {
    Reflect::get(&js_sys::global(), &name.into())
        .map(|v| !v.is_undefined() && !v.is_null())
        .unwrap_or(false)
}

fn is_node() -> bool {
    Reflect::get(&js_sys::global(), &"process".into())
        .and_then(|p| Reflect::get(&p, &"versions".into()))
        .and_then(|v| Reflect::get(&v, &"node".into()))
        .map(|n| n.is_string())
        .unwrap_or(false)
}

async fn open(name: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    super::super::install_panic_hook();
    let name = string_arg(&name, "the collection name")?;
    let bag = Bag::new(
        "Collection.open",
        &options,
        &["storage", "provider", "onChange", "onProgress", "signal"],
    )?;
    schema::check_name(&name).map_err(|d| invalid("name", &d))?;
    let storage = bag.string("storage")?.unwrap_or_else(|| "auto".into());
    let on_progress = bag.function("onProgress")?;
    let signal = bag.signal("signal")?;
    let step = |stage: &str, done: f64| progress(on_progress.as_ref(), stage, done, 1.0, &[]);
    check_abort(signal.as_ref())?;
    step("open", 0.0);
    let store = match storage.as_str() {
        "memory" => Store::Memory(MemoryStore::default()),
        "indexeddb" => Store::Idb(IdbStore::open(&name).await.map_err(|e| store_error(&e))?),
        "auto" if !has_global("indexedDB") && is_node() => Store::Memory(MemoryStore::default()),
        "auto" => Store::Idb(IdbStore::open(&name).await.map_err(|e| store_error(&e))?),
        other => {
            return Err(invalid(
                "storage",
                &format!("'{other}' is not one of auto, indexeddb, memory"),
            ));
        }
    };
    // Between steps an abort closes what was opened; nothing is written on open.
    let stop = |store: &Store| check_abort(signal.as_ref()).inspect_err(|_| store.close());
    step("open", 1.0);
    stop(&store)?;
    step("load", 0.0);
    let snapshot = match store.load().await {
        Ok(s) => s,
        Err(e) => {
            store.close();
            return Err(store_error(&e));
        }
    };
    step("load", 1.0);
    stop(&store)?;
    let given = bag.raw("provider");
    let remembered = given.is_undefined();
    let provider_value = if given.is_undefined() {
        match snapshot.settings.get(PROVIDER_SETTING) {
            Some(json) => js_sys::JSON::parse(json).unwrap_or(JsValue::UNDEFINED),
            None => JsValue::UNDEFINED,
        }
    } else {
        given
    };
    let provider = match JsProvider::from_js(&provider_value) {
        Ok(p) => p.map(Rc::new),
        // A remembered provider this version cannot use must not lock the collection
        // out: open without one (`provider` is null; setProvider replaces it).
        Err(_) if remembered => None,
        Err(e) => return Err(e),
    };
    let model = provider.as_ref().and_then(|p| p.embedding_model_id());
    step("index", 0.0);
    let state = State::from_snapshot(snapshot, model.as_deref()).map_err(|e| {
        store.close();
        store_error(&e)
    })?;
    step("index", 1.0);
    stop(&store)?;
    let inner = Rc::new(Inner {
        name,
        store,
        state: RefCell::new(state),
        provider: RefCell::new(provider),
        channel: RefCell::new(None),
        on_change: RefCell::new(bag.function("onChange")?),
        pending: RefCell::new(Vec::new()),
    });
    if matches!(inner.store, Store::Idb(_)) && has_global("BroadcastChannel") {
        listen(&inner);
    }
    step("done", 1.0);
    Ok(JsCollection { inner }.into())
}

/// Other tabs' changes: reload, then call `onChange({type, docId})`.
fn listen(inner: &Rc<Inner>) {
    let Ok(ch) = web_sys::BroadcastChannel::new(&schema::database_name(&inner.name)) else {
        return;
    };
    let weak: Weak<Inner> = Rc::downgrade(inner);
    let handler =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(inner) = weak.upgrade() else { return };
            let data = ev.data();
            wasm_bindgen_futures::spawn_local(async move {
                if inner.refresh().await.is_ok()
                    && let Some(cb) = inner.on_change.borrow().as_ref()
                {
                    let _ = cb.call1(&JsValue::NULL, &data);
                }
            });
        });
    ch.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
    *inner.channel.borrow_mut() = Some(ch);
}

#[wasm_bindgen(js_class = Collection)]
impl JsCollection {
    /// Opens (or creates) collection `name`. Resolves to a `Collection`.
    #[wasm_bindgen(js_name = open)]
    pub fn js_open(name: JsValue, options: JsValue) -> Promise {
        future_to_promise(open(name, options))
    }

    /// Deletes collection `name`'s stored records (IndexedDB). Close it first.
    #[wasm_bindgen(js_name = deleteStored)]
    pub fn js_delete_stored(name: JsValue) -> Promise {
        future_to_promise(async move {
            let name = string_arg(&name, "the collection name")?;
            idb::delete_database(&name)
                .await
                .map_err(|e| store_error(&e))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The collection name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// `"indexeddb"` or `"memory"`.
    #[wasm_bindgen(getter)]
    pub fn storage(&self) -> String {
        self.inner.store.kind().to_string()
    }

    /// The documents, in the order they were added.
    pub fn documents(&self) -> Result<JsValue, JsValue> {
        let state = self.inner.state.borrow();
        let infos: Vec<_> = state.docs.iter().map(|d| &d.info).collect();
        to_js(&infos)
    }

    /// Documents left out at open because a stored record of theirs is damaged:
    /// `{docId, reason}[]`. Their records are kept; `remove(docId)` deletes them.
    pub fn damaged(&self) -> JsValue {
        let state = self.inner.state.borrow();
        state
            .damaged
            .iter()
            .map(|(id, reason)| {
                let o = Object::new();
                let _ = Reflect::set(&o, &"docId".into(), &id.into());
                let _ = Reflect::set(&o, &"reason".into(), &reason.into());
                JsValue::from(o)
            })
            .collect::<Array>()
            .into()
    }

    /// One document's chunks: `{text, metadata}[]` in `ssSeq` order.
    pub fn chunks(&self, doc_id: JsValue) -> Result<JsValue, JsValue> {
        let doc_id = string_arg(&doc_id, "the document id")?;
        let state = self.inner.state.borrow();
        let Some(pos) = state.core.position(&doc_id) else {
            return Err(js_error(
                "unknown-document",
                &format!("the collection has no document {doc_id:?}"),
            ));
        };
        #[derive(Serialize)]
        struct JsChunk<'a> {
            text: &'a str,
            metadata: &'a crate::metadata::Metadata,
        }
        let chunks: Vec<JsChunk> = state.core.documents()[pos]
            .chunks
            .iter()
            .map(|c| JsChunk {
                text: &c.text,
                metadata: &c.metadata,
            })
            .collect();
        to_js(&chunks)
    }

    /// Adds a file; resolves to its `DocumentInfo`.
    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&self, input: JsValue, options: JsValue) -> Promise {
        future_to_promise(super::add::add_file(self.inner.clone(), input, options))
    }

    /// Embeds the documents that have no vectors of the current embedding model (a
    /// provider set after they were added); resolves to how many were embedded.
    #[wasm_bindgen(js_name = embedMissing)]
    pub fn embed_missing(&self, options: JsValue) -> Promise {
        future_to_promise(super::add::embed_missing(self.inner.clone(), options))
    }

    /// Removes a document and every stored record of it; resolves to whether it was
    /// there.
    pub fn remove(&self, doc_id: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let doc_id = string_arg(&doc_id, "the document id")?;
            let known = {
                let state = inner.state.borrow();
                state.info(&doc_id).is_some() || state.damaged.iter().any(|(id, _)| *id == doc_id)
            };
            if !known {
                return Ok(JsValue::FALSE);
            }
            inner
                .store
                .remove_document(&doc_id)
                .await
                .map_err(|e| store_error(&e))?;
            inner.state.borrow_mut().remove(&doc_id);
            inner.broadcast("removed", &doc_id);
            Ok(JsValue::TRUE)
        })
    }

    /// Summarizes one document, several (`docIds`), or the whole collection (null);
    /// resolves to a `Summary`.
    pub fn summarize(&self, doc_ids: JsValue, options: JsValue) -> Promise {
        future_to_promise(super::summarize::summarize(
            self.inner.clone(),
            doc_ids,
            options,
        ))
    }

    /// Asks a question; resolves to an `AskResult`.
    pub fn ask(&self, question: JsValue, options: JsValue) -> Promise {
        future_to_promise(super::ask::ask(self.inner.clone(), question, options))
    }

    /// The `k` chunks that best match a question, best first, as `{chunkId, docId,
    /// seq, score}`: `method` "cosine" (default; the question embedded by the
    /// provider), "bm25" or "hybrid" (see `search.rs`). Ties: `(docId, seq)` ascending.
    pub fn search(&self, question: JsValue, options: JsValue) -> Promise {
        future_to_promise(super::search::search(self.inner.clone(), question, options))
    }

    /// Every chunk of the collection as `docrag.chunk.v1` JSONL lines (see
    /// `crate::store::export`) in a Blob of type `application/x-ndjson`: documents in
    /// `documents()` order, chunks in `ssSeq` order, each with its vector when its
    /// document has vectors of the current provider's embedding model (none without a
    /// provider). Resolves to the Blob.
    pub fn export(&self, options: JsValue) -> Promise {
        future_to_promise(super::export::export(self.inner.clone(), options))
    }

    /// Sets (or with `null`, removes) the model provider. `{remember: true}` stores
    /// its options in the collection (the API key too: an explicit opt-in);
    /// otherwise a remembered provider is forgotten.
    #[wasm_bindgen(js_name = setProvider)]
    pub fn set_provider(&self, provider: JsValue, options: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let bag = Bag::new("setProvider", &options, &["remember"])?;
            let remember = bag.bool("remember")?.unwrap_or(false);
            let parsed = JsProvider::from_js(&provider)?.map(Rc::new);
            let json = if remember && !provider.is_null() && !provider.is_undefined() {
                if has_function(&provider) {
                    return Err(invalid(
                        "remember",
                        "a provider with embed/chat functions cannot be remembered (functions cannot be stored); set it again after each open",
                    ));
                }
                Some(json_text(&provider, "provider")?)
            } else {
                None
            };
            inner
                .store
                .put_setting(PROVIDER_SETTING, json.as_deref())
                .await
                .map_err(|e| store_error(&e))?;
            let model = parsed.as_ref().and_then(|p| p.embedding_model_id());
            *inner.provider.borrow_mut() = parsed;
            let mut state = inner.state.borrow_mut();
            match &json {
                Some(j) => {
                    state.settings.insert(PROVIDER_SETTING.into(), j.clone());
                }
                None => {
                    state.settings.remove(PROVIDER_SETTING);
                }
            }
            state.use_model(model.as_deref());
            Ok(JsValue::UNDEFINED)
        })
    }

    /// What the current provider offers: `{embeddingModelId, chat, smallChat}`, or
    /// `null` with none.
    #[wasm_bindgen(getter)]
    pub fn provider(&self) -> JsValue {
        let Some(p) = self.inner.provider() else {
            return JsValue::NULL;
        };
        let o = Object::new();
        let _ = Reflect::set(
            &o,
            &"embeddingModelId".into(),
            &p.embedding_model_id().map_or(JsValue::NULL, JsValue::from),
        );
        let _ = Reflect::set(&o, &"chat".into(), &p.has_chat().into());
        let _ = Reflect::set(&o, &"smallChat".into(), &p.has_small_chat().into());
        o.into()
    }

    /// A stored setting (any JSON value), `undefined` when unset.
    #[wasm_bindgen(js_name = getSetting)]
    pub fn get_setting(&self, key: JsValue) -> Result<JsValue, JsValue> {
        let key = string_arg(&key, "the setting key")?;
        let state = self.inner.state.borrow();
        Ok(match state.settings.get(&key) {
            Some(json) => js_sys::JSON::parse(json).unwrap_or(JsValue::UNDEFINED),
            None => JsValue::UNDEFINED,
        })
    }

    /// Stores a setting (a JSON-serializable value; `undefined` deletes it).
    #[wasm_bindgen(js_name = setSetting)]
    pub fn set_setting(&self, key: JsValue, value: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let key = string_arg(&key, "the setting key")?;
            if key == PROVIDER_SETTING {
                return Err(invalid("key", "use setProvider() for the provider"));
            }
            let json = if value.is_undefined() {
                None
            } else {
                Some(json_text(&value, "value")?)
            };
            inner
                .store
                .put_setting(&key, json.as_deref())
                .await
                .map_err(|e| store_error(&e))?;
            let mut state = inner.state.borrow_mut();
            match json {
                Some(j) => state.settings.insert(key, j),
                None => state.settings.remove(&key),
            };
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Reloads the collection from storage (another tab may have changed it).
    pub fn refresh(&self) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            inner.refresh().await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Totals: `{documents, chunks, tokens}` (tokens: o200k_base).
    pub fn stats(&self) -> JsValue {
        let state = self.inner.state.borrow();
        let o = Object::new();
        let _ = Reflect::set(&o, &"documents".into(), &(state.docs.len() as f64).into());
        let _ = Reflect::set(
            &o,
            &"chunks".into(),
            &(state.core.total_chunks() as f64).into(),
        );
        let _ = Reflect::set(
            &o,
            &"tokens".into(),
            &(state.core.total_tokens() as f64).into(),
        );
        let models: Array = state
            .core
            .embeddings()
            .map(|e| JsValue::from(e.model_id()))
            .into_iter()
            .collect();
        let _ = Reflect::set(&o, &"embeddingModels".into(), &models.into());
        o.into()
    }

    /// Closes the storage connection; later calls that touch storage fail with
    /// `storage-closed`.
    pub fn close(&self) {
        if let Some(ch) = self.inner.channel.borrow_mut().take() {
            ch.close();
        }
        self.inner.store.close();
    }
}
