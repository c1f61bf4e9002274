//! The text a run summarizes, copied out of the collection so the state machine owns
//! it (no borrow, so the wasm layer can keep a summarizer between calls).
//!
//! A chunk's *top-level section* is the first part of its `headingPath` (parts are
//! separated by ` > `); chunks before the first heading have none. Coverage counts
//! the distinct top-level headings of each document (see [`super::trace`]).

use std::collections::BTreeSet;

use crate::query::collection::Collection;
use crate::query::error::QueryError;

use super::cite::Key;

/// One chunk of the run.
#[derive(Debug, Clone)]
pub(crate) struct Part {
    /// Its key (document position in the run, `ssSeq`).
    pub key: Key,
    /// The chunk text.
    pub text: String,
    /// The heading path, empty before the first heading.
    pub heading_path: String,
    /// Tokens (`tokenCount`).
    pub tokens: usize,
}

impl Part {
    /// The top-level heading, None before the first heading.
    pub fn top(&self) -> Option<&str> {
        let t = self.heading_path.split(" > ").next().unwrap_or("").trim();
        (!t.is_empty()).then_some(t)
    }

    /// The section name a note should carry.
    pub fn section(&self) -> &str {
        if self.heading_path.is_empty() {
            "(no heading)"
        } else {
            &self.heading_path
        }
    }
}

/// The documents of a run.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// Document ids, in run order.
    pub doc_ids: Vec<String>,
    /// Titles, in run order.
    pub titles: Vec<String>,
    /// Every chunk, document by document, in `ssSeq` order.
    pub parts: Vec<Part>,
}

impl Source {
    /// The documents `doc_ids` of `collection` (all of them, in collection order,
    /// when None; in the given order otherwise, each once).
    pub fn new(collection: &Collection, doc_ids: Option<&[&str]>) -> Result<Self, QueryError> {
        let docs = collection.documents();
        let positions: Vec<usize> = match doc_ids {
            None => (0..docs.len()).collect(),
            Some(ids) => {
                let mut seen = BTreeSet::new();
                let mut out = Vec::new();
                for id in ids {
                    let p = collection
                        .position(id)
                        .ok_or_else(|| QueryError::UnknownDocument {
                            doc_id: (*id).to_string(),
                        })?;
                    if seen.insert(p) {
                        out.push(p);
                    }
                }
                out
            }
        };
        let mut s = Source {
            doc_ids: Vec::new(),
            titles: Vec::new(),
            parts: Vec::new(),
        };
        for (run_pos, &p) in positions.iter().enumerate() {
            let d = &docs[p];
            s.doc_ids.push(d.doc_id.clone());
            s.titles.push(d.title.clone());
            for (seq, c) in d.chunks.iter().enumerate() {
                s.parts.push(Part {
                    key: (run_pos, seq),
                    text: c.text.clone(),
                    heading_path: c.metadata.get_str("headingPath").unwrap_or("").to_string(),
                    tokens: d.chunk_tokens(seq),
                });
            }
        }
        if s.parts.is_empty() {
            return Err(QueryError::InvalidOption {
                name: "docIds".into(),
                detail: "the documents to summarize have no text (no chunks)".into(),
            });
        }
        Ok(s)
    }

    /// The distinct top-level headings, as (document position, heading), in order.
    pub fn headings(&self) -> Vec<(usize, String)> {
        let mut out: Vec<(usize, String)> = Vec::new();
        for p in &self.parts {
            if let Some(t) = p.top() {
                let k = (p.key.0, t.to_string());
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }

    /// The part of `key`.
    pub fn part(&self, key: Key) -> Option<&Part> {
        // Parts are sorted by key.
        self.parts
            .binary_search_by(|p| p.key.cmp(&key))
            .ok()
            .map(|i| &self.parts[i])
    }

    /// Total tokens of the parts.
    pub fn tokens(&self) -> usize {
        self.parts.iter().map(|p| p.tokens).sum()
    }
}
