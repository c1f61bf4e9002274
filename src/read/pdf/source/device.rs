//! A hayro [`Device`] that keeps what layout analysis reads: glyphs joined into text
//! runs, and straight axis-aligned path segments as ruling lines. Nothing is drawn.

use std::collections::HashMap;
use std::rc::Rc;

use hayro_interpret::font::{Glyph, GlyphRun};
use hayro_interpret::hayro_cmap::{BfString, CMap};
use hayro_interpret::hayro_syntax::object::Dict;
use hayro_interpret::kurbo::{Affine, BezPath, PathEl, Point};
use hayro_interpret::{
    BlendMode, ClipPath, Device, DrawMode, DrawProps, Image, ImageDrawProps, Paint, SoftMask,
};

use super::fonts::{self, CidUnicode, FontStyle};
use crate::read::pdf::bidi;
use crate::read::pdf::{Rule, TextRun};

/// Glyph advance assumed when a font gives none, in glyph-space units (1/1000 em).
const DEFAULT_ADVANCE: f64 = 500.0;

/// Nested marked-content sequences kept (real files nest a few levels).
const MAX_MARKED: usize = 1024;

/// What one page's interpretation collected.
#[derive(Default)]
pub(super) struct Collector {
    pub runs: Vec<TextRun>,
    pub rules: Vec<Rule>,
    /// Glyphs with no Unicode mapping (kept as U+FFFD).
    pub unmapped: usize,
    /// Runs and rules kept, against `cap`.
    items: u64,
    /// Most runs and rules one page may give; past it the rest of the page is
    /// ignored and `overflow` set (the caller turns it into a typed error).
    cap: u64,
    pub overflow: bool,
    cid: CidUnicode,
    open: Option<Open>,
    /// The page's marked-content ids claimed by the structure tree -> element index
    /// (`structure`); empty when the file is untagged.
    mcids: HashMap<i64, u32>,
    /// Marked-content sequences open (BMC/BDC ... EMC), each with its `/MCID`.
    marked: Vec<Option<i64>>,
    /// Sequences open beyond [`MAX_MARKED`], counted, not kept.
    marked_past: usize,
}

/// The run being extended.
struct Open {
    run: TextRun,
    /// Pen position after the last glyph, page space.
    end: Point,
    /// Pen position after the last glyph that is not white space: the run's width
    /// (measured along `dir`) ends there, since its trailing spaces are trimmed, so
    /// the gap to the next run (where a word space is found) keeps the space's width.
    ink_end: Point,
    /// Unit vector along the baseline, page space.
    dir: (f64, f64),
    /// The run's start (its first glyph's origin), page space.
    start: Point,
}

/// The length of `v` along unit vector `dir`, at least 0.
fn length_along(v: hayro_interpret::kurbo::Vec2, dir: (f64, f64)) -> f32 {
    (v.x * dir.0 + v.y * dir.1).max(0.0) as f32
}

impl Collector {
    /// A collector that keeps at most `cap` runs and rules, tagging runs with the
    /// structure elements `mcids` names.
    pub fn new(cap: u64, mcids: HashMap<i64, u32>) -> Self {
        Collector {
            cap,
            mcids,
            ..Collector::default()
        }
    }

    /// The structure element of the innermost marked-content sequence with an id.
    fn element(&self) -> Option<u32> {
        let mcid = self.marked.iter().rev().find_map(|m| *m)?;
        self.mcids.get(&mcid).copied()
    }

    /// Closes the open run (call once after the page is interpreted).
    pub fn finish(&mut self) {
        if let Some(open) = self.open.take() {
            let kept = open.run.text.trim_end().len();
            if kept > 0 {
                let mut run = open.run;
                run.text.truncate(kept);
                self.keep_run(run);
            }
        }
    }

    /// Whether one more run or rule fits under the cap (counting it if so).
    fn room(&mut self) -> bool {
        if self.items >= self.cap {
            self.overflow = true;
            return false;
        }
        self.items += 1;
        true
    }

    /// Keeps a finished run, its text in logical order: glyphs were joined in the
    /// order they sit left to right, which right-to-left text reads backwards
    /// (`bidi::logical`; the pdf.js source does the same for its items).
    fn keep_run(&mut self, mut run: TextRun) {
        if let std::borrow::Cow::Owned(text) = bidi::logical(&run.text) {
            run.text = text;
        }
        if self.room() {
            self.runs.push(run);
        }
    }

    fn keep_rule(&mut self, rule: Rule) {
        if self.room() {
            self.rules.push(rule);
        }
    }

    /// Adds glyph `g` drawn with `t` (glyph space, 1000 units per em, to page space
    /// with y downward). A glyph continues the open run when it sits on the same
    /// baseline, at most an em after the pen, in the same font and size; a gap wider
    /// than 0.15 em becomes a space (0.6 em between two CJK characters, since
    /// justified CJK text spreads its characters without meaning a word break).
    fn glyph(&mut self, g: &Glyph<'_>, t: Affine, style: &FontStyle, cmap: Option<&CMap>) {
        let c = t.as_coeffs();
        let origin = t * Point::ZERO;
        // The em size is the length of the glyph's vertical unit vector.
        let size = (c[2].hypot(c[3]) * 1000.0) as f32;
        let xlen = c[0].hypot(c[1]);
        let dir = if xlen > 0.0 {
            (c[0] / xlen, c[1] / xlen)
        } else {
            (1.0, 0.0)
        };
        let advance = match g {
            Glyph::Outline(o) => o.advance_width().map_or(DEFAULT_ADVANCE, f64::from),
            Glyph::Type3(t3) => t3.advance_width().map_or(0.0, f64::from),
        };
        // The transform may stretch x (the PDF's width over the program's), so the
        // advance is laid along the baseline at the em size.
        let em = f64::from(size) / 1000.0;
        let end = Point::new(
            origin.x + dir.0 * advance * em,
            origin.y + dir.1 * advance * em,
        );
        let text = match g
            .as_unicode()
            .or_else(|| cmap?.lookup_bf_string(g.char_code()))
        {
            Some(BfString::Char(ch)) => ch.to_string(),
            Some(BfString::String(s)) => s,
            None => {
                self.unmapped += 1;
                '\u{FFFD}'.to_string()
            }
        };
        if !origin.x.is_finite() || !origin.y.is_finite() || !size.is_finite() {
            return;
        }
        let element = self.element();
        if let Some(open) = &mut self.open {
            let dx = origin.x - open.end.x;
            let dy = origin.y - open.end.y;
            let along = dx * open.dir.0 + dy * open.dir.1;
            let across = -dx * open.dir.1 + dy * open.dir.0;
            let fs = f64::from(open.run.height.max(1.0));
            let same_style = open.run.font == style.name
                && open.run.element == element
                && (open.run.height - size).abs() < 0.5
                && open.dir.0 * dir.0 + open.dir.1 * dir.1 > 0.99;
            if same_style && across.abs() < fs * 0.2 && along > -fs * 0.3 && along < fs {
                let both_cjk = open.run.text.chars().last().is_some_and(is_cjk)
                    && text.chars().next().is_some_and(is_cjk);
                let gap = if both_cjk { 0.6 } else { 0.15 };
                if along > fs * gap && !open.run.text.ends_with(' ') && text != " " {
                    open.run.text.push(' ');
                }
                open.run.text.push_str(&text);
                if !text.trim().is_empty() {
                    open.ink_end = end;
                }
                open.run.width = length_along(open.ink_end - open.start, open.dir);
                open.end = end;
                return;
            }
        }
        self.finish();
        if text.trim().is_empty() {
            return;
        }
        self.open = Some(Open {
            run: TextRun {
                text,
                x: origin.x as f32,
                y: origin.y as f32,
                width: length_along(end - origin, dir),
                height: size,
                font: style.name.clone(),
                bold: style.bold,
                italic: style.italic,
                dir: [dir.0 as f32, dir.1 as f32],
                element,
            },
            end,
            ink_end: end,
            dir,
            start: origin,
        });
    }

    /// Keeps the straight axis-aligned pieces of `path` drawn with `t`: every
    /// horizontal or vertical segment of a stroked path, and every thin filled
    /// rectangle (at most 3 units thick, at least three times as long), which is how
    /// many producers draw table rules. Curved paths are drawings, not rules.
    fn path(&mut self, path: &BezPath, t: Affine, stroked: bool) {
        let p = t * path.clone();
        let mut subpaths: Vec<(Vec<Point>, bool)> = Vec::new();
        let mut points: Vec<Point> = Vec::new();
        for el in p.elements() {
            match *el {
                PathEl::MoveTo(a) => {
                    if points.len() > 1 {
                        subpaths.push((std::mem::take(&mut points), false));
                    }
                    points.clear();
                    points.push(a);
                }
                PathEl::LineTo(a) => points.push(a),
                PathEl::ClosePath => {
                    if points.len() > 1 {
                        subpaths.push((std::mem::take(&mut points), true));
                    }
                }
                _ => return,
            }
        }
        if points.len() > 1 {
            subpaths.push((points, false));
        }
        for (points, closed) in subpaths {
            if stroked {
                self.stroked(&points, closed);
            } else {
                self.filled(&points);
            }
        }
    }

    fn stroked(&mut self, points: &[Point], closed: bool) {
        let closing = closed
            .then(|| Some((*points.last()?, *points.first()?)))
            .flatten();
        let segments = points.windows(2).map(|w| (w[0], w[1])).chain(closing);
        for (a, b) in segments {
            let straight = (a.y - b.y).abs() < 0.5 || (a.x - b.x).abs() < 0.5;
            if straight && a.distance(b) > 1.0 {
                self.keep_rule(Rule {
                    x0: a.x.min(b.x) as f32,
                    y0: a.y.min(b.y) as f32,
                    x1: a.x.max(b.x) as f32,
                    y1: a.y.max(b.y) as f32,
                });
            }
        }
    }

    fn filled(&mut self, points: &[Point]) {
        let corners = match points.len() {
            4 => points,
            5 if points[0].distance(points[4]) < 0.01 => &points[..4],
            _ => return,
        };
        let (x0, x1) = corners
            .iter()
            .fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.x), a.1.max(p.x)));
        let (y0, y1) = corners
            .iter()
            .fold((f64::MAX, f64::MIN), |a, p| (a.0.min(p.y), a.1.max(p.y)));
        let on_box = corners.iter().all(|p| {
            ((p.x - x0).abs() < 0.01 || (p.x - x1).abs() < 0.01)
                && ((p.y - y0).abs() < 0.01 || (p.y - y1).abs() < 0.01)
        });
        if !on_box {
            return;
        }
        let (w, h) = (x1 - x0, y1 - y0);
        if h <= 3.0 && w > 3.0 * h.max(0.5) {
            let y = ((y0 + y1) / 2.0) as f32;
            self.keep_rule(Rule {
                x0: x0 as f32,
                y0: y,
                x1: x1 as f32,
                y1: y,
            });
        } else if w <= 3.0 && h > 3.0 * w.max(0.5) {
            let x = ((x0 + x1) / 2.0) as f32;
            self.keep_rule(Rule {
                x0: x,
                y0: y0 as f32,
                x1: x,
                y1: y1 as f32,
            });
        }
    }
}

/// CJK ideographs, kana, hangul and full-width forms.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Paint a reader cannot see on a white page: white or fully transparent flat
/// colour. Text and rules drawn so are not part of the page (hidden text layers,
/// white table grids). Patterns and shadings count as visible.
fn invisible(p: &Paint<'_>) -> bool {
    match p {
        Paint::Color(c) => {
            let [r, g, b, a] = c.to_rgba().to_rgba8();
            a == 0 || (r > 250 && g > 250 && b > 250)
        }
        _ => false,
    }
}

impl<'a> Device<'a> for Collector {
    fn draw_path(&mut self, path: &BezPath, props: DrawProps<'a>, mode: &DrawMode) {
        if invisible(&props.paint) {
            return;
        }
        match mode {
            DrawMode::Fill(_) => self.path(path, props.transform, false),
            DrawMode::Stroke(_) | DrawMode::FillAndStroke(..) => {
                self.path(path, props.transform, true)
            }
            DrawMode::Invisible => {}
        }
    }

    fn draw_glyph_run(&mut self, run: &GlyphRun<'_, 'a>, props: DrawProps<'a>, _: &DrawMode) {
        // hayro's own fallback font (no font selected) is Helvetica.
        let style = run
            .font_dict()
            .map(fonts::style)
            .unwrap_or_else(|| FontStyle {
                name: "Helvetica".into(),
                ..FontStyle::default()
            });
        let cmap: Option<Rc<CMap>> = self.cid.for_font(run.font_dict());
        for g in run.glyphs() {
            self.glyph(g, props.transform * g.transform(), &style, cmap.as_deref());
        }
    }

    fn push_clip_path(&mut self, _: &ClipPath) {}
    fn push_transparency_group(&mut self, _: f32, _: Option<SoftMask<'a>>, _: BlendMode) {}
    fn draw_image(&mut self, _: Image<'a, '_>, _: ImageDrawProps<'a>) {}
    fn pop_clip(&mut self) {}
    fn pop_transparency_group(&mut self) {}

    fn begin_marked_content(&mut self, _: &[u8], properties: Option<&Dict<'_>>) {
        // A hostile stream may open sequences without end; ids deeper than this are
        // not needed to tag text, and the deeper sequences are only counted so each
        // EMC still closes its own.
        if self.marked.len() < MAX_MARKED {
            self.marked
                .push(properties.and_then(|p| p.get::<i64>(b"MCID")));
        } else {
            self.marked_past += 1;
        }
    }

    fn end_marked_content(&mut self) {
        if self.marked_past > 0 {
            self.marked_past -= 1;
        } else {
            self.marked.pop();
        }
    }
}
