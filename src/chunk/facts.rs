//! Facts of a unit that the metadata record needs (so records never need the text).

use super::flatten::{Flat, Item, Leaf};
use crate::model::TextStyle;
use std::collections::HashSet;

/// What one unit contributes to its chunk's record.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Facts {
    /// Plain text (no markup); comments are not included.
    pub plain: String,
    /// Plain text of comments shown in the unit (for the name finder).
    pub comment_plain: String,
    /// Title or heading (levels 1-3) text.
    pub heading: Option<String>,
    pub bold: Vec<String>,
    pub italic: Vec<String>,
    pub fields: Vec<String>,
    pub list: Vec<String>,
    pub revisions: bool,
    pub rev_authors: Vec<String>,
    pub comments: bool,
    pub comment_authors: Vec<String>,
}

impl Facts {
    /// Appends `other` (a cell, a later piece) to `self`.
    pub(crate) fn merge(&mut self, other: Facts) {
        join(&mut self.plain, &other.plain, " ");
        join(&mut self.comment_plain, &other.comment_plain, "\n");
        if self.heading.is_none() {
            self.heading = other.heading;
        }
        self.bold.extend(other.bold);
        self.italic.extend(other.italic);
        self.fields.extend(other.fields);
        self.list.extend(other.list);
        self.revisions |= other.revisions;
        self.rev_authors.extend(other.rev_authors);
        self.comments |= other.comments;
        self.comment_authors.extend(other.comment_authors);
    }
}

fn join(acc: &mut String, more: &str, sep: &str) {
    if more.is_empty() {
        return;
    }
    if !acc.is_empty() {
        acc.push_str(sep);
    }
    acc.push_str(more);
}

/// The facts of `leaves` (with `flat`'s tables).
pub(crate) fn of_leaves(flat: &Flat, leaves: &[Leaf]) -> Facts {
    let mut f = Facts::default();
    let mut bold = String::new();
    let mut italic = String::new();
    let mut field = String::new();
    let mut field_id = 0;
    // Authors seen, for a linear dedupe (a paragraph may have 100,000 of them).
    let mut rev_seen: HashSet<&str> = HashSet::new();
    let mut comment_seen: HashSet<&str> = HashSet::new();
    for leaf in leaves {
        let text: &str = match &leaf.item {
            Item::Text(t) => t,
            Item::Image(a) => a,
            Item::Math(tex, _) => tex,
            Item::Tab | Item::Break => " ",
            _ => "",
        };
        f.plain.push_str(text);
        let style: TextStyle = leaf.style;
        flush_if(&mut bold, style.bold, &mut f.bold);
        flush_if(&mut italic, style.italic, &mut f.italic);
        if style.bold {
            bold.push_str(text);
        }
        if style.italic {
            italic.push_str(text);
        }
        if leaf.field != field_id {
            take(&mut field, &mut f.fields);
            field_id = leaf.field;
        }
        if field_id != 0 {
            field.push_str(text);
        }
        if leaf.rev != 0 {
            f.revisions = true;
            if let Some(a) = flat
                .t
                .revs
                .get(leaf.rev as usize - 1)
                .and_then(|r| r.author.as_deref())
                .map(str::trim)
                .filter(|a| !a.is_empty())
            {
                if rev_seen.insert(a) {
                    f.rev_authors.push(a.to_string());
                }
            }
        }
        if leaf.marks != 0 && !text.trim().is_empty() {
            f.comments = true;
            if let Some(m) = flat.t.marks.get(leaf.marks as usize - 1) {
                for a in &m.authors {
                    if comment_seen.insert(a) {
                        f.comment_authors.push(a.clone());
                    }
                }
            }
        }
        if let Item::Comment(k) = &leaf.item {
            f.comments = true;
            if let Some(c) = flat.t.comments.get(*k) {
                for a in &c.authors {
                    if comment_seen.insert(a) {
                        f.comment_authors.push(a.clone());
                    }
                }
                join(&mut f.comment_plain, &c.plain, "\n");
            }
        }
    }
    take(&mut bold, &mut f.bold);
    take(&mut italic, &mut f.italic);
    take(&mut field, &mut f.fields);
    f
}

fn flush_if(acc: &mut String, still_on: bool, out: &mut Vec<String>) {
    if !still_on {
        take(acc, out);
    }
}

fn take(acc: &mut String, out: &mut Vec<String>) {
    let t = acc.trim();
    if !t.is_empty() {
        out.push(t.to_string());
    }
    acc.clear();
}
