//! Reading caller objects without letting their exceptions escape. `Object.keys`
//! and friends run user code on a Proxy or a getter; js-sys's bindings do not catch,
//! so a throw would unwind through Rust frames (leaving borrows held) and surface as
//! an uncaught exception with a promise that never settles. These catch it.

use js_sys::Array;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(obj: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(obj: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = values)]
    fn object_values(obj: &JsValue) -> Result<Array, JsValue>;
}

/// `Object.keys(obj)`: own enumerable string keys, or the exception it threw.
pub(crate) fn keys(obj: &JsValue) -> Result<Array, JsValue> {
    object_keys(obj)
}

/// `Object.entries(obj)`: `[key, value]` pairs, or the exception it threw.
pub(crate) fn entries(obj: &JsValue) -> Result<Array, JsValue> {
    object_entries(obj)
}

/// `Object.values(obj)`, or the exception it threw.
pub(crate) fn values(obj: &JsValue) -> Result<Array, JsValue> {
    object_values(obj)
}

/// A thrown JS value as text for an error message: an Error's message, a string as
/// it is, anything else by `String(value)`; never Rust's `JsValue(...)` debug form.
pub(crate) fn describe(value: &JsValue) -> String {
    if let Some(s) = value.as_string() {
        return s;
    }
    if let Some(e) = value.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "a value that cannot be shown".into())
}
