//! `fetch` with a per-request timeout and the caller's `AbortSignal`, abortable
//! sleeps, and body readers. Globals are looked up on `globalThis`, so this works
//! in pages, workers and Node 20 alike.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, AbortSignal, Headers, ReadableStreamDefaultReader, RequestInit, Response,
};

use crate::provider::{HttpRequest, ProviderError};

fn global_fn(name: &str) -> Result<Function, ProviderError> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            ProviderError::Network(format!(
                "this JavaScript environment has no global {name}()"
            ))
        })
}

/// The message of a thrown JS value, with its `cause` (Node's fetch says only
/// "fetch failed" and puts the reason there).
pub(crate) fn js_message(v: &JsValue) -> String {
    let get = |o: &JsValue, k: &str| {
        Reflect::get(o, &JsValue::from_str(k))
            .ok()
            .and_then(|m| m.as_string())
    };
    let mut msg = get(v, "message")
        .or_else(|| v.as_string())
        .unwrap_or_else(|| crate::wasm::objects::describe(v));
    if let Ok(cause) = Reflect::get(v, &JsValue::from_str("cause"))
        && let Some(c) = get(&cause, "message").or_else(|| get(&cause, "code"))
    {
        msg = format!("{msg} ({c})");
    }
    msg
}

/// Whether the caller's signal has fired.
pub(crate) fn is_aborted(signal: Option<&AbortSignal>) -> bool {
    signal.is_some_and(AbortSignal::aborted)
}

fn set_timeout(f: &Closure<dyn FnMut()>, ms: u32) -> Result<JsValue, ProviderError> {
    global_fn("setTimeout")?
        .call2(&js_sys::global(), f.as_ref(), &JsValue::from(ms))
        .map_err(|e| ProviderError::Network(js_message(&e)))
}

fn clear_timeout(id: &JsValue) {
    if let Ok(f) = global_fn("clearTimeout") {
        let _ = f.call1(&js_sys::global(), id);
    }
}

/// One request's cancellation: an `AbortController` fired by a timer after
/// `timeout_ms` or by the caller's signal. Dropping it clears the timer, detaches
/// the listener and aborts whatever is still in flight (an unread body).
pub(crate) struct Attempt {
    controller: AbortController,
    timed_out: Rc<Cell<bool>>,
    timer: JsValue,
    _on_timeout: Closure<dyn FnMut()>,
    caller: Option<(AbortSignal, Closure<dyn FnMut()>)>,
    timeout_ms: u32,
}

impl Attempt {
    /// Starts the clock. Fails with `aborted` when the caller's signal already fired.
    pub(crate) fn start(
        timeout_ms: u32,
        signal: Option<&AbortSignal>,
    ) -> Result<Self, ProviderError> {
        if is_aborted(signal) {
            return Err(ProviderError::Aborted);
        }
        let controller =
            AbortController::new().map_err(|e| ProviderError::Network(js_message(&e)))?;
        let timed_out = Rc::new(Cell::new(false));
        let on_timeout = {
            let (c, t) = (controller.clone(), timed_out.clone());
            Closure::<dyn FnMut()>::new(move || {
                t.set(true);
                c.abort();
            })
        };
        let timer = set_timeout(&on_timeout, timeout_ms)?;
        let caller = signal.map(|s| {
            let c = controller.clone();
            let on_abort = Closure::<dyn FnMut()>::new(move || c.abort());
            let _ = s.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
            (s.clone(), on_abort)
        });
        Ok(Attempt {
            controller,
            timed_out,
            timer,
            _on_timeout: on_timeout,
            caller,
            timeout_ms,
        })
    }

    /// The error for a rejection during this attempt: the caller's abort wins, then
    /// the timeout, else a network error.
    pub(crate) fn error(&self, e: &JsValue) -> ProviderError {
        if self.caller.as_ref().is_some_and(|(s, _)| s.aborted()) {
            ProviderError::Aborted
        } else if self.timed_out.get() {
            ProviderError::Timeout {
                timeout_ms: self.timeout_ms,
            }
        } else {
            ProviderError::Network(js_message(e))
        }
    }

    async fn wait(&self, p: Promise) -> Result<JsValue, ProviderError> {
        JsFuture::from(p).await.map_err(|e| self.error(&e))
    }

    /// Sends `req` and waits for the response head.
    pub(crate) async fn send(&self, req: &HttpRequest) -> Result<Response, ProviderError> {
        let network = |e: JsValue| ProviderError::Network(js_message(&e));
        let headers = Headers::new().map_err(network)?;
        for (k, v) in &req.headers {
            headers.set(k, v).map_err(network)?;
        }
        let init = RequestInit::new();
        init.set_method(&req.method);
        init.set_headers(&headers);
        init.set_body(&JsValue::from_str(&req.body));
        init.set_signal(Some(&self.controller.signal()));
        let promise = global_fn("fetch")?
            .call2(&js_sys::global(), &JsValue::from_str(&req.url), &init)
            .map_err(|e| self.error(&e))?;
        let value = self.wait(promise.unchecked_into()).await?;
        value
            .dyn_into::<Response>()
            .map_err(|_| ProviderError::Network("fetch did not resolve to a Response".into()))
    }

    /// The whole body as text (UTF-8), within this attempt's timeout.
    pub(crate) async fn text(&self, resp: &Response) -> Result<String, ProviderError> {
        let p = resp.text().map_err(|e| self.error(&e))?;
        let v = self.wait(p).await?;
        Ok(v.as_string().unwrap_or_default())
    }

    /// Reads the body chunk by chunk, handing each byte slice to `on_bytes`.
    pub(crate) async fn read_stream(
        &self,
        resp: &Response,
        mut on_bytes: impl FnMut(&[u8]) -> Result<(), ProviderError>,
    ) -> Result<(), ProviderError> {
        let Some(body) = resp.body() else {
            return Ok(());
        };
        let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
        loop {
            let result = self.wait(reader.read()).await?;
            let done = Reflect::get(&result, &JsValue::from_str("done"))
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(true);
            if done {
                return Ok(());
            }
            let value =
                Reflect::get(&result, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
            if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
                on_bytes(&bytes.to_vec())?;
            }
        }
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        clear_timeout(&self.timer);
        if let Some((s, f)) = &self.caller {
            let _ = s.remove_event_listener_with_callback("abort", f.as_ref().unchecked_ref());
        }
        self.controller.abort();
    }
}

/// The value of response header `name`, if present.
pub(crate) fn header(resp: &Response, name: &str) -> Option<String> {
    resp.headers().get(name).ok().flatten()
}

/// Waits `ms` milliseconds; the caller's signal ends the wait early with `aborted`.
pub(crate) async fn sleep(ms: u32, signal: Option<&AbortSignal>) -> Result<(), ProviderError> {
    if is_aborted(signal) {
        return Err(ProviderError::Aborted);
    }
    let mut settle: Option<(Function, Function)> = None;
    let promise = Promise::new(&mut |resolve, reject| settle = Some((resolve, reject)));
    let Some((resolve, reject)) = settle else {
        return Err(ProviderError::Network(
            "Promise executor did not run".into(),
        ));
    };
    let on_time = Closure::<dyn FnMut()>::new(move || {
        let _ = resolve.call0(&JsValue::UNDEFINED);
    });
    let timer = set_timeout(&on_time, ms)?;
    let on_abort = Closure::<dyn FnMut()>::new(move || {
        let _ = reject.call0(&JsValue::UNDEFINED);
    });
    if let Some(s) = signal {
        let _ = s.add_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    let result = JsFuture::from(promise).await;
    clear_timeout(&timer);
    if let Some(s) = signal {
        let _ = s.remove_event_listener_with_callback("abort", on_abort.as_ref().unchecked_ref());
    }
    match result {
        Ok(_) if !is_aborted(signal) => Ok(()),
        _ => Err(ProviderError::Aborted),
    }
}
