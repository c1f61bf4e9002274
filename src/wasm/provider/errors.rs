//! [`ProviderError`] -> a JS `DocragError` with the details as properties.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use super::super::errors::js_error;
use crate::provider::ProviderError;

fn set(target: &JsValue, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(target, &JsValue::from_str(key), &value.into());
}

/// A `DocragError` with `code` = [`ProviderError::code`] and, where they apply,
/// `status` (HTTP status), `retryAfterMs` (milliseconds), `attempts` (requests
/// sent), `timeoutMs`, `expected`/`got`/`index`/`position` (vector checks) and
/// `option` (the setting of an `invalid-provider-config`).
pub(crate) fn provider_error_to_js(e: &ProviderError) -> JsValue {
    let err = js_error(e.code(), &e.to_string());
    match e {
        ProviderError::InvalidConfig { field, .. } => {
            set(&err, "option", format!("provider.{field}"))
        }
        ProviderError::HttpStatus {
            status,
            retry_after_ms,
            ..
        } => {
            set(&err, "status", *status);
            if let Some(ms) = retry_after_ms {
                set(&err, "retryAfterMs", *ms);
            }
        }
        ProviderError::RateLimited {
            attempts,
            retry_after_ms,
            ..
        } => {
            set(&err, "status", 429u16);
            set(&err, "attempts", *attempts);
            if let Some(ms) = retry_after_ms {
                set(&err, "retryAfterMs", *ms);
            }
        }
        ProviderError::Timeout { timeout_ms } => set(&err, "timeoutMs", *timeout_ms),
        ProviderError::EmbeddingCount { expected, got } => {
            set(&err, "expected", *expected as u32);
            set(&err, "got", *got as u32);
        }
        ProviderError::EmbeddingDimension {
            index,
            expected,
            got,
        } => {
            set(&err, "index", *index as u32);
            set(&err, "expected", *expected as u32);
            set(&err, "got", *got as u32);
        }
        ProviderError::EmbeddingEmpty { index } => set(&err, "index", *index as u32),
        ProviderError::EmbeddingNonFinite { index, position } => {
            set(&err, "index", *index as u32);
            set(&err, "position", *position as u32);
        }
        _ => {}
    }
    err
}
