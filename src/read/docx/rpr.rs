//! Run properties (ECMA-376 Part 1, 17.3.2 `w:rPr`) reduced to what Markdown shows.
//!
//! Each property is tri-state (unset / on / off) so the layers of the style hierarchy
//! (17.7.2: document defaults, paragraph style, character style, direct formatting)
//! can be applied in order, a later layer overriding an earlier one. Toggle properties
//! are treated as overrides rather than XOR-ed (17.7.3); for the emphasis Markdown can
//! express, the two agree in practice.

use crate::error::ConvertError;
use crate::model::TextStyle;
use crate::read::pagefit::Face;
use crate::read::symbols::{SymbolFont, SymbolFonts};

use super::xml::{Ev, Ns, Start, Xml};

/// Tri-state run formatting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RunProps {
    pub bold: Option<bool>,
    pub italic: Option<bool>,
    pub underline: Option<bool>,
    pub strike: Option<bool>,
    pub superscript: Option<bool>,
    pub subscript: Option<bool>,
    pub code: Option<bool>,
    /// The symbol fonts of `w:rFonts`' Latin slots, when the element is there (it
    /// overrides inherited ones, symbol or not).
    pub symbol: Option<SymbolFonts>,
    /// Font size in half-points (17.3.2.38 `w:sz`), for the page estimate.
    pub size: Option<u16>,
    /// The proportions of the Latin font (`w:rFonts`), for the page estimate.
    pub face: Option<Face>,
}

impl RunProps {
    /// `self` with every property that `over` sets replaced.
    pub(crate) fn then(self, over: RunProps) -> RunProps {
        RunProps {
            bold: over.bold.or(self.bold),
            italic: over.italic.or(self.italic),
            underline: over.underline.or(self.underline),
            strike: over.strike.or(self.strike),
            superscript: over.superscript.or(self.superscript),
            subscript: over.subscript.or(self.subscript),
            code: over.code.or(self.code),
            symbol: over.symbol.or(self.symbol),
            size: over.size.or(self.size),
            face: over.face.or(self.face),
        }
    }

    /// The symbol-encoded fonts the run's text is in, if any.
    pub(crate) fn symbol_font(self) -> Option<SymbolFonts> {
        self.symbol.filter(|f| f.any())
    }

    /// The resolved style (unset = off).
    pub(crate) fn style(self) -> TextStyle {
        TextStyle {
            bold: self.bold.unwrap_or(false),
            italic: self.italic.unwrap_or(false),
            underline: self.underline.unwrap_or(false),
            strike: self.strike.unwrap_or(false),
            superscript: self.superscript.unwrap_or(false),
            subscript: self.subscript.unwrap_or(false),
            code: self.code.unwrap_or(false),
        }
    }
}

/// Fonts whose glyphs all have one width; text in them is marked as code.
const MONOSPACE: &[&str] = &[
    "courier new",
    "courier",
    "consolas",
    "lucida console",
    "lucida sans typewriter",
    "menlo",
    "monaco",
    "source code pro",
    "dejavu sans mono",
    "liberation mono",
    "cascadia code",
    "cascadia mono",
    "fira code",
    "fira mono",
    "inconsolata",
    "andale mono",
    "ubuntu mono",
    "roboto mono",
    "noto mono",
    "jetbrains mono",
    "sf mono",
    "pt mono",
];

/// The `w:rPr` children [`apply`] reads (17.3.2); the others are skipped unread.
const RPR_READ: &[(Ns, &str)] = &[
    (Ns::W, "b"),
    (Ns::W, "i"),
    (Ns::W, "u"),
    (Ns::W, "strike"),
    (Ns::W, "dstrike"),
    (Ns::W, "vertAlign"),
    (Ns::W, "rFonts"),
    (Ns::W, "rStyle"),
    (Ns::W, "sz"),
];

/// Reads a `w:rPr` whose start was just returned: the properties and the character
/// style id (`w:rStyle`). Revision records (`w:rPrChange`) are skipped: they hold the
/// formatting before a tracked change.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_rpr(x: &mut Xml<'_>) -> Result<(RunProps, Option<String>), ConvertError> {
    let mut p = RunProps::default();
    let mut style = None;
    loop {
        match x.next_among(RPR_READ)? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    apply(&mut p, &mut style, &s);
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok((p, style)),
            Ev::Text(_) => {}
        }
    }
}

fn apply(p: &mut RunProps, style: &mut Option<String>, s: &Start<'_>) {
    match s.local {
        "b" => p.bold = Some(s.on_off()),
        "i" => p.italic = Some(s.on_off()),
        "u" => p.underline = Some(!matches!(s.w("val"), Some("none" | "0" | "false"))),
        "strike" | "dstrike" => {
            // Either kind on turns strike on; one kind off must not cancel the other.
            let on = s.on_off();
            if on || p.strike.is_none() {
                p.strike = Some(on);
            }
        }
        "vertAlign" => {
            let v = s.w("val").unwrap_or("");
            p.superscript = Some(v == "superscript");
            p.subscript = Some(v == "subscript");
        }
        "rFonts" => {
            // A theme font (w:asciiTheme, w:hAnsiTheme) overrides the named one of its
            // slot (17.3.2.26); theme fonts are text fonts, never symbol fonts.
            let slot = |name: &str, theme: &str| match s.w(theme) {
                Some(_) => None,
                None => s.w(name).map(str::trim),
            };
            let ascii = slot("ascii", "asciiTheme");
            let high_ansi = slot("hAnsi", "hAnsiTheme");
            if s.w("ascii").is_some() || s.w("hAnsi").is_some() || s.w("asciiTheme").is_some() {
                p.symbol = Some(SymbolFonts {
                    ascii: ascii.and_then(SymbolFont::named),
                    high_ansi: high_ansi.and_then(SymbolFont::named),
                });
            }
            if s.w("asciiTheme").is_some() || s.w("hAnsiTheme").is_some() {
                p.face = Some(Face::THEME);
            } else if let Some(f) = ascii.or(high_ansi) {
                p.face = Some(Face::named(f));
            }
            if let Some(f) = ascii.or(high_ansi) {
                let f = f.to_ascii_lowercase();
                p.code = Some(MONOSPACE.contains(&f.as_str()));
            }
        }
        "rStyle" => *style = s.w("val").map(str::to_string),
        "sz" => {
            if let Some(v) = s.w("val").and_then(|v| v.trim().parse::<u16>().ok()) {
                p.size = Some(v.clamp(2, 3_276));
            }
        }
        _ => {}
    }
}
