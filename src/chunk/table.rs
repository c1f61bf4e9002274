//! Tables -> units: a GFM pipe table when every cell is one simple paragraph and no
//! cell spans rows or columns, else an HTML `<table>` with `colspan`/`rowspan` (nested
//! tables inside cells are HTML too).
//!
//! The header is the leading rows flagged `header`, else the first row (for HTML,
//! extended over rows that a header cell's `rowspan` covers). It becomes the table's
//! first unit; every body row is one unit (HTML rows tied together by a `rowspan` form
//! one unit while that stays under half the budget). The header text is kept so a
//! chunk that starts inside the table can repeat it; an HTML table split across
//! chunks is closed with `</table>` at the end of one chunk and reopened in the next.
//! Top-level tables get document-wide ids from 1.

use super::escape::{clip_words, one_line, pipe_cell, push_text};
use super::facts::{Facts, of_leaves};
use super::flatten::{Item, Rev, flatten};
use super::render::{Mode, render};
use super::units::{Kind, TableInfo, Walker};
use crate::model::{Block, Cell, Inline, ParagraphKind, Row, Table};
use crate::tokens;

/// Most columns rendered (a guard against absurd spans).
const MAX_COLS: usize = 1000;

impl Walker<'_> {
    /// Adds the units of a top-level table.
    pub(super) fn table(&mut self, t: &Table) {
        if t.rows.is_empty() {
            return;
        }
        let html = !is_simple(t);
        let cols = t
            .rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| c.col_span.max(1) as usize)
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0)
            .min(MAX_COLS);
        if cols == 0 {
            return;
        }
        let head_rows = header_rows(t, html);
        let plain_cols = if html {
            bold_columns(t, head_rows)
        } else {
            Vec::new()
        };
        let first_page = self.page;
        let mut rendered: Vec<(String, Facts, u32, u32)> = Vec::with_capacity(t.rows.len());
        for (i, row) in t.rows.iter().enumerate() {
            let start = self.page;
            let (text, facts) = if html {
                self.html_row(row, i < head_rows, &plain_cols)
            } else {
                self.pipe_row(row, cols)
            };
            rendered.push((text, facts, start, self.page));
        }
        let headings: Vec<String> = t.rows[0]
            .cells
            .iter()
            .map(|c| clip_words(&one_line(&cell_plain(&c.blocks)), 60))
            .filter(|h| !h.is_empty())
            .collect();
        let mut head = String::new();
        let mut head_facts = Facts::default();
        if html {
            head.push_str("<table>");
        }
        for (i, (text, facts, _, _)) in rendered.iter().take(head_rows).enumerate() {
            if !head.is_empty() {
                head.push('\n');
            }
            head.push_str(text);
            if i == 0 && !html {
                head.push('\n');
                head.push_str(&pipe_separator(cols));
            }
            head_facts.merge(facts.clone());
        }
        let body_rows = rendered.len().saturating_sub(head_rows);
        let close: &'static str = if html { "</table>" } else { "" };
        let head_tokens = tokens::count(&head);
        let repeat = if head_tokens <= self.max_tokens / 3 {
            head.clone()
        } else if html {
            "<table>".to_string()
        } else {
            format!("|{}\n{}", " |".repeat(cols), pipe_separator(cols))
        };
        let table_index = self.tables.len();
        self.tables.push(TableInfo {
            id: table_index + 1,
            repeat_tokens: tokens::count(&repeat),
            repeat,
            close,
            close_tokens: tokens::count(close),
            headings,
        });
        if body_rows == 0 && html {
            head.push('\n');
            head.push_str(close);
        }
        let head_end = rendered
            .get(head_rows.saturating_sub(1))
            .map_or(first_page, |r| r.3);
        let page_now = self.page;
        self.page = head_end;
        self.push(
            head,
            Kind::TableHead(table_index),
            head_facts,
            first_page,
            None,
        );
        self.page = page_now;
        if let Some(u) = self.out.last_mut() {
            u.more_rows = body_rows > 0;
        }
        // Body rows, grouped where row spans tie them together.
        let groups = group_rows(t, head_rows, &rendered, html, self.max_tokens / 2);
        let n_groups = groups.len();
        for (g, (a, b)) in groups.into_iter().enumerate() {
            let mut text = String::new();
            let mut facts = Facts::default();
            for (text_i, facts_i, _, _) in rendered.iter().take(b).skip(a) {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(text_i);
                facts.merge(facts_i.clone());
            }
            let last = g + 1 == n_groups;
            if last && html {
                text.push('\n');
                text.push_str(close);
            }
            let start = rendered.get(a).map_or(self.page, |r| r.2);
            let end = rendered.get(b.saturating_sub(1)).map_or(self.page, |r| r.3);
            let page_now = self.page;
            self.page = end;
            self.push(text, Kind::TableRow(table_index), facts, start, None);
            self.page = page_now;
            if let Some(u) = self.out.last_mut() {
                u.more_rows = !last;
            }
        }
    }

    fn pipe_row(&mut self, row: &Row, cols: usize) -> (String, Facts) {
        let mut facts = Facts::default();
        let mut text = String::from("|");
        let rev = row_rev(row);
        for cell in &row.cells {
            let content = self.cell_content(&cell.blocks, rev.clone(), Mode::Cell, &mut facts);
            text.push(' ');
            text.push_str(&pipe_cell(&content));
            text.push_str(" |");
        }
        for _ in row.cells.len()..cols {
            text.push_str("  |");
        }
        (text, facts)
    }

    /// One HTML row; `bold_cols[i]`: cell `i` is in a column whose every filled body
    /// cell is bold (see [`bold_columns`]), written without the `<strong>` every row
    /// would repeat.
    fn html_row(&mut self, row: &Row, header: bool, bold_cols: &[bool]) -> (String, Facts) {
        let mut facts = Facts::default();
        let mut text = String::from("<tr>");
        let rev = row_rev(row);
        let tag = if header { "th" } else { "td" };
        for (i, cell) in row.cells.iter().enumerate() {
            let content = self.cell_content(&cell.blocks, rev.clone(), Mode::HtmlCell, &mut facts);
            open_cell(tag, cell, &mut text);
            let plain = header || bold_cols.get(i).copied().unwrap_or(false);
            text.push_str(&header_content(&content, plain));
            text.push_str("</");
            text.push_str(tag);
            text.push('>');
        }
        text.push_str("</tr>");
        (text, facts)
    }

    /// One cell's blocks on one line, paragraphs joined by `<br>`: inline Markdown in a
    /// pipe table (`mode` [`Mode::Cell`]), inline HTML in an HTML table
    /// ([`Mode::HtmlCell`]), where CommonMark renders no Markdown.
    fn cell_content(
        &mut self,
        blocks: &[Block],
        rev: Option<Rev>,
        mode: Mode,
        facts: &mut Facts,
    ) -> String {
        let mut parts: Vec<String> = Vec::new();
        for b in blocks {
            match b {
                Block::Paragraph(p) => {
                    let flat = flatten(&p.inlines, &mut self.book, rev.clone());
                    self.record_notes(&flat);
                    for l in &flat.leaves {
                        if l.item == Item::PageBreak {
                            self.new_page();
                        }
                    }
                    let mut f = of_leaves(&flat, &flat.leaves);
                    let body = render(&flat, mode);
                    let body = body.trim();
                    let prefix = match p.kind {
                        ParagraphKind::ListItem {
                            ordered, number, ..
                        } => {
                            f.list.push(clip_words(&one_line(&f.plain), 100));
                            if ordered {
                                format!("{number}. ")
                            } else {
                                "- ".into()
                            }
                        }
                        _ => String::new(),
                    };
                    facts.merge(f);
                    if !body.is_empty() {
                        parts.push(format!("{prefix}{body}"));
                    }
                }
                Block::Table(t) => {
                    let s = self.nested_table(t, rev.clone(), facts);
                    parts.push(s);
                }
                Block::Code { text, .. } => {
                    let mut s = String::from("<pre>");
                    push_text(&text.replace('\n', "<br>"), &mut s);
                    s.push_str("</pre>");
                    facts.merge(Facts {
                        plain: text.clone(),
                        ..Facts::default()
                    });
                    parts.push(s);
                }
                Block::Quote(inner) => {
                    let s = self.cell_content(inner, rev.clone(), mode, facts);
                    if !s.is_empty() {
                        parts.push(format!("<blockquote>{s}</blockquote>"));
                    }
                }
                Block::Rule => parts.push("<hr>".into()),
                Block::PageBreak => self.new_page(),
                Block::SectionBreak { new_page } => {
                    if *new_page {
                        self.new_page();
                    }
                }
            }
        }
        parts.join("<br>")
    }

    fn nested_table(&mut self, t: &Table, rev: Option<Rev>, facts: &mut Facts) -> String {
        let mut s = String::from("<table>");
        for row in &t.rows {
            s.push_str("<tr>");
            let rev = row_rev(row).or_else(|| rev.clone());
            for cell in &row.cells {
                let tag = if row.header { "th" } else { "td" };
                let content = self.cell_content(&cell.blocks, rev.clone(), Mode::HtmlCell, facts);
                open_cell(tag, cell, &mut s);
                s.push_str(&header_content(&content, row.header));
                s.push_str("</");
                s.push_str(tag);
                s.push('>');
            }
            s.push_str("</tr>");
        }
        s.push_str("</table>");
        s
    }
}

/// For each cell position of the body rows (after `head_rows`), whether every filled
/// cell there is bold, in a table of at least two body rows: a column of row labels
/// or of bold marks, whose bold tells the cells of that column nothing apart.
fn bold_columns(t: &Table, head_rows: usize) -> Vec<bool> {
    let body = t.rows.get(head_rows..).unwrap_or(&[]);
    if body.len() < 2 {
        return Vec::new();
    }
    let width = body
        .iter()
        .map(|r| r.cells.len())
        .max()
        .unwrap_or(0)
        .min(MAX_COLS);
    // (every filled cell bold, some cell filled)
    let mut cols = vec![(true, false); width];
    for row in body {
        for (col, cell) in cols.iter_mut().zip(&row.cells) {
            // Decided once a cell shows text that is not bold; no cell text is built
            // (this runs on every cell of every HTML table).
            if !col.0 {
                continue;
            }
            if !all_bold(&cell.blocks) {
                col.0 = false;
            } else if cell.blocks.iter().any(Block::has_text) {
                col.1 = true;
            }
        }
    }
    cols.into_iter()
        .map(|(bold, filled)| bold && filled)
        .collect()
}

/// Every visible character of `blocks` is bold (true for no text).
fn all_bold(blocks: &[Block]) -> bool {
    fn inline_bold(i: &Inline) -> bool {
        match i {
            Inline::Text { text, style } => style.bold || text.trim().is_empty(),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => children.iter().all(inline_bold),
            _ => true,
        }
    }
    blocks.iter().all(|b| match b {
        Block::Paragraph(p) => p.inlines.iter().all(inline_bold),
        Block::PageBreak | Block::SectionBreak { .. } => true,
        _ => false,
    })
}

/// A cell's HTML content; in a header cell (`<th>`, which shows bold) or a row label
/// without the `<strong>` that says it again: most header rows are bold, and each
/// pair costs two tokens per cell.
fn header_content(content: &str, header: bool) -> std::borrow::Cow<'_, str> {
    if header && content.contains("<strong>") {
        content
            .replace("<strong>", "")
            .replace("</strong>", "")
            .into()
    } else {
        content.into()
    }
}

fn open_cell(tag: &str, cell: &Cell, out: &mut String) {
    out.push('<');
    out.push_str(tag);
    if cell.col_span > 1 {
        out.push_str(&format!(" colspan=\"{}\"", cell.col_span));
    }
    if cell.row_span > 1 {
        out.push_str(&format!(" rowspan=\"{}\"", cell.row_span));
    }
    out.push('>');
}

fn row_rev(row: &Row) -> Option<Rev> {
    row.revision.as_ref().map(|r| Rev {
        kind: r.kind,
        author: r.author.clone(),
        date: r.date.clone(),
    })
}

fn pipe_separator(cols: usize) -> String {
    format!("|{}", " --- |".repeat(cols))
}

/// A pipe table can express `t`: no spans, every cell at most one paragraph.
fn is_simple(t: &Table) -> bool {
    t.rows.iter().all(|r| {
        r.cells.iter().all(|c| {
            c.col_span <= 1
                && c.row_span <= 1
                && match c.blocks.as_slice() {
                    [] => true,
                    [Block::Paragraph(_)] => true,
                    _ => false,
                }
        })
    })
}

/// Number of header rows: the leading `header` rows, else 1; for HTML extended over
/// rows that a header cell's row span covers (but never the whole table when it has
/// more than one row).
fn header_rows(t: &Table, html: bool) -> usize {
    let mut h = t.rows.iter().take_while(|r| r.header).count().max(1);
    if html {
        let mut i = 0;
        while i < h && i < t.rows.len() {
            for c in &t.rows[i].cells {
                h = h.max(i + c.row_span.max(1) as usize);
            }
            i += 1;
        }
    }
    let n = t.rows.len();
    if h >= n && n > 1 && !t.rows.iter().all(|r| r.header) {
        h = t.rows.iter().take_while(|r| r.header).count().max(1).min(n);
    }
    h.min(n)
}

/// Body row groups `(start, end)`: HTML rows joined while a row span reaches into the
/// next row and the group stays under `cap` tokens.
fn group_rows(
    t: &Table,
    from: usize,
    rendered: &[(String, Facts, u32, u32)],
    html: bool,
    cap: usize,
) -> Vec<(usize, usize)> {
    let n = rendered.len();
    let mut out = Vec::new();
    let mut i = from;
    while i < n {
        let mut end = i + 1;
        if html {
            let mut reach = i + 1;
            let mut size = 0;
            let mut j = i;
            while j < n && j < reach {
                if let Some(row) = t.rows.get(j) {
                    for c in &row.cells {
                        reach = reach.max(j + c.row_span.max(1) as usize);
                    }
                }
                size += rendered.get(j).map_or(0, |r| r.0.len() / 3);
                j += 1;
                end = j;
                if size > cap {
                    break;
                }
            }
        }
        out.push((i, end));
        i = end;
    }
    out
}

fn cell_plain(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        b.plain_text(&mut s);
        s.push(' ');
    }
    s
}
