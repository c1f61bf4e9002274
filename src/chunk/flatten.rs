//! Inline content flattened into leaves that each carry their full context.
//!
//! The model nests inlines freely (a comment end inside an insertion inside a link);
//! Markdown and the tags docrag writes must nest properly. So a paragraph is first
//! flattened into a list of leaves, each knowing its open comment ranges, tracked
//! change, link, field and character style, and the renderer then opens and closes
//! wrappers in one fixed order. Any slice of leaves renders to balanced markup, which
//! is what lets an oversized paragraph be split anywhere between leaves.

use std::rc::Rc;

use super::comments::{CommentBook, ShownComment};
use crate::model::{Inline, NoteKind, RevisionKind, TextStyle};

/// One piece of inline content.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item {
    /// Text (unescaped).
    Text(String),
    /// A tab.
    Tab,
    /// A line break.
    Break,
    /// An image with its alternative text.
    Image(String),
    /// A formula: LaTeX without delimiters, and whether it is a display formula.
    Math(String, bool),
    /// A footnote or endnote reference.
    Note(NoteKind, String),
    /// A comment shown here (index into [`Flat::comments`]).
    Comment(usize),
    /// A page starts here.
    PageBreak,
}

/// A leaf with its context; the `u32` fields are 1-based indices into the tables of
/// its [`Flat`], 0 meaning none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Leaf {
    pub item: Item,
    pub style: TextStyle,
    pub marks: u32,
    pub rev: u32,
    pub link: u32,
    pub field: u32,
}

/// A tracked change.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rev {
    pub kind: RevisionKind,
    pub author: Option<String>,
    pub date: Option<String>,
}

/// A set of open comment ranges.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MarkSet {
    pub ids: Vec<String>,
    pub authors: Vec<String>,
}

/// The side tables that leaves index into.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tables {
    pub revs: Vec<Rev>,
    pub links: Vec<String>,
    pub marks: Vec<MarkSet>,
    pub fields: Vec<String>,
    pub comments: Vec<ShownComment>,
}

/// A flattened paragraph (or cell paragraph): leaves plus the tables they index,
/// shared (pieces of a split paragraph share one copy).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Flat {
    pub leaves: Vec<Leaf>,
    pub t: Rc<Tables>,
}

impl Flat {
    /// The tables of `self` with `leaves` instead of its own.
    pub(crate) fn with_leaves(&self, leaves: Vec<Leaf>) -> Flat {
        Flat {
            leaves,
            t: Rc::clone(&self.t),
        }
    }

    /// Whether any leaf shows something (text that is not only whitespace, an image,
    /// a note reference or a comment).
    pub(crate) fn has_content(&self) -> bool {
        self.leaves.iter().any(|l| match &l.item {
            Item::Text(t) => !t.trim().is_empty(),
            Item::Image(_) | Item::Math(..) | Item::Note(..) | Item::Comment(_) => true,
            Item::Tab | Item::Break | Item::PageBreak => false,
        })
    }

    /// Splits at page breaks: one `Flat` per page (the first may be empty).
    pub(crate) fn split_pages(self) -> Vec<Flat> {
        if !self.leaves.iter().any(|l| l.item == Item::PageBreak) {
            return vec![self];
        }
        let mut out = Vec::new();
        let mut cur = Vec::new();
        for leaf in &self.leaves {
            if leaf.item == Item::PageBreak {
                out.push(self.with_leaves(std::mem::take(&mut cur)));
            } else {
                cur.push(leaf.clone());
            }
        }
        out.push(self.with_leaves(cur));
        out
    }
}

/// Flattens `inlines`. `row_rev` is a whole-row tracked change applied to leaves that
/// have none of their own.
pub(crate) fn flatten(inlines: &[Inline], book: &mut CommentBook, row_rev: Option<Rev>) -> Flat {
    let mut f = Flattener {
        leaves: Vec::new(),
        t: Tables::default(),
        marks: 0,
    };
    f.refresh_marks(book);
    let rev = match row_rev {
        Some(r) => {
            f.t.revs.push(r);
            f.t.revs.len() as u32
        }
        None => 0,
    };
    f.walk(inlines, book, rev, 0, 0);
    Flat {
        leaves: f.leaves,
        t: Rc::new(f.t),
    }
}

struct Flattener {
    leaves: Vec<Leaf>,
    t: Tables,
    marks: u32,
}

impl Flattener {
    fn refresh_marks(&mut self, book: &CommentBook) {
        let (ids, authors) = book.open_ranges();
        if ids.is_empty() {
            self.marks = 0;
        } else {
            self.t.marks.push(MarkSet { ids, authors });
            self.marks = self.t.marks.len() as u32;
        }
    }

    fn leaf(&mut self, item: Item, style: TextStyle, rev: u32, link: u32, field: u32) {
        self.leaves.push(Leaf {
            item,
            style,
            marks: self.marks,
            rev,
            link,
            field,
        });
    }

    fn walk(
        &mut self,
        inlines: &[Inline],
        book: &mut CommentBook,
        rev: u32,
        link: u32,
        field: u32,
    ) {
        let plain = TextStyle::default();
        for inline in inlines {
            match inline {
                Inline::Text { text, style } => {
                    if !text.is_empty() {
                        self.leaf(Item::Text(text.clone()), *style, rev, link, field);
                    }
                }
                Inline::Tab => self.leaf(Item::Tab, plain, rev, link, field),
                Inline::LineBreak => self.leaf(Item::Break, plain, rev, link, field),
                Inline::PageBreak => self.leaf(Item::PageBreak, plain, 0, 0, 0),
                Inline::Image { alt } => {
                    self.leaf(Item::Image(alt.clone()), plain, rev, link, field)
                }
                Inline::Math { tex, display } => {
                    if !tex.trim().is_empty() {
                        let item = Item::Math(tex.clone(), *display);
                        self.leaf(item, plain, rev, link, field)
                    }
                }
                Inline::NoteRef { kind, id } => {
                    self.leaf(Item::Note(*kind, id.clone()), plain, rev, link, field)
                }
                Inline::Link { target, children } => {
                    let link = if target.trim().is_empty() {
                        link
                    } else {
                        self.t.links.push(target.trim().to_string());
                        self.t.links.len() as u32
                    };
                    self.walk(children, book, rev, link, field);
                }
                Inline::Revision {
                    kind,
                    author,
                    date,
                    children,
                } => {
                    self.t.revs.push(Rev {
                        kind: *kind,
                        author: author.clone(),
                        date: date.clone(),
                    });
                    let rev = self.t.revs.len() as u32;
                    self.walk(children, book, rev, link, field);
                }
                Inline::Field { code, children } => {
                    self.t.fields.push(code.clone());
                    let field = self.t.fields.len() as u32;
                    self.walk(children, book, rev, link, field);
                }
                Inline::CommentAnchor { id, mark } => {
                    let effect = book.anchor(id, *mark);
                    if effect.ranges_changed {
                        self.refresh_marks(book);
                    }
                    if let Some(shown) = effect.show {
                        self.t.comments.push(shown);
                        let k = self.t.comments.len() - 1;
                        self.leaves.push(Leaf {
                            item: Item::Comment(k),
                            style: plain,
                            marks: 0,
                            rev: 0,
                            link: 0,
                            field: 0,
                        });
                    }
                }
            }
        }
    }
}
