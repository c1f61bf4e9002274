//! Lists (RTF 1.9.1, "List Table", "List Override Table", "Paragraph Text"): a
//! paragraph with `\lsN` (and `\ilvlN`) is an item of the list that override N points
//! to; the list's level says bullet (`\levelnfc23`) or numbered (any other format but
//! 255, "none"). The `\listtext` / `\pntext` group before the text is the label a
//! writer computed; it is not content, but when the tables do not say, a label with a
//! letter or digit means numbered. Legacy `\pn` paragraphs (Word 6/95) say it with
//! `\pnlvlblt` (bullet) or `\pnlvlbody` / `\pnlvlN` (numbered). Numbers are counted
//! here per override and level, deeper levels restarting after a shallower item.

use std::collections::HashMap;

#[derive(Debug, Clone, Copy)]
struct Level {
    ordered: bool,
    start: u32,
}

impl Default for Level {
    fn default() -> Self {
        Level {
            ordered: true,
            start: 1,
        }
    }
}

/// The list and override tables, and the item counters.
#[derive(Debug, Default)]
pub(crate) struct Lists {
    lists: HashMap<i32, Vec<Level>>,
    overrides: HashMap<i32, i32>,
    list: Option<(i32, Vec<Level>)>,
    over: (i32, i32),
    counters: HashMap<i32, Vec<u32>>,
}

/// Levels a list may have (the spec defines 9; more is clamped).
const MAX_LEVELS: usize = 9;

impl Lists {
    /// A `\list` group opens.
    pub(crate) fn begin_list(&mut self) {
        self.list = Some((0, Vec::new()));
    }

    /// A `\listlevel` group opens.
    pub(crate) fn begin_level(&mut self) {
        if let Some((_, levels)) = &mut self.list
            && levels.len() < MAX_LEVELS
        {
            levels.push(Level::default());
        }
    }

    /// `\levelnfcN` / `\levelnfcnN`.
    pub(crate) fn format(&mut self, nfc: i32) {
        if let Some(l) = self.level() {
            l.ordered = nfc != 23 && nfc != 255;
        }
    }

    /// `\levelstartatN`.
    pub(crate) fn start_at(&mut self, n: i32) {
        if let Some(l) = self.level() {
            l.start = u32::try_from(n).unwrap_or(1);
        }
    }

    fn level(&mut self) -> Option<&mut Level> {
        self.list.as_mut().and_then(|(_, levels)| levels.last_mut())
    }

    /// `\listidN` inside a `\list` or a `\listoverride`.
    pub(crate) fn list_id(&mut self, id: i32, in_override: bool) {
        if in_override {
            self.over.0 = id;
        } else if let Some(l) = &mut self.list {
            l.0 = id;
        }
    }

    /// `\lsN` inside a `\listoverride`.
    pub(crate) fn override_ls(&mut self, ls: i32) {
        self.over.1 = ls;
    }

    /// A `\list` group closes.
    pub(crate) fn end_list(&mut self) {
        if let Some((id, levels)) = self.list.take() {
            self.lists.insert(id, levels);
        }
    }

    /// A `\listoverride` group closes.
    pub(crate) fn end_override(&mut self) {
        let (list, ls) = std::mem::take(&mut self.over);
        self.overrides.insert(ls, list);
    }

    /// Whether items of override `ls` at `level` are numbered, when the tables say.
    fn ordered(&self, ls: i32, level: u8) -> Option<(bool, u32)> {
        let list = self.overrides.get(&ls)?;
        let l = self.lists.get(list)?.get(usize::from(level))?;
        Some((l.ordered, l.start))
    }

    /// Counts an item of override `ls` (0 for legacy `\pn` lists) at `level`:
    /// (numbered, number). `label` is the writer's `\listtext`, if any.
    pub(crate) fn item(
        &mut self,
        ls: i32,
        level: u8,
        label: Option<&str>,
        pn: Option<bool>,
    ) -> (bool, u32) {
        let (ordered, start) = match (self.ordered(ls, level), pn) {
            (Some(o), _) => o,
            (None, Some(o)) => (o, 1),
            (None, None) => (
                label.is_some_and(|l| l.chars().any(char::is_alphanumeric)),
                1,
            ),
        };
        let level = usize::from(level).min(MAX_LEVELS - 1);
        let counts = self.counters.entry(ls).or_default();
        if counts.len() <= level {
            counts.resize(level + 1, 0);
        }
        counts.truncate(level + 1);
        let n = counts.get_mut(level).map_or(1, |c| {
            *c += 1;
            *c
        });
        (ordered, start.saturating_add(n - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullets_numbers_and_counters() {
        let mut l = Lists::default();
        l.begin_list();
        l.begin_level();
        l.format(0);
        l.begin_level();
        l.format(23);
        l.list_id(7, false);
        l.end_list();
        l.list_id(7, true);
        l.override_ls(1);
        l.end_override();
        assert_eq!(l.item(1, 0, None, None), (true, 1));
        assert_eq!(l.item(1, 1, None, None), (false, 1));
        assert_eq!(l.item(1, 0, None, None), (true, 2));
        assert_eq!(l.item(2, 0, Some("\u{b7}"), None), (false, 1));
        assert_eq!(l.item(3, 0, Some("a)"), None), (true, 1));
    }
}
