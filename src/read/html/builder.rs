//! The output side of the walk: block containers, the paragraph being built, and CSS
//! white-space collapsing.
//!
//! A container (the body, a block quote, a table cell, a caption) collects blocks and
//! owns one paragraph in progress. The paragraph holds inline content and the stack of
//! open links and tracked changes; when a block boundary ends the paragraph inside an
//! open `<a>` or `<ins>`, the wrapper is closed around what it holds so far and
//! reopened (empty) for the next paragraph, so `<a href><div>x</div><div>y</div></a>`
//! gives two linked paragraphs.
//!
//! White space follows CSS 2.1 16.6.1 for `white-space: normal`: runs of space, tab,
//! line feed, form feed and carriage return collapse to one space, and spaces at the
//! start and end of a line are removed. No-break spaces (U+00A0) are treated as
//! collapsible too: for retrieval they are spaces, and Word's `<p>&nbsp;</p>` spacer
//! paragraphs then vanish. Inside `<pre>`, `<textarea>` and elements styled
//! `white-space: pre*`, text is kept as written (line feeds become line breaks).

use crate::model::{Block, Inline, Paragraph, ParagraphKind, RevisionKind, TextStyle};

/// What a container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The document body.
    Root,
    /// A `<blockquote>`.
    Quote,
    /// A table cell or caption.
    Cell,
}

/// An inline wrapper that spans its children.
#[derive(Debug, Clone)]
pub(super) enum Wrap {
    /// `<a href>`.
    Link(String),
    /// `<ins>` / `<del>`.
    Revision {
        kind: RevisionKind,
        author: Option<String>,
        date: Option<String>,
    },
}

/// What the paragraphs of an element are.
#[derive(Debug, Clone)]
pub(super) enum Kind {
    /// `<h1>`-`<h6>`.
    Heading(u8),
    /// Word's `MsoTitle` paragraph.
    Title,
    /// A list item; `emitted` once its first paragraph is out (later paragraphs of the
    /// same item, after a nested list or table, are plain paragraphs).
    Item {
        ordered: bool,
        level: u8,
        number: u32,
        emitted: bool,
    },
}

struct Open {
    wrap: Wrap,
    children: Vec<Inline>,
}

struct Para {
    base: Vec<Inline>,
    open: Vec<Open>,
    /// Something visible (not just white space and breaks) was added.
    visible: bool,
    /// The output ends with a collapsible space or is at a line start: further white
    /// space is dropped.
    at_space: bool,
    /// A soft block boundary inside a list item: the next visible content starts a
    /// new line of the same item.
    pending_break: bool,
}

impl Para {
    fn new() -> Self {
        Para {
            base: Vec::new(),
            open: Vec::new(),
            visible: false,
            at_space: true,
            pending_break: false,
        }
    }

    fn target(&mut self) -> &mut Vec<Inline> {
        match self.open.last_mut() {
            Some(o) => &mut o.children,
            None => &mut self.base,
        }
    }

    /// Adds text, merging with a preceding run of the same style.
    fn push_text(&mut self, text: &str, style: TextStyle) {
        if text.is_empty() {
            return;
        }
        let target = self.target();
        if let Some(Inline::Text { text: t, style: s }) = target.last_mut()
            && *s == style
        {
            t.push_str(text);
            return;
        }
        target.push(Inline::Text {
            text: text.to_string(),
            style,
        });
    }

    /// Before visible content: the line break a soft boundary left pending.
    fn before_visible(&mut self) {
        if self.pending_break {
            self.pending_break = false;
            trim_end(self.target());
            self.target().push(Inline::LineBreak);
        }
        self.visible = true;
    }

    /// Closes every open wrapper around its content so far; the wrappers stay open,
    /// empty.
    fn close_wrappers(&mut self) {
        for i in (0..self.open.len()).rev() {
            let Some(o) = self.open.get_mut(i) else {
                continue;
            };
            let children = std::mem::take(&mut o.children);
            if children.is_empty() {
                continue;
            }
            let inline = wrap(o.wrap.clone(), children);
            match i.checked_sub(1).and_then(|j| self.open.get_mut(j)) {
                Some(parent) => parent.children.push(inline),
                None => self.base.push(inline),
            }
        }
    }
}

fn wrap(w: Wrap, children: Vec<Inline>) -> Inline {
    match w {
        Wrap::Link(target) => Inline::Link { target, children },
        Wrap::Revision { kind, author, date } => Inline::Revision {
            kind,
            author,
            date,
            children,
        },
    }
}

/// Removes trailing spaces and line breaks at the end of `v`, looking into a trailing
/// link or tracked change.
fn trim_end(v: &mut Vec<Inline>) {
    let mut v = v;
    loop {
        let descend = match v.last_mut() {
            Some(Inline::Text { text, .. }) => {
                let n = text.trim_end_matches(' ').len();
                text.truncate(n);
                if !text.is_empty() {
                    return;
                }
                false
            }
            Some(Inline::LineBreak) => false,
            Some(Inline::Link { children, .. } | Inline::Revision { children, .. })
                if !children.is_empty() =>
            {
                true
            }
            _ => return,
        };
        if descend {
            match v.last_mut() {
                Some(Inline::Link { children, .. } | Inline::Revision { children, .. }) => {
                    v = children
                }
                _ => return,
            }
        } else {
            v.pop();
        }
    }
}

/// A block container.
pub(super) struct Container {
    /// Kept for debugging and future rules (page breaks are only honoured in the body).
    #[allow(dead_code)]
    role: Role,
    pub blocks: Vec<Block>,
    para: Para,
    kinds: Vec<Kind>,
}

impl Container {
    fn new(role: Role) -> Self {
        Container {
            role,
            blocks: Vec::new(),
            para: Para::new(),
            kinds: Vec::new(),
        }
    }
}

/// The builder the walk drives.
pub(super) struct Builder {
    root: Container,
    stack: Vec<Container>,
    styles: Vec<TextStyle>,
    preserve: Vec<bool>,
    /// A reused buffer for collapsing white space.
    scratch: String,
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            root: Container::new(Role::Root),
            stack: Vec::new(),
            styles: Vec::new(),
            preserve: Vec::new(),
            scratch: String::new(),
        }
    }

    fn top(&mut self) -> &mut Container {
        match self.stack.last_mut() {
            Some(c) => c,
            None => &mut self.root,
        }
    }

    /// How many containers are open above the body.
    pub fn nesting(&self) -> usize {
        self.stack.len()
    }

    // ---- styles ----

    pub fn style(&self) -> TextStyle {
        self.styles.last().copied().unwrap_or_default()
    }

    pub fn push_style(&mut self, s: TextStyle) {
        self.styles.push(s);
    }

    pub fn pop_style(&mut self) {
        self.styles.pop();
    }

    pub fn push_preserve(&mut self, on: bool) {
        self.preserve.push(on);
    }

    pub fn pop_preserve(&mut self) {
        self.preserve.pop();
    }

    fn preserving(&self) -> bool {
        self.preserve.last().copied().unwrap_or(false)
    }

    // ---- paragraph kinds ----

    pub fn push_kind(&mut self, k: Kind) {
        self.top().kinds.push(k);
    }

    pub fn pop_kind(&mut self) {
        self.top().kinds.pop();
    }

    // ---- inline content ----

    /// Adds text from a text node, collapsing white space unless preserving.
    pub fn text(&mut self, s: &str) {
        let style = self.style();
        if self.preserving() {
            self.text_preserved(s, style);
            return;
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let para = &mut self.top().para;
        // Inter-element white space at a line start (most text nodes of markup-heavy
        // pages) adds nothing.
        if para.at_space && s.bytes().all(|b| b.is_ascii_whitespace()) {
            self.scratch = out;
            return;
        }
        let mut visible = false;
        for c in s.chars() {
            if c.is_ascii_whitespace() || c == '\u{A0}' {
                if !para.at_space {
                    out.push(' ');
                    para.at_space = true;
                }
            } else if c.is_control() {
                continue;
            } else {
                if !visible {
                    visible = true;
                    if para.pending_break {
                        // The break goes before this text; a space collected before it
                        // would end the previous line.
                        let lead = out.trim_start().len();
                        let cut = out.len() - lead;
                        out.drain(..cut);
                        para.before_visible();
                    } else {
                        para.visible = true;
                    }
                }
                out.push(c);
                para.at_space = false;
            }
        }
        para.push_text(&out, style);
        self.scratch = out;
    }

    fn text_preserved(&mut self, s: &str, style: TextStyle) {
        let para = &mut self.top().para;
        let mut run = String::new();
        for c in s.chars() {
            match c {
                '\n' => {
                    para.push_text(&run, style);
                    run.clear();
                    para.target().push(Inline::LineBreak);
                }
                '\t' => {
                    para.push_text(&run, style);
                    run.clear();
                    para.target().push(Inline::Tab);
                }
                '\r' => {}
                c if c.is_control() => {}
                c => {
                    if !c.is_whitespace() && !para.visible {
                        para.before_visible();
                    }
                    run.push(c);
                }
            }
        }
        para.push_text(&run, style);
        para.at_space = false;
    }

    /// A literal piece of text (quotation marks, form values), not collapsed.
    pub fn literal(&mut self, s: &str) {
        let style = self.style();
        let para = &mut self.top().para;
        if s.trim().is_empty() {
            return;
        }
        para.before_visible();
        para.push_text(s, style);
        para.at_space = s.ends_with(' ');
    }

    /// `<br>`.
    pub fn line_break(&mut self) {
        let para = &mut self.top().para;
        trim_end(para.target());
        para.target().push(Inline::LineBreak);
        para.at_space = true;
    }

    /// An image or other object shown by its description.
    pub fn image(&mut self, alt: String) {
        let para = &mut self.top().para;
        para.before_visible();
        para.target().push(Inline::Image { alt });
        para.at_space = false;
    }

    /// Opens a link or tracked change around what follows.
    pub fn open_wrap(&mut self, w: Wrap) {
        self.top().para.open.push(Open {
            wrap: w,
            children: Vec::new(),
        });
    }

    /// Closes the innermost wrapper opened by [`Builder::open_wrap`].
    pub fn close_wrap(&mut self) {
        let para = &mut self.top().para;
        let Some(o) = para.open.pop() else {
            return;
        };
        if o.children.is_empty() {
            return;
        }
        let inline = wrap(o.wrap, o.children);
        para.target().push(inline);
    }

    /// A forced page break (CSS). Only the body has pages: breaks inside quotes and
    /// table cells are ignored, a break before any content is dropped, and two
    /// breaks with nothing between them count once.
    pub fn page_break(&mut self) {
        if !self.stack.is_empty() {
            return;
        }
        let c = &mut self.root;
        if c.para.visible {
            let target = c.para.target();
            if !matches!(target.last(), Some(Inline::PageBreak)) {
                target.push(Inline::PageBreak);
            }
            c.para.at_space = true;
            return;
        }
        match c.blocks.last() {
            None | Some(Block::PageBreak) => {}
            Some(Block::Paragraph(p)) if matches!(p.inlines.last(), Some(Inline::PageBreak)) => {}
            Some(_) => c.blocks.push(Block::PageBreak),
        }
    }

    // ---- blocks ----

    /// Ends the paragraph in progress. A soft boundary (`<p>`, `<div>`, ...) inside a
    /// list item only starts a new line of the item; a hard one (a nested list, a
    /// heading, a table) ends it.
    pub fn flush(&mut self, hard: bool) {
        let c = self.top();
        if !c.para.visible {
            c.para.base.clear();
            for o in &mut c.para.open {
                o.children.clear();
            }
            c.para.at_space = true;
            c.para.pending_break = false;
            return;
        }
        if !hard && matches!(c.kinds.last(), Some(Kind::Item { .. })) {
            c.para.pending_break = true;
            c.para.at_space = true;
            return;
        }
        c.para.close_wrappers();
        let mut inlines = std::mem::take(&mut c.para.base);
        trim_end(&mut inlines);
        while matches!(inlines.first(), Some(Inline::LineBreak)) {
            inlines.remove(0);
        }
        if let Some(Inline::Text { text, .. }) = inlines.first_mut() {
            let n = text.len() - text.trim_start_matches(' ').len();
            text.drain(..n);
        }
        let kind = match c.kinds.last_mut() {
            None => ParagraphKind::Normal,
            Some(Kind::Heading(n)) => ParagraphKind::Heading(*n),
            Some(Kind::Title) => ParagraphKind::Title,
            Some(Kind::Item {
                ordered,
                level,
                number,
                emitted,
            }) => {
                if *emitted {
                    ParagraphKind::Normal
                } else {
                    *emitted = true;
                    ParagraphKind::ListItem {
                        ordered: *ordered,
                        level: *level,
                        number: *number,
                    }
                }
            }
        };
        c.blocks.push(Block::Paragraph(Paragraph { kind, inlines }));
        c.para.visible = false;
        c.para.at_space = true;
        c.para.pending_break = false;
    }

    /// Adds a block after ending the paragraph in progress.
    pub fn block(&mut self, b: Block) {
        self.flush(true);
        self.top().blocks.push(b);
    }

    /// Adds several blocks (a flattened table, a caption) after ending the paragraph.
    pub fn blocks(&mut self, bs: Vec<Block>) {
        self.flush(true);
        self.top().blocks.extend(bs);
    }

    /// Opens a container (quote, cell) after ending the paragraph in progress.
    pub fn open_container(&mut self, role: Role) {
        self.flush(true);
        self.stack.push(Container::new(role));
    }

    /// Closes the innermost container and returns its blocks.
    pub fn close_container(&mut self) -> Vec<Block> {
        self.flush(true);
        self.stack.pop().map(|c| c.blocks).unwrap_or_default()
    }

    /// Ends the walk: the body's blocks (any containers left open are closed into it).
    pub fn finish(mut self) -> Vec<Block> {
        while !self.stack.is_empty() {
            let bs = self.close_container();
            self.blocks(bs);
        }
        self.flush(true);
        self.root.blocks
    }
}
