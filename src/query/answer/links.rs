//! Where a link points: a question that asks for an address ("which URL", "where does
//! the link ... point") and names a link by its text is answered with the link's
//! target. The property this relies on: a hyperlink's visible text is how readers
//! name it, and its target (`[text](target)` in chunk Markdown, from `w:hyperlink`
//! ECMA-376 17.16.22 or HTML `<a href>`) is the address; the plain text a reader sees
//! never holds the address, so no sentence can answer this.

use super::Passage;
use super::draft::{Draft, Line};
use super::markup;
use super::phrase::{fold, named, quoted};

/// Words that ask for an address, folded.
const ADDRESS_WORDS: &[&str] = &[
    " url ",
    " urls ",
    " address ",
    " web address ",
    " link ",
    " links ",
    " href ",
    " hyperlink ",
    " point to ",
    " points to ",
    " website ",
    " web site ",
];

/// Whether the question asks where something points.
fn asks_address(folded: &str) -> bool {
    ADDRESS_WORDS.iter().any(|w| folded.contains(w))
}

/// The targets of the links the question names by their text; empty when it asks for
/// no address or names no link.
pub fn target(question: &str, passages: &[Passage<'_>]) -> Draft {
    let q = fold(question);
    if !asks_address(&q) {
        return Draft::default();
    }
    let quotes = quoted(question);
    let mut best: Vec<(f64, String, String, usize)> = Vec::new();
    let mut top = 0.0f64;
    for p in passages {
        for (text, url) in markup::links(p.text) {
            // A link whose text is its address names nothing but itself.
            if url.is_empty() || url.starts_with('#') || text.trim() == url {
                continue;
            }
            let s = named(&q, &quotes, &text);
            if s <= 0.0 || s < top {
                continue;
            }
            if s > top {
                best.clear();
                top = s;
            }
            if !best.iter().any(|b| b.2 == url) {
                best.push((s, text, url, p.number));
            }
        }
    }
    let lines: Vec<Line> = best
        .into_iter()
        .take(3)
        .map(|(_, text, url, n)| Line::new(format!("\"{}\" points to {url}", text.trim()), n))
        .collect();
    Draft {
        kind: "link",
        list: lines.len() > 1,
        lines,
        score: if top > 0.0 { 1.0 } else { 0.0 },
        at: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_link_gives_its_target() {
        let text = "[Document: D]\n\nSee the [project page](https://example.org/p) and [<u>the docs</u>](https://example.org/d).";
        let p = [Passage {
            number: 2,
            text,
            file: "d.md",
        }];
        let d = target("Which URL does the link 'the docs' point to?", &p);
        assert_eq!(d.lines.len(), 1);
        assert_eq!(
            d.lines[0].plain,
            "\"the docs\" points to https://example.org/d"
        );
        assert_eq!(d.lines[0].number, 2);
        // No address asked: nothing.
        assert!(target("What are the docs about?", &p).lines.is_empty());
        // An address asked for a link nobody wrote: nothing.
        assert!(target("What is the URL of the blog?", &p).lines.is_empty());
    }
}
