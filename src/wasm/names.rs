//! A JS names callback as a [`NameFinder`].
//!
//! The callback is `(text: string) => ({ persons?, organizations?, places?, terms? })`
//! with arrays of strings, or `undefined` for "nothing found". It must be synchronous.
//! [`NameFinder::find`] cannot fail, so a failure is kept here: after the first one
//! the callback is not called again, the conversion runs to its end, and the caller
//! ([`super::convert`]) throws what was kept: the callback's own exception unchanged,
//! or an `invalid-option` error when it returned the wrong shape.

use std::cell::Cell;

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::names::{NameFinder, Names};

use super::errors;

/// Binding-only adapter: calls `callback` once per chunk.
pub(crate) struct JsNameFinder {
    callback: Function,
    failure: Cell<Option<JsValue>>,
}

impl JsNameFinder {
    /// Wraps `callback`.
    pub(crate) fn new(callback: Function) -> Self {
        JsNameFinder {
            callback,
            failure: Cell::new(None),
        }
    }

    /// The first failure, if any: the callback's exception or a shape error.
    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.failure.take()
    }

    fn has_failed(&self) -> bool {
        let f = self.failure.take();
        let failed = f.is_some();
        self.failure.set(f);
        failed
    }
}

impl NameFinder for JsNameFinder {
    fn find(&self, text: &str) -> Names {
        if self.has_failed() {
            return Names::default();
        }
        let result = self
            .callback
            .call1(&JsValue::UNDEFINED, &JsValue::from_str(text))
            .and_then(|v| read_names(&v));
        match result {
            Ok(names) => names,
            Err(e) => {
                self.failure.set(Some(e));
                Names::default()
            }
        }
    }
}

const KEYS: [&str; 4] = ["persons", "organizations", "places", "terms"];

fn shape_error(detail: &str) -> JsValue {
    let err = crate::ConvertError::InvalidOption {
        name: "names".into(),
        detail: format!(
            "the callback must return {{persons, organizations, places, terms}} (arrays of strings) or undefined; {detail}"
        ),
    };
    errors::from_convert(&err)
}

fn read_names(v: &JsValue) -> Result<Names, JsValue> {
    if v.is_undefined() {
        return Ok(Names::default());
    }
    if v.is_instance_of::<Promise>() {
        return Err(shape_error(
            "it returned a Promise, but the callback must be synchronous",
        ));
    }
    if !v.is_object() || Array::is_array(v) {
        return Err(shape_error("it returned something else"));
    }
    let obj = v.unchecked_ref::<Object>();
    let keys = super::objects::keys(obj).map_err(|e| {
        shape_error(&format!(
            "its result could not be read: {}",
            super::objects::describe(&e)
        ))
    })?;
    for key in keys.iter() {
        let k = key.as_string().unwrap_or_default();
        if !KEYS.contains(&k.as_str()) {
            return Err(shape_error(&format!("it returned an unknown key '{k}'")));
        }
    }
    let mut lists: [Vec<String>; 4] = Default::default();
    for (key, list) in KEYS.iter().zip(lists.iter_mut()) {
        let value = Reflect::get(obj, &JsValue::from_str(key))?;
        if value.is_undefined() {
            continue;
        }
        if !Array::is_array(&value) {
            return Err(shape_error(&format!("'{key}' is not an array")));
        }
        for item in value.unchecked_ref::<Array>().iter() {
            match item.as_string() {
                Some(s) => list.push(s),
                None => return Err(shape_error(&format!("'{key}' holds a non-string"))),
            }
        }
    }
    let [persons, organizations, places, terms] = lists;
    Ok(Names {
        persons,
        organizations,
        places,
        terms,
    })
}
