//! "What does each section say?": one statement per section of the document the
//! question is about, its heading and its opening sentence, in document order.
//!
//! The property this relies on: a section's heading names its topic and its first
//! sentence states it (writers open a section with what it is about), so a heading
//! with its opening is the shortest faithful account of a section, and the sections
//! in order are an account of the document.

use std::collections::HashMap;

use super::draft::{Draft, Line};
use super::facts::{quotable, states};
use super::phrase::fold;
use super::source::{BlockKind, Src};

/// Phrases (folded, word-padded) that ask for every section.
const EACH_SECTION: &[&str] = &[
    " each section",
    " every section",
    " each of its sections",
    " each of the sections",
    " all sections",
    " all the sections",
    " all of its sections",
    " section by section",
];

/// Most sections one answer gives.
const MAX_SECTIONS: usize = 24;

/// Whether `question` asks what each section of a document says.
pub fn asks_each_section(question: &str) -> bool {
    let q = format!(" {} ", fold(question));
    EACH_SECTION.iter().any(|p| q.contains(p))
}

/// Each section of the document `docs` rates highest among `srcs`, as "Heading:
/// opening sentence", in source order; an empty draft when the sources hold fewer
/// than two of its sections.
pub fn sections(srcs: &[Src], docs: &HashMap<String, f64>) -> Draft {
    let mut order: Vec<(&String, f64)> = docs.iter().map(|(t, s)| (t, *s)).collect();
    crate::order::sort_by(&mut order, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let Some((title, _)) = order.first() else {
        return Draft::default();
    };
    let mut lines: Vec<Line> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for s in srcs
        .iter()
        .filter(|s| &&s.title == title && s.part.is_empty())
    {
        for (bi, b) in s.blocks.iter().enumerate() {
            if b.kind != BlockKind::Heading || lines.len() >= MAX_SECTIONS {
                continue;
            }
            let heading = b.r.plain.trim();
            if heading.is_empty() || seen.iter().any(|h| h == heading) {
                continue;
            }
            // The opening: the first sentence after the heading, before the next one.
            let opening = s
                .units
                .iter()
                .filter(|u| u.block > bi)
                .take_while(|u| {
                    s.blocks
                        .get(u.block)
                        .is_some_and(|x| x.kind != BlockKind::Heading)
                })
                .find(|u| {
                    // A label ("Contents") names; a sentence states.
                    quotable(s, u) && states(&u.plain)
                });
            let Some(u) = opening else {
                continue;
            };
            seen.push(heading.to_string());
            lines.push(Line::new(format!("{heading}: {}", u.plain), s.number));
        }
    }
    if lines.len() < 2 {
        return Draft::default();
    }
    Draft {
        kind: "section",
        list: true,
        lines,
        score: 1.0,
        at: None,
    }
}
