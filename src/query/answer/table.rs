//! Tables as a grid a question can be answered from: column labels from the header
//! rows (merged headers joined, repeated header rows read once), caption rows (one
//! cell across the whole table), data rows of plain cells.
//!
//! HTML tables place each cell by `colspan`/`rowspan` (a covered slot repeats the
//! spanning cell's text, as a reader sees it); Markdown pipe tables take the row
//! above the `| --- |` rule as the header.

use super::markup;

/// Most columns a table grid holds.
pub const MAX_COLUMNS: usize = 256;

/// Most slots (cells after spans) a table grid holds.
pub const MAX_SLOTS: usize = 100_000;

/// A table read into a grid.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// Rows spanning every column above the header (a table title).
    pub caption: Vec<String>,
    /// One label per column: the header cells above it, joined with " / ".
    pub labels: Vec<String>,
    /// Data rows, each with one plain cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The table as plain lines: caption, labels, rows, cells joined with " | ".
    pub fn plain(&self) -> String {
        let mut out: Vec<String> = self.caption.clone();
        if self.labels.iter().any(|l| !l.is_empty()) {
            out.push(self.labels.join(" | "));
        }
        out.extend(self.rows.iter().map(|r| r.join(" | ")));
        out.join("\n")
    }

    /// Row `i` written with its labels: "Label: value; Label: value" for the columns
    /// in `cols` (every cell with text when `cols` is empty: a cell that is only a
    /// picture placeholder, as status icons are, says nothing a text answer can give).
    pub fn labelled(&self, i: usize, cols: &[usize]) -> String {
        let Some(row) = self.rows.get(i) else {
            return String::new();
        };
        let all: Vec<usize> = (0..row.len())
            .filter(|&c| !super::facts::only_images(&row[c]))
            .collect();
        let cols = if cols.is_empty() { &all } else { cols };
        let mut parts: Vec<String> = Vec::new();
        for &c in cols {
            let Some(v) = row.get(c).map(|v| v.trim()).filter(|v| !v.is_empty()) else {
                continue;
            };
            let label = self.labels.get(c).map_or("", |l| l.trim());
            let part = if label.is_empty() {
                v.to_string()
            } else {
                format!("{label}: {v}")
            };
            if parts.last() != Some(&part) {
                parts.push(part);
            }
        }
        parts.join("; ")
    }
}

/// Splits a pipe-table line into cells (an escaped `\|` stays in its cell).
fn pipe_cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&'|') {
            cur.push('|');
            chars.next();
        } else if c == '|' {
            cells.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    cells.push(cur);
    cells
        .iter()
        .map(|c| markup::render(c.trim()).plain.replace('\n', " "))
        .collect()
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.chars()
            .all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+' | '='))
}

/// Reads a Markdown pipe table; None when no line holds a cell.
pub fn parse_pipe(raw: &str) -> Option<Table> {
    let lines: Vec<&str> = raw.lines().filter(|l| !l.trim().is_empty()).collect();
    let rule = lines.iter().position(|l| is_rule(l));
    let mut t = Table::default();
    for (i, l) in lines.iter().enumerate() {
        if Some(i) == rule {
            continue;
        }
        let cells = pipe_cells(l);
        if rule == Some(i + 1) {
            t.labels = cells;
        } else {
            t.rows.push(cells);
        }
    }
    (!t.rows.is_empty() || !t.labels.is_empty()).then_some(t)
}

/// One HTML cell: text, header or not, spans.
struct Cell {
    text: String,
    th: bool,
    colspan: usize,
    rowspan: usize,
}

/// Most nested tables read out of one table.
const MAX_NESTED: usize = 64;

/// The tables nested in the cells of HTML table `raw`, at any depth, each from its
/// `<table` to its matching `</table>`, in order of their openings (at most
/// [`MAX_NESTED`]).
pub fn nested(raw: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while let Some(i) = raw[at..].find('<') {
        let i = at + i;
        let rest = raw[i..].as_bytes();
        if rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(b"<table") {
            open.push(i);
        } else if rest.len() >= 8 && rest[..8].eq_ignore_ascii_case(b"</table>") {
            if let Some(start) = open.pop()
                && !open.is_empty()
            {
                found.push((start, i + 8));
            }
        }
        at = i + 1;
    }
    found.sort_unstable();
    for (a, b) in found.into_iter().take(MAX_NESTED) {
        out.push(&raw[a..b]);
    }
    out
}

/// `raw` with every table inside a cell written as the text of its cells: a nested
/// table (a form's box inside a cell, HTML and OOXML `w:tbl` in `w:tc` alike) is
/// part of its cell's content, and its own rows and cells are no rows or cells of
/// the outer table. Tags of depth two and more become spaces.
fn flatten_nested(raw: &str) -> String {
    if raw.matches("<table").count() < 2 {
        return raw.to_string();
    }
    let mut out = String::with_capacity(raw.len());
    let mut depth = 0usize;
    let mut rest = raw;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tag_end = rest[i..].find('>').map_or(rest.len(), |e| i + e + 1);
        let tag = &rest[i..tag_end];
        let name: String = tag
            .trim_start_matches('<')
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        let closing = tag.starts_with("</");
        let structural = matches!(name.as_str(), "table" | "tr" | "td" | "th");
        if name == "table" && !closing {
            depth += 1;
        }
        if structural && depth >= 2 {
            out.push(' ');
        } else {
            out.push_str(tag);
        }
        if name == "table" && closing {
            depth = depth.saturating_sub(1);
        }
        rest = &rest[tag_end..];
    }
    out.push_str(rest);
    out
}

/// Reads an HTML table; None when it has no row.
pub fn parse_html(raw: &str) -> Option<Table> {
    let raw = &flatten_nested(raw);
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    for tr in raw.split("<tr").skip(1) {
        let tr = tr.split("</tr>").next().unwrap_or(tr);
        let mut cells = Vec::new();
        let mut rest = tr;
        while let Some(i) = rest.find("<t") {
            let after = &rest[i + 2..];
            let th = after.starts_with('h');
            if !(th || after.starts_with('d')) {
                rest = after;
                continue;
            }
            let Some(gt) = after.find('>') else {
                break;
            };
            let attrs = &after[1..gt];
            let body = &after[gt + 1..];
            let end = body
                .find(if th { "</th>" } else { "</td>" })
                .unwrap_or(body.len());
            let span = |n: &str| {
                markup::attr(attrs.trim(), n)
                    .parse::<usize>()
                    .unwrap_or(1)
                    .clamp(1, 1000)
            };
            cells.push(Cell {
                text: markup::render(&body[..end]).plain.replace('\n', " "),
                th,
                colspan: span("colspan"),
                rowspan: span("rowspan"),
            });
            rest = &body[end..];
        }
        rows.push(cells);
    }
    if rows.is_empty() {
        return None;
    }
    // Place cells on the grid; a rowspan fills the slots below. The grid is capped
    // (MAX_COLUMNS wide, MAX_SLOTS in all): spans in a hostile file cannot grow it
    // without bound, and no real table needs more.
    let mut grid: Vec<Vec<Option<(String, bool)>>> = Vec::new();
    let mut slots = 0usize;
    for (r, cells) in rows.iter().enumerate() {
        if grid.len() <= r {
            grid.push(Vec::new());
        }
        let mut col = 0;
        for cell in cells {
            while grid[r].get(col).is_some_and(Option::is_some) {
                col += 1;
            }
            if col >= MAX_COLUMNS || slots >= MAX_SLOTS {
                break;
            }
            let colspan = cell.colspan.min(MAX_COLUMNS - col);
            let rowspan = cell.rowspan.min(rows.len() - r);
            slots += colspan * rowspan;
            for dr in 0..rowspan {
                while grid.len() <= r + dr {
                    grid.push(Vec::new());
                }
                let row = &mut grid[r + dr];
                if row.len() < col + colspan {
                    row.resize(col + colspan, None);
                }
                for dc in 0..colspan {
                    row[col + dc] = Some((cell.text.clone(), cell.th));
                }
            }
            col += colspan;
        }
    }
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    // A caption row is one cell across the whole width. A row whose other slots are
    // covered by a rowspan from above also has one cell of its own, but it is a row
    // of the table, not its title.
    let single: Vec<bool> = rows
        .iter()
        .map(|cells| cells.len() == 1 && cells[0].colspan >= width)
        .collect();
    let mut t = Table::default();
    let mut labels: Vec<Vec<String>> = vec![Vec::new(); width];
    let mut in_header = true;
    for (r, row) in grid.iter().enumerate() {
        let texts: Vec<String> = (0..width)
            .map(|c| {
                row.get(c)
                    .cloned()
                    .flatten()
                    .map(|x| x.0)
                    .unwrap_or_default()
            })
            .collect();
        let all_th = row.iter().flatten().all(|x| x.1) && row.iter().flatten().count() > 0;
        if in_header && single.get(r) == Some(&true) && width > 1 {
            t.caption.push(texts[0].clone());
            continue;
        }
        if in_header && all_th {
            for (c, x) in texts.into_iter().enumerate() {
                if !x.is_empty() && labels[c].last() != Some(&x) {
                    labels[c].push(x);
                }
            }
            continue;
        }
        // A header row repeated further down is not data.
        if !in_header && all_th {
            continue;
        }
        in_header = false;
        t.rows.push(texts);
    }
    t.labels = labels.into_iter().map(|l| l.join(" / ")).collect();
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three levels of tables, as an RTF or DOCX form nests them (`w:tbl` in `w:tc`).
    const NESTED: &str = "<table>\n<tr><th>Part</th><th>Detail</th></tr>\n\
<tr><td>Outside</td><td>Middle A<table><tr><td>Middle B</td><td><table><tr><td>Deep C</td><td>Deep D</td></tr></table></td></tr></table></td></tr>\n\
<tr><td>After</td><td>Last row</td></tr>\n</table>";

    #[test]
    fn a_nested_table_is_text_of_its_cell_and_a_table_of_its_own() {
        let t = parse_html(NESTED).expect("a table");
        // The outer table keeps its two data rows; the nested ones are its cell's text.
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[1], ["After", "Last row"]);
        assert!(t.rows[0][1].contains("Middle B") && t.rows[0][1].contains("Deep D"));
        let inner = nested(NESTED);
        assert_eq!(inner.len(), 2);
        assert!(inner[0].starts_with("<table><tr><td>Middle B"));
        assert_eq!(
            inner[1],
            "<table><tr><td>Deep C</td><td>Deep D</td></tr></table>"
        );
        let deep = parse_html(inner[1]).expect("the innermost table");
        assert_eq!(deep.rows, [["Deep C", "Deep D"]]);
    }

    #[test]
    fn html_spans_and_header_rows() {
        let t = parse_html(
            "<table>\n<tr><th colspan=\"3\">**Title**</th></tr>\n\
             <tr><th rowspan=\"2\">Year</th><th colspan=\"2\">Cases</th></tr>\n\
             <tr><th>New</th><th>Old</th></tr>\n\
             <tr><td>2004</td><td>21.4</td><td>3</td></tr>\n</table>",
        )
        .expect("a table");
        assert_eq!(t.caption, ["Title"]);
        assert_eq!(t.labels, ["Year", "Cases / New", "Cases / Old"]);
        assert_eq!(t.labelled(0, &[0, 1]), "Year: 2004; Cases / New: 21.4");
    }

    #[test]
    fn a_whole_row_leaves_out_picture_cells_but_an_asked_column_keeps_them() {
        let t = parse_pipe("| Screen | Draft | Review |\n| --- | --- | --- |\n| Train screen Vera | [image] | [image: done] |")
            .expect("a table");
        assert_eq!(t.labelled(0, &[]), "Screen: Train screen Vera");
        assert_eq!(t.labelled(0, &[2]), "Review: [image: done]");
    }

    #[test]
    fn pipe_header_above_rule() {
        let t = parse_pipe("| A | **B** |\n| --- | --- |\n| 1 | x \\| y |").expect("a table");
        assert_eq!(t.labels, ["A", "B"]);
        assert_eq!(t.rows, [vec!["1".to_string(), "x | y".to_string()]]);
    }

    #[test]
    fn hostile_spans_are_capped() {
        let row = "<tr><td colspan=\"1000\" rowspan=\"1000\">x</td><td>y</td></tr>";
        let t = parse_html(&format!("<table>{}</table>", row.repeat(50))).expect("a table");
        assert!(t.rows.iter().all(|r| r.len() <= MAX_COLUMNS));
        assert!(t.rows.len() * MAX_COLUMNS <= MAX_SLOTS + MAX_COLUMNS * 50);
    }
}
