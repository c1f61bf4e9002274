//! Runs to fragments and lines.
//!
//! A PDF draws text as runs placed anywhere in any order; nothing in the file says
//! which runs form a line or where words end (ISO 32000-2 9.4: text positioning is
//! absolute). What a reader sees as a line is runs whose glyph boxes share one band
//! of height; a word break is horizontal white space wider than the gaps between
//! letters. A [`Frag`] is a piece of a line with no wide gap in it (the part of a
//! line in one column or one table cell); a [`Line`] is the fragments of one
//! baseline within one column of the page.

use super::bidi::{self, Dir};
use super::runs::Run;
use super::tags::Block;
use crate::read::running::collapse;

/// A gap wider than this share of the font size is a word space. The space glyph of
/// text fonts is 0.25 to 0.33 em and justification squeezes it to about 0.2 em, while
/// letters of one word sit less than 0.1 em apart even when tracked.
const WORD_GAP: f32 = 0.2;

/// A gap wider than this share of the font size splits a line into fragments: wider
/// than any word space of justified text, narrower than a column gutter or the
/// space between table columns.
pub(crate) const FRAG_GAP: f32 = 1.0;

/// Two runs within this distance (units) with the same text are one glyph drawn
/// twice: "fake bold", which PDF producers make by overprinting a run offset by a
/// fraction of a unit.
const FAKE_BOLD: f32 = 1.0;

/// A run smaller than this share of its line's size is set in a script size.
const SCRIPT_SIZE: f32 = 0.85;

/// A piece of a line without a wide gap: runs sorted left to right.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frag {
    pub runs: Vec<Run>,
    /// The baseline group (line of the page) it came from.
    pub group: usize,
    pub x0: f32,
    pub x1: f32,
    pub top: f32,
    pub bottom: f32,
    /// The baseline of its dominant run.
    pub base: f32,
    /// The size most of its characters are set in.
    pub size: f32,
}

/// A run of a fragment with the space before it and its script position decided.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Piece<'a> {
    pub text: &'a str,
    pub space_before: bool,
    pub bold: bool,
    pub italic: bool,
    /// Smaller and raised: a superscript (note markers, exponents).
    pub sup: bool,
    /// Smaller and lowered.
    pub sub: bool,
}

/// The fragments of one baseline within one column, left to right.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub frags: Vec<Frag>,
    pub x0: f32,
    pub x1: f32,
    pub base: f32,
    pub size: f32,
}

/// Whether a character belongs to a script written without spaces between words
/// (Chinese, Japanese). Korean Hangul is left out: Korean spaces its words.
pub(crate) fn no_space_script(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x2FFFF)
}

/// Whether two glyph bands share at least half of the smaller one's height: runs on
/// one line do (super- and subscripts included), runs of neighbouring lines do not,
/// since line spacing is at least the font size.
fn same_band(a: (f32, f32), b: (f32, f32)) -> bool {
    let overlap = a.1.min(b.1) - a.0.max(b.0);
    overlap >= 0.5 * (a.1 - a.0).min(b.1 - b.0)
}

/// Groups a page's runs into baseline groups, drops fake-bold duplicates, and splits
/// each group into fragments at wide gaps. Group numbers start at `first_group`.
pub(crate) fn fragments(mut runs: Vec<Run>, first_group: usize) -> Vec<Frag> {
    let center = |r: &Run| r.base - 0.3 * r.size;
    runs.sort_by(|a, b| center(a).total_cmp(&center(b)).then(a.x0.total_cmp(&b.x0)));
    let mut out = Vec::new();
    let mut group: Vec<Run> = Vec::new();
    // The band of the group's largest run: the line's own height.
    let mut band = (0.0f32, 0.0f32);
    let mut band_size = 0.0f32;
    let mut g = first_group;
    for r in runs {
        let rb = (r.top(), r.bottom());
        if !group.is_empty() && !same_band(band, rb) {
            split(std::mem::take(&mut group), g, &mut out);
            g += 1;
        }
        if group.is_empty() || r.size > band_size {
            band = rb;
            band_size = r.size;
        }
        group.push(r);
    }
    if !group.is_empty() {
        split(group, g, &mut out);
    }
    out
}

/// Sorts one baseline group, removes overprinted duplicates and cuts it at wide gaps.
fn split(mut group: Vec<Run>, g: usize, out: &mut Vec<Frag>) {
    group.sort_by(|a, b| a.x0.total_cmp(&b.x0).then(a.base.total_cmp(&b.base)));
    let mut kept: Vec<Run> = Vec::with_capacity(group.len());
    for r in group {
        // The copy lies within a unit of the original, so it is among the last few
        // runs kept in x order.
        let start = kept.len().saturating_sub(4);
        let dup = kept.get_mut(start..).and_then(|tail| {
            tail.iter_mut().find(|k| {
                k.text == r.text
                    && (k.x0 - r.x0).abs() < FAKE_BOLD
                    && (k.base - r.base).abs() < FAKE_BOLD
            })
        });
        match dup {
            // Overprinting is how the producer made the text look bold.
            Some(k) => k.bold = true,
            None => kept.push(r),
        }
    }
    let mut cur: Vec<Run> = Vec::new();
    let mut right = f32::NEG_INFINITY;
    for r in kept {
        let size = cur.last().map_or(r.size, |l| l.size.max(r.size));
        if !cur.is_empty() && r.x0 - right > FRAG_GAP * size {
            out.push(frag(std::mem::take(&mut cur), g));
            right = f32::NEG_INFINITY;
        }
        right = right.max(r.x1);
        cur.push(r);
    }
    if !cur.is_empty() {
        out.push(frag(cur, g));
    }
}

/// The size most characters of `runs` use (ties to the larger) and that run's
/// baseline.
fn dominant<'a>(runs: impl Iterator<Item = (&'a f32, &'a f32, usize)>) -> (f32, f32) {
    let mut tally: Vec<(f32, f32, usize)> = Vec::new();
    for (size, base, w) in runs {
        match tally.iter_mut().find(|t| (t.0 - size).abs() < 0.25) {
            Some(t) => t.2 += w.max(1),
            None => tally.push((*size, *base, w.max(1))),
        }
    }
    tally
        .into_iter()
        .max_by(|a, b| a.2.cmp(&b.2).then(a.0.total_cmp(&b.0)))
        .map_or((0.0, 0.0), |t| (t.0, t.1))
}

fn frag(runs: Vec<Run>, group: usize) -> Frag {
    let (size, base) = dominant(runs.iter().map(|r| (&r.size, &r.base, r.weight())));
    Frag {
        x0: runs.iter().map(|r| r.x0).fold(f32::INFINITY, f32::min),
        x1: runs.iter().map(|r| r.x1).fold(f32::NEG_INFINITY, f32::max),
        top: runs.iter().map(Run::top).fold(f32::INFINITY, f32::min),
        bottom: runs
            .iter()
            .map(Run::bottom)
            .fold(f32::NEG_INFINITY, f32::max),
        base,
        size,
        group,
        runs,
    }
}

impl Frag {
    /// The runs with word spaces and script positions decided.
    pub fn pieces(&self) -> Vec<Piece<'_>> {
        let mut out = Vec::with_capacity(self.runs.len());
        let mut right = f32::NEG_INFINITY;
        let mut last: Option<char> = None;
        for r in &self.runs {
            let first = r.text.chars().next();
            let gap = r.x0 - right;
            let cjk = last.is_some_and(no_space_script) && first.is_some_and(no_space_script);
            let spaced =
                last.is_some_and(char::is_whitespace) || first.is_some_and(char::is_whitespace);
            let small = r.size < SCRIPT_SIZE * self.size;
            out.push(Piece {
                text: &r.text,
                space_before: last.is_some() && gap > WORD_GAP * self.size && !cjk && !spaced,
                bold: r.bold,
                italic: r.italic,
                sup: small && r.base < self.base - 0.15 * self.size,
                sub: small && r.base > self.base + 0.1 * self.size,
            });
            right = right.max(r.x1);
            last = r.text.chars().last().or(last);
        }
        if self.runs.iter().any(|r| bidi::may_be_rtl(&r.text)) {
            out = reading_order(out);
        }
        out
    }

    /// The fragment's text, white space collapsed, ends trimmed.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for p in self.pieces() {
            if p.space_before {
                s.push(' ');
            }
            s.push_str(p.text);
        }
        collapse(&s)
    }

    /// Whether every run with text is bold.
    pub fn all_bold(&self) -> bool {
        self.runs.iter().all(|r| r.bold)
    }
}

/// `pieces` (left to right as seen) in the order they are read: reordered by
/// [`bidi::reading_order`] when some are right-to-left. A word space stays between
/// the two pieces it separated; two pieces that were not neighbours (at the edges of
/// an embedded sequence) are spaced when any piece between them was.
fn reading_order(pieces: Vec<Piece<'_>>) -> Vec<Piece<'_>> {
    let dirs: Vec<Dir> = pieces.iter().map(|p| bidi::dir(p.text)).collect();
    if !dirs.contains(&Dir::Rtl) {
        return pieces;
    }
    let all: String = pieces.iter().map(|p| p.text).collect();
    let base = if bidi::dir(&all) == Dir::Rtl {
        Dir::Rtl
    } else {
        Dir::Ltr
    };
    let order = bidi::reading_order(&dirs, base);
    let spaced: Vec<bool> = pieces.iter().map(|p| p.space_before).collect();
    let mut out: Vec<Piece<'_>> = Vec::with_capacity(pieces.len());
    let mut prev: Option<usize> = None;
    for &i in &order {
        let mut p = pieces[i];
        p.space_before = prev.is_some_and(|j| {
            let (a, b) = (i.min(j), i.max(j));
            spaced[a + 1..=b].iter().any(|s| *s)
        });
        out.push(p);
        prev = Some(i);
    }
    out
}

/// Groups a column's fragments into lines (one per baseline group), top to bottom.
pub(crate) fn lines(mut frags: Vec<Frag>) -> Vec<Line> {
    frags.sort_by(|a, b| a.group.cmp(&b.group).then(a.x0.total_cmp(&b.x0)));
    let mut out: Vec<Line> = Vec::new();
    let mut cur: Vec<Frag> = Vec::new();
    for f in frags {
        if cur.first().is_some_and(|c| c.group != f.group) {
            out.push(line(std::mem::take(&mut cur)));
        }
        cur.push(f);
    }
    if !cur.is_empty() {
        out.push(line(cur));
    }
    out.sort_by(|a, b| a.base.total_cmp(&b.base).then(a.x0.total_cmp(&b.x0)));
    out
}

fn line(frags: Vec<Frag>) -> Line {
    let weights: Vec<usize> = frags
        .iter()
        .map(|f| f.runs.iter().map(Run::weight).sum())
        .collect();
    let (size, base) = dominant(
        frags
            .iter()
            .zip(&weights)
            .map(|(f, w)| (&f.size, &f.base, *w)),
    );
    Line {
        x0: frags.iter().map(|f| f.x0).fold(f32::INFINITY, f32::min),
        x1: frags.iter().map(|f| f.x1).fold(f32::NEG_INFINITY, f32::max),
        base,
        size,
        frags,
    }
}

impl Line {
    /// The line's text: fragments joined by a space in reading order, white space
    /// collapsed.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self.read_frags().map(Frag::text).collect();
        collapse(&parts.join(" "))
    }

    /// The fragments in reading order: from the right in a line whose strong
    /// characters are mostly right-to-left (`bidi`), else from the left.
    pub fn read_frags(&self) -> Box<dyn Iterator<Item = &Frag> + '_> {
        let rtl = self.frags.len() > 1
            && self
                .frags
                .iter()
                .any(|f| f.runs.iter().any(|r| bidi::may_be_rtl(&r.text)))
            && bidi::dir(
                &self
                    .frags
                    .iter()
                    .flat_map(|f| &f.runs)
                    .map(|r| r.text.as_str())
                    .collect::<String>(),
            ) == Dir::Rtl;
        if rtl {
            Box::new(self.frags.iter().rev())
        } else {
            Box::new(self.frags.iter())
        }
    }

    /// Whether every run of the line is bold.
    pub fn all_bold(&self) -> bool {
        self.frags.iter().all(Frag::all_bold)
    }

    /// The tagged block most of the line's characters belong to (ties to the one
    /// met first, left to right); `None` when none of its runs is tagged.
    pub fn block(&self) -> Option<Block> {
        let mut tally: Vec<(Block, usize)> = Vec::new();
        for r in self.frags.iter().flat_map(|f| &f.runs) {
            let Some(b) = r.block else { continue };
            match tally.iter_mut().find(|t| t.0 == b) {
                Some(t) => t.1 += r.weight().max(1),
                None => tally.push((b, r.weight().max(1))),
            }
        }
        let best = tally.iter().map(|t| t.1).max()?;
        tally.into_iter().find(|t| t.1 == best).map(|t| t.0)
    }
}
