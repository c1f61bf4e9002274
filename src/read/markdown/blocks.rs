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

use crate::model::{Block, Cell, Inline, Note, Paragraph, ParagraphKind, Row, TextStyle, Warning};

use super::inlines::Inlines;

/// An open container.
pub(super) enum Frame {
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
    pub(super) frames: Vec<Frame>,
    /// Block lists being filled: `sinks[0]` is the body, then one per open quote,
    /// table cell and footnote definition.
    pub(super) sinks: Vec<Vec<Block>>,
    /// The open paragraph's kind, when one is open.
    pub(super) para: Option<ParagraphKind>,
    pub(super) inl: Inlines,
    pub(super) code: Option<(Option<String>, String)>,
    pub(super) html: Option<String>,
    pub(super) notes: Vec<Note>,
    pub(super) note_refs: Vec<String>,
    pub(super) quote_depth: usize,
    pub(super) list_depth: usize,
    pub(super) max_depth: usize,
    pub(super) flattened: bool,
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

    /// The inline builder, opening an implicit paragraph (tight list items, table
    /// cells, definitions) when none is open.
    pub(super) fn inline(&mut self) -> &mut Inlines {
        if self.para.is_none() {
            self.open_para(None);
        }
        &mut self.inl
    }

    /// Opens a paragraph: `kind`, else a list item's first paragraph, else normal.
    pub(super) fn open_para(&mut self, kind: Option<ParagraphKind>) {
        let kind = kind.unwrap_or_else(|| match self.frames.last_mut() {
            Some(Frame::Item { kind, started }) if !*started => {
                *started = true;
                kind.clone()
            }
            _ => ParagraphKind::Normal,
        });
        self.para = Some(kind);
    }

    pub(super) fn close_para(&mut self) {
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
    pub(super) fn before_block(&mut self) {
        self.close_para();
        if let Some(Frame::Item { kind, started }) = self.frames.last_mut()
            && !*started
        {
            *started = true;
            let kind = kind.clone();
            self.push_block(Block::Paragraph(Paragraph {
                kind,
                inlines: Vec::new(),
            }));
        }
    }

    pub(super) fn push_block(&mut self, b: Block) {
        if let Some(sink) = self.sinks.last_mut() {
            sink.push(b);
        }
    }

    /// An HTML block: dropped when it is only comments, else its lines as text.
    pub(super) fn html_block(&mut self, html: &str) {
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

    pub(super) fn flatten_warning(&mut self, what: &str) {
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
        crate::order::sort_by_key(&mut notes, |n| {
            first_ref.get(n.id.as_str()).copied().unwrap_or(usize::MAX)
        });
        (body, notes, self.warnings)
    }
}
