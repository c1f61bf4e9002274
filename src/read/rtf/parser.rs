//! The reader's main loop: tokens in, document model out. Groups are an explicit stack
//! (bounded by `Limits::max_depth`; deeper groups are flattened into their parent with
//! one warning), so nesting costs no call stack and the loop is linear in the input.
//! Text is collected as bytes and decoded when a control word or group boundary
//! follows, then goes to the current destination: the story on top of the story stack,
//! or a string being captured (an `\info` item, a field instruction, a style name...).
//! Control words are handled in `words.rs`, destinations and group ends in
//! `destinations.rs`.

use encoding_rs::Encoding;

use crate::error::ConvertError;
use crate::model::{Document, Warning};
use crate::options::{ConvertOptions, PageMode};
use crate::read::pagefit;

use super::blocks::{Story, StoryKind};
use super::fields::FieldFrame;
use super::fonts_codepage::{Decoder, Fonts};
use super::info::Time;
use super::layout::{DEFAULT_FONT_SIZE, Layout, ParaLayout};
use super::lexer::{Lexer, Token};
use super::lists::Lists;
use super::revisions::RevTable;
use super::state::{Dest, Group};
use super::stylesheet::StyleSheet;
use super::table::RowDef;

/// Annotation attributes collected before and inside `\*\annotation`.
#[derive(Debug, Default)]
pub(super) struct Atn {
    pub initials: Option<String>,
    pub author: Option<String>,
    pub date: Option<String>,
    pub id: Option<String>,
    pub parent: Option<String>,
}

/// Everything the reader knows while reading.
pub(super) struct Parser<'a> {
    pub lex: Lexer<'a>,
    pub groups: Vec<Group>,
    /// `{` beyond the depth limit, not pushed.
    pub flattened: usize,
    pub max_depth: usize,
    /// `\*` was just read.
    pub star: bool,
    pub doc_enc: &'static Encoding,
    pub deff: i32,
    pub fonts: Fonts,
    pub dec: Decoder,
    pub scratch: String,
    pub capture: String,
    pub styles: StyleSheet,
    pub lists: Lists,
    pub revs: RevTable,
    pub stories: Vec<Story>,
    pub fields: Vec<FieldFrame>,
    pub rowdef: RowDef,
    pub nest_rowdef: RowDef,
    pub time: Time,
    pub pn: Option<(bool, u8)>,
    pub atn: Atn,
    pub sect_new_page: bool,
    pub section: usize,
    pub comments_seen: usize,
    pub doc: Document,
    /// Page geometry and paragraph measures for the page estimate.
    pub layout: Layout,
    pages: PageMode,
    max_pages: u64,
    warned: Vec<&'static str>,
}

impl<'a> Parser<'a> {
    /// A parser over `bytes`.
    pub(super) fn new(bytes: &'a [u8], options: &ConvertOptions) -> Self {
        let max_depth = options.limits.max_depth;
        let doc_enc = encoding_rs::WINDOWS_1252;
        Parser {
            lex: Lexer::new(bytes),
            groups: vec![Group::root(doc_enc)],
            flattened: 0,
            max_depth: max_depth.max(2),
            star: false,
            doc_enc,
            deff: 0,
            fonts: Fonts::default(),
            dec: Decoder::new(),
            scratch: String::new(),
            capture: String::new(),
            styles: StyleSheet::default(),
            lists: Lists::default(),
            revs: RevTable::default(),
            stories: vec![Story::new(StoryKind::Body)],
            fields: Vec::new(),
            rowdef: RowDef::default(),
            nest_rowdef: RowDef::default(),
            time: Time::default(),
            pn: None,
            atn: Atn::default(),
            sect_new_page: true,
            section: 0,
            comments_seen: 0,
            doc: Document::default(),
            layout: Layout::default(),
            pages: options.pages,
            max_pages: options.limits.max_pages,
            warned: Vec::new(),
        }
    }

    /// The innermost group's state (the root state is never popped).
    pub(super) fn top(&self) -> &Group {
        let i = self.groups.len() - 1;
        &self.groups[i]
    }

    /// The innermost group's state, mutable.
    pub(super) fn top_mut(&mut self) -> &mut Group {
        let i = self.groups.len() - 1;
        &mut self.groups[i]
    }

    /// The story text goes to.
    pub(super) fn story(&mut self) -> &mut Story {
        let i = self.stories.len() - 1;
        &mut self.stories[i]
    }

    /// The current story and the row definition of the outer (`nested` false) or the
    /// nested tables.
    pub(super) fn story_def(&mut self, nested: bool) -> (&mut Story, &RowDef) {
        let def = if nested {
            &self.nest_rowdef
        } else {
            &self.rowdef
        };
        let i = self.stories.len() - 1;
        (&mut self.stories[i], def)
    }

    /// Adds a warning once per code.
    pub(super) fn warn_once(&mut self, code: &'static str, msg: impl Into<String>) {
        if !self.warned.contains(&code) {
            self.warned.push(code);
            self.doc.warnings.push(Warning::new(code, msg));
        }
    }

    /// Reads every token, then closes what EOF left open.
    ///
    /// # Errors
    /// [`ConvertError::TooManyElements`] past the document's element budget: every
    /// group and every paragraph, cell, row, line or page mark counts
    /// (`crate::read::budget`).
    pub(super) fn run(mut self) -> Result<Document, ConvertError> {
        while let Some(tok) = self.lex.next_token() {
            match &tok {
                Token::Open => crate::read::budget::take(1)?,
                Token::Word { name, .. }
                    if matches!(
                        *name,
                        b"par" | b"cell" | b"row" | b"line" | b"page" | b"sect"
                    ) =>
                {
                    crate::read::budget::take(1)?;
                }
                _ => {}
            }
            match tok {
                Token::Text(t) => self.text(t),
                Token::Hex(b) => self.hex(b),
                Token::Open => {
                    self.flush();
                    self.star = false;
                    self.dec.skip = 0;
                    self.open();
                }
                Token::Close => {
                    self.flush();
                    self.star = false;
                    self.dec.skip = 0;
                    self.close();
                }
                Token::Symbol(b'*') => {
                    self.flush();
                    self.star = true;
                }
                Token::Symbol(c) => {
                    self.flush();
                    self.star = false;
                    if self.dec.skip > 0 {
                        self.dec.skip -= 1;
                    } else {
                        self.symbol(c);
                    }
                }
                Token::Bin(_) => {
                    self.flush();
                    self.star = false;
                    self.dec.skip = self.dec.skip.saturating_sub(1);
                }
                Token::Word { name, param } => {
                    self.flush();
                    let star = std::mem::take(&mut self.star);
                    if self.dec.skip > 0 {
                        self.dec.skip -= 1;
                    } else {
                        self.word(name, param, star);
                    }
                }
            }
        }
        self.flush();
        Ok(self.finish())
    }

    /// Literal text bytes.
    fn text(&mut self, mut t: &[u8]) {
        self.star = false;
        if self.dec.skip > 0 {
            let n = (self.dec.skip as usize).min(t.len());
            self.dec.skip -= n as u32;
            t = &t[n..];
        }
        if !t.is_empty() && self.takes_text() {
            let enc = self.top().chr.enc;
            let mut out = std::mem::take(&mut self.scratch);
            self.dec.push(t, enc, &mut out);
            self.emit(&out);
            out.clear();
            self.scratch = out;
        }
    }

    /// A `\'hh` byte.
    fn hex(&mut self, b: u8) {
        self.star = false;
        if self.dec.skip > 0 {
            self.dec.skip -= 1;
            return;
        }
        if self.takes_text() {
            let enc = self.top().chr.enc;
            let mut out = std::mem::take(&mut self.scratch);
            self.dec.push(&[b], enc, &mut out);
            self.emit(&out);
            out.clear();
            self.scratch = out;
        }
    }

    /// Whether the current destination keeps text.
    fn takes_text(&self) -> bool {
        let g = self.top();
        match g.dest {
            Dest::Body => !g.chr.hidden,
            Dest::Capture(_) | Dest::StyleEntry | Dest::RevTbl => true,
            _ => false,
        }
    }

    /// Decodes waiting bytes and emits them.
    pub(super) fn flush(&mut self) {
        if !self.dec.has_pending() {
            return;
        }
        let mut out = std::mem::take(&mut self.scratch);
        self.dec.flush(&mut out);
        self.emit(&out);
        out.clear();
        self.scratch = out;
    }

    /// Sends decoded text to the current destination.
    pub(super) fn emit(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let g = *self.top();
        match g.dest {
            Dest::Body if !g.chr.hidden => {
                let rev = self.revs.resolve(&g.chr.rev);
                self.story().inl.text(s, g.chr.style, rev);
            }
            Dest::Capture(_) | Dest::StyleEntry | Dest::RevTbl => self.capture.push_str(s),
            _ => {}
        }
    }

    /// `{`: saves the state (or flattens beyond the depth limit).
    fn open(&mut self) {
        if self.groups.len() >= self.max_depth {
            self.flattened += 1;
            let limit = self.max_depth;
            self.warn_once(
                "deep-nesting",
                format!(
                    "RTF groups nest deeper than the limit of {limit}; deeper groups were read as part of their parent"
                ),
            );
            return;
        }
        let child = self.top().child();
        self.groups.push(child);
        if self.top().dest == Dest::StyleSheet {
            self.begin_style_entry();
        }
    }

    /// `}`: restores the state and finishes what the group opened.
    fn close(&mut self) {
        if self.flattened > 0 {
            self.flattened -= 1;
            return;
        }
        if self.groups.len() <= 1 {
            self.warn_once(
                "unbalanced-braces",
                "the RTF has more closing than opening braces; the extra ones were ignored",
            );
            return;
        }
        if let Some(g) = self.groups.pop() {
            self.on_close(g);
        }
    }

    /// Skips the rest of the current group (an ignorable or unwanted destination).
    pub(super) fn skip_group(&mut self) {
        if !self.lex.skip_group() {
            self.warn_truncated();
        }
        self.close();
    }

    fn warn_truncated(&mut self) {
        self.warn_once(
            "truncated",
            "the RTF ends inside an open group (a truncated file); the text read so far was kept",
        );
    }

    /// End of input: closes open groups, ends the last paragraph, builds the document.
    fn finish(mut self) -> Document {
        if self.groups.len() > 1 || self.flattened > 0 {
            self.warn_truncated();
        }
        self.flattened = 0;
        while self.groups.len() > 1 {
            self.close();
        }
        while self.stories.len() > 1 {
            self.end_story(self.groups[0].para);
        }
        let para = self.groups[0].para;
        self.end_para(para, None);
        let body = self
            .stories
            .pop()
            .map(|s| s.finish(&self.rowdef))
            .unwrap_or_default();
        // RTF saves no layout: pages past the explicit breaks are estimated
        // (`PageMode::Saved` keeps the explicit ones only).
        self.layout.end_section();
        let fallback = ParaLayout::default().metrics(DEFAULT_FONT_SIZE);
        let measures = self.layout.take_measures(&body);
        let (body, pagination) = pagefit::paginate(
            body,
            &measures,
            &self.layout.sections,
            self.pages,
            fallback,
            self.max_pages,
        );
        self.doc.body = body;
        self.doc.pagination = pagination;
        self.doc
    }
}
