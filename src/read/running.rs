//! Running lines (headers and footers) across pages: the shape two pages' lines
//! share once their numbers are set aside. Shared by the readers that find running
//! lines in text laid out on pages (plain text's form feeds, PDF pages).

/// A line with each run of digits (page numbers, dates) made one `#` and white space
/// collapsed: the shape two pages' furniture lines share.
pub(crate) fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut digits = false;
    for w in line.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in w.chars() {
            if c.is_ascii_digit() {
                if !digits {
                    out.push('#');
                }
                digits = true;
            } else {
                out.push(c);
                digits = false;
            }
        }
        digits = false;
    }
    out
}

/// Whether the lines (of one shape) differ in at most one of their numbers: a
/// running line changes its page number, if anything; lines that differ in several
/// numbers ("Order 1001 shipped on 2024-03-02") are each page's own content.
pub(crate) fn one_number_varies<'a>(lines: impl Iterator<Item = &'a str>) -> bool {
    let runs: Vec<Vec<&str>> = lines
        .map(|l| {
            l.split(|c: char| !c.is_ascii_digit())
                .filter(|r| !r.is_empty())
                .collect()
        })
        .collect();
    let Some(first) = runs.first() else {
        return false;
    };
    let varying = (0..first.len())
        .filter(|&k| runs.iter().any(|r| r.get(k) != first.get(k)))
        .count();
    varying <= 1
}

/// White space runs made one space, ends trimmed.
pub(crate) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
