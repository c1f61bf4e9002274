//! Questions about the collection as such, answered from the per-document records
//! (`query::profile`, `query::inventory`), over documents each test writes itself: a
//! DOCX with comments by two people, a DOCX with tracked changes, a Markdown file with
//! tables and footnotes, and a Russian text.

mod common;
use common::{W_NS, add_doc, answer_of, docx_with};
use docrag::query::Collection;

/// A package whose paragraphs carry comments (ECMA-376 17.13.4: `w:commentRangeStart`,
/// `w:commentReference`, and `word/comments.xml`), one per `(author, anchor, text)`.
fn commented(comments: &[(&str, &str, &str)]) -> Vec<u8> {
    let mut body = String::new();
    let mut part = format!(r#"<?xml version="1.0"?><w:comments xmlns:w="{W_NS}">"#);
    for (i, (author, anchor, text)) in comments.iter().enumerate() {
        body.push_str(&format!(
            r#"<w:p><w:commentRangeStart w:id="{i}"/><w:r><w:t>{anchor}</w:t></w:r><w:commentRangeEnd w:id="{i}"/><w:r><w:commentReference w:id="{i}"/></w:r></w:p>"#
        ));
        part.push_str(&format!(
            r#"<w:comment w:id="{i}" w:author="{author}" w:date="2024-01-01T00:00:00Z"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:comment>"#
        ));
    }
    part.push_str("</w:comments>");
    docx_with(
        &body,
        &[("word/comments.xml", &part)],
        &[("rIdC", "comments", "comments.xml")],
    )
}

/// A package with `inserted` insertions and one deletion by `author` (17.13.5
/// `w:ins`, `w:del`).
fn revised(author: &str, inserted: usize) -> Vec<u8> {
    let mut body = String::new();
    for i in 0..inserted {
        body.push_str(&format!(
            r#"<w:p><w:r><w:t xml:space="preserve">Clause {i} reads </w:t></w:r><w:ins w:id="{i}" w:author="{author}" w:date="2024-02-02T00:00:00Z"><w:r><w:t>as amended</w:t></w:r></w:ins></w:p>"#
        ));
    }
    body.push_str(&format!(
        r#"<w:p><w:r><w:t xml:space="preserve">The old fee </w:t></w:r><w:del w:id="90" w:author="{author}" w:date="2024-02-02T00:00:00Z"><w:r><w:delText>of ten pounds</w:delText></w:r></w:del></w:p>"#
    ));
    docx_with(&body, &[], &[])
}

fn tables_and_notes() -> String {
    let mut s =
        String::from("# Harvest figures\n\nThe figures below come from the farm survey.[^1]\n\n");
    for (i, crop) in ["Wheat", "Barley", "Oats"].iter().enumerate() {
        s.push_str(&format!("| Year | {crop} |\n|---|---|\n| 2019 | {i}1 |\n| 2020 | {i}2 |\n\nA note between tables.\n\n"));
    }
    s.push_str("The survey was repeated.[^2]\n\n[^1]: Counted by hand.\n\n[^2]: Counted again.\n");
    s
}

fn collection() -> Collection {
    let mut c = Collection::new();
    add_doc(
        &mut c,
        "review.docx",
        &commented(&[
            ("Ann Lee", "The budget grows.", "Check the sum."),
            ("Bob Stone", "The plan starts in May.", "Too early?"),
            ("Ann Lee", "Staff stays the same.", "Agreed."),
        ]),
        512,
    );
    add_doc(&mut c, "contract.docx", &revised("Carla Diaz", 3), 512);
    add_doc(&mut c, "harvest.md", tables_and_notes().as_bytes(), 512);
    add_doc(
        &mut c,
        "poezdka.txt",
        "Поезд отправляется в восемь утра с главного вокзала. Билеты нужно купить заранее, \
потому что летом мест мало. Гостиница находится рядом с вокзалом."
            .as_bytes(),
        512,
    );
    c
}

#[test]
fn records_count_whole_documents() {
    let c = collection();
    let p = |name: &str| {
        &c.documents()
            .iter()
            .find(|d| d.file_name == name)
            .expect("added")
            .profile
    };
    let review = p("review.docx");
    assert_eq!(review.comments, 3);
    assert_eq!(review.comment_authors, ["Ann Lee", "Bob Stone"]);
    assert_eq!(review.changes(), 0);
    let contract = p("contract.docx");
    assert_eq!(
        (contract.insertions, contract.deletions, contract.moves),
        (3, 1, 0)
    );
    assert_eq!(contract.revision_authors, ["Carla Diaz"]);
    let harvest = p("harvest.md");
    assert_eq!(
        (harvest.tables, harvest.footnotes, harvest.comments),
        (3, 2, 0)
    );
    assert_eq!(c.documents()[3].language, Some("rus"));
}

#[test]
fn which_documents_hold_a_thing_lists_every_one_and_only_those() {
    let c = collection();
    let a = answer_of(&c, "Which documents have comments, and who wrote them?");
    assert_eq!(a.kind, "records", "{}", a.text);
    assert!(
        a.text.contains("review") && a.text.contains("3 comments by Ann Lee, Bob Stone"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("contract"), "{}", a.text);

    let a = answer_of(&c, "Which files contain tracked changes?");
    assert!(
        a.text.contains("contract") && a.text.contains("3 insertions, 1 deletion"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("review"), "{}", a.text);

    // An author the records hold narrows the list; one they do not hold finds none.
    let a = answer_of(&c, "Which documents have comments by Bob Stone?");
    assert!(a.text.contains("review"), "{}", a.text);
    let a = answer_of(&c, "Which documents contain deletions by Bob Stone?");
    assert!(a.text.starts_with("There is no document"), "{}", a.text);
}

#[test]
fn languages_and_counts_come_from_the_records() {
    let c = collection();
    let a = answer_of(&c, "Which documents are not written in English?");
    assert!(
        a.text.contains("poezdka") && a.text.contains("Russian"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("harvest"), "{}", a.text);
    let a = answer_of(&c, "How many tables does the harvest document have?");
    assert!(a.text.contains("3 tables"), "{}", a.text);
    assert!(!a.text.contains("review"), "{}", a.text);
    let a = answer_of(&c, "How many footnotes are in harvest.md?");
    assert!(a.text.contains("2 footnotes"), "{}", a.text);
}

#[test]
fn a_question_about_text_is_not_a_records_question() {
    let c = collection();
    // "budget" is a word of the text, not something the records hold.
    let a = answer_of(&c, "Which comments are about the budget?");
    assert_ne!(a.kind, "records", "{}", a.text);
    let a = answer_of(&c, "Which documents say when the plan starts?");
    assert_ne!(a.kind, "records", "{}", a.text);
    // A header row is a place in a table, not a header part.
    let a = answer_of(&c, "How many rows does the Wheat table have?");
    assert_ne!(a.kind, "records", "{}", a.text);
}

#[test]
fn the_context_of_a_which_documents_question_reads_every_holder() {
    use docrag::query::{QueryOptions, Replies, ask};
    // Fourteen long documents whose words meet the question's better than the
    // three short commented ones do: retrieval alone would read the long ones.
    let mut c = Collection::new();
    for i in 0..14 {
        let mut text = format!("# Report {i}\n\n");
        for j in 0..60 {
            text.push_str(&format!(
                "Paragraph {j} of report {i} says which documents the comments of the board cover and who wrote them.\n\n"
            ));
        }
        add_doc(&mut c, &format!("report{i}.md"), text.as_bytes(), 256);
    }
    let mut holders = Vec::new();
    for (i, who) in ["Ann Lee", "Bob Stone", "Carla Diaz"].iter().enumerate() {
        let bytes = commented(&[(who, &format!("Item {i} is due."), "Noted.")]);
        holders.push(add_doc(&mut c, &format!("memo{i}.docx"), &bytes, 256));
    }
    let r = ask(
        &c,
        "Which documents have comments, and who wrote them?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .expect("asks");
    for id in &holders {
        assert!(
            r.sources.iter().any(|s| &s.doc_id == id),
            "{id} not in the context"
        );
    }
    assert!(
        r.answer.text.contains("memo2") && r.answer.text.contains("Carla Diaz"),
        "{}",
        r.answer.text
    );
    let context = &r.payload.messages[0].content;
    assert!(context.contains("[Collection records:"), "{context}");
}

#[test]
fn a_statement_names_five_authors_and_counts_the_rest() {
    let people = [
        "Ann Lee",
        "Bob Stone",
        "Carla Diaz",
        "Dan Fox",
        "Eve Hart",
        "Finn Gray",
        "Gus Hill",
    ];
    let comments: Vec<(&str, &str, &str)> =
        people.iter().map(|p| (*p, "The plan.", "Seen.")).collect();
    let mut c = Collection::new();
    add_doc(&mut c, "board.docx", &commented(&comments), 512);
    add_doc(
        &mut c,
        "notes.md",
        b"# Notes\n\nNothing to review here.\n",
        512,
    );
    let a = answer_of(&c, "Which documents have comments?");
    assert!(
        a.text.contains(
            "7 comments by Ann Lee, Bob Stone, Carla Diaz, Dan Fox, Eve Hart and 2 others"
        ),
        "{}",
        a.text
    );
}

#[test]
fn a_format_named_before_a_word_for_documents_narrows_them_by_extension() {
    let mut c = collection();
    add_doc(
        &mut c,
        "crops.md",
        b"# Crops\n\n| Crop | Acres |\n|---|---|\n| Rye | 4 |\n",
        512,
    );
    let a = answer_of(&c, "Which Markdown files have tables?");
    assert_eq!(a.kind, "records", "{}", a.text);
    assert!(
        a.text.contains("harvest") && a.text.contains("crops"),
        "{}",
        a.text
    );
    let a = answer_of(&c, "Which Word documents have tables?");
    assert!(
        a.text.starts_with("There is no Word file with tables"),
        "{}",
        a.text
    );
    // The format alone: every file of it, and no other.
    let a = answer_of(&c, "Which text files are there?");
    assert!(a.text.contains("poezdka"), "{}", a.text);
    assert!(!a.text.contains("review"), "{}", a.text);
}

#[test]
fn a_named_format_narrows_what_the_context_reads() {
    use docrag::query::{QueryOptions, Replies, ask};
    // Long text files whose words meet the question's better than the one short
    // Markdown file with footnotes: retrieval alone would read them.
    let mut c = Collection::new();
    for i in 0..12 {
        let mut text = String::new();
        for j in 0..100 {
            text.push_str(&format!(
                "Paragraph {j} of report {i} asks which files have footnotes and what the footnotes say.\n\n"
            ));
        }
        add_doc(&mut c, &format!("report{i}.txt"), text.as_bytes(), 256);
    }
    let harvest = add_doc(&mut c, "harvest.md", tables_and_notes().as_bytes(), 256);
    let r = ask(
        &c,
        "Which Markdown files have footnotes, and what do they say?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .expect("asks");
    assert!(!r.sources.is_empty());
    assert!(
        r.sources.iter().all(|s| s.doc_id == harvest),
        "{:?}",
        r.sources.iter().map(|s| &s.title).collect::<Vec<_>>()
    );
    assert!(r.answer.text.contains("2 footnotes"), "{}", r.answer.text);
    assert!(
        r.answer.text.contains("Counted by hand"),
        "{}",
        r.answer.text
    );
}

#[test]
fn containing_a_script_is_not_being_written_in_its_language() {
    let mut c = collection();
    add_doc(
        &mut c,
        "visit.md",
        "# Visit notes\n\nThe guide, whose name is written سمير in his own hand, met us at the \
station and took us to the old town.\n"
            .as_bytes(),
        512,
    );
    let a = answer_of(&c, "Which files contain Arabic text?");
    assert_eq!(a.kind, "records", "{}", a.text);
    assert!(
        a.text.contains("visit") && a.text.contains("1 word in Arabic script"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("poezdka"), "{}", a.text);
    let a = answer_of(&c, "Which documents are written in Arabic?");
    assert!(a.text.starts_with("There is no document"), "{}", a.text);
    let a = answer_of(
        &c,
        "Which documents contain Cyrillic letters or Russian words?",
    );
    assert!(a.text.contains("poezdka"), "{}", a.text);
}

#[test]
fn things_joined_by_or_are_either_and_by_and_are_both() {
    let c = collection();
    // "or": a document with either qualifies, and says which it holds.
    let a = answer_of(
        &c,
        "Which documents in this set have comments or footnotes?",
    );
    assert_eq!(a.kind, "records", "{}", a.text);
    assert!(
        a.text.contains("review") && a.text.contains("3 comments"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("harvest") && a.text.contains("2 footnotes"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("contract"), "{}", a.text);
    // "and": only a document with both; here none.
    let a = answer_of(&c, "Which documents have comments and footnotes?");
    assert!(
        a.text
            .starts_with("There is no document with comments and footnotes"),
        "{}",
        a.text
    );
    let a = answer_of(
        &c,
        "Which documents have deletions or endnotes by Bob Stone?",
    );
    assert!(
        a.text
            .starts_with("There is no document with deletions or endnotes by Bob Stone"),
        "{}",
        a.text
    );
}

#[test]
fn the_context_of_a_which_documents_hold_a_script_question_carries_a_passage_in_it() {
    use docrag::query::{QueryOptions, Replies, ask};
    // Long English documents; four hold a passage in Arabic script far from their
    // opening. The passage shares no word with the question: retrieval by words
    // cannot find it, the records can.
    let mut c = Collection::new();
    let passages = [
        "في قرية من القرى كان هناك رجل حكيم",
        "الاتحاد الجزائري لكرة القدم",
        "مكتبة المدينة القديمة",
        "سوق السمك في الميناء",
    ];
    let mut holders = Vec::new();
    for i in 0..6 {
        let mut text = format!("# Field notes {i}\n\n");
        for j in 0..80 {
            text.push_str(&format!(
                "Entry {j} of notebook {i} lists which test files were read and what text each one held.\n\n"
            ));
            if j == 50 && i < passages.len() {
                text.push_str(&format!("The sign by the door read: {}.\n\n", passages[i]));
            }
        }
        let id = add_doc(&mut c, &format!("notes{i}.md"), text.as_bytes(), 256);
        if i < passages.len() {
            holders.push(id);
        }
    }
    let r = ask(
        &c,
        "Which test files contain Arabic text, and what does it say?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .expect("asks");
    let context = &r.payload.messages[0].content;
    for p in passages {
        assert!(
            context.contains(p),
            "{p} not in the context ({}):\n{context}",
            r.accounting.reason
        );
    }
    assert!(
        r.sources.iter().all(|s| holders.contains(&s.doc_id)),
        "only the holders are read"
    );
}

#[test]
fn a_comment_asked_of_a_numbered_place_it_is_not_on_is_declined() {
    // Numbered paragraphs, one comment (ECMA-376 17.13.4) on the third: the
    // question's "Paragraph 7" is written in the text, so a comment elsewhere is
    // about another place.
    let mut body = String::new();
    for i in 1..=9 {
        let text = format!("Paragraph {i}. The valve is checked by the keeper.");
        if i == 3 {
            body.push_str(&format!(
                r#"<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>{text}</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>"#
            ));
        } else {
            body.push_str(&format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"));
        }
    }
    let part = format!(
        r#"<?xml version="1.0"?><w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="Ann Lee" w:date="2024-01-01T00:00:00Z"><w:p><w:r><w:t>Say who checks it.</w:t></w:r></w:p></w:comment></w:comments>"#
    );
    let docx = docx_with(
        &body,
        &[("word/comments.xml", &part)],
        &[("rIdC", "comments", "comments.xml")],
    );
    let mut c = Collection::new();
    add_doc(&mut c, "valves.docx", &docx, 512);
    let a = answer_of(&c, "Which comment did Ann Lee put on Paragraph 7?");
    assert!(a.declined, "{}", a.text);
    let a = answer_of(&c, "Which comment did Ann Lee put on Paragraph 3?");
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("Say who checks it."), "{}", a.text);
}

#[test]
fn a_comment_asked_of_a_quoted_cell_it_is_not_on_is_declined() {
    // A table whose cells carry comments (ECMA-376 17.13.4) on 'tide' and 'ebb' but
    // not on 'slack': text the question quotes from the document says which words the
    // comment is on, and a table is many places.
    let cell = |text: &str, id: Option<usize>| match id {
        Some(i) => format!(
            r#"<w:tc><w:p><w:commentRangeStart w:id="{i}"/><w:r><w:t>{text}</w:t></w:r><w:commentRangeEnd w:id="{i}"/><w:r><w:commentReference w:id="{i}"/></w:r></w:p></w:tc>"#
        ),
        None => format!("<w:tc><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"),
    };
    let body = format!(
        "<w:p><w:r><w:t>Harbour words.</w:t></w:r></w:p><w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>",
        cell("tide", Some(0)),
        cell("slack", None),
        cell("ebb", Some(1)),
        cell("flood", None)
    );
    let part = format!(
        r#"<?xml version="1.0"?><w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="Ann Lee" w:date="2024-01-01T00:00:00Z"><w:p><w:r><w:t>Cell note one</w:t></w:r></w:p></w:comment><w:comment w:id="1" w:author="Ann Lee" w:date="2024-01-01T00:00:00Z"><w:p><w:r><w:t>Cell note two</w:t></w:r></w:p></w:comment></w:comments>"#
    );
    let docx = docx_with(
        &body,
        &[("word/comments.xml", &part)],
        &[("rIdC", "comments", "comments.xml")],
    );
    let mut c = Collection::new();
    add_doc(&mut c, "words.docx", &docx, 512);
    let a = answer_of(&c, "What does the comment on the 'slack' cell say?");
    assert!(a.declined, "{}", a.text);
    let a = answer_of(&c, "What does the comment on the 'ebb' cell say?");
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("Cell note two"), "{}", a.text);
    assert!(!a.text.contains("Cell note one"), "{}", a.text);
}

#[test]
fn a_comment_question_reads_the_document_that_has_comments_though_another_shares_more_words() {
    // A comment on a table cell (ECMA-376 17.13.4 inside 17.4.38 w:tbl), and a text
    // about table cells that shares more of the question's ordinary words.
    let body = r#"<w:p><w:r><w:t>Survey of the harbour.</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:commentRangeStart w:id="0"/><w:r><w:t>R1C1</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>R1C2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#;
    let part = format!(
        r#"<?xml version="1.0"?><w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="Ann Lee" w:date="2024-01-01T00:00:00Z"><w:p><w:r><w:t>Check this value twice.</w:t></w:r></w:p></w:comment></w:comments>"#
    );
    let docx = docx_with(
        body,
        &[("word/comments.xml", &part)],
        &[("rIdC", "comments", "comments.xml")],
    );
    let mut c = Collection::new();
    add_doc(&mut c, "survey.docx", &docx, 512);
    let mut text = String::from("# Tables in Word\n\n");
    for i in 0..6 {
        text.push_str(&format!(
            "Lots of Word users put a table inside a table; each cell inside the table holds text, rule {i}.\n\n"
        ));
    }
    add_doc(&mut c, "tables.md", text.as_bytes(), 512);
    let a = answer_of(
        &c,
        "In the Word document, what comment is attached inside the table, and to which cell?",
    );
    assert_eq!(a.kind, "comments", "{}", a.text);
    assert!(a.text.contains("Check this value twice"), "{}", a.text);
}
