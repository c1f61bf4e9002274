//! Lines to paragraphs, headings and list items.
//!
//! A PDF has no paragraph marks; typesetting shows a paragraph's end by (a) extra
//! space before the next line, (b) a first-line indent of the next, (c) a last line
//! that stops short of the column's right edge after a sentence, and (d) a change of
//! type size or weight (a heading). Lines between such signs are one paragraph.

use std::collections::BTreeMap;

use crate::error::ConvertError;
use crate::model::{Block, Paragraph, ParagraphKind, Table};
use crate::read::budget;

use super::headings::{Outline, Sizes};
use super::inlines::{Builder, first_char, last_char};
use super::lines::Line;
use super::lists::{self, Levels};
use super::order::median;
use super::tags::Role;

/// A gap between baselines wider than this many times the usual line spacing ends a
/// paragraph (paragraph spacing is at least half a line; leading jitters by 10%).
const GAP: f32 = 1.4;

/// An indent (in ems) that marks a line start as a new paragraph.
const INDENT: f32 = 0.5;

/// The usual baseline distance of a document's lines, in ems, when it shows none.
const DEFAULT_SPACING: f32 = 1.2;

/// One piece of a page in reading order: the lines of (part of) a column, or a table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seg {
    Lines(Vec<Line>),
    Table(Table),
}

/// What paragraph building needs besides the lines.
pub(crate) struct Ctx<'a> {
    pub sizes: &'a Sizes,
    pub outline: &'a mut Outline,
    /// The page number.
    pub page: u32,
    /// The usual line spacing of the document, in ems ([`spacing`]).
    pub spacing: f32,
    /// Note markers of the page (marker text -> note id), each used once.
    pub markers: &'a mut BTreeMap<String, String>,
    /// Whether the document's structure tree tags headings (`super::tags`).
    pub tagged_headings: bool,
}

/// Whether two sizes are one (within 8% and half a unit).
pub(crate) fn same_size(a: f32, b: f32) -> bool {
    (a - b).abs() <= (0.08 * a.max(b)).max(0.5)
}

/// The usual line spacing of `segs` in ems: the median distance between consecutive
/// baselines of one size, over at most 3 em (larger gaps are between paragraphs).
pub(crate) fn spacing<'a>(segs: impl Iterator<Item = &'a Seg>) -> f32 {
    let mut ems = Vec::new();
    for s in segs {
        if let Seg::Lines(lines) = s {
            for w in lines.windows(2) {
                if let [p, n] = w
                    && same_size(p.size, n.size)
                    && p.size > 0.0
                {
                    let d = (n.base - p.base) / p.size;
                    if d > 0.5 && d <= 3.0 {
                        ems.push(d);
                    }
                }
            }
        }
    }
    if ems.is_empty() {
        DEFAULT_SPACING
    } else {
        median(ems)
    }
}

/// The edges of a column segment.
#[derive(Clone, Copy)]
struct Geo {
    left: f32,
    right: f32,
}

/// The paragraph being gathered.
struct Open<'a> {
    lines: Vec<&'a Line>,
    /// The x of its list marker, when its first line opens with one.
    marker_x: Option<f32>,
    /// The segment its last line came from.
    seg: usize,
}

/// Builds the page's blocks from its segments, in order.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget.
pub(crate) fn blocks(segs: &[Seg], ctx: &mut Ctx<'_>) -> Result<Vec<Block>, ConvertError> {
    let mut out = Vec::new();
    let mut levels = Levels::default();
    let mut open: Option<(Open<'_>, Geo)> = None;
    for (si, seg) in segs.iter().enumerate() {
        let lines = match seg {
            Seg::Table(t) => {
                close(open.take(), ctx, &mut levels, &mut out)?;
                budget::take(1)?;
                out.push(Block::Table(t.clone()));
                continue;
            }
            Seg::Lines(lines) => lines,
        };
        let Some(geo) = geometry(lines) else {
            continue;
        };
        for n in lines {
            let hit = ctx.outline.peek(ctx.page, &n.text()).is_some();
            let tagged = open
                .as_ref()
                .and_then(|(o, _)| o.lines.last()?.block())
                .zip(n.block());
            let go_on = match open.as_ref() {
                // A tagged PDF says which lines are one paragraph (ISO 32000-2,
                // 14.8.4): lines of one block element go on, of two do not.
                Some(_) if !hit && tagged.is_some() => tagged.is_some_and(|(a, b)| a.id == b.id),
                Some((o, g)) if !hit => {
                    if o.seg == si {
                        continues(o, n, *g, ctx)
                    } else {
                        carries(o, n, *g, geo)
                    }
                }
                _ => false,
            };
            if go_on {
                if let Some((o, g)) = open.as_mut() {
                    o.lines.push(n);
                    o.seg = si;
                    *g = geo;
                }
                continue;
            }
            close(open.take(), ctx, &mut levels, &mut out)?;
            let marker_x = lists::marker(&n.text()).map(|_| n.x0);
            let o = Open {
                lines: vec![n],
                marker_x,
                seg: si,
            };
            open = Some((o, geo));
            if hit {
                // An outline title is a paragraph of its own.
                close(open.take(), ctx, &mut levels, &mut out)?;
            }
        }
    }
    close(open.take(), ctx, &mut levels, &mut out)?;
    Ok(out)
}

fn geometry(lines: &[Line]) -> Option<Geo> {
    let left = lines.iter().map(|l| l.x0).fold(f32::INFINITY, f32::min);
    let right = lines.iter().map(|l| l.x1).fold(f32::NEG_INFINITY, f32::max);
    (left.is_finite() && right.is_finite()).then_some(Geo { left, right })
}

/// Whether a line ends a sentence or introduces what follows (closing quotes and
/// brackets after the stop looked through).
fn terminal(line: &Line) -> bool {
    let text = line.text();
    let end = text
        .chars()
        .rev()
        .find(|c| !matches!(c, ')' | ']' | '"' | '\'' | '”' | '’' | '»' | '」' | '』'));
    end.is_some_and(|c| matches!(c, '.' | '!' | '?' | ':' | '。' | '！' | '？' | '：'))
}

/// Whether line `n` goes on the open paragraph within one column.
fn continues(o: &Open<'_>, n: &Line, g: Geo, ctx: &Ctx<'_>) -> bool {
    let Some(&p) = o.lines.last() else {
        return false;
    };
    let em = p.size.max(n.size);
    if !same_size(p.size, n.size) || p.all_bold() != n.all_bold() {
        return false;
    }
    if super::inlines::leader_entry(&p.text()) {
        return false;
    }
    if n.base - p.base > GAP * ctx.spacing * em {
        return false;
    }
    let n_text = n.text();
    let short = p.x1 < g.right - (4.0 * em).max(0.15 * (g.right - g.left));
    if let Some(m) = lists::marker(&n_text) {
        // A bullet always opens an item; a number only where a list can go on
        // (a wrapped sentence may put "3. Then" at a line start).
        if !m.ordered || o.marker_x.is_some() || short || terminal(p) {
            return false;
        }
    }
    if let Some(mx) = o.marker_x {
        // An item's wrapped lines hang under its text, or come back to the marker
        // when the line before was full.
        return n.x0 >= mx + INDENT * em || ((n.x0 - mx).abs() <= INDENT * em && !short);
    }
    if n.x0 > p.x0 + INDENT * em {
        return false;
    }
    if n.x0 < p.x0 - INDENT * em && o.lines.len() >= 2 {
        return false;
    }
    !(short && terminal(p))
}

/// Whether line `n`, first of a new column, carries on the paragraph that ended the
/// last column (geometry `g`): a full last line without a sentence end, and a first
/// line at its column's margin going on in lower case (or finishing a broken word).
fn carries(o: &Open<'_>, n: &Line, g: Geo, next: Geo) -> bool {
    let Some(&p) = o.lines.last() else {
        return false;
    };
    let em = p.size.max(n.size);
    let full = p.x1 >= g.right - 2.0 * em;
    let lower = first_char(n).is_some_and(char::is_lowercase);
    same_size(p.size, n.size)
        && p.all_bold() == n.all_bold()
        && full
        && lower
        && !terminal(p)
        && (n.x0 - next.left).abs() <= INDENT * em
        && lists::marker(&n.text()).is_none()
}

/// Turns a gathered paragraph into a block.
fn close(
    open: Option<(Open<'_>, Geo)>,
    ctx: &mut Ctx<'_>,
    levels: &mut Levels,
    out: &mut Vec<Block>,
) -> Result<(), ConvertError> {
    let Some((o, _)) = open else {
        return Ok(());
    };
    let Some(&first) = o.lines.first() else {
        return Ok(());
    };
    budget::take(1 + o.lines.len() as u64)?;
    let mut b = Builder::default();
    let mut prev: Option<&Line> = None;
    for &l in &o.lines {
        if let Some(p) = prev {
            b.join(last_char(p), l);
        }
        b.line(l, ctx.markers);
        prev = Some(l);
    }
    let plain = b.plain.clone();
    if plain.is_empty() && o.lines.iter().all(|l| l.text().is_empty()) {
        return Ok(());
    }
    let bold = o.lines.iter().all(|l| l.all_bold());
    let marker = lists::marker(&plain);
    let by_size = ctx.sizes.level(first.size, bold, o.lines.len(), &plain);
    // A bullet line in bold is an item, not a heading; a larger size is a heading.
    let bullet_wins = marker.is_some_and(|m| !m.ordered) && same_size(first.size, ctx.sizes.body);
    // A contents entry repeats a heading's words in the heading's type, but it is a
    // pointer to the heading (its page follows the leader), not the heading: taken
    // as one, every contents line would open a section of its own.
    let entry = super::inlines::leader_entry(&plain);
    // A tagged heading has its level; where the tree tags headings, a block it
    // tags as something else is not one, whatever its type size.
    let block = first.block();
    let tagged = block.and_then(|b| match b.role {
        Role::Heading(level) => Some(level),
        _ => None,
    });
    let by_size = by_size.filter(|_| !(ctx.tagged_headings && block.is_some()));
    let heading = ctx
        .outline
        .take(ctx.page, &plain)
        .or(tagged)
        .or(by_size.filter(|_| !bullet_wins))
        .filter(|_| !entry);
    let (kind, skip) = match (heading, marker) {
        (Some(level), _) => {
            levels.reset();
            (ParagraphKind::Heading(level), 0)
        }
        (None, Some(m)) => {
            let level = levels.level(first.x0, first.size);
            let kind = ParagraphKind::ListItem {
                ordered: m.ordered,
                level,
                number: m.number,
            };
            (kind, m.len)
        }
        (None, None) => {
            levels.reset();
            (ParagraphKind::Normal, 0)
        }
    };
    let inlines = b.finish(skip);
    if !inlines.is_empty() {
        out.push(Block::Paragraph(Paragraph { kind, inlines }));
    }
    Ok(())
}
