//! Embedding and chat providers, sans-IO: request builders, reply and stream
//! parsers, retry and batching decisions. The wasm layer (`src/wasm/provider/`)
//! performs the HTTP with `fetch`; anything else (a CLI, a test) can too.
//!
//! One concept per file:
//! - [`config`]: [`ProviderConfig`] (kind, base URL, key, models, limits), model ids;
//! - [`http`]: [`HttpRequest`] builders for embeddings and chat (OpenAI, Ollama);
//! - [`parse`]: embeddings and chat replies, error bodies, vector validation;
//! - [`stream`]: incremental SSE (OpenAI) and NDJSON (Ollama) chat stream parsers;
//! - [`retry`]: retryable statuses, backoff with full jitter, Retry-After;
//! - [`batch`]: texts -> requests under input-count and token limits;
//! - [`cache`]: the content-hash key of an embedded text;
//! - [`error`]: [`ProviderError`] and its stable codes.

pub mod batch;
pub mod cache;
pub mod config;
pub mod error;
pub mod http;
pub mod parse;
pub mod retry;
pub mod stream;

pub use batch::plan_batches;
pub use cache::text_hash;
pub use config::{ChatModel, ProviderConfig, ProviderKind};
pub use error::ProviderError;
pub use http::{HttpRequest, chat_request, embeddings_request};
pub use parse::{parse_chat, parse_embeddings, validate_embeddings};
pub use retry::{Retry, RetryPolicy, classify};
pub use stream::{NdjsonParser, SseParser, StreamChunk};
