//! Running headers and footers of paginated plain text: the line a page opens or
//! closes with, repeated on most pages with only its numbers changed ("Internet-Draft
//! remoteStorage June 2014" above every page, "de Jong  Expires December 2014
//! [Page 7]" below). A typewriter-style document (RFCs, reports printed to text)
//! repeats them on every page, so they say nothing about the page's content and, read
//! as body text, they would split paragraphs that run across the page break.

use crate::read::running::{collapse, one_number_varies, shape};

/// Pages a document needs before a line can be seen to repeat.
const MIN_PAGES: usize = 3;

/// Share of pages (those after the first, for a header; those before the last, for a
/// footer) that must open or close with the same line.
const MIN_SHARE: f64 = 0.6;

/// A page's first and last line, where they repeat: what each page loses.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Furniture {
    /// The text of the header line, as on the first page that has it.
    pub header: Option<String>,
    /// The text of the footer line, as on the first page that has it.
    pub footer: Option<String>,
    /// Per page: whether its first non-blank line is the header.
    pub drops_first: Vec<bool>,
    /// Per page: whether its last non-blank line is the footer.
    pub drops_last: Vec<bool>,
}

/// The running line among `lines` (each page's first or last non-blank line, `None`
/// where the page does not vote): which pages it stands on and its text as the first
/// of them writes it. It is the most common shape, on at least [`MIN_SHARE`] of the
/// pages in `among` (and two), with a letter, and its occurrences differ in at most one
/// number ([`one_number_varies`]).
fn running(lines: &[Option<&str>], among: std::ops::Range<usize>) -> Option<(Vec<bool>, String)> {
    let shapes: Vec<Option<String>> = lines.iter().map(|l| l.map(shape)).collect();
    // Counted in a map: a hostile text of a million pages, each opening with a
    // different line, stays linear.
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for sh in shapes[among.clone()].iter().flatten() {
        *counts.entry(sh.as_str()).or_insert(0) += 1;
    }
    // The most common shape; ties (which never reach the share) are broken by the
    // text, so the result never depends on the map's order.
    let (best, n) = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    let enough = n as f64 >= among.len() as f64 * MIN_SHARE && n >= 2;
    if !enough || !best.chars().any(char::is_alphabetic) {
        return None;
    }
    let on: Vec<bool> = shapes
        .iter()
        .map(|sh| sh.as_deref() == Some(best))
        .collect();
    let hits = lines.iter().zip(&on).filter(|x| *x.1).filter_map(|x| *x.0);
    if !one_number_varies(hits.clone()) {
        return None;
    }
    let text = hits.map(collapse).next()?;
    Some((on, text))
}

/// Finds the running header and footer of `pages` (each page's lines, in order).
pub(crate) fn find(pages: &[Vec<&str>]) -> Furniture {
    let n = pages.len();
    let mut f = Furniture {
        drops_first: vec![false; n],
        drops_last: vec![false; n],
        ..Furniture::default()
    };
    if n < MIN_PAGES {
        return f;
    }
    // Only a page with text besides its first and last lines votes: a page that is
    // one or two lines has no furniture, and those lines are its content.
    let voting = |p: &Vec<&str>| p.iter().filter(|l| !l.trim().is_empty()).count() >= 3;
    let first: Vec<Option<&str>> = pages
        .iter()
        .map(|p| {
            voting(p)
                .then(|| p.iter().copied().find(|l| !l.trim().is_empty()))
                .flatten()
        })
        .collect();
    let last: Vec<Option<&str>> = pages
        .iter()
        .map(|p| {
            voting(p)
                .then(|| p.iter().rev().copied().find(|l| !l.trim().is_empty()))
                .flatten()
        })
        .collect();
    // The first page often has no header (a title page), the last no footer.
    if let Some((on, text)) = running(&first, 1..n) {
        f.drops_first = on;
        f.header = Some(text);
    }
    if let Some((on, text)) = running(&last, 0..n - 1) {
        f.drops_last = on;
        f.footer = Some(text);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(n: usize, body: &str) -> String {
        format!("Draft   Widgets   May 2020\n\n{body}\n\nSmith   Expires June 2020   [Page {n}]")
    }

    #[test]
    fn repeated_first_and_last_lines_are_furniture() {
        let texts: Vec<String> = (1..=4).map(|n| page(n, "Some text here.")).collect();
        let pages: Vec<Vec<&str>> = texts.iter().map(|t| t.lines().collect()).collect();
        let f = find(&pages);
        assert_eq!(f.header.as_deref(), Some("Draft Widgets May 2020"));
        assert_eq!(
            f.footer.as_deref(),
            Some("Smith Expires June 2020 [Page 1]")
        );
        assert_eq!(f.drops_first, [true; 4]);
        assert_eq!(f.drops_last, [true; 4]);
    }

    #[test]
    fn lines_that_differ_in_several_numbers_or_are_the_page_are_content() {
        let texts: Vec<String> = (0..5)
            .map(|i| {
                format!(
                    "Order {} shipped on 2024-03-{:02}\nTo the shop.\nPaid.",
                    1000 + i,
                    i + 1
                )
            })
            .collect();
        let pages: Vec<Vec<&str>> = texts.iter().map(|t| t.lines().collect()).collect();
        assert_eq!(find(&pages).header, None);
        // A page of one line has no furniture: the line is the page.
        let texts: Vec<String> = (0..5).map(|i| format!("p{i}")).collect();
        let pages: Vec<Vec<&str>> = texts.iter().map(|t| t.lines().collect()).collect();
        assert_eq!(find(&pages).header, None);
    }

    #[test]
    fn lines_that_differ_or_too_few_pages_are_kept() {
        let texts = [
            "Alpha one.\n\nEnd a.",
            "Beta two.\n\nEnd b.",
            "Gamma.\n\nEnd c.",
        ];
        let pages: Vec<Vec<&str>> = texts.iter().map(|t| t.lines().collect()).collect();
        assert_eq!(find(&pages).header, None);
        assert_eq!(find(&pages).footer, None);
        let two: Vec<Vec<&str>> = pages[..2].to_vec();
        assert_eq!(
            find(&two),
            Furniture {
                drops_first: vec![false; 2],
                drops_last: vec![false; 2],
                ..Furniture::default()
            }
        );
    }
}
