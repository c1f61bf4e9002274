//! What a glyph run's font dictionary says about its text: the font's name and style
//! (for headings), and, for CID fonts that carry no ToUnicode map, the Adobe CMap
//! that maps their CIDs to Unicode.

use std::collections::HashMap;
use std::rc::Rc;

use hayro_interpret::hayro_cmap::{CMap, CMapName, load_embedded};
use hayro_syntax::object::{Array, Dict, Name, String as PdfString};

/// The name and style of a font, as the layout analysis uses them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct FontStyle {
    /// `BaseFont` without its subset tag (`ABCDEF+Times-Bold` -> `Times-Bold`).
    pub name: String,
    pub bold: bool,
    pub italic: bool,
}

/// Font descriptor flag bits (ISO 32000-2, 9.8.2, Table 121): Italic is bit 7,
/// ForceBold bit 19 (1-based).
const FLAG_ITALIC: u32 = 1 << 6;
const FLAG_FORCE_BOLD: u32 = 1 << 18;

/// Name and style of the font dictionary `font` (a Type0 font's descriptor is its
/// descendant's). Bold: `FontWeight` of 600 or more, the ForceBold flag, or a weight
/// word in the name (`Arial-BoldMT`, `Foo,Bold`, `Foo-Semibold`, `Foo-Black`, `-Bd`;
/// TeX's `cmbx`); italic: the Italic flag, a slanted `ItalicAngle`, or a slant word
/// in the name (`-Italic`, `-Oblique`, `-It`; TeX's `cmti`, `cmsl`). The name is the
/// usual place a producer states the weight: many PDFs leave `FontWeight` out.
pub(super) fn style(font: &Dict<'_>) -> FontStyle {
    let raw = font
        .get::<Name<'_>>(b"BaseFont")
        .map(|n| n.as_str().to_string())
        .unwrap_or_default();
    let name = match raw.split_once('+') {
        Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => {
            rest.to_string()
        }
        _ => raw,
    };
    let descriptor = font.get::<Dict<'_>>(b"FontDescriptor").or_else(|| {
        font.get::<Array<'_>>(b"DescendantFonts")?
            .iter::<Dict<'_>>()
            .next()?
            .get::<Dict<'_>>(b"FontDescriptor")
    });
    let flags = descriptor
        .as_ref()
        .and_then(|d| d.get::<u32>(b"Flags"))
        .unwrap_or(0);
    let weight = descriptor
        .as_ref()
        .and_then(|d| d.get::<f32>(b"FontWeight"))
        .unwrap_or(0.0);
    let angle = descriptor
        .as_ref()
        .and_then(|d| d.get::<f32>(b"ItalicAngle"))
        .unwrap_or(0.0);
    let lower = name.to_ascii_lowercase();
    // The style suffix after the family: "Arial-BoldMT" -> "boldmt", "Foo,Bold" -> "bold".
    let suffix = lower.rsplit(['-', ',']).next().unwrap_or("");
    let styled = lower.contains('-') || lower.contains(',');
    let bold = weight >= 600.0
        || flags & FLAG_FORCE_BOLD != 0
        || ["bold", "black", "heavy", "semibold", "demi"]
            .iter()
            .any(|w| lower.contains(w))
        || (styled && (suffix.starts_with("medi") || suffix == "bd" || suffix == "b"))
        || lower.starts_with("cmbx");
    let italic = flags & FLAG_ITALIC != 0
        || angle.abs() > 0.5
        || ["italic", "oblique"].iter().any(|w| lower.contains(w))
        || (styled && (suffix == "it" || suffix == "i"))
        || lower.starts_with("cmti")
        || lower.starts_with("cmsl");
    FontStyle { name, bold, italic }
}

/// CID-to-Unicode maps by character collection, loaded once per document.
///
/// A Type0 font with an `Identity-H`/`Identity-V` encoding and no ToUnicode map shows
/// CIDs whose meaning is fixed by the font's `CIDSystemInfo` ordering (Japan1, GB1,
/// CNS1, Korea1); Adobe's `Adobe-<ordering>-UCS2` CMap maps them to Unicode (ISO
/// 32000-2, 9.10.2, method (b)). hayro applies the ToUnicode map and, for fonts it
/// has no program for, the predefined CMaps, but not this one for embedded fonts.
#[derive(Default)]
pub(super) struct CidUnicode {
    by_ordering: HashMap<Vec<u8>, Option<Rc<CMap>>>,
}

impl CidUnicode {
    /// The UCS2 map for `font`, when it is an Identity-encoded Type0 font of a known
    /// character collection.
    pub fn for_font(&mut self, font: Option<&Dict<'_>>) -> Option<Rc<CMap>> {
        let font = font?;
        if font.get::<Name<'_>>(b"Subtype")?.as_str() != "Type0" {
            return None;
        }
        if !font
            .get::<Name<'_>>(b"Encoding")?
            .as_str()
            .starts_with("Identity-")
        {
            return None;
        }
        let info = font
            .get::<Array<'_>>(b"DescendantFonts")?
            .iter::<Dict<'_>>()
            .next()?
            .get::<Dict<'_>>(b"CIDSystemInfo")?;
        let ordering = info.get::<PdfString<'_>>(b"Ordering")?.as_bytes().to_vec();
        self.by_ordering
            .entry(ordering)
            .or_insert_with_key(|ordering| {
                let name = [b"Adobe-".as_slice(), ordering, b"-UCS2"].concat();
                let data = load_embedded(CMapName::from_bytes(&name))?;
                CMap::parse(data, load_embedded).map(Rc::new)
            })
            .clone()
    }
}
