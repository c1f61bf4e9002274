//! The `convert` export: bytes or text in, `{docId, title, chunks, metadata,
//! warnings}` out, with metadata records as plain JS objects.

use js_sys::{ArrayBuffer, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::metadata::Metadata;
use crate::model::Warning;
use crate::{Conversion, ConvertError};

use super::errors::{self, INTERNAL, INVALID_INPUT};
use super::names::JsNameFinder;
use super::options;
use super::progress::observed;

/// The JS result shape (`ConversionResult` in the d.ts).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsConversion<'a> {
    doc_id: &'a str,
    title: &'a str,
    chunks: Vec<&'a str>,
    metadata: Vec<&'a Metadata>,
    warnings: &'a [Warning],
}

/// Converts a document (`Uint8Array`/`ArrayBuffer` of the file, or a string holding
/// the document's text) into chunks. Throws a `DocragError` with a stable `code`.
#[wasm_bindgen(js_name = convert)]
pub fn js_convert(input: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    super::install_panic_hook();
    let bytes = input_bytes(&input)?;
    let opts = options::parse(&options).map_err(|e| errors::from_convert(&e))?;
    if opts
        .signal
        .as_ref()
        .is_some_and(web_sys::AbortSignal::aborted)
    {
        return Err(errors::js_error(
            errors::ABORTED,
            "the operation was aborted by its AbortSignal",
        ));
    }
    let name = opts.options.file_name.clone().unwrap_or_default();
    let conversion = observed(
        opts.on_progress.clone(),
        opts.signal.clone(),
        name,
        || match opts.names {
            Some(callback) => {
                let finder = JsNameFinder::new(callback);
                let result = crate::convert_with(&bytes, &opts.options, &finder);
                match finder.take_failure() {
                    Some(failure) => Err(failure),
                    None => result.map_err(|e| errors::from_convert(&js_option_names(e))),
                }
            }
            None => crate::convert(&bytes, &opts.options)
                .map_err(|e| errors::from_convert(&js_option_names(e))),
        },
    )?;
    if conversion.chunks.is_empty() {
        return Err(errors::from_convert(&ConvertError::no_text(&opts.options)));
    }
    to_js(&conversion)
}

/// The core names caller fields `userFields.<name>`; JS callers wrote `fields`.
fn js_option_names(e: ConvertError) -> ConvertError {
    match e {
        ConvertError::InvalidOption { name, detail } => ConvertError::InvalidOption {
            name: match name.strip_prefix("userFields.") {
                Some(field) => format!("fields.{field}"),
                None => name,
            },
            detail,
        },
        other => other,
    }
}

fn input_bytes(input: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = input.as_string() {
        return Ok(text.into_bytes());
    }
    if let Some(arr) = input.dyn_ref::<Uint8Array>() {
        return Ok(arr.to_vec());
    }
    if let Some(buf) = input.dyn_ref::<ArrayBuffer>() {
        return Ok(Uint8Array::new(buf).to_vec());
    }
    let kind = input.js_typeof().as_string().unwrap_or_default();
    Err(errors::js_error(
        INVALID_INPUT,
        &format!(
            "convert() takes a Uint8Array, an ArrayBuffer or a string, got {}; read a File or Blob with `new Uint8Array(await file.arrayBuffer())`",
            if input.is_null() {
                "null"
            } else {
                kind.as_str()
            }
        ),
    ))
}

fn to_js(c: &Conversion) -> Result<JsValue, JsValue> {
    let shape = JsConversion {
        doc_id: &c.doc_id,
        title: &c.title,
        chunks: c.chunks.iter().map(|ch| ch.text.as_str()).collect(),
        metadata: c.chunks.iter().map(|ch| &ch.metadata).collect(),
        warnings: &c.warnings,
    };
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    shape
        .serialize(&serializer)
        .map_err(|e| errors::js_error(INTERNAL, &format!("could not build the result: {e}")))
}
