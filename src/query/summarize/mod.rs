//! Summaries with verified citations, sans-IO: a [`Summarizer`] hands out model
//! requests and takes the replies; it never does I/O, so the CLI drives it in a loop
//! over HTTP and the wasm layer drives it with the browser's fetch and a concurrency
//! limit.
//!
//! Modes ([`SummaryMode`]), after the summarization notes in DESIGN.md ("The query
//! pipeline", last bullet, from the DocSummarizer article):
//! - **map-reduce**: every chunk becomes cited bullets (one call per chunk), then one
//!   reduce call writes an executive summary, key points by section and open
//!   questions;
//! - **hierarchical**: as map-reduce, but when the notes do not fit the request
//!   budget (default 60% of the context window, in o200k_base tokens) they are
//!   reduced in batches to intermediate notes, level after level, until one batch
//!   fits; at the depth limit one forced final pass cuts the notes to fit, so a run
//!   always ends. Markers are kept at every level;
//! - **iterative**: a running summary over the chunks in order, for documents up to
//!   [`options::DEFAULT_ITERATIVE_MAX_TOKENS`] tokens (hierarchical otherwise, with
//!   the reason in [`Summary::fallback`]);
//! - **topics**: 5-8 topics (a model call over the headings and index phrases, or the
//!   headings themselves), the best `k` chunks per topic (BM25, the focus phrase
//!   added), within a total retrieval budget, then one synthesis call;
//! - **extractive** (no model): the most central sentences of every top-level
//!   section, in document order, each cited.
//!
//! Markers are `[chunk-N]` for one document and `[docId:N]` for several (N =
//! `ssSeq`); see [`cite`]. Every prompt puts document text (chunks, notes, the
//! running summary, headings) inside the untrusted-content block of
//! [`crate::query::untrusted`].
//!
//! ```
//! use docrag::query::Collection;
//! use docrag::query::summarize::{Step, SummaryMode, SummaryOptions, Summarizer};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let o = docrag::ConvertOptions::new().with_file_name("a.md");
//! let mut c = Collection::new();
//! c.add(docrag::convert(b"# Costs\n\nThe fee is 40 EUR per month.", &o)?)?;
//! let options = SummaryOptions::new().with_mode(SummaryMode::MapReduce);
//! let mut s = Summarizer::new(&c, None, options)?;
//! let summary = loop {
//!     match s.next_requests() {
//!         Step::Requests(requests) => {
//!             for (id, _request) in requests {
//!                 // Send _request to a chat model; here, a canned reply.
//!                 s.submit(id, "- Costs: the fee is 40 EUR per month [chunk-0]")?;
//!             }
//!         }
//!         // Only a driver with replies still in flight sees Waiting.
//!         Step::Waiting => return Err("a reply is outstanding".into()),
//!         Step::Done(summary) => break summary,
//!     }
//! };
//! assert!(summary.verified);
//! assert_eq!(summary.trace.model_calls, 2);
//! # Ok(())
//! # }
//! ```

pub mod cite;
pub mod extractive;
pub mod machine;
pub mod options;
pub mod prompts;
mod source;
pub mod topics;
pub mod trace;

pub use cite::CiteStyle;
pub use machine::{Phase, Progress, RequestId, Step, Summarizer};
pub use options::{SummaryMode, SummaryOptions, TopicSource};
pub use trace::{CitedChunk, Summary, SummaryTrace, UNVERIFIED};
