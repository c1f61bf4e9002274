//! The provider layer's error type, with stable kebab-case codes.

/// What went wrong talking to an embedding or chat provider.
///
/// [`ProviderError::code`] is stable and meant for programs; the message is for
/// people. Errors that carry an HTTP status or a Retry-After delay expose them as
/// fields so the JS binding can copy them onto the thrown `DocragError`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// A provider setting is missing or malformed (`field` names it).
    #[error("invalid provider config: {field}: {detail}")]
    InvalidConfig {
        /// The setting, as the caller spelled it (`baseUrl`, `batchSize`, ...).
        field: String,
        /// What was wrong.
        detail: String,
    },
    /// The provider answered with a non-success HTTP status that is not retried, or
    /// retries ran out on a 5xx.
    #[error("the provider replied with HTTP {status}: {message}")]
    HttpStatus {
        /// The HTTP status code.
        status: u16,
        /// The provider's error message, or an excerpt of the body (at most 300
        /// characters).
        message: String,
        /// The Retry-After delay the reply asked for, in milliseconds.
        retry_after_ms: Option<u32>,
    },
    /// The request never got an HTTP reply (connection refused or dropped, DNS,
    /// CORS).
    #[error("network error: {0}")]
    Network(String),
    /// No complete reply within the per-request timeout.
    #[error("the provider did not reply within {timeout_ms} ms")]
    Timeout {
        /// The per-request timeout, in milliseconds.
        timeout_ms: u32,
    },
    /// The caller's `AbortSignal` fired.
    #[error("the call was aborted")]
    Aborted,
    /// The reply could not be understood (bad JSON, missing fields, a bad stream
    /// event).
    #[error("malformed reply from the provider: {0}")]
    MalformedReply(String),
    /// The provider reported an error inside an otherwise successful reply (for
    /// example an `error` event in a stream).
    #[error("the provider reported an error: {0}")]
    Reported(String),
    /// A caller-supplied `embed`/`chat` function threw or rejected.
    #[error("the provider function failed: {0}")]
    Callback(String),
    /// The number of vectors differs from the number of texts sent.
    #[error("expected {expected} embeddings, got {got}")]
    EmbeddingCount {
        /// Texts sent.
        expected: usize,
        /// Vectors received.
        got: usize,
    },
    /// A vector has no components.
    #[error("embedding {index} is empty")]
    EmbeddingEmpty {
        /// The index of the text in the request.
        index: usize,
    },
    /// A vector component is NaN or infinite.
    #[error("embedding {index} has a non-finite value at position {position}")]
    EmbeddingNonFinite {
        /// The index of the text in the request.
        index: usize,
        /// The component's position in the vector.
        position: usize,
    },
    /// A vector's length differs from the configured or first-seen dimension.
    #[error("embedding {index} has {got} dimensions, expected {expected}")]
    EmbeddingDimension {
        /// The index of the text in the call.
        index: usize,
        /// The expected number of dimensions.
        expected: usize,
        /// The number received.
        got: usize,
    },
    /// Retries ran out while the provider kept answering 429.
    #[error("rate limited by the provider after {attempts} attempts: {message}")]
    RateLimited {
        /// Requests sent, the first one included.
        attempts: u32,
        /// The provider's last error message.
        message: String,
        /// The last Retry-After delay, in milliseconds.
        retry_after_ms: Option<u32>,
    },
    /// Embeddings were asked of a provider without an embedding model or function.
    #[error("the provider has no embedding model (set embeddingModel or an embed function)")]
    NoEmbeddingModel,
    /// A chat reply was asked of a provider without a chat model or function.
    #[error("the provider has no chat model (set chatModel or a chat function)")]
    NoChatModel,
}

impl ProviderError {
    /// The stable kebab-case code.
    pub fn code(&self) -> &'static str {
        match self {
            ProviderError::InvalidConfig { .. } => "invalid-provider-config",
            ProviderError::HttpStatus { .. } => "http-status",
            ProviderError::Network(_) => "network",
            ProviderError::Timeout { .. } => "timeout",
            ProviderError::Aborted => "aborted",
            ProviderError::MalformedReply(_) => "malformed-reply",
            ProviderError::Reported(_) => "provider-reported",
            ProviderError::Callback(_) => "provider-function",
            ProviderError::EmbeddingCount { .. } => "embedding-count",
            ProviderError::EmbeddingEmpty { .. } => "embedding-empty",
            ProviderError::EmbeddingNonFinite { .. } => "embedding-non-finite",
            ProviderError::EmbeddingDimension { .. } => "embedding-dimension",
            ProviderError::RateLimited { .. } => "rate-limited",
            ProviderError::NoEmbeddingModel => "no-embedding-model",
            ProviderError::NoChatModel => "no-chat-model",
        }
    }

    pub(crate) fn config(field: &str, detail: impl Into<String>) -> Self {
        ProviderError::InvalidConfig {
            field: field.to_string(),
            detail: detail.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_kebab_case() {
        let all = [
            ProviderError::config("baseUrl", "x"),
            ProviderError::HttpStatus {
                status: 400,
                message: "bad".into(),
                retry_after_ms: None,
            },
            ProviderError::Network("refused".into()),
            ProviderError::Timeout { timeout_ms: 5 },
            ProviderError::Aborted,
            ProviderError::MalformedReply("x".into()),
            ProviderError::Reported("x".into()),
            ProviderError::Callback("x".into()),
            ProviderError::EmbeddingCount {
                expected: 2,
                got: 1,
            },
            ProviderError::EmbeddingEmpty { index: 0 },
            ProviderError::EmbeddingNonFinite {
                index: 0,
                position: 1,
            },
            ProviderError::EmbeddingDimension {
                index: 0,
                expected: 8,
                got: 4,
            },
            ProviderError::RateLimited {
                attempts: 5,
                message: "slow down".into(),
                retry_after_ms: Some(1000),
            },
            ProviderError::NoEmbeddingModel,
            ProviderError::NoChatModel,
        ];
        let mut codes: Vec<&str> = all.iter().map(ProviderError::code).collect();
        assert!(
            codes
                .iter()
                .all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'))
        );
        crate::order::sort(&mut codes);
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert_eq!(
            all[11].to_string(),
            "embedding 0 has 4 dimensions, expected 8"
        );
    }
}
