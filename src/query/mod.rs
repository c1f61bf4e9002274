//! The query pipeline: routing, processing modes, payload assembly, history
//! reduction, citations and the extractive answerer (all sans-IO).
//!
//! One concept per module:
//! - [`untrusted`]: the delimited block that marks document text as data;
//! - [`payload`]: messages in cache-friendly order, and the token accounting;
//! - [`history`]: history reduction that never evicts the pinned context;
//! - [`citations`]: ranked, numbered sources and the `[n]` marker builder;
//! - [`answer`]: the extractive answerer, the default when no chat model is configured;
//! - [`route`]: routing and broad/pointed classification requests and parsers;
//! - [`truncate`]: fair truncation for entire-document mode;
//! - [`distribute`]: retrieval quotas and enrichment budgets;
//! - [`collection`]: documents, chunks, enrichers, the BM25 index, token totals;
//! - [`profile`]: the per-document record (tables, changes, comments, notes, parts,
//!   pages, authors) counted when a document joins;
//! - [`inventory`]: questions about the collection as such, answered from the records;
//! - [`embeddings`]: optional chunk vectors of one embedding model (caller-supplied);
//! - [`retriever`]: BM25, cosine vectors, or both fused, per question;
//! - [`modes`]: RAG, entire document, adaptive, adaptive RAG;
//! - [`options`]: [`QueryOptions`], validated when built;
//! - [`assemble`]: context assembly under a token budget (the default);
//! - [`select`]: pointed and broad retrieval with enrichment (the percentage controls);
//! - [`pipeline`]: [`ask`], the whole question;
//! - [`summarize`]: the [`Summarizer`] state machine (summaries with verified
//!   citations);
//! - [`error`]: [`QueryError`] with stable codes.

pub mod answer;
pub mod assemble;
pub mod citations;
pub mod collection;
pub mod distribute;
pub mod embeddings;
pub mod error;
pub mod history;
pub mod inventory;
pub mod language;
pub mod modes;
pub mod options;
pub mod payload;
pub mod pipeline;
pub mod profile;
pub mod retriever;
pub mod route;
pub mod select;
pub mod summarize;
pub mod truncate;
pub mod untrusted;

pub use citations::{Citation, CitationReport, Source, Span};
pub use collection::{Collection, Document};
pub use embeddings::EmbeddingStore;
pub use error::QueryError;
pub use modes::{Mode, VectorChunks};
pub use options::{QueryEmbedding, QueryOptions};
pub use payload::{Accounting, Message, ModelRequest, PathTaken, Payload, Role};
pub use pipeline::{QueryResult, Replies, ask};
pub use retriever::{Retrieval, Retriever};
pub use route::{RoutingDecision, RoutingReply, Scope};
pub use summarize::{
    Progress, RequestId, Step, Summarizer, Summary, SummaryMode, SummaryOptions, SummaryTrace,
};
