//! Extractive summaries (no model): the most central sentences of each top-level
//! section, in document order, each followed by the marker of its chunk.
//!
//! - Sections: runs of consecutive chunks of one document with the same top-level
//!   heading (chunks before the first heading form a section of their own).
//! - Units: each chunk's lines without its information line, Markdown headings,
//!   table rules and blank lines; HTML tags are dropped; lines are split into
//!   sentences at Unicode sentence boundaries (UAX #29). A unit is cut to
//!   [`UNIT_CHARS`] characters. Repeated units are kept once per document.
//! - Centrality: each unit is a vector of term weights (Unicode words lowercased, CJK
//!   characters one by one; tf x ln(1 + units / units containing the term), units of
//!   the document), L2-normalized; its score is the mean cosine similarity to the
//!   other units of its section (computed against the section's centroid, so it is
//!   linear in the section's size).
//! - Choice: per section, the best `sentences_per_section` units (ties: the earlier)
//!   among those of at least [`MIN_WORDS`] words (shorter units only when a section
//!   has nothing else; table rows count as short), written in document order. Every section with a unit gets at
//!   least one, so every top-level heading with text is covered.
//!
//! Deterministic: the same collection and options give the same bytes.

use std::collections::{BTreeSet, HashMap, HashSet};

use unicode_segmentation::UnicodeSegmentation;

use crate::retrieve::tokenize::is_cjk;

use super::cite::{self, Key, Namer};
use super::source::Source;

/// Longest unit, in characters (Unicode scalar values); longer ones are cut with `…`.
pub const UNIT_CHARS: usize = 400;

/// Words a unit needs to be preferred.
pub const MIN_WORDS: usize = 4;

/// The heading of the section before a document's first heading.
pub const OPENING: &str = "(before the first heading)";

struct Unit {
    key: Key,
    text: String,
    words: usize,
    vec: Vec<(u32, f32)>,
}

fn strip_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut depth = 0usize;
    for c in line.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_rule(t: &str) -> bool {
    t.chars()
        .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+' | '=' | '_' | '*'))
}

fn body(text: &str) -> &str {
    match text.split_once('\n') {
        Some((first, rest)) if first.starts_with('[') && first.trim_end().ends_with(']') => rest,
        _ => text,
    }
}

fn cut(s: &str) -> String {
    if s.chars().count() <= UNIT_CHARS {
        return s.to_string();
    }
    let mut t: String = s.chars().take(UNIT_CHARS - 1).collect();
    t.push('…');
    t
}

fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in text.unicode_words() {
        let l = w.to_lowercase();
        if l.chars().any(is_cjk) {
            out.extend(l.chars().filter(|c| c.is_alphanumeric()).map(String::from));
        } else if l.chars().count() > 2 {
            out.push(l);
        }
    }
    out
}

fn units_of(key: Key, text: &str) -> Vec<(Key, String)> {
    let mut out = Vec::new();
    for line in body(text).lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || is_rule(t) {
            continue;
        }
        let t = ["- ", "* ", "+ ", "> "]
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .unwrap_or(t)
            .trim_start();
        let plain = if t.contains('<') {
            strip_tags(t)
        } else {
            t.to_string()
        };
        for s in plain.unicode_sentences() {
            let s = s.trim();
            if !s.is_empty() && s.chars().any(char::is_alphanumeric) {
                out.push((key, cut(s)));
            }
        }
    }
    out
}

/// The extractive summary of `source` and the chunks it quotes.
pub(crate) fn summarize(
    source: &Source,
    namer: &Namer,
    per_section: usize,
) -> (String, BTreeSet<Key>) {
    let mut blocks: Vec<String> = Vec::new();
    let mut used = BTreeSet::new();
    let many = source.doc_ids.len() > 1;
    for doc in 0..source.doc_ids.len() {
        let parts: Vec<_> = source.parts.iter().filter(|p| p.key.0 == doc).collect();
        // Units of the document, repeated ones dropped.
        let mut seen = HashSet::new();
        let mut units: Vec<Unit> = Vec::new();
        let mut section_of: Vec<usize> = Vec::new();
        let mut sections: Vec<Option<String>> = Vec::new();
        for p in &parts {
            let top = p.top().map(str::to_string);
            if sections.is_empty() || sections.last() != Some(&top) {
                sections.push(top);
            }
            for (key, s) in units_of(p.key, &p.text) {
                let norm = s.split_whitespace().collect::<Vec<_>>().join(" ");
                if !seen.insert(norm) {
                    continue;
                }
                let words = s.unicode_words().count();
                units.push(Unit {
                    key,
                    text: s,
                    words,
                    vec: Vec::new(),
                });
                section_of.push(sections.len() - 1);
            }
        }
        weigh(&mut units);
        if many {
            blocks.push(format!("# {}", heading_text(&source.titles[doc])));
        }
        for (s, top) in sections.iter().enumerate() {
            let idx: Vec<usize> = (0..units.len()).filter(|&i| section_of[i] == s).collect();
            if idx.is_empty() {
                continue;
            }
            let mut block = format!("## {}", heading_text(top.as_deref().unwrap_or(OPENING)));
            for i in pick(&units, &idx, per_section) {
                let u = &units[i];
                used.insert(u.key);
                block.push_str(&format!(
                    "\n- {} [{}]",
                    cite::escape(&u.text),
                    namer.id(u.key)
                ));
            }
            blocks.push(block);
        }
    }
    (blocks.join("\n\n"), used)
}

fn heading_text(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Term weights, L2-normalized, for every unit.
fn weigh(units: &mut [Unit]) {
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut tfs: Vec<HashMap<u32, f32>> = Vec::with_capacity(units.len());
    let mut df: Vec<u32> = Vec::new();
    for u in units.iter() {
        let mut tf: HashMap<u32, f32> = HashMap::new();
        for t in terms(&u.text) {
            let next = ids.len() as u32;
            let id = *ids.entry(t).or_insert(next);
            if id as usize == df.len() {
                df.push(0);
            }
            *tf.entry(id).or_insert(0.0) += 1.0;
        }
        for id in tf.keys() {
            df[*id as usize] += 1;
        }
        tfs.push(tf);
    }
    let n = units.len() as f32;
    for (u, tf) in units.iter_mut().zip(tfs) {
        let mut v: Vec<(u32, f32)> = tf
            .into_iter()
            .map(|(id, f)| (id, f * (1.0 + n / df[id as usize] as f32).ln()))
            .collect();
        crate::order::sort_by_key(&mut v, |x| x.0);
        let norm = v.iter().map(|x| x.1 * x.1).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| x.1 /= norm);
        }
        u.vec = v;
    }
}

/// The chosen units of one section (indices into `units`, document order).
fn pick(units: &[Unit], idx: &[usize], per_section: usize) -> Vec<usize> {
    let long: Vec<usize> = idx
        .iter()
        .copied()
        .filter(|&i| units[i].words >= MIN_WORDS && !units[i].text.starts_with('|'))
        .collect();
    let pool = if long.is_empty() { idx.to_vec() } else { long };
    let mut centroid: HashMap<u32, f32> = HashMap::new();
    for &i in &pool {
        for &(id, w) in &units[i].vec {
            *centroid.entry(id).or_insert(0.0) += w;
        }
    }
    let others = (pool.len().max(2) - 1) as f32;
    let mut scored: Vec<(f32, usize)> = pool
        .iter()
        .map(|&i| {
            let v = &units[i].vec;
            let dot: f32 = v
                .iter()
                .map(|&(id, w)| w * centroid.get(&id).copied().unwrap_or(0.0))
                .sum();
            let self_sim: f32 = v.iter().map(|x| x.1 * x.1).sum();
            ((dot - self_sim) / others, i)
        })
        .collect();
    crate::order::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<usize> = scored.iter().take(per_section).map(|x| x.1).collect();
    crate::order::sort(&mut chosen);
    chosen
}
