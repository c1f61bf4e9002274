//! The provider options bag -> a [`JsProvider`](super::JsProvider), strictly:
//! unknown keys, wrong types and fractional numbers are `invalid-option` errors
//! naming the key; a bad base URL is `invalid-provider-config`.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::super::errors::js_error;
use super::errors::provider_error_to_js;
use super::http::HttpBackend;
use super::{Backend, JsProvider};
use crate::provider::config::{DEFAULT_MAX_BATCH_TOKENS, model_id};
use crate::provider::{ProviderConfig, ProviderKind, RetryPolicy};

/// The keys the provider options accept, in the order the d.ts documents them.
pub(crate) const KNOWN_KEYS: &[&str] = &[
    "kind",
    "baseUrl",
    "apiKey",
    "embeddingModel",
    "chatModel",
    "smallModel",
    "dimensions",
    "batchSize",
    "maxBatchTokens",
    "timeoutMs",
    "maxRetries",
    "retryBaseDelayMs",
    "retryMaxDelayMs",
    "embed",
    "chat",
];

/// An `invalid-option` error whose `option` is `provider.<key>`.
pub(crate) fn invalid(key: &str, detail: &str) -> JsValue {
    let e = js_error(
        "invalid-option",
        &format!("invalid option provider.{key}: {detail}"),
    );
    let _ = Reflect::set(&e, &"option".into(), &format!("provider.{key}").into());
    e
}

fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof()
            .as_string()
            .unwrap_or_else(|| "unknown".into())
    }
}

fn string(key: &str, v: &JsValue) -> Result<String, JsValue> {
    v.as_string()
        .ok_or_else(|| invalid(key, &format!("expected a string, got {}", type_name(v))))
}

fn whole(key: &str, v: &JsValue, min: f64, max: f64) -> Result<f64, JsValue> {
    let n = v
        .as_f64()
        .ok_or_else(|| invalid(key, &format!("expected a number, got {}", type_name(v))))?;
    if !n.is_finite() || n.fract() != 0.0 || n < min || n > max {
        return Err(invalid(
            key,
            &format!("expected a whole number in {min}..={max}, got {n}"),
        ));
    }
    Ok(n)
}

fn function(key: &str, v: JsValue) -> Result<Function, JsValue> {
    v.dyn_into::<Function>().map_err(|other| {
        invalid(
            key,
            &format!("expected a function, got {}", type_name(&other)),
        )
    })
}

/// Reads the bag; `undefined`/`null` -> `Ok(None)`.
pub(crate) fn parse(value: &JsValue) -> Result<Option<JsProvider>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() || Array::is_array(value) || value.is_function() {
        return Err(js_error(
            "invalid-option",
            &format!(
                "provider options must be an object, got {}",
                type_name(value)
            ),
        ));
    }
    let obj: &Object = value.unchecked_ref();
    let mut kind: Option<String> = None;
    let (mut base_url, mut api_key) = (None, None);
    let (mut embedding_model, mut chat_model, mut small_model) = (None, None, None);
    let (mut dimensions, mut batch_size, mut max_batch_tokens) = (None, None, None);
    let (mut timeout_ms, mut max_retries, mut base_delay, mut max_delay) = (None, None, None, None);
    let (mut embed_fn, mut chat_fn) = (None, None);
    const U32: f64 = u32::MAX as f64;
    let keys = crate::wasm::objects::keys(obj).map_err(|e| {
        invalid(
            "provider",
            &format!(
                "the options object could not be read: {}",
                crate::wasm::objects::describe(&e)
            ),
        )
    })?;
    for key in keys.iter() {
        let Some(k) = key.as_string() else { continue };
        let v =
            Reflect::get(obj, &key).map_err(|_| invalid(&k, "the property could not be read"))?;
        if v.is_undefined() {
            continue;
        }
        let k = k.as_str();
        match k {
            "kind" => kind = Some(string(k, &v)?),
            "baseUrl" => base_url = Some(string(k, &v)?),
            "apiKey" => api_key = Some(string(k, &v)?),
            "embeddingModel" => embedding_model = Some(string(k, &v)?),
            "chatModel" => chat_model = Some(string(k, &v)?),
            "smallModel" => small_model = Some(string(k, &v)?),
            "dimensions" => dimensions = Some(whole(k, &v, 1.0, 65_536.0)? as usize),
            "batchSize" => batch_size = Some(whole(k, &v, 1.0, 100_000.0)? as usize),
            "maxBatchTokens" => max_batch_tokens = Some(whole(k, &v, 1.0, U32)? as usize),
            "timeoutMs" => timeout_ms = Some(whole(k, &v, 1.0, 2_147_483_647.0)? as u32),
            "maxRetries" => max_retries = Some(whole(k, &v, 0.0, 100.0)? as u32),
            "retryBaseDelayMs" => base_delay = Some(whole(k, &v, 0.0, 2_147_483_647.0)? as u32),
            "retryMaxDelayMs" => max_delay = Some(whole(k, &v, 0.0, 2_147_483_647.0)? as u32),
            "embed" => embed_fn = Some(function(k, v)?),
            "chat" => chat_fn = Some(function(k, v)?),
            _ => {
                return Err(invalid(
                    k,
                    &format!(
                        "unknown option; known options are {}",
                        KNOWN_KEYS.join(", ")
                    ),
                ));
            }
        }
    }
    let kind = match kind.as_deref() {
        Some("openai") => Some(ProviderKind::OpenAi),
        Some("ollama") => Some(ProviderKind::Ollama),
        Some("function") => None,
        None if embed_fn.is_some() || chat_fn.is_some() => None,
        None => {
            return Err(invalid(
                "kind",
                "required: 'openai', 'ollama' or 'function'",
            ));
        }
        Some(other) => {
            return Err(invalid(
                "kind",
                &format!("unknown kind {other:?}; expected 'openai', 'ollama' or 'function'"),
            ));
        }
    };
    let mut policy = RetryPolicy::default();
    if let Some(n) = max_retries {
        policy.max_retries = n;
    }
    if let Some(ms) = base_delay {
        policy.base_delay_ms = ms;
    }
    if let Some(ms) = max_delay {
        policy.max_delay_ms = ms;
    }
    let backend = match kind {
        Some(kind) => {
            let mut cfg = ProviderConfig::new(kind);
            if let Some(u) = base_url {
                cfg.base_url = u;
            }
            cfg.api_key = api_key;
            cfg.embedding_model = embedding_model.clone();
            cfg.chat_model = chat_model.clone();
            cfg.small_model = small_model.clone();
            cfg.dimensions = dimensions;
            cfg.batch_size = batch_size.unwrap_or(cfg.batch_size);
            cfg.max_batch_tokens = max_batch_tokens.unwrap_or(cfg.max_batch_tokens);
            cfg.timeout_ms = timeout_ms.unwrap_or(cfg.timeout_ms);
            cfg.max_retries = policy.max_retries;
            let cfg = cfg.validated().map_err(|e| provider_error_to_js(&e))?;
            Some(HttpBackend { cfg, policy })
        }
        None => {
            for (key, given) in [
                ("baseUrl", base_url.is_some()),
                ("apiKey", api_key.is_some()),
                ("timeoutMs", timeout_ms.is_some()),
            ] {
                if given {
                    return Err(invalid(key, "applies to kind 'openai' or 'ollama' only"));
                }
            }
            if embed_fn.is_none() && chat_fn.is_none() {
                return Err(invalid(
                    "embed",
                    "kind 'function' needs an embed or a chat function (or both)",
                ));
            }
            None
        }
    };
    let non_empty = |s: &Option<String>| s.clone().filter(|m| !m.trim().is_empty());
    let embedding_model_id = match (&embed_fn, &backend) {
        (Some(_), _) => Some(model_id(
            "function",
            &non_empty(&embedding_model).unwrap_or_else(|| "custom".into()),
            dimensions,
        )),
        (None, Some(b)) => b.cfg.model_id(),
        (None, None) => None,
    };
    let http_chat = backend.as_ref().is_some_and(|b| b.cfg.chat_model.is_some());
    let has_chat = chat_fn.is_some() || http_chat;
    let (chat_model, small_model) = (non_empty(&chat_model), non_empty(&small_model));
    let has_small_chat = has_chat && small_model.is_some() && small_model != chat_model;
    let (batch_size, max_batch_tokens) = match &backend {
        Some(b) => (b.cfg.batch_size, b.cfg.max_batch_tokens),
        None => (
            batch_size.unwrap_or(ProviderKind::OpenAi.default_batch_size()),
            max_batch_tokens.unwrap_or(DEFAULT_MAX_BATCH_TOKENS),
        ),
    };
    Ok(Some(JsProvider {
        backend: Backend {
            http: backend,
            embed_fn,
            chat_fn,
        },
        embedding_model_id,
        dimensions,
        batch_size,
        max_batch_tokens,
        has_chat,
        has_small_chat,
    }))
}
