//! Text set at an angle.
//!
//! Layout analysis reads lines as bands along x and columns as gaps along y, which
//! holds only for text whose baseline runs along the page's x axis. A PDF may draw
//! text in any direction (ISO 32000-2, 9.4.2: the text matrix can rotate it): a
//! landscape table turned onto a portrait page, a page scanned sideways, a label
//! running up the margin, a diagonal watermark. Each run's baseline direction puts
//! it in a [`Frame`] in which that direction is x; the page's main frame is the one
//! most of its characters are set in (its rules are turned with it), and the runs of
//! other directions are read in their own frames, after the page's main text, so a
//! margin label neither splits the body's lines nor is lost.

use super::runs::{PageRuns, Rule, TextRun};

/// Runs whose baseline lies within this many degrees of a multiple of 90° are read
/// in that quarter turn's frame: OCR layers of slightly skewed scans and italic
/// simulations stay with the upright text, and quarter turns map rules onto rules.
const QUARTER_SLACK: f32 = 10.0;

/// Other directions are grouped in bins this many degrees wide (text set at one
/// angle is drawn at one angle, give or take rounding), each read at its mean angle.
const BIN: f32 = 5.0;

/// A rotation of the page's coordinates (units, y downward) that makes one
/// direction of text run along x, shifted so the turned page starts at (0, 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frame {
    cos: f32,
    sin: f32,
    dx: f32,
    dy: f32,
    /// The turned page's width in units.
    pub width: f32,
    /// The turned page's height in units.
    pub height: f32,
    /// Whether the turn is a multiple of 90° (so rules stay horizontal or vertical).
    quarter: bool,
}

impl Frame {
    /// The frame for baseline direction `degrees` (clockwise from x on a page of
    /// `width` × `height` units with y downward, as the runs' own coordinates are).
    fn new(degrees: f32, width: f32, height: f32) -> Frame {
        let quarter = (degrees / 90.0).fract() == 0.0;
        let (sin, cos) = if quarter {
            // Exact values: a quarter turn must not smear coordinates by rounding.
            match (degrees / 90.0) as i32 % 4 {
                0 => (0.0, 1.0),
                1 => (1.0, 0.0),
                2 => (0.0, -1.0),
                _ => (-1.0, 0.0),
            }
        } else {
            degrees.to_radians().sin_cos()
        };
        let mut f = Frame {
            cos,
            sin,
            dx: 0.0,
            dy: 0.0,
            width,
            height,
            quarter,
        };
        let corners =
            [(0.0, 0.0), (width, 0.0), (0.0, height), (width, height)].map(|(x, y)| f.point(x, y));
        let min_x = corners.iter().map(|c| c.0).fold(f32::MAX, f32::min);
        let max_x = corners.iter().map(|c| c.0).fold(f32::MIN, f32::max);
        let min_y = corners.iter().map(|c| c.1).fold(f32::MAX, f32::min);
        let max_y = corners.iter().map(|c| c.1).fold(f32::MIN, f32::max);
        f.dx = -min_x;
        f.dy = -min_y;
        f.width = max_x - min_x;
        f.height = max_y - min_y;
        f
    }

    /// Where page point (`x`, `y`) lies in this frame.
    pub(crate) fn point(&self, x: f32, y: f32) -> (f32, f32) {
        (
            x * self.cos + y * self.sin + self.dx,
            -x * self.sin + y * self.cos + self.dy,
        )
    }
}

/// A run's baseline direction in degrees clockwise from x, in [0, 360); text
/// without a usable direction reads along x.
fn degrees(r: &TextRun) -> f32 {
    let [dx, dy] = r.dir;
    if !(dx.is_finite() && dy.is_finite()) || dx.hypot(dy) < 1e-6 {
        return 0.0;
    }
    dy.atan2(dx).to_degrees().rem_euclid(360.0)
}

/// The bin of a direction: a quarter turn (0, 90, 180, 270) within
/// [`QUARTER_SLACK`], else a [`BIN`]-wide bin offset past the quarter turns.
fn bin(deg: f32) -> u32 {
    let q = (deg / 90.0).round();
    if (deg - q * 90.0).abs() <= QUARTER_SLACK {
        (q as u32 % 4) * 90
    } else {
        // Non-quarter bins are numbered from 1000 so they never meet a quarter turn.
        1000 + (deg / BIN).floor() as u32
    }
}

/// One direction's runs, turned to read along x, with the frame that turned them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Turned {
    pub frame: Frame,
    pub runs: Vec<TextRun>,
    /// Whether the frame's size is the page's own (else the runs' extent).
    pub known: bool,
}

/// A page's runs by direction: the main group (most characters; ties go to the
/// lower bin, upright first) and the other groups in bin order, each in its own
/// frame; and the page's rules turned with the main frame (none when that frame is
/// not a quarter turn, since turned rules would no longer be horizontal or
/// vertical).
pub(crate) fn split(page: &PageRuns) -> (Turned, Vec<Turned>, Vec<Rule>) {
    #[derive(Default)]
    struct Bin<'a> {
        /// Characters that are not white space.
        weight: usize,
        /// Sum of direction × weight (each run weighing at least 1), and that weight.
        deg_sum: f32,
        deg_weight: f32,
        runs: Vec<&'a TextRun>,
    }
    let mut bins: std::collections::BTreeMap<u32, Bin<'_>> = Default::default();
    for r in &page.runs {
        let deg = degrees(r);
        let e = bins.entry(bin(deg)).or_default();
        let w = r.text.chars().filter(|c| !c.is_whitespace()).count();
        e.weight += w;
        e.deg_sum += deg * w.max(1) as f32;
        e.deg_weight += w.max(1) as f32;
        e.runs.push(r);
    }
    let main = bins
        .iter()
        .max_by(|a, b| a.1.weight.cmp(&b.1.weight).then(b.0.cmp(a.0)))
        .map_or(0, |(k, _)| *k);
    let (width, height, known) = extent(page);
    let mut first = None;
    let mut rest = Vec::new();
    for (key, b) in bins {
        let angle = if key < 1000 {
            key as f32
        } else {
            b.deg_sum / b.deg_weight.max(1.0)
        };
        let frame = Frame::new(angle, width, height);
        let turned = Turned {
            frame,
            runs: b.runs.into_iter().map(|r| turn_run(r, &frame)).collect(),
            known,
        };
        if key == main {
            first = Some(turned);
        } else {
            rest.push(turned);
        }
    }
    let first = first.unwrap_or(Turned {
        frame: Frame::new(0.0, width, height),
        runs: Vec::new(),
        known,
    });
    let rules = if first.frame.quarter {
        page.rules
            .iter()
            .map(|r| turn_rule(r, &first.frame))
            .collect()
    } else {
        Vec::new()
    };
    (first, rest, rules)
}

/// The page's size, or, when it is unknown or invalid, the extent of its runs (a
/// frame needs a box to turn the page within).
fn extent(page: &PageRuns) -> (f32, f32, bool) {
    let valid = |v: f32| v.is_finite() && v > 0.0 && v <= super::runs::MAX_COORD;
    if valid(page.width) && valid(page.height) {
        return (page.width, page.height, true);
    }
    let finite = |v: f32| {
        if v.is_finite() {
            v.clamp(0.0, super::runs::MAX_COORD)
        } else {
            0.0
        }
    };
    let w = page
        .runs
        .iter()
        .map(|r| finite(r.x + r.width.max(r.height)))
        .fold(1.0f32, f32::max);
    let h = page
        .runs
        .iter()
        .map(|r| finite(r.y + r.height))
        .fold(1.0f32, f32::max);
    (w, h, false)
}

fn turn_run(r: &TextRun, f: &Frame) -> TextRun {
    let (x, y) = f.point(r.x, r.y);
    TextRun {
        x,
        y,
        dir: [1.0, 0.0],
        ..r.clone()
    }
}

fn turn_rule(r: &Rule, f: &Frame) -> Rule {
    let (x0, y0) = f.point(r.x0, r.y0);
    let (x1, y1) = f.point(r.x1, r.y1);
    Rule { x0, y0, x1, y1 }
}
