//! The inline builder of one paragraph: a stack of open frames (hyperlinks, tracked
//! changes, fields, collection buffers) into which runs push their content.
//!
//! XML-nested containers (`w:hyperlink`, `w:ins`, `w:fldSimple`, ...) open and close a
//! frame around their children. Complex fields are not XML-nested; they remember the
//! frame and position where their result starts and are wrapped when they end, if the
//! end falls in the same frame (see `fields.rs`).

use crate::model::{Block, Inline, RevisionKind, TextStyle};

use super::rpr::RunProps;
use crate::read::pagefit::Face;

/// What a frame becomes when it closes.
#[derive(Debug, Clone)]
pub(crate) enum FrameKind {
    /// The paragraph itself.
    Root,
    /// A hyperlink with its target.
    Link(String),
    /// A tracked change.
    Revision(RevisionKind, Option<String>, Option<String>),
    /// A simple field with its code.
    Field(String),
    /// A buffer the caller takes back (ruby parts).
    Collect,
}

#[derive(Debug)]
struct Frame {
    id: u64,
    kind: FrameKind,
    items: Vec<Inline>,
}

/// Inline content under construction.
#[derive(Debug)]
pub(crate) struct Inl {
    frames: Vec<Frame>,
    /// Run formatting of the paragraph style (the base of every run).
    pub base: RunProps,
    /// Blocks read from text boxes anchored in this paragraph, emitted after it.
    pub after: Vec<Block>,
    /// A page starts before this paragraph (break seen before any visible content).
    pub break_before: bool,
    /// The largest font size a run sets itself (directly or by character style),
    /// half-points, 0 = none, for the page estimate.
    pub max_font: u16,
    /// A run uses the paragraph style's size.
    pub plain_run: bool,
    /// Height of the drawings in this paragraph (`wp:extent`), twips.
    pub image_height: u32,
    /// The font proportions of the first run that names its font.
    pub face: Option<Face>,
    visible: bool,
    visible_since_break: bool,
    /// A field result starts here: the next text must not merge backwards.
    barrier: bool,
}

impl Inl {
    /// An empty builder whose root frame has id `id`.
    pub(crate) fn new(id: u64) -> Self {
        Inl {
            frames: vec![Frame {
                id,
                kind: FrameKind::Root,
                items: Vec::new(),
            }],
            base: RunProps::default(),
            after: Vec::new(),
            break_before: false,
            max_font: 0,
            plain_run: false,
            image_height: 0,
            face: None,
            visible: false,
            visible_since_break: false,
            barrier: false,
        }
    }

    /// Records a run's own font size and face (`None`: the paragraph style's).
    pub(crate) fn run_font(&mut self, size: Option<u16>, face: Option<Face>) {
        match size {
            Some(s) => self.max_font = self.max_font.max(s),
            None => self.plain_run = true,
        }
        if self.face.is_none() {
            self.face = face;
        }
    }

    /// Whether visible content (text, tabs, images) was pushed.
    pub(crate) fn has_visible(&self) -> bool {
        self.visible
    }

    /// Whether visible content was pushed since the last inline page break.
    pub(crate) fn visible_since_break(&self) -> bool {
        self.visible_since_break
    }

    /// Pushes text, merging with a preceding text of the same style.
    pub(crate) fn text(&mut self, s: &str, style: TextStyle) {
        if s.is_empty() {
            return;
        }
        if !s.trim().is_empty() {
            self.visible = true;
            self.visible_since_break = true;
        }
        let barrier = std::mem::take(&mut self.barrier);
        if let Some(f) = self.frames.last_mut() {
            if let Some(Inline::Text { text, style: st }) = f.items.last_mut().filter(|_| !barrier)
            {
                if *st == style {
                    text.push_str(s);
                    return;
                }
            }
            f.items.push(Inline::Text {
                text: s.to_string(),
                style,
            });
        }
    }

    /// Pushes any inline.
    pub(crate) fn push(&mut self, inline: Inline) {
        match inline {
            Inline::Image { .. } | Inline::Math { .. } => {
                self.visible = true;
                self.visible_since_break = true;
            }
            Inline::PageBreak => self.visible_since_break = false,
            _ => {}
        }
        if let Inline::Text { text, style } = inline {
            self.text(&text, style);
            return;
        }
        self.barrier = false;
        if let Some(f) = self.frames.last_mut() {
            f.items.push(inline);
        }
    }

    /// Opens a frame.
    pub(crate) fn open(&mut self, id: u64, kind: FrameKind) {
        self.frames.push(Frame {
            id,
            kind,
            items: Vec::new(),
        });
    }

    /// Closes the top frame into its parent (empty links, revisions and fields are
    /// dropped). The root frame is never closed.
    pub(crate) fn close(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if frame.items.is_empty() {
            return;
        }
        let children = frame.items;
        let inline = match frame.kind {
            FrameKind::Root | FrameKind::Collect => {
                if let Some(parent) = self.frames.last_mut() {
                    parent.items.extend(children);
                }
                return;
            }
            FrameKind::Link(target) => Inline::Link { target, children },
            FrameKind::Revision(kind, author, date) => Inline::Revision {
                kind,
                author,
                date,
                children,
            },
            FrameKind::Field(code) => Inline::Field { code, children },
        };
        if let Some(parent) = self.frames.last_mut() {
            parent.items.push(inline);
        }
    }

    /// Closes the top frame and returns its items instead of nesting them.
    pub(crate) fn take(&mut self) -> Vec<Inline> {
        if self.frames.len() < 2 {
            return Vec::new();
        }
        self.frames.pop().map(|f| f.items).unwrap_or_default()
    }

    /// Id and length of the top frame (where a complex field's result starts).
    pub(crate) fn mark(&mut self) -> (u64, usize) {
        self.barrier = true;
        self.frames.last().map_or((0, 0), |f| (f.id, f.items.len()))
    }

    /// Wraps the items of the top frame from position `at` into `make(children)`,
    /// if the top frame is `id`. Returns false (nothing changed) otherwise.
    pub(crate) fn wrap_from(
        &mut self,
        id: u64,
        at: usize,
        make: impl FnOnce(Vec<Inline>) -> Inline,
    ) -> bool {
        let Some(f) = self.frames.last_mut() else {
            return false;
        };
        if f.id != id || at > f.items.len() {
            return false;
        }
        let children: Vec<Inline> = f.items.drain(at..).collect();
        if !children.is_empty() {
            f.items.push(make(children));
        }
        true
    }

    /// Closes every open frame and returns the paragraph's inlines.
    pub(crate) fn finish(mut self) -> (Vec<Inline>, Vec<Block>, bool) {
        while self.frames.len() > 1 {
            self.close();
        }
        let items = self.frames.pop().map(|f| f.items).unwrap_or_default();
        (items, self.after, self.break_before)
    }
}
