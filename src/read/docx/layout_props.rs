//! The paragraph properties that decide how tall a paragraph is on the page, for the
//! page estimate (`estimate.rs`): spacing (ECMA-376 Part 1, 17.3.1.33 `w:spacing`),
//! indentation (17.3.1.12 `w:ind`), keep with next (17.3.1.15 `w:keepNext`), keep
//! lines together (17.3.1.14 `w:keepLines`) and contextual spacing (17.3.1.9
//! `w:contextualSpacing`: no space between paragraphs of the same style).
//!
//! Each property is optional so the style hierarchy (17.7.2: document defaults,
//! paragraph style chain, direct formatting) applies in order with [`LayoutProps::then`].

use crate::read::pagefit::{Face, LineSpacing, ParaMetrics};

use super::xml::Start;

/// Layout properties as read (twips; `line` in 240ths when the rule is `auto`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LayoutProps {
    pub before: Option<u32>,
    pub after: Option<u32>,
    /// `w:beforeAutospacing`/`w:afterAutospacing` (HTML-style 14 pt), as (before, after).
    pub auto_space: (Option<bool>, Option<bool>),
    pub line: Option<LineSpacing>,
    pub left: Option<i32>,
    pub right: Option<i32>,
    /// First-line indent; negative for `w:hanging`.
    pub first_line: Option<i32>,
    pub keep_next: Option<bool>,
    pub keep_lines: Option<bool>,
    pub contextual: Option<bool>,
    /// Font size of the paragraph's text, half-points (`w:sz` of the run properties).
    pub font: Option<u16>,
    /// The text font is monospaced.
    pub mono: Option<bool>,
    /// The text font's proportions.
    pub face: Option<Face>,
}

impl LayoutProps {
    /// `self` with every property `over` sets replaced.
    pub(crate) fn then(self, over: LayoutProps) -> LayoutProps {
        LayoutProps {
            before: over.before.or(self.before),
            after: over.after.or(self.after),
            auto_space: (
                over.auto_space.0.or(self.auto_space.0),
                over.auto_space.1.or(self.auto_space.1),
            ),
            line: over.line.or(self.line),
            left: over.left.or(self.left),
            right: over.right.or(self.right),
            first_line: over.first_line.or(self.first_line),
            keep_next: over.keep_next.or(self.keep_next),
            keep_lines: over.keep_lines.or(self.keep_lines),
            contextual: over.contextual.or(self.contextual),
            font: over.font.or(self.font),
            mono: over.mono.or(self.mono),
            face: over.face.or(self.face),
        }
    }

    /// Reads one `w:pPr` child into `self`; false when it is not a layout property.
    pub(crate) fn read(&mut self, s: &Start<'_>) -> bool {
        match s.local {
            "spacing" => {
                let get = |n| s.w(n).and_then(twips).map(|v| v.clamp(0, 31_680) as u32);
                self.before = get("before").or(self.before);
                self.after = get("after").or(self.after);
                let on = |n| s.w(n).map(|v| !matches!(v, "0" | "false" | "off"));
                self.auto_space = (
                    on("beforeAutospacing").or(self.auto_space.0),
                    on("afterAutospacing").or(self.auto_space.1),
                );
                if let Some(line) = s.w("line").and_then(twips) {
                    let line = line.unsigned_abs().min(31_680) as u32;
                    self.line = Some(match s.w("lineRule") {
                        Some("exact") => LineSpacing::Exact(line),
                        Some("atLeast") => LineSpacing::AtLeast(line),
                        _ => LineSpacing::Auto(line),
                    });
                }
            }
            "ind" => {
                let get = |a: &str, b: &str| {
                    s.w(a)
                        .or_else(|| s.w(b))
                        .and_then(twips)
                        .map(|v| v.clamp(-31_680, 31_680) as i32)
                };
                self.left = get("start", "left").or(self.left);
                self.right = get("end", "right").or(self.right);
                if let Some(h) = get("hanging", "hanging") {
                    self.first_line = Some(-h);
                } else if let Some(f) = get("firstLine", "firstLine") {
                    self.first_line = Some(f);
                }
            }
            "keepNext" => self.keep_next = Some(s.on_off()),
            "keepLines" => self.keep_lines = Some(s.on_off()),
            "contextualSpacing" => self.contextual = Some(s.on_off()),
            _ => return false,
        }
        true
    }

    /// The resolved metrics (unset = Word's defaults).
    pub(crate) fn metrics(&self) -> ParaMetrics {
        let d = ParaMetrics::default();
        // Auto spacing is 14 pt before and after (as Word applies to HTML paragraphs).
        let auto = |flag: Option<bool>, v: Option<u32>| match flag {
            Some(true) => Some(280),
            _ => v,
        };
        ParaMetrics {
            font: self.font.unwrap_or(d.font).clamp(2, 3_276),
            line: self.line.unwrap_or(d.line),
            before: auto(self.auto_space.0, self.before).unwrap_or(d.before),
            after: auto(self.auto_space.1, self.after).unwrap_or(d.after),
            indent: self
                .left
                .unwrap_or(0)
                .saturating_add(self.right.unwrap_or(0)),
            first_line: self.first_line.unwrap_or(0),
            keep_next: self.keep_next.unwrap_or(false),
            mono: self.mono.unwrap_or(false),
            face: self.face.unwrap_or(Face::UNKNOWN),
        }
    }
}

/// A length attribute in twips: a plain number (ST_TwipsMeasure, ST_SignedTwipsMeasure)
/// or a number with a unit (22.9.2.15 ST_UniversalMeasure: `mm`, `cm`, `in`, `pt`,
/// `pc`, `pi`).
pub(crate) fn twips(v: &str) -> Option<i64> {
    let v = v.trim();
    if let Ok(n) = v.parse::<i64>() {
        return Some(n);
    }
    let split = v.find(|c: char| c.is_ascii_alphabetic())?;
    let (num, unit) = v.split_at(split);
    let n: f64 = num.trim().parse().ok()?;
    let per = match unit {
        "in" => 1440.0,
        "cm" => 1440.0 / 2.54,
        "mm" => 144.0 / 2.54,
        "pt" => 20.0,
        "pc" | "pi" => 240.0,
        _ => return None,
    };
    let t = n * per;
    t.is_finite().then(|| t.clamp(-1e9, 1e9) as i64)
}

#[cfg(test)]
mod tests {
    use super::twips;

    #[test]
    fn lengths_read_with_and_without_units() {
        assert_eq!(twips("1440"), Some(1440));
        assert_eq!(twips("-360"), Some(-360));
        assert_eq!(twips("1in"), Some(1440));
        assert_eq!(twips("12pt"), Some(240));
        assert_eq!(twips("2.54cm"), Some(1440));
        assert_eq!(twips("wide"), None);
        assert_eq!(twips("1e400in"), None);
    }
}
