//! Comments: where each one is shown and how it is written.
//!
//! Markup (documented in the system message):
//! - the commented text is wrapped in `<mark comment="ID">…</mark>` (several open
//!   ranges at once: `comment="3 4"`); a range that crosses paragraphs is closed at the
//!   end of each paragraph and reopened in the next, so every unit is balanced;
//! - the comment itself follows the end of its range:
//!   `<comment id="ID" author="NAME" date="YYYY-MM-DD">text</comment>`, its replies right
//!   after it as `<comment id="ID2" author="…" reply-to="ID">…</comment>`;
//! - a comment whose range never ends in the same story is shown at its start mark;
//!   one with only a reference mark is shown there; comments anchored nowhere are
//!   shown after the body. No comment of the document is dropped.

use std::collections::{HashMap, HashSet};

use super::escape::{push_attr, push_text, short_date};
use crate::model::{AnchorMark, Block, Comment, Inline};

/// A comment rendered for the output, with its replies.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ShownComment {
    /// The markup of the comment and its replies.
    pub markup: String,
    /// Authors of the comment and replies, in order.
    pub authors: Vec<String>,
    /// Their plain text (for the name finder).
    pub plain: String,
}

/// What a comment anchor did.
pub(crate) struct AnchorEffect {
    /// A comment to show at this point.
    pub show: Option<ShownComment>,
    /// Whether the set of open ranges changed.
    pub ranges_changed: bool,
}

/// Comment lookup and emission state for one conversion.
pub(crate) struct CommentBook<'d> {
    comments: &'d [Comment],
    by_id: HashMap<&'d str, usize>,
    replies: Vec<Vec<usize>>,
    anchored: Vec<bool>,
    emitted: Vec<bool>,
    story_ends: HashSet<String>,
    open: Vec<usize>,
}

impl<'d> CommentBook<'d> {
    /// A book over `comments`; `stories` are every story that may hold anchors.
    pub(crate) fn new<'b>(
        comments: &'d [Comment],
        stories: impl Iterator<Item = &'b [Block]>,
    ) -> Self {
        let mut by_id = HashMap::new();
        for (i, c) in comments.iter().enumerate() {
            by_id.entry(c.id.as_str()).or_insert(i);
        }
        let mut replies = vec![Vec::new(); comments.len()];
        for (i, c) in comments.iter().enumerate() {
            if let Some(&p) = c.parent.as_deref().and_then(|p| by_id.get(p)) {
                if p != i {
                    replies[p].push(i);
                }
            }
        }
        let mut anchored = vec![false; comments.len()];
        for blocks in stories {
            scan(blocks, &mut |id, _| {
                if let Some(&i) = by_id.get(id) {
                    anchored[i] = true;
                }
            });
        }
        CommentBook {
            comments,
            by_id,
            replies,
            anchored,
            emitted: vec![false; comments.len()],
            story_ends: HashSet::new(),
            open: Vec::new(),
        }
    }

    /// Starts a story (body, one header, one note): ranges open only when their end
    /// mark is in the same story.
    pub(crate) fn begin_story(&mut self, blocks: &[Block]) {
        self.open.clear();
        self.story_ends.clear();
        let ends = &mut self.story_ends;
        scan(blocks, &mut |id, mark| {
            if mark == AnchorMark::End {
                ends.insert(id.to_string());
            }
        });
    }

    /// Ends the current story: ranges still open are dropped.
    pub(crate) fn end_story(&mut self) {
        self.open.clear();
        self.story_ends.clear();
    }

    /// The ids of the open ranges with their comments' authors (empty when none).
    pub(crate) fn open_ranges(&self) -> (Vec<String>, Vec<String>) {
        let mut ids = Vec::new();
        let mut authors = Vec::new();
        for &i in &self.open {
            if let Some(c) = self.comments.get(i) {
                ids.push(c.id.clone());
                if let Some(a) = c.author.as_deref().filter(|a| !a.trim().is_empty()) {
                    authors.push(a.trim().to_string());
                }
            }
        }
        (ids, authors)
    }

    /// Handles one anchor mark.
    pub(crate) fn anchor(&mut self, id: &str, mark: AnchorMark) -> AnchorEffect {
        let mut effect = AnchorEffect {
            show: None,
            ranges_changed: false,
        };
        let Some(&i) = self.by_id.get(id) else {
            return effect;
        };
        match mark {
            AnchorMark::Start => {
                if self.story_ends.contains(id) {
                    if !self.open.contains(&i) {
                        self.open.push(i);
                        effect.ranges_changed = true;
                    }
                } else {
                    effect.show = self.show(i);
                }
            }
            AnchorMark::End => {
                if let Some(pos) = self.open.iter().position(|&o| o == i) {
                    self.open.remove(pos);
                    effect.ranges_changed = true;
                }
                effect.show = self.show(i);
            }
            AnchorMark::Reference => effect.show = self.show(i),
        }
        effect
    }

    /// Comments anchored nowhere (and not shown with a parent), to show after the body.
    pub(crate) fn unanchored(&mut self) -> Vec<ShownComment> {
        let mut out = Vec::new();
        for i in 0..self.comments.len() {
            let reply_of_anchored = self
                .comments
                .get(i)
                .and_then(|c| c.parent.as_deref())
                .and_then(|p| self.by_id.get(p))
                .is_some_and(|&p| self.anchored.get(p) == Some(&true));
            if !self.anchored[i] && !reply_of_anchored {
                if let Some(s) = self.show(i) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Every comment not shown yet (a safety net run after all stories).
    pub(crate) fn leftovers(&mut self) -> Vec<ShownComment> {
        (0..self.comments.len())
            .filter_map(|i| self.show(i))
            .collect()
    }

    /// Renders comment `i` with its replies, unless it was shown already.
    fn show(&mut self, i: usize) -> Option<ShownComment> {
        if self.emitted.get(i) != Some(&false) {
            return None;
        }
        let mut shown = ShownComment::default();
        let mut stack = vec![(i, None::<usize>)];
        while let Some((k, parent)) = stack.pop() {
            if self.emitted.get(k) != Some(&false) {
                continue;
            }
            self.emitted[k] = true;
            let Some(c) = self.comments.get(k) else {
                continue;
            };
            let parent_id = parent
                .and_then(|p| self.comments.get(p))
                .map(|p| p.id.as_str());
            write_comment(c, parent_id, &mut shown);
            for &r in self.replies[k].iter().rev() {
                stack.push((r, Some(k)));
            }
        }
        Some(shown)
    }
}

fn write_comment(c: &Comment, reply_to: Option<&str>, shown: &mut ShownComment) {
    let out = &mut shown.markup;
    out.push_str("<comment id=\"");
    push_attr(&c.id, out);
    out.push('"');
    if let Some(a) = c.author.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
        out.push_str(" author=\"");
        push_attr(a, out);
        out.push('"');
        shown.authors.push(a.to_string());
    }
    if let Some(d) = c.date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        out.push_str(" date=\"");
        push_attr(short_date(d), out);
        out.push('"');
    }
    if let Some(p) = reply_to {
        out.push_str(" reply-to=\"");
        push_attr(p, out);
        out.push('"');
    }
    out.push('>');
    let text = c.text.trim();
    for (n, line) in text.lines().enumerate() {
        if n > 0 {
            out.push_str("<br>");
        }
        push_text(line, out);
    }
    out.push_str("</comment>");
    if !shown.plain.is_empty() {
        shown.plain.push('\n');
    }
    shown.plain.push_str(text);
}

/// Calls `f(id, mark)` for every comment anchor in `blocks`, in order.
fn scan(blocks: &[Block], f: &mut dyn FnMut(&str, AnchorMark)) {
    for b in blocks {
        match b {
            Block::Paragraph(p) => scan_inlines(&p.inlines, f),
            Block::Table(t) => {
                for row in &t.rows {
                    for cell in &row.cells {
                        scan(&cell.blocks, f);
                    }
                }
            }
            Block::Quote(inner) => scan(inner, f),
            Block::PageBreak | Block::SectionBreak { .. } | Block::Code { .. } | Block::Rule => {}
        }
    }
}

fn scan_inlines(inlines: &[Inline], f: &mut dyn FnMut(&str, AnchorMark)) {
    for i in inlines {
        match i {
            Inline::CommentAnchor { id, mark } => f(id, *mark),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => scan_inlines(children, f),
            _ => {}
        }
    }
}
