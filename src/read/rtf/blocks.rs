//! One story (the body, a header or footer, a note, a comment) being built from
//! paragraphs: `\par` ends a paragraph at the table depth its `\intbl` / `\itapN` give,
//! which opens or closes tables as needed; `\page` and `\sect` put breaks between
//! blocks (a `\page` inside a paragraph stays inline, at its end it moves after it).

use crate::model::{Block, Inline, NoteKind, Paragraph, ParagraphKind, PartKind, PartVariant};

use super::inlines::InlineBuf;
use super::table::{RowDef, TableBuild};

/// What a story becomes when it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StoryKind {
    Body,
    Part(PartKind, PartVariant),
    Note(NoteKind),
    Comment,
}

/// A story being read.
#[derive(Debug)]
pub(crate) struct Story {
    pub kind: StoryKind,
    /// The current paragraph's inlines.
    pub inl: InlineBuf,
    /// The current paragraph's `\listtext` / `\pntext` label.
    pub label: Option<String>,
    out: Vec<Block>,
    tables: Vec<TableBuild>,
    pending_sect: Option<usize>,
}

impl Story {
    /// An empty story.
    pub(crate) fn new(kind: StoryKind) -> Self {
        Story {
            kind,
            inl: InlineBuf::default(),
            label: None,
            out: Vec::new(),
            tables: Vec::new(),
            pending_sect: None,
        }
    }

    /// Opens or closes tables until `level` are open.
    fn ensure_level(&mut self, level: usize, def: &RowDef) {
        while self.tables.len() > level {
            let Some(t) = self.tables.pop() else { break };
            if let Some(table) = t.finish(def) {
                self.push_here(Block::Table(table));
            }
        }
        while self.tables.len() < level {
            self.tables.push(TableBuild::default());
        }
    }

    /// Appends a block at the current depth.
    fn push_here(&mut self, b: Block) {
        match self.tables.last_mut() {
            Some(t) => t.cell.push(b),
            None => self.out.push(b),
        }
    }

    /// Ends the current paragraph as `kind` at table depth `level`. A blank paragraph
    /// is dropped (but still closes tables deeper than `level`). For a paragraph
    /// outside tables: its index among the story's blocks (for a blank one, the index
    /// of the block after it) and whether it was blank.
    pub(crate) fn end_para(
        &mut self,
        kind: ParagraphKind,
        level: usize,
        def: &RowDef,
    ) -> Option<(usize, bool)> {
        let blank = self.inl.is_blank();
        let mut inlines = self.inl.take();
        self.label = None;
        self.ensure_level(level, def);
        let top = (level == 0).then_some((self.out.len(), blank));
        if blank {
            return top;
        }
        let mut breaks = 0;
        while matches!(inlines.last(), Some(Inline::PageBreak)) {
            inlines.pop();
            breaks += 1;
        }
        trim_edges(&mut inlines);
        if matches!(kind, ParagraphKind::Heading(_) | ParagraphKind::Title) {
            // Writers repeat the heading style's `\b` on every run; a heading is bold
            // by nature, and bold key phrases should not repeat the headings.
            unbold(&mut inlines);
        }
        self.pending_sect = None;
        self.push_here(Block::Paragraph(Paragraph { kind, inlines }));
        if level == 0 {
            for _ in 0..breaks {
                self.out.push(Block::PageBreak);
            }
        }
        top
    }

    /// The top-level table's current cell (when exactly one table is open): its index
    /// in the row and the paragraph that ended last in it.
    pub(crate) fn top_cell(&self) -> Option<(usize, Option<&[Inline]>)> {
        let [t] = self.tables.as_slice() else {
            return None;
        };
        let last = match t.cell.last() {
            Some(Block::Paragraph(p)) => Some(p.inlines.as_slice()),
            _ => None,
        };
        Some((t.cells.len(), last))
    }

    /// Whether the current paragraph holds only whitespace so far.
    pub(crate) fn para_blank(&self) -> bool {
        self.inl.is_blank()
    }

    /// `\cell` / `\nestcell` at depth `level` (>= 1), after the paragraph was ended.
    pub(crate) fn end_cell(&mut self, level: usize, def: &RowDef) {
        self.ensure_level(level.max(1), def);
        if let Some(t) = self.tables.last_mut() {
            t.end_cell();
        }
    }

    /// `\row` / `\nestrow` at depth `level` (>= 1) with its definition.
    pub(crate) fn end_row(&mut self, level: usize, def: &RowDef) {
        self.ensure_level(level.max(1), def);
        if let Some(t) = self.tables.last_mut()
            && (!t.cells.is_empty() || !t.cell.is_empty())
        {
            t.end_row(def);
        }
    }

    /// `\page` outside tables: a block break when the paragraph is blank so far.
    pub(crate) fn page_break(&mut self, def: &RowDef) {
        if self.inl.is_blank() {
            self.ensure_level(0, def);
            self.out.push(Block::PageBreak);
        } else {
            self.inl.push(Inline::PageBreak, None);
        }
    }

    /// `\sect` (the paragraph was ended): a section break whose kind the next
    /// section's `\sbkN` may still change.
    pub(crate) fn section_break(&mut self, new_page: bool, def: &RowDef) {
        self.ensure_level(0, def);
        self.out.push(Block::SectionBreak { new_page });
        self.pending_sect = Some(self.out.len() - 1);
    }

    /// `\sbkN` / `\sectd` right after a `\sect`: the break's kind.
    pub(crate) fn section_kind(&mut self, new_page: bool) {
        if let Some(Block::SectionBreak { new_page: p }) =
            self.pending_sect.and_then(|i| self.out.get_mut(i))
        {
            *p = new_page;
        }
    }

    /// The story's blocks (open tables closed).
    pub(crate) fn finish(mut self, def: &RowDef) -> Vec<Block> {
        self.ensure_level(0, def);
        self.out
    }
}

/// Clears bold from text runs (recursively).
fn unbold(inlines: &mut [Inline]) {
    for i in inlines {
        match i {
            Inline::Text { style, .. } => style.bold = false,
            Inline::Link { children, .. }
            | Inline::Field { children, .. }
            | Inline::Revision { children, .. } => unbold(children),
            _ => {}
        }
    }
}

/// Trims whitespace at the start and end of a paragraph.
fn trim_edges(inlines: &mut Vec<Inline>) {
    if let Some(Inline::Text { text, .. }) = inlines.first_mut() {
        let t = text.trim_start();
        if t.len() != text.len() {
            *text = t.to_string();
        }
    }
    if let Some(Inline::Text { text, .. }) = inlines.last_mut() {
        let t = text.trim_end();
        if t.len() != text.len() {
            text.truncate(t.len());
        }
    }
    inlines.retain(|i| !matches!(i, Inline::Text { text, .. } if text.is_empty()));
}
