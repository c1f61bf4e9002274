//! Progress reports to JS: the `onProgress` callbacks of long calls, and the hook
//! that turns a conversion's reports (`crate::progress`) into them.

use std::ops::ControlFlow;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// Calls a progress callback with `{stage, done, total, ...extra}`; a throwing
/// callback is ignored (progress must never break the work).
pub(crate) fn progress(
    cb: Option<&Function>,
    stage: &str,
    done: f64,
    total: f64,
    extra: &[(&str, JsValue)],
) {
    let Some(cb) = cb else { return };
    let o = Object::new();
    let _ = Reflect::set(&o, &"stage".into(), &stage.into());
    let _ = Reflect::set(&o, &"done".into(), &done.into());
    let _ = Reflect::set(&o, &"total".into(), &total.into());
    for (k, v) in extra {
        let _ = Reflect::set(&o, &(*k).into(), v);
    }
    let _ = cb.call1(&JsValue::NULL, &o);
}

/// Runs the conversion `f` watched by [`conversion_hook`]; bare (no hook, no reports)
/// when there is neither a callback nor a signal to serve.
pub(crate) fn observed<T>(
    on_progress: Option<Function>,
    signal: Option<AbortSignal>,
    file_name: String,
    f: impl FnOnce() -> T,
) -> T {
    if on_progress.is_none() && signal.is_none() {
        return f();
    }
    crate::progress::observe(conversion_hook(on_progress, signal, file_name), f)
}

/// The progress hook of one conversion (`crate::progress`): each report becomes an
/// `onProgress({stage: "parse" | "chunk", done, total, part, fileName})` call, at most
/// one per stage, part and 1% of its work; the conversion stops (an `AbortError`) once
/// `signal` is aborted, which `onProgress` itself may do.
fn conversion_hook(
    on_progress: Option<Function>,
    signal: Option<AbortSignal>,
    file_name: String,
) -> crate::progress::Hook {
    let mut last: Option<(&'static str, String, u64)> = None;
    Box::new(move |p| {
        let aborted = || signal.as_ref().is_some_and(AbortSignal::aborted);
        if aborted() {
            return ControlFlow::Break(());
        }
        let step = p.total.max(1).div_ceil(100);
        let stage = p.stage.name();
        let due = match &last {
            Some((s, part, done)) => {
                *s != stage || part != p.part || p.done >= done + step || p.done == p.total
            }
            None => true,
        };
        if due {
            last = Some((stage, p.part.to_string(), p.done));
            let extra = [
                ("fileName", JsValue::from(file_name.as_str())),
                ("part", JsValue::from(p.part)),
            ];
            progress(
                on_progress.as_ref(),
                stage,
                p.done as f64,
                p.total as f64,
                &extra,
            );
        }
        if aborted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
}
