//! Average glyph advances per script, for text width without font files.
//!
//! Advances are in thousandths of an em and are averages over the faces documents
//! use most (Calibri, Times New Roman, Arial, Cambria; Noto/SimSun/MS Mincho for
//! CJK): ideographs, kana, Hangul and full-width forms are one em; combining marks
//! take no width of their own; Latin lowercase is about half an em.

/// A typeface's proportions next to the average advances below: its width and
/// its single line height, both in thousandths (of the average advance, of an em).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Face {
    /// Average advance relative to the table below (Arial-like = 1000).
    pub width: u16,
    /// Single-spaced line height, thousandths of an em (ascent + descent + gap).
    pub line: u16,
}

impl Face {
    /// A face the table does not know.
    pub(crate) const UNKNOWN: Face = Face {
        width: 950,
        line: 1_170,
    };
    /// A theme font (`w:asciiTheme`): Office's minor theme font is Calibri in most
    /// documents.
    pub(crate) const THEME: Face = Face {
        width: 900,
        line: 1_220,
    };

    /// The proportions of a named face (from the fonts' OS/2 and hhea tables; the
    /// free metric-compatible faces share their originals' numbers).
    pub(crate) fn named(name: &str) -> Face {
        let n = name.trim();
        FACES
            .iter()
            .find(|(names, _)| names.iter().any(|f| f.eq_ignore_ascii_case(n)))
            .map_or(Face::UNKNOWN, |(_, face)| *face)
    }
}

/// Known faces (with their free metric-compatible twins) and their proportions.
const FACES: &[(&[&str], Face)] = &[
    (
        &["Times New Roman", "Times", "Liberation Serif", "Tinos"],
        Face {
            width: 860,
            line: 1_150,
        },
    ),
    (
        &["Calibri", "Carlito"],
        Face {
            width: 900,
            line: 1_220,
        },
    ),
    (
        &["Cambria", "Caladea"],
        Face {
            width: 960,
            line: 1_172,
        },
    ),
    (
        &["Arial", "Helvetica", "Liberation Sans", "Arimo"],
        Face {
            width: 1_000,
            line: 1_150,
        },
    ),
    (
        &["Verdana", "DejaVu Sans"],
        Face {
            width: 1_130,
            line: 1_215,
        },
    ),
    (
        &["Tahoma"],
        Face {
            width: 1_000,
            line: 1_207,
        },
    ),
    (
        &["Aptos"],
        Face {
            width: 930,
            line: 1_200,
        },
    ),
];

/// Width of `text` set at `half_points` in `face` (twips). `mono`: a monospaced
/// face, where every narrow glyph is 0.6 em.
#[cfg(test)]
pub(crate) fn text_width(text: &str, half_points: u16, face: Face, mono: bool) -> u64 {
    let milli: u64 = text
        .chars()
        .map(|c| advance_milli_twips(c, half_points, face, mono))
        .sum();
    milli / 1_000
}

/// The advance of `c` at `half_points` in `face`, thousandths of a twip.
pub(crate) fn advance_milli_twips(c: char, half_points: u16, face: Face, mono: bool) -> u64 {
    let (em, scale) = if mono && (c.is_ascii() || !is_wide(c)) {
        (if is_mark(c) { 0 } else { 600 }, 1_000)
    } else {
        (advance(c), face.width)
    };
    // milli-em x permille x (half-points x 10 twips) / 10^6 twips, in thousandths.
    u64::from(em) * u64::from(scale) * u64::from(half_points) / 100
}

/// The average advance of `c`, thousandths of an em.
fn advance(c: char) -> u16 {
    match c {
        ' ' => 250,
        'a'..='z' => match c {
            'i' | 'j' | 'l' => 230,
            'f' | 't' | 'r' => 330,
            'm' | 'w' => 760,
            _ => 500,
        },
        'A'..='Z' => match c {
            'I' | 'J' => 300,
            'M' | 'W' => 870,
            _ => 640,
        },
        '0'..='9' => 500,
        '.' | ',' | ':' | ';' | '\'' | '!' | '|' => 250,
        '\u{21}'..='\u{7e}' => 420,
        _ if is_mark(c) => 0,
        _ if is_wide(c) => 1_000,
        // Arabic and Hebrew letters are narrower than Latin on average.
        '\u{0590}'..='\u{06ff}' => 430,
        // Cyrillic, Greek and the rest of Latin: close to Latin lowercase.
        _ => 540,
    }
}

/// Combining marks and format characters: drawn over the previous glyph.
fn is_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036f}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05c7}'
        | '\u{0610}'..='\u{061a}' | '\u{064b}'..='\u{065f}' | '\u{0900}'..='\u{0903}'
        | '\u{093a}'..='\u{094f}' | '\u{200b}'..='\u{200f}' | '\u{fe00}'..='\u{fe0f}')
}

/// East Asian wide characters (UAX #11 W/F, the main blocks).
pub(crate) fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115f}' | '\u{2e80}'..='\u{303e}' | '\u{3041}'..='\u{33ff}'
        | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{a000}'..='\u{a4cf}'
        | '\u{ac00}'..='\u{d7a3}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}'
        | '\u{ff00}'..='\u{ff60}' | '\u{ffe0}'..='\u{ffe6}' | '\u{20000}'..='\u{3fffd}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_scale_with_font_size_and_script() {
        let arial = Face::named("Arial");
        let latin = text_width("the quick brown fox", 22, arial, false);
        assert!(text_width("the quick brown fox", 44, arial, false).abs_diff(latin * 2) <= 1);
        // Four ideographs are four ems: 4 x 11 pt = 880 twips.
        assert_eq!(text_width("文档检索", 22, arial, false), 880);
        assert!(text_width("ііі", 22, arial, true) > text_width("ііі", 22, arial, false));
        assert_eq!(
            text_width("e\u{301}", 22, arial, false),
            text_width("e", 22, arial, false)
        );
        let times = Face::named("Times New Roman");
        assert!(text_width("the quick brown fox", 22, times, false) < latin);
    }
}
