//! The options of one summary, validated as they are built.

use serde::{Deserialize, Serialize};

use crate::query::error::{QueryError, check_percent};
use crate::query::modes::DEFAULT_CONTEXT_WINDOW;

/// Default share of the context window one request may fill, in percent (the rest is
/// left for the reply and the provider's framing).
pub const DEFAULT_BUDGET_PERCENT: u32 = 60;

/// Smallest context window accepted, in tokens: the instructions and a useful piece
/// of text must fit the budget.
pub const MIN_CONTEXT_WINDOW: usize = 2_000;

/// Default most reduce levels in hierarchical mode, the forced final pass included.
pub const DEFAULT_MAX_DEPTH: usize = 4;

/// Default most document tokens for iterative mode; above it, hierarchical runs.
pub const DEFAULT_ITERATIVE_MAX_TOKENS: usize = 16_000;

/// Default chunks retrieved per topic.
pub const DEFAULT_TOPIC_K: usize = 3;

/// Default sentences per top-level section in extractive mode.
pub const DEFAULT_SENTENCES_PER_SECTION: usize = 3;

/// How a summary is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SummaryMode {
    /// Every chunk to cited bullets (one call each), then one reduce call; notes that
    /// do not fit the budget are cut to fit (the summary says so).
    MapReduce,
    /// As map-reduce, but notes over the budget are reduced in batches to
    /// intermediate summaries, level by level, until one batch fits (depth-limited).
    Hierarchical,
    /// A running summary over the chunks in order; short documents only.
    Iterative,
    /// 5-8 topics, top-k chunks per topic, one synthesis call.
    Topics,
    /// No model: the most central sentences per top-level section, each cited.
    Extractive,
}

impl SummaryMode {
    /// The mode named `name` (`map-reduce`, `hierarchical`, `iterative`, `topics`,
    /// `extractive`).
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`mode`) for any other name.
    pub fn from_name(name: &str) -> Result<Self, QueryError> {
        Ok(match name {
            "map-reduce" => SummaryMode::MapReduce,
            "hierarchical" => SummaryMode::Hierarchical,
            "iterative" => SummaryMode::Iterative,
            "topics" => SummaryMode::Topics,
            "extractive" => SummaryMode::Extractive,
            other => {
                return Err(QueryError::InvalidOption {
                    name: "mode".into(),
                    detail: format!(
                        "'{other}' is not one of map-reduce, hierarchical, iterative, topics, extractive"
                    ),
                });
            }
        })
    }

    /// The mode's name, as [`SummaryMode::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            SummaryMode::MapReduce => "map-reduce",
            SummaryMode::Hierarchical => "hierarchical",
            SummaryMode::Iterative => "iterative",
            SummaryMode::Topics => "topics",
            SummaryMode::Extractive => "extractive",
        }
    }

    /// Whether the mode calls a model.
    pub fn uses_model(self) -> bool {
        self != SummaryMode::Extractive
    }
}

/// Where topic mode takes its topics from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TopicSource {
    /// One model call over the headings and index phrases.
    Model,
    /// The headings themselves (top-level first, then second-level, at most 8).
    Headings,
}

/// How a summary is made. Build with [`SummaryOptions::new`] and the `with_` methods
/// (each validates); every default is on its constant.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryOptions {
    /// The mode. Default [`SummaryMode::Hierarchical`].
    pub mode: SummaryMode,
    /// A phrase the summary should pay attention to (topic retrieval adds it to every
    /// topic query; the other modes add it to the instructions). Default none.
    pub focus: Option<String>,
    /// The model's context window, in tokens. Default 128,000.
    pub context_window: usize,
    /// Most of the context window one request may fill, in percent. Default 60.
    pub budget_percent: u32,
    /// Most reduce levels, the forced final pass included (hierarchical). Default 4.
    pub max_depth: usize,
    /// Iterative mode runs at most this many document tokens; above, hierarchical
    /// runs instead and the summary says why. Default 16,000.
    pub iterative_max_tokens: usize,
    /// Where topic mode takes its topics from. Default [`TopicSource::Model`].
    pub topic_source: TopicSource,
    /// Chunks retrieved per topic. Default 3.
    pub topic_k: usize,
    /// Most tokens of chunks retrieved for topic mode; None: what fits the request
    /// budget. Default None.
    pub retrieval_budget_tokens: Option<usize>,
    /// Sentences per top-level section in extractive mode (at least one is always
    /// taken from a section with text). Default 3.
    pub sentences_per_section: usize,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            mode: SummaryMode::Hierarchical,
            focus: None,
            context_window: DEFAULT_CONTEXT_WINDOW,
            budget_percent: DEFAULT_BUDGET_PERCENT,
            max_depth: DEFAULT_MAX_DEPTH,
            iterative_max_tokens: DEFAULT_ITERATIVE_MAX_TOKENS,
            topic_source: TopicSource::Model,
            topic_k: DEFAULT_TOPIC_K,
            retrieval_budget_tokens: None,
            sentences_per_section: DEFAULT_SENTENCES_PER_SECTION,
        }
    }
}

fn invalid(name: &str, detail: impl Into<String>) -> QueryError {
    QueryError::InvalidOption {
        name: name.into(),
        detail: detail.into(),
    }
}

impl SummaryOptions {
    /// The defaults.
    pub fn new() -> Self {
        SummaryOptions::default()
    }

    /// Sets the mode.
    pub fn with_mode(mut self, mode: SummaryMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the focus phrase; a blank phrase means none.
    pub fn with_focus(mut self, focus: impl Into<String>) -> Self {
        let f = focus.into();
        self.focus = (!f.trim().is_empty()).then(|| f.trim().to_string());
        self
    }

    /// Sets the context window, in tokens.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`contextWindow`) below [`MIN_CONTEXT_WINDOW`].
    pub fn with_context_window(mut self, tokens: usize) -> Result<Self, QueryError> {
        if tokens < MIN_CONTEXT_WINDOW {
            return Err(invalid(
                "contextWindow",
                format!("{tokens} is below the minimum of {MIN_CONTEXT_WINDOW} tokens"),
            ));
        }
        self.context_window = tokens;
        Ok(self)
    }

    /// Sets the request budget, in percent of the context window.
    ///
    /// # Errors
    /// [`QueryError::BadPercent`] over 100; [`QueryError::InvalidOption`]
    /// (`budgetPercent`) below 20.
    pub fn with_budget_percent(mut self, percent: u32) -> Result<Self, QueryError> {
        check_percent("budgetPercent", percent)?;
        if percent < 20 {
            return Err(invalid("budgetPercent", "must be at least 20"));
        }
        self.budget_percent = percent;
        Ok(self)
    }

    /// Sets the most reduce levels.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`maxDepth`) outside 1..=16.
    pub fn with_max_depth(mut self, levels: usize) -> Result<Self, QueryError> {
        if !(1..=16).contains(&levels) {
            return Err(invalid("maxDepth", format!("{levels} is not in 1..=16")));
        }
        self.max_depth = levels;
        Ok(self)
    }

    /// Sets the iterative-mode size limit, in document tokens.
    pub fn with_iterative_max_tokens(mut self, tokens: usize) -> Self {
        self.iterative_max_tokens = tokens;
        self
    }

    /// Sets where topics come from.
    pub fn with_topic_source(mut self, source: TopicSource) -> Self {
        self.topic_source = source;
        self
    }

    /// Sets the chunks per topic.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`topicK`) outside 1..=50.
    pub fn with_topic_k(mut self, k: usize) -> Result<Self, QueryError> {
        if !(1..=50).contains(&k) {
            return Err(invalid("topicK", format!("{k} is not in 1..=50")));
        }
        self.topic_k = k;
        Ok(self)
    }

    /// Sets the total retrieval budget of topic mode, in tokens.
    pub fn with_retrieval_budget_tokens(mut self, tokens: usize) -> Self {
        self.retrieval_budget_tokens = Some(tokens);
        self
    }

    /// Sets the sentences per section of extractive mode.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`sentencesPerSection`) outside 1..=20.
    pub fn with_sentences_per_section(mut self, n: usize) -> Result<Self, QueryError> {
        if !(1..=20).contains(&n) {
            return Err(invalid(
                "sentencesPerSection",
                format!("{n} is not in 1..=20"),
            ));
        }
        self.sentences_per_section = n;
        Ok(self)
    }

    /// The most tokens one request may have: `budget_percent` of `context_window`.
    pub fn request_budget(&self) -> usize {
        self.context_window * self.budget_percent as usize / 100
    }
}
