//! Headings a writer marked by direct formatting instead of a heading style.
//!
//! Many documents written without heading styles (notices, contracts, court
//! decisions, itineraries, homework) still have sections: each opens with a short
//! line set apart by its formatting alone, all of it bold or all of it underlined,
//! on a paragraph of its own (or a numbered item of its own) and followed by the
//! text it heads. Without a heading, the chunker gives every chunk of such a document
//! an empty section path and the answerer cannot tell what text a section holds.
//!
//! The rule applies only to a document whose body holds no heading at all: a writer
//! who used heading styles used them for the headings, and a bold line in such a
//! document is emphasis. A line is a heading when:
//! - all of its visible text is bold, or all of it is underlined;
//! - it is short (at most [`MAX_WORDS`] words and [`MAX_CHARS`] characters), holds a
//!   letter, holds no line break, picture or formula, and does not end like a sentence
//!   (`.`, `!`, `?`, `;`, `,`) or state a value ("p-value= 0.2175"); a label and its
//!   value ("Day 10: Caño Island") heads only when no line of its look stands right
//!   above it (the last of a run of "Server Version: Apache/2.4" lines is an entry);
//! - the next paragraph with text is not a line of the same look: a run of such lines
//!   is a title block or a list of bold phrases, and only its last line heads what
//!   follows;
//! - a numbered or bulleted item is a heading only when it stands alone between body
//!   text, no item before or after it (the items of a real list stand by their
//!   siblings);
//! - the document has at least [`MIN_HEADINGS`] of them: one bold line structures
//!   nothing.
//!
//! Every implied heading is level 1: direct formatting says a line is set apart, not
//! how deep it sits (one writer underlines the letter of "D. Place" and not its words,
//! another sets the same rank in capitals), and a wrong nesting puts a section under
//! a sibling in every chunk's section path. The heading keeps an ordered item's
//! number as its label.

use crate::model::{Block, Document, Inline, ParagraphKind};

/// Most words of an implied heading.
pub const MAX_WORDS: usize = 12;

/// Most characters of an implied heading.
pub const MAX_CHARS: usize = 100;

/// Fewest implied headings a document must have for any to count.
pub const MIN_HEADINGS: usize = 2;

/// How a candidate line is set apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Look {
    bold: bool,
    underline: bool,
    caps: bool,
}

/// Turns the implied headings of `doc`'s body into [`ParagraphKind::Heading`]
/// paragraphs (see the module docs). Does nothing to a document that has a heading.
pub fn infer(doc: &mut Document) {
    let has_heading = doc
        .body
        .iter()
        .any(|b| matches!(b, Block::Paragraph(p) if matches!(p.kind, ParagraphKind::Heading(_))));
    if has_heading {
        return;
    }
    let found: Vec<Option<(Look, bool)>> = doc.body.iter().map(candidate).collect();
    let look = |i: usize| found[i].map(|x| x.0);
    // The blocks with text, in order: a line's neighbours are the ones next to it here
    // (empty paragraphs and breaks between them separate nothing).
    let text: Vec<usize> = (0..doc.body.len())
        .filter(|&i| doc.body[i].has_text())
        .collect();
    let mut chosen: Vec<usize> = Vec::new();
    for (k, &i) in text.iter().enumerate() {
        let Some((own, states)) = found[i] else {
            continue;
        };
        let Some(&next) = text.get(k + 1) else {
            continue;
        };
        if look(next) == Some(own) {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| text[p]);
        // A label and its value that ends a run of lines of its look is the run's
        // last entry ("Current Time: 07:19" under "Server Version: ..."); standing
        // alone over body text, it heads it ("Day 10: Caño Island").
        if states && prev.is_some_and(|j| look(j) == Some(own)) {
            continue;
        }
        if is_item(&doc.body[i])
            && (is_item(&doc.body[next]) || prev.is_some_and(|j| is_item(&doc.body[j])))
        {
            continue;
        }
        chosen.push(i);
    }
    if chosen.len() < MIN_HEADINGS {
        return;
    }
    for i in chosen {
        if let Block::Paragraph(p) = &mut doc.body[i] {
            if let ParagraphKind::ListItem {
                ordered: true,
                number,
                ..
            } = p.kind
            {
                p.inlines.insert(
                    0,
                    Inline::Text {
                        text: format!("{number}. "),
                        style: Default::default(),
                    },
                );
            }
            p.kind = ParagraphKind::Heading(1);
            // The bold and underline were how the heading looked, not emphasis.
            for inline in &mut p.inlines {
                plain_style(inline);
            }
        }
    }
}

/// Whether `block` is a list item.
fn is_item(block: &Block) -> bool {
    matches!(block, Block::Paragraph(p) if matches!(p.kind, ParagraphKind::ListItem { .. }))
}

/// The look of `block` when it could be an implied heading, and whether it has the
/// shape of a label and its value.
fn candidate(block: &Block) -> Option<(Look, bool)> {
    let Block::Paragraph(p) = block else {
        return None;
    };
    if !matches!(
        p.kind,
        ParagraphKind::Normal | ParagraphKind::ListItem { .. }
    ) {
        return None;
    }
    let mut flags = Flags {
        bold: true,
        underline: true,
        any: false,
        other: false,
    };
    for inline in &p.inlines {
        flags.visit(inline);
    }
    if flags.other || !flags.any || !(flags.bold || flags.underline) {
        return None;
    }
    let mut text = String::new();
    for inline in &p.inlines {
        inline.plain_text(&mut text);
    }
    let text = text.trim();
    if text.chars().count() > MAX_CHARS
        || text.split_whitespace().count() > MAX_WORDS
        || !text.chars().any(char::is_alphabetic)
        || text.ends_with(['.', '!', '?', ';', ',', '。', '！', '？', '；', '，'])
    {
        return None;
    }
    // "name = value" states a value; a label ending in a colon heads what follows.
    if text
        .split_once('=')
        .is_some_and(|(_, after)| !after.trim().is_empty())
    {
        return None;
    }
    // "Label: value" may head ("Day 10: Caño Island") or state ("Server Version:
    // Apache/2.4"): the caller tells them apart by what stands around it.
    let states = text
        .split_once(':')
        .is_some_and(|(_, after)| !after.trim().is_empty());
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    let caps =
        letters.iter().all(|c| !c.is_lowercase()) && letters.iter().any(|c| c.is_uppercase());
    Some((
        Look {
            bold: flags.bold,
            underline: flags.underline,
            caps,
        },
        states,
    ))
}

/// What the visible text of a paragraph's inlines is set in.
struct Flags {
    /// Every visible run is bold.
    bold: bool,
    /// Every visible run is underlined.
    underline: bool,
    /// Some visible run was seen.
    any: bool,
    /// Something no heading holds (a line break, picture or formula) was seen.
    other: bool,
}

impl Flags {
    fn visit(&mut self, inline: &Inline) {
        match inline {
            Inline::Text { text, style } => {
                if !text.trim().is_empty() {
                    self.any = true;
                    self.bold &= style.bold;
                    self.underline &= style.underline;
                }
            }
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => {
                for c in children {
                    self.visit(c);
                }
            }
            Inline::LineBreak | Inline::Image { .. } | Inline::Math { .. } => self.other = true,
            Inline::Tab
            | Inline::PageBreak
            | Inline::CommentAnchor { .. }
            | Inline::NoteRef { .. } => {}
        }
    }
}

/// Clears the bold and underline of `inline` and its children.
fn plain_style(inline: &mut Inline) {
    match inline {
        Inline::Text { style, .. } => {
            style.bold = false;
            style.underline = false;
        }
        Inline::Link { children, .. }
        | Inline::Revision { children, .. }
        | Inline::Field { children, .. } => children.iter_mut().for_each(plain_style),
        _ => {}
    }
}
