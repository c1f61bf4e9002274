//! Event dispatch: each pulldown-cmark event or tag onto the [`Builder`] (the mapping
//! is documented in [`super::blocks`]).

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, LinkType, Tag, TagEnd};

use crate::model::{Block, Cell, Inline, Note, NoteKind, Paragraph, ParagraphKind, Row, Table};

use super::blocks::{Builder, Frame};

impl Builder {
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

    pub(super) fn start(&mut self, tag: Tag<'_>) {
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

    pub(super) fn end(&mut self, tag: TagEnd) {
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
                if let Some(Frame::Item { kind, started }) = self.frames.pop()
                    && !started
                {
                    self.push_block(Block::Paragraph(Paragraph {
                        kind,
                        inlines: Vec::new(),
                    }));
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
                if let Some(Frame::Row { cells, header }) = self.frames.pop()
                    && let Some(Frame::Table { rows }) = self.frames.last_mut()
                {
                    rows.push(Row {
                        cells,
                        header,
                        revision: None,
                    });
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
