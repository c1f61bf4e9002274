//! One paragraph (ECMA-376 Part 1, 17.3.1.22 `w:p`): its role from style, outline level
//! and numbering, its inline content, and the blocks that go around it (a page break
//! before, text box content and a section break after).
//!
//! Role, in order: a direct or style outline level 0..=8 makes a heading (level + 1);
//! the `Title` style makes a title; a numbering reference (direct `w:numPr` or through
//! the style, 17.9.23) makes a list item. A numbered heading stays a heading and gets
//! its rendered label (`1.2`, `一`) prepended to its text; list items carry their
//! counted number instead. Headings and titles do not inherit their style's run
//! formatting (a heading style's bold is how headings look, not emphasis).
//!
//! A deleted paragraph mark (17.13.5.15) ends the paragraph with a deletion holding
//! `¶` (so the change and its author stay visible) and the next paragraph of the same
//! container runs on in it, as the text reads once the change is accepted; the joined
//! paragraph takes the role of the later one (whose mark remains). A
//! paragraph whose text is all deleted (or empty) goes away whole on acceptance: it
//! stays a paragraph of its own, its deleted runs already say so.

use crate::error::ConvertError;
use crate::model::{Block, Inline, Paragraph, ParagraphKind, RevisionKind, TextStyle};

use crate::read::pagefit::{Face, ParaMetrics};

use super::ctx::Ctx;
use super::inlines::Inl;
use super::layout_props::LayoutProps;
use super::pages::{Mark, Since, page_break, paragraph_end};
use super::ppr::{ParaProps, read_ppr};
use super::runs::inline_element;
use super::xml::{Ev, Ns, Start, Xml};
use crate::read::pagefit::{Measure, ParaMeasure, What};

/// Reads a `w:p` whose start `p` was just returned, pushing its blocks to `out`.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_paragraph(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    p: &Start<'_>,
    out: &mut Vec<Block>,
) -> Result<(), ConvertError> {
    let para_id = p.attr_ns(Ns::MsWord, "paraId").map(str::to_string);
    // Taken first: a text box inside this paragraph holds paragraphs of its own.
    let join = std::mem::take(&mut cx.join_next);
    let id = cx.id();
    let mut inl = Inl::new(id);
    for a in std::mem::take(&mut cx.pending) {
        inl.push(a);
    }
    let mut props = ParaProps::default();
    let mut kind = None;
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "pPr") => {
                if kind.is_none() {
                    props = read_ppr(x)?;
                    kind = Some(resolve_kind(cx, &props, &mut inl));
                } else {
                    x.skip()?;
                }
            }
            Ev::Start(s) => {
                if kind.is_none() {
                    kind = Some(resolve_kind(cx, &props, &mut inl));
                }
                inline_element(x, cx, &mut inl, &s)?;
            }
            Ev::End | Ev::Eof => break,
            Ev::Text(_) => {}
        }
    }
    let (kind, label) = match kind {
        Some(k) => k,
        None => resolve_kind(cx, &props, &mut inl),
    };
    let visible = inl.visible_since_break();
    let run_font = (inl.max_font, inl.plain_run);
    let (image_height, face) = (inl.image_height, inl.face);
    let (mut inlines, after, break_before) = inl.finish();
    let mark_deleted = props.mark_deleted.as_ref().filter(|_| keeps_text(&inlines));
    if let Some(label) = label.filter(|l| !l.is_empty()) {
        inlines.insert(
            0,
            Inline::Text {
                text: format!("{label} "),
                style: TextStyle::default(),
            },
        );
    }
    if break_before {
        out.push(Block::PageBreak);
    }
    paragraph_end(cx, visible);
    if let Some(del) = mark_deleted {
        inlines.push(Inline::Revision {
            kind: RevisionKind::Deletion,
            author: del.author.clone(),
            date: del.date.clone(),
            children: vec![Inline::Text {
                text: "\u{b6}".into(),
                style: TextStyle::default(),
            }],
        });
    }
    if cx.counts_pages() {
        let joins = join && !break_before && matches!(out.last(), Some(Block::Paragraph(_)));
        let looks = Looks {
            run_font,
            face,
            images: image_height,
        };
        let at = cx.block_base + out.len();
        measure(cx, &props, &inlines, looks, at, inlines.is_empty() || joins);
    }
    if !inlines.is_empty() {
        match out.last_mut() {
            Some(Block::Paragraph(prev)) if join && !break_before => {
                // The joined paragraph ends in this one's mark, which carries the
                // paragraph properties: its kind is this one's (a heading whose mark
                // was deleted does not swallow the body text after it as a heading).
                prev.kind = kind;
                join_inlines(prev, inlines);
            }
            _ => out.push(Block::Paragraph(Paragraph { kind, inlines })),
        }
    }
    cx.join_next = mark_deleted.is_some() && after.is_empty() && props.sect.is_none();
    out.extend(after);
    if let Some(sect) = props.sect {
        if cx.main && cx.textbox == 0 {
            cx.end_section(sect);
            out.push(Block::SectionBreak { new_page: false });
            cx.since = Since::Section;
        }
    }
    cx.last_para_id = para_id;
    Ok(())
}

/// What the runs of a paragraph tell the page estimate.
struct Looks {
    /// The largest size a run sets (half-points, 0 = none) and whether a run takes
    /// the style's size.
    run_font: (u16, bool),
    /// The first run's face that names one.
    face: Option<Face>,
    /// Drawing heights, twips.
    images: u32,
}

/// Measures a paragraph of the main story for the page estimate (`estimate.rs`): into
/// the table cell being read, or as the top-level block at `at` (`blank`: no block
/// was made for it).
#[inline(never)]
fn measure(
    cx: &mut Ctx<'_, '_>,
    props: &ParaProps,
    inlines: &[Inline],
    looks: Looks,
    at: usize,
    blank: bool,
) {
    let style = props.style.as_deref();
    if cx.tables > 0 {
        let table = cx.table_style;
        let layout = cx
            .styles
            .paragraph_layout_in(style, table)
            .then(props.layout);
        let m = measured(layout, looks.run_font, looks.face);
        cx.table.paragraph(inlines, &m, looks.images);
    } else {
        let layout = cx.styles.paragraph_layout(style).then(props.layout);
        cx.measures.push(Measure {
            at,
            what: What::Para(ParaMeasure {
                metrics: measured(layout, looks.run_font, looks.face),
                blank,
                images: looks.images,
                keep_lines: layout.keep_lines.unwrap_or(false),
                contextual: layout.contextual.unwrap_or(false),
                style: style_key(style),
            }),
        });
    }
}

/// The metrics of a paragraph: its layout properties; its font size the largest its
/// runs set (`run_font`: that size in half-points, 0 = none, and whether a run takes
/// the style's size, which then counts too); its face the first run's that names one.
fn measured(layout: LayoutProps, run_font: (u16, bool), face: Option<Face>) -> ParaMetrics {
    let mut m = layout.metrics();
    m.font = match run_font {
        (0, _) => m.font,
        (own, false) => own,
        (own, true) => own.max(m.font),
    };
    m.face = face.unwrap_or(m.face);
    m
}

/// A key telling paragraph styles apart (contextual spacing, 17.3.1.9).
fn style_key(style: Option<&str>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    style.hash(&mut h);
    h.finish()
}

/// Appends `inlines` to the paragraph whose mark was deleted. A revision that opens
/// them and matches the mark's deletion (kind, author, date) continues it: Word shows
/// `¶` and the deleted text after it as one change.
fn join_inlines(prev: &mut Paragraph, inlines: Vec<Inline>) {
    let mut rest = inlines.into_iter().peekable();
    if let (
        Some(Inline::Revision {
            kind,
            author,
            date,
            children,
        }),
        Some(Inline::Revision {
            kind: k,
            author: a,
            date: d,
            ..
        }),
    ) = (prev.inlines.last_mut(), rest.peek())
    {
        if kind == k && author == a && date == d {
            if let Some(Inline::Revision { children: more, .. }) = rest.next() {
                children.extend(more);
            }
        }
    }
    prev.inlines.extend(rest);
}

/// Some text of `inlines` is not a tracked deletion (or the source side of a move).
fn keeps_text(inlines: &[Inline]) -> bool {
    inlines.iter().any(|i| match i {
        Inline::Revision {
            kind: RevisionKind::Deletion | RevisionKind::MoveFrom,
            ..
        } => false,
        _ => {
            let mut s = String::new();
            i.plain_text(&mut s);
            !s.trim().is_empty()
        }
    })
}

/// Decides the paragraph's role (and heading label), sets the run base of `inl`, and
/// applies `w:pageBreakBefore` when page breaks are counted from the file.
fn resolve_kind(
    cx: &mut Ctx<'_, '_>,
    props: &ParaProps,
    inl: &mut Inl,
) -> (ParagraphKind, Option<String>) {
    let style = cx.styles.paragraph(props.style.as_deref());
    let outline = props.outline.or(style.outline).filter(|l| *l < 9);
    // Direct numPr wins; numId 0 removes numbering (17.9.18).
    let num = props.num.clone().or_else(|| style.num.clone());
    let mut item = None;
    if let Some(n) = &num {
        if let Some(num_id) = n.num_id.as_deref().filter(|id| *id != "0") {
            let level = n.level.or_else(|| {
                let sid = props.style.as_deref().or(cx.styles.default_paragraph())?;
                cx.numbering.level_of_style(num_id, sid, &cx.styles)
            });
            item = cx
                .numbering
                .next_item(num_id, level.unwrap_or(0), &cx.styles);
        }
    }
    let pbb = props.page_break_before.unwrap_or(style.page_break_before);
    if pbb {
        page_break(cx, inl, Mark::Before);
    }
    let heading = outline.is_some() || style.title;
    inl.base = if heading {
        cx.styles.defaults()
    } else {
        style.run
    };
    if let Some(level) = outline {
        let label = item.filter(|i| i.ordered).map(|i| i.label);
        return (ParagraphKind::Heading(level + 1), label);
    }
    if style.title {
        return (ParagraphKind::Title, None);
    }
    match item {
        Some(i) => (
            ParagraphKind::ListItem {
                ordered: i.ordered,
                level: i.level,
                number: i.number,
            },
            None,
        ),
        None => (ParagraphKind::Normal, None),
    }
}
