//! A stored chunk's text back into the units the chunker packed it from: its
//! information line, then headings, paragraphs, list items, code blocks, table
//! openings (with their header rows) and table rows.
//!
//! The chunker writes blocks separated by one blank line, list items and table rows
//! one per line (see [`crate::chunk`]); this reads that layout, so it needs no
//! metadata beyond the text. A unit is a byte range of the chunk text; rendering an
//! excerpt copies ranges, so an excerpt never holds text the chunk did not.

/// What a unit is, for the assembler's completion rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// A Markdown heading (`#`...).
    Heading,
    /// A paragraph, quote, code block, rule or note text.
    Text,
    /// One list item (with its continuation lines).
    ListItem,
    /// A table's opening: `<table>` and its header rows, or a pipe table's header
    /// and delimiter rows.
    TableHead,
    /// One body row of a table.
    TableRow,
    /// The `</table>` that closes an HTML table.
    TableEnd,
}

/// One unit of a chunk: `text[start..end]` of the chunk text.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// What it is.
    pub kind: UnitKind,
    /// Byte offset of its first byte in the chunk text.
    pub start: usize,
    /// Byte offset just past its last byte.
    pub end: usize,
    /// For table units: the index (in this chunk's unit list) of the table's
    /// [`UnitKind::TableHead`], when the chunk holds it.
    pub head: Option<usize>,
    /// Index of the block it belongs to (units of one table or list share it).
    pub block: usize,
}

/// A chunk's units. `info` is the byte length of the information line (0 when the
/// text has none); `units` follow it in text order.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkUnits {
    /// Bytes of the leading `[...]` information line, without its line break.
    pub info: usize,
    /// The units in text order.
    pub units: Vec<Unit>,
}

fn is_list_marker(line: &str) -> bool {
    let t = line.trim_start();
    if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") {
        return true;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "))
}

/// The ATX level of a heading unit's text ("## X" -> 2); 0 when it is not one.
pub fn level(text: &str) -> usize {
    let n = text.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&n) { n } else { 0 }
}

/// Of the heading units in `from..to`, those still open at unit `to`: walking back,
/// each heading of a level above all those already kept (its parents), in text order.
pub fn open_headings(text: &str, units: &ChunkUnits, from: usize, to: usize) -> Vec<usize> {
    let mut kept = Vec::new();
    let mut above = usize::MAX;
    for k in (from..to.min(units.units.len())).rev() {
        let x = &units.units[k];
        if x.kind != UnitKind::Heading {
            continue;
        }
        let level = level(&text[x.start..x.end]);
        if level > 0 && level < above {
            kept.push(k);
            above = level;
        }
    }
    kept.reverse();
    kept
}

/// Splits `text` (one chunk) into units.
pub fn split(text: &str) -> ChunkUnits {
    let info = match text.split_once('\n') {
        Some((first, _)) if first.starts_with('[') && first.ends_with(']') => first.len(),
        None if text.starts_with('[') && text.ends_with(']') => text.len(),
        _ => 0,
    };
    let mut units = Vec::new();
    let mut block = 0usize;
    for (start, raw) in blocks(text, info) {
        let body = raw.trim_matches('\n');
        if body.trim().is_empty() {
            continue;
        }
        let start = start + (raw.len() - raw.trim_start_matches('\n').len());
        block_units(text, start, body, block, &mut units);
        block += 1;
    }
    ChunkUnits { info, units }
}

/// The blank-line-separated blocks of `text` from byte `from`, as `(start, text)`;
/// a fenced code block is one block whatever blank lines it holds (CommonMark 4.5: it
/// runs to a closing fence of at least as many backticks), so an excerpt never cuts
/// a program in two.
fn blocks(text: &str, from: usize) -> Vec<(usize, &str)> {
    let mut out: Vec<(usize, &str)> = Vec::new();
    let mut pos = from;
    let mut open: Option<(usize, usize)> = None; // (start, fence length)
    for raw in text[from..].split("\n\n") {
        let start = pos;
        pos += raw.len() + 2;
        if let Some((s, fence)) = open {
            let end = (start + raw.len()).min(text.len());
            if raw.lines().any(|l| closes(l, fence)) {
                open = None;
                out.push((s, &text[s..end]));
            } else if end == text.len() {
                out.push((s, &text[s..end]));
            }
            continue;
        }
        let first = raw.trim_start_matches('\n').lines().next().unwrap_or("");
        let fence = first.bytes().take_while(|&b| b == b'`').count();
        let closed = fence >= 3
            && raw
                .trim_start_matches('\n')
                .lines()
                .skip(1)
                .any(|l| closes(l, fence));
        if fence >= 3 && !closed && start + raw.len() < text.len() {
            open = Some((start, fence));
            continue;
        }
        out.push((start, raw));
    }
    out
}

/// Whether `line` closes a code block opened with `fence` backticks.
fn closes(line: &str, fence: usize) -> bool {
    let t = line.trim_end();
    t.len() >= fence && t.bytes().all(|b| b == b'`')
}

/// The units of one block `body`, which starts at byte `start` of `text`.
fn block_units(text: &str, start: usize, body: &str, block: usize, out: &mut Vec<Unit>) {
    let unit = |kind, s: usize, e: usize, head| Unit {
        kind,
        start: s,
        end: e,
        head,
        block,
    };
    let lines = line_spans(start, body);
    let first = body.lines().next().unwrap_or("");
    if first.trim_start().starts_with("<table") {
        // An HTML table: `<table>` and the leading all-<th> rows, then rows, then
        // `</table>`. A row's continuation lines (a nested table) stay with it.
        let head_idx = out.len();
        let mut head_end = lines[0].1;
        let mut i = 1;
        while i < lines.len() {
            let l = &text[lines[i].0..lines[i].1];
            if l.starts_with("<tr") && l.contains("<th") && !l.contains("<td") {
                head_end = lines[i].1;
                i += 1;
            } else {
                break;
            }
        }
        out.push(unit(UnitKind::TableHead, lines[0].0, head_end, None));
        while i < lines.len() {
            let (s, mut e) = lines[i];
            let l = &text[s..e];
            if l.trim() == "</table>" {
                out.push(unit(UnitKind::TableEnd, s, e, Some(head_idx)));
                i += 1;
                continue;
            }
            i += 1;
            while i < lines.len() && !text[lines[i].0..lines[i].1].starts_with("<tr") {
                if text[lines[i].0..lines[i].1].trim() == "</table>" && i + 1 == lines.len() {
                    break;
                }
                e = lines[i].1;
                i += 1;
            }
            out.push(unit(UnitKind::TableRow, s, e, Some(head_idx)));
        }
        return;
    }
    if first.starts_with('|') && lines.len() >= 2 && text[lines[1].0..lines[1].1].contains("---") {
        let head_idx = out.len();
        out.push(unit(UnitKind::TableHead, lines[0].0, lines[1].1, None));
        for &(s, e) in &lines[2..] {
            out.push(unit(UnitKind::TableRow, s, e, Some(head_idx)));
        }
        return;
    }
    if is_list_marker(first) {
        let mut cur: Option<(usize, usize)> = None;
        for &(s, e) in &lines {
            if is_list_marker(&text[s..e]) {
                if let Some((a, b)) = cur.take() {
                    out.push(unit(UnitKind::ListItem, a, b, None));
                }
                cur = Some((s, e));
            } else if let Some((_, b)) = cur.as_mut() {
                *b = e;
            }
        }
        if let Some((a, b)) = cur {
            out.push(unit(UnitKind::ListItem, a, b, None));
        }
        return;
    }
    let kind = if first.starts_with('#') {
        UnitKind::Heading
    } else {
        UnitKind::Text
    };
    out.push(unit(kind, start, start + body.len(), None));
}

/// Byte spans `(start, end)` in the chunk text of each line of `body` (at `start`).
fn line_spans(start: usize, body: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = start;
    for l in body.split('\n') {
        out.push((pos, pos + l.len()));
        pos += l.len() + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(UnitKind, &str)> {
        split(text)
            .units
            .iter()
            .map(|u| (u.kind, &text[u.start..u.end]))
            .collect()
    }

    #[test]
    fn blocks_items_and_rows() {
        let t = "[Document: D | Page: 1]\n\n## Head\n\nOne para.\n\n- a\n  more\n- b\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n\n<table>\n<tr><th>X</th></tr>\n<tr><td>y</td></tr>\n</table>";
        let u = kinds(t);
        assert_eq!(
            u,
            vec![
                (UnitKind::Heading, "## Head"),
                (UnitKind::Text, "One para."),
                (UnitKind::ListItem, "- a\n  more"),
                (UnitKind::ListItem, "- b"),
                (UnitKind::TableHead, "| A | B |\n| --- | --- |"),
                (UnitKind::TableRow, "| 1 | 2 |"),
                (UnitKind::TableRow, "| 3 | 4 |"),
                (UnitKind::TableHead, "<table>\n<tr><th>X</th></tr>"),
                (UnitKind::TableRow, "<tr><td>y</td></tr>"),
                (UnitKind::TableEnd, "</table>"),
            ]
        );
        let s = split(t);
        assert_eq!(&t[..s.info], "[Document: D | Page: 1]");
        assert_eq!(s.units[5].head, Some(4));
        assert_eq!(s.units[8].head, Some(7));
    }

    #[test]
    fn a_code_block_with_blank_lines_is_one_unit() {
        let t = "[Document: D]\n\nBefore.\n\n```js\nlet a = 1;\n\nrevoke();\n```\n\nAfter.";
        let u = kinds(t);
        assert_eq!(
            u,
            vec![
                (UnitKind::Text, "Before."),
                (UnitKind::Text, "```js\nlet a = 1;\n\nrevoke();\n```"),
                (UnitKind::Text, "After."),
            ]
        );
        // A block cut off by the chunk's end keeps what there is.
        let cut = "[Document: D]\n\n```\nx\n\ny";
        assert_eq!(kinds(cut), vec![(UnitKind::Text, "```\nx\n\ny")]);
    }

    #[test]
    fn text_without_info_line() {
        let s = split("plain\n\nsecond");
        assert_eq!(s.info, 0);
        assert_eq!(s.units.len(), 2);
    }

    #[test]
    fn the_headings_still_open_at_a_unit() {
        let t = "[Document: D | Section: A]\n\nIn A.\n\n## B\n\nIn B.\n\n### B1\n\nSkipped.\n\n## C\n\n### C1\n\nIn C1.";
        let u = split(t);
        let at = |s: &str| {
            u.units
                .iter()
                .position(|x| &t[x.start..x.end] == s)
                .unwrap()
        };
        // "## B" and "### B1" are closed by "## C".
        let open: Vec<&str> = open_headings(t, &u, 0, at("In C1."))
            .into_iter()
            .map(|k| &t[u.units[k].start..u.units[k].end])
            .collect();
        assert_eq!(open, ["## C", "### C1"]);
        assert!(open_headings(t, &u, 0, at("In A.")).is_empty());
    }
}
