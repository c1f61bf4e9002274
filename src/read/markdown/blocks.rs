//! The pulldown-cmark event stream into model blocks, with an explicit stack of open
//! containers (no recursion, so nesting depth costs heap, not call stack).
//!
//! Mapping (CommonMark 0.31 section numbers; GFM for tables, task lists,
//! strikethrough, footnotes):
//! - paragraphs (4.8), ATX/setext headings (4.2, 4.3; `{#id}` attributes dropped),
//!   thematic breaks (4.1) -> [`Block::Rule`], code blocks (4.4, 4.5) ->
//!   [`Block::Code`] with the first word of the info string as language;
//! - block quotes (5.1) -> [`Block::Quote`], nested up to `Limits::max_depth`, deeper
//!   quotes flattened into the deepest one (warning `nesting-flattened`);
//! - list items (5.2, 5.3): the item's first paragraph becomes a
//!   [`ParagraphKind::ListItem`] (ordered lists count from their start number; level =
//!   list nesting, saturating at 255), later paragraphs of the item are ordinary
//!   paragraphs; a task item (GFM 5.3) starts with "☐ " or "☒ ";
//! - tables (GFM 4.10): the head row is a header row, alignment is dropped;
//! - footnote definitions -> [`Note`]s (in order of first reference), references ->
//!   [`Inline::NoteRef`];
//! - definition lists: the term as a bold paragraph, the definitions as paragraphs;
//! - HTML blocks (4.6): kept as text lines, except blocks that are only comments.

use std::collections::HashMap;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, LinkType, Tag, TagEnd};

use crate::model::{
    Block, Cell, Inline, Note, NoteKind, Paragraph, ParagraphKind, Row, Table, TextStyle, Warning,
};

use super::inlines::Inlines;

/// An open container.
enum Frame {
    /// A block quote; `real` when it got its own sink (false past the depth limit).
    Quote {
        real: bool,
    },
    List {
        ordered: bool,
        next: u32,
    },
    Item {
        kind: ParagraphKind,
        started: bool,
    },
    Table {
        rows: Vec<Row>,
    },
    Row {
        cells: Vec<Cell>,
        header: bool,
    },
    Cell,
    Note {
        id: String,
    },
    /// A definition list and its parts: nothing to build, only to pop.
    Plain,
}

/// Builds the body, notes and warnings from events.
pub(super) struct Builder {
    frames: Vec<Frame>,
    /// Block lists being filled: `sinks[0]` is the body, then one per open quote,
    /// table cell and footnote definition.
    sinks: Vec<Vec<Block>>,
    /// The open paragraph's kind, when one is open.
    para: Option<ParagraphKind>,
    inl: Inlines,
    code: Option<(Option<String>, String)>,
    html: Option<String>,
    notes: Vec<Note>,
    note_refs: Vec<String>,
    quote_depth: usize,
    list_depth: usize,
    max_depth: usize,
    flattened: bool,
    pub warnings: Vec<Warning>,
}

impl Builder {
    pub fn new(max_depth: usize) -> Self {
        Builder {
            frames: Vec::new(),
            sinks: vec![Vec::new()],
            para: None,
            inl: Inlines::default(),
            code: None,
            html: None,
            notes: Vec::new(),
            note_refs: Vec::new(),
            quote_depth: 0,
            list_depth: 0,
            max_depth: max_depth.max(1),
            flattened: false,
            warnings: Vec::new(),
        }
    }

    /// Handles one event.
    pub fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some((_, code)) = &mut self.code {
                    code.push_str(&t);
                } else if let Some(html) = &mut self.html {
                    html.push_str(&t);
                } else {
                    self.inline().text(&t);
                }
            }
            Event::Code(t) => self.inline().code(&t),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.inline().code(&t),
            Event::Html(t) => match &mut self.html {
                Some(html) => html.push_str(&t),
                None => self.inline().text(&t),
            },
            Event::InlineHtml(t) => self.inline().raw_html(&t),
            Event::FootnoteReference(label) => {
                self.note_refs.push(label.to_string());
                self.inline().push(Inline::NoteRef {
                    kind: NoteKind::Footnote,
                    id: label.to_string(),
                });
            }
            Event::SoftBreak => self.inline().text(" "),
            Event::HardBreak => self.inline().push(Inline::LineBreak),
            Event::Rule => {
                self.before_block();
                self.push_block(Block::Rule);
            }
            Event::TaskListMarker(done) => self.inline().text(if done { "☒ " } else { "☐ " }),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {
                self.close_para();
                self.open_para(None);
            }
            Tag::Heading { level, .. } => {
                self.close_para();
                self.open_para(Some(ParagraphKind::Heading(heading_level(level))));
            }
            Tag::BlockQuote(_) => {
                self.before_block();
                let real = self.quote_depth < self.max_depth;
                if real {
                    self.quote_depth += 1;
                    self.sinks.push(Vec::new());
                } else {
                    self.flatten_warning("block quotes");
                }
                self.frames.push(Frame::Quote { real });
            }
            Tag::CodeBlock(kind) => {
                self.before_block();
                let language = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                        .next()
                        .filter(|l| !l.is_empty())
                        .map(str::to_string),
                    CodeBlockKind::Indented => None,
                };
                self.code = Some((language, String::new()));
            }
            Tag::HtmlBlock => {
                self.before_block();
                self.html = Some(String::new());
            }
            Tag::List(start) => {
                self.before_block();
                self.list_depth += 1;
                if self.list_depth == self.max_depth + 1 {
                    self.flatten_warning("lists");
                }
                self.frames.push(Frame::List {
                    ordered: start.is_some(),
                    next: start.map_or(1, |s| u32::try_from(s).unwrap_or(u32::MAX)),
                });
            }
            Tag::Item => {
                self.close_para();
                let level = u8::try_from(self.list_depth.saturating_sub(1)).unwrap_or(u8::MAX);
                let (ordered, number) = match self.frames.last_mut() {
                    Some(Frame::List { ordered, next }) => {
                        let n = *next;
                        *next = next.saturating_add(1);
                        (*ordered, n)
                    }
                    _ => (false, 1),
                };
                self.frames.push(Frame::Item {
                    kind: ParagraphKind::ListItem {
                        ordered,
                        level,
                        number,
                    },
                    started: false,
                });
            }
            Tag::FootnoteDefinition(label) => {
                self.before_block();
                self.sinks.push(Vec::new());
                self.frames.push(Frame::Note {
                    id: label.to_string(),
                });
            }
            Tag::DefinitionList | Tag::DefinitionListDefinition => {
                self.before_block();
                self.frames.push(Frame::Plain);
            }
            Tag::DefinitionListTitle => {
                self.before_block();
                self.frames.push(Frame::Plain);
                self.open_para(Some(ParagraphKind::Normal));
                self.inl.styles.bold += 1;
            }
            Tag::Table(_) => {
                self.before_block();
                self.frames.push(Frame::Table { rows: Vec::new() });
            }
            Tag::TableHead | Tag::TableRow => {
                self.frames.push(Frame::Row {
                    cells: Vec::new(),
                    header: matches!(tag, Tag::TableHead),
                });
            }
            Tag::TableCell => {
                self.sinks.push(Vec::new());
                self.frames.push(Frame::Cell);
            }
            Tag::Emphasis => self.inl.styles.italic += 1,
            Tag::Strong => self.inl.styles.bold += 1,
            Tag::Strikethrough => self.inl.styles.strike += 1,
            Tag::Superscript => self.inl.styles.superscript += 1,
            Tag::Subscript => self.inl.styles.subscript += 1,
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                if link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    self.inline().start_link(&format!("mailto:{dest_url}"));
                } else {
                    self.inline().start_link(&dest_url);
                }
            }
            Tag::Image { .. } => self.inline().start_image(),
            Tag::MetadataBlock(_) => self.html = Some(String::new()),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) => self.close_para(),
            TagEnd::BlockQuote(_) => {
                self.close_para();
                if let Some(Frame::Quote { real: true }) = self.frames.pop() {
                    self.quote_depth -= 1;
                    let blocks = self.sinks.pop().unwrap_or_default();
                    self.push_block(Block::Quote(blocks));
                }
            }
            TagEnd::CodeBlock => {
                if let Some((language, mut text)) = self.code.take() {
                    if text.ends_with('\n') {
                        text.pop();
                    }
                    self.push_block(Block::Code { language, text });
                }
            }
            TagEnd::HtmlBlock => {
                if let Some(html) = self.html.take() {
                    self.html_block(&html);
                }
            }
            TagEnd::List(_) => {
                self.close_para();
                self.frames.pop();
                self.list_depth = self.list_depth.saturating_sub(1);
            }
            TagEnd::Item => {
                self.close_para();
                if let Some(Frame::Item { kind, started }) = self.frames.pop() {
                    if !started {
                        self.push_block(Block::Paragraph(Paragraph {
                            kind,
                            inlines: Vec::new(),
                        }));
                    }
                }
            }
            TagEnd::FootnoteDefinition => {
                self.close_para();
                if let Some(Frame::Note { id }) = self.frames.pop() {
                    let blocks = self.sinks.pop().unwrap_or_default();
                    self.notes.push(Note {
                        kind: NoteKind::Footnote,
                        id,
                        blocks,
                    });
                }
            }
            TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition => {
                self.close_para();
                self.frames.pop();
            }
            TagEnd::TableCell => {
                self.close_para();
                if let Some(Frame::Cell) = self.frames.pop() {
                    let blocks = self.sinks.pop().unwrap_or_default();
                    if let Some(Frame::Row { cells, .. }) = self.frames.last_mut() {
                        cells.push(Cell {
                            blocks,
                            ..Cell::default()
                        });
                    }
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(Frame::Row { cells, header }) = self.frames.pop() {
                    if let Some(Frame::Table { rows }) = self.frames.last_mut() {
                        rows.push(Row {
                            cells,
                            header,
                            revision: None,
                        });
                    }
                }
            }
            TagEnd::Table => {
                if let Some(Frame::Table { rows }) = self.frames.pop() {
                    self.push_block(Block::Table(Table { rows }));
                }
            }
            TagEnd::Emphasis => dec(&mut self.inl.styles.italic),
            TagEnd::Strong => dec(&mut self.inl.styles.bold),
            TagEnd::Strikethrough => dec(&mut self.inl.styles.strike),
            TagEnd::Superscript => dec(&mut self.inl.styles.superscript),
            TagEnd::Subscript => dec(&mut self.inl.styles.subscript),
            TagEnd::Link => self.inl.end_link(),
            TagEnd::Image => self.inl.end_image(),
            TagEnd::MetadataBlock(_) => self.html = None,
        }
    }

    /// The inline builder, opening an implicit paragraph (tight list items, table
    /// cells, definitions) when none is open.
    fn inline(&mut self) -> &mut Inlines {
        if self.para.is_none() {
            self.open_para(None);
        }
        &mut self.inl
    }

    /// Opens a paragraph: `kind`, else a list item's first paragraph, else normal.
    fn open_para(&mut self, kind: Option<ParagraphKind>) {
        let kind = kind.unwrap_or_else(|| match self.frames.last_mut() {
            Some(Frame::Item { kind, started }) if !*started => {
                *started = true;
                kind.clone()
            }
            _ => ParagraphKind::Normal,
        });
        self.para = Some(kind);
    }

    fn close_para(&mut self) {
        let Some(kind) = self.para.take() else {
            return;
        };
        let inlines = self.inl.finish();
        let keep = !inlines.is_empty() || matches!(kind, ParagraphKind::ListItem { .. });
        if keep {
            self.push_block(Block::Paragraph(Paragraph { kind, inlines }));
        }
    }

    /// Before a non-paragraph block: closes the open paragraph, and gives a list item
    /// whose first content is this block an empty first paragraph (its marker).
    fn before_block(&mut self) {
        self.close_para();
        if let Some(Frame::Item { kind, started }) = self.frames.last_mut() {
            if !*started {
                *started = true;
                let kind = kind.clone();
                self.push_block(Block::Paragraph(Paragraph {
                    kind,
                    inlines: Vec::new(),
                }));
            }
        }
    }

    fn push_block(&mut self, b: Block) {
        if let Some(sink) = self.sinks.last_mut() {
            sink.push(b);
        }
    }

    /// An HTML block: dropped when it is only comments, else its lines as text.
    fn html_block(&mut self, html: &str) {
        let mut rest = html.trim();
        while let Some(after) = rest.strip_prefix("<!--") {
            match after.find("-->") {
                Some(end) => rest = after[end + 3..].trim_start(),
                None => break,
            }
        }
        if rest.is_empty() {
            return;
        }
        let mut inlines = Vec::new();
        for (i, line) in html.trim_end().lines().enumerate() {
            if i > 0 {
                inlines.push(Inline::LineBreak);
            }
            inlines.push(Inline::Text {
                text: line.to_string(),
                style: TextStyle::default(),
            });
        }
        self.push_block(Block::Paragraph(Paragraph {
            kind: ParagraphKind::Normal,
            inlines,
        }));
    }

    fn flatten_warning(&mut self, what: &str) {
        if !self.flattened {
            self.flattened = true;
            self.warnings.push(Warning::new(
                "nesting-flattened",
                format!(
                    "{what} nest deeper than {} levels; the deeper levels were flattened into the last one",
                    self.max_depth
                ),
            ));
        }
    }

    /// Ends the stream: closes whatever is still open (the parser always balances,
    /// this is only a safety net) and returns the body and the notes in order of
    /// first reference, unreferenced notes last.
    pub fn finish(mut self) -> (Vec<Block>, Vec<Note>, Vec<Warning>) {
        self.close_para();
        while self.sinks.len() > 1 {
            let inner = self.sinks.pop().unwrap_or_default();
            if let Some(outer) = self.sinks.last_mut() {
                outer.extend(inner);
            }
        }
        let body = self.sinks.pop().unwrap_or_default();
        let mut first_ref: HashMap<&str, usize> = HashMap::new();
        for (i, r) in self.note_refs.iter().enumerate() {
            first_ref.entry(r.as_str()).or_insert(i);
        }
        let mut notes = std::mem::take(&mut self.notes);
        notes.sort_by_key(|n| first_ref.get(n.id.as_str()).copied().unwrap_or(usize::MAX));
        (body, notes, self.warnings)
    }
}

fn dec(n: &mut u32) {
    *n = n.saturating_sub(1);
}

fn heading_level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}
