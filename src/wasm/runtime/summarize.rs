//! `collection.summarize(docIds?, options)`: drives the sans-IO
//! [`crate::query::summarize::Summarizer`], sending each batch of model requests
//! concurrently (at most `concurrency` at a time) to the chat provider and
//! reporting progress as `map 12/40`.

use std::rc::Rc;

use js_sys::{Array, Promise};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::provider::config::ChatModel;
use crate::query::summarize::{Step, Summarizer, SummaryMode, SummaryOptions};

use super::super::errors::js_error;
use super::super::provider::{CallControl, provider_error_to_js};
use super::bag::{Bag, check_abort, invalid, progress, query_error};
use super::collection::{Inner, to_js};

/// Default concurrent model calls.
const DEFAULT_CONCURRENCY: f64 = 4.0;

fn doc_ids(value: &JsValue) -> Result<Option<Vec<String>>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if let Some(one) = value.as_string() {
        return Ok(Some(vec![one]));
    }
    if !Array::is_array(value) {
        return Err(invalid(
            "docIds",
            "expected a document id, an array of them, or null for the whole collection",
        ));
    }
    Array::from(value)
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_string()
                .ok_or_else(|| invalid(&format!("docIds[{i}]"), "expected a string"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

pub(crate) async fn summarize(
    inner: Rc<Inner>,
    ids: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let bag = Bag::new(
        "summarize",
        &options,
        &[
            "mode",
            "focus",
            "signal",
            "onProgress",
            "concurrency",
            "contextWindow",
            "maxDepth",
            "topicK",
        ],
    )?;
    let ids = doc_ids(&ids)?;
    let signal = bag.signal("signal")?;
    let on_progress = bag.function("onProgress")?;
    let concurrency = bag
        .whole("concurrency", 1.0, 64.0)?
        .unwrap_or(DEFAULT_CONCURRENCY) as usize;
    let provider = inner.provider().filter(|p| p.has_chat());
    let mode = match bag.string("mode")? {
        Some(name) => SummaryMode::from_name(&name).map_err(|e| query_error(&e))?,
        None if provider.is_some() => SummaryMode::Hierarchical,
        None => SummaryMode::Extractive,
    };
    if mode.uses_model() && provider.is_none() {
        return Err(js_error(
            "no-chat-model",
            &format!(
                "mode '{}' needs a chat model; set a provider with chatModel, or use mode 'extractive'",
                mode.name()
            ),
        ));
    }
    let q = |e: crate::query::QueryError| query_error(&e);
    let mut o = SummaryOptions::new().with_mode(mode);
    if let Some(f) = bag.string("focus")? {
        o = o.with_focus(f);
    }
    if let Some(t) = bag.whole("contextWindow", 1.0, 1.0e8)? {
        o = o.with_context_window(t as usize).map_err(q)?;
    }
    if let Some(d) = bag.whole("maxDepth", 1.0, 64.0)? {
        o = o.with_max_depth(d as usize).map_err(q)?;
    }
    if let Some(k) = bag.whole("topicK", 1.0, 1000.0)? {
        o = o.with_topic_k(k as usize).map_err(q)?;
    }
    let started = js_sys::Date::now();
    let mut machine = {
        let state = inner.state.borrow();
        let refs: Option<Vec<&str>> = ids.as_ref().map(|v| v.iter().map(String::as_str).collect());
        Summarizer::new(&state.core, refs.as_deref(), o).map_err(|e| query_error(&e))?
    };
    loop {
        check_abort(signal.as_ref())?;
        match machine.next_requests() {
            Step::Done(mut summary) => {
                summary.trace.wall_ms = Some((js_sys::Date::now() - started).max(0.0) as u64);
                progress(
                    on_progress.as_ref(),
                    "done",
                    1.0,
                    1.0,
                    &[("label", "done".into())],
                );
                return to_js(&summary);
            }
            Step::Waiting => {
                return Err(js_error(
                    "internal",
                    "the summarizer waits for replies it was never asked for",
                ));
            }
            Step::Requests(requests) => {
                let Some(p) = provider.clone() else {
                    return Err(js_error(
                        "no-chat-model",
                        "the summarizer asked for a model call without a chat model",
                    ));
                };
                for window in requests.chunks(concurrency) {
                    let calls: Array = window
                        .iter()
                        .map(|(_, req)| {
                            let p = p.clone();
                            let messages = req.messages.clone();
                            let ctl = CallControl {
                                signal: signal.clone(),
                                on_progress: None,
                            };
                            JsValue::from(future_to_promise(async move {
                                p.chat(&messages, ChatModel::Main, &ctl, &|_| {})
                                    .await
                                    .map(JsValue::from)
                                    .map_err(|e| provider_error_to_js(&e))
                            }))
                        })
                        .collect();
                    let replies = JsFuture::from(Promise::all(&calls)).await?;
                    for ((id, _), reply) in window.iter().zip(Array::from(&replies).iter()) {
                        let text = reply.as_string().unwrap_or_default();
                        machine.submit(*id, &text).map_err(|e| query_error(&e))?;
                    }
                    let pr = machine.progress();
                    progress(
                        on_progress.as_ref(),
                        &format!("{:?}", pr.phase).to_lowercase(),
                        pr.done as f64,
                        pr.total as f64,
                        &[
                            ("label", pr.to_string().into()),
                            ("level", (pr.level as f64).into()),
                        ],
                    );
                }
            }
        }
    }
}
