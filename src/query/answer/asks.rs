//! What a question asks for: a structure it names (a tracked change, a comment, a
//! note, a page header or footer, the one named first first), every row or item,
//! and the words its answer's form already says.

use unicode_segmentation::UnicodeSegmentation;

use super::words;
use crate::query::assemble::analyze::{COMMENT_WORDS, HEADER_WORDS, NOTE_WORDS, REVISION_WORDS};
pub use crate::query::assemble::analyze::{asks_about, unquoted};

/// Structures a question can ask for, in the order of [`ASKS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// A tracked change: insertion, deletion or move (ECMA-376 17.13.5).
    Changes,
    /// A comment or a reply to one (17.13.4).
    Comments,
    /// A footnote or endnote (17.11).
    Notes,
    /// A page header or footer, a watermark in one (17.10).
    Parts,
}

/// Words (stems) that ask for a structure. "remark" is left out: it names other
/// things too often. Some of these are ordinary words too ("moved", "changed",
/// "HTTP headers", "the security note"): see [`asks`] for when they count.
pub const ASKS: &[(Ask, &[&str])] = &[
    (
        Ask::Changes,
        &[
            "insert",
            "insertion",
            "delet",
            "deletion",
            "mov",
            "track",
            "revision",
            "revis",
            "chang",
        ],
    ),
    (
        Ask::Comments,
        &["comment", "annotation", "reply", "repli", "commented"],
    ),
    (
        Ask::Notes,
        &["footnot", "endnot", "footnote", "endnote", "note"],
    ),
    (Ask::Parts, PART_STEMS),
];

/// The stems that ask for a page header or footer.
const PART_STEMS: &[&str] = &["header", "footer", "watermark"];

/// The stems that ask for a page header or footer ([`Ask::Parts`]), already stemmed.
pub fn part_nouns() -> &'static [&'static str] {
    PART_STEMS
}

/// Words each ask drops from the question before scoring: the answer's form already
/// says them. The context assembler's words for each structure, and the words that
/// ask who made it or where it sits.
pub fn dropped(ask: Ask) -> Vec<&'static str> {
    let (words, extra): (&[&str], &[&str]) = match ask {
        Ask::Changes => (REVISION_WORDS, &["track", "who", "author", "made"]),
        Ask::Comments => (
            COMMENT_WORDS,
            &[
                "reply", "replies", "author", "who", "wrote", "anchored", "attached", "mark",
                "marks",
            ],
        ),
        Ask::Notes => (NOTE_WORDS, &[]),
        Ask::Parts => (HEADER_WORDS, &["page", "pages", "head"]),
    };
    words.iter().chain(extra).copied().collect()
}

/// Whether the question asks for every row or item: "list", "all", "every",
/// "each", "complete", "enumerate" ("how many" asks for a count, not a list); or for
/// a table or list as a thing: "reproduce it", "row by row", "the rows of", "the
/// whole / entire / full table", "the contents of the table" (not "the table of
/// contents"). People ask for a whole table by naming it whole as often as with "all".
pub fn wants_all(question: &str) -> bool {
    let w: Vec<String> = unquoted(question)
        .unicode_words()
        .map(str::to_lowercase)
        .collect();
    let at = |i: usize| w.get(i).map_or("", String::as_str);
    let names_whole =
        |i: usize| (i + 1..=i + 2).any(|j| matches!(at(j), "table" | "tables" | "list" | "lists"));
    w.iter().enumerate().any(|(i, x)| match x.as_str() {
        "list" | "all" | "every" | "each" | "complete" | "enumerate" | "reproduce" => true,
        // "How many rows" asks for a count.
        "rows" => at(i.wrapping_sub(1)) != "many",
        "row" => at(i + 1) == "by" && at(i + 2) == "row",
        "whole" | "entire" | "full" => names_whole(i),
        // "Give me the rank statistics table", "show the fee table": a table handed
        // over as a thing, when "table" heads what is given (no preposition between:
        // "give the value in the table" asks for one cell).
        "give" | "show" | "print" => (i + 1..w.len().min(i + 8))
            .take_while(|&j| !matches!(at(j), "in" | "of" | "from" | "for" | "at" | "on" | "by"))
            .any(|j| matches!(at(j), "table" | "tables") && at(j + 1) != "of"),
        "contents" => {
            at(i + 1) == "of"
                && !(at(i.wrapping_sub(1)) == "of" && at(i.wrapping_sub(2)) == "table")
        }
        _ => false,
    })
}

/// Change words that ask for a tracked change on their own; the others ("moved",
/// "deleted", "changed", "revised") do when "who" or "whom" is next to them ("Who
/// deleted ...", "moved by whom"), else only where a document the question is about
/// holds tracked changes. The verb "revised" is an ordinary word as often as not
/// ("revised versions of the licence"); the noun "revision" names the structure.
const CHANGE_NOUNS: &[&str] = &["track", "revision"];

/// Words just before "header" or "footer" that make it a page's.
const PAGE_WORDS: &[&str] = &["page", "running", "odd", "even", "first", "default"];

/// The structures `question` asks for, the one named first first, each with whether
/// the question asks for it outright (strong) or with a word that has other meanings
/// (weak: "When did the office move?", "Which HTTP headers ..."). A weak ask counts
/// only where the sources hold that structure.
pub fn asks(question: &str) -> Vec<(Ask, bool)> {
    let mut found: Vec<(Ask, bool)> = Vec::new();
    let all = ask_stems(question);
    let near = |i: usize, before: usize, after: usize, list: &[&str]| {
        all[i.saturating_sub(before)..(i + 1 + after).min(all.len())]
            .iter()
            .any(|w| list.iter().any(|x| words::stem(x) == *w))
    };
    for (i, s) in all.iter().enumerate() {
        if modifies_noun(&all, i) {
            continue;
        }
        // "track" asks for tracked changes only as their name ("tracked changes",
        // "track revisions"); otherwise it is the ordinary verb ("the screens
        // tracked in the progress table").
        if s == "track" && !near(i, 0, 2, &["change", "changes", "revision", "revisions"]) {
            continue;
        }
        for (ask, stems) in ASKS {
            if !stems.contains(&s.as_str()) {
                continue;
            }
            let strong = match ask {
                Ask::Changes => {
                    CHANGE_NOUNS.contains(&s.as_str()) || near(i, 3, 2, &["who", "whom"])
                }
                Ask::Parts => s == "watermark" || near(i, 2, 0, PAGE_WORDS),
                Ask::Comments => true,
                // "the inline note" is a footnote's kind; "the security note" a
                // paragraph's title: "note" alone is weak.
                Ask::Notes => s != "note",
            };
            match found.iter_mut().find(|x| x.0 == *ask) {
                Some(x) => x.1 |= strong,
                None => found.push((*ask, strong)),
            }
        }
    }
    found
}

/// The question's words, stemmed, outside quotes. Words joined into a name
/// ("inserted-cells", "track-changes", "Comment042.docx") name a document, not what
/// is asked, and are left out.
fn ask_stems(question: &str) -> Vec<String> {
    unquoted(question)
        .split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|t| !t.contains(['-', '_', '.']))
        .flat_map(|t| {
            t.unicode_words()
                .map(|w| {
                    let w = w.to_lowercase();
                    // The stemmer folds "note" into "not", the negation.
                    if w == "note" || w == "notes" {
                        "note".to_string()
                    } else {
                        words::stem(&w)
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Nouns a "header" or "footer" right before them qualifies, so that it names
/// something else: a table's header ("header row"), or a document about headers
/// ("the odd/even headers test document", "the footer sample"), not a page's part.
const QUALIFIED_NOUNS: &[&str] = &[
    "row", "column", "cell", "test", "document", "file", "sample", "example",
];

/// Whether the header or footer word at `i` of `stems` qualifies the noun after it
/// ([`QUALIFIED_NOUNS`]) instead of naming a page part.
fn modifies_noun(stems: &[String], i: usize) -> bool {
    matches!(stems[i].as_str(), "header" | "footer")
        && stems
            .get(i + 1)
            .is_some_and(|n| QUALIFIED_NOUNS.iter().any(|q| words::stem(q) == *n))
}

/// Which page parts `question` asks for: (header, footer). A watermark or running
/// head is in the header part (ECMA-376 17.10.1); a header or footer word that
/// qualifies a noun ([`modifies_noun`]) asks for neither.
pub fn page_parts(question: &str) -> (bool, bool) {
    let all = ask_stems(question);
    let mut header = false;
    let mut footer = false;
    for (i, s) in all.iter().enumerate() {
        if modifies_noun(&all, i) {
            continue;
        }
        match s.as_str() {
            "header" | "watermark" | "running" | "head" => header = true,
            "footer" => footer = true,
            _ => {}
        }
    }
    (header, footer)
}

/// What a declined ask was for, in words.
pub fn what(ask: Ask) -> &'static str {
    match ask {
        Ask::Changes => "a tracked change that answers this question",
        Ask::Comments => "a comment that answers this question",
        Ask::Notes => "a footnote or endnote that answers this question",
        Ask::Parts => "a page header or footer that answers this question",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_structure_named_first_is_asked() {
        assert_eq!(
            asks("What did Ann write in her comment on the deleted line?"),
            [(Ask::Comments, true), (Ask::Changes, false)]
        );
        assert_eq!(
            asks("Who inserted text into the page footer?"),
            [(Ask::Changes, true), (Ask::Parts, true)]
        );
        assert_eq!(
            asks("When did the office move, and which HTTP headers changed?"),
            [(Ask::Changes, false), (Ask::Parts, false)]
        );
    }

    #[test]
    fn names_quotes_and_table_headers_ask_for_nothing() {
        assert!(
            asks("List the rows of the 'Headers' example in the merged-rows sample").is_empty()
        );
        assert!(asks("What is under the header row of the grid in Comment042.docx?").is_empty());
        assert!(asks("List the screens tracked in the progress table").is_empty());
        assert_eq!(
            page_parts("What is in the page footer of the odd/even headers test document?"),
            (false, true)
        );
        assert_eq!(
            page_parts("What do the running head and footer say?"),
            (true, true)
        );
        assert_eq!(
            asks("Which tracked changes are there?"),
            [(Ask::Changes, true)]
        );
        assert_eq!(
            unquoted("the 'Headers' example, Ann's \"Notes\" file"),
            "the   example, Ann's   file"
        );
    }

    #[test]
    fn every_and_each_ask_for_all_rows_but_how_many_does_not() {
        assert!(wants_all("Give each row's total"));
        assert!(!wants_all("How many rows are there?"));
        assert!(wants_all("Reproduce the fee table row by row"));
        assert!(wants_all("What are the contents of the second table?"));
        assert!(!wants_all("What is on page 3 of the table of contents?"));
        assert!(!wants_all("What is the full name of the author?"));
        assert!(wants_all(
            "Give me the rank statistics table from the homework."
        ));
        assert!(!wants_all("Give the value in the fee table for Mara."));
        assert!(!wants_all("Show the table of contents."));
    }
}
