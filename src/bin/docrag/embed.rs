//! Embeddings from the shell: the library's sans-IO provider code (requests, reply
//! parsing, batching, retry decisions) driven by a blocking HTTP client, with the
//! content-hash cache so that a chunk embedded once is never sent again.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use docrag::provider::{
    ProviderConfig, ProviderError, ProviderKind, Retry, RetryPolicy, classify, embeddings_request,
    parse_embeddings, plan_batches, text_hash,
};

use super::{Fail, number, value};

/// Exit code when the provider fails (as `docrag summarize`).
pub(crate) const EXIT_PROVIDER: u8 = 69;

/// What `docrag help` says about the embedding flags.
pub(crate) const FLAGS: &str = "\
          --embed-url URL       OpenAI-compatible base URL (or Ollama's with --embed-api ollama)
          --embed-model NAME    the embedding model; embeddings are only made with it
          --embed-api openai|ollama  (default openai)
          --embed-key-env VAR   the API key is read from this environment variable
          --dimensions N        requested vector length (OpenAI `dimensions`)
          --batch N             texts per request (default 64, Ollama 32)";

/// The embedding flags of a command, collected before validation.
#[derive(Default)]
pub(crate) struct EmbedFlags {
    url: Option<String>,
    model: Option<String>,
    api: Option<String>,
    key_env: Option<String>,
    dimensions: Option<usize>,
    batch: Option<usize>,
}

impl EmbedFlags {
    /// Takes `arg` (and its value) when it is an embedding flag; `Ok(false)` otherwise.
    pub(crate) fn take<'a>(
        &mut self,
        arg: &str,
        it: &mut impl Iterator<Item = &'a String>,
    ) -> Result<bool, Fail> {
        match arg {
            "--embed-url" => self.url = Some(value(it, arg)?.to_string()),
            "--embed-model" => self.model = Some(value(it, arg)?.to_string()),
            "--embed-api" => self.api = Some(value(it, arg)?.to_string()),
            "--embed-key-env" => self.key_env = Some(value(it, arg)?.to_string()),
            "--dimensions" => self.dimensions = Some(number(value(it, arg)?, arg)?),
            "--batch" => self.batch = Some(number(value(it, arg)?, arg)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The provider to embed with, `None` when no flag asks for embeddings.
    ///
    /// # Errors
    /// A usage error for a URL without a model (or the reverse), an unknown API, an
    /// unset key variable or a configuration the provider code refuses.
    pub(crate) fn embedder(&self) -> Result<Option<Embedder>, Fail> {
        let (url, model) = match (&self.url, &self.model) {
            (None, None) => return Ok(None),
            (Some(_), Some(m)) if m.trim().is_empty() => {
                return Err(Fail::usage("--embed-model is empty"));
            }
            (Some(u), Some(m)) => (u, m),
            _ => {
                return Err(Fail::usage("--embed-url and --embed-model go together"));
            }
        };
        let kind = match self.api.as_deref().unwrap_or("openai") {
            "openai" => ProviderKind::OpenAi,
            "ollama" => ProviderKind::Ollama,
            other => {
                return Err(Fail::usage(format!(
                    "--embed-api expects openai or ollama, got '{other}'"
                )));
            }
        };
        let mut cfg = ProviderConfig::new(kind);
        cfg.base_url = url.clone();
        cfg.embedding_model = Some(model.clone());
        cfg.dimensions = self.dimensions;
        if let Some(b) = self.batch {
            cfg.batch_size = b;
        }
        if let Some(var) = &self.key_env {
            let key = std::env::var(var).map_err(|_| {
                Fail::usage(format!("--embed-key-env {var}: the variable is not set"))
            })?;
            cfg.api_key = Some(key);
        }
        let cfg = cfg
            .validated()
            .map_err(|e| Fail::usage(format!("embedding provider: {e}")))?;
        Ok(Some(Embedder::new(cfg)))
    }
}

/// Embeds texts with one provider, batched and retried.
pub(crate) struct Embedder {
    cfg: ProviderConfig,
    agent: ureq::Agent,
    policy: RetryPolicy,
    /// The key vectors are filed under (`openai:text-embedding-3-small`).
    pub model_id: String,
}

impl Embedder {
    fn new(cfg: ProviderConfig) -> Self {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_millis(u64::from(cfg.timeout_ms))))
            .http_status_as_error(false)
            .build()
            .into();
        let policy = RetryPolicy {
            max_retries: cfg.max_retries,
            ..RetryPolicy::default()
        };
        let model_id = cfg.model_id().unwrap_or_default();
        Embedder {
            cfg,
            agent,
            policy,
            model_id,
        }
    }

    /// One request, retried on 429, 5xx and network errors with backoff (the library's
    /// policy, Retry-After honoured).
    fn request(&self, texts: &[&str], dim: Option<usize>) -> Result<Vec<Vec<f32>>, ProviderError> {
        let req = embeddings_request(&self.cfg, texts)?;
        let mut attempt = 0;
        loop {
            let (status, body, retry_after) = match self.send(&req) {
                Ok(reply) => reply,
                Err(e) => (None, e, None),
            };
            let failed = match status {
                Some(s) => match parse_embeddings(self.cfg.kind, s, &body, texts.len(), dim) {
                    Ok(v) => return Ok(v),
                    Err(e) => e,
                },
                None => ProviderError::Network(format!("{}: {body}", req.url)),
            };
            if classify(status) == Retry::Fatal {
                return Err(failed);
            }
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
            let Some(wait) = self
                .policy
                .delay_ms(attempt, retry_after.as_deref(), now, jitter())
            else {
                return Err(failed);
            };
            std::thread::sleep(Duration::from_millis(u64::from(wait)));
            attempt += 1;
        }
    }

    /// `(status, body, Retry-After)` of one POST, or the network error's text.
    fn send(
        &self,
        req: &docrag::provider::HttpRequest,
    ) -> Result<(Option<u16>, String, Option<String>), String> {
        let mut r = self.agent.post(&req.url);
        for (name, v) in &req.headers {
            r = r.header(name.as_str(), v.as_str());
        }
        let resp = r.send(req.body.as_str()).map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = resp
            .into_body()
            .read_to_string()
            .map_err(|e| e.to_string())?;
        Ok((Some(status), body, retry_after))
    }

    /// Vectors for `texts` (`tokens[i]` = o200k tokens of `texts[i]`, for batching),
    /// taking each from `cache` (content hash -> vector) when it is there and adding
    /// what it makes. Progress goes to stderr when it is a terminal.
    ///
    /// # Errors
    /// The provider's error after its retries, as a `Fail` with exit code 69.
    pub(crate) fn embed_all(
        &self,
        texts: &[&str],
        tokens: &[usize],
        cache: &mut HashMap<String, Vec<f32>>,
    ) -> Result<Vec<Vec<f32>>, Fail> {
        // A cached vector of another length (an earlier `--dimensions`, a provider that
        // answered inconsistently) is made again.
        if let Some(d) = self.cfg.dimensions {
            cache.retain(|_, v| v.len() == d);
        }
        let hashes: Vec<String> = texts.iter().map(|t| text_hash(&self.model_id, t)).collect();
        let missing: Vec<usize> = (0..texts.len())
            .filter(|&i| !cache.contains_key(&hashes[i]))
            .collect();
        let counts: Vec<usize> = missing.iter().map(|&i| tokens[i]).collect();
        let batches = plan_batches(&counts, self.cfg.batch_size, self.cfg.max_batch_tokens);
        let progress = Progress::new(missing.len(), texts.len() - missing.len());
        let mut done = 0;
        // Every reply must have the length of the first.
        let mut dim = self.cfg.dimensions;
        for b in batches {
            let idx = &missing[b];
            let batch: Vec<&str> = idx.iter().map(|&i| texts[i]).collect();
            let vectors = self.request(&batch, dim).map_err(|e| Fail {
                message: format!(
                    "docrag: error [{}]: embedding with {} failed: {e}",
                    e.code(),
                    self.model_id
                ),
                exit: EXIT_PROVIDER,
            })?;
            dim = dim.or(vectors.first().map(Vec::len));
            for (&i, v) in idx.iter().zip(vectors) {
                cache.insert(hashes[i].clone(), v);
            }
            done += idx.len();
            progress.show(done);
        }
        progress.finish();
        let vectors: Vec<Vec<f32>> = hashes
            .iter()
            .map(|h| cache.get(h).cloned().unwrap_or_default())
            .collect();
        let first = vectors.first().map_or(0, Vec::len);
        if let Some(v) = vectors.iter().find(|v| v.len() != first) {
            return Err(Fail {
                message: format!(
                    "docrag: error [embedding-dimension]: vectors of {first} and {} dimensions from {}: the provider answered inconsistently, or the earlier export holds vectors of another setting (delete it and export again)",
                    v.len(),
                    self.model_id
                ),
                exit: EXIT_PROVIDER,
            });
        }
        Ok(vectors)
    }
}

/// A pseudo-random number in [0, 1) for backoff jitter (the clock's nanoseconds: the
/// spread matters, not the quality).
fn jitter() -> f64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    f64::from(nanos % 1000) / 1000.0
}

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
pub(crate) struct Progress {
    total: usize,
    cached: usize,
    tty: bool,
    what: &'static str,
    unit: &'static str,
}

impl Progress {
    /// A bar for embedding `total` chunks (`cached` more come from the cache).
    pub(crate) fn new(total: usize, cached: usize) -> Self {
        Progress {
            total,
            cached,
            tty: io::stderr().is_terminal(),
            what: "embedding",
            unit: "chunks",
        }
    }

    /// The same bar with other words (`loading`, `documents`).
    pub(crate) fn labelled(self, what: &'static str, unit: &'static str) -> Self {
        Progress { what, unit, ..self }
    }

    pub(crate) fn show(&self, done: usize) {
        if !self.tty || self.total == 0 {
            return;
        }
        let width = 30;
        let filled = done * width / self.total;
        let cached = if self.cached > 0 {
            format!(" ({} cached)", self.cached)
        } else {
            String::new()
        };
        let _ = write!(
            io::stderr(),
            "\r{} [{}{}] {done}/{} {}{cached}",
            self.what,
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.total,
            self.unit,
        );
    }

    pub(crate) fn finish(&self) {
        if self.tty && self.total > 0 {
            let _ = writeln!(io::stderr());
        }
    }
}
