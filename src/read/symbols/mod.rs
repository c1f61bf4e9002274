//! Symbol-encoded fonts: `Symbol`, `Wingdings`, `Wingdings 2`, `Wingdings 3` and
//! `Webdings` place their glyphs on the byte codes 0x20..=0xFF, not on the Unicode
//! characters they show. A document stores such a character as the byte itself
//! (`³` in a Symbol run is `≥`), as the byte raised into the Private Use Area
//! (U+F0B3, what the fonts' cmap carries and Word writes), or as a DOCX `w:sym`
//! (ECMA-376 Part 1, 17.3.3.30) naming font and code. A reader without the font shows
//! a Latin-1 look-alike or an invisible private-use character; [`SymbolFont::glyph`]
//! gives the Unicode character instead (table: `table.rs`, generated from the npm
//! package dingbat-to-unicode by `scripts/gen-symbol-fonts.mjs`).

mod table;

/// One of the symbol-encoded fonts whose glyphs are mapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SymbolFont {
    Symbol,
    Wingdings,
    Wingdings2,
    Wingdings3,
    Webdings,
}

impl SymbolFont {
    /// The font a font name (`w:rFonts/@w:ascii`, `w:sym/@w:font`, an RTF font table
    /// entry) names, case and spaces ignored; `None` for any other font.
    pub(crate) fn named(name: &str) -> Option<SymbolFont> {
        let mut key = [0u8; 16];
        let mut n = 0;
        for b in name.bytes().filter(|b| *b != b' ') {
            *key.get_mut(n)? = b.to_ascii_lowercase();
            n += 1;
        }
        match &key[..n] {
            b"symbol" => Some(SymbolFont::Symbol),
            b"wingdings" | b"wingdings1" => Some(SymbolFont::Wingdings),
            b"wingdings2" => Some(SymbolFont::Wingdings2),
            b"wingdings3" => Some(SymbolFont::Wingdings3),
            b"webdings" => Some(SymbolFont::Webdings),
            _ => None,
        }
    }

    fn table(self) -> &'static [u32; 224] {
        match self {
            SymbolFont::Symbol => &table::SYMBOL,
            SymbolFont::Wingdings => &table::WINGDINGS,
            SymbolFont::Wingdings2 => &table::WINGDINGS_2,
            SymbolFont::Wingdings3 => &table::WINGDINGS_3,
            SymbolFont::Webdings => &table::WEBDINGS,
        }
    }

    /// What `code` shows in this font: `Some(Some(c))` for a glyph, `Some(None)` for a
    /// symbol code (0x20..=0xFF or U+F020..=U+F0FF) where the font has none, `None`
    /// for a code outside both ranges (ordinary text in the run, kept as it is).
    pub(crate) fn glyph(self, code: u32) -> Option<Option<char>> {
        let byte = match code {
            0x20..=0xFF => code,
            0xF020..=0xF0FF => code - 0xF000,
            _ => return None,
        };
        let mapped = self.table()[(byte - 0x20) as usize];
        Some(char::from_u32(mapped).filter(|_| mapped != 0))
    }
}

/// The fonts of a DOCX run's two Latin slots (ECMA-376 Part 1, 17.3.2.26 `w:rFonts`):
/// `ascii` shows U+0000..U+007F, `high_ansi` the other characters up to U+00FF; each is
/// `None` unless a symbol-encoded font fills the slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SymbolFonts {
    pub ascii: Option<SymbolFont>,
    pub high_ansi: Option<SymbolFont>,
}

impl SymbolFonts {
    /// Whether either slot is a symbol font.
    pub(crate) fn any(self) -> bool {
        self.ascii.is_some() || self.high_ansi.is_some()
    }

    /// `text` as the run shows it: an ASCII character through the `ascii` font, a
    /// Latin-1 one through the `high_ansi` font, a private-use U+F020..U+F0FF one (the
    /// symbol encoding's own) through whichever slot holds a symbol font; codes a
    /// symbol font has no glyph for are dropped, everything else is kept.
    pub(crate) fn map_text(self, text: &str) -> String {
        text.chars()
            .filter_map(|c| {
                let font = match u32::from(c) {
                    0x00..=0x7F => self.ascii,
                    0x80..=0xFF => self.high_ansi,
                    0xF020..=0xF0FF => self.ascii.or(self.high_ansi),
                    _ => None,
                };
                match font.and_then(|f| f.glyph(u32::from(c))) {
                    Some(glyph) => glyph,
                    None => Some(c),
                }
            })
            .collect()
    }
}

/// The character a `w:sym` shows (ECMA-376 Part 1, 17.3.3.30: `w:font` and the hex
/// code `w:char`). In a mapped symbol font, the font's glyph. In any other font a code
/// in U+F020..=U+F0FF is the font's byte raised into the Private Use Area: taken as
/// that byte's Latin-1 character when printable (the best guess without the font);
/// other codes are kept as they are.
pub(crate) fn sym_char(font: Option<&str>, hex: &str) -> Option<char> {
    let code = u32::from_str_radix(hex.trim(), 16).ok()?;
    if let Some(f) = font.and_then(SymbolFont::named) {
        if let Some(glyph) = f.glyph(code) {
            return glyph;
        }
    }
    if (0xF020..=0xF0FF).contains(&code) {
        if let Some(c) = char::from_u32(code - 0xF000).filter(|c| !c.is_control()) {
            return Some(c);
        }
    }
    char::from_u32(code).filter(|c| !c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_ignore_case_and_spaces() {
        assert_eq!(
            SymbolFont::named("Wingdings 2"),
            Some(SymbolFont::Wingdings2)
        );
        assert_eq!(SymbolFont::named("SYMBOL"), Some(SymbolFont::Symbol));
        assert_eq!(SymbolFont::named("Symbol MT"), None);
        assert_eq!(
            SymbolFont::named("a font name longer than the key buffer"),
            None
        );
    }

    #[test]
    fn glyphs_in_both_encodings() {
        // Symbol 0xB3 is GREATER-THAN OR EQUAL TO, 0xAE RIGHTWARDS ARROW.
        assert_eq!(SymbolFont::Symbol.glyph(0xB3), Some(Some('≥')));
        assert_eq!(SymbolFont::Symbol.glyph(0xF0AE), Some(Some('→')));
        // Wingdings 0xFC is CHECK MARK; 0xFE BALLOT BOX WITH BOLD CHECK.
        assert_eq!(SymbolFont::Wingdings.glyph(0xF0FC), Some(Some('✓')));
        assert_eq!(SymbolFont::Wingdings.glyph(0xFE), Some(Some('\u{1F5F9}')));
        // Symbol has no glyph at 0x80; a Cyrillic letter is not a symbol code.
        assert_eq!(SymbolFont::Symbol.glyph(0x80), Some(None));
        assert_eq!(SymbolFont::Symbol.glyph(u32::from('ж')), None);
        let symbol = SymbolFonts {
            ascii: Some(SymbolFont::Symbol),
            high_ansi: Some(SymbolFont::Symbol),
        };
        assert_eq!(symbol.map_text("a\u{F0B3}b ж"), "α≥β ж");
    }

    #[test]
    fn each_slot_maps_its_own_characters() {
        // Symbol in the ASCII slot only: Latin-1 letters are in the high-ANSI font.
        let ascii_only = SymbolFonts {
            ascii: Some(SymbolFont::Symbol),
            high_ansi: None,
        };
        assert_eq!(ascii_only.map_text("café \u{F0B3}"), "χαφé ≥");
        assert!(!SymbolFonts::default().any());
        assert_eq!(
            SymbolFonts::default().map_text("caf\u{F0B3}"),
            "caf\u{F0B3}"
        );
    }

    #[test]
    fn sym_in_an_unmapped_font_keeps_the_latin1_guess() {
        assert_eq!(sym_char(Some("Symbol"), "F0B3"), Some('≥'));
        assert_eq!(sym_char(Some("Marlett"), "F0B3"), Some('³'));
        assert_eq!(sym_char(None, "2713"), Some('✓'));
        assert_eq!(sym_char(Some("Symbol"), "zz"), None);
    }
}
