//! The options of one question, validated as they are built.

use super::answer::{DEFAULT_MAX_SENTENCES, DEFAULT_MAX_TOKENS};
use super::assemble::DEFAULT_TOKEN_BUDGET;
use super::distribute::{
    DEFAULT_COVERAGE_PERCENT, DEFAULT_ENRICHMENT_PERCENT, DEFAULT_RETRIEVAL_PERCENT,
};
use super::error::{QueryError, check_percent};
use super::modes::{DEFAULT_CONTEXT_WINDOW, Mode};
use super::route::DEFAULT_CONFIDENCE_THRESHOLD;

/// Collections below this many tokens send every chunk.
pub const DEFAULT_SMALL_COLLECTION_TOKENS: usize = 20_000;

/// Default cap on numbered sources (context chunks), in chunks.
pub const DEFAULT_MAX_SOURCES: usize = 200;

/// Default history budget, in tokens.
pub const DEFAULT_HISTORY_TOKENS: usize = 4_000;

/// How a question is answered. Build with [`QueryOptions::new`] and the `with_`
/// methods; every field's default is on its constant.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryOptions {
    /// The processing mode. Default RAG under the token budget.
    pub mode: Mode,
    /// RAG's token budget for retrieved and completing text together (o200k tokens
    /// of context excerpts; see [`super::assemble`]). Default
    /// Some([`DEFAULT_TOKEN_BUDGET`]) = 4,000. None: the percentage controls below
    /// decide instead (set by [`QueryOptions::with_percents`]); a RAG mode with a
    /// fixed chunk count also ignores the budget.
    pub token_budget: Option<usize>,
    /// Percentage control: collections below this many tokens send every chunk.
    /// Default 20,000. Under a token budget, a collection is sent whole when it fits
    /// the budget instead; 0 disables sending everything in both modes.
    pub small_collection_tokens: usize,
    /// Percentage control: top-k as a percentage of the collection's chunks.
    /// Default 15 (used when `token_budget` is None).
    pub retrieval_percent: u32,
    /// Percentage control: broad questions' share of the quota spread over every
    /// document. Default 25 (used when `token_budget` is None).
    pub coverage_percent: u32,
    /// Percentage control: enrichment budget as a percentage of the collection's
    /// tokens. Default 10 (used when `token_budget` is None).
    pub enrichment_percent: u32,
    /// Routing confidence threshold, 0-100. Default 70.
    pub confidence_threshold: u8,
    /// Most chunks in the context (each a numbered source). Default 200.
    pub max_sources: usize,
    /// Chat history budget in tokens. Default 4,000.
    pub history_tokens: usize,
    /// Context window for adaptive RAG, in tokens. Default 128,000.
    pub context_window: usize,
    /// Extractive answer budget in o200k tokens. Default 400; a list of table rows,
    /// list items or what a lead-in sentence introduces may take twice this.
    pub answer_tokens: usize,
    /// Most sentences of an extractive fact answer (the best and those that add what
    /// it leaves uncovered). Default 3.
    pub answer_sentences: usize,
    /// The question's embedding, when the caller has an embedding model. Default
    /// None: BM25 alone.
    pub query_embedding: Option<QueryEmbedding>,
}

/// A question's embedding and the model that computed it (see
/// [`super::retriever`] for how it is used).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryEmbedding {
    /// The embedding model's id, as given to [`super::Collection::add_embeddings`].
    pub model_id: String,
    /// The vector (any scale; normalized before the search).
    pub vector: Vec<f32>,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            mode: Mode::default(),
            token_budget: Some(DEFAULT_TOKEN_BUDGET),
            small_collection_tokens: DEFAULT_SMALL_COLLECTION_TOKENS,
            retrieval_percent: DEFAULT_RETRIEVAL_PERCENT,
            coverage_percent: DEFAULT_COVERAGE_PERCENT,
            enrichment_percent: DEFAULT_ENRICHMENT_PERCENT,
            confidence_threshold: DEFAULT_CONFIDENCE_THRESHOLD,
            max_sources: DEFAULT_MAX_SOURCES,
            history_tokens: DEFAULT_HISTORY_TOKENS,
            context_window: DEFAULT_CONTEXT_WINDOW,
            answer_tokens: DEFAULT_MAX_TOKENS,
            answer_sentences: DEFAULT_MAX_SENTENCES,
            query_embedding: None,
        }
    }
}

impl QueryOptions {
    /// The defaults.
    pub fn new() -> Self {
        QueryOptions::default()
    }

    /// Sets the processing mode.
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the send-everything threshold in tokens (0 disables it).
    pub fn with_small_collection_tokens(mut self, tokens: usize) -> Self {
        self.small_collection_tokens = tokens;
        self
    }

    /// Sets the token budget of RAG mode, in o200k tokens of context excerpts.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] for 0.
    pub fn with_token_budget(mut self, tokens: usize) -> Result<Self, QueryError> {
        if tokens == 0 {
            return Err(QueryError::InvalidOption {
                name: "tokenBudget".into(),
                detail: "must be at least 1 token".into(),
            });
        }
        self.token_budget = Some(tokens);
        Ok(self)
    }

    /// Sets the retrieval, coverage and enrichment percentages, and selects them
    /// instead of the token budget (the seed's controls: top-k and enrichment grow
    /// with the collection).
    ///
    /// # Errors
    /// [`QueryError::BadPercent`] for a value over 100.
    pub fn with_percents(
        mut self,
        retrieval: u32,
        coverage: u32,
        enrichment: u32,
    ) -> Result<Self, QueryError> {
        self.retrieval_percent = check_percent("retrievalPercent", retrieval)?;
        self.coverage_percent = check_percent("coveragePercent", coverage)?;
        self.enrichment_percent = check_percent("enrichmentPercent", enrichment)?;
        self.token_budget = None;
        Ok(self)
    }

    /// Sets the routing confidence threshold.
    ///
    /// # Errors
    /// [`QueryError::BadPercent`] over 100.
    pub fn with_confidence_threshold(mut self, threshold: u32) -> Result<Self, QueryError> {
        let t = check_percent("confidenceThreshold", threshold)?;
        self.confidence_threshold = u8::try_from(t).unwrap_or(100);
        Ok(self)
    }

    /// Sets the cap on context chunks.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] for 0.
    pub fn with_max_sources(mut self, max: usize) -> Result<Self, QueryError> {
        if max == 0 {
            return Err(QueryError::InvalidOption {
                name: "maxSources".into(),
                detail: "must be at least 1".into(),
            });
        }
        self.max_sources = max;
        Ok(self)
    }

    /// Sets the history budget in tokens.
    pub fn with_history_tokens(mut self, tokens: usize) -> Self {
        self.history_tokens = tokens;
        self
    }

    /// Sets the adaptive-RAG context window in tokens.
    pub fn with_context_window(mut self, tokens: usize) -> Self {
        self.context_window = tokens;
        self
    }

    /// Sets the extractive answer budget in tokens and sentences.
    pub fn with_answer_limits(mut self, tokens: usize, sentences: usize) -> Self {
        self.answer_tokens = tokens;
        self.answer_sentences = sentences;
        self
    }

    /// Sets the question's embedding by model `model_id`. When the collection holds
    /// vectors of that model, retrieval fuses cosine top-k with BM25; otherwise BM25
    /// alone runs. The vector is checked by [`super::ask`] against the collection's
    /// dimension.
    pub fn with_query_embedding(mut self, model_id: impl Into<String>, vector: Vec<f32>) -> Self {
        self.query_embedding = Some(QueryEmbedding {
            model_id: model_id.into(),
            vector,
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        assert!(QueryOptions::new().with_percents(15, 25, 10).is_ok());
        assert_eq!(
            QueryOptions::new()
                .with_percents(15, 125, 10)
                .unwrap_err()
                .code(),
            "bad-percent"
        );
        assert!(QueryOptions::new().with_max_sources(0).is_err());
        assert_eq!(
            QueryOptions::new()
                .with_confidence_threshold(80)
                .unwrap()
                .confidence_threshold,
            80
        );
    }
}
