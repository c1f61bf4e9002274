//! Processing modes: how document content reaches the model, chosen by one number as
//! in the "max document chunks" convention.
//!
//! | number | mode | content | "vector chunks" output |
//! |---|---|---|---|
//! | N > 0 | [`Mode::Rag`] | retrieved (and enriched) chunks only | the chunks used |
//! | -1 | [`Mode::Entire`] | full texts, capped at [`ENTIRE_CHAR_CAP`] characters by fair truncation | `""`, or `"TRUNCATED"` when cut |
//! | 0 | [`Mode::Adaptive`] | entire below the cap, RAG above it | none below the cap, else the chunks used |
//! | -2 | [`Mode::AdaptiveRag`] | retrieved chunks first, then the full texts cut to the context window | always the chunks used |
//!
//! RAG's number is the top-k of the collection-wide search (enrichment may add
//! chunks that complete tables, revisions and comments); with no number given
//! ([`Mode::Rag`] with `None`) k is the retrieval percentage of the collection's
//! chunks, at least [`DEFAULT_RAG_CHUNKS`]. Entire-document mode never cites.

use serde::Serialize;

use super::citations::Source;
use super::error::QueryError;
pub use super::truncate::{ENTIRE_CHAR_CAP, TRUNCATED};

/// The default number of chunks in RAG mode.
pub const DEFAULT_RAG_CHUNKS: usize = 8;

/// Default context window for adaptive RAG, in tokens.
pub const DEFAULT_CONTEXT_WINDOW: usize = 128_000;

/// How content is supplied to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "chunks", rename_all = "kebab-case")]
pub enum Mode {
    /// Retrieved chunks only; `Some(n)` fixes the top-k at n.
    Rag(Option<usize>),
    /// Full texts, fairly truncated to the character cap.
    Entire,
    /// Entire below the character cap, RAG above it.
    Adaptive,
    /// Retrieved chunks first, then the full texts within the context window.
    AdaptiveRag,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::Rag(None)
    }
}

impl Mode {
    /// The mode of a number: positive = RAG with that many chunks, -1 entire, 0
    /// adaptive, -2 adaptive RAG.
    ///
    /// # Errors
    /// [`QueryError::UnknownMode`] for any other number.
    pub fn from_number(n: i64) -> Result<Mode, QueryError> {
        match n {
            -2 => Ok(Mode::AdaptiveRag),
            -1 => Ok(Mode::Entire),
            0 => Ok(Mode::Adaptive),
            n if n > 0 => Ok(Mode::Rag(Some(usize::try_from(n).unwrap_or(usize::MAX)))),
            value => Err(QueryError::UnknownMode { value }),
        }
    }

    /// The mode named `rag`, `entire`, `adaptive` or `adaptive-rag`, with an optional
    /// chunk count for the modes that retrieve.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] for another name or a chunk count of 0.
    pub fn from_name(name: &str, chunks: Option<usize>) -> Result<Mode, QueryError> {
        if chunks == Some(0) {
            return Err(QueryError::InvalidOption {
                name: "chunks".into(),
                detail: "must be at least 1".into(),
            });
        }
        match name {
            "rag" => Ok(Mode::Rag(chunks)),
            "entire" => Ok(Mode::Entire),
            "adaptive" => Ok(Mode::Adaptive),
            "adaptive-rag" => Ok(Mode::AdaptiveRag),
            other => Err(QueryError::InvalidOption {
                name: "mode".into(),
                detail: format!("'{other}' is not one of rag, entire, adaptive, adaptive-rag"),
            }),
        }
    }
}

/// The "vector chunks" output: which chunks were used, or the entire-mode marker.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum VectorChunks {
    /// The chunks used, as numbered sources.
    Chunks(Vec<Source>),
    /// Entire-document mode: `""` when nothing was cut, [`TRUNCATED`] when something
    /// was; adaptive mode below the cap: `""` (not populated).
    Marker(&'static str),
}

/// Keeps whole chunks of each document within a shared token budget, by
/// water-filling over documents (see [`super::truncate`]): `tokens[d][s]` is chunk
/// `s` of document `d`. Returns per document how many leading chunks fit and whether
/// any document was cut.
pub fn fit_chunks(tokens: &[Vec<usize>], budget: usize) -> (Vec<usize>, bool) {
    let totals: Vec<usize> = tokens.iter().map(|t| t.iter().sum()).collect();
    let Some(level) = super::truncate::level(&totals, budget) else {
        return (tokens.iter().map(Vec::len).collect(), false);
    };
    let keep = tokens
        .iter()
        .zip(&totals)
        .map(|(t, &total)| {
            if total <= level {
                return t.len();
            }
            let mut used = 0usize;
            t.iter()
                .take_while(|&&n| {
                    used += n;
                    used <= level
                })
                .count()
        })
        .collect();
    (keep, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_map_to_modes() {
        assert_eq!(Mode::from_number(8), Ok(Mode::Rag(Some(8))));
        assert_eq!(Mode::from_number(-1), Ok(Mode::Entire));
        assert_eq!(Mode::from_number(0), Ok(Mode::Adaptive));
        assert_eq!(Mode::from_number(-2), Ok(Mode::AdaptiveRag));
        assert_eq!(Mode::from_number(-3).unwrap_err().code(), "unknown-mode");
        assert_eq!(Mode::from_name("adaptive-rag", None), Ok(Mode::AdaptiveRag));
        assert_eq!(Mode::from_name("rag", Some(3)), Ok(Mode::Rag(Some(3))));
        assert!(Mode::from_name("rag", Some(0)).is_err());
        assert!(Mode::from_name("fast", None).is_err());
    }

    #[test]
    fn vector_chunks_serialize_as_in_the_convention() {
        let j = serde_json::to_value(VectorChunks::Marker(TRUNCATED)).unwrap();
        assert_eq!(j, "TRUNCATED");
        let j = serde_json::to_value(VectorChunks::Chunks(vec![])).unwrap();
        assert_eq!(j, serde_json::json!([]));
    }

    #[test]
    fn fit_chunks_water_fills_whole_chunks() {
        let t = vec![vec![10, 10], vec![50, 50, 50], vec![40, 40, 40]];
        assert_eq!(fit_chunks(&t, 1000), (vec![2, 3, 3], false));
        // level: 20 kept whole; (120-20)/2 = 50 each for the others.
        assert_eq!(fit_chunks(&t, 120), (vec![2, 1, 1], true));
        assert_eq!(fit_chunks(&t, 0), (vec![0, 0, 0], true));
    }
}
