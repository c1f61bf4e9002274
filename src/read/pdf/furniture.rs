//! Running headers and footers: the lines a page layout repeats in its top and
//! bottom margins (a journal name, a chapter title, "Page 3 of 12"). Every page of a
//! typeset document carries them; they say nothing about the page's content, and
//! read as body text they would cut through paragraphs that run across pages.
//!
//! This mirrors `read::text::furniture` (kept private to the text reader): a line's
//! shape is its text with each run of digits made `#`, so "Page 3" and "Page 7" are
//! one shape, and occurrences of one shape may differ in one number only. Unlike
//! plain text, a PDF says where a line sits, so only fragments in the top or bottom
//! [`BAND`] of a page vote, and several of them may repeat (a title left, a page
//! number right).

use std::collections::{BTreeMap, BTreeSet};

use super::lines::Frag;
use crate::read::running::{one_number_varies, shape};

/// Share of the page height at its top and at its bottom where running lines sit
/// (page margins are 5 to 8% of an A4 or Letter page).
const BAND: f32 = 0.08;

/// A shape is running when it stands on at least this share of the pages with text.
const MIN_SHARE: f32 = 0.5;

/// Which margin a running line sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Zone {
    Top,
    Bottom,
}

/// One page's fragments and its height, as furniture detection sees them.
pub(crate) struct PageFrags<'a> {
    pub frags: &'a [Frag],
    pub height: f32,
}

/// What the pages repeat.
#[derive(Debug, Default)]
pub(crate) struct Furniture {
    /// Per page, per fragment: whether it is furniture (dropped from the body).
    pub drop: Vec<Vec<bool>>,
    /// Header lines with a letter, as the first page that has each writes it, in
    /// page order then top to bottom, left to right.
    pub header: Vec<String>,
    /// Footer lines, likewise.
    pub footer: Vec<String>,
}

/// The zone of a fragment on a page `height` units tall, if it is in one.
fn zone(f: &Frag, height: f32) -> Option<Zone> {
    if f.top < BAND * height {
        Some(Zone::Top)
    } else if f.bottom > (1.0 - BAND) * height {
        Some(Zone::Bottom)
    } else {
        None
    }
}

/// Finds the running lines of `pages`.
pub(crate) fn find(pages: &[PageFrags<'_>]) -> Furniture {
    let mut f = Furniture {
        drop: pages.iter().map(|p| vec![false; p.frags.len()]).collect(),
        ..Furniture::default()
    };
    let with_text = pages.iter().filter(|p| !p.frags.is_empty()).count();
    if with_text < 2 {
        return f;
    }
    // (zone, shape) -> the (page, fragment) pairs that have it. A BTreeMap keeps the
    // result independent of hashing; the count per page is deduplicated below.
    let mut seen: BTreeMap<(Zone, String), Vec<(usize, usize)>> = BTreeMap::new();
    let mut texts: Vec<Vec<String>> = Vec::with_capacity(pages.len());
    for (pi, p) in pages.iter().enumerate() {
        let mut page_texts = Vec::with_capacity(p.frags.len());
        for (fi, fr) in p.frags.iter().enumerate() {
            let text = match zone(fr, p.height) {
                Some(_) => fr.text(),
                None => String::new(),
            };
            if let Some(z) = zone(fr, p.height)
                && !text.is_empty()
            {
                seen.entry((z, shape(&text))).or_default().push((pi, fi));
            }
            page_texts.push(text);
        }
        texts.push(page_texts);
    }
    let mut found: Vec<(Zone, usize, f32, f32, String)> = Vec::new();
    for ((z, sh), hits) in &seen {
        let pages_on: BTreeSet<usize> = hits.iter().map(|h| h.0).collect();
        if pages_on.len() < 2 || (pages_on.len() as f32) < MIN_SHARE * with_text as f32 {
            continue;
        }
        let hit_texts: Vec<&str> = hits
            .iter()
            .filter_map(|&(p, i)| texts.get(p).and_then(|t| t.get(i)).map(String::as_str))
            .collect();
        if !one_number_varies(hit_texts.iter().copied()) {
            continue;
        }
        for &(p, i) in hits {
            if let Some(d) = f.drop.get_mut(p).and_then(|d| d.get_mut(i)) {
                *d = true;
            }
        }
        // A bare page number ("#", "- # -") is dropped but makes no part: it says
        // nothing a reader of the part would want.
        if sh.chars().any(char::is_alphabetic)
            && let Some(&(p, i)) = hits.first()
            && let Some(fr) = pages.get(p).and_then(|pg| pg.frags.get(i))
        {
            let text = hit_texts
                .first()
                .map_or(String::new(), |t| (*t).to_string());
            found.push((*z, p, fr.top, fr.x0, text));
        }
    }
    found.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
            .then(a.3.total_cmp(&b.3))
    });
    for (z, _, _, _, text) in found {
        match z {
            Zone::Top => f.header.push(text),
            Zone::Bottom => f.footer.push(text),
        }
    }
    f
}
