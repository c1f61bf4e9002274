//! Caller JS functions as providers: `embed(texts, {signal})` and
//! `chat(messages, {signal, model})`, their results validated like HTTP replies.

use js_sys::{Array, Float32Array, Function, Object, Promise, Reflect, Symbol};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

use super::fetch::{is_aborted, js_message};
use crate::provider::{ChatModel, ProviderError, validate_embeddings};
use crate::query::{Message, Role};

fn options(signal: Option<&AbortSignal>, model: Option<ChatModel>) -> JsValue {
    let o = Object::new();
    let signal = signal.map_or(JsValue::UNDEFINED, |s| s.clone().into());
    let _ = Reflect::set(&o, &"signal".into(), &signal);
    if let Some(m) = model {
        let name = if m == ChatModel::Small {
            "small"
        } else {
            "main"
        };
        let _ = Reflect::set(&o, &"model".into(), &name.into());
    }
    o.into()
}

/// The error for a throw or rejection: `aborted` when the caller's signal fired.
fn failed(e: &JsValue, signal: Option<&AbortSignal>) -> ProviderError {
    if is_aborted(signal) {
        ProviderError::Aborted
    } else {
        ProviderError::Callback(js_message(e))
    }
}

/// `p`, or a rejection as soon as `signal` fires: the caller's function may never
/// settle, and an abort must still end the call.
fn race_abort(p: Promise, signal: Option<&AbortSignal>) -> Promise {
    let Some(signal) = signal else {
        return p;
    };
    let aborted = Promise::new(&mut |_resolve: Function, reject: Function| {
        let on_abort = wasm_bindgen::closure::Closure::once_into_js(move || {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("aborted"));
        });
        let _ = signal.add_event_listener_with_callback("abort", on_abort.unchecked_ref());
    });
    Promise::race(
        &[JsValue::from(p), JsValue::from(aborted)]
            .iter()
            .collect::<Array>(),
    )
}

async fn settle(v: &JsValue, signal: Option<&AbortSignal>) -> Result<JsValue, ProviderError> {
    let out = JsFuture::from(race_abort(Promise::resolve(v), signal))
        .await
        .map_err(|e| failed(&e, signal))?;
    if is_aborted(signal) {
        return Err(ProviderError::Aborted);
    }
    Ok(out)
}

fn vector(v: &JsValue, index: usize) -> Result<Vec<f32>, ProviderError> {
    if let Some(f) = v.dyn_ref::<Float32Array>() {
        return Ok(f.to_vec());
    }
    if Array::is_array(v) {
        let arr: &Array = v.unchecked_ref();
        return arr
            .iter()
            .map(|x| {
                x.as_f64().map(|f| f as f32).ok_or_else(|| {
                    ProviderError::MalformedReply(format!(
                        "embed() result [{index}] holds a non-number"
                    ))
                })
            })
            .collect();
    }
    Err(ProviderError::MalformedReply(format!(
        "embed() result [{index}] is not a Float32Array or an array of numbers"
    )))
}

/// Calls `f(texts, {signal})` and checks the vectors (count, emptiness, finiteness,
/// `dim` or a common length).
pub(crate) async fn embed(
    f: &Function,
    texts: &[&str],
    dim: Option<usize>,
    signal: Option<&AbortSignal>,
) -> Result<Vec<Vec<f32>>, ProviderError> {
    if is_aborted(signal) {
        return Err(ProviderError::Aborted);
    }
    let input: Array = texts.iter().map(|t| JsValue::from_str(t)).collect();
    let ret = f
        .call2(&JsValue::UNDEFINED, &input, &options(signal, None))
        .map_err(|e| failed(&e, signal))?;
    let out = settle(&ret, signal).await?;
    if !Array::is_array(&out) {
        return Err(ProviderError::MalformedReply(
            "embed() must resolve to an array of Float32Array or number[]".into(),
        ));
    }
    let vectors = out
        .unchecked_into::<Array>()
        .iter()
        .enumerate()
        .map(|(i, v)| vector(&v, i))
        .collect::<Result<Vec<_>, _>>()?;
    validate_embeddings(&vectors, texts.len(), dim)?;
    Ok(vectors)
}

/// `[{role, content}]` as plain JS objects.
pub(crate) fn messages_to_js(messages: &[Message]) -> Array {
    messages
        .iter()
        .map(|m| {
            let o = Object::new();
            let role = match m.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let _ = Reflect::set(&o, &"role".into(), &role.into());
            let _ = Reflect::set(&o, &"content".into(), &m.content.as_str().into());
            JsValue::from(o)
        })
        .collect()
}

/// Calls `f(messages, {signal, model})`; accepts a string, a promise of one, or an
/// async iterable of string pieces (each handed to `on_delta`).
pub(crate) async fn chat(
    f: &Function,
    messages: &[Message],
    model: ChatModel,
    signal: Option<&AbortSignal>,
    on_delta: &dyn Fn(&str),
) -> Result<String, ProviderError> {
    if is_aborted(signal) {
        return Err(ProviderError::Aborted);
    }
    let ret = f
        .call2(
            &JsValue::UNDEFINED,
            &messages_to_js(messages),
            &options(signal, Some(model)),
        )
        .map_err(|e| failed(&e, signal))?;
    let ret = if has_async_iterator(&ret) {
        ret
    } else {
        settle(&ret, signal).await?
    };
    if let Some(s) = ret.as_string() {
        if !s.is_empty() {
            on_delta(&s);
        }
        return Ok(s);
    }
    let Some(iter) = async_iterator(&ret) else {
        return Err(ProviderError::MalformedReply(
            "chat() must return a string, a Promise of one, or an AsyncIterable<string>".into(),
        ));
    };
    let next: Function = Reflect::get(&iter, &"next".into())
        .ok()
        .and_then(|n| n.dyn_into().ok())
        .ok_or_else(|| ProviderError::MalformedReply("chat() iterator has no next()".into()))?;
    let mut text = String::new();
    loop {
        let step = next.call0(&iter).map_err(|e| failed(&e, signal))?;
        let step = settle(&step, signal).await?;
        if Reflect::get(&step, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            == Some(true)
        {
            return Ok(text);
        }
        let value = Reflect::get(&step, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        let piece = value.as_string().ok_or_else(|| {
            ProviderError::MalformedReply("chat() yielded a value that is not a string".into())
        })?;
        if !piece.is_empty() {
            on_delta(&piece);
            text.push_str(&piece);
        }
    }
}

fn has_async_iterator(v: &JsValue) -> bool {
    v.is_object()
        && Reflect::get(v, &Symbol::async_iterator().into()).is_ok_and(|f| f.is_function())
}

/// `v[Symbol.asyncIterator]()` when `v` is an async iterable.
fn async_iterator(v: &JsValue) -> Option<JsValue> {
    if !has_async_iterator(v) {
        return None;
    }
    let f: Function = Reflect::get(v, &Symbol::async_iterator().into())
        .ok()?
        .dyn_into()
        .ok()?;
    f.call0(v).ok()
}
