//! The `countTokens` and `prepareTokenizer` exports: exact o200k_base counts for JS.

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use super::errors::{self, INVALID_INPUT};

/// Number of o200k_base tokens in `text` (tiktoken's `encode_ordinary(text).length`:
/// special-token text such as `<|endoftext|>` counts as ordinary text). Throws a
/// `DocragError` `invalid-input` when `text` is not a string.
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(text: JsValue) -> Result<f64, JsValue> {
    super::install_panic_hook();
    match text.as_string() {
        Some(s) => Ok(crate::tokens::count(&s) as f64),
        None => Err(errors::js_error(
            INVALID_INPUT,
            &format!("countTokens expects a string, got {}", type_name(&text)),
        )),
    }
}

/// Builds the tokenizer's tables now (a few milliseconds) so the first count does
/// not; returns the vocabulary size (199,998).
#[wasm_bindgen(js_name = prepareTokenizer)]
pub fn prepare_tokenizer() -> f64 {
    super::install_panic_hook();
    crate::tokens::warm_up() as f64
}

fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if v.is_array() {
        "an array".into()
    } else {
        v.js_typeof()
            .as_string()
            .unwrap_or_else(|| "a value".into())
    }
}
