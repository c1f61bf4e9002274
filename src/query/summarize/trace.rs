//! What a run returns: the summary, the chunks it cites, the verification flag and
//! the trace (calls, tokens, coverage, citation rate).
//!
//! - *Coverage* is the share of top-level headings (distinct first parts of
//!   `headingPath`, per document) with at least one chunk the run used: sent to the
//!   model (map, iterative, topic retrieval) or quoted (extractive). None when the
//!   documents have no headings.
//! - *Citation rate* is the share of bullets of the final text with at least one
//!   valid citation (a chunk the run used, in the run's style). Bullets are lines
//!   starting with `- `, `* `, `+ ` or `N. `/`N) `; a text without bullets counts its
//!   non-empty lines that are not `#` headings instead. None for an empty text.

use std::collections::BTreeSet;

use serde::Serialize;

use super::cite::{self, Key, Namer};
use super::options::SummaryMode;
use super::source::Source;

/// The warning on a summary whose citations failed validation twice.
pub const UNVERIFIED: &str = "citations could not be verified";

/// One chunk a summary cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CitedChunk {
    /// The marker as written in the summary, without brackets (`chunk-3`, `doc:3`).
    pub id: String,
    /// The document id (`ssDocId`).
    pub doc_id: String,
    /// The chunk's `ssSeq`.
    pub seq: usize,
    /// The chunk's `headingPath` (empty before the first heading).
    pub section: String,
}

/// The trace of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryTrace {
    /// The documents summarized, in run order.
    pub doc_ids: Vec<String>,
    /// Chunks of those documents.
    pub chunks_total: usize,
    /// Chunks the run used (sent to the model or quoted).
    pub chunks_processed: usize,
    /// The topics (topic mode; empty otherwise).
    pub topics: Vec<String>,
    /// Model calls made, retries included.
    pub model_calls: usize,
    /// Retries among them (one at most per call).
    pub retries: usize,
    /// Tokens of every request sent (o200k_base, message contents).
    pub tokens_sent: usize,
    /// Tokens of every reply received.
    pub tokens_received: usize,
    /// Wall time in milliseconds, as the driver measured it (None until it sets it).
    pub wall_ms: Option<u64>,
    /// Reduce levels run (map-reduce and hierarchical; the final pass included).
    pub reduce_levels: usize,
    /// The most tokens one request may have (a share of the context window).
    pub request_budget_tokens: usize,
    /// The largest request sent, in tokens.
    pub max_request_tokens: usize,
    /// Inputs cut or dropped to fit a request (chunks, notes, the running summary).
    pub truncated_inputs: usize,
    /// Top-level headings of the documents.
    pub headings_total: usize,
    /// Those with at least one chunk used.
    pub headings_covered: usize,
    /// `headings_covered / headings_total`, 0 to 1; None without headings.
    pub coverage: Option<f64>,
    /// Bullets in the summary.
    pub bullets: usize,
    /// Bullets with at least one valid citation.
    pub bullets_cited: usize,
    /// `bullets_cited / bullets`, 0 to 1; None for an empty summary.
    pub citation_rate: Option<f64>,
}

/// A finished summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The mode that ran.
    pub mode: SummaryMode,
    /// The mode asked for (differs when iterative fell back).
    pub requested_mode: SummaryMode,
    /// Why another mode ran, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// The summary (Markdown: headings and bullets, markers `[chunk-N]` or
    /// `[docId:N]`).
    pub text: String,
    /// The distinct valid chunks it cites, in order of first citation.
    pub citations: Vec<CitedChunk>,
    /// Whether every model reply passed citation validation (at most after its one
    /// retry). Extractive summaries are verified by construction.
    pub verified: bool,
    /// [`UNVERIFIED`] when not verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// The invalid markers of replies that failed twice, distinct, as written.
    pub invalid_citations: Vec<String>,
    /// Things the reader should know (inputs cut to fit, fallbacks), one sentence each.
    pub notices: Vec<String>,
    /// The trace.
    pub trace: SummaryTrace,
}

/// Whether `line` is a bullet, and its text.
fn bullet(line: &str) -> Option<&str> {
    let t = line.trim_start();
    for p in ["- ", "* ", "+ "] {
        if let Some(r) = t.strip_prefix(p) {
            return Some(r);
        }
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits <= 3 {
        let r = &t[digits..];
        if let Some(r) = r.strip_prefix(". ").or_else(|| r.strip_prefix(") ")) {
            return Some(r);
        }
    }
    None
}

/// (bullets, bullets with a valid citation) of `text` (see the module docs).
pub(crate) fn count_bullets(text: &str, namer: &Namer, used: &BTreeSet<Key>) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let bullets: Vec<&str> = lines.iter().filter_map(|l| bullet(l)).collect();
    let units: Vec<&str> = if bullets.is_empty() {
        lines
            .into_iter()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect()
    } else {
        bullets
    };
    let cited = units
        .iter()
        .filter(|u| !cite::check(u, namer, used).valid.is_empty())
        .count();
    (units.len(), cited)
}

/// Fills coverage and citation rate of `trace` from the used chunks and `text`.
pub(crate) fn measure(
    trace: &mut SummaryTrace,
    source: &Source,
    namer: &Namer,
    used: &BTreeSet<Key>,
    text: &str,
) {
    let headings = source.headings();
    let covered: BTreeSet<(usize, &str)> = used
        .iter()
        .filter_map(|&k| source.part(k))
        .filter_map(|p| p.top().map(|t| (p.key.0, t)))
        .collect();
    trace.headings_total = headings.len();
    trace.headings_covered = headings
        .iter()
        .filter(|(d, h)| covered.contains(&(*d, h.as_str())))
        .count();
    trace.coverage =
        (!headings.is_empty()).then(|| trace.headings_covered as f64 / headings.len() as f64);
    trace.chunks_processed = used.len();
    let (b, c) = count_bullets(text, namer, used);
    trace.bullets = b;
    trace.bullets_cited = c;
    trace.citation_rate = (b > 0).then(|| c as f64 / b as f64);
}

/// The distinct valid chunks `text` cites, in order.
pub(crate) fn cited(
    text: &str,
    source: &Source,
    namer: &Namer,
    used: &BTreeSet<Key>,
) -> Vec<CitedChunk> {
    cite::check(text, namer, used)
        .valid
        .into_iter()
        .map(|k| CitedChunk {
            id: namer.id(k),
            doc_id: source.doc_ids[k.0].clone(),
            seq: k.1,
            section: source
                .part(k)
                .map(|p| p.heading_path.clone())
                .unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::summarize::cite::CiteStyle;

    #[test]
    fn bullets_and_fallback_lines() {
        let n = Namer {
            style: CiteStyle::Chunk,
            doc_ids: vec!["a".into()],
        };
        let used: BTreeSet<Key> = [(0, 1), (0, 2)].into();
        let t =
            "## Part\n- one [chunk-1]\n* two\n1. three [chunk-9]\n2) four [chunk-2, chunk-9]\ntext";
        assert_eq!(count_bullets(t, &n, &used), (4, 2));
        assert_eq!(count_bullets("# H\nA [chunk-1].\nB.", &n, &used), (2, 1));
        assert_eq!(count_bullets("", &n, &used), (0, 0));
    }
}
