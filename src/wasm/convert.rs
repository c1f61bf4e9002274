//! The `convert` export: bytes or text in, `{docId, title, chunks, metadata,
//! warnings}` out, with metadata records as plain JS objects.

use js_sys::{ArrayBuffer, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::metadata::Metadata;
use crate::model::{Document, Warning};
use crate::{Conversion, ConvertError, ConvertOptions, NameFinder, SimpleNameFinder};

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
    let conversion = observed(opts.on_progress.clone(), opts.signal.clone(), name, || {
        conversion(&bytes, None, &opts.options, opts.names)
    })?;
    if conversion.chunks.is_empty() {
        return Err(errors::from_convert(&ConvertError::no_text(&opts.options)));
    }
    to_js(&conversion)
}

/// As `convert`, resolving to the same result, and reading PDFs too: a PDF's pages
/// go through the JS glyph source (pdf.js, imported on the first PDF), which cannot
/// run synchronously. `onProgress` hears each PDF page read (`parse`, in bytes of the
/// file) and `signal` aborts between pages.
#[wasm_bindgen(js_name = convertAsync)]
pub fn js_convert_async(input: JsValue, options: JsValue) -> js_sys::Promise {
    super::install_panic_hook();
    wasm_bindgen_futures::future_to_promise(async move {
        let bytes = input_bytes(&input)?;
        let opts = options::parse(&options).map_err(|e| errors::from_convert(&e))?;
        let aborted = || {
            opts.signal
                .as_ref()
                .is_some_and(web_sys::AbortSignal::aborted)
        };
        if aborted() {
            return Err(errors::js_error(
                errors::ABORTED,
                "the operation was aborted by its AbortSignal",
            ));
        }
        let o = &opts.options;
        let format = match o.format {
            Some(f) => f,
            None => crate::read::sniff::detect(&bytes, o.file_name.as_deref(), o.mime.as_deref())
                .map_err(|e| errors::from_convert(&e))?,
        };
        let name = o.file_name.clone().unwrap_or_default();
        let document = if format == crate::Format::Pdf {
            let extra = [("fileName", JsValue::from(name.as_str()))];
            let doc = super::pdf::read(
                &bytes,
                o,
                opts.on_progress.as_ref(),
                opts.signal.as_ref(),
                &extra,
            )
            .await?;
            if aborted() {
                return Err(errors::js_error(
                    errors::ABORTED,
                    "the operation was aborted by its AbortSignal",
                ));
            }
            Some(doc)
        } else {
            None
        };
        let conversion = observed(opts.on_progress.clone(), opts.signal.clone(), name, || {
            conversion(&bytes, document, o, opts.names.clone())
        })?;
        if conversion.chunks.is_empty() {
            return Err(errors::from_convert(&ConvertError::no_text(o)));
        }
        to_js(&conversion)
    })
}

/// Converts `bytes` (or chunks `document`, already read from them: a PDF read by
/// [`super::pdf::read`]) with the caller's `names` callback as the name finder, or
/// the built-in one configured from `options`.
///
/// # Errors
/// The conversion's error as a `DocragError` (option names as JS spells them), or
/// what the names callback threw.
pub(crate) fn conversion(
    bytes: &[u8],
    document: Option<Document>,
    options: &ConvertOptions,
    names: Option<js_sys::Function>,
) -> Result<Conversion, JsValue> {
    let run = |finder: &dyn NameFinder| match document {
        Some(doc) => crate::convert_document(doc, bytes, options, finder),
        None => crate::convert_with(bytes, options, finder),
    };
    let to_error = |e: ConvertError| errors::from_convert(&js_option_names(e));
    match names {
        Some(callback) => {
            let finder = JsNameFinder::new(callback);
            let result = run(&finder);
            match finder.take_failure() {
                Some(failure) => Err(failure),
                None => result.map_err(to_error),
            }
        }
        None => run(&SimpleNameFinder::new(
            options.places.clone(),
            options.terms.clone(),
        ))
        .map_err(to_error),
    }
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
