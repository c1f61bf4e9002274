//! A question over an open collection.
//!
//! 1. With an embedding model whose vectors the collection holds, the question is
//!    embedded (hybrid BM25 + cosine retrieval); otherwise BM25 alone.
//! 2. With a chat model, routing and broad/pointed classification are model calls
//!    (the small model when one is set, else the main one), made only when the
//!    pipeline would use them: RAG mode, several documents, and a collection at or
//!    over the send-everything threshold. Otherwise the heuristics decide.
//! 3. The sans-IO pipeline builds the payload; with a chat model the payload is
//!    sent (streamed to `onToken`) and citations are read from the model's answer;
//!    without one the extractive answer and its citations are returned.

use std::rc::Rc;

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::JsValue;

use crate::provider::config::ChatModel;
use crate::query::route::{classify_request, routing_request};
use crate::query::{self, Message, Mode, QueryOptions, Replies, Role, citations};

use super::super::errors::js_error;
use super::super::provider::{CallControl, JsProvider, provider_error_to_js};
use super::bag::{Bag, check_abort, invalid, progress, query_error};
use super::collection::{Inner, to_js};

const KEYS: &[&str] = &[
    "mode",
    "chunks",
    "history",
    "signal",
    "onProgress",
    "onToken",
    "routing",
    "generate",
    "tokenBudget",
    "smallCollectionTokens",
    "retrievalPercent",
    "coveragePercent",
    "enrichmentPercent",
    "confidenceThreshold",
    "maxSources",
    "historyTokens",
    "contextWindow",
];

fn history(value: &JsValue) -> Result<Vec<Message>, JsValue> {
    if value.is_undefined() {
        return Ok(Vec::new());
    }
    if !Array::is_array(value) {
        return Err(invalid(
            "history",
            "expected an array of {role, content} messages",
        ));
    }
    let mut out = Vec::new();
    for (i, m) in Array::from(value).iter().enumerate() {
        let get = |k: &str| Reflect::get(&m, &k.into()).ok().and_then(|v| v.as_string());
        let role = match get("role").as_deref() {
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("system") => Role::System,
            _ => {
                return Err(invalid(
                    &format!("history[{i}].role"),
                    "expected user, assistant or system",
                ));
            }
        };
        let Some(content) = get("content") else {
            return Err(invalid(
                &format!("history[{i}].content"),
                "expected a string",
            ));
        };
        out.push(Message::new(role, content));
    }
    Ok(out)
}

fn options(bag: &Bag) -> Result<(QueryOptions, bool), JsValue> {
    let chunks = bag.whole("chunks", 1.0, 1.0e6)?.map(|n| n as usize);
    let mode_name = bag.string("mode")?.unwrap_or_else(|| "rag".into());
    let mode = Mode::from_name(&mode_name, chunks).map_err(|e| query_error(&e))?;
    let mut o = QueryOptions::new().with_mode(mode);
    if let Some(n) = bag.whole("smallCollectionTokens", 0.0, 1.0e9)? {
        o = o.with_small_collection_tokens(n as usize);
    }
    let budget = bag.whole("tokenBudget", 1.0, 1.0e9)?;
    if let Some(t) = budget {
        o = o
            .with_token_budget(t as usize)
            .map_err(|e| query_error(&e))?;
    }
    // The seed's percentage controls replace the token budget only when one is set.
    let pct = |k: &str, d: u32| -> Result<(u32, bool), JsValue> {
        Ok(bag
            .whole(k, 0.0, 100.0)?
            .map_or((d, false), |n| (n as u32, true)))
    };
    let (r, r_set) = pct("retrievalPercent", o.retrieval_percent)?;
    let (c, c_set) = pct("coveragePercent", o.coverage_percent)?;
    let (e, e_set) = pct("enrichmentPercent", o.enrichment_percent)?;
    if r_set || c_set || e_set {
        if budget.is_some() {
            return Err(invalid(
                "tokenBudget",
                "give either tokenBudget or the percentages (retrievalPercent, coveragePercent, enrichmentPercent), not both",
            ));
        }
        o = o.with_percents(r, c, e).map_err(|e| query_error(&e))?;
    }
    if let Some(t) = bag.whole("confidenceThreshold", 0.0, 100.0)? {
        o = o
            .with_confidence_threshold(t as u32)
            .map_err(|e| query_error(&e))?;
    }
    if let Some(m) = bag.whole("maxSources", 1.0, 1.0e6)? {
        o = o
            .with_max_sources(m as usize)
            .map_err(|e| query_error(&e))?;
    }
    if let Some(t) = bag.whole("historyTokens", 0.0, 1.0e9)? {
        o = o.with_history_tokens(t as usize);
    }
    if let Some(t) = bag.whole("contextWindow", 1.0, 1.0e9)? {
        o = o.with_context_window(t as usize);
    }
    let pointed_rag = matches!(o.mode, Mode::Rag(_));
    Ok((o, pointed_rag))
}

/// Sends `messages` to the chat model; progress stage `stage`.
async fn chat(
    p: &JsProvider,
    messages: &[Message],
    model: ChatModel,
    ctl: &CallControl,
    on_token: Option<&Function>,
) -> Result<String, JsValue> {
    let relay = |delta: &str| {
        if let Some(cb) = on_token {
            let _ = cb.call1(&JsValue::NULL, &JsValue::from_str(delta));
        }
    };
    p.chat(messages, model, ctl, &relay)
        .await
        .map_err(|e| provider_error_to_js(&e))
}

pub(crate) async fn ask(
    inner: Rc<Inner>,
    question: JsValue,
    opts: JsValue,
) -> Result<JsValue, JsValue> {
    let bag = Bag::new("ask", &opts, KEYS)?;
    let Some(question) = question.as_string() else {
        return Err(js_error(
            "invalid-input",
            "ask() takes the question as a string",
        ));
    };
    let signal = bag.signal("signal")?;
    let on_progress = bag.function("onProgress")?;
    let on_token = bag.function("onToken")?;
    let routing_on = bag.bool("routing")?.unwrap_or(true);
    let (mut qopts, rag) = options(&bag)?;
    let history = history(&bag.raw("history"))?;
    let provider = inner.provider();
    let generate =
        bag.bool("generate")?.unwrap_or(true) && provider.as_ref().is_some_and(|p| p.has_chat());
    let ctl = CallControl {
        signal: signal.clone(),
        on_progress: None,
    };
    let mut calls: Vec<(&str, &str)> = Vec::new();
    check_abort(signal.as_ref())?;

    // 1. The question's embedding, when the collection has vectors of this model.
    if let Some(p) = &provider
        && let Some(model) = p.embedding_model_id()
        && inner
            .state
            .borrow()
            .core
            .embeddings()
            .is_some_and(|e| e.model_id() == model)
    {
        progress(on_progress.as_ref(), "embed-question", 0.0, 1.0, &[]);
        let mut v = p
            .embed(&[question.clone()], &ctl)
            .await
            .map_err(|e| provider_error_to_js(&e))?;
        qopts = qopts.with_query_embedding(model, v.pop().unwrap_or_default());
        calls.push(("embedding", "embedding"));
    }

    // 2. Routing and classification calls, only where the pipeline reads them.
    let (routing_req, classify_req) = {
        let state = inner.state.borrow();
        let c = &state.core;
        let explicit = matches!(qopts.mode, Mode::Rag(Some(_)));
        let needs = rag
            && c.documents().len() > 1
            && (explicit || c.total_tokens() >= qopts.small_collection_tokens);
        if needs && routing_on && provider.as_ref().is_some_and(|p| p.has_chat()) {
            let (index, _) = c.index_document(None);
            (
                Some(routing_request(&index, &question)),
                Some(classify_request(&question)),
            )
        } else {
            (None, None)
        }
    };
    let mut routing_reply = None;
    let mut classify_reply = None;
    if let (Some(p), Some(req)) = (&provider, &routing_req) {
        progress(on_progress.as_ref(), "route", 0.0, 1.0, &[]);
        routing_reply = Some(chat(p, &req.messages, ChatModel::Small, &ctl, None).await?);
        calls.push(("routing", if p.has_small_chat() { "small" } else { "main" }));
    }
    if let (Some(p), Some(req)) = (&provider, &classify_req) {
        progress(on_progress.as_ref(), "classify", 0.0, 1.0, &[]);
        classify_reply = Some(chat(p, &req.messages, ChatModel::Small, &ctl, None).await?);
        calls.push((
            "classification",
            if p.has_small_chat() { "small" } else { "main" },
        ));
    }
    check_abort(signal.as_ref())?;

    // 3. The pipeline.
    progress(on_progress.as_ref(), "retrieve", 0.0, 1.0, &[]);
    let result = {
        let state = inner.state.borrow();
        let replies = Replies {
            routing: routing_reply.as_deref(),
            classification: classify_reply.as_deref(),
        };
        query::ask(&state.core, &question, &history, &replies, &qopts)
            .map_err(|e| query_error(&e))?
    };
    progress(on_progress.as_ref(), "retrieve", 1.0, 1.0, &[]);

    // 4. The answer.
    let (answer, by, report) = match (&provider, generate) {
        (Some(p), true) => {
            progress(on_progress.as_ref(), "generate", 0.0, 1.0, &[]);
            let text = chat(
                p,
                &result.payload.messages,
                ChatModel::Main,
                &ctl,
                on_token.as_ref(),
            )
            .await?;
            calls.push(("answer", "main"));
            progress(on_progress.as_ref(), "generate", 1.0, 1.0, &[]);
            let report = citations::build(&text, &result.sources);
            (text, "model", report)
        }
        _ => (
            result.answer.text.clone(),
            "extractive",
            result.citations.clone(),
        ),
    };
    // A model writes Markdown: its text is both forms. The extractive answer has a
    // plain and a Markdown form with the same markers.
    let markdown = if by == "model" {
        answer.clone()
    } else {
        result.answer.markdown.clone()
    };
    let markdown_report = citations::build(&markdown, &result.sources);
    let out = to_js(&result)?;
    let a = Object::new();
    let _ = Reflect::set(&a, &"text".into(), &answer.into());
    let _ = Reflect::set(&a, &"markdown".into(), &markdown.into());
    let _ = Reflect::set(&a, &"by".into(), &by.into());
    let _ = Reflect::set(&out, &"answer".into(), &a);
    let _ = Reflect::set(&out, &"citations".into(), &to_js(&report)?);
    let _ = Reflect::set(&out, &"markdownCitations".into(), &to_js(&markdown_report)?);
    let _ = Reflect::set(&out, &"extractive".into(), &to_js(&result.answer)?);
    let _ = Reflect::set(
        &out,
        &"cachedPrefix".into(),
        &result.payload.cached_prefix().into(),
    );
    let model_calls: Array = calls
        .iter()
        .map(|(purpose, model)| {
            let o = Object::new();
            let _ = Reflect::set(&o, &"purpose".into(), &(*purpose).into());
            let _ = Reflect::set(&o, &"model".into(), &(*model).into());
            JsValue::from(o)
        })
        .collect();
    let _ = Reflect::set(&out, &"modelCalls".into(), &model_calls.into());
    progress(on_progress.as_ref(), "done", 1.0, 1.0, &[]);
    Ok(out)
}
