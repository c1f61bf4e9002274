//! The JS options bag -> [`ConvertOptions`], validated as it is read.
//!
//! `undefined` (absent) fields take their defaults; every other mistake (an unknown
//! key, a wrong type, a fractional number, `null`) is an
//! [`ConvertError::InvalidOption`] naming the key as the caller spelled it.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::metadata::MetaValue;
use crate::{ConvertError, ConvertOptions, Format, Limits, PageMode};

/// The option keys `convert` accepts, in the order the d.ts documents them.
pub(crate) const KNOWN_KEYS: &[&str] = &[
    "maxTokens",
    "firstPage",
    "lastPage",
    "docId",
    "title",
    "fileName",
    "format",
    "pages",
    "mimeType",
    "fields",
    "labels",
    "places",
    "terms",
    "names",
    "limits",
    "onProgress",
    "signal",
];

const LIMIT_KEYS: &[&str] = &[
    "maxInputBytes",
    "maxInflatedBytes",
    "maxRatio",
    "maxDepth",
    "maxElements",
    "maxPages",
    "maxChunks",
];

/// Largest integer a JS number holds exactly (2^53 - 1).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// Options read from JS: the core options plus the optional names callback.
pub(crate) struct JsOptions {
    /// Validated core options.
    pub options: ConvertOptions,
    /// `options.names`, called once per chunk.
    pub names: Option<Function>,
    /// `options.onProgress`: `{stage: "parse" | "chunk", done, total, part}` reports.
    pub on_progress: Option<Function>,
    /// `options.signal`: stops the conversion at its next progress report.
    pub signal: Option<web_sys::AbortSignal>,
}

fn invalid(name: &str, detail: impl Into<String>) -> ConvertError {
    ConvertError::InvalidOption {
        name: name.to_string(),
        detail: detail.into(),
    }
}

/// A short description of a JS value's type for error messages.
fn type_name(v: &JsValue) -> String {
    if v.is_null() {
        "null".into()
    } else if Array::is_array(v) {
        "an array".into()
    } else {
        v.js_typeof()
            .as_string()
            .unwrap_or_else(|| "unknown".into())
    }
}

/// A plain object (not null, an array or a function).
fn as_object<'a>(name: &str, v: &'a JsValue) -> Result<&'a Object, ConvertError> {
    if v.is_object() && !Array::is_array(v) {
        Ok(v.unchecked_ref::<Object>())
    } else {
        Err(invalid(
            name,
            format!("expected an object, got {}", type_name(v)),
        ))
    }
}

/// Own enumerable string keys with their values.
fn entries(name: &str, obj: &Object) -> Result<Vec<(String, JsValue)>, ConvertError> {
    let keys = super::objects::keys(obj).map_err(|e| {
        invalid(
            name,
            format!(
                "the object could not be read: {}",
                super::objects::describe(&e)
            ),
        )
    })?;
    let mut out = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let Some(k) = key.as_string() else { continue };
        let v = Reflect::get(obj, &key)
            .map_err(|_| invalid(&format!("{name}.{k}"), "the property could not be read"))?;
        out.push((k, v));
    }
    Ok(out)
}

fn string(name: &str, v: &JsValue) -> Result<String, ConvertError> {
    v.as_string()
        .ok_or_else(|| invalid(name, format!("expected a string, got {}", type_name(v))))
}

/// An input format name: `docx`, `html`, `rtf`, `markdown`, `text` or `pdf` (which
/// the wasm core refuses with `unsupported-format`: the package reads PDFs through
/// pdf.js).
fn format(name: &str, v: &JsValue) -> Result<Format, ConvertError> {
    match string(name, v)?.as_str() {
        "docx" => Ok(Format::Docx),
        "html" => Ok(Format::Html),
        "rtf" => Ok(Format::Rtf),
        "markdown" => Ok(Format::Markdown),
        "text" => Ok(Format::Text),
        "pdf" => Ok(Format::Pdf),
        other => Err(invalid(
            name,
            format!("unknown format {other:?}; expected docx, html, rtf, markdown, text or pdf"),
        )),
    }
}

/// A whole number in `min..=max`.
fn integer(name: &str, v: &JsValue, min: f64, max: f64) -> Result<f64, ConvertError> {
    let n = v
        .as_f64()
        .ok_or_else(|| invalid(name, format!("expected a number, got {}", type_name(v))))?;
    if !n.is_finite() || n.fract() != 0.0 {
        return Err(invalid(name, format!("expected a whole number, got {n}")));
    }
    if n < min || n > max {
        return Err(invalid(name, format!("{n} is outside {min}..={max}")));
    }
    Ok(n)
}

fn strings(name: &str, v: &JsValue) -> Result<Vec<String>, ConvertError> {
    if !Array::is_array(v) {
        return Err(invalid(
            name,
            format!("expected an array of strings, got {}", type_name(v)),
        ));
    }
    let arr = v.unchecked_ref::<Array>();
    let mut out = Vec::with_capacity(arr.length() as usize);
    for (i, item) in arr.iter().enumerate() {
        out.push(string(&format!("{name}[{i}]"), &item)?);
    }
    Ok(out)
}

/// Reads `options` (`undefined` or `null` = all defaults).
pub(crate) fn parse(value: &JsValue) -> Result<JsOptions, ConvertError> {
    let mut o = ConvertOptions::new();
    let mut names = None;
    let (mut on_progress, mut signal) = (None, None);
    if value.is_undefined() || value.is_null() {
        return Ok(JsOptions {
            options: o,
            names,
            on_progress,
            signal,
        });
    }
    let obj = as_object("options", value)?;
    let (mut first, mut last) = (None, None);
    for (key, v) in entries("options", obj)? {
        if v.is_undefined() {
            continue;
        }
        let k = key.as_str();
        match k {
            "maxTokens" => {
                o = o.with_max_tokens(integer(k, &v, 0.0, f64::from(u32::MAX))? as usize)?;
            }
            "firstPage" => first = Some(integer(k, &v, -1.0, MAX_SAFE)? as i64),
            "lastPage" => last = Some(integer(k, &v, -1.0, MAX_SAFE)? as i64),
            "docId" => o = o.with_doc_id(string(k, &v)?)?,
            "title" => o = o.with_title(string(k, &v)?),
            "fileName" => o = o.with_file_name(string(k, &v)?),
            "mimeType" => o.mime = Some(string(k, &v)?),
            "format" => o = o.with_format(format(k, &v)?),
            "pages" => o = o.with_pages(PageMode::parse(&string(k, &v)?)?),
            "fields" => {
                for (field, fv) in entries(k, as_object(k, &v)?)? {
                    let path = format!("fields.{field}");
                    let value = if let Some(s) = fv.as_string() {
                        MetaValue::Str(s)
                    } else if fv.as_f64().is_some() {
                        MetaValue::Int(integer(&path, &fv, -MAX_SAFE, MAX_SAFE)? as i64)
                    } else {
                        return Err(invalid(
                            &path,
                            format!(
                                "expected a string or a whole number, got {}",
                                type_name(&fv)
                            ),
                        ));
                    };
                    // The core names the field `userFields.<name>`; JS callers wrote `fields`.
                    o = o.with_user_field(field, value).map_err(|e| match e {
                        ConvertError::InvalidOption { detail, .. } => invalid(&path, detail),
                        other => other,
                    })?;
                }
            }
            "labels" => {
                for (label, lv) in entries(k, as_object(k, &v)?)? {
                    let renamed = string(&format!("labels.{label}"), &lv)?;
                    o = o.with_label(label, renamed);
                }
            }
            "places" => o.places = strings(k, &v)?,
            "terms" => o.terms = strings(k, &v)?,
            "names" => {
                let f = v.dyn_into::<Function>().map_err(|other| {
                    invalid(
                        k,
                        format!(
                            "expected a function (text) => ({{persons, organizations, places, terms}}), got {}",
                            type_name(&other)
                        ),
                    )
                })?;
                names = Some(f);
            }
            "limits" => o = o.with_limits(limits(&v)?),
            "onProgress" => {
                let f = v.dyn_into::<Function>().map_err(|other| {
                    invalid(k, format!("expected a function, got {}", type_name(&other)))
                })?;
                on_progress = Some(f);
            }
            "signal" => {
                if !js_sys::Reflect::has(&v, &"aborted".into()).unwrap_or(false) {
                    return Err(invalid(
                        k,
                        format!("expected an AbortSignal, got {}", type_name(&v)),
                    ));
                }
                signal = Some(v.unchecked_into());
            }
            _ => {
                return Err(invalid(
                    k,
                    format!(
                        "unknown option; known options are {}",
                        KNOWN_KEYS.join(", ")
                    ),
                ));
            }
        }
    }
    if first.is_some() || last.is_some() {
        o = o.with_page_range(first.unwrap_or(-1), last.unwrap_or(-1))?;
    }
    Ok(JsOptions {
        options: o,
        names,
        on_progress,
        signal,
    })
}

fn limits(v: &JsValue) -> Result<Limits, ConvertError> {
    let mut l = Limits::default();
    for (key, lv) in entries("limits", as_object("limits", v)?)? {
        if lv.is_undefined() {
            continue;
        }
        let path = format!("limits.{key}");
        let n = || integer(&path, &lv, 1.0, MAX_SAFE);
        match key.as_str() {
            "maxInputBytes" => l.max_input_bytes = n()? as u64,
            "maxInflatedBytes" => l.max_inflated_bytes = n()? as u64,
            "maxRatio" => l.max_ratio = n()? as u64,
            "maxDepth" => l.max_depth = n()? as usize,
            "maxElements" => l.max_elements = n()? as u64,
            "maxPages" => l.max_pages = n()? as u64,
            "maxChunks" => l.max_chunks = n()? as u64,
            _ => {
                return Err(invalid(
                    &path,
                    format!("unknown limit; known limits are {}", LIMIT_KEYS.join(", ")),
                ));
            }
        }
    }
    Ok(l)
}
