//! Inline content from fragments: text with its style, white space collapsed, lines
//! joined (end-of-line hyphens removed where a word was broken), note markers made
//! note references.

use std::collections::BTreeMap;

use crate::model::{Block, Inline, NoteKind, Paragraph, ParagraphKind, TextStyle};

use super::lines::{Line, no_space_script};

/// Soft hyphen (U+00AD): marks where a word may break; shown only at a line end.
const SHY: char = '\u{AD}';

/// Collects inlines, merging neighbouring text of one style.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    out: Vec<Inline>,
    cur: String,
    style: TextStyle,
    /// White space seen since the last character written.
    pending: bool,
    /// The plain text written so far (for markers, headings and outline matching).
    pub plain: String,
}

impl Builder {
    /// Writes `text` in `style`, white space collapsed, soft hyphens dropped.
    pub fn text(&mut self, text: &str, style: TextStyle) {
        for c in text.chars() {
            if c.is_whitespace() {
                self.pending = true;
                continue;
            }
            if c == SHY {
                continue;
            }
            if style != self.style {
                // A space at a style edge goes to the plain side, so emphasis never
                // opens or closes on a space.
                if self.pending && !self.plain.is_empty() && self.style == TextStyle::default() {
                    self.cur.push(' ');
                    self.plain.push(' ');
                    self.pending = false;
                }
                self.flush();
                self.style = style;
            }
            if std::mem::take(&mut self.pending) && !self.plain.is_empty() {
                self.cur.push(' ');
                self.plain.push(' ');
            }
            self.cur.push(c);
            self.plain.push(c);
        }
    }

    /// Asks for a space before whatever comes next.
    pub fn space(&mut self) {
        self.pending = true;
    }

    /// A reference to footnote `id`.
    pub fn note(&mut self, id: &str) {
        self.flush();
        self.out.push(Inline::NoteRef {
            kind: NoteKind::Footnote,
            id: id.to_string(),
        });
    }

    fn flush(&mut self) {
        if !self.cur.is_empty() {
            self.out.push(Inline::Text {
                text: std::mem::take(&mut self.cur),
                style: self.style,
            });
        }
    }

    /// Removes the hyphen that ends what was written, if any.
    fn unhyphen(&mut self) -> bool {
        if !self.plain.ends_with('-') {
            return false;
        }
        let popped = if self.cur.ends_with('-') {
            self.cur.pop();
            true
        } else if self.cur.is_empty()
            && let Some(Inline::Text { text, .. }) = self.out.last_mut()
            && text.ends_with('-')
        {
            text.pop();
            if text.is_empty() {
                self.out.pop();
            }
            true
        } else {
            false
        };
        if popped {
            self.plain.pop();
        }
        popped
    }

    /// Writes one line: its fragments separated by a space. Superscript runs whose
    /// text is a key of `markers` become references to the note it names (each
    /// marker once: it is taken out of the map).
    pub fn line(&mut self, line: &Line, markers: &mut BTreeMap<String, String>) {
        for (k, f) in line.frags.iter().enumerate() {
            if k > 0 {
                self.space();
            }
            for p in f.pieces() {
                if p.space_before {
                    self.space();
                }
                if p.sup
                    && let Some(id) = markers.remove(p.text.trim())
                {
                    self.note(&id);
                    continue;
                }
                let style = TextStyle {
                    bold: p.bold,
                    italic: p.italic,
                    superscript: p.sup,
                    subscript: p.sub,
                    ..TextStyle::default()
                };
                self.text(p.text, style);
            }
        }
    }

    /// Joins the next line `next` to what was written: a word broken by a hyphen
    /// after a lower-case letter and continued in lower case is joined whole
    /// ("infor-" + "mation"), a soft hyphen always joins, Chinese and Japanese join
    /// with nothing; anything else is a space.
    pub fn join(&mut self, last_raw: Option<char>, next: &Line) {
        let next_first = first_char(next);
        if last_raw == Some(SHY) {
            self.pending = false;
            return;
        }
        let mut tail = self.plain.chars().rev();
        let (end, before) = (tail.next(), tail.next());
        let broken = end == Some('-')
            && before.is_some_and(char::is_lowercase)
            && next_first.is_some_and(char::is_lowercase);
        let cjk = end.is_some_and(no_space_script) && next_first.is_some_and(no_space_script);
        // `unhyphen` runs only for a broken word (`||` short-circuits).
        if cjk || (broken && self.unhyphen()) {
            self.pending = false;
        } else {
            self.space();
        }
    }

    /// The inlines, with the first `skip` characters of text left out (a list
    /// marker already said by the paragraph's kind).
    pub fn finish(mut self, skip: usize) -> Vec<Inline> {
        self.flush();
        let mut left = skip;
        let mut out = Vec::with_capacity(self.out.len());
        for i in self.out {
            match i {
                Inline::Text { text, style } if left > 0 => {
                    let n = text.chars().count();
                    if n <= left {
                        left -= n;
                        continue;
                    }
                    let rest: String = text.chars().skip(left).collect();
                    left = 0;
                    let rest = rest.trim_start().to_string();
                    if !rest.is_empty() {
                        out.push(Inline::Text { text: rest, style });
                    }
                }
                other => out.push(other),
            }
        }
        out
    }
}

/// The first character of a line's text that is not white space.
pub(crate) fn first_char(line: &Line) -> Option<char> {
    line.frags
        .iter()
        .flat_map(|f| &f.runs)
        .flat_map(|r| r.text.chars())
        .find(|c| !c.is_whitespace())
}

/// The last character of a line's text that is not white space, as drawn (soft
/// hyphens included).
pub(crate) fn last_char(line: &Line) -> Option<char> {
    line.frags
        .iter()
        .rev()
        .flat_map(|f| f.runs.iter().rev())
        .flat_map(|r| r.text.chars().rev())
        .find(|c| !c.is_whitespace())
}

/// `lines` (top to bottom) joined into one paragraph, as a cell or a note holds its
/// text (hyphenation undone at each line end, the first `skip` characters, a note's
/// marker, left out); no block when nothing is left.
pub(crate) fn paragraph_of(lines: &[&Line], skip: usize) -> Vec<Block> {
    let mut b = Builder::default();
    let mut none = BTreeMap::new();
    let mut prev: Option<&Line> = None;
    for &l in lines {
        if let Some(p) = prev {
            b.join(last_char(p), l);
        }
        b.line(l, &mut none);
        prev = Some(l);
    }
    let inlines = b.finish(skip);
    if inlines.is_empty() {
        Vec::new()
    } else {
        vec![Block::Paragraph(Paragraph {
            kind: ParagraphKind::Normal,
            inlines,
        })]
    }
}
