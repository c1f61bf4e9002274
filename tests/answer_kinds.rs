//! The extractive answerer (docrag::query::answer) over real corpus documents, one
//! test per kind of answer: a table cell far below its header, a deletion and its
//! author, the replies of a comment thread, a footnote, a page footer, a whole
//! table, and a question the documents do not answer. Each asserts the answer's
//! words and the chunk its citation points to.

mod common;
use common::add_corpus_doc;

use docrag::query::{Collection, QueryOptions, QueryResult, Replies, ask};

fn collection(files: &[&str]) -> Collection {
    let mut c = Collection::new();
    for f in files {
        add_corpus_doc(&mut c, f, 1024);
    }
    c
}

fn run(c: &Collection, q: &str) -> QueryResult {
    ask(c, q, &[], &Replies::default(), &QueryOptions::new()).unwrap()
}

/// The text of every chunk the answer cites.
fn cited_text(c: &Collection, r: &QueryResult) -> String {
    r.citations
        .citations
        .iter()
        .filter_map(|x| {
            let d = c.position(&x.source.doc_id)?;
            Some(c.documents()[d].chunks[x.source.seq].text.clone())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const SMALL: &[&str] = &[
    "poi__bug57031.docx",
    "powertools__RP035-Inserted-Cells.docx",
    "poi__comment.docx",
    "openxmlsdk__Comment028.docx",
    "tika__testRTFVarious.rtf",
    "powertools__LIR008-zh-CH-chineseCountingThousand.docx",
];

#[test]
fn a_cell_far_below_its_header_is_answered_with_its_labels() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Bladder data listing, observation 81: which time and censoring value are recorded?",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(
        a.text.starts_with("Obs: 81; Time: 49; Censored: 1"),
        "{}",
        a.text
    );
    // Obs is a column of bold row labels: written without a <strong> per row.
    assert!(cited_text(&c, &r).contains("<td>81</td><td>49</td>"));
    assert!(!a.declined);
}

#[test]
fn a_deletion_is_answered_with_its_author_and_text() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Which numbers were removed from the first cell of the inserted-cells test by deletion, and by whom?",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "changes", "{}", a.text);
    assert!(
        a.text.contains("Eric White deleted on 2017-03-26: \"2\""),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Eric White deleted on 2017-03-26: \"3\""),
        "{}",
        a.text
    );
    assert!(!a.text.contains("<del"), "{}", a.text);
    assert!(cited_text(&c, &r).contains("<del author=\"Eric White\""));
}

#[test]
fn replies_are_listed_with_the_comment_they_answer() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Enumerate the replies to comment 1 of Comment028.docx with their authors.",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "comments", "{}", a.text);
    assert!(a.text.contains("- Reply 2 to comment 1 by "), "{}", a.text);
    assert!(
        a.text.contains("- Reply 4 to comment 1 by Pam Teh"),
        "{}",
        a.text
    );
    assert!(a.quotes.len() >= 8, "{}", a.text);
    assert!(
        a.markdown.lines().all(|l| l.starts_with("- ")),
        "{}",
        a.markdown
    );
}

#[test]
fn a_comment_without_an_anchor_gives_its_author_and_text() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Which author is recorded for the POI comment test's comment, and with what text?",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "comments", "{}", a.text);
    assert!(a.text.contains("by Unbekannter Autor"), "{}", a.text);
    assert!(
        a.text
            .contains("This is the first line This is the second line"),
        "{}",
        a.text
    );
}

#[test]
fn a_footnote_is_answered_with_the_sentence_that_references_it() {
    let c = collection(SMALL);
    let r = run(&c, "Quote the footnote in testRTFVarious.rtf.");
    let a = &r.answer;
    assert_eq!(a.kind, "notes", "{}", a.text);
    assert!(
        a.text.starts_with("Footnote 1: \"This is a footnote.\""),
        "{}",
        a.text
    );
    assert!(
        a.text
            .contains("referenced in \"Footnote appears here(note 1)\""),
        "{}",
        a.text
    );
}

#[test]
fn a_footer_is_answered_from_its_part() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Give the text at the foot of each page (the footer) of the Chinese counting test document.",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "header-footer", "{}", a.text);
    assert!(a.text.contains("\"页面 22\""), "{}", a.text);
    assert!(cited_text(&c, &r).contains("Part: footer"));
}

#[test]
fn every_row_of_a_table_when_asked_for_all() {
    let c = collection(SMALL);
    let r = run(&c, "Enumerate all rows of the inserted-cells test's grid.");
    let a = &r.answer;
    assert_eq!(a.kind, "table", "{}", a.text);
    let rows: Vec<&str> = a.text.lines().collect();
    assert_eq!(rows.len(), 3, "{}", a.text);
    assert!(
        rows[2].contains(": A;") && rows[2].contains(": C"),
        "{}",
        a.text
    );
}

#[test]
fn a_question_the_documents_do_not_answer_is_declined_with_the_closest_passage() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Which odds ratio comes out of the logistic regression in the bladder data study?",
    );
    let a = &r.answer;
    assert!(a.declined, "{}", a.text);
    assert_eq!(a.kind, "none");
    assert!(
        a.text.starts_with("The documents do not show"),
        "{}",
        a.text
    );
    assert!(a.text.contains("The closest passage:"), "{}", a.text);
    assert!(r.citations.grounded, "the closest passage is cited");
}

#[test]
fn a_structure_the_named_document_lacks_is_declined() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Has Eric White commented anywhere in the inserted-cells test, and with which words?",
    );
    assert!(r.answer.declined, "{}", r.answer.text);
    assert!(
        r.answer
            .text
            .starts_with("The documents do not show a comment")
    );
}

#[test]
fn a_fact_is_the_sentence_that_covers_the_question() {
    let c = collection(SMALL);
    let r = run(&c, "Which critical value goes with α=0.05?");
    let a = &r.answer;
    assert_eq!(a.kind, "facts", "{}", a.text);
    assert!(
        a.text.starts_with("For α=0.05 the critical value of"),
        "{}",
        a.text
    );
    assert!(a.text.contains("=1.96 ["), "{}", a.text);
}

#[test]
fn which_documents_hold_revisions_is_answered_per_document() {
    let c = collection(SMALL);
    let r = run(
        &c,
        "Which documents hold revisions, such as deleted cells, and who revised them?",
    );
    let a = &r.answer;
    assert_eq!(a.kind, "changes", "{}", a.text);
    assert!(
        a.text.starts_with(
            "powertools__RP035-Inserted-Cells: changes by Eric White (deleted 2, inserted 2) ["
        ),
        "{}",
        a.text
    );
}

#[test]
fn a_question_naming_the_header_and_the_footer_gets_each() {
    // The footer shares no word with the question; the header shares several.
    let rtf = "{\\rtf1\\ansi{\\header Regional Court of Lakeside, 27.12.2024\\par}\
{\\footer www.ris.example.at Seite 1 von 2\\par}\
The court dismissed the appeal of the ferry company against the harbour fee.\\par \
The ferry company must pay the costs of the proceedings.\\par}";
    let c = common::collection_of("decision.rtf", rtf);
    let a = common::answer_of(
        &c,
        "Which website is named in the page footer of the Lakeside court decision, and what does the header show?",
    );
    assert_eq!(a.kind, "header-footer", "{}", a.text);
    assert!(a.text.contains("Regional Court of Lakeside"), "{}", a.text);
    assert!(a.text.contains("www.ris.example.at"), "{}", a.text);
}

/// A decision whose footer is a long privacy notice that ends in its version.
const NOTICE_RTF: &str = "{\\rtf1\\ansi{\\footer Privacy notice: this decision holds \
confidential information meant only for the parties of the Lakeside harbour case. \
Recipients may not pass it on to any other party unless the law requires it, and must \
destroy it once its stated purpose is fulfilled. If you received it in error, tell the \
sender at once and return or destroy every copy of it.     Version: 3.14.2020\\par}\
The court dismissed the appeal of the ferry company against the harbour fee.\\par \
The ferry company must pay the costs of the proceedings.\\par}";

#[test]
fn a_long_footer_is_quoted_with_the_passage_the_question_asks_for() {
    let c = common::collection_of("decision.rtf", NOTICE_RTF);
    let a = common::answer_of(
        &c,
        "What version is printed in the footer of the ferry decision?",
    );
    assert_eq!(a.kind, "header-footer", "{}", a.text);
    // The notice is cut, but not its last words.
    assert!(a.text.contains("Privacy notice"), "{}", a.text);
    assert!(a.text.contains("Version: 3.14.2020"), "{}", a.text);
    assert!(
        !a.text.contains("return or destroy every copy"),
        "{}",
        a.text
    );
}

#[test]
fn another_document_talking_of_footers_does_not_make_the_word_ordinary() {
    let mut c = Collection::new();
    common::add_doc(&mut c, "decision.rtf", NOTICE_RTF.as_bytes(), 512);
    // A web-design note whose body text uses the words themselves.
    let note = "# Page layout\n\nEvery web page has a header with the logo and a footer \
with the contact links.\n\nThe footers of our pages list the address of the office.\n";
    common::add_doc(&mut c, "layout.md", note.as_bytes(), 512);
    let a = common::answer_of(
        &c,
        "What version dates are printed in the footers of the ferry decision?",
    );
    assert_eq!(a.kind, "header-footer", "{}", a.text);
    assert!(a.text.contains("Version: 3.14.2020"), "{}", a.text);
}
