//! Control words and symbols (RTF 1.9.1): character formatting, paragraph formatting,
//! paragraph / line / page / section ends, table structure, special characters, and
//! the words of the header tables, each applied where the current destination says.

use crate::model::{Inline, NoteKind, ParagraphKind, TextStyle};

use super::blocks::StoryKind;
use super::fonts_codepage::codepage;
use super::keywords::{Kw, lookup};
use super::layout::DEFAULT_FONT_SIZE;
use super::parser::Parser;
use super::state::{Dest, ParaProps, RevProps};
use super::stylesheet::Role;
use super::table::Merge;

/// Deepest table nesting kept: deeper `\itapN` is clamped, so the content of deeper
/// tables lands in the 16th level. Real documents nest a few levels; the bound keeps
/// the work per paragraph small when a file alternates extreme depths.
const MAX_TABLE_DEPTH: u16 = 16;

impl Parser<'_> {
    /// A control symbol other than `\*`.
    pub(super) fn symbol(&mut self, c: u8) {
        match c {
            b'~' => self.emit("\u{a0}"),
            b'_' => self.emit("\u{2011}"),
            b'-' | b':' | b'|' => {}
            _ => {}
        }
    }

    /// A control word; `star` when it follows `\*`.
    pub(super) fn word(&mut self, name: &[u8], param: Option<i32>, star: bool) {
        let kw = lookup(name);
        if self.destination(kw, star) {
            return;
        }
        if star {
            // An ignorable destination this reader does not know.
            self.skip_group();
            return;
        }
        let n = param.unwrap_or(1);
        let on = param != Some(0);
        let dest = self.top().dest;
        match (dest, kw) {
            (Dest::FontTable, Kw::F) => self.fonts.select(n),
            (Dest::FontTable, Kw::Fcharset) => self.fonts.set(n, false),
            (Dest::FontTable, Kw::Cpg) => self.fonts.set(n, true),
            (Dest::StyleEntry, Kw::S) => self.styles.number(n, true),
            (Dest::StyleEntry, Kw::Cs | Kw::Ds | Kw::Ts) => self.styles.number(n, false),
            (Dest::StyleEntry, Kw::Outlinelevel) => self.styles.outline(n),
            (Dest::StyleEntry, Kw::Sbasedon) => self.styles.based_on(n),
            (Dest::ListTable, Kw::Listid) => self.lists.list_id(n, false),
            (Dest::ListTable, Kw::Levelnfc | Kw::Levelnfcn) => self.lists.format(n),
            (Dest::ListTable, Kw::Levelstartat) => self.lists.start_at(n),
            (Dest::OverrideTable, Kw::Listid) => self.lists.list_id(n, true),
            (Dest::OverrideTable, Kw::Ls) => self.lists.override_ls(n),
            (Dest::InfoTime, _) => self.time_word(kw, n),
            (Dest::Pn, Kw::Pnlvlblt) => self.pn = Some((false, 0)),
            (Dest::Pn, Kw::Pnlvlbody) => self.pn = Some((true, 0)),
            (Dest::Pn, Kw::Pnlvl) => self.pn = Some((true, level(n - 1))),
            (Dest::Pn, Kw::Pnlvlcont) => self.pn = None,
            (Dest::StyleEntry | Dest::ListTable | Dest::OverrideTable, _) => {}
            _ => self.common_word(kw, param, n, on),
        }
    }

    /// Words that mean the same in every destination.
    fn common_word(&mut self, kw: Kw, param: Option<i32>, n: i32, on: bool) {
        let nested = self.top().dest == Dest::NestProps;
        match kw {
            Kw::Ansicpg => {
                if let Some(enc) = codepage(n) {
                    self.doc_enc = enc;
                    self.refont();
                }
            }
            Kw::Mac => {
                self.doc_enc = encoding_rs::MACINTOSH;
                self.refont();
            }
            Kw::Deff => self.deff = n,
            Kw::F => {
                self.top_mut().chr.font = n;
                self.refont();
            }
            Kw::Plain => {
                let font = self.deff;
                let c = &mut self.top_mut().chr;
                c.style = TextStyle::default();
                c.hidden = false;
                c.rev = RevProps::default();
                c.font = font;
                c.size = DEFAULT_FONT_SIZE;
                self.refont();
            }
            Kw::Fs => {
                self.top_mut().chr.size =
                    u16::try_from(n.clamp(2, 3_276)).unwrap_or(DEFAULT_FONT_SIZE);
            }
            Kw::B => self.top_mut().chr.style.bold = on,
            Kw::I => self.top_mut().chr.style.italic = on,
            Kw::Ul | Kw::UlStyle => self.top_mut().chr.style.underline = on,
            Kw::Ulnone => self.top_mut().chr.style.underline = false,
            Kw::Strike | Kw::Striked => self.top_mut().chr.style.strike = on,
            Kw::Super => {
                let s = &mut self.top_mut().chr.style;
                s.superscript = on;
                s.subscript = false;
            }
            Kw::Sub => {
                let s = &mut self.top_mut().chr.style;
                s.subscript = on;
                s.superscript = false;
            }
            Kw::Nosupersub => {
                let s = &mut self.top_mut().chr.style;
                s.subscript = false;
                s.superscript = false;
            }
            Kw::V => self.top_mut().chr.hidden = on,
            Kw::Uc => self.top_mut().uc = n.clamp(0, 255) as u8,
            Kw::U => {
                if let Some(v) = param {
                    let mut out = std::mem::take(&mut self.scratch);
                    self.dec.unicode(v, &mut out);
                    self.emit(&out);
                    out.clear();
                    self.scratch = out;
                    self.dec.skip = u32::from(self.top().uc);
                }
            }
            Kw::Revised => self.top_mut().chr.rev.inserted = on,
            Kw::Deleted => self.top_mut().chr.rev.deleted = on,
            Kw::Revauth => self.top_mut().chr.rev.author = Some(n),
            Kw::Revauthdel => self.top_mut().chr.rev.author_del = Some(n),
            Kw::Revdttm => self.top_mut().chr.rev.date = Some(n),
            Kw::Revdttmdel => self.top_mut().chr.rev.date_del = Some(n),
            Kw::Emdash => self.emit("\u{2014}"),
            Kw::Endash => self.emit("\u{2013}"),
            Kw::Bullet => self.emit("\u{2022}"),
            Kw::Lquote => self.emit("\u{2018}"),
            Kw::Rquote => self.emit("\u{2019}"),
            Kw::Ldblquote => self.emit("\u{201c}"),
            Kw::Rdblquote => self.emit("\u{201d}"),
            Kw::Emspace => self.emit("\u{2003}"),
            Kw::Enspace => self.emit("\u{2002}"),
            Kw::Qmspace => self.emit("\u{2005}"),
            Kw::Zwj => self.emit("\u{200d}"),
            Kw::Zwnj => self.emit("\u{200c}"),
            Kw::Pard => self.top_mut().para = ParaProps::default(),
            Kw::S => self.top_mut().para.style = n,
            Kw::Outlinelevel => {
                self.top_mut().para.outline = u8::try_from(n).ok().filter(|&l| l <= 8);
            }
            Kw::Ls => self.top_mut().para.ls = n,
            Kw::Ilvl => self.top_mut().para.ilvl = level(n),
            Kw::Intbl => self.top_mut().para.intbl = on,
            Kw::Itap => {
                self.top_mut().para.itap = n.clamp(0, i32::from(MAX_TABLE_DEPTH)) as u16;
            }
            Kw::Trowd | Kw::Tsrowd if nested => self.nest_rowdef.reset(),
            Kw::Trowd => self.rowdef.reset(),
            Kw::Cellx | Kw::Clmgf | Kw::Clmrg | Kw::Clvmgf | Kw::Clvmrg | Kw::Trhdr => {
                let def = if nested {
                    &mut self.nest_rowdef
                } else {
                    &mut self.rowdef
                };
                match kw {
                    Kw::Cellx => def.cellx(n),
                    Kw::Clmgf => def.merge(false, Merge::First),
                    Kw::Clmrg => def.merge(false, Merge::Continue),
                    Kw::Clvmgf => def.merge(true, Merge::First),
                    Kw::Clvmrg => def.merge(true, Merge::Continue),
                    _ => def.header = on,
                }
            }
            Kw::Sectd => {
                self.layout.section_defaults();
                self.section_kind(true);
            }
            Kw::Sbknone | Kw::Sbkcol => self.section_kind(false),
            Kw::Sbkpage | Kw::Sbkeven | Kw::Sbkodd => self.section_kind(true),
            Kw::Ftnalt => {
                if let StoryKind::Note(k) = &mut self.story().kind {
                    *k = NoteKind::Endnote;
                }
            }
            _ if self.top_mut().para.layout.set(kw, n, on) => {}
            _ if self.stories.len() == 1 && self.layout.page_word(kw, n) => {}
            _ => self.structure_word(kw, nested),
        }
    }

    /// Paragraph, line, page, section, cell and row ends.
    fn structure_word(&mut self, kw: Kw, nested: bool) {
        let dest = self.top().dest;
        if !matches!(dest, Dest::Body | Dest::NestProps | Dest::Capture(_)) {
            return;
        }
        if let Dest::Capture(_) = dest {
            if matches!(kw, Kw::Par | Kw::Line | Kw::Tab) {
                self.capture.push(' ');
            }
            return;
        }
        let para = self.top().para;
        match kw {
            Kw::Par if !nested => self.end_para(para, None),
            Kw::Line => {
                let rev = self.revs.resolve(&self.top().chr.rev);
                self.story().inl.push(Inline::LineBreak, rev);
            }
            Kw::Tab => {
                let rev = self.revs.resolve(&self.top().chr.rev);
                self.story().inl.push(Inline::Tab, rev);
            }
            Kw::Page if level_of(&para) == 0 => {
                let (story, def) = self.story_def(false);
                story.page_break(def);
            }
            Kw::Sect => {
                self.end_para(para, Some(0));
                if self.stories.len() == 1 {
                    let new_page = self.sect_new_page;
                    let (story, def) = self.story_def(false);
                    story.section_break(new_page, def);
                    self.section += 1;
                    self.layout.end_section();
                }
            }
            Kw::Cell => {
                self.end_para(para, Some(1));
                let (story, def) = self.story_def(false);
                story.end_cell(1, def);
                if self.stories.len() == 1 {
                    self.layout.end_cell();
                }
            }
            Kw::Nestcell => {
                let l = level_of(&para).max(2);
                self.end_para(para, Some(l));
                let (story, def) = self.story_def(true);
                story.end_cell(l, def);
            }
            Kw::Row => {
                if !self.story().para_blank() {
                    self.end_para(para, Some(1));
                    let (story, def) = self.story_def(false);
                    story.end_cell(1, def);
                }
                let (story, def) = self.story_def(false);
                story.end_row(1, def);
                if self.stories.len() == 1 {
                    self.layout.end_row();
                }
            }
            Kw::Nestrow => {
                let l = level_of(&para).max(2);
                let (story, def) = self.story_def(true);
                story.end_row(l, def);
            }
            _ => {}
        }
    }

    /// `\sectd` / `\sbkN`: how the section starts.
    fn section_kind(&mut self, new_page: bool) {
        self.sect_new_page = new_page;
        if let Some(body) = self.stories.first_mut() {
            body.section_kind(new_page);
        }
    }

    /// `\yr \mo \dy \hr \min` inside `\creatim` / `\revtim`.
    fn time_word(&mut self, kw: Kw, n: i32) {
        match kw {
            Kw::Yr => self.time.yr = n,
            Kw::Mo => self.time.mo = n,
            Kw::Dy => self.time.dy = n,
            Kw::Hr => self.time.hr = n,
            Kw::Min => self.time.min = n,
            _ => {}
        }
    }

    /// Recomputes the code page after a font or document code page change.
    fn refont(&mut self) {
        let enc = self.fonts.encoding(self.top().chr.font, self.doc_enc);
        self.top_mut().chr.enc = enc;
    }

    /// Ends the current paragraph of the current story with properties `p`, at table
    /// depth `level` (from `p` when `None`).
    pub(super) fn end_para(&mut self, p: ParaProps, level: Option<usize>) {
        let level = level.unwrap_or_else(|| level_of(&p));
        let kind = if self.story().para_blank() {
            ParagraphKind::Normal
        } else {
            self.kind(&p)
        };
        let size = self.top().chr.size;
        let body = self.stories.len() == 1;
        let blank = self.story().para_blank();
        let (story, def) = self.story_def(level > 1);
        let landed = story.end_para(kind, level, def);
        if !body {
            return;
        }
        if let Some((at, blank)) = landed {
            self.layout.paragraph(at, &p.layout, size, blank);
        } else if blank {
            // A blank paragraph in a cell adds no block, so nothing to measure.
        } else if let Some((cell, Some(inlines))) = self.stories[0].top_cell() {
            // Cell edges are `\cellx` right edges from the row's left.
            let right = |k: usize| self.rowdef.cells.get(k).map(|c| c.right);
            let left = cell.checked_sub(1).and_then(right).unwrap_or(0);
            let width = right(cell).map(|r| r.saturating_sub(left));
            self.layout.cell_paragraph(width, inlines, &p.layout, size);
        }
    }

    /// The role of a non-blank paragraph: heading, title, list item or body text.
    fn kind(&mut self, p: &ParaProps) -> ParagraphKind {
        let role = p
            .outline
            .map(|l| Role::Heading(l + 1))
            .or_else(|| self.styles.role(p.style));
        match role {
            Some(Role::Heading(l)) => return ParagraphKind::Heading(l),
            Some(Role::Title) => return ParagraphKind::Title,
            None => {}
        }
        let label = self.story().label.take();
        if p.ls <= 0 && label.is_none() && p.pn.is_none() {
            return ParagraphKind::Normal;
        }
        let lvl = p.pn.map_or(p.ilvl, |(_, l)| l);
        let (ordered, number) =
            self.lists
                .item(p.ls.max(0), lvl, label.as_deref(), p.pn.map(|(o, _)| o));
        ParagraphKind::ListItem {
            ordered,
            level: lvl,
            number,
        }
    }
}

/// The table depth of a paragraph: `\itapN`, at least 1 when `\intbl`.
fn level_of(p: &ParaProps) -> usize {
    let itap = usize::from(p.itap);
    if p.intbl { itap.max(1) } else { itap }
}

/// A list level parameter clamped to 0..=8.
fn level(n: i32) -> u8 {
    n.clamp(0, 8) as u8
}
