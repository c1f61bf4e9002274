//! The input: positioned text runs and ruling lines per page, as a glyph source
//! (pdf.js `getTextContent` and `getOperatorList` in the JS layer, a content-stream
//! interpreter in the CLI) reports them, and [`Run`], the cleaned run the analysis
//! works on.
//!
//! All coordinates are PDF user-space units (1/72 inch) with the origin at the
//! **top-left** corner of the page and y growing **downward**. PDF's own user space
//! grows upward from the bottom-left (ISO 32000-2, 8.3.2.3), as does the transform
//! pdf.js reports; the caller converts: `y = page_height - transform[5]`.

use serde::Deserialize;

use super::tags::{Block, Element};
use super::turn::Turned;

/// One run of text drawn with one font at one size on one baseline (a pdf.js text
/// item, or one `Tj`/`TJ` string of a content stream).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TextRun {
    /// The characters, in logical order, already mapped to Unicode.
    pub text: String,
    /// Left edge of the run (the start of its first glyph), in units from the page's
    /// left edge.
    pub x: f32,
    /// The run's **baseline**, in units from the page's **top** edge (downward).
    pub y: f32,
    /// Advance width of the whole run, in units. 0 when unknown (then estimated as
    /// half the font size per character).
    pub width: f32,
    /// Font size in units (the glyphs' em height after the text matrix).
    pub height: f32,
    /// Font name as the file gives it (for example `ABCDEF+Times-Bold`); may be empty.
    #[serde(default)]
    pub font: String,
    /// Whether the font is bold (from its name, weight or descriptor flags).
    #[serde(default)]
    pub bold: bool,
    /// Whether the font is italic or oblique.
    #[serde(default)]
    pub italic: bool,
    /// Direction of the baseline, a vector (x, y) in the same y-downward space:
    /// `[1, 0]` (the default) for upright text, `[0, -1]` for text reading upward,
    /// `[0, 1]` downward. `x` and `y` are the run's start on its baseline and `width`
    /// its advance along this direction; the length of the vector does not matter.
    #[serde(default = "upright")]
    pub dir: [f32; 2],
    /// In a tagged PDF, the structure element whose marked content holds the run:
    /// an index into its page's [`PageRuns::elements`]. `None` when untagged.
    #[serde(default)]
    pub element: Option<u32>,
}

fn upright() -> [f32; 2] {
    [1.0, 0.0]
}

/// A horizontal or vertical ruling line: a stroked path segment, or a thin filled
/// rectangle given by two opposite corners. Coordinates as for [`TextRun`] (units,
/// y downward from the top). A stroked rectangle (`re` + `S`) is four rules.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Rule {
    /// One end (or corner): x.
    pub x0: f32,
    /// One end (or corner): y.
    pub y0: f32,
    /// The other end (or opposite corner): x.
    pub x1: f32,
    /// The other end (or opposite corner): y.
    pub y1: f32,
}

/// Everything the layout analysis needs of one page.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PageRuns {
    /// The page's number, 1-based, in document order.
    pub number: u32,
    /// Page width in units (the crop box); 0 or invalid when unknown.
    pub width: f32,
    /// Page height in units (the crop box); 0 or invalid when unknown.
    pub height: f32,
    /// The text runs in any order (content-stream order is fine).
    #[serde(default)]
    pub runs: Vec<TextRun>,
    /// Ruling lines, for finding ruled tables.
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// In a tagged PDF, the structure elements holding this page's text and their
    /// ancestors (ISO 32000-2, 14.7.2), each once; empty when untagged.
    #[serde(default)]
    pub elements: Vec<Element>,
}

/// One entry of the document outline (the PDF bookmarks, ISO 32000-2, 12.3.3).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct OutlineEntry {
    /// The bookmark's title.
    pub title: String,
    /// Depth, 1 = top level (0 is read as 1; deeper than 9 as 9).
    pub level: u8,
    /// The 1-based page the bookmark points to.
    pub page: u32,
}

/// Largest font size taken as text, in units: anything larger is a drawing made of
/// glyphs (or a broken text matrix), never something a person reads as a line.
const MAX_SIZE: f32 = 2_000.0;

/// Largest coordinate magnitude accepted, in units (about 350 m): beyond it `f32`
/// loses the precision layout needs, and no page is that large.
pub(crate) const MAX_COORD: f32 = 1.0e6;

/// A run made safe: finite coordinates, positive size, text without controls.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    pub text: String,
    pub x0: f32,
    pub x1: f32,
    /// Baseline, downward from the page top.
    pub base: f32,
    /// Font size.
    pub size: f32,
    pub bold: bool,
    pub italic: bool,
    /// The tagged block it belongs to ([`super::tags`]).
    pub block: Option<Block>,
}

impl Run {
    /// Top of the glyph box: fonts put about 0.8 em of ascent above the baseline.
    pub fn top(&self) -> f32 {
        self.base - 0.8 * self.size
    }

    /// Bottom of the glyph box (0.2 em of descent).
    pub fn bottom(&self) -> f32 {
        self.base + 0.2 * self.size
    }

    /// Characters that are not white space (the weight of the run in statistics).
    pub fn weight(&self) -> usize {
        self.text.chars().filter(|c| !c.is_whitespace()).count()
    }
}

/// The usable box of a page: its own size when valid, else the extent of its runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PageBox {
    pub width: f32,
    pub height: f32,
}

/// Cleans the runs of one direction of a page, turned to read along x
/// ([`super::turn`]): drops runs with non-finite or absurd coordinates, a size that
/// is not positive, no visible text, or a box wholly off the page (text clipped away
/// is not shown to a reader). Returns the kept runs and how many were dropped.
pub(crate) fn clean(page: &Turned, blocks: &[Option<Block>]) -> (Vec<Run>, usize, PageBox) {
    let known = page.known;
    let (width, height) = (page.frame.width, page.frame.height);
    let mut out = Vec::with_capacity(page.runs.len());
    let mut dropped = 0;
    for r in &page.runs {
        match clean_run(r, known.then_some((width, height))) {
            Some(mut run) => {
                run.block = r
                    .element
                    .and_then(|e| blocks.get(e as usize).copied().flatten());
                out.push(run);
            }
            None if r.text.trim().is_empty() => {}
            None => dropped += 1,
        }
    }
    let pb = if known {
        PageBox { width, height }
    } else {
        // No page size: the text's own extent stands in for it.
        let w = out.iter().map(|r| r.x1).fold(0.0f32, f32::max);
        let h = out.iter().map(Run::bottom).fold(0.0f32, f32::max);
        PageBox {
            width: w.max(1.0),
            height: h.max(1.0),
        }
    };
    (out, dropped, pb)
}

/// The letters of a Latin typographic ligature (U+FB00-U+FB06, Unicode's
/// Alphabetic Presentation Forms): a font draws "fi" as one glyph, and a ToUnicode
/// map that names the glyph rather than its letters leaves a character no one types
/// or searches for.
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{FB00}' => "ff",
        '\u{FB01}' => "fi",
        '\u{FB02}' => "fl",
        '\u{FB03}' => "ffi",
        '\u{FB04}' => "ffl",
        '\u{FB05}' | '\u{FB06}' => "st",
        _ => return None,
    })
}

/// One run cleaned, or `None` when it carries nothing usable.
fn clean_run(r: &TextRun, page: Option<(f32, f32)>) -> Option<Run> {
    let ok = |v: f32| v.is_finite() && v.abs() <= MAX_COORD;
    if !(ok(r.x) && ok(r.y) && ok(r.width) && ok(r.height)) {
        return None;
    }
    if r.height <= 0.0 || r.height > MAX_SIZE || r.width < 0.0 {
        return None;
    }
    // Controls carry no text (pdf.js passes some through from broken ToUnicode maps);
    // soft hyphens are kept for the line-end join and dropped there. Ligatures are
    // written out (see `ligature`).
    let mut text = String::with_capacity(r.text.len());
    for c in r.text.chars() {
        match ligature(c) {
            Some(letters) => text.push_str(letters),
            None if c == '\t' => text.push(' '),
            None if c.is_control() => {}
            None => text.push(c),
        }
    }
    if text.trim().is_empty() {
        return None;
    }
    let width = if r.width > 0.0 {
        r.width
    } else {
        0.5 * r.height * text.chars().count() as f32
    };
    let run = Run {
        text,
        x0: r.x,
        x1: r.x + width,
        base: r.y,
        size: r.height,
        bold: r.bold,
        italic: r.italic,
        block: None,
    };
    if let Some((w, h)) = page {
        let off = run.x1 < 0.0 || run.x0 > w || run.bottom() < 0.0 || run.top() > h;
        if off {
            return None;
        }
    }
    Some(run)
}
