//! Model providers over `fetch` (OpenAI-compatible, Ollama) or caller JS functions:
//! the I/O half of [`crate::provider`].
//!
//! - `options.rs`: the JS options bag -> [`JsProvider`], strict;
//! - `fetch.rs`: `fetch` with timeout and `AbortSignal`, abortable sleep, readers;
//! - `http.rs`: one batch / one chat call with retries and streaming;
//! - `function.rs`: `embed`/`chat` JS functions, results validated;
//! - `errors.rs`: [`ProviderError`] -> `DocragError`;
//! - `class.rs`: the public `Provider` class.

mod class;
mod errors;
mod fetch;
mod function;
mod http;
mod options;

use js_sys::Function;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

pub(crate) use errors::provider_error_to_js;

use crate::provider::{ChatModel, ProviderError, plan_batches};
use crate::query::Message;
use http::HttpBackend;

/// How one call is controlled by its caller.
#[derive(Default, Clone)]
pub(crate) struct CallControl {
    /// Aborts the call (and its retries) with `aborted`.
    pub signal: Option<AbortSignal>,
    /// Called `(done, total)` in texts after each embeddings batch.
    pub on_progress: Option<Function>,
}

/// Where each capability goes: a caller function wins over HTTP.
struct Backend {
    http: Option<HttpBackend>,
    embed_fn: Option<Function>,
    chat_fn: Option<Function>,
}

/// A configured provider (HTTP or functions). The API key lives only here, in memory.
pub(crate) struct JsProvider {
    backend: Backend,
    embedding_model_id: Option<String>,
    dimensions: Option<usize>,
    batch_size: usize,
    max_batch_tokens: usize,
    has_chat: bool,
    has_small_chat: bool,
}

/// Shifts a per-batch vector index to the index in the whole call.
fn offset(e: ProviderError, start: usize) -> ProviderError {
    match e {
        ProviderError::EmbeddingDimension {
            index,
            expected,
            got,
        } => ProviderError::EmbeddingDimension {
            index: index + start,
            expected,
            got,
        },
        ProviderError::EmbeddingEmpty { index } => ProviderError::EmbeddingEmpty {
            index: index + start,
        },
        ProviderError::EmbeddingNonFinite { index, position } => {
            ProviderError::EmbeddingNonFinite {
                index: index + start,
                position,
            }
        }
        other => other,
    }
}

impl JsProvider {
    /// `value`: the JS options bag; `undefined`/`null` -> Ok(None).
    pub(crate) fn from_js(value: &JsValue) -> Result<Option<JsProvider>, JsValue> {
        options::parse(value)
    }

    /// The key stored vectors are filed under (`openai:text-embedding-3-small`,
    /// `ollama:nomic-embed-text:d768`, `function:<embeddingModel or custom>`);
    /// `None` when the provider cannot embed.
    pub(crate) fn embedding_model_id(&self) -> Option<String> {
        self.embedding_model_id.clone()
    }

    /// Whether [`JsProvider::chat`] can answer.
    pub(crate) fn has_chat(&self) -> bool {
        self.has_chat
    }

    /// Whether a distinct small model is set.
    pub(crate) fn has_small_chat(&self) -> bool {
        self.has_small_chat
    }

    /// One vector per text, in order; batching, retries, progress (texts done, total).
    pub(crate) async fn embed(
        &self,
        texts: &[String],
        ctl: &CallControl,
    ) -> Result<Vec<Vec<f32>>, ProviderError> {
        if self.embedding_model_id.is_none() {
            return Err(ProviderError::NoEmbeddingModel);
        }
        let signal = ctl.signal.as_ref();
        if fetch::is_aborted(signal) {
            return Err(ProviderError::Aborted);
        }
        let counts: Vec<usize> = texts.iter().map(|t| crate::tokens::count(t)).collect();
        let mut dim = self.dimensions;
        let mut out = Vec::with_capacity(texts.len());
        for range in plan_batches(&counts, self.batch_size, self.max_batch_tokens) {
            let batch: Vec<&str> = texts[range.clone()].iter().map(String::as_str).collect();
            let vectors = match (&self.backend.embed_fn, &self.backend.http) {
                (Some(f), _) => function::embed(f, &batch, dim, signal).await,
                (None, Some(h)) => h.embed(&batch, dim, signal).await,
                (None, None) => Err(ProviderError::NoEmbeddingModel),
            }
            .map_err(|e| offset(e, range.start))?;
            dim = dim.or_else(|| vectors.first().map(Vec::len));
            out.extend(vectors);
            if let Some(p) = &ctl.on_progress {
                // A throwing progress callback must not fail the embedding.
                let _ = p.call2(
                    &JsValue::UNDEFINED,
                    &(out.len() as f64).into(),
                    &(texts.len() as f64).into(),
                );
            }
        }
        Ok(out)
    }

    /// The full reply; `on_delta` gets each streamed piece.
    pub(crate) async fn chat(
        &self,
        messages: &[Message],
        model: ChatModel,
        ctl: &CallControl,
        on_delta: &dyn Fn(&str),
    ) -> Result<String, ProviderError> {
        let signal = ctl.signal.as_ref();
        match (&self.backend.chat_fn, &self.backend.http) {
            (Some(f), _) => function::chat(f, messages, model, signal, on_delta).await,
            (None, Some(h)) if self.has_chat => h.chat(messages, model, signal, on_delta).await,
            _ => Err(ProviderError::NoChatModel),
        }
    }
}
