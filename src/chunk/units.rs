//! Units: the indivisible pieces the packer fills chunks with.
//!
//! The walker goes through a story in document order, tracking the page (1-based;
//! [`Block::PageBreak`], [`crate::model::Inline::PageBreak`] and a section break with
//! `new_page` start a page) and the heading path (a `Heading(n)` opens a section: the
//! section index goes up by one and the path keeps the headings above level `n`; a
//! `Title` opens none). Each heading, paragraph, list item, code block and table row
//! becomes one unit, rendered to Markdown once and counted once. An inline page break
//! splits a paragraph into one unit per page. Empty headings open no section.

use std::collections::HashMap;

use super::comments::{CommentBook, ShownComment};
use super::escape::one_line;
use super::facts::Facts;
use super::flatten::Flat;
use super::render::{Mode, note_marker};
use crate::error::ConvertError;
use crate::model::{Block, Document, Note, NoteKind, Part};
use crate::progress::{self, Stage};
use crate::tokens::Tally;

/// Top-level blocks between two progress reports (a few milliseconds of work).
pub(crate) const REPORT_EVERY: usize = 64;

/// What a unit is, for the packer's boundary rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A heading (opens a section).
    Heading,
    /// The document title paragraph.
    Title,
    /// A paragraph, quote paragraph, rule or note text.
    Text,
    /// A list item.
    ListItem,
    /// A code block (or a piece of one).
    Code,
    /// The opening of a table with its header rows (index into the walker's tables).
    TableHead(usize),
    /// One body row (or a group of rows joined by row spans) of a table.
    TableRow(usize),
}

/// How an oversized unit can be split again.
#[derive(Debug, Clone)]
pub(crate) enum SplitSrc {
    /// Inline content: the leaves, the prefix of the first and of later pieces.
    Inline {
        flat: Flat,
        first_prefix: String,
        rest_prefix: String,
        quote: usize,
        mode: Mode,
    },
    /// A code block: its info string and text.
    Code {
        lang: String,
        text: String,
        quote: usize,
    },
}

/// One unit.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    pub text: String,
    pub tokens: usize,
    /// How `tokens` was counted, for exact chunk counts without a recount.
    pub tally: Tally,
    pub kind: Kind,
    /// Joined to the previous unit by one newline (list items, table rows) instead of
    /// a blank line.
    pub line_sep: bool,
    pub pages: (u32, u32),
    pub ctx: usize,
    pub facts: Facts,
    /// Table units: more rows of the same table follow.
    pub more_rows: bool,
    pub split: Option<Box<SplitSrc>>,
}

/// A heading context: the section a unit belongs to.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Ctx {
    pub section_index: u32,
    pub path: Vec<String>,
    pub level: u8,
}

/// A table, for continuation chunks.
#[derive(Debug, Clone, Default)]
pub(crate) struct TableInfo {
    /// Document-wide id, 1-based, in order of appearance (top-level tables only).
    pub id: usize,
    /// Text that reopens the table at the top of a continuation chunk.
    pub repeat: String,
    pub repeat_tokens: usize,
    /// Text that closes the table when a chunk ends inside it (`</table>` or nothing).
    pub close: &'static str,
    pub close_tokens: usize,
    /// Column headings (plain text).
    pub headings: Vec<String>,
}

/// Walks stories into units.
pub(crate) struct Walker<'d> {
    pub book: CommentBook<'d>,
    pub ctxs: Vec<Ctx>,
    pub tables: Vec<TableInfo>,
    /// First and last page of each document section.
    pub section_pages: Vec<(u32, u32)>,
    /// Page and context of each note's first reference.
    pub note_refs: HashMap<(NoteKind, String), (u32, usize)>,
    pub max_tokens: usize,
    pub(super) page: u32,
    pub(super) track_pages: bool,
    pub(super) ctx: usize,
    pub(super) path: Vec<(u8, String)>,
    pub(super) section_index: u32,
    pub(super) quote: usize,
    section_start: u32,
    pub(super) prefix: Option<String>,
    pub(super) in_body: bool,
    pub(super) out: Vec<Unit>,
}

impl<'d> Walker<'d> {
    /// A walker over `doc`.
    pub(crate) fn new(doc: &'d Document, max_tokens: usize) -> Self {
        let stories = std::iter::once(doc.body.as_slice())
            .chain(doc.parts.iter().map(|p| p.blocks.as_slice()))
            .chain(doc.notes.iter().map(|n| n.blocks.as_slice()));
        Walker {
            book: CommentBook::new(&doc.comments, stories),
            ctxs: vec![Ctx::default()],
            tables: Vec::new(),
            section_pages: Vec::new(),
            note_refs: HashMap::new(),
            max_tokens,
            page: 1,
            track_pages: true,
            ctx: 0,
            path: Vec::new(),
            section_index: 0,
            quote: 0,
            section_start: 1,
            prefix: None,
            in_body: true,
            out: Vec::new(),
        }
    }

    /// The last page of the body (after [`Walker::body`]).
    pub(crate) fn last_page(&self) -> u32 {
        self.section_pages.last().map_or(1, |s| s.1)
    }

    /// Units of the body.
    ///
    /// # Errors
    /// [`ConvertError::Stopped`] when the progress hook (`crate::progress`), told every
    /// [`REPORT_EVERY`] top-level blocks, asks to stop.
    pub(crate) fn body(&mut self, blocks: &[Block]) -> Result<Vec<Unit>, ConvertError> {
        self.book.begin_story(blocks);
        let total = blocks.len() as u64;
        for (i, chunk) in blocks.chunks(REPORT_EVERY).enumerate() {
            self.blocks(chunk);
            let done = ((i + 1) * REPORT_EVERY).min(blocks.len()) as u64;
            progress::report(Stage::Chunk, "", done, total)?;
        }
        self.book.end_story();
        self.section_pages.push((self.section_start, self.page));
        Ok(std::mem::take(&mut self.out))
    }

    /// Units of one header or footer (pages: its section's).
    pub(crate) fn part(&mut self, part: &Part) -> Vec<Unit> {
        let pages = self.section_pages.get(part.section).copied();
        self.page = pages.map_or(1, |p| p.0);
        self.track_pages = false;
        self.in_body = false;
        self.ctx = 0;
        self.book.begin_story(&part.blocks);
        self.blocks(&part.blocks);
        self.book.end_story();
        let mut units = std::mem::take(&mut self.out);
        let range = pages.unwrap_or((1, self.last_page()));
        for u in &mut units {
            u.pages = range;
        }
        units
    }

    /// Units of one note; the first starts with the note's marker (`[^ID]: `).
    pub(crate) fn note(&mut self, note: &Note) -> Vec<Unit> {
        let (page, ctx) = self
            .note_refs
            .get(&(note.kind, note.id.clone()))
            .copied()
            .unwrap_or((self.last_page(), 0));
        self.page = page;
        self.ctx = ctx;
        self.track_pages = false;
        self.in_body = false;
        let marker = format!("{}:", note_marker(note.kind, &note.id));
        if matches!(note.blocks.first(), Some(Block::Paragraph(_))) {
            self.prefix = Some(format!("{marker} "));
        } else {
            self.push(marker, Kind::Text, Facts::default(), self.page, None);
        }
        self.book.begin_story(&note.blocks);
        self.blocks(&note.blocks);
        self.book.end_story();
        if let Some(m) = self.prefix.take() {
            self.push(
                m.trim_end().to_string(),
                Kind::Text,
                Facts::default(),
                page,
                None,
            );
        }
        std::mem::take(&mut self.out)
    }

    /// Units showing `shown` comments that are anchored nowhere (context 0).
    pub(crate) fn loose_comments(&mut self, shown: Vec<ShownComment>, lead: &str) -> Vec<Unit> {
        self.ctx = 0;
        self.page = self.last_page();
        for (n, s) in shown.into_iter().enumerate() {
            let facts = Facts {
                comments: true,
                comment_authors: s.authors.clone(),
                comment_plain: s.plain.clone(),
                ..Facts::default()
            };
            let text = if n == 0 {
                format!("{lead}\n\n{}", s.markup)
            } else {
                s.markup
            };
            self.push(text, Kind::Text, facts, self.page, None);
        }
        std::mem::take(&mut self.out)
    }

    pub(super) fn new_page(&mut self) {
        if self.track_pages {
            self.page += 1;
        }
    }

    pub(super) fn blocks(&mut self, blocks: &[Block]) {
        for b in blocks {
            self.block(b);
        }
    }

    fn block(&mut self, b: &Block) {
        match b {
            Block::Paragraph(p) => self.paragraph(p),
            Block::Table(t) => self.table(t),
            Block::PageBreak => self.new_page(),
            Block::SectionBreak { new_page } => {
                if self.track_pages {
                    self.section_pages.push((self.section_start, self.page));
                    if *new_page {
                        self.new_page();
                    }
                    self.section_start = self.page;
                }
            }
            Block::Code { language, text } => self.code(language.as_deref().unwrap_or(""), text),
            Block::Quote(inner) => {
                self.quote += 1;
                self.blocks(inner);
                self.quote -= 1;
            }
            Block::Rule => {
                let text = quote_lines("---", self.quote);
                self.push(text, Kind::Text, Facts::default(), self.page, None);
            }
        }
    }

    /// Adds a unit that started on `first_page` and ends on the current page.
    pub(super) fn push(
        &mut self,
        text: String,
        kind: Kind,
        facts: Facts,
        first_page: u32,
        split: Option<SplitSrc>,
    ) {
        // A splittable unit of more than 256 bytes a token of the chunk budget is over
        // budget whatever its tokens (no o200k token is that long): it is split, each
        // piece is counted, and the sealed chunk is counted again, so counting it whole
        // would only add a third pass over the longest paragraphs. An estimate of four
        // bytes a token seeds the splitter's first cut.
        let tally = if split.is_some() && text.len() / 256 > self.max_tokens {
            Tally::estimate(text.len() / 4)
        } else {
            Tally::of(&text)
        };
        let tokens = tally.tokens;
        let line_sep = match (self.out.last().map(|u| u.kind), kind) {
            (Some(Kind::ListItem), Kind::ListItem) => true,
            (Some(Kind::TableHead(a) | Kind::TableRow(a)), Kind::TableRow(b)) => a == b,
            _ => false,
        };
        let split = split.filter(|_| tokens > self.max_tokens / 2).map(Box::new);
        self.out.push(Unit {
            text,
            tokens,
            tally,
            kind,
            line_sep,
            pages: (first_page, self.page.max(first_page)),
            ctx: self.ctx,
            facts,
            more_rows: false,
            split,
        });
    }
}

/// A fenced code block whose fence is longer than any backtick run inside.
pub(crate) fn fence_code(lang: &str, text: &str) -> String {
    let mut longest = 0;
    let mut cur = 0;
    for c in text.chars() {
        cur = if c == '`' { cur + 1 } else { 0 };
        longest = longest.max(cur);
    }
    let fence = "`".repeat((longest + 1).max(3));
    let lang = one_line(lang).replace('`', "");
    format!("{fence}{lang}\n{}\n{fence}", text.trim_end_matches('\n'))
}

/// A paragraph's Markdown: `prefix` (a list marker, or nothing), then `body`
/// trimmed, its later lines indented by `rest` (the width of the marker) so that
/// CommonMark keeps them in the list item, and without lines of only spaces, which
/// would end the paragraph (two line breaks in a row, `w:br` twice, give one).
pub(crate) fn block_text(prefix: &str, body: &str, rest: &str) -> String {
    let body = body.trim();
    if !body.contains('\n') {
        return format!("{prefix}{body}");
    }
    let mut out = String::with_capacity(prefix.len() + body.len() + 16);
    out.push_str(prefix);
    for (i, line) in body.split('\n').enumerate() {
        if i == 0 {
            out.push_str(line);
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str(rest);
        out.push_str(line);
    }
    out
}

/// Most `>` quote markers written before a line (see [`quote_lines`]).
pub(crate) const MAX_QUOTE_MARKERS: usize = 4;

/// `text` with every line prefixed by `depth` quote markers and a space (`> `,
/// `>> `: CommonMark reads `>>` as two levels, and the marker is on every line).
pub(crate) fn quote_lines(text: &str, depth: usize) -> String {
    if depth == 0 {
        return text.to_string();
    }
    // Deeper quotes are written at this depth: the marker is repeated on every line,
    // so an unbounded depth would multiply the output; four levels tell a reader (or a
    // model) that a passage is a quote of a quote, which is all deeper levels add.
    let marker = format!("{} ", ">".repeat(depth.min(MAX_QUOTE_MARKERS)));
    text.split('\n')
        .map(|l| {
            if l.is_empty() {
                marker.trim_end().to_string()
            } else {
                format!("{marker}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
