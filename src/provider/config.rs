//! Provider settings: which API, where, which models, and the request limits.

use super::error::ProviderError;

/// The HTTP API a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    /// OpenAI and compatible servers (`/v1/embeddings`, `/v1/chat/completions`, SSE).
    OpenAi,
    /// Ollama (`/api/embed`, `/api/chat`, NDJSON streaming).
    Ollama,
}

impl ProviderKind {
    /// The short name used in model ids and options: `openai` or `ollama`.
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Ollama => "ollama",
        }
    }

    /// The base URL used when none is given.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com",
            ProviderKind::Ollama => "http://127.0.0.1:11434",
        }
    }

    /// Inputs per embeddings request when none is given: 64 (OpenAI) or 32 (Ollama,
    /// which embeds on the local machine and answers slower per request).
    pub fn default_batch_size(self) -> usize {
        match self {
            ProviderKind::OpenAi => 64,
            ProviderKind::Ollama => 32,
        }
    }
}

/// Which chat model a call is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatModel {
    /// The main model, for answers.
    Main,
    /// The low-cost model for routing and classification; falls back to the main one.
    Small,
}

/// Default tokens (o200k_base) per embeddings request.
pub const DEFAULT_MAX_BATCH_TOKENS: usize = 8_000;
/// Default per-request timeout, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;
/// Default retries after the first attempt.
pub const DEFAULT_MAX_RETRIES: u32 = 4;

/// The settings of one HTTP provider. Build with [`ProviderConfig::new`], set fields,
/// then call [`ProviderConfig::validated`] before use.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderConfig {
    /// The API.
    pub kind: ProviderKind,
    /// `http(s)://host[:port][/path]`, without a trailing slash; for OpenAI without
    /// the `/v1` suffix (it is added per endpoint).
    pub base_url: String,
    /// Sent as `Authorization: Bearer <key>` when set. Held in memory only.
    pub api_key: Option<String>,
    /// The embedding model (`text-embedding-3-small`, `nomic-embed-text`).
    pub embedding_model: Option<String>,
    /// The main chat model.
    pub chat_model: Option<String>,
    /// The low-cost chat model for routing and classification.
    pub small_model: Option<String>,
    /// Requested vector length (OpenAI's `dimensions` field); also checked on replies.
    pub dimensions: Option<usize>,
    /// Most texts per embeddings request.
    pub batch_size: usize,
    /// Most o200k_base tokens per embeddings request.
    pub max_batch_tokens: usize,
    /// Per-request timeout, in milliseconds (covers reading the whole reply).
    pub timeout_ms: u32,
    /// Retries after the first attempt on 429, 5xx, network errors and timeouts.
    pub max_retries: u32,
}

impl ProviderConfig {
    /// Defaults for `kind`: its default base URL, no key or models, batch size 64
    /// (OpenAI) / 32 (Ollama), 8,000 tokens per batch, 60,000 ms timeout, 4 retries.
    pub fn new(kind: ProviderKind) -> Self {
        ProviderConfig {
            kind,
            base_url: kind.default_base_url().to_string(),
            api_key: None,
            embedding_model: None,
            chat_model: None,
            small_model: None,
            dimensions: None,
            batch_size: kind.default_batch_size(),
            max_batch_tokens: DEFAULT_MAX_BATCH_TOKENS,
            timeout_ms: DEFAULT_TIMEOUT_MS,
            max_retries: DEFAULT_MAX_RETRIES,
        }
    }

    /// Checks every field and normalizes the base URL (trailing slashes removed, an
    /// OpenAI `/v1` suffix removed). Empty model names and keys count as unset.
    ///
    /// # Errors
    /// [`ProviderError::InvalidConfig`] naming the field (`baseUrl`, `batchSize`,
    /// `maxBatchTokens`, `timeoutMs`, `dimensions`).
    pub fn validated(mut self) -> Result<Self, ProviderError> {
        self.base_url = normalize_base_url(self.kind, &self.base_url)?;
        for value in [
            &mut self.api_key,
            &mut self.embedding_model,
            &mut self.chat_model,
            &mut self.small_model,
        ] {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                *value = None;
            }
        }
        if self.batch_size == 0 {
            return Err(ProviderError::config("batchSize", "must be at least 1"));
        }
        if self.max_batch_tokens == 0 {
            return Err(ProviderError::config(
                "maxBatchTokens",
                "must be at least 1",
            ));
        }
        if self.timeout_ms == 0 {
            return Err(ProviderError::config("timeoutMs", "must be at least 1 ms"));
        }
        if self.dimensions == Some(0) {
            return Err(ProviderError::config("dimensions", "must be at least 1"));
        }
        Ok(self)
    }

    /// The key stored vectors are filed under: `<kind>:<embedding model>`, plus
    /// `:d<N>` when `dimensions` is set (`openai:text-embedding-3-small:d256`).
    /// `None` without an embedding model.
    pub fn model_id(&self) -> Option<String> {
        self.embedding_model
            .as_deref()
            .map(|m| model_id(self.kind.name(), m, self.dimensions))
    }

    /// The model name for a chat call: the small model falls back to the main one.
    pub fn chat_model_for(&self, which: ChatModel) -> Option<&str> {
        match which {
            ChatModel::Small => self.small_model.as_deref().or(self.chat_model.as_deref()),
            ChatModel::Main => self.chat_model.as_deref(),
        }
    }
}

/// `<prefix>:<model>[:d<N>]`, the embedding model id shared by HTTP and function
/// providers.
pub fn model_id(prefix: &str, model: &str, dimensions: Option<usize>) -> String {
    match dimensions {
        Some(d) => format!("{prefix}:{model}:d{d}"),
        None => format!("{prefix}:{model}"),
    }
}

fn normalize_base_url(kind: ProviderKind, url: &str) -> Result<String, ProviderError> {
    let url = url.trim();
    let rest = if let Some(r) = url.strip_prefix("https://") {
        r
    } else if let Some(r) = url.strip_prefix("http://") {
        r
    } else {
        return Err(ProviderError::config(
            "baseUrl",
            format!("{url:?} must start with http:// or https://"),
        ));
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || host.starts_with(':') {
        return Err(ProviderError::config(
            "baseUrl",
            format!("{url:?} has no host"),
        ));
    }
    if rest.contains(['?', '#']) || url.chars().any(char::is_whitespace) {
        return Err(ProviderError::config(
            "baseUrl",
            format!("{url:?} must not contain a query, a fragment or spaces"),
        ));
    }
    let mut out = url.trim_end_matches('/');
    // Users paste both `https://api.openai.com` and `https://api.openai.com/v1`.
    if kind == ProviderKind::OpenAi {
        out = out.strip_suffix("/v1").unwrap_or(out).trim_end_matches('/');
    }
    Ok(out.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_url(kind: ProviderKind, url: &str) -> Result<ProviderConfig, ProviderError> {
        let mut c = ProviderConfig::new(kind);
        c.base_url = url.into();
        c.validated()
    }

    #[test]
    fn base_url_is_normalized() {
        let c = with_url(ProviderKind::OpenAi, "https://api.openai.com/v1/").unwrap();
        assert_eq!(c.base_url, "https://api.openai.com");
        let c = with_url(ProviderKind::OpenAi, "http://127.0.0.1:8080/proxy/v1").unwrap();
        assert_eq!(c.base_url, "http://127.0.0.1:8080/proxy");
        // Ollama has no /v1 prefix of its own; a /v1 path is the user's.
        let c = with_url(ProviderKind::Ollama, "http://127.0.0.1:11434/").unwrap();
        assert_eq!(c.base_url, "http://127.0.0.1:11434");
        assert_eq!(
            ProviderConfig::new(ProviderKind::Ollama)
                .validated()
                .unwrap()
                .base_url,
            "http://127.0.0.1:11434"
        );
    }

    #[test]
    fn bad_base_urls_are_typed_errors() {
        for url in [
            "ftp://x",
            "127.0.0.1:11434",
            "https://",
            "http://:80",
            "http://h/?a=1",
        ] {
            let e = with_url(ProviderKind::OpenAi, url).unwrap_err();
            assert_eq!(e.code(), "invalid-provider-config", "{url}");
            assert!(matches!(&e, ProviderError::InvalidConfig { field, .. } if field == "baseUrl"));
        }
    }

    #[test]
    fn limits_are_checked() {
        let mut c = ProviderConfig::new(ProviderKind::OpenAi);
        c.batch_size = 0;
        let e = c.validated().unwrap_err();
        assert!(matches!(&e, ProviderError::InvalidConfig { field, .. } if field == "batchSize"));
        let mut c = ProviderConfig::new(ProviderKind::OpenAi);
        c.dimensions = Some(0);
        assert!(c.validated().is_err());
    }

    #[test]
    fn model_id_and_chat_fallback() {
        let mut c = ProviderConfig::new(ProviderKind::OpenAi);
        assert_eq!(c.model_id(), None);
        c.embedding_model = Some("text-embedding-3-small".into());
        assert_eq!(
            c.model_id().as_deref(),
            Some("openai:text-embedding-3-small")
        );
        c.dimensions = Some(256);
        assert_eq!(
            c.model_id().as_deref(),
            Some("openai:text-embedding-3-small:d256")
        );
        c.chat_model = Some("gpt-4o".into());
        assert_eq!(c.chat_model_for(ChatModel::Small), Some("gpt-4o"));
        c.small_model = Some("gpt-4o-mini".into());
        assert_eq!(c.chat_model_for(ChatModel::Small), Some("gpt-4o-mini"));
        assert_eq!(c.chat_model_for(ChatModel::Main), Some("gpt-4o"));
        let mut o = ProviderConfig::new(ProviderKind::Ollama);
        o.embedding_model = Some("nomic-embed-text".into());
        o.api_key = Some("  ".into());
        let o = o.validated().unwrap();
        assert_eq!(o.model_id().as_deref(), Some("ollama:nomic-embed-text"));
        assert_eq!(o.api_key, None);
        assert_eq!(o.batch_size, 32);
    }
}
