//! Errors cross into JS as real `Error` objects: `name` is `"DocragError"`, `code`
//! is the stable code ([`ConvertError::code`] or a binding code below), and
//! `option` names the offending option for `invalid-option`. Never a thrown string.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::ConvertError;

/// The input was not a `Uint8Array`, `ArrayBuffer` or string.
pub(crate) const INVALID_INPUT: &str = "invalid-input";
/// The result could not be turned into JS values (a bug; please report it).
pub(crate) const INTERNAL: &str = "internal";

/// A JS `Error` named `DocragError` carrying `code`.
pub(crate) fn js_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("DocragError");
    set(&err, "code", &JsValue::from_str(code));
    err.into()
}

/// The JS error for a core error.
pub(crate) fn from_convert(err: &ConvertError) -> JsValue {
    let value = js_error(err.code(), &err.to_string());
    if let ConvertError::InvalidOption { name, .. } = err {
        set(&value, "option", &JsValue::from_str(name));
    }
    value
}

/// Sets a property on a fresh `Error`. `Reflect::set` fails only on frozen or
/// proxied targets, which a new `Error` is not, so a failure is ignored rather than
/// turned into a second error.
fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
