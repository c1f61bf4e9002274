//! The few CSS declarations of an inline `style` attribute the reader acts on
//! (CSS 2.1 9.2.4 `display`, 11.2 `visibility`, 13.3.1 `page-break-*`, CSS Fragmentation
//! 3 `break-before`/`break-after`, 16.6 `white-space`, 15.6 `font-weight`, 15.7
//! `font-style`, 16.3 `text-decoration`, 10.8.1 `vertical-align`), plus Word's
//! `mso-hide: all` and `mso-list` paragraph marks. Style sheets are not applied.

/// What an inline style says, as far as the reader cares.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct InlineStyle {
    /// `display: none`, `visibility: hidden|collapse` or `mso-hide: all`.
    pub hidden: bool,
    /// A forced page break before the element.
    pub break_before: bool,
    /// A forced page break after the element.
    pub break_after: bool,
    /// `white-space`: `Some(true)` preserves (pre, pre-wrap, pre-line, break-spaces),
    /// `Some(false)` collapses (normal, nowrap).
    pub preserve: Option<bool>,
    /// `font-weight` bold (bold, bolder, 600-900) or not (normal, lighter, 100-500).
    pub bold: Option<bool>,
    /// `font-style` italic/oblique or normal.
    pub italic: Option<bool>,
    /// `text-decoration(-line)` underline.
    pub underline: bool,
    /// `text-decoration(-line)` line-through.
    pub strike: bool,
    /// `vertical-align: super`.
    pub superscript: bool,
    /// `vertical-align: sub`.
    pub subscript: bool,
    /// Word's `mso-list: l0 level2 lfo1`: the list level (1-based), and `mso-list:
    /// Ignore` (the generated list marker) as 0.
    pub mso_list: Option<u8>,
}

/// Parses a `style` attribute value; unknown declarations are ignored.
pub(super) fn parse(style: &str) -> InlineStyle {
    let mut s = InlineStyle::default();
    for decl in style.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let value = value
            .trim()
            .trim_end_matches("!important")
            .trim()
            .to_ascii_lowercase();
        let v = value.as_str();
        match prop.as_str() {
            "display" => s.hidden |= v == "none",
            "visibility" => s.hidden |= v == "hidden" || v == "collapse",
            "mso-hide" => s.hidden |= v == "all",
            "page-break-before" => s.break_before |= v == "always" || forced(v),
            "page-break-after" => s.break_after |= v == "always" || forced(v),
            "break-before" => s.break_before |= forced(v),
            "break-after" => s.break_after |= forced(v),
            "white-space" => {
                s.preserve = match v {
                    "pre" | "pre-wrap" | "pre-line" | "break-spaces" => Some(true),
                    "normal" | "nowrap" => Some(false),
                    _ => s.preserve,
                }
            }
            "font-weight" => {
                s.bold = match v {
                    "bold" | "bolder" => Some(true),
                    "normal" | "lighter" => Some(false),
                    n => n.parse::<u32>().ok().map(|w| w >= 600).or(s.bold),
                }
            }
            "font-style" => {
                s.italic = match v {
                    "italic" | "oblique" => Some(true),
                    "normal" => Some(false),
                    _ => s.italic,
                }
            }
            "text-decoration" | "text-decoration-line" => {
                s.underline |= v.contains("underline");
                s.strike |= v.contains("line-through");
            }
            "vertical-align" => {
                s.superscript |= v == "super";
                s.subscript |= v == "sub";
            }
            "mso-list" => {
                if v == "ignore" {
                    s.mso_list = Some(0);
                } else if let Some(level) = v
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("level"))
                    .and_then(|n| n.parse::<u8>().ok())
                {
                    s.mso_list = Some(level.max(1));
                }
            }
            _ => {}
        }
    }
    s
}

/// `page`, `left`, `right`, `recto`, `verso`: values that force a page break.
fn forced(v: &str) -> bool {
    matches!(v, "page" | "left" | "right" | "recto" | "verso")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations() {
        let s = parse("DISPLAY: none ; page-break-before:always");
        assert!(s.hidden && s.break_before && !s.break_after);
        let s = parse("break-after: page; font-weight: 700; font-style: italic");
        assert!(s.break_after);
        assert_eq!((s.bold, s.italic), (Some(true), Some(true)));
        assert!(!parse("break-before: auto; visibility: visible").break_before);
        assert!(parse("text-decoration: underline line-through").strike);
        assert_eq!(parse("white-space: pre-wrap").preserve, Some(true));
        assert_eq!(parse("mso-list:l0 level2 lfo1").mso_list, Some(2));
        assert_eq!(parse("mso-list:Ignore").mso_list, Some(0));
        assert!(parse("mso-hide:all").hidden);
        assert_eq!(parse("color: red; garbage"), InlineStyle::default());
    }
}
