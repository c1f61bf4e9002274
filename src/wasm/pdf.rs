//! PDF in the wasm package. The core has no PDF interpreter here: the JS layer's
//! glyph source (`js/pdf.js`, pdf.js imported on the first PDF) reports each page's
//! text runs and ruling lines, and the core's layout analysis
//! ([`crate::read::pdf::layout`]) reads the document from them, as the CLI does from
//! its own interpreter.

use std::cell::RefCell;

use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

use crate::ConvertError;
use crate::model::{Document, Properties};
use crate::options::ConvertOptions;
use crate::read::pdf::{OutlineEntry, PageRuns, layout, ocr_warning};

use super::errors::{from_convert, js_error};
use super::progress::progress;

thread_local! {
    static SOURCE: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the JS glyph source: `(bytes, {firstPage, lastPage, maxPages, signal,
/// onPage}) => Promise<{pages, outline, info}>`, `pages` in the shape of
/// [`PageRuns`]. The package's entries call it once. Not part of the public API.
#[wasm_bindgen(js_name = "__setPdfSource")]
pub fn set_pdf_source(source: Function) {
    SOURCE.with(|s| *s.borrow_mut() = Some(source));
}

/// What the glyph source resolves to.
#[derive(Deserialize)]
struct JsPdf {
    pages: Vec<PageRuns>,
    #[serde(default)]
    outline: Vec<OutlineEntry>,
    #[serde(default)]
    info: JsInfo,
}

/// The document information dictionary's text entries (ISO 32000-2, 14.3.3).
#[derive(Deserialize, Default)]
struct JsInfo {
    title: Option<String>,
    author: Option<String>,
    subject: Option<String>,
    keywords: Option<String>,
}

/// Reads the PDF `bytes` through the registered glyph source, reporting each page
/// read as `onProgress({stage: "parse", done, total})` in bytes of the file (the
/// share of its pages read) with `extra` fields.
///
/// # Errors
/// The glyph source's `DocragError` (`pdf-encrypted`, `malformed-pdf`, `too-large`,
/// an `AbortError`), `unsupported-format` when no source is registered, and the
/// layout's errors.
pub(crate) async fn read(
    bytes: &[u8],
    options: &ConvertOptions,
    on_progress: Option<&Function>,
    signal: Option<&AbortSignal>,
    extra: &[(&str, JsValue)],
) -> Result<Document, JsValue> {
    let Some(source) = SOURCE.with(|s| s.borrow().clone()) else {
        return Err(from_convert(&ConvertError::UnsupportedFormat {
            format: "PDF".into(),
        }));
    };
    let size = bytes.len() as f64;
    let report = on_progress.cloned();
    let extra: Vec<(String, JsValue)> = extra
        .iter()
        .map(|(k, v)| ((*k).to_string(), v.clone()))
        .collect();
    let on_page = Closure::<dyn Fn(f64, f64)>::new(move |done: f64, total: f64| {
        let extra: Vec<(&str, JsValue)> =
            extra.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let done = if total > 0.0 {
            size * done / total
        } else {
            0.0
        };
        progress(report.as_ref(), "parse", done, size, &extra);
    });
    let bag = Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&bag, &k.into(), v);
    };
    set(
        "firstPage",
        &options.first_page.map_or(JsValue::UNDEFINED, JsValue::from),
    );
    set(
        "lastPage",
        &options.last_page.map_or(JsValue::UNDEFINED, JsValue::from),
    );
    set("maxPages", &JsValue::from(options.limits.max_pages as f64));
    set(
        "signal",
        &signal.map_or(JsValue::UNDEFINED, |s| s.clone().into()),
    );
    set("onPage", on_page.as_ref());
    let promise = source
        .call2(&JsValue::NULL, &Uint8Array::from(bytes), &bag)
        .and_then(|p| p.dyn_into::<Promise>())
        .map_err(|e| source_failure(&e))?;
    let value = JsFuture::from(promise).await?;
    drop(on_page);
    let pdf: JsPdf = serde_wasm_bindgen::from_value(value).map_err(|e| {
        js_error(
            "internal",
            &format!("the PDF glyph source gave a bad shape: {e}"),
        )
    })?;
    let mut doc =
        layout(&pdf.pages, &pdf.outline, &options.limits).map_err(|e| from_convert(&e))?;
    let first = options.first_page.unwrap_or(1);
    let last = options.last_page.unwrap_or(u32::MAX);
    let read: Vec<&PageRuns> = pdf
        .pages
        .iter()
        .filter(|p| (first..=last).contains(&p.number))
        .collect();
    let textless: Vec<u32> = read
        .iter()
        .filter(|p| p.runs.is_empty())
        .map(|p| p.number)
        .collect();
    doc.warnings.extend(ocr_warning(&textless, read.len()));
    let clean = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    doc.properties = Properties {
        title: clean(pdf.info.title),
        author: clean(pdf.info.author),
        subject: clean(pdf.info.subject),
        keywords: clean(pdf.info.keywords),
        ..Properties::default()
    };
    Ok(doc)
}

/// A glyph source that threw instead of rejecting: its error if it is one of ours,
/// else an `internal` one naming it.
fn source_failure(e: &JsValue) -> JsValue {
    if Reflect::get(e, &"code".into()).is_ok_and(|c| c.is_string()) {
        return e.clone();
    }
    js_error(
        "internal",
        &format!(
            "the PDF glyph source failed: {}",
            super::objects::describe(e)
        ),
    )
}
