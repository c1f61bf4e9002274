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
    /// Inside a dot leader: further dots and spaces are dropped.
    in_leader: bool,
}

impl Builder {
    /// Writes `text` in `style`, white space collapsed, soft hyphens dropped, dot
    /// leaders written as one `…` (see [`leader_len`]).
    pub fn text(&mut self, text: &str, style: TextStyle) {
        for c in text.chars() {
            if self.in_leader {
                if c == '.' || c.is_whitespace() {
                    continue;
                }
                self.in_leader = false;
                self.pending = true;
            }
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
            if c == '.' {
                self.leader();
            }
        }
    }

    /// Turns the dots ending what was written into a leader once there are
    /// [`LEADER_DOTS`] of them (single spaces between allowed), when they are all in
    /// the text not yet flushed.
    fn leader(&mut self) {
        let tail = self.cur.len() - self.cur.trim_end_matches(['.', ' ']).len();
        let dots = self.cur[self.cur.len() - tail..].trim_start().to_string();
        if dots.matches('.').count() < LEADER_DOTS || leader_len(&dots) != dots.len() {
            return;
        }
        let keep = self.cur.len() - dots.len();
        let plain_keep = self.plain.len() - dots.len();
        self.cur.truncate(keep);
        self.plain.truncate(plain_keep);
        if !self.cur.ends_with(' ') && !self.cur.is_empty() {
            self.cur.push(' ');
            self.plain.push(' ');
        }
        self.cur.push_str(LEADER);
        self.plain.push_str(LEADER);
        self.in_leader = true;
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
        for (k, f) in line.read_frags().enumerate() {
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
                // A piece of dots only (a leader, often drawn in its own style) is
                // layout, not emphasis.
                let dots = p.text.trim().chars().all(|c| c == '.' || c == ' ');
                self.text(p.text, if dots { TextStyle::default() } else { style });
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
        let at_hyphen = end == Some('-')
            && before.is_some_and(char::is_lowercase)
            && next_first.is_some_and(char::is_lowercase);
        let compound = at_hyphen && self.compound(next);
        let cjk = end.is_some_and(no_space_script) && next_first.is_some_and(no_space_script);
        // `unhyphen` runs only for a broken word (`||` short-circuits); a hyphenated
        // name broken at its own hyphen is joined with the hyphen kept.
        if cjk || compound || (at_hyphen && self.unhyphen()) {
            self.pending = false;
        } else {
            self.space();
        }
    }

    /// Whether the hyphen ending what was written belongs to a hyphenated name that
    /// the line break fell after ("docx4j-" + "documents4j-remote"): automatic
    /// hyphenation (TeX's patterns, Word's) splits only words made of letters, so a
    /// line-end piece or a continuation holding a digit, or a continuation with a
    /// hyphen of its own, was written with its hyphen.
    fn compound(&self, next: &Line) -> bool {
        let before = self
            .plain
            .trim_end_matches('-')
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or("");
        // The first word of the next line's first run (runs may be single words).
        let after: String = next
            .frags
            .iter()
            .flat_map(|f| &f.runs)
            .find(|r| !r.text.trim().is_empty())
            .map(|r| {
                r.text
                    .trim_start()
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .collect()
            })
            .unwrap_or_default();
        let after = after.trim_end_matches(|c: char| !c.is_alphanumeric());
        before.chars().any(|c| c.is_ascii_digit())
            || after.chars().any(|c| c.is_ascii_digit() || c == '-')
    }

    /// The inlines, with the first `skip` characters of text left out (a list
    /// marker already said by the paragraph's kind).
    pub fn finish(mut self, skip: usize) -> Vec<Inline> {
        self.flush();
        let mut left = skip;
        // After a skipped marker, the text starts at its first non-space character.
        let mut trim = skip > 0;
        let mut out = Vec::with_capacity(self.out.len());
        for i in self.out {
            match i {
                Inline::Text { text, style } if left > 0 || trim => {
                    let n = text.chars().count();
                    if n <= left {
                        left -= n;
                        continue;
                    }
                    let rest: String = text.chars().skip(left).collect();
                    left = 0;
                    let rest = rest.trim_start().to_string();
                    if !rest.is_empty() {
                        trim = false;
                        out.push(Inline::Text { text: rest, style });
                    }
                }
                other => {
                    trim = false;
                    out.push(other);
                }
            }
        }
        out
    }
}

/// What a dot leader becomes.
const LEADER: &str = "…";

/// Fewest dots that make a leader.
const LEADER_DOTS: usize = 4;

/// The length in bytes of the dot leader `s` starts with (dots, each followed by at
/// most one space), or 0 when it has fewer than [`LEADER_DOTS`] dots.
fn leader_len(s: &str) -> usize {
    let b = s.as_bytes();
    let (mut i, mut dots) = (0, 0);
    while i < b.len() && b[i] == b'.' {
        dots += 1;
        i += 1;
        if i + 1 < b.len() && b[i] == b' ' && b[i + 1] == b'.' {
            i += 1;
        }
    }
    if dots >= LEADER_DOTS { i } else { 0 }
}

/// `text` with every dot leader ("Scope ........ 12", ". . . . .") written as one
/// " … ": a leader is the fill of a tab in a table of contents or an index, drawn
/// as dots so the eye finds the page number; its dots are not text, and a contents
/// page of them costs many tokens.
pub(crate) fn collapse_leaders(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("....") && !text.contains(". . . .") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let n = leader_len(&text[i..]);
        if n > 0 {
            out.push_str(" … ");
            i += n;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `text` ends with a dot leader and a page reference (digits or a roman
/// numeral): an entry of a table of contents or an index, which is a line of its
/// own whatever follows.
pub(crate) fn leader_entry(text: &str) -> bool {
    let t = text.trim_end();
    let number = t
        .rsplit(|c: char| c.is_whitespace() || c == '.')
        .next()
        .unwrap_or("");
    let is_ref = !number.is_empty()
        && (number.chars().all(|c| c.is_ascii_digit())
            || number
                .chars()
                .all(|c| "ivxlcdm".contains(c.to_ascii_lowercase())));
    is_ref
        && collapse_leaders(&t[..t.len() - number.len()])
            .trim_end()
            .ends_with(LEADER)
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
