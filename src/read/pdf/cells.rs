//! Table cells from the lines of text inside them, and the rules a table is drawn
//! with, shared by ruled ([`super::ruled`]) and aligned ([`super::aligned`]) tables.

use crate::model::Cell;

use super::inlines::paragraph_of;
use super::lines::Line;
use super::runs::Rule;

/// Thickest stroke read as a rule, in units; anything thicker is a filled area.
pub(crate) const MAX_THICK: f32 = 3.0;

/// A horizontal or vertical rule: position across, extent along, thickness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Seg1 {
    /// y of a horizontal rule, x of a vertical one.
    pub at: f32,
    pub from: f32,
    pub to: f32,
    pub thick: f32,
}

/// The page's rules split into horizontal and vertical ones; rules with
/// non-finite ends, thicker than [`MAX_THICK`] or shorter than they are thick are
/// left out.
pub(crate) fn split_rules(rules: &[Rule]) -> (Vec<Seg1>, Vec<Seg1>) {
    let mut h = Vec::new();
    let mut v = Vec::new();
    for r in rules {
        if ![r.x0, r.y0, r.x1, r.y1]
            .iter()
            .all(|c| c.is_finite() && c.abs() <= 1.0e6)
        {
            continue;
        }
        let (x0, x1) = (r.x0.min(r.x1), r.x0.max(r.x1));
        let (y0, y1) = (r.y0.min(r.y1), r.y0.max(r.y1));
        let (w, t) = (x1 - x0, y1 - y0);
        if t <= MAX_THICK && w > t {
            h.push(Seg1 {
                at: 0.5 * (y0 + y1),
                from: x0,
                to: x1,
                thick: t,
            });
        } else if w <= MAX_THICK && t > w {
            v.push(Seg1 {
                at: 0.5 * (x0 + x1),
                from: y0,
                to: y1,
                thick: w,
            });
        }
    }
    (h, v)
}

/// A cell holding `lines` (top to bottom) as one paragraph; no paragraph when empty.
pub(crate) fn cell(lines: &[&Line]) -> Cell {
    let blocks = paragraph_of(lines, 0);
    Cell {
        blocks,
        ..Cell::default()
    }
}
