//! The public `Provider` class: the provider client on its own, for apps and tests.

use std::rc::Rc;

use js_sys::{Array, Float32Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

use super::super::errors::{INVALID_INPUT, js_error};
use super::super::install_panic_hook;
use super::options::invalid;
use super::{CallControl, JsProvider, provider_error_to_js};
use crate::provider::ChatModel;
use crate::query::{Message, Role};

/// An embedding and chat client (see `Provider` in index.d.ts).
#[wasm_bindgen(js_name = Provider)]
pub struct JsProviderClass {
    inner: Rc<JsProvider>,
}

fn call_options(
    method: &str,
    v: &JsValue,
    allowed: &[&str],
) -> Result<Vec<(String, JsValue)>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    if !v.is_object() || Array::is_array(v) {
        return Err(js_error(
            "invalid-option",
            &format!("{method} options must be an object"),
        ));
    }
    let mut out = Vec::new();
    let keys = crate::wasm::objects::keys(v).map_err(|e| {
        invalid(
            method,
            &format!(
                "the options object could not be read: {}",
                crate::wasm::objects::describe(&e)
            ),
        )
    })?;
    for key in keys.iter() {
        let Some(k) = key.as_string() else { continue };
        let value = Reflect::get(v, &key).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() {
            continue;
        }
        if !allowed.contains(&k.as_str()) {
            let e = js_error(
                "invalid-option",
                &format!(
                    "unknown {method} option {k:?}; known options are {}",
                    allowed.join(", ")
                ),
            );
            let _ = Reflect::set(&e, &"option".into(), &k.as_str().into());
            return Err(e);
        }
        out.push((k, value));
    }
    Ok(out)
}

fn option_error(key: &str, expected: &str) -> JsValue {
    let e = js_error(
        "invalid-option",
        &format!("invalid option {key}: expected {expected}"),
    );
    let _ = Reflect::set(&e, &"option".into(), &key.into());
    e
}

fn signal(v: JsValue) -> Result<AbortSignal, JsValue> {
    v.dyn_into::<AbortSignal>()
        .map_err(|_| option_error("signal", "an AbortSignal"))
}

fn callback(key: &str, v: JsValue) -> Result<Function, JsValue> {
    v.dyn_into::<Function>()
        .map_err(|_| option_error(key, "a function"))
}

fn texts(v: &JsValue) -> Result<Vec<String>, JsValue> {
    let bad = || js_error(INVALID_INPUT, "embed(texts) needs an array of strings");
    if !Array::is_array(v) {
        return Err(bad());
    }
    v.unchecked_ref::<Array>()
        .iter()
        .map(|t| t.as_string().ok_or_else(bad))
        .collect()
}

fn messages(v: &JsValue) -> Result<Vec<Message>, JsValue> {
    let bad = |i: u32, what: &str| {
        js_error(
            INVALID_INPUT,
            &format!("chat(messages): messages[{i}] {what}"),
        )
    };
    if !Array::is_array(v) {
        return Err(js_error(
            INVALID_INPUT,
            "chat(messages) needs an array of {role, content}",
        ));
    }
    let mut out = Vec::new();
    for (i, m) in v.unchecked_ref::<Array>().iter().enumerate() {
        let i = i as u32;
        let get = |k: &str| Reflect::get(&m, &k.into()).ok().and_then(|x| x.as_string());
        let role = match get("role").as_deref() {
            Some("system") => Role::System,
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            _ => return Err(bad(i, "has no role 'system', 'user' or 'assistant'")),
        };
        let content = get("content").ok_or_else(|| bad(i, "has no string content"))?;
        out.push(Message::new(role, content));
    }
    Ok(out)
}

#[wasm_bindgen(js_class = Provider)]
impl JsProviderClass {
    /// `new Provider(options)`; throws `invalid-option` / `invalid-provider-config`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsProviderClass, JsValue> {
        install_panic_hook();
        match JsProvider::from_js(&options)? {
            Some(p) => Ok(JsProviderClass { inner: Rc::new(p) }),
            None => Err(invalid(
                "kind",
                "new Provider(options) needs an options object",
            )),
        }
    }

    /// The key stored vectors are filed under, or `undefined` when it cannot embed.
    #[wasm_bindgen(getter, js_name = embeddingModelId)]
    pub fn embedding_model_id(&self) -> Option<String> {
        self.inner.embedding_model_id()
    }

    /// Whether `chat` can answer.
    #[wasm_bindgen(getter, js_name = hasChat)]
    pub fn has_chat(&self) -> bool {
        self.inner.has_chat()
    }

    /// `embed(texts, {signal, onProgress})` -> `Promise<Float32Array[]>`.
    pub fn embed(&self, texts_value: JsValue, options: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let texts = texts(&texts_value)?;
            let mut ctl = CallControl::default();
            for (k, v) in call_options("embed", &options, &["signal", "onProgress"])? {
                match k.as_str() {
                    "signal" => ctl.signal = Some(signal(v)?),
                    _ => ctl.on_progress = Some(callback("onProgress", v)?),
                }
            }
            let vectors = inner
                .embed(&texts, &ctl)
                .await
                .map_err(|e| provider_error_to_js(&e))?;
            let out: Array = vectors
                .iter()
                .map(|v| JsValue::from(Float32Array::from(v.as_slice())))
                .collect();
            Ok(out.into())
        })
    }

    /// `chat(messages, {signal, onToken, model})` -> `Promise<string>`.
    pub fn chat(&self, messages_value: JsValue, options: JsValue) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let messages = messages(&messages_value)?;
            let mut ctl = CallControl::default();
            let (mut on_token, mut model) = (None, ChatModel::Main);
            for (k, v) in call_options("chat", &options, &["signal", "onToken", "model"])? {
                match k.as_str() {
                    "signal" => ctl.signal = Some(signal(v)?),
                    "onToken" => on_token = Some(callback("onToken", v)?),
                    _ => {
                        model = match v.as_string().as_deref() {
                            Some("main") => ChatModel::Main,
                            Some("small") => ChatModel::Small,
                            _ => return Err(option_error("model", "'main' or 'small'")),
                        }
                    }
                }
            }
            let on_delta = |d: &str| {
                if let Some(f) = &on_token {
                    let _ = f.call1(&JsValue::UNDEFINED, &JsValue::from_str(d));
                }
            };
            let text = inner
                .chat(&messages, model, &ctl, &on_delta)
                .await
                .map_err(|e| provider_error_to_js(&e))?;
            Ok(JsValue::from_str(&text))
        })
    }
}
