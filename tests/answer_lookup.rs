//! Table cells addressed by row key and column label (docrag::query::answer::lookup),
//! over documents each test writes itself: numeric keys, a key that is a prefix of
//! another, a key quoted among table words, ordinal rows and columns, two tables
//! with the same labels told apart by their captions.

mod common;
use common::{answer_of as answer, collection_of as collection};

const SALES: &str = "# Regional sales\n\nFigures by year.\n\n\
| Year | Units | Revenue |\n|---|---|---|\n\
| 2003 | 120 | 1,500 |\n| 2004 | 135 | 1,720 |\n| 2014 | 410 | 5,030 |\n| 2140 | 9 | 99 |\n";

#[test]
fn a_numeric_row_key_picks_its_row_only() {
    let c = collection("sales.md", SALES);
    let a = answer(&c, "What was the Revenue in 2004?");
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(
        a.text.starts_with("Year: 2004; Revenue: 1,720"),
        "{}",
        a.text
    );
    // 2014 and 2140 share digits with 2004 but are other words.
    assert!(
        !a.text.contains("5,030") && !a.text.contains("99"),
        "{}",
        a.text
    );
}

#[test]
fn the_header_row_is_never_the_answer() {
    let c = collection("sales.md", SALES);
    let a = answer(&c, "How many Units in 2014?");
    assert!(a.text.starts_with("Year: 2014; Units: 410"), "{}", a.text);
    assert!(!a.text.contains("Year: Year"), "{}", a.text);
}

const OBJECTS: &str = "# Objects\n\nHere are the names for some common objects:\n\n\
| Object | XML element | Factory method |\n|---|---|---|\n\
| Table | w:tbl | createTbl() |\n| Table row | w:tr | createTr() |\n\
| Text | w:t | createText() |\n";

#[test]
fn the_longest_key_the_question_names_wins() {
    let c = collection("objects.md", OBJECTS);
    let a = answer(&c, "What is the Factory method for Table row?");
    assert!(a.text.contains("createTr()"), "{}", a.text);
    assert!(!a.text.contains("createTbl()"), "{}", a.text);
}

#[test]
fn a_quoted_key_beats_table_words_of_the_question() {
    let c = collection("objects.md", OBJECTS);
    let a = answer(
        &c,
        "In the table under 'Here are the names', which XML element does the row 'Text' have?",
    );
    assert!(
        a.text.starts_with("Object: Text; XML element: w:t"),
        "{}",
        a.text
    );
}

#[test]
fn rows_and_columns_are_addressed_by_position() {
    let c = collection(
        "grid.md",
        "# Grid\n\n| A | B | C |\n|---|---|---|\n| r1a | r1b | r1c |\n| r2a | r2b | r2c |\n| r3a | r3b | r3c |\n",
    );
    // The header is the first row a reader sees.
    let a = answer(&c, "What is in the third row, third column of the grid?");
    assert!(a.text.contains("r2c"), "{}", a.text);
    let a = answer(&c, "What is the B of the last row?");
    assert!(
        a.text.contains("r3b") && !a.text.contains("r2b"),
        "{}",
        a.text
    );
}

#[test]
fn two_tables_with_one_header_are_told_apart_by_caption() {
    let text = "# Survival\n\nGroup placebo\n\n| Time | Survival |\n|---|---|\n| 6 | 0.81 |\n| 12 | 0.62 |\n\n\
Group treated\n\n| Time | Survival |\n|---|---|\n| 6 | 0.93 |\n| 12 | 0.77 |\n";
    let c = collection("survival.md", text);
    let a = answer(&c, "In the treated group, what is the Survival at Time 12?");
    assert!(a.text.contains("0.77"), "{}", a.text);
    assert!(!a.text.contains("0.62"), "{}", a.text);
}

#[test]
fn the_second_row_counts_the_header_but_row_2_numbers_data_rows() {
    let c = collection(
        "seen.md",
        "# Seen\n\n| Name | Code |\n|---|---|\n| alpha | A1 |\n| beta | B2 |\n| gamma | C3 |\n",
    );
    // Read as the reader sees it: the header is the first row.
    let a = answer(&c, "What is the Code in the second row?");
    assert!(
        a.text.contains("A1") && !a.text.contains("B2"),
        "{}",
        a.text
    );
    let a = answer(&c, "What is the Code in the second data row?");
    assert!(a.text.contains("B2"), "{}", a.text);
    let a = answer(&c, "What is the Code in row 3?");
    assert!(a.text.contains("C3"), "{}", a.text);
}

#[test]
fn a_one_row_table_needs_only_its_column_named() {
    let c = collection(
        "one.md",
        "# Notes\n\nLayout sample\n\n| Some Header | Other |\n|---|---|\n| small print | big print |\n",
    );
    let a = answer(
        &c,
        "In the layout sample, what text sits under 'Some Header'?",
    );
    assert!(a.text.contains("small print"), "{}", a.text);
}

#[test]
fn a_label_that_is_a_word_for_tables_names_no_column_unquoted() {
    let c = collection(
        "words.md",
        "# Words\n\n| Simple | Table |\n|---|---|\n| Without | Header |\n",
    );
    // "the table" speaks of the table, not of its column headed "Table".
    let a = answer(&c, "What sport does the person named in the table play?");
    assert_ne!(a.kind, "table-cell", "{}", a.text);
    let a = answer(&c, "What is under 'Table'?");
    assert!(a.text.contains("Header"), "{}", a.text);
}

const STEPS: &str = "# Setup\n\nBefore you start:\n\n- Install the tools\n- Read the guide\n\nTo build the project:\n\n- Clone the repository\n- Run the build script\n- Check the output folder\n";

#[test]
fn an_item_of_the_list_the_question_quotes_by_its_intro() {
    let c = collection("steps.md", STEPS);
    let a = answer(
        &c,
        "What is the second item of the list after \"To build the project:\"?",
    );
    assert_eq!(a.kind, "list", "{}", a.text);
    assert!(a.text.starts_with("Run the build script"), "{}", a.text);
    let a = answer(&c, "List the items that follow \"To build the project:\".");
    assert!(
        a.text.contains("Clone the repository") && a.text.contains("Check the output folder"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Install the tools"), "{}", a.text);
}

#[test]
fn a_link_is_answered_with_its_target() {
    let c = collection(
        "links.md",
        "# Links\n\nQuestions go to the [support forum](https://forum.example.org/) and bugs to the [issue tracker](https://bugs.example.org/new).\n",
    );
    let a = answer(
        &c,
        "Which web address does the link \"issue tracker\" point to?",
    );
    assert_eq!(a.kind, "link", "{}", a.text);
    assert!(
        a.text.contains("https://bugs.example.org/new"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("forum.example.org"), "{}", a.text);
}

/// A timetable keyed by week, each week a rowspan over its two days: the week's
/// label ("Term 1") is the header of the key column.
const TIMETABLE: &str = "<html><head><title>Course timetable</title></head><body>\
<h1>Course timetable</h1><table>\
<tr><th>Term 1</th><th>Day</th><th>Session</th></tr>\
<tr><td rowspan=\"2\">Week 1</td><td>Tuesday</td><td>Welcome lecture</td></tr>\
<tr><td>Thursday</td><td>Lab safety briefing</td></tr>\
<tr><td rowspan=\"2\">Week 2</td><td>Tuesday</td><td>Quiz on vectors</td></tr>\
<tr><td>Thursday</td><td>Group project kickoff</td></tr>\
<tr><td rowspan=\"2\">Week 3</td><td>Tuesday</td><td>Midterm exam in hall B</td></tr>\
<tr><td>Thursday</td><td>Review of the midterm</td></tr>\
</table></body></html>";

#[test]
fn values_said_together_address_the_row_that_holds_both() {
    let c = collection("timetable.html", TIMETABLE);
    // The key column's label is named too ("Term 1"): it names no asked column, and
    // a Tuesday of another week is not the row.
    let a = answer(
        &c,
        "In the Term 1 timetable, what happens on the Tuesday of week 3?",
    );
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(a.text.contains("Midterm exam in hall B"), "{}", a.text);
    assert!(!a.text.contains("Welcome lecture"), "{}", a.text);
    assert!(!a.text.contains("Review of the midterm"), "{}", a.text);
    // "happens" is the verb of an event, not a thing the timetable must name.
    let b = answer(&c, "What happens on the Thursday of week 2?");
    assert!(b.text.contains("Group project kickoff"), "{}", b.text);
    assert!(!b.declined, "{}", b.text);
}
