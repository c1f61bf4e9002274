//! Tables laid out in columns of monospaced text: a header line over a rule made of
//! dash groups, one group per column, then one line per row.
//!
//! ```text
//!  Code   Meaning
//! -----   ------------------
//!     1   input/output error
//!    21   unknown reader
//! ```
//!
//! This is how plain text has always drawn tables (RFCs, READMEs, man pages), and the
//! form pandoc's Markdown reads as a "simple table" (pandoc manual, *Tables*, `simple_tables`
//! extension): the rule's groups give the columns; a line's text under a group, from
//! that group's first column to the next group's, is the cell. A table without a
//! header opens and closes with such a rule. Groups may also be drawn with `=` (the
//! reStructuredText simple table).
//!
//! The property relied on: in monospaced text the rule is drawn to the columns, so
//! every row leaves white space just before each column's start. A "table" whose rows
//! run words across those starts was reflowed (a mail client collapsed its spaces) and
//! is left as text.

/// A table read from aligned columns: cell texts, trimmed, one `Vec` per line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AlignedTable {
    /// The header line's cells, when the rule had a line above it.
    pub header: Option<Vec<String>>,
    /// Body rows, in order; each has one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Lines of the input the table took (header, rules and rows).
    pub lines: usize,
}

/// Fewest characters of a dash group.
const MIN_GROUP: usize = 3;

/// The start column (in characters) of each dash group of `line`, when the line is a
/// rule of two or more groups of one rule character (`-` or `=`), at least
/// [`MIN_GROUP`] long, separated by spaces.
pub(crate) fn rule_columns(line: &str) -> Option<Vec<usize>> {
    let line = line.trim_end();
    let first = line.trim_start().chars().next()?;
    if !matches!(first, '-' | '=') {
        return None;
    }
    let mut starts = Vec::new();
    let mut run = 0usize;
    for (i, c) in line.chars().enumerate() {
        if c == first {
            if run == 0 {
                starts.push(i);
            }
            run += 1;
        } else if c == ' ' {
            if run > 0 && run < MIN_GROUP {
                return None;
            }
            run = 0;
        } else {
            return None;
        }
    }
    (run >= MIN_GROUP && starts.len() >= 2).then_some(starts)
}

/// Whether `line` closes a table: a rule of groups, or one unbroken run of the rule
/// character.
fn closing_rule(line: &str) -> bool {
    let t = line.trim();
    let one_run = t.chars().count() >= MIN_GROUP
        && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '='));
    one_run || rule_columns(line).is_some()
}

/// The cells of `line` cut at `starts`, or `None` when text touches a column's start
/// from the left (the line is not laid out in these columns).
fn cells(line: &str, starts: &[usize]) -> Option<Vec<String>> {
    if line.contains('\t') {
        return None;
    }
    let chars: Vec<char> = line.chars().collect();
    for &s in &starts[1..] {
        if s > 0 && s < chars.len() && !chars[s - 1].is_whitespace() {
            return None;
        }
    }
    let mut out = Vec::with_capacity(starts.len());
    for (j, &s) in starts.iter().enumerate() {
        // Text left of the first column belongs to it (right-aligned numbers).
        let from = if j == 0 { 0 } else { s.min(chars.len()) };
        let to = starts
            .get(j + 1)
            .map_or(chars.len(), |&n| n.min(chars.len()));
        out.push(
            chars[from..to]
                .iter()
                .collect::<String>()
                .trim()
                .to_string(),
        );
    }
    Some(out)
}

/// The table `lines` open with, if they do: a header line then a rule of groups, or
/// (without a header) a rule of groups, rows and a closing rule. Rows run to the end of
/// `lines`, a blank line or a closing rule. `None` unless every line is laid out in the
/// rule's columns and some row fills two or more of them.
pub(crate) fn parse(lines: &[&str]) -> Option<AlignedTable> {
    let (header_line, rule_at) = match lines {
        [first, ..] if rule_columns(first).is_some() => (None, 0),
        [first, second, ..] if rule_columns(second).is_some() && !first.trim().is_empty() => {
            (Some(*first), 1)
        }
        _ => return None,
    };
    let starts = rule_columns(lines[rule_at])?;
    let header = match header_line {
        Some(h) => Some(cells(h, &starts)?),
        None => None,
    };
    let mut rows = Vec::new();
    let mut used = rule_at + 1;
    let mut closed = false;
    for line in &lines[rule_at + 1..] {
        if line.trim().is_empty() {
            break;
        }
        used += 1;
        if closing_rule(line) {
            closed = true;
            break;
        }
        rows.push(cells(line, &starts)?);
    }
    let filled = rows
        .iter()
        .any(|r| r.iter().filter(|c| !c.is_empty()).count() >= 2);
    if !filled || (header.is_none() && !closed) {
        return None;
    }
    Some(AlignedTable {
        header,
        rows,
        lines: used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_of_groups_gives_the_columns() {
        assert_eq!(rule_columns("-----   ------"), Some(vec![0, 8]));
        assert_eq!(rule_columns("  ====  ===== ==="), Some(vec![2, 8, 14]));
        assert_eq!(rule_columns("----------"), None);
        assert_eq!(rule_columns("- - -"), None);
        assert_eq!(rule_columns("---  --x"), None);
    }

    #[test]
    fn a_header_rule_and_rows_are_a_table() {
        let text = " Code   Meaning\n-----   ------------------\n    1   input/output error\n   21   unknown reader\n";
        let lines: Vec<&str> = text.lines().collect();
        let t = parse(&lines).unwrap();
        assert_eq!(
            t.header,
            Some(vec!["Code".to_string(), "Meaning".to_string()])
        );
        assert_eq!(
            t.rows,
            vec![
                vec!["1".to_string(), "input/output error".to_string()],
                vec!["21".to_string(), "unknown reader".to_string()],
            ]
        );
        assert_eq!(t.lines, 4);
    }

    #[test]
    fn a_headerless_table_needs_its_closing_rule() {
        let open = ["-----  -----", "a      b", "c      d"];
        assert_eq!(parse(&open), None);
        let closed = [
            "-----  -----",
            "a      b",
            "c      d",
            "-----  -----",
            "after",
        ];
        let t = parse(&closed).unwrap();
        assert_eq!(t.header, None);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.lines, 4);
    }

    #[test]
    fn rows_whose_words_cross_the_columns_were_reflowed() {
        // A mail client collapsed the spaces: the columns no longer line up.
        let lines = [
            "Conversion pandoc 2.11.4 pandoc 2.12",
            "------------------ ------------------- ----------------------",
            "-f docbook 18 ms (35MB alloc) 6 ms (20 MB alloc)",
        ];
        assert_eq!(parse(&lines), None);
    }
}
