//! The style sheet (RTF 1.9.1, "Style Sheet"): paragraph styles `\sN` with their
//! names, `\outlinelevelN` and `\sbasedonN`. A paragraph's `\sN` makes it a heading when
//! the style (or a style it is based on) has an outline level 0..8, or is named
//! "heading 1".."heading 9"; a style named "Title" makes it the document title.
//! Character (`\*\csN`), section (`\dsN`) and table (`\*\tsN`) styles carry no roles.

use std::collections::HashMap;

/// What a paragraph style makes of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Heading level 1..=9.
    Heading(u8),
    /// The document title.
    Title,
}

#[derive(Debug, Clone, Default)]
struct Style {
    name: String,
    outline: Option<u8>,
    based_on: Option<i32>,
}

/// Paragraph styles by number.
#[derive(Debug, Default)]
pub(crate) struct StyleSheet {
    styles: HashMap<i32, Style>,
    entry: Option<(i32, bool, Style)>,
}

impl StyleSheet {
    /// A style entry group opens.
    pub(crate) fn begin(&mut self) {
        self.entry = Some((0, true, Style::default()));
    }

    /// `\sN` (paragraph style) or another style kind (`is_para` false) in the entry.
    pub(crate) fn number(&mut self, n: i32, is_para: bool) {
        if let Some(e) = &mut self.entry {
            e.0 = n;
            e.1 = is_para;
        }
    }

    /// `\outlinelevelN` in the entry.
    pub(crate) fn outline(&mut self, n: i32) {
        if let Some(e) = &mut self.entry {
            e.2.outline = u8::try_from(n).ok().filter(|&l| l <= 8);
        }
    }

    /// `\sbasedonN` in the entry.
    pub(crate) fn based_on(&mut self, n: i32) {
        if let Some(e) = &mut self.entry {
            e.2.based_on = Some(n);
        }
    }

    /// The entry group closes with `name` (its text, trailing `;` included).
    pub(crate) fn end(&mut self, name: &str) {
        if let Some((n, true, mut style)) = self.entry.take() {
            style.name = name.trim().trim_end_matches(';').trim().to_string();
            self.styles.insert(n, style);
        }
    }

    /// The role of paragraph style `n`, following `\sbasedon` (at most 16 steps).
    pub(crate) fn role(&self, n: i32) -> Option<Role> {
        let mut id = n;
        for _ in 0..16 {
            let style = self.styles.get(&id)?;
            if let Some(l) = style.outline {
                return Some(Role::Heading(l + 1));
            }
            if let Some(r) = name_role(&style.name) {
                return Some(r);
            }
            id = style.based_on.filter(|&b| b != id)?;
        }
        None
    }
}

/// The role a built-in style name implies ("heading 2", "Heading 2", "Title").
fn name_role(name: &str) -> Option<Role> {
    let lower = name.to_ascii_lowercase();
    if lower == "title" {
        return Some(Role::Title);
    }
    let level = lower.strip_prefix("heading")?.trim();
    match level.parse::<u8>() {
        Ok(l @ 1..=9) => Some(Role::Heading(l)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outline_levels_and_based_on() {
        let mut s = StyleSheet::default();
        s.begin();
        s.number(1, true);
        s.end("heading 1;");
        s.begin();
        s.number(5, true);
        s.outline(2);
        s.end("My Head;");
        s.begin();
        s.number(6, true);
        s.based_on(5);
        s.end("Derived;");
        s.begin();
        s.number(7, false);
        s.end("heading 2;");
        assert_eq!(s.role(1), Some(Role::Heading(1)));
        assert_eq!(s.role(5), Some(Role::Heading(3)));
        assert_eq!(s.role(6), Some(Role::Heading(3)));
        assert_eq!(s.role(7), None);
        assert_eq!(s.role(0), None);
    }
}
