//! Sections as evidence: the section a question names by its heading, and the units a
//! section holds across chunks.
//!
//! A question about a section ("what does the installation guide advise", "how does
//! the caching layer work") is answered by the section as a whole,
//! whose words mostly do not repeat the question's; the heading does. A heading is
//! named when the question holds most of its weight (IDF squared, so "a" and "on"
//! hardly count) and at least two of its terms, or one when the question says
//! "section" or "chapter". A section runs from its heading to the next heading of the
//! same or a higher level (CommonMark ATX levels, `#` to `######`), across chunks.

use std::collections::HashSet;

use super::analyze::{Analysis, STOP, terms_of};
use super::fill::UnitRef;
use super::pool::{Place, Pool};
use super::units::{UnitKind, level};
use crate::query::collection::Collection;
use crate::retrieve::tokenize::tokenize;

/// Share of a heading's weight the question must hold for the heading to be named.
pub const HEADING_COVERAGE: f64 = 0.7;
/// Chunks a section is followed into, at most (a section longer than this is far
/// beyond any budget).
pub const SECTION_CHUNKS: usize = 48;
/// Chunks searched back for the heading of the section a unit is in.
pub const HEADING_LOOKBACK: usize = 12;

/// How the question names heading `text`: (weight of the heading's terms the question
/// holds, that weight's share of the heading's, distinct terms held). Weights are IDF
/// squared over the collection.
pub fn heading_match(c: &Collection, a: &Analysis, text: &str) -> (f64, f64, usize) {
    // Function and question words ("what", "does", "it") name no section: a
    // heading written as a question ("What does it support?") is named by its
    // content words, as any other.
    let words: HashSet<String> = tokenize(text.trim_start_matches('#'))
        .into_iter()
        .filter(|w| !STOP.contains(&w.as_str()))
        .flat_map(|w| terms_of(&w))
        .collect();
    let asked: HashSet<&str> = a.terms.iter().map(String::as_str).collect();
    let (mut held, mut total, mut n) = (0.0, 0.0, 0usize);
    for w in &words {
        let idf = c.idf(w);
        total += idf * idf;
        if asked.contains(w.as_str()) {
            held += idf * idf;
            n += 1;
        }
    }
    let share = if total > 0.0 { held / total } else { 0.0 };
    (held, share, n)
}

/// The heading unit among the pool's candidates that the question names best, with
/// its match weight; None when no heading is named.
pub fn named_heading(c: &Collection, pool: &Pool, a: &Analysis) -> Option<UnitRef> {
    let mut best: Option<(f64, UnitRef)> = None;
    let min_terms = if a.section { 1 } else { 2 };
    for (&key, cand) in &pool.cands {
        if cand.place != Place::Body {
            continue;
        }
        let Some(text) = super::pool::chunk_text(c, key.0, key.1) else {
            continue;
        };
        for (i, u) in cand.units.units.iter().enumerate() {
            if u.kind != UnitKind::Heading {
                continue;
            }
            let (held, share, n) = heading_match(c, a, &text[u.start..u.end]);
            if n < min_terms || share < HEADING_COVERAGE {
                continue;
            }
            // The section's own evidence breaks near-ties between headings.
            let inside = cand
                .scores
                .iter()
                .skip(i + 1)
                .fold(0.0f64, |m, &s| m.max(s));
            let s = held * share + 0.25 * inside;
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, (key, i)));
            }
        }
    }
    best.map(|b| b.1)
}

/// The heading of the section unit `u` is in: the nearest heading unit before it, in
/// its chunk or the chunks before (body only). None before a document's first heading.
pub fn enclosing_heading(c: &Collection, pool: &mut Pool, u: UnitRef) -> Option<UnitRef> {
    let ((d, seq), i) = u;
    let mut s = seq;
    let mut upto = i + 1;
    loop {
        let cand = pool.ensure(c, d, s)?;
        if cand.place != Place::Body {
            return None;
        }
        let n = upto.min(cand.units.units.len());
        if let Some(h) = cand.units.units[..n]
            .iter()
            .rposition(|x| x.kind == UnitKind::Heading)
        {
            return Some(((d, s), h));
        }
        if s == 0 || seq - s >= HEADING_LOOKBACK {
            return None;
        }
        s -= 1;
        upto = usize::MAX;
    }
}

/// The units of the section headed by `heading`, in document order (the heading
/// first), with subsections, up to [`SECTION_CHUNKS`] chunks.
pub fn section_units(c: &Collection, pool: &mut Pool, heading: UnitRef) -> Vec<UnitRef> {
    let ((d, seq), h) = heading;
    let top = {
        let Some(text) = super::pool::chunk_text(c, d, seq) else {
            return Vec::new();
        };
        let Some(u) = pool.cands.get(&(d, seq)).and_then(|x| x.units.units.get(h)) else {
            return Vec::new();
        };
        level(&text[u.start..u.end]).max(1)
    };
    let mut out = vec![heading];
    let mut from = h + 1;
    for s in seq..seq + SECTION_CHUNKS {
        let Some(cand) = pool.ensure(c, d, s) else {
            break;
        };
        if cand.place != Place::Body {
            break;
        }
        let Some(text) = super::pool::chunk_text(c, d, s) else {
            break;
        };
        for (j, u) in cand.units.units.iter().enumerate().skip(from) {
            if u.kind == UnitKind::Heading {
                let l = level(&text[u.start..u.end]);
                if l > 0 && l <= top {
                    return out;
                }
            }
            out.push(((d, s), j));
        }
        from = 0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{heading_match, level};
    use crate::query::Collection;
    use crate::query::assemble::analyze;
    use crate::{ConvertOptions, convert};

    #[test]
    fn function_words_name_no_heading() {
        // "what", "does" and "it" are rare here and "support" common: by weight alone
        // the question's function words would hold most of the heading.
        let mut c = Collection::new();
        let docs = [
            (
                "a",
                "# What does it support?\n\nThe crate hoist supports loads.",
            ),
            ("b", "# Hoist\n\nSupport the load."),
            ("c", "# Rope\n\nSupport the rope."),
        ];
        for (id, text) in docs {
            let o = ConvertOptions::default().with_doc_id(id).unwrap();
            c.add(convert(text.as_bytes(), &o).unwrap()).unwrap();
        }
        let a = analyze("What does it cost to ship a crate?");
        let (held, _, n) = heading_match(&c, &a, "# What does it support?");
        assert_eq!((held, n), (0.0, 0));
        let b = analyze("Which loads does it support?");
        assert_eq!(heading_match(&c, &b, "# What does it support?").2, 1);
    }

    #[test]
    fn heading_levels() {
        assert_eq!(level("## Installing on Windows"), 2);
        assert_eq!(level("# Caching"), 1);
        assert_eq!(level("####### seven"), 0);
        assert_eq!(level("plain"), 0);
    }
}
