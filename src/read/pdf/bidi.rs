//! Right-to-left text (Hebrew, Arabic) in logical order.
//!
//! A PDF places glyphs where they are seen; nothing records the order in which they
//! are read (ISO 32000-2, 14.8.2.5.3 asks only tagged PDFs to keep it). Layout reads
//! a line left to right, which is the reading order only of left-to-right scripts.
//! In a line whose strong characters are mostly right-to-left, Unicode's
//! bidirectional algorithm (UAX #9) decides how logical text is shown: rule L2
//! reverses every sequence at an odd embedding level and keeps embedded
//! left-to-right sequences (Latin words, numbers) in their own order. That reordering
//! undoes itself for the levels such lines have (1 and 2), so it also turns what is
//! seen back into what is read, as pdf.js does for its text items.

use std::borrow::Cow;

use unicode_bidi::{BidiClass, Level, ParagraphBidiInfo, bidi_class};

/// The direction a piece of text is written in, by its strong characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    Ltr,
    Rtl,
    /// Digits and no strong character: read left to right even in a right-to-left
    /// line (UAX #9 rules W2 and I2 put European and Arabic numbers at level 2).
    Number,
    /// No strong character and no digit (punctuation, spaces): takes the direction
    /// of its neighbours when they agree, else the line's.
    Neutral,
}

/// Strong right-to-left and left-to-right characters of `text`.
fn strong(text: &str) -> (usize, usize) {
    text.chars().fold((0, 0), |(r, l), c| match bidi_class(c) {
        BidiClass::R | BidiClass::AL => (r + 1, l),
        BidiClass::L => (r, l + 1),
        _ => (r, l),
    })
}

/// The direction most of `text`'s strong characters are written in (ties to
/// left-to-right).
pub(crate) fn dir(text: &str) -> Dir {
    match strong(text) {
        (0, 0)
            if text
                .chars()
                .any(|c| matches!(bidi_class(c), BidiClass::EN | BidiClass::AN)) =>
        {
            Dir::Number
        }
        (0, 0) => Dir::Neutral,
        (r, l) if r > l => Dir::Rtl,
        _ => Dir::Ltr,
    }
}

/// Whether `text` may hold a right-to-left character: one in the blocks of the
/// right-to-left scripts (Hebrew to NKo and beyond, their presentation forms, the
/// historic right-to-left planes). A cheap test before the class lookups.
pub(crate) fn may_be_rtl(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
    })
}

/// A run's text as drawn (glyphs left to right on the page) in logical order, in a
/// line of the direction most of its strong characters have: text with no
/// right-to-left character is returned as it is.
pub(crate) fn logical(seen: &str) -> Cow<'_, str> {
    if !may_be_rtl(seen) || strong(seen).0 == 0 {
        return Cow::Borrowed(seen);
    }
    let level = if dir(seen) == Dir::Rtl {
        Level::rtl()
    } else {
        Level::ltr()
    };
    let info = ParagraphBidiInfo::new(seen, Some(level));
    Cow::Owned(info.reorder_line(0..seen.len()).into_owned())
}

/// The reading order of units of a line seen left to right (`dirs`, each unit's own
/// direction) in a line of direction `base`: indices into `dirs`. Rule L2 on units.
/// In a right-to-left line (level 1), left-to-right units, numbers, and neutral
/// units between two of those are at level 2: the whole line is reversed, then each
/// level-2 sequence back. In a left-to-right line (level 0), right-to-left units and
/// the numbers and neutral units between two of them are at level 1: each such
/// sequence is reversed.
pub(crate) fn reading_order(dirs: &[Dir], base: Dir) -> Vec<usize> {
    let n = dirs.len();
    let rtl_line = base == Dir::Rtl;
    let embedded = |d: &Dir| {
        if rtl_line {
            matches!(d, Dir::Ltr | Dir::Number)
        } else {
            *d == Dir::Rtl
        }
    };
    let decided = |d: &&Dir| {
        if rtl_line {
            **d != Dir::Neutral
        } else {
            matches!(d, Dir::Ltr | Dir::Rtl)
        }
    };
    let level_up: Vec<bool> = (0..n)
        .map(|i| {
            let d = &dirs[i];
            if embedded(d) {
                return true;
            }
            if !decided(&d) {
                let before = dirs[..i].iter().rev().find(decided);
                let after = dirs[i + 1..].iter().find(decided);
                return before.is_some_and(embedded) && after.is_some_and(embedded);
            }
            false
        })
        .collect();
    let mut order: Vec<usize> = if rtl_line {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    let mut i = 0;
    while i < n {
        if level_up[order[i]] {
            let start = i;
            while i < n && level_up[order[i]] {
                i += 1;
            }
            order[start..i].reverse();
        } else {
            i += 1;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_hebrew_reads_back_in_logical_order_with_numbers_kept() {
        // "שלום 2024 עולם" as seen left to right.
        assert_eq!(logical("םלוע 2024 םולש"), "שלום 2024 עולם");
        assert_eq!(logical("plain text"), "plain text");
        // A Hebrew word quoted in an English line turns round alone.
        assert_eq!(logical("see םולש here"), "see שלום here");
        assert_eq!(dir("שלום abc"), Dir::Rtl);
        assert_eq!(dir("2024"), Dir::Number);
        assert_eq!(dir(", "), Dir::Neutral);
    }

    #[test]
    fn units_read_from_the_right_in_right_to_left_lines_and_sequences() {
        use Dir::*;
        // Seen: [H3] [Jan] [2024] [H1]; read: H1, Jan, 2024, H3.
        assert_eq!(reading_order(&[Rtl, Ltr, Number, Rtl], Rtl), [3, 1, 2, 0]);
        // Punctuation between a right-to-left and a Latin word stays between them.
        assert_eq!(reading_order(&[Rtl, Neutral, Ltr, Ltr], Rtl), [2, 3, 1, 0]);
        assert_eq!(reading_order(&[Rtl, Rtl, Rtl], Rtl), [2, 1, 0]);
        // A number alone between right-to-left words keeps its place.
        assert_eq!(reading_order(&[Rtl, Number, Rtl], Rtl), [2, 1, 0]);
        // In a left-to-right line only the right-to-left words turn round.
        assert_eq!(
            reading_order(&[Ltr, Rtl, Number, Rtl, Ltr], Ltr),
            [0, 3, 2, 1, 4]
        );
    }
}
