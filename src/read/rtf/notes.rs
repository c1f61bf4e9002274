//! Footnotes, endnotes and annotations as stories (RTF 1.9.1, "Footnotes",
//! "Comments (Annotations)"). A `\footnote` group (`\ftnalt` in it: an endnote) is a
//! story of its own; where it stands in the text the model gets a
//! [`crate::model::Inline::NoteRef`], and the writer's `\chftn` number is dropped. An
//! `\*\annotation` group is a comment: its author is the `\*\atnauthor` before it,
//! its initials `\*\atnid`, its date `\*\atndate` (a DTTM), its id `\*\atnref`, which
//! `\*\atrfstart` / `\*\atrfend` use to mark the commented range. The comment's
//! reference mark is placed where the annotation stands.

use crate::model::Block;

/// A comment's text: its paragraphs' plain text, trimmed, joined by `\n`.
pub(crate) fn comment_text(blocks: &[Block]) -> String {
    let mut lines = Vec::new();
    for b in blocks {
        let mut s = String::new();
        b.plain_text(&mut s);
        for line in s.lines() {
            let t = line.trim();
            if !t.is_empty() {
                lines.push(t.to_string());
            }
        }
    }
    lines.join("\n")
}
