//! Errors cross into JS as real `Error` objects: instances of the package's
//! `DocragError` class (registered by the JS entry at start through
//! [`set_error_class`]; a plain `Error` named `DocragError` before that), `code` the
//! stable code ([`ConvertError::code`] or a binding code below), `option` the
//! offending option for `invalid-option`. Never a thrown string.
//!
//! An abort follows the platform convention instead: a `DOMException` named
//! `AbortError` (what `fetch` and `AbortSignal.throwIfAborted` throw), whose `cause` is
//! the `DocragError` with code `aborted`.

use std::cell::RefCell;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::ConvertError;

/// The input was not a `Uint8Array`, `ArrayBuffer` or string.
pub(crate) const INVALID_INPUT: &str = "invalid-input";
/// The result could not be turned into JS values (a bug; please report it).
pub(crate) const INTERNAL: &str = "internal";

/// The code of an abort (the `cause` of the `AbortError`).
pub(crate) const ABORTED: &str = "aborted";

thread_local! {
    /// `DocragError` of the JS entry: `new DocragError(code, message)`.
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the JS `DocragError` class (`new (code, message)`); the package's
/// entries call it once after instantiation. Not part of the public API.
#[wasm_bindgen(js_name = "__setErrorClass")]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

/// A `DocragError` carrying `code`; for [`ABORTED`], the `AbortError` whose cause it
/// is.
pub(crate) fn js_error(code: &str, message: &str) -> JsValue {
    let err = docrag_error(code, message);
    if code != ABORTED {
        return err;
    }
    match web_sys::DomException::new_with_message_and_name(message, "AbortError") {
        Ok(abort) => {
            set(&abort, "cause", &err);
            abort.into()
        }
        Err(_) => err,
    }
}

fn docrag_error(code: &str, message: &str) -> JsValue {
    let made = ERROR_CLASS.with(|c| {
        let class = c.borrow();
        let args = Array::of2(&JsValue::from_str(code), &JsValue::from_str(message));
        class
            .as_ref()
            .and_then(|class| Reflect::construct(class, &args).ok())
    });
    if let Some(err) = made {
        return err;
    }
    let err = js_sys::Error::new(message);
    err.set_name("DocragError");
    set(&err, "code", &JsValue::from_str(code));
    err.into()
}

/// The JS error for a core error, with where it happened: `option` for an invalid
/// option, `part` (a package part or the input) and `position` (a byte offset in that
/// part) when the error names them.
pub(crate) fn from_convert(err: &ConvertError) -> JsValue {
    let value = js_error(err.code(), &err.to_string());
    match err {
        ConvertError::InvalidOption { name, .. } => set(&value, "option", &JsValue::from_str(name)),
        ConvertError::MalformedXml { part, position, .. } => {
            set(&value, "part", &JsValue::from_str(part));
            set(&value, "position", &JsValue::from_f64(*position as f64));
        }
        ConvertError::ZipBomb { part, .. } | ConvertError::TooDeep { part, .. } => {
            set(&value, "part", &JsValue::from_str(part))
        }
        _ => {}
    }
    value
}

/// Sets a property on a fresh `Error`. `Reflect::set` fails only on frozen or
/// proxied targets, which a new `Error` is not, so a failure is ignored rather than
/// turned into a second error.
fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
