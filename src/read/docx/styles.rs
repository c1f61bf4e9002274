//! The style sheet (ECMA-376 Part 1, 17.7 `styles.xml`) resolved into what the model
//! needs: heading level, title, numbering and run formatting of a paragraph style, and
//! run formatting of a character style, each through its `w:basedOn` chain (17.7.4.3).
//!
//! Heading levels come from `w:pPr/w:outlineLvl` (17.3.1.20) found first along the
//! chain; a style without one is still a heading when its name or id is a built-in
//! heading name ("heading 1".."heading 9", any case; Word always writes built-in names
//! in English) or a common localized one ("Überschrift 1", "Titre 1", "Título 1", ...).
//! Outline level 9 means body text. Results are memoized per style id, so resolving is
//! linear in the number of paragraphs.

use std::collections::HashMap;

use crate::error::ConvertError;

use super::layout_props::LayoutProps;
use super::ppr::{NumRef, read_ppr};
use super::rpr::{RunProps, read_rpr};
use super::xml::{Ev, Ns, Xml};

/// Longest `w:basedOn` chain followed (guards against cycles).
const MAX_CHAIN: usize = 32;

/// Localized heading style names (lower case, without the level number).
const HEADING_NAMES: &[&str] = &[
    "heading",
    "überschrift",
    "titre",
    "título",
    "titulo",
    "titolo",
    "kop",
    "rubrik",
    "overskrift",
    "otsikko",
    "nagłówek",
    "nadpis",
    "címsor",
    "başlık",
    "заголовок",
    "見出し",
    "标题",
    "標題",
    "제목",
];

#[derive(Debug, Clone, Default)]
struct Style {
    name: Option<String>,
    based_on: Option<String>,
    outline: Option<u8>,
    num: Option<NumRef>,
    page_break_before: Option<bool>,
    run: RunProps,
    layout: LayoutProps,
}

/// What a paragraph style contributes, resolved through its chain.
#[derive(Debug, Clone, Default)]
pub(crate) struct ParaStyle {
    /// Outline level 0..=9.
    pub outline: Option<u8>,
    /// The `Title` style (or one based on it).
    pub title: bool,
    /// Numbering reference (first `numId` and first `ilvl` along the chain).
    pub num: Option<NumRef>,
    /// Page break before.
    pub page_break_before: bool,
    /// Run formatting of the style (document defaults included).
    pub run: RunProps,
    /// Spacing, indentation, keep properties and font size through the chain
    /// (document defaults included), for the page estimate.
    pub layout: LayoutProps,
    /// The same without the document defaults (`w:pPrDefault`), which a table style
    /// overrides in table cells (17.7.2).
    pub chain: LayoutProps,
}

/// The parsed style sheet with memoized resolution.
#[derive(Debug, Default)]
pub(crate) struct Styles {
    styles: HashMap<String, Style>,
    defaults: RunProps,
    /// `w:pPrDefault` layout properties.
    layout_defaults: LayoutProps,
    default_para: Option<String>,
    para_cache: HashMap<String, ParaStyle>,
    char_cache: HashMap<String, RunProps>,
}

impl Styles {
    /// Parses `styles.xml`.
    ///
    /// # Errors
    /// XML errors from [`Xml::next`].
    pub(crate) fn parse(x: &mut Xml<'_>) -> Result<Styles, ConvertError> {
        let mut st = Styles::default();
        loop {
            match x.next()? {
                Ev::Start(s) if s.is(Ns::W, "style") => {
                    let id = s.w("styleId").unwrap_or("").to_string();
                    let para = s.w("type").is_none_or(|t| t == "paragraph");
                    if para
                        && s.w("default")
                            .is_some_and(|d| matches!(d, "1" | "true" | "on"))
                    {
                        st.default_para = Some(id.clone());
                    }
                    let style = read_style(x)?;
                    st.styles.entry(id).or_insert(style);
                }
                Ev::Start(s) if s.is(Ns::W, "pPrDefault") => loop {
                    match x.next()? {
                        Ev::Start(p) if p.is(Ns::W, "pPr") => {
                            st.layout_defaults = read_ppr(x)?.layout;
                        }
                        Ev::Start(_) => x.skip()?,
                        Ev::End | Ev::Eof => break,
                        Ev::Text(_) => {}
                    }
                },
                Ev::Start(s) if s.is(Ns::W, "rPrDefault") => {
                    // <w:rPrDefault><w:rPr>..</w:rPr></w:rPrDefault>
                    loop {
                        match x.next()? {
                            Ev::Start(r) if r.is(Ns::W, "rPr") => st.defaults = read_rpr(x)?.0,
                            Ev::Start(_) => x.skip()?,
                            Ev::End | Ev::Eof => break,
                            Ev::Text(_) => {}
                        }
                    }
                }
                Ev::Start(s) if s.is(Ns::W, "styles") || s.is(Ns::W, "docDefaults") => {}
                Ev::Start(_) => x.skip()?,
                Ev::End | Ev::Text(_) => {}
                Ev::Eof => return Ok(st),
            }
        }
    }

    /// The style id a paragraph without `w:pStyle` uses.
    pub(crate) fn default_paragraph(&self) -> Option<&str> {
        self.default_para.as_deref()
    }

    /// The numbering reference a style declares itself (no chain), for
    /// `w:numStyleLink` resolution.
    pub(crate) fn own_num(&self, id: &str) -> Option<&NumRef> {
        self.styles.get(id).and_then(|s| s.num.as_ref())
    }

    /// Resolves a paragraph style (`None` = the default paragraph style).
    pub(crate) fn paragraph(&mut self, id: Option<&str>) -> ParaStyle {
        let id = match id.or(self.default_para.as_deref()) {
            Some(i) => i.to_string(),
            None => {
                let chain = LayoutProps {
                    font: self.defaults.size,
                    mono: self.defaults.code,
                    face: self.defaults.face,
                    ..LayoutProps::default()
                };
                return ParaStyle {
                    run: self.defaults,
                    layout: self.layout_defaults.then(chain),
                    chain,
                    ..ParaStyle::default()
                };
            }
        };
        if let Some(p) = self.para_cache.get(&id) {
            return p.clone();
        }
        let mut out = ParaStyle::default();
        let mut runs = Vec::new();
        let mut layouts = Vec::new();
        let mut cur = Some(id.clone());
        let mut num_id = None;
        let mut num_level = None;
        let mut pbb = None;
        for _ in 0..MAX_CHAIN {
            let Some(sid) = cur.take() else { break };
            let Some(style) = self.styles.get(&sid) else {
                break;
            };
            let name = style.name.as_deref().unwrap_or("");
            if out.outline.is_none() {
                out.outline = style
                    .outline
                    .or_else(|| heading_level(name).or(heading_level(&sid)));
            }
            if name.eq_ignore_ascii_case("title") || sid.eq_ignore_ascii_case("title") {
                out.title = true;
            }
            if let Some(n) = &style.num {
                num_id = num_id.or(n.num_id.clone());
                num_level = num_level.or(n.level);
            }
            pbb = pbb.or(style.page_break_before);
            runs.push(style.run);
            layouts.push(style.layout);
            cur = style.based_on.clone();
        }
        out.num = num_id.map(|n| NumRef {
            num_id: Some(n),
            level: num_level,
        });
        out.page_break_before = pbb.unwrap_or(false);
        out.run = runs.iter().rev().fold(self.defaults, |acc, r| acc.then(*r));
        out.chain = layouts
            .iter()
            .rev()
            .fold(LayoutProps::default(), |acc, l| acc.then(*l))
            .then(LayoutProps {
                font: out.run.size,
                mono: out.run.code,
                face: out.run.face,
                ..LayoutProps::default()
            });
        out.layout = self.layout_defaults.then(out.chain);
        self.para_cache.insert(id, out.clone());
        out
    }

    /// The layout properties of a paragraph style (`None` = the default paragraph
    /// style), through its chain; as [`Styles::paragraph`] without the copy.
    pub(crate) fn paragraph_layout(&mut self, id: Option<&str>) -> LayoutProps {
        if let Some(p) = id
            .or(self.default_para.as_deref())
            .and_then(|k| self.para_cache.get(k))
        {
            return p.layout;
        }
        self.paragraph(id).layout
    }

    /// The layout of a paragraph of style `id` in a table cell whose table style
    /// gives `table` (17.7.2: document defaults, then the table style, then the
    /// paragraph style).
    pub(crate) fn paragraph_layout_in(
        &mut self,
        id: Option<&str>,
        table: LayoutProps,
    ) -> LayoutProps {
        let chain = match id
            .or(self.default_para.as_deref())
            .and_then(|k| self.para_cache.get(k))
        {
            Some(p) => p.chain,
            None => self.paragraph(id).chain,
        };
        self.layout_defaults.then(table).then(chain)
    }

    /// The paragraph layout a table style (17.7.6) gives its cells, through its chain
    /// (its fonts are left to the paragraphs).
    pub(crate) fn table_layout(&mut self, id: &str) -> LayoutProps {
        let chain = self.paragraph(Some(id)).chain;
        LayoutProps {
            font: None,
            mono: None,
            face: None,
            ..chain
        }
    }

    /// Resolves a character style's run formatting (without document defaults).
    pub(crate) fn character(&mut self, id: &str) -> RunProps {
        if let Some(r) = self.char_cache.get(id) {
            return *r;
        }
        let mut runs = Vec::new();
        let mut cur = Some(id.to_string());
        for _ in 0..MAX_CHAIN {
            let Some(sid) = cur.take() else { break };
            let Some(style) = self.styles.get(&sid) else {
                break;
            };
            runs.push(style.run);
            cur = style.based_on.clone();
        }
        let out = runs
            .iter()
            .rev()
            .fold(RunProps::default(), |acc, r| acc.then(*r));
        self.char_cache.insert(id.to_string(), out);
        out
    }

    /// Document default run formatting.
    pub(crate) fn defaults(&self) -> RunProps {
        self.defaults
    }
}

fn read_style(x: &mut Xml<'_>) -> Result<Style, ConvertError> {
    let mut st = Style::default();
    loop {
        match x.next()? {
            Ev::Start(s) if s.ns == Ns::W => match s.local {
                "name" => {
                    st.name = s.w("val").map(str::to_string);
                    x.skip()?;
                }
                "basedOn" => {
                    st.based_on = s.w("val").map(str::to_string);
                    x.skip()?;
                }
                "pPr" => {
                    let p = read_ppr(x)?;
                    st.outline = p.outline;
                    st.num = p.num;
                    st.page_break_before = p.page_break_before;
                    st.layout = p.layout;
                }
                "rPr" => st.run = read_rpr(x)?.0,
                _ => x.skip()?,
            },
            Ev::Start(_) => x.skip()?,
            Ev::End | Ev::Eof => return Ok(st),
            Ev::Text(_) => {}
        }
    }
}

/// The outline level (0-based) a heading style name implies: "heading 2" -> 1.
pub(crate) fn heading_level(name: &str) -> Option<u8> {
    let lower = name.trim().to_lowercase();
    let digits_at = lower.find(|c: char| c.is_ascii_digit())?;
    let (stem, num) = lower.split_at(digits_at);
    let level: u8 = num.trim().parse().ok()?;
    if !(1..=9).contains(&level) {
        return None;
    }
    let stem = stem.trim();
    HEADING_NAMES.contains(&stem).then_some(level - 1)
}

#[cfg(test)]
mod tests {
    use super::heading_level;

    #[test]
    fn heading_names() {
        assert_eq!(heading_level("heading 1"), Some(0));
        assert_eq!(heading_level("Heading3"), Some(2));
        assert_eq!(heading_level("Überschrift 2"), Some(1));
        assert_eq!(heading_level("Titre 4"), Some(3));
        assert_eq!(heading_level("Título 1"), Some(0));
        assert_eq!(heading_level("Normal"), None);
        assert_eq!(heading_level("heading 10"), None);
    }
}
