//! Strict reading of the runtime's JS option bags: an unknown key, a wrong type or
//! a bad number is an `invalid-option` DocragError naming the key, never ignored.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::super::errors::js_error;
pub(crate) use super::super::progress::progress;

/// A read options bag (`undefined`/`null` = empty).
pub(crate) struct Bag {
    obj: Option<Object>,
}

pub(crate) fn invalid(option: &str, detail: &str) -> JsValue {
    let e = js_error(
        "invalid-option",
        &format!("invalid option {option}: {detail}"),
    );
    let _ = Reflect::set(&e, &"option".into(), &option.into());
    e
}

fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if js_sys::Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof().as_string().unwrap_or_default()
    }
}

impl Bag {
    /// Reads `value` as the options of `what` (e.g. `addFile`), refusing keys not in
    /// `known`.
    pub(crate) fn new(what: &'static str, value: &JsValue, known: &[&str]) -> Result<Bag, JsValue> {
        if value.is_undefined() || value.is_null() {
            return Ok(Bag { obj: None });
        }
        let Some(obj) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
            return Err(invalid(
                what,
                &format!("expected an options object, got {}", type_name(value)),
            ));
        };
        let keys = super::super::objects::keys(obj).map_err(|e| {
            invalid(
                what,
                &format!(
                    "the options object could not be read: {}",
                    super::super::objects::describe(&e)
                ),
            )
        })?;
        for key in keys.iter() {
            let k = key.as_string().unwrap_or_default();
            if !known.contains(&k.as_str()) {
                return Err(invalid(
                    &k,
                    &format!("{what} does not take `{k}`; it takes {}", known.join(", ")),
                ));
            }
        }
        Ok(Bag {
            obj: Some(obj.clone()),
        })
    }

    /// The raw value of `key` (`undefined` when absent).
    pub(crate) fn raw(&self, key: &str) -> JsValue {
        self.obj
            .as_ref()
            .and_then(|o| Reflect::get(o, &key.into()).ok())
            .unwrap_or(JsValue::UNDEFINED)
    }

    pub(crate) fn string(&self, key: &str) -> Result<Option<String>, JsValue> {
        let v = self.raw(key);
        if v.is_undefined() {
            return Ok(None);
        }
        v.as_string()
            .map(Some)
            .ok_or_else(|| invalid(key, &format!("expected a string, got {}", type_name(&v))))
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, JsValue> {
        let v = self.raw(key);
        if v.is_undefined() {
            return Ok(None);
        }
        v.as_bool().map(Some).ok_or_else(|| {
            invalid(
                key,
                &format!("expected true or false, got {}", type_name(&v)),
            )
        })
    }

    /// A whole number in `min..=max`.
    pub(crate) fn whole(&self, key: &str, min: f64, max: f64) -> Result<Option<f64>, JsValue> {
        let v = self.raw(key);
        if v.is_undefined() {
            return Ok(None);
        }
        let n = v
            .as_f64()
            .ok_or_else(|| invalid(key, &format!("expected a number, got {}", type_name(&v))))?;
        if !n.is_finite() || n.fract() != 0.0 || n < min || n > max {
            return Err(invalid(
                key,
                &format!("expected a whole number in {min}..={max}, got {n}"),
            ));
        }
        Ok(Some(n))
    }

    pub(crate) fn function(&self, key: &str) -> Result<Option<Function>, JsValue> {
        let v = self.raw(key);
        if v.is_undefined() {
            return Ok(None);
        }
        v.dyn_into::<Function>()
            .map(Some)
            .map_err(|v| invalid(key, &format!("expected a function, got {}", type_name(&v))))
    }

    /// An `AbortSignal` (anything with `aborted` and `addEventListener`).
    pub(crate) fn signal(&self, key: &str) -> Result<Option<web_sys::AbortSignal>, JsValue> {
        let v = self.raw(key);
        if v.is_undefined() {
            return Ok(None);
        }
        let looks = Reflect::has(&v, &"aborted".into()).unwrap_or(false);
        if !looks {
            return Err(invalid(
                key,
                &format!("expected an AbortSignal, got {}", type_name(&v)),
            ));
        }
        Ok(Some(v.unchecked_into()))
    }
}

/// The `aborted` DocragError when `signal` is aborted.
pub(crate) fn check_abort(signal: Option<&web_sys::AbortSignal>) -> Result<(), JsValue> {
    match signal {
        Some(s) if s.aborted() => Err(js_error(
            "aborted",
            "the operation was aborted by its AbortSignal",
        )),
        _ => Ok(()),
    }
}

/// Lets the event loop run (a zero-delay timer): between long synchronous steps, so a
/// worker can receive an abort message and a page can paint.
pub(crate) async fn yield_now() {
    let promise = js_sys::Promise::new(&mut |resolve: Function, _reject: Function| {
        let set_timeout = Reflect::get(&js_sys::global(), &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok());
        match set_timeout {
            Some(f) => {
                let _ = f.call2(&JsValue::NULL, &resolve, &JsValue::from(0));
            }
            None => {
                let _ = resolve.call0(&JsValue::NULL);
            }
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A query-pipeline error as a DocragError; an `InvalidOption` keeps its `option`.
pub(crate) fn query_error(e: &crate::query::QueryError) -> JsValue {
    match e {
        crate::query::QueryError::InvalidOption { name, detail } => invalid(name, detail),
        other => js_error(other.code(), &other.to_string()),
    }
}
