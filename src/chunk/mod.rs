//! The chunker: document model -> token-bounded Markdown chunks + flat metadata.
//!
//! Pipeline, one module per step:
//! - `units.rs` walks each story (body, each header/footer, each note) in order and
//!   emits units (heading, paragraph, list item, code block, table row), tracking page
//!   and heading path; `flatten.rs` + `render.rs` turn inlines into Markdown with the
//!   revision and comment markup (`comments.rs`); `table.rs` renders tables;
//! - `builder.rs` packs units into chunks under `max_tokens` (info line included),
//!   splitting oversized units with `split.rs`;
//! - `info_line.rs` writes the first line, `meta.rs` the record (`keyphrases.rs`),
//!   `labels.rs` validates renames, `system_message.rs` explains the Markdown.
//!
//! Chunk order: body, then headers and footers (in part order; a header or footer
//! whose content is identical to an earlier one of the same kind is emitted once, its
//! first line listing every section and slot it serves), then footnotes, then
//! endnotes. Comments anchored nowhere come at the end of the body.

mod builder;
mod comments;
mod escape;
pub(crate) use escape::clip_words;
mod facts;
mod flatten;
mod info_line;
mod keyphrases;
pub mod labels;
mod meta;
mod paragraphs;
mod render;
mod split;
mod system_message;
mod table;
mod units;

pub use labels::{DEFAULT_LABELS, Label, Labels};
pub use system_message::{SYSTEM_MESSAGE, system_message};

use std::collections::HashMap;

use builder::{Draft, Packer};
use info_line::{InfoLines, Place};
use units::{Unit, Walker};

use crate::error::ConvertError;
use crate::metadata::Metadata;
use crate::model::{Document, NoteKind, PartKind, PartVariant};
use crate::names::NameFinder;
use crate::options::{ConvertOptions, MIN_MAX_TOKENS};

/// One chunk: Markdown text plus its metadata record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Chunk {
    /// The chunk's Markdown, starting with the chunk-information line.
    pub text: String,
    /// The flat metadata record.
    pub metadata: Metadata,
}

/// The line that introduces comments anchored nowhere in the document.
const LOOSE_COMMENTS: &str = "Comments not anchored in the text:";

/// One header/footer content, with every (section, slot) that uses it.
struct PartGroup {
    kind: PartKind,
    slots: Vec<(usize, PartVariant)>,
    units: Vec<Unit>,
}

/// Splits `doc` into chunks: Markdown text starting with the chunk-information line,
/// and a flat record per chunk (see `meta.rs` for the fields). `ssSeq` is the index in
/// the returned vector; chunks wholly outside `options.first_page..=last_page` are left
/// out. `finder` is called once per chunk with its plain text.
///
/// # Errors
/// [`ConvertError::InvalidOption`] for bad label renames or a caller field named like
/// a metadata field.
pub fn chunk_document(
    doc: &Document,
    doc_id: &str,
    title: &str,
    options: &ConvertOptions,
    finder: &dyn NameFinder,
) -> Result<Vec<Chunk>, ConvertError> {
    let labels = Labels::from_options(options)?;
    let max = options.max_tokens.max(MIN_MAX_TOKENS);
    let mut w = Walker::new(doc, max);

    let mut body = w.body(&doc.body)?;
    let pages = u64::from(w.last_page());
    if pages > options.limits.max_pages {
        return Err(ConvertError::TooManyElements {
            what: "pages".into(),
            limit: options.limits.max_pages,
        });
    }
    let mut loose = w.book.unanchored();

    let mut groups: Vec<PartGroup> = Vec::new();
    let mut seen: HashMap<(bool, String), usize> = HashMap::new();
    for part in &doc.parts {
        let units = w.part(part);
        if units.is_empty() {
            continue;
        }
        let key = (
            part.kind == PartKind::Header,
            units
                .iter()
                .map(|u| u.text.as_str())
                .collect::<Vec<_>>()
                .join("\n\n"),
        );
        match seen.get(&key) {
            Some(&g) => {
                if let Some(group) = groups.get_mut(g) {
                    group.slots.push((part.section, part.variant));
                }
            }
            None => {
                seen.insert(key, groups.len());
                groups.push(PartGroup {
                    kind: part.kind,
                    slots: vec![(part.section, part.variant)],
                    units,
                });
            }
        }
    }
    let mut footnotes = Vec::new();
    let mut endnotes = Vec::new();
    for note in &doc.notes {
        let units = w.note(note);
        match note.kind {
            NoteKind::Footnote => footnotes.extend(units),
            NoteKind::Endnote => endnotes.extend(units),
        }
    }
    loose.extend(w.book.leftovers());
    if !loose.is_empty() {
        body.extend(w.loose_comments(loose, LOOSE_COMMENTS));
    }

    let last_page = w.last_page();
    let mut hard_pages = Vec::new();
    if let Some(f) = options.first_page {
        hard_pages.push(f);
    }
    if let Some(l) = options.last_page {
        hard_pages.push(l.saturating_add(1));
    }
    let mut lines = InfoLines::new(&labels, title, &w.ctxs, max);
    lines.pagination = doc.pagination;
    let mut drafts: Vec<(&'static str, Draft)> = Vec::new();
    let pack = |units: Vec<Unit>,
                place: Place,
                kind: &'static str,
                out: &mut Vec<(&'static str, Draft)>| {
        let info = |ctx: usize, pages: (u32, u32)| lines.tallied_line(&place, ctx, pages);
        let mut packer = Packer::new(max, &w.tables, &info);
        packer.hard_pages = hard_pages.clone();
        out.extend(packer.pack(units).into_iter().map(|d| (kind, d)));
    };
    pack(body, Place::Body, "body", &mut drafts);
    for mut g in groups {
        let pages = g
            .slots
            .iter()
            .map(|(s, _)| w.section_pages.get(*s).copied().unwrap_or((1, last_page)))
            .fold((u32::MAX, 0), |(a, b), (c, d)| (a.min(c), b.max(d)));
        for u in &mut g.units {
            u.pages = pages;
        }
        let desc = describe_part(g.kind, &g.slots);
        let kind = match g.kind {
            PartKind::Header => "header",
            PartKind::Footer => "footer",
        };
        pack(g.units, Place::Part(&desc), kind, &mut drafts);
    }
    pack(footnotes, Place::Part("footnotes"), "footnote", &mut drafts);
    pack(endnotes, Place::Part("endnotes"), "endnote", &mut drafts);

    let first = options.first_page.unwrap_or(1);
    let last = options.last_page.unwrap_or(u32::MAX);
    let rc = meta::RecordCtx {
        labels: &labels,
        doc_id,
        title,
        ctxs: &w.ctxs,
        tables: &w.tables,
        finder,
        user_fields: &options.user_fields,
        pagination: doc.pagination,
    };
    if drafts.len() as u64 > options.limits.max_chunks {
        return Err(ConvertError::TooManyElements {
            what: "chunks".into(),
            limit: options.limits.max_chunks,
        });
    }
    let mut chunks = Vec::with_capacity(drafts.len());
    for (kind, draft) in drafts {
        if draft.pages.1 < first || draft.pages.0 > last {
            continue;
        }
        let metadata = meta::record(&rc, &draft, kind, chunks.len());
        chunks.push(Chunk {
            text: draft.text,
            metadata,
        });
    }
    Ok(chunks)
}

/// `header, sections 1-3 (default), section 1 (first page)` (sections 1-based).
fn describe_part(kind: PartKind, slots: &[(usize, PartVariant)]) -> String {
    let mut s = String::from(match kind {
        PartKind::Header => "header",
        PartKind::Footer => "footer",
    });
    for variant in [PartVariant::Default, PartVariant::First, PartVariant::Even] {
        let mut secs: Vec<usize> = slots
            .iter()
            .filter(|(_, v)| *v == variant)
            .map(|(s, _)| s + 1)
            .collect();
        if secs.is_empty() {
            continue;
        }
        crate::order::sort(&mut secs);
        secs.dedup();
        let mut ranges: Vec<String> = Vec::new();
        let mut i = 0;
        while i < secs.len() {
            let mut j = i;
            while j + 1 < secs.len() && secs[j + 1] == secs[j] + 1 {
                j += 1;
            }
            ranges.push(if i == j {
                secs[i].to_string()
            } else {
                format!("{}-{}", secs[i], secs[j])
            });
            i = j + 1;
        }
        let word = if secs.len() == 1 {
            "section"
        } else {
            "sections"
        };
        let slot = match variant {
            PartVariant::Default => "default",
            PartVariant::First => "first page",
            PartVariant::Even => "even pages",
        };
        s.push_str(&format!(", {word} {} ({slot})", ranges.join(", ")));
    }
    s
}
