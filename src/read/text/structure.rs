//! The structure plain text shows by layout alone, read into the model. Paragraphs
//! are runs of lines between blank lines (a "group" here); a group becomes:
//!
//! - a **heading** when it is (a) a line underlined with `=` (level 1) or `-` (level
//!   2), the typewriter convention Markdown took over as setext headings; (b) a
//!   message's header fields (RFC 5322 section 3.6: `Subject:`, `From:`, `Date:` …),
//!   as a mailing-list archive or a saved mail opens each message, headed by its
//!   subject; (c) a numbered title alone on its line at the left margin ("6.
//!   Versioning", "2.1 Scope"), where the number has several levels or the text under
//!   it is indented; (d) in text whose paragraphs are indented (RFCs), a short title
//!   alone at the left margin ("Abstract"); (e) a numbered series of one-line titles,
//!   each over paragraphs of its own ("  8. Termination." in a licence). A document
//!   needs two numbered titles before one counts: a single "1. Buy milk" paragraph is
//!   not an outline.
//! - **list items** when its first line, or two or more of its lines, open with a bullet (`*`, `-`, `+`,
//!   `•`, RFC-style `o` followed by two spaces) or a number (`1.`, `2)`); a line under
//!   an item that opens with no marker, indented at least as deep as the item's
//!   marker, continues it (the text was wrapped); one less indented is a paragraph.
//! - a **rule** when all its lines are one character repeated (`=====`, `-----`).
//! - a **paragraph** otherwise, its lines joined by line breaks.
//!
//! Form feed (U+000C) starts a page; a line that opens or closes most pages with only
//! its numbers changed is a running header or footer ([`super::furniture`]) and goes
//! to the document's header/footer parts.

use crate::error::ConvertError;
use crate::model::{
    Block, Cell, Inline, Paragraph, ParagraphKind, Part, PartKind, PartVariant, Row, Table,
    TextStyle,
};

use super::{aligned_table, furniture};

/// Most words of a title alone on its line.
const TITLE_WORDS: usize = 12;

/// Most characters of a title alone on its line.
const TITLE_CHARS: usize = 80;

/// Most words of an unnumbered title at the margin of indented text.
const MARGIN_TITLE_WORDS: usize = 8;

/// Share of paragraphs indented for a text to count as indented.
const INDENTED_SHARE: f64 = 0.6;

/// Paragraphs a text needs before its indentation says anything.
const INDENTED_MIN: usize = 5;

/// A text's body blocks and the header/footer parts its pages repeat.
#[derive(Debug, Default)]
pub(crate) struct Structured {
    pub body: Vec<Block>,
    pub parts: Vec<Part>,
}

/// A run of non-blank lines: a paragraph of the text.
struct Group<'a> {
    lines: Vec<&'a str>,
    /// Columns of white space before its least indented line (a tab is 4).
    indent: usize,
    /// Whether a page starts before it.
    page_break: bool,
}

/// Reads `text` (decoded, controls stripped) into blocks and header/footer parts.
///
/// # Errors
/// [`ConvertError::TooManyElements`] past the element budget (`crate::read::budget`).
pub(crate) fn read(text: &str) -> Result<Structured, ConvertError> {
    let pages: Vec<Vec<&str>> = text.split('\u{000C}').map(|p| lines(p).collect()).collect();
    let furniture = furniture::find(&pages);
    let mut groups: Vec<Group> = Vec::new();
    for (pi, page) in pages.iter().enumerate() {
        let mut lines: Vec<&str> = page.clone();
        if furniture.drops_first[pi]
            && let Some(i) = lines.iter().position(|l| !l.trim().is_empty())
        {
            lines.remove(i);
        }
        if furniture.drops_last[pi]
            && let Some(i) = lines.iter().rposition(|l| !l.trim().is_empty())
        {
            lines.remove(i);
        }
        let mut first = pi > 0;
        let mut cur: Vec<&str> = Vec::new();
        for line in lines.into_iter().chain(std::iter::once("")) {
            if !line.trim().is_empty() {
                cur.push(line.trim_end());
                continue;
            }
            if !cur.is_empty() {
                let mut lines = std::mem::take(&mut cur);
                let page_break = std::mem::take(&mut first);
                // A title at the margin over indented lines with no blank line between
                // ("6. Versioning" then "   Versions are …") is a title and a paragraph.
                // A first line as long as those under it was wrapped: a list item or a
                // paragraph with a hanging indent, not a title.
                let widest = lines[1..]
                    .iter()
                    .map(|l| l.trim_end().chars().count())
                    .max();
                let hanging = lines.len() > 1
                    && indent(lines[0]) == 0
                    && (titlelike(lines[0], TITLE_WORDS) || outline_number(lines[0]).is_some())
                    && lines[0].chars().count() * 5 <= widest.unwrap_or(0) * 3
                    && lines[1..].iter().all(|l| indent(l) >= 2);
                if hanging {
                    let rest = lines.split_off(1);
                    groups.push(Group {
                        indent: 0,
                        lines,
                        page_break,
                    });
                    groups.push(Group {
                        indent: rest.iter().map(|l| indent(l)).min().unwrap_or(0),
                        lines: rest,
                        page_break: false,
                    });
                } else {
                    groups.push(Group {
                        indent: lines.iter().map(|l| indent(l)).min().unwrap_or(0),
                        lines,
                        page_break,
                    });
                }
            }
        }
        if first {
            // A page with no text still starts a page.
            groups.push(Group {
                lines: Vec::new(),
                indent: 0,
                page_break: true,
            });
        }
    }
    let series = numbered_series(&groups);
    let titles: Vec<Option<(u8, &str)>> = (0..groups.len())
        .map(|i| {
            numbered_title(&groups, i)
                .or_else(|| series.contains(&i).then(|| (1, groups[i].lines[0].trim())))
        })
        .collect();
    let numbered = titles.iter().flatten().count();
    // Indented text: most of its lines (not its paragraphs: each title is a short
    // paragraph of its own) open with white space.
    let all_lines = groups.iter().map(|g| g.lines.len()).sum::<usize>();
    let indented_lines = groups
        .iter()
        .flat_map(|g| &g.lines)
        .filter(|l| indent(l) >= 2)
        .count();
    let indented =
        groups.len() >= INDENTED_MIN && indented_lines as f64 >= all_lines as f64 * INDENTED_SHARE;
    let wrap = wrap_width(groups.iter().flat_map(|g| &g.lines));
    let mut body = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        if g.page_break {
            super::super::budget::take(1)?;
            body.push(Block::PageBreak);
        }
        if g.lines.is_empty() {
            continue;
        }
        super::super::budget::take(1 + g.lines.len() as u64)?;
        if let Some((level, title)) = titles[i].filter(|_| numbered >= 2) {
            body.push(heading(level, title));
        } else if indented && margin_title(&groups, i) {
            body.push(heading(1, g.lines[0].trim()));
        } else {
            // The margin all of a paragraph's lines share is layout, not text; deeper
            // indents (a diagram, an aligned table) stay.
            let lines: Vec<&str> = g.lines.iter().map(|l| dedent(l, g.indent)).collect();
            group_blocks(&lines, g.indent <= MARGIN, wrap, &mut body)?;
        }
    }
    let mut parts = Vec::new();
    for (kind, line) in [
        (PartKind::Header, furniture.header),
        (PartKind::Footer, furniture.footer),
    ] {
        if let Some(line) = line {
            parts.push(Part {
                kind,
                variant: PartVariant::Default,
                section: 0,
                blocks: vec![paragraph(&[line.as_str()])],
            });
        }
    }
    Ok(Structured { body, parts })
}

/// Lines split at LF, CRLF or a lone CR.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n')
        .flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r'))
}

/// Columns of white space a line opens with (a tab counts 4).
pub(crate) fn indent(line: &str) -> usize {
    line.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// `line` without its first `columns` columns of white space.
fn dedent(line: &str, columns: usize) -> &str {
    let mut seen = 0;
    for (i, c) in line.char_indices() {
        if seen >= columns || !c.is_whitespace() {
            return &line[i..];
        }
        seen += if c == '\t' { 4 } else { 1 };
    }
    ""
}

/// Whether `title` reads as a title: a capital letter (or a letter of a script without
/// case) first, few words, no closing punctuation of a sentence or a lead-in.
fn titlelike(title: &str, max_words: usize) -> bool {
    let t = title.trim();
    let first = t.chars().next();
    first.is_some_and(|c| c.is_alphabetic() && !c.is_lowercase())
        && t.chars().count() <= TITLE_CHARS
        && t.split_whitespace().count() <= max_words
        && !t.ends_with(['.', ',', ';', ':', '!', '?'])
        // Leader dots and a page number: a table-of-contents line.
        && !t.contains("...")
}

/// The levels of the outline number opening `line` ("6." → ["6"], "2.1" → ["2", "1"]),
/// when a title follows it: at most three digits per level.
fn outline_number(line: &str) -> Option<Vec<&str>> {
    let num_end = line.find(char::is_whitespace)?;
    let (num, title) = (&line[..num_end], line[num_end..].trim());
    let levels: Vec<&str> = num.strip_suffix('.').unwrap_or(num).split('.').collect();
    let ok = levels
        .iter()
        .all(|p| !p.is_empty() && p.len() <= 3 && p.chars().all(|c| c.is_ascii_digit()));
    (ok && titlelike(title, TITLE_WORDS)).then_some(levels)
}

/// Group `i` as a numbered title: `(level, line)` when it is one line at the margin,
/// a number of at most three digits per level ("6.", "2.1", "12.3.") then a title,
/// and either the number has several levels or the next paragraph is indented.
fn numbered_title<'a>(groups: &[Group<'a>], i: usize) -> Option<(u8, &'a str)> {
    let g = &groups[i];
    if g.lines.len() != 1 || g.indent != 0 {
        return None;
    }
    let line = g.lines[0];
    let levels = outline_number(line)?;
    // "2.1 Scope" is an outline by its number; "6. Versioning" by the indented text
    // under it (else it could be one item of a list spaced with blank lines).
    let next_indented = groups.get(i + 1).is_some_and(|n| n.indent > 0);
    // "2. Scope" right over "2.1. Applicability": the next title is its first part.
    let prefix = format!("{}.", levels.join("."));
    let next_part = groups.get(i + 1).is_some_and(|n| {
        n.indent == 0
            && n.lines.len() == 1
            && n.lines[0].starts_with(&prefix)
            && n.lines[0][prefix.len()..].starts_with(|c: char| c.is_ascii_digit())
    });
    // The number stays in the heading: it is how the text refers to its sections.
    (levels.len() > 1 || next_indented || next_part)
        .then_some((levels.len().min(6) as u8, line.trim()))
}

/// Fewest titles of a numbered series ([`numbered_series`]).
const SERIES_MIN: usize = 3;

/// Fewest paragraphs a numbered series has between its titles, on average: an item
/// of a list spaced with blank lines carries one paragraph at most, a section several.
const SERIES_GAP: f64 = 2.0;

/// The groups that are titles of a numbered series: single lines near the margin
/// ("  8. Termination.", a full stop allowed), numbered 0, 1, 2 … in steps of one
/// at one indent, each followed by paragraphs of its own, [`SERIES_GAP`] of them on
/// average, and at least [`SERIES_MIN`] titles in the series. A licence or a contract
/// numbers its sections so, in typewritten text with nothing else to mark them; a
/// list spaced with blank lines numbers its items so too, but an item is not
/// followed by paragraphs of its own (one at most), and so stays a list.
fn numbered_series(groups: &[Group<'_>]) -> Vec<usize> {
    // (group, number, indent) of every line that could open a section.
    let candidates: Vec<(usize, u32, usize)> = groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.lines.len() == 1 && g.indent <= MARGIN)
        .filter_map(|(i, g)| {
            let line = g.lines[0].trim();
            let (num, title) = line.split_once(char::is_whitespace)?;
            let n: u32 = num.strip_suffix('.')?.parse().ok()?;
            let title = title.trim();
            let title = title.strip_suffix('.').unwrap_or(title);
            (num.len() <= 4 && titlelike(title, TITLE_WORDS)).then_some((i, n, g.indent))
        })
        .collect();
    let mut out = Vec::new();
    let mut run: Vec<(usize, u32, usize)> = Vec::new();
    let mut close = |run: &mut Vec<(usize, u32, usize)>| {
        if run.len() >= SERIES_MIN {
            // The paragraphs between titles (the last title's own are not counted:
            // the series' end is unknown).
            let gaps: Vec<usize> = run.windows(2).map(|w| w[1].0 - w[0].0 - 1).collect();
            let mean = gaps.iter().sum::<usize>() as f64 / gaps.len() as f64;
            if gaps.iter().all(|&g| g >= 1) && mean >= SERIES_GAP {
                out.extend(run.iter().map(|x| x.0));
            }
        }
        run.clear();
    };
    for c in candidates {
        let follows = run.last().is_some_and(|l| c.1 == l.1 + 1 && c.2 == l.2);
        if !follows {
            close(&mut run);
        }
        run.push(c);
    }
    close(&mut run);
    out
}

/// Whether group `i` is a short title alone at the margin, over an indented paragraph.
fn margin_title(groups: &[Group<'_>], i: usize) -> bool {
    let g = &groups[i];
    g.lines.len() == 1
        && g.indent == 0
        && titlelike(g.lines[0], MARGIN_TITLE_WORDS)
        && groups
            .get(i + 1)
            .is_some_and(|n| n.indent >= 2 && !n.lines.is_empty())
}

/// Whether a line is one character repeated (at least three times): a rule or an
/// underline.
fn rule_char(line: &str) -> Option<char> {
    let t = line.trim();
    let c = t.chars().next()?;
    (t.chars().count() >= 3
        && matches!(c, '=' | '-' | '*' | '_' | '~' | '#' | '+')
        && t.chars().all(|x| x == c))
    .then_some(c)
}

/// Columns of indent up to which a paragraph is at the margin. An underline or a
/// message's header fields indented deeper is quoted (an example in a manual), as in
/// Markdown, where four spaces make code.
const MARGIN: usize = 3;

/// The blocks of a group that is not an outline title (see the module docs);
/// `at_margin`: whether it may be an underlined title or a message's header fields.
///
/// # Errors
/// [`ConvertError::TooManyElements`] when a table's cells pass the element budget.
fn group_blocks(
    lines: &[&str],
    at_margin: bool,
    wrap: usize,
    body: &mut Vec<Block>,
) -> Result<(), ConvertError> {
    // Tables drawn in aligned columns under a rule of dash groups ([`aligned_table`])
    // open the paragraph, one after another; what follows them is read on (a loop,
    // not recursion: a paragraph of a million tables must not deepen the stack).
    let mut lines = lines;
    let mut at_margin = at_margin;
    while let Some(at) =
        (0..lines.len().min(2)).find(|&i| aligned_table::rule_columns(lines[i]).is_some())
    {
        let start = at.saturating_sub(1);
        let Some(t) = aligned_table::parse(&lines[start..]) else {
            break;
        };
        // A cell and its paragraph are two elements; the lines were counted once.
        let cells = t.rows.iter().chain(&t.header).map(Vec::len).sum::<usize>();
        super::super::budget::take(2 * cells as u64)?;
        body.push(table_block(t.header, t.rows));
        lines = &lines[start + t.lines..];
        at_margin = false;
    }
    if lines.is_empty() {
        return Ok(());
    }
    // An underlined title: one or two lines, then `===` or `---` at least half as wide.
    if at_margin
        && let [text @ .., under] = lines
        && (1..=2).contains(&text.len())
        && rule_char(text[0]).is_none()
        && let Some(c @ ('=' | '-')) = rule_char(under)
        && under.trim().chars().count() * 2
            >= text
                .iter()
                .map(|l| l.trim().chars().count())
                .max()
                .unwrap_or(0)
    {
        let title: Vec<&str> = text.iter().map(|l| l.trim()).collect();
        body.push(heading(if c == '=' { 1 } else { 2 }, &title.join(" ")));
        return Ok(());
    }
    let start = lines.iter().position(|l| rule_char(l).is_none());
    let Some(start) = start else {
        body.push(Block::Rule);
        return Ok(());
    };
    let end = lines
        .iter()
        .rposition(|l| rule_char(l).is_none())
        .unwrap_or(start)
        + 1;
    let lines = &lines[start..end];
    if let Some((at, subject)) = message_subject(lines).filter(|_| at_margin) {
        body.push(heading(1, subject));
        let fields: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, l)| l.trim())
            .collect();
        if !fields.is_empty() {
            body.push(paragraph(&fields));
        }
        return Ok(());
    }
    // A paragraph opening with a marker is an item even alone (a loose list spaces its
    // items with blank lines).
    let markers = lines.iter().filter(|l| marker(l).is_some()).count();
    if markers >= 2 || marker(lines[0]).is_some() {
        list(lines, wrap, body);
    } else {
        body.push(paragraph(lines));
    }
    Ok(())
}

/// The line and subject of a block of message header fields (every line `Name:
/// value`, at least two, one of them `Subject`), if the group is one; the first
/// `Subject` when there are several.
fn message_subject<'a>(lines: &[&'a str]) -> Option<(usize, &'a str)> {
    if lines.len() < 2 {
        return None;
    }
    let mut subject = None;
    for (i, l) in lines.iter().enumerate() {
        let (name, value) = l.trim().split_once(':')?;
        let field = !name.is_empty()
            && name.len() <= 30
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !field {
            return None;
        }
        if subject.is_none() && name.eq_ignore_ascii_case("subject") && !value.trim().is_empty() {
            subject = Some((i, without_reply_prefix(value.trim())));
        }
    }
    subject
}

/// A subject without the prefixes a reply or a forward adds ("Re: ", "Fwd: ", RFC 5322
/// section 3.6.5): the message's topic is the rest.
fn without_reply_prefix(subject: &str) -> &str {
    // Prefixes are compared in place (no lower-cased copy per prefix): a subject of a
    // million "Re: " stays linear.
    let mut s = subject;
    loop {
        let Some(n) = ["re:", "fwd:", "fw:", "aw:", "wg:"].iter().find_map(|p| {
            s.get(..p.len())
                .filter(|h| h.eq_ignore_ascii_case(p))
                .map(|_| p.len())
        }) else {
            return s;
        };
        let rest = s[n..].trim_start();
        if rest.is_empty() {
            return s;
        }
        s = rest;
    }
}

/// A list marker opening `line`: `(ordered, number, text after the marker)`.
fn marker(line: &str) -> Option<(bool, u32, &str)> {
    let t = line.trim_start();
    for b in ["* ", "- ", "+ ", "• ", "o  "] {
        if let Some(rest) = t.strip_prefix(b)
            && !rest.trim().is_empty()
        {
            return Some((false, 0, rest.trim()));
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") "))
            && !r.trim().is_empty()
        {
            return Some((true, t[..digits].parse().unwrap_or(1), r.trim()));
        }
    }
    None
}

/// Shortest line (in characters) that can have been wrapped at a text's right margin:
/// typewriter and mail text wraps at 60 to 80 columns, never this early.
const WRAP_MIN: usize = 40;

/// Share of a text's lines at most as wide as its wrap width (the width its long
/// lines reach; a few longer ones are URLs or tables).
const WRAP_SHARE: f64 = 0.9;

/// The column a text's paragraphs wrap at, in characters: the width [`WRAP_SHARE`] of
/// its non-blank lines stay within (0 for no lines).
fn wrap_width<'a>(lines: impl Iterator<Item = &'a &'a str>) -> usize {
    let mut widths: Vec<usize> = lines.map(|l| l.trim_end().chars().count()).collect();
    if widths.is_empty() {
        return 0;
    }
    widths.sort_unstable();
    let at = ((widths.len() as f64 * WRAP_SHARE) as usize).min(widths.len() - 1);
    widths[at]
}

/// Whether `line` ended only because `next`'s first word did not fit before the
/// text's wrap column `wrap`: then `next` goes on with it, whatever its indent.
/// Numbered paragraphs of licences and contracts ("  13. The Free Software Foundation
/// may publish revised and/or new" over "versions of the License ...") wrap back to
/// the margin, under their number.
fn wrapped(line: &str, next: &str, wrap: usize) -> bool {
    let width = line.trim_end().chars().count();
    let word = next
        .split_whitespace()
        .next()
        .map_or(0, |w| w.chars().count());
    width >= WRAP_MIN && width + 1 + word > wrap
}

/// A group with list markers: each marker opens an item, which the unmarked lines
/// after it continue while they are indented at least as deep as its marker, or from
/// where the line before ended at the text's wrap column `wrap` ([`wrapped`]) on at
/// that line's indent: wrapped text.
/// Other unmarked lines are paragraphs between items. An item indented deeper than
/// the group's first marker is one level in.
fn list(lines: &[&str], wrap: usize, body: &mut Vec<Block>) {
    let base = lines
        .iter()
        .find(|l| marker(l).is_some())
        .map_or(0, |l| indent(l));
    let mut item: Option<(ParagraphKind, usize, String)> = None;
    let mut plain: Vec<&str> = Vec::new();
    let flush_item = |item: &mut Option<(ParagraphKind, usize, String)>, body: &mut Vec<Block>| {
        if let Some((kind, _, text)) = item.take() {
            body.push(Block::Paragraph(Paragraph {
                kind,
                inlines: vec![text_inline(text)],
            }));
        }
    };
    let mut prev: &str = "";
    for &l in lines {
        let after = std::mem::replace(&mut prev, l);
        if let Some((ordered, number, text)) = marker(l) {
            flush_item(&mut item, body);
            if !plain.is_empty() {
                body.push(paragraph(&plain));
                plain.clear();
            }
            let level = u8::from(indent(l) > base);
            let kind = ParagraphKind::ListItem {
                ordered,
                level,
                number,
            };
            item = Some((kind, indent(l), text.to_string()));
            continue;
        }
        match item.as_mut() {
            Some((_, at, text)) if indent(l) >= *at || wrapped(after, l, wrap) => {
                // Wrapped back to the margin, the item's text goes on at that margin.
                *at = (*at).min(indent(l));
                text.push(' ');
                text.push_str(l.trim());
            }
            _ => {
                flush_item(&mut item, body);
                plain.push(l);
            }
        }
    }
    flush_item(&mut item, body);
    if !plain.is_empty() {
        body.push(paragraph(&plain));
    }
}

fn text_inline(text: String) -> Inline {
    Inline::Text {
        text,
        style: TextStyle::default(),
    }
}

fn heading(level: u8, title: &str) -> Block {
    Block::Paragraph(Paragraph {
        kind: ParagraphKind::Heading(level),
        inlines: vec![text_inline(title.trim().to_string())],
    })
}

/// A table of one-paragraph cells, its header row first when it has one.
fn table_block(header: Option<Vec<String>>, rows: Vec<Vec<String>>) -> Block {
    let row = |cells: Vec<String>, header: bool| Row {
        cells: cells
            .into_iter()
            .map(|c| Cell {
                blocks: if c.is_empty() {
                    Vec::new()
                } else {
                    vec![paragraph(&[c.as_str()])]
                },
                ..Cell::default()
            })
            .collect(),
        header,
        revision: None,
    };
    let mut out: Vec<Row> = header.into_iter().map(|h| row(h, true)).collect();
    out.extend(rows.into_iter().map(|r| row(r, false)));
    Block::Table(Table { rows: out })
}

/// A paragraph of lines joined by line breaks.
pub(crate) fn paragraph(lines: &[&str]) -> Block {
    let mut inlines = Vec::with_capacity(lines.len() * 2);
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            inlines.push(Inline::LineBreak);
        }
        inlines.push(text_inline((*l).to_string()));
    }
    Block::Paragraph(Paragraph {
        kind: ParagraphKind::Normal,
        inlines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each block as (kind, text): `h1`…, `p`, `li`, `rule`, `page`.
    fn shape(text: &str) -> Vec<(String, String)> {
        read(text)
            .unwrap()
            .body
            .iter()
            .map(|b| {
                let mut s = String::new();
                b.plain_text(&mut s);
                let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
                let kind = match b {
                    Block::Paragraph(p) => match p.kind {
                        ParagraphKind::Heading(l) => format!("h{l}"),
                        ParagraphKind::ListItem {
                            ordered: true,
                            number,
                            ..
                        } => format!("ol{number}"),
                        ParagraphKind::ListItem { .. } => "li".into(),
                        _ => "p".into(),
                    },
                    Block::Rule => "rule".into(),
                    Block::PageBreak => "page".into(),
                    Block::Table(t) => format!(
                        "table{}x{}h{}",
                        t.rows.len(),
                        t.rows.first().map_or(0, |r| r.cells.len()),
                        t.rows.iter().filter(|r| r.header).count()
                    ),
                    _ => "other".into(),
                };
                (kind, s)
            })
            .collect()
    }

    fn kinds(text: &str) -> Vec<String> {
        shape(text).into_iter().map(|x| x.0).collect()
    }

    #[test]
    fn a_numbered_paragraph_wrapped_back_to_the_margin_is_one_item() {
        // A licence's numbered paragraph: the number indented, the wrapped lines at
        // the margin. Each line but the last ends where the next word would not fit.
        // (Lines joined here: a string literal's line continuation would eat the
        // indents.)
        let text = [
            "Terms of the harbour licence",
            "",
            "  1. The ferry company may publish revised and new sailing timetables",
            "for the harbour from time to time. Such new timetables will be similar",
            "in spirit to the present one.",
            "",
            "  2. The council may not charge the company for berths used at night",
            "between the last and the first sailing of the summer timetable.",
            "",
            "Tickets:",
            "  - adults",
            "  - children",
            "Sold at the quay.",
        ]
        .join("\n");
        let text = text.as_str();
        let s = shape(text);
        assert_eq!(
            s[1],
            (
                "ol1".to_string(),
                "The ferry company may publish revised and new sailing timetables for the \
harbour from time to time. Such new timetables will be similar in spirit to the present one."
                    .to_string()
            )
        );
        assert_eq!(s[2].0, "ol2");
        assert!(s[2].1.ends_with("summer timetable."), "{:?}", s[2]);
        // A short item was not wrapped: the line under it is a paragraph.
        assert_eq!(
            s.last().unwrap(),
            &("p".to_string(), "Sold at the quay.".to_string())
        );
    }

    #[test]
    fn messages_of_an_archive_are_headed_by_their_subjects() {
        let text = "=====\nSubject: Re: Harbour tour 2.0 released\nFrom: Ann Example\nDate: May 1, 2020\n=====\n\nThe new tour starts at noon.\n\n=====\nSubject: Harbour tour 2.1\nFrom: Ann Example\n=====\n\nA fix.\n";
        let s = shape(text);
        assert_eq!(s[0], ("h1".into(), "Harbour tour 2.0 released".into()));
        assert_eq!(
            s[1],
            ("p".into(), "From: Ann Example Date: May 1, 2020".into())
        );
        assert_eq!(s[2].0, "p");
        assert_eq!(s[3], ("h1".into(), "Harbour tour 2.1".into()));
    }

    #[test]
    fn numbered_titles_over_indented_text_are_headings() {
        let text = "1. Introduction\n\n   The ferry runs daily.\n\n2. Fares\n\n   Adults pay two euros.\n\n2.1. Children\n\n   Children ride free.\n";
        assert_eq!(
            shape(text)
                .into_iter()
                .filter(|x| x.0.starts_with('h'))
                .collect::<Vec<_>>(),
            [
                ("h1".to_string(), "1. Introduction".to_string()),
                ("h1".into(), "2. Fares".into()),
                ("h2".into(), "2.1. Children".into())
            ]
        );
        // The indent every line of a paragraph shares is dropped.
        assert_eq!(shape(text)[1], ("p".into(), "The ferry runs daily.".into()));
    }

    #[test]
    fn a_numbered_series_of_titles_each_over_paragraphs_heads_sections() {
        // Typewritten terms: each numbered title (with its full stop) is followed by
        // paragraphs of its own, so the titles head sections.
        let terms = "  0. Definitions.\n\n  A berth is a place at the quay.\n\n  A \
vessel is any boat.\n\n  1. Fees.\n\n  Fees are due monthly.\n\n  Late fees double.\n\n  \
2. Termination.\n\n  Either side may end the lease.\n\n  Notice takes thirty days.\n";
        assert_eq!(
            kinds(terms),
            ["h1", "p", "p", "h1", "p", "p", "h1", "p", "p"]
        );
        assert_eq!(shape(terms)[6].1, "2. Termination.");
        // A list spaced with blank lines, one remark under each item: still a list.
        let list = "1. Buy milk.\n\nFrom the corner shop.\n\n2. Sell bread.\n\nAt the \
market.\n\n3. Fix the gate.\n\nBefore noon.\n";
        assert_eq!(kinds(list), ["ol1", "p", "ol2", "p", "ol3", "p"]);
    }

    #[test]
    fn a_numbered_line_that_is_a_sentence_or_alone_is_no_heading() {
        // Ends like a sentence; and one numbered line in a text is no outline.
        assert_eq!(
            kinds("1. Buy milk.\n\n   later\n\n2. Sell bread.\n\n   soon\n"),
            ["ol1", "p", "ol2", "p"]
        );
        assert_eq!(kinds("1. Overview\n\n   Text.\n"), ["ol1", "p"]);
    }

    #[test]
    fn underlined_lines_are_headings_and_rules_are_rules() {
        assert_eq!(
            shape(
                "Harbour Guide\n=============\n\nOpening hours\n-------------\n\nDaily.\n\n-----\n"
            ),
            [
                ("h1".to_string(), "Harbour Guide".to_string()),
                ("h2".into(), "Opening hours".into()),
                ("p".into(), "Daily.".into()),
                ("rule".into(), String::new())
            ]
        );
    }

    #[test]
    fn a_title_over_its_indented_text_with_no_blank_line_and_a_title_over_its_first_part() {
        let text = "Intro text here.\n\n6. Versioning\n   Versions are numbered one after the other, from one.\n\n7. Security\n   There is none at all in this protocol, as it says.\n";
        assert_eq!(kinds(text), ["p", "h1", "p", "h1", "p"]);
        let text = "Intro text here.\n\n2. Scope\n\n2.1. Applicability\n\n   The scope covers things.\n\n3. Other\n\n   More text.\n";
        assert_eq!(kinds(text), ["p", "h1", "h2", "p", "h1", "p"]);
    }

    #[test]
    fn a_wrapped_numbered_item_is_no_title() {
        let text = "1. Although the ferry will not leave before the bus arrives at the\n   pier, travellers should come early to buy their tickets at the desk.\n";
        assert_eq!(kinds(text), ["ol1"]);
    }

    #[test]
    fn short_titles_over_indented_paragraphs_are_headings_counted_by_lines() {
        let text: String = ["Overview", "Installation", "Usage"]
            .iter()
            .map(|t| format!("{t}\n\n   This section explains the {t} of the tool,\n   with a second line.\n\n"))
            .collect();
        assert_eq!(kinds(&text), ["h1", "p", "h1", "p", "h1", "p"]);
    }

    #[test]
    fn the_first_of_repeated_subjects_heads_and_the_others_stay() {
        let s = shape("Subject: first topic\nSubject: second topic\nFrom: x@y\n\nbody\n");
        assert_eq!(s[0], ("h1".into(), "first topic".into()));
        assert_eq!(s[1], ("p".into(), "Subject: second topic From: x@y".into()));
    }

    #[test]
    fn an_indented_example_of_an_underline_is_text() {
        assert_eq!(
            kinds("Write a title so:\n\n    A title\n    =======\n"),
            ["p", "p"]
        );
    }

    #[test]
    fn bulleted_lines_are_items_and_wrapped_lines_continue_them() {
        let s = shape(
            "For users:\n* New boats and\nnew piers.\n* Longer hours.\n\n* A loose item\n  over two lines.\n",
        );
        assert_eq!(
            s,
            [
                ("p".to_string(), "For users:".to_string()),
                ("li".into(), "New boats and new piers.".into()),
                ("li".into(), "Longer hours.".into()),
                ("li".into(), "A loose item over two lines.".into())
            ]
        );
        // One paragraph per line (as word processors export text): a line less
        // indented than the bullets is the next paragraph, not part of the last item.
        let s =
            shape("Findings\n    • Apples did well.\n    • Pears did not.\nNext steps\nPrune.\n");
        assert_eq!(
            s,
            [
                ("p".to_string(), "Findings".to_string()),
                ("li".into(), "Apples did well.".into()),
                ("li".into(), "Pears did not.".into()),
                ("p".into(), "Next steps Prune.".into())
            ]
        );
    }

    #[test]
    fn margin_titles_of_indented_text_are_headings() {
        let body = "   Some indented text of the memo.\n\n";
        let text = format!("Abstract\n\n{body}{body}Status of this Memo\n\n{body}{body}{body}");
        assert_eq!(
            shape(&text)
                .into_iter()
                .filter(|x| x.0 == "h1")
                .map(|x| x.1)
                .collect::<Vec<_>>(),
            ["Abstract", "Status of this Memo"]
        );
        // In text that is not indented, a short line is a paragraph.
        assert_eq!(
            kinds("Abstract\n\nText.\n\nMore.\n\nMore.\n\nMore.\n"),
            ["p"; 5]
        );
    }

    #[test]
    fn columns_under_a_rule_of_dash_groups_are_a_table() {
        let text = "Exit codes follow.\n\n Code   Meaning\n-----   ------------------\n    1   input/output error\n   21   unknown reader\n-----   ------------------\nLater text.\n";
        assert_eq!(
            shape(text),
            vec![
                ("p".to_string(), "Exit codes follow.".to_string()),
                (
                    "table3x2h1".to_string(),
                    "Code Meaning 1 input/output error 21 unknown reader".to_string()
                ),
                ("p".to_string(), "Later text.".to_string()),
            ]
        );
        // Tables one after another in one paragraph are read in a loop: two hundred
        // thousand of them (a hostile input) do not deepen the stack.
        let many = "k   v\n--- ---\na   1\n--- ---\n".repeat(200_000);
        let body = read(&many).unwrap().body;
        assert_eq!(body.len(), 200_000);
        assert!(body.iter().all(|b| matches!(b, Block::Table(_))));
        // Reflowed columns stay a paragraph.
        let reflowed = "Name Value\n------- -------\nalpha one two\n";
        assert_eq!(kinds(reflowed), vec!["p"]);
    }
}
