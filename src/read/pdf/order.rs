//! Reading order: columns by XY-cut.
//!
//! A PDF's content stream may draw a page's text in any order (headers last, columns
//! interleaved, a table cell by cell), so the order is read off the geometry. A
//! multi-column page has vertical gutters: bands of white space running down most of
//! the text's height that no line crosses. Cutting the page at the widest gutter,
//! and cutting each side again, leaves columns ("leaves") that are each read top to
//! bottom, left column first (the order of left-to-right scripts). What crosses a
//! gutter (a title or an abstract over two columns) splits the page into bands read
//! one after the other.

/// The box of one item to order (a fragment or a table), in page units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bx {
    pub x0: f32,
    pub x1: f32,
    pub top: f32,
    pub bottom: f32,
    /// Font size (ems measure widths and gutters).
    pub size: f32,
    /// Vertical sort key within a column: the baseline of a fragment, the top of a
    /// table.
    pub key: f32,
}

/// Deepest recursion of the cut; a page that needs more is read as it stands.
const MAX_DEPTH: u32 = 24;

/// A gutter must be free over this share of the region's text height: a column runs
/// down most of it, while white space between table cells or a short indented block
/// covers only part.
const MOST: f32 = 0.6;

/// Narrowest gutter, in ems of the region's usual size (typeset gutters are 1 to 3
/// em; narrower gaps are spacing inside a line).
const MIN_GUTTER: f32 = 1.0;

/// Fragments of a column of prose are wide: the median one on each side of a gutter
/// must be this many ems wide. Table columns (short cells with wide gaps between)
/// fail it and stay whole for table detection.
const PROSE_EMS: f32 = 12.0;

/// Orders `boxes` into leaves (columns), each a list of indices top to bottom, leaves
/// in reading order.
pub(crate) fn leaves(boxes: &[Bx]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    cut(boxes, (0..boxes.len()).collect(), 0, &mut out);
    out.retain(|l| !l.is_empty());
    out
}

fn sort_leaf(boxes: &[Bx], idx: &mut [usize]) {
    let at = |i: &usize| boxes.get(*i).map_or((0.0, 0.0), |b| (b.key, b.x0));
    idx.sort_by(|a, b| {
        let (ka, xa) = at(a);
        let (kb, xb) = at(b);
        ka.total_cmp(&kb).then(xa.total_cmp(&xb)).then(a.cmp(b))
    });
}

fn cut(boxes: &[Bx], mut idx: Vec<usize>, depth: u32, out: &mut Vec<Vec<usize>>) {
    let gutter = if depth < MAX_DEPTH && idx.len() >= 2 {
        gutter(boxes, &idx)
    } else {
        None
    };
    let Some((g0, g1)) = gutter else {
        sort_leaf(boxes, &mut idx);
        out.push(idx);
        return;
    };
    let eps = 0.01;
    let crosses = |b: &Bx| b.x0 < g1 - eps && b.x1 > g0 + eps;
    let (mut spanning, rest): (Vec<usize>, Vec<usize>) = idx
        .into_iter()
        .partition(|&i| boxes.get(i).is_some_and(crosses));
    if spanning.is_empty() {
        let (left, right): (Vec<usize>, Vec<usize>) = rest
            .into_iter()
            .partition(|&i| boxes.get(i).is_some_and(|b| b.x1 <= g0 + eps));
        cut(boxes, left, depth + 1, out);
        cut(boxes, right, depth + 1, out);
        return;
    }
    // Bands: what lies between two spanning items (by its middle) is read as a
    // region of its own; consecutive spanning items form one leaf.
    sort_leaf(boxes, &mut spanning);
    let mid = |i: usize| boxes.get(i).map_or(0.0, |b| 0.5 * (b.top + b.bottom));
    let mut bands: Vec<Vec<usize>> = vec![Vec::new(); spanning.len() + 1];
    for i in rest {
        let k = spanning.partition_point(|&s| mid(s) < mid(i));
        if let Some(band) = bands.get_mut(k) {
            band.push(i);
        }
    }
    let mut run: Vec<usize> = Vec::new();
    for (k, band) in bands.into_iter().enumerate() {
        if !band.is_empty() {
            if !run.is_empty() {
                out.push(std::mem::take(&mut run));
            }
            cut(boxes, band, depth + 1, out);
        }
        if let Some(&s) = spanning.get(k) {
            run.push(s);
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
}

/// The median of `v` (0 for none).
pub(crate) fn median(mut v: Vec<f32>) -> f32 {
    v.sort_by(f32::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Whether the boxes look like lines of prose: the median is [`PROSE_EMS`] wide.
pub(crate) fn prose(boxes: impl Iterator<Item = Bx>) -> bool {
    let ems: Vec<f32> = boxes.map(|b| (b.x1 - b.x0) / b.size.max(0.01)).collect();
    !ems.is_empty() && median(ems) >= PROSE_EMS
}

/// The widest gutter of the region: an x interval crossed by boxes covering at most
/// `1 - MOST` of the text height, at least [`MIN_GUTTER`] wide, with prose on both
/// sides (or on one, the other holding at most two boxes). Found by one sweep over box edges (linear after sorting).
fn gutter(boxes: &[Bx], idx: &[usize]) -> Option<(f32, f32)> {
    let items: Vec<Bx> = idx.iter().filter_map(|&i| boxes.get(i).copied()).collect();
    // The text height: the union of the boxes' vertical extents.
    let mut spans: Vec<(f32, f32)> = items.iter().map(|b| (b.top, b.bottom)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut height = 0.0f32;
    let mut reach = f32::NEG_INFINITY;
    for (t, b) in spans {
        let t = t.max(reach);
        if b > t {
            height += b - t;
        }
        reach = reach.max(b);
    }
    if height <= 0.0 {
        return None;
    }
    let mut edges: Vec<(f32, f32)> = Vec::with_capacity(items.len() * 2);
    for b in &items {
        let h = (b.bottom - b.top).max(0.0);
        edges.push((b.x0, h));
        edges.push((b.x1, -h));
    }
    edges.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // Elementary intervals between consecutive edges with the height crossing them.
    let mut cover: Vec<(f32, f32, f32)> = Vec::new();
    let mut active = 0.0f32;
    for w in edges.windows(2) {
        let (Some(a), Some(b)) = (w.first(), w.get(1)) else {
            continue;
        };
        active += a.1;
        if b.0 > a.0 {
            cover.push((a.0, b.0, active.max(0.0)));
        }
    }
    let least = cover.iter().map(|c| c.2).fold(f32::INFINITY, f32::min);
    // `least` is infinite when there is no interval (all boxes at one x).
    if least > (1.0 - MOST) * height {
        return None;
    }
    let size = median(items.iter().map(|b| b.size).collect());
    let slack = 0.01 * height + 0.01;
    // Maximal runs of intervals at the least cover; the widest wins (leftmost on ties).
    let mut best: Option<(f32, f32)> = None;
    let mut open: Option<(f32, f32)> = None;
    for &(a, b, c) in cover
        .iter()
        .chain(std::iter::once(&(0.0, 0.0, f32::INFINITY)))
    {
        if c <= least + slack {
            open = Some(open.map_or((a, b), |o| (o.0, b)));
        } else if let Some(o) = open.take()
            && best.is_none_or(|w| o.1 - o.0 > w.1 - w.0)
        {
            best = Some(o);
        }
    }
    let (g0, g1) = best?;
    if g1 - g0 < MIN_GUTTER * size {
        return None;
    }
    let side = |left: bool| {
        items
            .iter()
            .filter(move |b| {
                if left {
                    b.x1 <= g0 + 0.01
                } else {
                    b.x0 >= g1 - 0.01
                }
            })
            .copied()
    };
    // A side of one or two boxes (a margin note, the last line of a column) needs
    // prose on the other side only.
    let (left, right) = (prose(side(true)), prose(side(false)));
    let (nl, nr) = (side(true).count(), side(false).count());
    let fits = |p: bool, n: usize| p || n <= 2;
    let both = nl > 0 && nr > 0;
    (both && fits(left, nl) && fits(right, nr) && (left || right)).then_some((g0, g1))
}
