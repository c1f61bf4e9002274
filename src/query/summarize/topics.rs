//! Topic mode: the topics (from a model reply or the headings), the per-topic
//! retrieval under a total budget, and the topic list that goes into the synthesis.
//!
//! Retrieval: BM25 over the run's chunks with the query `topic + " " + focus`, the
//! best `k` chunks per topic. Chunks are taken round-robin (every topic's first hit,
//! then every topic's second, ...) so that each topic gets something before any gets
//! more, each chunk once, while the total stays within the budget (tokens of the
//! chunks' `tokenCount`); a chunk that does not fit is skipped.

use std::collections::BTreeSet;

use crate::retrieve::Bm25Index;

use super::cite::Key;
use super::source::Source;

/// Fewest topics asked of the model.
pub const MIN_TOPICS: usize = 5;

/// Most topics kept.
pub const MAX_TOPICS: usize = 8;

/// Longest topic kept, in characters.
const TOPIC_CHARS: usize = 120;

fn push_topic(out: &mut Vec<String>, t: &str) {
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() || t.chars().count() > TOPIC_CHARS || out.len() >= MAX_TOPICS {
        return;
    }
    if !out.iter().any(|o| o.to_lowercase() == t.to_lowercase()) {
        out.push(t);
    }
}

/// Topics from the headings: the top-level headings, then (while fewer than
/// [`MIN_TOPICS`]) the last part of second-level heading paths, at most
/// [`MAX_TOPICS`]; without headings, the document titles.
pub(crate) fn from_headings(source: &Source) -> Vec<String> {
    let mut out = Vec::new();
    for (_, h) in source.headings() {
        push_topic(&mut out, &h);
    }
    if out.len() < MIN_TOPICS {
        for p in &source.parts {
            let mut parts = p.heading_path.split(" > ");
            if let (Some(_), Some(second)) = (parts.next(), parts.next()) {
                push_topic(&mut out, second);
            }
        }
    }
    if out.is_empty() {
        for t in &source.titles {
            push_topic(&mut out, t);
        }
    }
    if out.is_empty() {
        out.push("the document".to_string());
    }
    out
}

/// The topics of a model reply: one per line, bullets, numbering, quotes and a
/// trailing `.`/`:` removed, lines that announce the list (ending with `:`) and
/// repeats dropped, at most [`MAX_TOPICS`]. Empty when nothing is readable.
pub fn parse_topics(reply: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in reply.lines() {
        let mut t = line.trim();
        if t.starts_with("```") || t.ends_with(':') {
            continue;
        }
        t = t.trim_start_matches(['-', '*', '•', '+', '#', ' ']);
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let rest = &t[digits..];
            if let Some(r) = rest.strip_prefix(['.', ')']) {
                t = r;
            }
        }
        let t = t
            .trim()
            .trim_matches(['"', '\'', '`', '*', '“', '”'])
            .trim_end_matches(['.', ';', ','])
            .trim();
        push_topic(&mut out, t);
    }
    out
}

/// The chunks retrieved for `topics`, in document order, and which topics found
/// anything.
pub(crate) fn retrieve(
    source: &Source,
    topics: &[String],
    focus: Option<&str>,
    k: usize,
    budget: usize,
) -> Vec<Key> {
    let mut index = Bm25Index::new();
    for p in &source.parts {
        // Keys are run positions, so document ids need not be unique strings here.
        let doc = p.key.0.to_string();
        let _ = index.add(&doc, p.key.1 as u32, &p.text);
    }
    let hits: Vec<Vec<Key>> = topics
        .iter()
        .map(|t| {
            let q = match focus {
                Some(f) => format!("{t} {f}"),
                None => t.clone(),
            };
            index
                .search(&q, k)
                .into_iter()
                .filter_map(|h| Some((h.chunk.doc.parse().ok()?, h.chunk.seq as usize)))
                .collect()
        })
        .collect();
    let mut chosen = BTreeSet::new();
    let mut used = 0usize;
    for rank in 0..k {
        for list in &hits {
            let Some(&key) = list.get(rank) else {
                continue;
            };
            let t = source.part(key).map_or(0, |p| p.tokens);
            if chosen.contains(&key) || used + t > budget {
                continue;
            }
            used += t;
            chosen.insert(key);
        }
    }
    chosen.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_models_write() {
        let r = "Here are the topics:\n1. Pricing and payment.\n- **Delivery dates**\n* \"Warranty\"\n2) pricing and payment\n\n```\nPenalties;";
        assert_eq!(
            parse_topics(r),
            vec![
                "Pricing and payment",
                "Delivery dates",
                "Warranty",
                "Penalties"
            ]
        );
        assert!(parse_topics("").is_empty());
        let many: String = (0..12).map(|i| format!("topic {i}\n")).collect();
        assert_eq!(parse_topics(&many).len(), MAX_TOPICS);
    }
}
