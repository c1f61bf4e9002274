//! Footnotes and endnotes (ECMA-376 Part 1, 17.11: `footnotes.xml`, `endnotes.xml`).
//!
//! Notes whose `w:type` is `separator`, `continuationSeparator` or
//! `continuationNotice` (17.18.33 ST_FtnEdn) are layout furniture, not content, and
//! are left out. The model lists notes in the order they are first referenced from the
//! body, then any others in file order.

use crate::error::ConvertError;
use crate::model::{Note, NoteKind};

use super::body::read_blocks;
use super::ctx::Ctx;
use super::xml::{Ev, Ns, Xml};

/// Reads a notes part of `kind`.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_notes(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    kind: NoteKind,
) -> Result<Vec<Note>, ConvertError> {
    let element = match kind {
        NoteKind::Footnote => "footnote",
        NoteKind::Endnote => "endnote",
    };
    let mut out = Vec::new();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, element) => {
                let furniture = matches!(
                    s.w("type"),
                    Some("separator" | "continuationSeparator" | "continuationNotice")
                );
                if furniture {
                    x.skip()?;
                    continue;
                }
                let id = s.w("id").unwrap_or("").to_string();
                cx.fields.clear();
                let blocks = read_blocks(x, cx)?;
                out.push(Note { kind, id, blocks });
            }
            Ev::Start(s) if s.is(Ns::W, "footnotes") || s.is(Ns::W, "endnotes") => {}
            Ev::Start(s) => {
                cx.unknown(&s);
                x.skip()?;
            }
            Ev::End | Ev::Text(_) => {}
            Ev::Eof => return Ok(out),
        }
    }
}

/// Orders notes by first reference, unreferenced ones after in their file order.
pub(crate) fn order_notes(notes: Vec<Note>, refs: &[(NoteKind, String)]) -> Vec<Note> {
    let mut slots: Vec<Option<Note>> = notes.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    let mut index = std::collections::HashMap::new();
    for (i, n) in slots.iter().enumerate() {
        if let Some(n) = n {
            index.entry((n.kind, n.id.clone())).or_insert(i);
        }
    }
    for r in refs {
        if let Some(&i) = index.get(r) {
            if let Some(n) = slots.get_mut(i).and_then(Option::take) {
                out.push(n);
            }
        }
    }
    out.extend(slots.into_iter().flatten());
    out
}
