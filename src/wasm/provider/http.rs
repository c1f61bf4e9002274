//! The OpenAI / Ollama client: one batch or one chat call over `fetch`, with retries.

use std::cell::Cell;
use std::future::Future;

use web_sys::AbortSignal;

use super::fetch::{Attempt, header, sleep};
use crate::provider::retry::retry_after_ms;
use crate::provider::{
    ChatModel, HttpRequest, NdjsonParser, ProviderConfig, ProviderError, ProviderKind, Retry,
    RetryPolicy, SseParser, StreamChunk, chat_request, classify, embeddings_request,
    parse_embeddings,
};
use crate::query::Message;

/// A failed attempt, with what the retry decision needs.
struct Failure {
    error: ProviderError,
    retry_after: Option<String>,
    /// Set once streamed text has reached the caller: a retry would repeat it.
    final_: bool,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        Failure {
            error,
            retry_after: None,
            final_: false,
        }
    }
}

fn retryable(e: &ProviderError) -> bool {
    match e {
        ProviderError::HttpStatus { status, .. } => classify(Some(*status)) == Retry::Retryable,
        ProviderError::Network(_) | ProviderError::Timeout { .. } => {
            classify(None) == Retry::Retryable
        }
        _ => false,
    }
}

/// An HTTP provider: its validated settings and retry policy.
pub(crate) struct HttpBackend {
    pub cfg: ProviderConfig,
    pub policy: RetryPolicy,
}

impl HttpBackend {
    async fn with_retries<T, F, Fut>(
        &self,
        signal: Option<&AbortSignal>,
        mut attempt: F,
    ) -> Result<T, ProviderError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let mut n = 0u32;
        loop {
            let f = match attempt().await {
                Ok(v) => return Ok(v),
                Err(f) => f,
            };
            if f.final_ || !retryable(&f.error) {
                return Err(f.error);
            }
            let wait = self.policy.delay_ms(
                n,
                f.retry_after.as_deref(),
                js_sys::Date::now(),
                js_sys::Math::random(),
            );
            let Some(ms) = wait else {
                return Err(exhausted(f.error, n + 1));
            };
            sleep(ms, signal).await?;
            n += 1;
        }
    }

    /// Sends `req` and returns the status, Retry-After and the response, or a
    /// failure for a non-2xx status (its body read into the message).
    async fn start(&self, req: &HttpRequest, a: &Attempt) -> Result<web_sys::Response, Failure> {
        let resp = a.send(req).await?;
        let status = resp.status();
        if (200..300).contains(&status) {
            return Ok(resp);
        }
        let retry_after = header(&resp, "retry-after");
        let body = a.text(&resp).await.unwrap_or_default();
        let ms = retry_after
            .as_deref()
            .and_then(|v| retry_after_ms(v, js_sys::Date::now()));
        Err(Failure {
            error: crate::provider::parse::status_error(status, &body, ms),
            retry_after,
            final_: false,
        })
    }

    /// One embeddings request (one batch), retried as the policy allows.
    pub(crate) async fn embed(
        &self,
        texts: &[&str],
        dim: Option<usize>,
        signal: Option<&AbortSignal>,
    ) -> Result<Vec<Vec<f32>>, ProviderError> {
        let req = embeddings_request(&self.cfg, texts)?;
        self.with_retries(signal, || async {
            let a = Attempt::start(self.cfg.timeout_ms, signal)?;
            let resp = self.start(&req, &a).await?;
            let body = a.text(&resp).await?;
            Ok(parse_embeddings(
                self.cfg.kind,
                resp.status(),
                &body,
                texts.len(),
                dim,
            )?)
        })
        .await
    }

    /// One streamed chat call: deltas go to `on_delta` as they arrive; the whole
    /// reply is returned. Retried only until the first delta has been delivered.
    pub(crate) async fn chat(
        &self,
        messages: &[Message],
        model: ChatModel,
        signal: Option<&AbortSignal>,
        on_delta: &dyn Fn(&str),
    ) -> Result<String, ProviderError> {
        let req = chat_request(&self.cfg, messages, model, true)?;
        self.with_retries(signal, || async {
            let a = Attempt::start(self.cfg.timeout_ms, signal)?;
            let resp = self.start(&req, &a).await?;
            let mut parser = Parser::new(self.cfg.kind);
            let mut text = String::new();
            let sent = Cell::new(false);
            let mut take = |chunk: StreamChunk| {
                for d in chunk.deltas {
                    sent.set(true);
                    on_delta(&d);
                    text.push_str(&d);
                }
            };
            let mark = |error: ProviderError| Failure {
                error,
                retry_after: None,
                final_: sent.get(),
            };
            a.read_stream(&resp, |bytes| {
                take(parser.feed(bytes)?);
                Ok(())
            })
            .await
            .map_err(mark)?;
            let end = parser.finish().map_err(mark)?;
            let done = end.done;
            take(end);
            if !done {
                return Err(mark(ProviderError::MalformedReply(
                    "the stream ended before its end-of-stream event".into(),
                )));
            }
            Ok(text)
        })
        .await
    }
}

/// Turns the last error into `rate-limited` when retries ran out on 429.
fn exhausted(e: ProviderError, attempts: u32) -> ProviderError {
    match e {
        ProviderError::HttpStatus {
            status: 429,
            message,
            retry_after_ms,
        } => ProviderError::RateLimited {
            attempts,
            message,
            retry_after_ms,
        },
        other => other,
    }
}

enum Parser {
    Sse(SseParser),
    Ndjson(NdjsonParser),
}

impl Parser {
    fn new(kind: ProviderKind) -> Self {
        match kind {
            ProviderKind::OpenAi => Parser::Sse(SseParser::new()),
            ProviderKind::Ollama => Parser::Ndjson(NdjsonParser::new()),
        }
    }

    fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError> {
        match self {
            Parser::Sse(p) => p.feed(bytes),
            Parser::Ndjson(p) => p.feed(bytes),
        }
    }

    fn finish(&mut self) -> Result<StreamChunk, ProviderError> {
        match self {
            Parser::Sse(p) => p.finish(),
            Parser::Ndjson(p) => p.finish(),
        }
    }
}
