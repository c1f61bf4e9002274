//! Inline content of the paragraph being read: text runs merged by formatting, tracked
//! changes grouped into [`Inline::Revision`] (in RTF they are character properties,
//! not groups), and open field results ([`Inline::Link`] / [`Inline::Field`]) that a
//! paragraph end closes and the next paragraph reopens.

use crate::model::{Inline, RevisionKind, TextStyle};

/// A tracked change, resolved to names and dates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rev {
    pub kind: RevisionKind,
    pub author: Option<String>,
    pub date: Option<String>,
}

/// An open field result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Container {
    /// `HYPERLINK` with its target.
    Link(String),
    /// Any other field, by its code.
    Field(String),
}

impl Container {
    fn wrap(self, children: Vec<Inline>) -> Inline {
        match self {
            Container::Link(target) => Inline::Link { target, children },
            Container::Field(code) => Inline::Field { code, children },
        }
    }
}

/// The inlines of one paragraph.
#[derive(Debug, Default)]
pub(crate) struct InlineBuf {
    inlines: Vec<Inline>,
    open: Vec<(Container, Vec<Inline>)>,
    /// Opens beyond [`MAX_OPEN`], not kept (their results join the enclosing one).
    overflow: usize,
    /// Whether anything but whitespace was written (kept so the check is O(1)).
    content: bool,
}

/// Deepest nesting of field results kept (each paragraph end closes and reopens them).
const MAX_OPEN: usize = 16;

impl InlineBuf {
    fn target(&mut self) -> &mut Vec<Inline> {
        match self.open.last_mut() {
            Some((_, children)) => children,
            None => &mut self.inlines,
        }
    }

    /// Appends text with a formatting and an optional tracked change.
    pub(crate) fn text(&mut self, s: &str, style: TextStyle, rev: Option<Rev>) {
        if s.is_empty() {
            return;
        }
        if !self.content && !s.trim().is_empty() {
            self.content = true;
        }
        with_target(self.target(), rev, |into| {
            if let Some(Inline::Text { text, style: st }) = into.last_mut()
                && *st == style
            {
                text.push_str(s);
                return;
            }
            into.push(Inline::Text {
                text: s.to_string(),
                style,
            });
        });
    }

    /// Appends a non-text inline (tab, line break, anchors, note references).
    pub(crate) fn push(&mut self, inline: Inline, rev: Option<Rev>) {
        if !matches!(inline, Inline::Tab | Inline::LineBreak) {
            self.content = true;
        }
        with_target(self.target(), rev, |into| into.push(inline));
    }

    /// Opens a field result.
    pub(crate) fn open(&mut self, c: Container) {
        if self.open.len() >= MAX_OPEN {
            self.overflow += 1;
        } else {
            self.open.push((c, Vec::new()));
        }
    }

    /// Closes the innermost field result; an empty one leaves nothing.
    pub(crate) fn close(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        if let Some((c, children)) = self.open.pop()
            && !children.is_empty()
        {
            let inline = c.wrap(children);
            self.target().push(inline);
        }
    }

    /// Whether nothing but whitespace was written.
    pub(crate) fn is_blank(&self) -> bool {
        !self.content
    }

    /// The paragraph's inlines; open field results are closed here and reopened empty
    /// for the next paragraph.
    pub(crate) fn take(&mut self) -> Vec<Inline> {
        self.content = false;
        if self.open.is_empty() {
            return std::mem::take(&mut self.inlines);
        }
        let overflow = std::mem::take(&mut self.overflow);
        let kinds: Vec<Container> = self.open.iter().map(|(c, _)| c.clone()).collect();
        for _ in 0..kinds.len() {
            self.close();
        }
        for c in kinds {
            self.open(c);
        }
        self.overflow = overflow;
        std::mem::take(&mut self.inlines)
    }
}

/// Calls `f` with where content with `rev` goes: the last revision inline when it is
/// the same change, a new one otherwise, or `v` itself without a change.
fn with_target(v: &mut Vec<Inline>, rev: Option<Rev>, f: impl FnOnce(&mut Vec<Inline>)) {
    let Some(rev) = rev else {
        return f(v);
    };
    let same = matches!(v.last(), Some(Inline::Revision { kind, author, date, .. })
        if *kind == rev.kind && *author == rev.author && *date == rev.date);
    if !same {
        v.push(Inline::Revision {
            kind: rev.kind,
            author: rev.author,
            date: rev.date,
            children: Vec::new(),
        });
    }
    if let Some(Inline::Revision { children, .. }) = v.last_mut() {
        f(children);
    }
}

/// Whether inlines hold nothing but whitespace, tabs and line breaks.
pub(crate) fn blank(inlines: &[Inline]) -> bool {
    inlines.iter().all(|i| match i {
        Inline::Text { text, .. } => text.trim().is_empty(),
        Inline::Tab | Inline::LineBreak => true,
        Inline::Link { children, .. }
        | Inline::Field { children, .. }
        | Inline::Revision { children, .. } => blank(children),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_and_revisions_group() {
        let mut b = InlineBuf::default();
        let st = TextStyle::default();
        let ins = Rev {
            kind: RevisionKind::Insertion,
            author: Some("A".into()),
            date: None,
        };
        b.text("a", st, None);
        b.text("b", st, None);
        b.text("c", st, Some(ins.clone()));
        b.text("d", st, Some(ins));
        b.open(Container::Link("u".into()));
        b.text("e", st, None);
        let first = b.take();
        assert_eq!(first.len(), 3);
        assert!(matches!(&first[1], Inline::Revision { children, .. } if children.len() == 1));
        b.text("f", st, None);
        b.close();
        assert!(matches!(&b.take()[0], Inline::Link { target, .. } if target == "u"));
    }
}
