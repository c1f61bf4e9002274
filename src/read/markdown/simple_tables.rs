//! Pandoc's simple tables (pandoc manual, *Tables*, extension `simple_tables`): a
//! header line, a rule of dash groups, one line per row, ended by a blank line or a
//! closing rule. CommonMark has no such table — it reads the rule as a thematic break
//! (CommonMark 0.31, 4.1) and the rows as one paragraph — yet Markdown written for
//! pandoc uses it widely (its own manual does). Before parsing, each one is rewritten
//! in place as the GFM pipe table it means (GFM 0.29, 4.10), so the parser reads its
//! cells' inline Markdown as usual. The columns are read by
//! [`crate::read::text::aligned_table`].
//!
//! Only tables at the margin (indent under four columns: deeper is code), outside
//! fenced code, after a blank line and with a header are rewritten; each keeps its
//! number of lines.

use std::borrow::Cow;

use crate::read::text::aligned_table;
use crate::read::text::structure::indent;

/// `src` with every simple table written as a pipe table; borrowed when there is none.
pub(super) fn rewrite(src: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = src
        .split_inclusive('\n')
        .map(|l| l.trim_end_matches(['\n', '\r']))
        .collect();
    // Cheap test first: most documents have no rule of two dash groups at all.
    if !lines
        .iter()
        .any(|l| aligned_table::rule_columns(l).is_some())
    {
        return Cow::Borrowed(src);
    }
    let ends: Vec<&str> = src
        .split_inclusive('\n')
        .map(|l| &l[l.trim_end_matches(['\n', '\r']).len()..])
        .collect();
    let mut out = String::with_capacity(src.len() + 64);
    let mut fence: Option<(char, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(f) = fence_of(line) {
            fence = match fence {
                None => Some(f),
                Some((c, n)) if f.0 == c && f.1 >= n && line.trim().chars().all(|x| x == c) => None,
                open => open,
            };
        }
        let may_open = fence.is_none()
            && indent(line) < 4
            && !line.trim().is_empty()
            && (i == 0 || lines[i - 1].trim().is_empty())
            && lines.get(i + 1).is_some_and(|r| indent(r) < 4);
        if may_open
            && let Some(t) = aligned_table::parse(&lines[i..])
            && let Some(header) = &t.header
        {
            out.push_str(&pipe_row(header));
            out.push_str(ends[i]);
            out.push_str(&"| --- ".repeat(header.len()));
            out.push('|');
            out.push_str(ends[i + 1]);
            for (k, row) in t.rows.iter().enumerate() {
                out.push_str(&pipe_row(row));
                out.push_str(ends[i + 2 + k]);
            }
            // A closing rule becomes a blank line.
            for end in &ends[i + 2 + t.rows.len()..i + t.lines] {
                out.push_str(end);
            }
            i += t.lines;
            continue;
        }
        out.push_str(line);
        out.push_str(ends[i]);
        i += 1;
    }
    Cow::Owned(out)
}

/// `| a | b |` with the cells' own pipes escaped.
fn pipe_row(cells: &[String]) -> String {
    let mut s = String::from("|");
    for c in cells {
        s.push(' ');
        s.push_str(&c.replace('|', "\\|"));
        s.push_str(" |");
    }
    s
}

/// The fence character and length opening `line`, when it is a code fence
/// (CommonMark 4.5: three or more backticks or tildes, indented under four columns).
fn fence_of(line: &str) -> Option<(char, usize)> {
    if indent(line) >= 4 {
        return None;
    }
    let t = line.trim_start();
    let c = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simple_table_becomes_a_pipe_table_of_as_many_lines() {
        let src = "Intro.\n\n`a` of first    b of body\n-------------   ---------\nprologue        front|matter\nappendix        backmatter\n\nAfter.\n";
        let out = rewrite(src);
        assert_eq!(
            out,
            "Intro.\n\n| `a` of first | b of body |\n| --- | --- |\n| prologue | front\\|matter |\n| appendix | backmatter |\n\nAfter.\n"
        );
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn code_and_indented_examples_stay_as_written() {
        let fenced = "```\nName   Value\n----   -----\na      1\n```\n";
        assert_eq!(rewrite(fenced), fenced);
        let indented = "Text.\n\n    Name   Value\n    ----   -----\n    a      1\n";
        assert_eq!(rewrite(indented), indented);
        // A header line that continues a paragraph is no table's header.
        let glued = "Some text\nName   Value\n----   -----\na      1\n";
        assert_eq!(rewrite(glued), glued);
    }
}
