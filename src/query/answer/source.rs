//! A numbered source read for answering: its information line, its blocks and the
//! units of each (sentences, table rows, list items), rendered by [`super::markup`].

use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;

use super::Passage;
use super::markup::{self, Change, Note, Rendered};
use super::table::{self, Table};
use super::words;
use crate::query::assemble::analyze::{STOP, name_words};

/// What a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// A paragraph (or a run of wrapped lines).
    Paragraph,
    /// A heading (`#` lines).
    Heading,
    /// One list item.
    Item,
    /// A table (Markdown pipe table or HTML `<table>`).
    Table,
    /// A fenced code block.
    Code,
    /// A note definition `[^n]: text` (footnotes and endnotes parts).
    NoteDef,
}

/// One block of a source.
#[derive(Debug, Clone)]
pub struct Block {
    /// What it is.
    pub kind: BlockKind,
    /// Rendered text.
    pub r: Rendered,
    /// The note label for [`BlockKind::NoteDef`].
    pub label: String,
    /// The parsed table for [`BlockKind::Table`].
    pub table: Option<Table>,
    /// A heading's level, 1 (top) to 6 (`#` count; `===` underline 1, `---` 2); 0 for
    /// other blocks.
    pub level: u8,
    /// Whether it is a table-of-contents entry ([`is_contents_entry`], read where the
    /// text keeps its tabs).
    pub contents: bool,
}

/// One sentence-sized unit: a sentence of a paragraph, a list item, a heading.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Index of its block.
    pub block: usize,
    /// Plain text.
    pub plain: String,
    /// Its terms.
    pub terms: HashSet<String>,
}

/// A source parsed.
#[derive(Debug, Clone)]
pub struct Src {
    /// Its citation number.
    pub number: usize,
    /// The document title from the information line (`Document: …`).
    pub title: String,
    /// The heading path (`Section: …`), empty when none.
    pub section: String,
    /// The part (`Part: footer, section 1 (default)`), empty for body text.
    pub part: String,
    /// Terms of the title, the file name and the section: the source's context.
    pub context: HashSet<String>,
    /// Terms of the title and file name only.
    pub naming: HashSet<String>,
    /// Blocks in order.
    pub blocks: Vec<Block>,
    /// Units in order.
    pub units: Vec<Unit>,
}

impl Src {
    /// Every tracked change of the source with the block it is in.
    pub fn changes(&self) -> impl Iterator<Item = (usize, &Change)> {
        self.blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.r.changes.iter().map(move |c| (i, c)))
    }

    /// Every comment of the source with the block it is in.
    pub fn comments(&self) -> impl Iterator<Item = (usize, &Note)> {
        self.blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.r.comments.iter().map(move |c| (i, c)))
    }

    /// The anchor text of comment `id` anywhere in the source.
    pub fn anchor(&self, id: &str) -> String {
        self.blocks
            .iter()
            .flat_map(|b| b.r.anchors.iter())
            .filter(|a| a.0 == id && !a.1.is_empty())
            .map(|a| a.1.as_str())
            .collect::<Vec<_>>()
            .join(" … ")
    }

    /// Whether the source is a header or footer part.
    pub fn is_header_footer(&self) -> bool {
        self.part.starts_with("header") || self.part.starts_with("footer")
    }
}

/// Parses `p`.
pub fn parse(p: &Passage<'_>) -> Src {
    let (info, body) = split_info(p.text);
    let field = |name: &str| {
        info.split(" | ")
            .find_map(|f| f.strip_prefix(name))
            .unwrap_or("")
            .to_string()
    };
    let title = field("Document: ");
    let section = field("Section: ");
    let part = field("Part: ");
    // "pandoc__track_changes_move" is one word to UAX #29, and so is
    // "chineseCountingThousand": their parts name it.
    let naming: HashSet<String> = [title.as_str(), p.file]
        .into_iter()
        .flat_map(|n| {
            let (punct, split) = name_words(n);
            [words::terms(n), words::terms(&punct), words::terms(&split)]
        })
        .flatten()
        .collect();
    let mut context = naming.clone();
    context.extend(words::terms(&section));
    context.extend(words::terms(&part));
    let blocks = blocks(body);
    let mut units = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        match b.kind {
            // A contents entry names a section and its page; it states nothing.
            BlockKind::Paragraph if b.contents || is_contents_entry(&b.r.plain) => {}
            BlockKind::Paragraph | BlockKind::NoteDef => {
                for s in sentences(&b.r.plain.replace('\n', " ")) {
                    if s != "…" {
                        units.push(unit(i, &s));
                    }
                }
            }
            BlockKind::Table | BlockKind::Code => {
                for line in
                    b.r.plain
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !is_contents_entry(l))
                {
                    units.push(unit(i, line));
                }
            }
            _ => {
                if !b.r.plain.is_empty() {
                    units.push(unit(i, &b.r.plain));
                }
            }
        }
    }
    Src {
        number: p.number,
        title,
        section,
        part,
        context,
        naming,
        blocks,
        units,
    }
}

/// The sentences of `text` (UAX #29), a sentence that ends inside square brackets
/// joined with the next: a change or comment written as `[inserted by A: ...]`
/// stays whole. A full stop, `?` or `!` with no space after it ends no sentence: UAX
/// #29 breaks "on the .NET platform" before "NET" and "example.com/?id=1" before
/// "id", but a sentence's end is followed by a space or the end of the text in
/// scripts that write spaces.
fn sentences(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = 0i64;
    for s in after_note_marks(text)
        .into_iter()
        .flat_map(|p| p.unicode_sentences())
    {
        let glued = out.last().is_some_and(|l| l.ends_with(['.', '?', '!']));
        let joins = open > 0 || glued;
        open += s.matches('[').count() as i64 - s.matches(']').count() as i64;
        open = open.max(0);
        match out.last_mut() {
            Some(last) if joins => last.push_str(s),
            _ => out.push(s.to_string()),
        }
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `text` cut after each note mark that follows a sentence's end and precedes a
/// space ("dredged in 1902.(note 4) The quay …"): a footnote reference is most often
/// set right after the full stop, and UAX #29 reads the mark's lower-case word as the
/// sentence going on, so without the cut the sentence runs into the next. The mark
/// stays with the sentence it ends (markup.rs writes marks as `(note label)`).
fn after_note_marks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut at = 0;
    while let Some(i) = text[at..].find(super::markup::NOTE_MARK) {
        let start = at + i;
        let Some(len) = text[start..].find(')') else {
            break;
        };
        let end = start + len + 1;
        let ends_sentence = text[..start].ends_with(['.', '?', '!']);
        let spaced = text[end..].starts_with(char::is_whitespace);
        if ends_sentence && spaced {
            out.push(&text[from..end]);
            from = end;
        }
        at = end;
    }
    out.push(&text[from..]);
    out
}

/// Most words of a contents entry's title.
const CONTENTS_TITLE_WORDS: usize = 20;

/// Whether a line is a table-of-contents entry: a short title, then a tab or a run
/// of leader dots, then a page number ("Introduction\t4", "6. Versioning......7").
/// Word writes its contents field this way (a `w:tab` with a dot leader before the
/// `PAGEREF` result), and so do plain-text and RFC-style documents.
fn is_contents_entry(line: &str) -> bool {
    let t = line.trim_end();
    let digits = t.chars().rev().take_while(char::is_ascii_digit).count();
    if !(1..=4).contains(&digits) {
        return false;
    }
    let head = &t[..t.len() - digits];
    let title = if let Some(h) = head.strip_suffix('\t') {
        h
    } else {
        let dots = head.trim_end().trim_end_matches(['.', '…', ' ']);
        let leader = &head[dots.len()..];
        if leader.matches('.').count() + 3 * leader.matches('…').count() < 3 {
            return false;
        }
        dots
    };
    let words = title.split_whitespace().count();
    (1..=CONTENTS_TITLE_WORDS).contains(&words)
}

fn unit(block: usize, s: &str) -> Unit {
    let mut terms = words::term_set(s);
    terms.extend(compounds(s));
    Unit {
        block,
        plain: s.to_string(),
        terms,
    }
}

/// Two adjacent words written as one ("class path" -> "classpath", "data base" ->
/// "database"): a compound is spelled open or closed by different writers, and a
/// question that writes it closed asks about the text that writes it open. Letters
/// only, each word at least two letters and no function word ("is found" joins
/// nothing).
fn compounds(s: &str) -> Vec<String> {
    let words: Vec<String> = s.unicode_words().map(str::to_lowercase).collect();
    words
        .windows(2)
        .filter(|w| {
            w.iter().all(|x| {
                x.chars().count() >= 2
                    && x.chars().all(char::is_alphabetic)
                    && !STOP.contains(&x.as_str())
            })
        })
        .map(|w| words::stem(&format!("{}{}", w[0], w[1])))
        .collect()
}

/// The information line (without brackets) and the body.
fn split_info(text: &str) -> (&str, &str) {
    let t = text.trim_start();
    if t.starts_with("[Document: ") {
        let (first, rest) = t.split_once('\n').unwrap_or((t, ""));
        let first = first.trim_end();
        if let Some(inner) = first.strip_prefix('[').and_then(|f| f.strip_suffix(']')) {
            return (inner, rest);
        }
    }
    ("", text)
}

/// Splits a body into blocks: blank lines end paragraphs, each list item and each
/// heading is a block, pipe-table lines and HTML tables stay together, fenced code
/// stays whole.
fn blocks(body: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut lines = body.lines().peekable();
    let flush = |para: &mut Vec<&str>, out: &mut Vec<Block>| {
        if !para.is_empty() {
            out.push(block(BlockKind::Paragraph, &para.join("\n"), String::new()));
            para.clear();
        }
    };
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.is_empty() || t == "…" {
            flush(&mut para, &mut out);
            continue;
        }
        if t.starts_with("```") {
            flush(&mut para, &mut out);
            let mut code = vec![];
            for l in lines.by_ref() {
                if l.trim().starts_with("```") {
                    break;
                }
                code.push(l);
            }
            let mut b = block(BlockKind::Code, "", String::new());
            b.r = markup::render_code(&code.join("\n"));
            out.push(b);
            continue;
        }
        if t.starts_with("<table") {
            flush(&mut para, &mut out);
            let mut html = vec![line];
            // The table ends at its own closing line: a cell may hold a nested table
            // whose `</table>` stands inside a row's line (chunk/render writes one row
            // per line, the outer `</table>` alone).
            if !t.ends_with("</table>") {
                for l in lines.by_ref() {
                    html.push(l);
                    if l.trim() == "</table>" {
                        break;
                    }
                }
            }
            let raw = html.join("\n");
            let mut b = block(BlockKind::Table, &raw, String::new());
            b.table = table::parse_html(&raw);
            out.push(b);
            // A table nested in a cell is read as a table of its own too: its rows
            // are rows of their own, beside being text of the outer cell.
            for inner in table::nested(&raw) {
                let mut b = block(BlockKind::Table, inner, String::new());
                b.table = table::parse_html(inner);
                out.push(b);
            }
            continue;
        }
        if t.starts_with('|') {
            flush(&mut para, &mut out);
            let mut rows = vec![line];
            while let Some(l) = lines.peek() {
                if !l.trim().starts_with('|') {
                    break;
                }
                rows.push(l);
                lines.next();
            }
            let raw = rows.join("\n");
            let table = table::parse_pipe(&raw);
            let plain = table.as_ref().map(Table::plain).unwrap_or_default();
            let mut b = block(BlockKind::Table, "", String::new());
            b.r = markup::render(&raw);
            b.r.plain = plain;
            b.table = table;
            out.push(b);
            continue;
        }
        // A setext heading: a paragraph line underlined with "---" or "===".
        if !para.is_empty()
            && t.len() >= 3
            && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '='))
        {
            let title = para.pop().unwrap_or_default();
            flush(&mut para, &mut out);
            let mut b = block(BlockKind::Heading, title, String::new());
            b.level = if t.starts_with('=') { 1 } else { 2 };
            out.push(b);
            continue;
        }
        if let Some((level, h)) = heading(t) {
            flush(&mut para, &mut out);
            let mut b = block(BlockKind::Heading, h, String::new());
            b.level = level;
            out.push(b);
            continue;
        }
        if let Some(def) = t.strip_prefix("[^")
            && let Some((label, text)) = def.split_once("]:")
        {
            flush(&mut para, &mut out);
            out.push(block(BlockKind::NoteDef, text.trim(), label.to_string()));
            continue;
        }
        if let Some(item) = list_item(t) {
            flush(&mut para, &mut out);
            // Lines indented past the item's marker continue it (CommonMark list
            // item continuation, as chunk/render writes a line break in an item).
            let indent = line.len() - line.trim_start().len();
            let mut text = item.to_string();
            while let Some(l) = lines.peek() {
                let lt = l.trim();
                let deeper = l.len() - l.trim_start().len() > indent;
                if lt.is_empty()
                    || !deeper
                    || list_item(lt).is_some()
                    || lt.starts_with(['|', '<', '#', '`'])
                {
                    break;
                }
                // One statement: the line break becomes a space.
                text.truncate(text.trim_end().len());
                text.push(' ');
                text.push_str(lt);
                lines.next();
            }
            out.push(block(BlockKind::Item, &text, String::new()));
            continue;
        }
        para.push(t.trim_start_matches("> "));
    }
    flush(&mut para, &mut out);
    out
}

fn block(kind: BlockKind, raw: &str, label: String) -> Block {
    Block {
        kind,
        r: markup::render(raw),
        label,
        table: None,
        level: 0,
        contents: contents_entry(raw),
    }
}

/// Whether a block's Markdown is a contents entry. The rendered plain text collapses
/// white space, and with it the tab before the page number, so the entry is read
/// from the Markdown, a tab-separated part at a time.
fn contents_entry(raw: &str) -> bool {
    if !raw.contains('\t') {
        return is_contents_entry(raw);
    }
    let parts: Vec<String> = raw.split('\t').map(|p| markup::render(p).plain).collect();
    is_contents_entry(&parts.join("\t"))
}

/// An ATX heading line: its level (the `#` count) and text.
fn heading(t: &str) -> Option<(u8, &str)> {
    let n = t.chars().take_while(|&c| c == '#').count();
    (1..=6)
        .contains(&n)
        .then(|| t[n..].trim())
        .filter(|h| t[n..].starts_with(' ') || h.is_empty())
        .map(|h| (n as u8, h))
}

fn list_item(t: &str) -> Option<&str> {
    for m in ["- ", "* ", "+ "] {
        if let Some(r) = t.strip_prefix(m) {
            return Some(r);
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if (1..=3).contains(&digits) {
        let r = &t[digits..];
        if r.starts_with(". ") || r.starts_with(") ") {
            return Some(t);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contents_entries_are_told_by_their_page_number() {
        assert!(is_contents_entry("What is docx4j?\t4"));
        assert!(is_contents_entry(
            "   6. Versioning.......................7"
        ));
        assert!(is_contents_entry("Colophon …… 43"));
        assert!(!is_contents_entry("The bridge opened in 1931"));
        assert!(!is_contents_entry(
            "See section 4.2 for the rules in chapter 3"
        ));
        assert!(!is_contents_entry("Total\t"));
    }

    #[test]
    fn a_file_name_joined_in_camel_case_names_its_document_by_each_word() {
        let p = Passage {
            number: 1,
            text: "[Document: ferry-LIR9-portCountingThousand | Part: footer, section 1 (default) | Page: 1]\n\nPage 3",
            file: "ferry-LIR9-portCountingThousand.docx",
        };
        let s = parse(&p);
        for w in ["port", "count", "thousand", "ferry"] {
            assert!(s.naming.contains(&words::stem(w)), "{w}: {:?}", s.naming);
        }
    }

    #[test]
    fn an_open_compound_meets_its_closed_spelling() {
        let u = unit(0, "If no file is found on your class path, defaults apply.");
        assert!(u.terms.contains(&words::stem("classpath")));
        // Function words join nothing ("is found" is no compound).
        assert!(!u.terms.contains(&words::stem("isfound")));
    }

    #[test]
    fn a_sentence_inside_a_change_stays_with_it() {
        let s = sentences("It was. A [inserted by A: One. Two. Three.] here. After.");
        assert!(
            s.iter()
                .all(|x| x.matches('[').count() == x.matches(']').count()),
            "{s:?}"
        );
        assert!(
            s.iter()
                .any(|x| x.contains("[inserted by A: One. Two. Three.]")),
            "{s:?}"
        );
        assert_eq!(s.last().map(String::as_str), Some("After."));
    }

    #[test]
    fn a_full_stop_inside_a_word_ends_no_sentence() {
        let s = sentences("Use it on the .NET platform, or in Java. Then stop.");
        assert_eq!(
            s,
            ["Use it on the .NET platform, or in Java.", "Then stop."]
        );
        // Scripts without spaces between sentences still split.
        assert_eq!(sentences("一つ目。二つ目。").len(), 2);
        // A note mark after a full stop ends the sentence with it.
        assert_eq!(
            sentences("It was dredged in 1902.(note 4) The quay came later.(note q)"),
            [
                "It was dredged in 1902.(note 4)",
                "The quay came later.(note q)"
            ]
        );
    }
}
