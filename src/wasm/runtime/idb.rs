//! The IndexedDB store, on web-sys (schema in [`crate::store::schema`]).
//!
//! Every write is one transaction whose requests are all issued before the first
//! await, and the transaction's `complete` event is the only thing awaited: a
//! transaction commits or aborts as a whole, so a failure (quota, a closed tab)
//! leaves the database as it was.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    DomException, IdbDatabase, IdbFactory, IdbKeyRange, IdbObjectStoreParameters, IdbOpenDbRequest,
    IdbRequest, IdbTransaction, IdbTransactionMode, IdbVersionChangeEvent,
};

use crate::store::DocumentInfo;
use crate::store::schema::{
    self, ALL_STORES, CHUNKS, DOCUMENTS, EMBEDDINGS, METADATA, SCHEMA_VERSION, SETTINGS,
};

use super::records;
use super::store::{Snapshot, StoreError, StoredDoc, StoredEmbeddings};

pub(crate) struct IdbStore {
    db: IdbDatabase,
    closed: Rc<Cell<bool>>,
}

/// The global `indexedDB`, or why there is none.
fn factory() -> Result<IdbFactory, StoreError> {
    let global = js_sys::global();
    let value = Reflect::get(&global, &"indexedDB".into())
        .map_err(|_| StoreError::Unavailable("reading globalThis.indexedDB threw".into()))?;
    if value.is_undefined() || value.is_null() {
        return Err(StoreError::Unavailable(
            "globalThis.indexedDB is undefined".into(),
        ));
    }
    value
        .dyn_into::<IdbFactory>()
        .map_err(|_| StoreError::Unavailable("globalThis.indexedDB is not an IDBFactory".into()))
}

/// A DOMException (or any JS error) as a store error, by its name.
pub(crate) fn from_js(e: &JsValue) -> StoreError {
    let (name, message) = match e.dyn_ref::<DomException>() {
        Some(d) => (d.name(), d.message()),
        None => (
            Reflect::get(e, &"name".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default(),
            Reflect::get(e, &"message".into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_else(|| crate::wasm::objects::describe(e)),
        ),
    };
    let detail = format!("{name}: {message}");
    match name.as_str() {
        "QuotaExceededError" => StoreError::QuotaExceeded(detail),
        "VersionError" => StoreError::SchemaTooNew(detail),
        "InvalidStateError" => StoreError::Closed,
        "SecurityError" => StoreError::Unavailable(detail),
        _ => StoreError::Failed(detail),
    }
}

/// An `error` handler for `req` that rejects with the request's error.
fn reject_with_error(req: &IdbRequest, reject: Function) -> JsValue {
    let req = req.clone();
    Closure::once_into_js(move || {
        let e = req
            .error()
            .ok()
            .flatten()
            .map(JsValue::from)
            .unwrap_or_else(|| JsValue::from_str("the request failed"));
        let _ = reject.call1(&JsValue::NULL, &e);
    })
}

/// A promise settled by a request's success (with its result) or error.
fn request_done(req: &IdbRequest) -> JsFuture {
    let r = req.clone();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let ok_req = r.clone();
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call1(
                &JsValue::NULL,
                &ok_req.result().unwrap_or(JsValue::UNDEFINED),
            );
        });
        r.set_onsuccess(Some(ok.unchecked_ref()));
        r.set_onerror(Some(reject_with_error(&r, reject).unchecked_ref()));
    });
    JsFuture::from(promise)
}

/// A promise settled by a transaction's `complete` (resolve) or `abort` (reject with
/// the transaction's error, e.g. QuotaExceededError).
fn transaction_done(tx: &IdbTransaction) -> JsFuture {
    let t = tx.clone();
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let ok = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let abort_tx = t.clone();
        let abort = Closure::once_into_js(move || {
            let e = abort_tx
                .error()
                .map(JsValue::from)
                .unwrap_or_else(|| JsValue::from_str("the transaction was aborted"));
            let _ = reject.call1(&JsValue::NULL, &e);
        });
        t.set_oncomplete(Some(ok.unchecked_ref()));
        t.set_onabort(Some(abort.unchecked_ref()));
    });
    JsFuture::from(promise)
}

/// A request could not be issued: abort the transaction (nothing of it is kept)
/// and report the transaction's own error when it has one. A transaction the
/// browser already aborted (quota, a closed connection) makes every later request
/// throw TransactionInactiveError, which says nothing of why.
fn issue_failed(tx: &IdbTransaction, e: &JsValue) -> StoreError {
    let _ = tx.abort();
    match tx.error() {
        Some(cause) => from_js(&cause.into()),
        None => from_js(e),
    }
}

/// Runs one write: `issue` sends every request of `tx` (nothing awaited in between),
/// then the transaction's `complete` is awaited. A request that cannot be issued
/// aborts the whole transaction; `signal` firing before `complete` rolls it back
/// ([`StoreError::Aborted`]).
async fn write(
    tx: &IdbTransaction,
    issue: impl FnOnce() -> Result<(), JsValue>,
    signal: Option<&web_sys::AbortSignal>,
) -> Result<(), StoreError> {
    if let Err(e) = issue() {
        return Err(issue_failed(tx, &e));
    }
    let abort_tx = tx.clone();
    let on_abort = Closure::<dyn FnMut()>::new(move || {
        let _ = abort_tx.abort();
    });
    if let Some(sig) = signal {
        let _ = sig.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    let done = transaction_done(tx).await;
    if let Some(sig) = signal {
        let _ = sig.remove_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    match done {
        Ok(_) => Ok(()),
        Err(_) if signal.is_some_and(web_sys::AbortSignal::aborted) => Err(StoreError::Aborted),
        Err(e) => Err(from_js(&e)),
    }
}

fn key_path(parts: &[&str]) -> JsValue {
    if parts.len() == 1 {
        JsValue::from_str(parts[0])
    } else {
        parts
            .iter()
            .map(|p| JsValue::from_str(p))
            .collect::<Array>()
            .into()
    }
}

/// Every key `[doc_id, ...]` of a compound-key store: from `[doc_id]` (shorter
/// arrays sort first) to `[doc_id, []]` (arrays sort after numbers and strings).
fn document_range(doc_id: &str) -> Result<IdbKeyRange, JsValue> {
    let lower: Array = [JsValue::from_str(doc_id)].iter().collect();
    let upper: Array = [JsValue::from_str(doc_id), Array::new().into()]
        .iter()
        .collect();
    IdbKeyRange::bound(&lower, &upper)
}

impl IdbStore {
    /// Opens (creating or upgrading) the database of collection `name`.
    pub(crate) async fn open(name: &str) -> Result<IdbStore, StoreError> {
        let f = factory()?;
        let req: IdbOpenDbRequest = f
            .open_with_u32(&schema::database_name(name), SCHEMA_VERSION)
            .map_err(|e| from_js(&e))?;
        let upgrade_req = req.clone();
        let on_upgrade =
            Closure::<dyn FnMut(IdbVersionChangeEvent)>::new(move |ev: IdbVersionChangeEvent| {
                let Ok(result) = upgrade_req.result() else {
                    return;
                };
                let db: IdbDatabase = result.unchecked_into();
                let mut v = ev.old_version() as u32;
                while v < SCHEMA_VERSION {
                    for spec in schema::upgrade_steps(v) {
                        let params = IdbObjectStoreParameters::new();
                        params.set_key_path(&key_path(spec.key_path));
                        // A failure here aborts the upgrade transaction, which
                        // fails the open request: reported through onerror.
                        let _ = db.create_object_store_with_optional_parameters(spec.name, &params);
                    }
                    v += 1;
                }
            });
        req.set_onupgradeneeded(Some(on_upgrade.as_ref().unchecked_ref()));
        let (result, blocked) = settle_or_blocked(&req).await;
        // Kept alive: an upgrade can still run after a `blocked` report.
        on_upgrade.forget();
        let db: IdbDatabase = match result {
            Ok(v) => v.unchecked_into(),
            Err(_) if blocked => return Err(StoreError::UpgradeBlocked),
            Err(e) => return Err(from_js(&e)),
        };
        let closed = Rc::new(Cell::new(false));
        let flag = closed.clone();
        let db_for_close = db.clone();
        // Another tab wants a newer schema: let it (close), and fail later calls
        // with `storage-closed` rather than blocking that tab forever.
        let on_version_change = Closure::<dyn FnMut()>::new(move || {
            flag.set(true);
            db_for_close.close();
        });
        db.set_onversionchange(Some(on_version_change.as_ref().unchecked_ref()));
        on_version_change.forget();
        Ok(IdbStore { db, closed })
    }

    pub(crate) fn close(&self) {
        self.closed.set(true);
        self.db.close();
    }

    fn transaction(&self, stores: &[&str], write: bool) -> Result<IdbTransaction, StoreError> {
        if self.closed.get() {
            return Err(StoreError::Closed);
        }
        let names: Array = stores.iter().map(|s| JsValue::from_str(s)).collect();
        let mode = if write {
            IdbTransactionMode::Readwrite
        } else {
            IdbTransactionMode::Readonly
        };
        self.db
            .transaction_with_str_sequence_and_mode(&names, mode)
            .map_err(|e| from_js(&e))
    }

    pub(crate) async fn load(&self) -> Result<Snapshot, StoreError> {
        let tx = self.transaction(&ALL_STORES, false)?;
        let mut requests = Vec::new();
        for name in ALL_STORES {
            let store = tx.object_store(name).map_err(|e| from_js(&e))?;
            requests.push(store.get_all().map_err(|e| from_js(&e))?);
        }
        let mut results = Vec::new();
        for r in &requests {
            let v = request_done(r).await.map_err(|e| from_js(&e))?;
            results.push(Array::from(&v));
        }
        records::snapshot(
            &results[0],
            &results[1],
            &results[2],
            &results[3],
            &results[4],
        )
    }

    pub(crate) async fn put_document(
        &self,
        doc: &StoredDoc,
        signal: Option<&web_sys::AbortSignal>,
    ) -> Result<(), StoreError> {
        let tx = self.transaction(&[DOCUMENTS, CHUNKS, METADATA, EMBEDDINGS], true)?;
        let issue = || -> Result<(), JsValue> {
            let range = document_range(&doc.info.doc_id)?;
            let chunks = tx.object_store(CHUNKS)?;
            let metadata = tx.object_store(METADATA)?;
            let embeddings = tx.object_store(EMBEDDINGS)?;
            // Replacing a document: its old records go in the same transaction.
            chunks.delete(&range)?;
            metadata.delete(&range)?;
            embeddings.delete(&range)?;
            tx.object_store(DOCUMENTS)?
                .put(&records::info_to_js(&doc.info)?)?;
            for (seq, chunk) in doc.chunks.iter().enumerate() {
                chunks.put(&records::chunk_to_js(&doc.info.doc_id, seq, chunk))?;
                metadata.put(&records::metadata_to_js(&doc.info.doc_id, seq, chunk)?)?;
            }
            for e in &doc.embeddings {
                embeddings.put(&records::embeddings_to_js(&doc.info.doc_id, e))?;
            }
            Ok(())
        };
        write(&tx, issue, signal).await
    }

    pub(crate) async fn put_embeddings(
        &self,
        info: &DocumentInfo,
        e: &StoredEmbeddings,
    ) -> Result<(), StoreError> {
        let tx = self.transaction(&[DOCUMENTS, EMBEDDINGS], true)?;
        let issue = || -> Result<(), JsValue> {
            tx.object_store(DOCUMENTS)?
                .put(&records::info_to_js(info)?)?;
            tx.object_store(EMBEDDINGS)?
                .put(&records::embeddings_to_js(&info.doc_id, e))?;
            Ok(())
        };
        write(&tx, issue, None).await
    }

    pub(crate) async fn remove_document(&self, doc_id: &str) -> Result<(), StoreError> {
        let tx = self.transaction(&[DOCUMENTS, CHUNKS, METADATA, EMBEDDINGS], true)?;
        let issue = || -> Result<(), JsValue> {
            let range = document_range(doc_id)?;
            tx.object_store(DOCUMENTS)?
                .delete(&JsValue::from_str(doc_id))?;
            tx.object_store(CHUNKS)?.delete(&range)?;
            tx.object_store(METADATA)?.delete(&range)?;
            tx.object_store(EMBEDDINGS)?.delete(&range)?;
            Ok(())
        };
        write(&tx, issue, None).await
    }

    pub(crate) async fn put_setting(
        &self,
        key: &str,
        json: Option<&str>,
    ) -> Result<(), StoreError> {
        let tx = self.transaction(&[SETTINGS], true)?;
        let issue = || -> Result<(), JsValue> {
            let store = tx.object_store(SETTINGS)?;
            match json {
                Some(v) => {
                    let o = Object::new();
                    Reflect::set(&o, &"key".into(), &key.into())?;
                    Reflect::set(&o, &"value".into(), &v.into())?;
                    store.put(&o)?;
                }
                None => {
                    store.delete(&JsValue::from_str(key))?;
                }
            }
            Ok(())
        };
        write(&tx, issue, None).await
    }
}

/// Deletes collection `name`'s database. Fails with `upgrade-blocked` when another
/// connection keeps it open.
pub(crate) async fn delete_database(name: &str) -> Result<(), StoreError> {
    let f = factory()?;
    let req = f
        .delete_database(&schema::database_name(name))
        .map_err(|e| from_js(&e))?;
    let (result, blocked) = settle_or_blocked(&req).await;
    match result {
        Ok(_) => Ok(()),
        Err(_) if blocked => Err(StoreError::UpgradeBlocked),
        Err(e) => Err(from_js(&e)),
    }
}

/// Waits for an open or delete request: its result, or its error; or, as soon as
/// `blocked` fires (another connection did not close on `versionchange`), an error
/// with the returned flag set, instead of waiting for the other tab. A database that
/// opens after the caller was told "blocked" is closed at once so it holds nothing.
async fn settle_or_blocked(req: &IdbOpenDbRequest) -> (Result<JsValue, JsValue>, bool) {
    let blocked = Rc::new(Cell::new(false));
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        let ok_req = req.clone();
        let ok_blocked = blocked.clone();
        let on_success = Closure::once_into_js(move || {
            let result = ok_req.result().unwrap_or(JsValue::UNDEFINED);
            if !ok_blocked.get() {
                let _ = resolve.call1(&JsValue::NULL, &result);
            } else if let Some(db) = result.dyn_ref::<IdbDatabase>() {
                db.close();
            }
        });
        let on_error = reject_with_error(req, reject.clone());
        let flag = blocked.clone();
        let on_blocked = Closure::once_into_js(move || {
            flag.set(true);
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("blocked"));
        });
        req.set_onsuccess(Some(on_success.unchecked_ref()));
        req.set_onerror(Some(on_error.unchecked_ref()));
        req.set_onblocked(Some(on_blocked.unchecked_ref()));
    });
    let result = JsFuture::from(promise).await;
    (result, blocked.get())
}
