//! Table questions as people ask them, over documents each test writes itself.

mod common;
use common::{answer_of as answer, collection_of as collection};

/// Two small tables, each under a short label line, one with a header cell spanning
/// two rows.
fn labelled_tables() -> String {
    "<html><body><h1>Layout samples</h1>\
<p>Merging, alignment, row height 1</p>\
<table><tr><th>A</th><th rowspan=\"2\">B</th></tr><tr><td>C</td></tr></table>\
<p>Merging, alignment, row height 2</p>\
<table><tr><th>Some Header</th><th rowspan=\"2\"><img alt=\"logo\" src=\"l.png\"></th></tr>\
<tr><td>Some text in a small font</td></tr></table>\
<p>Merging, empty cells</p>\
<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr>\
<tr><td>E</td><td colspan=\"2\"></td><td>H</td></tr>\
<tr><td>I</td><td>J</td><td>K</td><td>L</td></tr>\
<tr><td>M</td><td>N</td><td>O</td><td>P</td></tr></table>\
</body></html>"
        .to_string()
}

#[test]
fn a_column_named_by_its_header_over_a_row_beside_a_rowspan_is_answered() {
    // A header cell spanning two rows covers the second row's other slot: that row has
    // one cell of its own but is data, not the table's title.
    let c = collection("layout.html", &labelled_tables());
    let a = answer(
        &c,
        "In the table labelled 'Merging, alignment, row height 2', what is under 'Some Header'?",
    );
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(a.text.contains("Some text in a small font"), "{}", a.text);
}

#[test]
fn reproducing_a_table_row_by_row_lists_its_rows() {
    let c = collection("layout.html", &labelled_tables());
    let a = answer(
        &c,
        "Reproduce the table labelled 'Merging, empty cells' row by row.",
    );
    assert_eq!(a.kind, "table", "{}", a.text);
    assert_eq!(a.quotes.len(), 3, "{}", a.text);
    assert!(a.quotes[1].text.contains("B: J"), "{}", a.text);
    assert!(a.quotes[2].text.contains("D: P"), "{}", a.text);
}

#[test]
fn a_table_is_named_by_the_heading_of_the_part_it_sits_in() {
    // Several short sections in one chunk: the chunk's information line names only
    // the first, so the table's own heading is what the question points at.
    let md = "# Samples\n\n## Plain\n\n| 1 | 2 |\n| --- | --- |\n| 3 | 4 |\n\n\
## Harvest of 2020\n\nFrom the market.\n\n| Crop | Tonnes |\n| --- | --- |\n| Apple | 3 |\n\
| Pear | 5 |\n\n## Other\n\n| Crop | Tonnes |\n| --- | --- |\n| Plum | 7 |\n";
    let c = collection("samples.md", md);
    let a = answer(
        &c,
        "Give me the rows of the table in the 'Harvest of 2020' part.",
    );
    assert_eq!(a.kind, "table", "{}", a.text);
    assert!(a.text.contains("Crop: Apple; Tonnes: 3"), "{}", a.text);
    assert!(a.text.contains("Crop: Pear; Tonnes: 5"), "{}", a.text);
    assert!(!a.text.contains("Plum"), "{}", a.text);
}

/// A table of names whose first row's key is the word "Table", and a row whose key
/// holds the word "Footnote".
fn object_names() -> String {
    "# Object names\n\nHere are the names for some common objects:\n\n\
| Object | XML element | Factory method |\n| --- | --- | --- |\n\
| Document body | w:body | createBody() |\n| Table | w:tbl | createTbl() |\n\
| Footnote or endnote ref | w:footnoteReference | createFtnRef() |\n\n\
Footnotes themselves live in their own part.[^1]\n\n[^1]: The footnotes part.\n"
        .to_string()
}

#[test]
fn a_row_position_is_not_overruled_by_a_key_that_is_the_word_table() {
    let c = collection("objects.md", &object_names());
    let a = answer(
        &c,
        "In the table under 'Here are the names for some common objects:', what is the XML element of the first data row?",
    );
    assert!(a.text.contains("XML element: w:body"), "{}", a.text);
}

#[test]
fn a_phrase_naming_a_cell_does_not_ask_for_the_structure_its_words_name() {
    let c = collection("objects.md", &object_names());
    let a = answer(
        &c,
        "What factory method is given for Footnote or endnote ref?",
    );
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(a.text.contains("createFtnRef()"), "{}", a.text);
}

#[test]
fn a_capitalized_word_for_a_table_part_names_its_row() {
    let text = "# Object names\n\nThe names of some common objects:\n\n\
| Object | XML element | Factory method |\n|---|---|---|\n\
| Paragraph | w:p | createP() |\n| Table | w:tbl | createTbl() |\n| Table row | w:tr | createTr() |\n";
    let c = collection("objects.md", text);
    let a = answer(&c, "What is the XML element for Table in the object names?");
    assert!(
        a.text.contains("w:tbl") && !a.text.contains("w:tr"),
        "{}",
        a.text
    );
    let a = answer(&c, "What is the Factory method for Table row?");
    assert!(
        a.text.contains("createTr()") && !a.text.contains("createTbl()"),
        "{}",
        a.text
    );
}

#[test]
fn a_row_named_by_its_key_answers_a_question_whose_noun_the_table_never_writes() {
    // Status cells are pictures; the person in charge stands in the key cell. The
    // question's noun ("engineer") names a kind, not a word of the table.
    let mut rows = String::new();
    for (room, person) in [
        ("Boiler room", "Ana"),
        ("Pump house", "Ben"),
        ("Control desk", "Cleo"),
        ("Boiler annex", "Dev"),
    ] {
        rows.push_str(&format!(
            "<tr><td>{room} <b><i>{person}</i></b></td><td><img src=\"ok.png\"></td><td><img src=\"ok.png\"></td></tr>"
        ));
    }
    let html = format!(
        "<html><body><h1>Plant status</h1><p>Progress of the rooms this week.</p>\
<table><tr><th>Room</th><th>Draft</th><th>Review</th></tr>{rows}</table></body></html>"
    );
    let c = collection("plant.html", &html);
    let a = answer(
        &c,
        "In the plant status table, which engineer is named next to the Pump house?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("Ben"), "{}", a.text);
    // A row the question does not name keeps the decline for an absent kind.
    let a = answer(&c, "Which budget figure does the plant status give?");
    assert!(a.declined, "{}", a.text);
}

/// A rota whose names recur across columns, and a second table addressed by key.
fn rota() -> String {
    "# Kitchen refit\n\nEach room has a lead and a helper.\n\n\
| Room | Lead | Helper | State |\n| --- | --- | --- | --- |\n\
| Pantry | Mara | Olek | done |\n| Scullery | Tomas | Mara | started |\n\
| Larder | Mara | Ines | waiting |\n| Laundry | Olek | Mara | waiting |\n\
| Porch | Mara | Olek | started |\n\n## Hours\n\nHours booked per person.\n\n\
| Lead | Hours | Rate |\n| --- | --- | --- |\n| Mara | 31 | 18 |\n| Tomas | 12 | 20 |\n"
        .to_string()
}

#[test]
fn a_value_in_a_named_column_selects_every_row_holding_it() {
    let c = collection("rota.md", &rota());
    let a = answer(&c, "Which rooms is Mara the lead for?");
    assert_eq!(a.kind, "table", "{}", a.text);
    let rooms: Vec<&str> = ["Pantry", "Larder", "Porch"].to_vec();
    for r in &rooms {
        assert!(a.text.contains(r), "{r}: {}", a.text);
    }
    // Mara is the helper there, not the lead.
    assert!(!a.text.contains("Scullery"), "{}", a.text);
    assert!(!a.text.contains("Laundry"), "{}", a.text);
    // A row addressed by its key is still a lookup of one cell.
    let a = answer(&c, "How many hours did Mara book?");
    assert!(a.text.contains("31"), "{}", a.text);
    let a = answer(&c, "What state is the Scullery in?");
    assert!(a.text.contains("started"), "{}", a.text);
}

/// Yields under a two-level header: each crop recurs under each season.
fn yields() -> String {
    "<html><body><h1>Yields</h1><p>Yields per plot, in tonnes.</p><table>\
<tr><th rowspan=\"2\">Plot</th><th colspan=\"2\">Spring</th><th colspan=\"2\">Autumn</th></tr>\
<tr><th>Wheat</th><th>Barley</th><th>Wheat</th><th>Barley</th></tr>\
<tr><td>North</td><td>12</td><td>9</td><td>14</td><td>8</td></tr>\
<tr><td>South</td><td>11</td><td>7</td><td>13</td><td>6</td></tr>\
</table></body></html>"
        .to_string()
}

#[test]
fn a_sub_header_named_with_its_group_is_one_column() {
    let c = collection("yields.html", &yields());
    let a = answer(&c, "What was the autumn barley yield of the South plot?");
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(a.text.contains("Autumn / Barley: 6"), "{}", a.text);
    // Neither the sibling under the other group nor the group's other column.
    assert!(!a.text.contains("Spring / Barley"), "{}", a.text);
    assert!(!a.text.contains("Autumn / Wheat"), "{}", a.text);
    let a = answer(
        &c,
        "Under the sub-header Barley in Spring, what does North have?",
    );
    assert!(a.text.contains("Spring / Barley: 9"), "{}", a.text);
    assert!(!a.text.contains("Autumn"), "{}", a.text);
}

#[test]
fn a_column_named_with_no_row_is_listed_down_the_table() {
    let c = collection("yields.html", &yields());
    let a = answer(&c, "What are the values in the Autumn Wheat column?");
    assert_eq!(a.kind, "table", "{}", a.text);
    assert_eq!(a.quotes.len(), 2, "{}", a.text);
    assert!(
        a.quotes[0].text.contains("North; Autumn / Wheat: 14"),
        "{}",
        a.text
    );
    assert!(
        a.quotes[1].text.contains("South; Autumn / Wheat: 13"),
        "{}",
        a.text
    );
}

#[test]
fn a_question_naming_a_table_gets_the_table_not_the_list_beside_it() {
    // The structure's noun says which structure: the lists share more of the
    // question's words ("bullet", "list") than the table does, but "the table" is
    // what is asked for.
    let md = "# Sampler\n\nHere is a bullet list:\n\n- Bullet one\n- Bullet two\n- Bullet three\n\n\
Here is a numbered list:\n\n1. Numbered one\n2. Numbered two\n\n\
| Tide | Port | Hour |\n| --- | --- | --- |\n| High | Skerry | 06:10 |\n| Low | Skerry | 12:25 |\n";
    let c = collection("sampler.md", md);
    let a = answer(
        &c,
        "What's in the table of the sampler with the bullet list and the numbered list? List all its cells.",
    );
    assert_eq!(a.kind, "table", "{}", a.text);
    assert!(a.text.contains("12:25"), "{}", a.text);
}

#[test]
fn a_table_given_as_a_thing_is_the_whole_table() {
    // "Give me the ... table": the table is handed over whole; its title is its
    // first header row, spanning every column (as report generators write it).
    let html = "<html><body><h1>Harbour counts</h1>\
<table><tr><th colspan=\"3\">Berth Statistics</th></tr>\
<tr><th>Pier</th><th>Ships</th><th>Tonnes</th></tr>\
<tr><td>North</td><td>14</td><td>920</td></tr>\
<tr><td>South</td><td>9</td><td>610</td></tr></table>\
<p>The crane log follows.</p>\
<table><tr><th colspan=\"2\">Crane Hours</th></tr>\
<tr><th>Crane</th><th>Hours</th></tr>\
<tr><td>C1</td><td>31</td></tr></table></body></html>";
    let c = collection("harbour.html", html);
    let a = answer(
        &c,
        "Give me the berth statistics table from the harbour counts.",
    );
    assert_eq!(a.kind, "table", "{}", a.text);
    assert!(
        a.text.contains("920") && a.text.contains("610"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("C1"), "{}", a.text);
}

#[test]
fn a_column_named_in_part_is_asked_when_its_cell_holds_the_type_the_question_wants() {
    // "switch" is half of two labels; "when" asks a date, which only one of them holds.
    let text = "# Party switchers\n\n| Member | Chamber | Party switch | Switch Year |\n\
|---|---|---|---|\n| Ann Carver | Senate | D to R | 1964 |\n| Bo Lindqvist | House | R to D | 1972 |\n\
| Cyd Marlow | Senate | D to I | 1994 |\n";
    let c = collection("switchers.md", text);
    let a = answer(&c, "When did Bo Lindqvist switch, and in which direction?");
    assert_eq!(a.kind, "table-cell", "{}", a.text);
    assert!(a.text.contains("1972"), "{}", a.text);
    assert!(a.text.contains("R to D"), "{}", a.text);
    assert!(!a.text.contains("1994"), "{}", a.text);
}

#[test]
fn a_table_of_placeholder_text_is_never_listed() {
    // A layout test: the table's cells are one phrase said over and over.
    let filler = "I am some text ".repeat(6);
    let text = format!(
        "# Layout test\n\n## Fields\n\nMarker fields should be invisible when printed. \
Display fields should show a picture when printed.\n\n\
| Fields | Kinds |\n|---|---|\n| {filler} | {filler} |\n| {filler} | {filler} |\n"
    );
    let c = collection("layout.md", &text);
    let a = answer(
        &c,
        "What kinds of fields are there, and what should be printed for each?",
    );
    assert!(!a.text.contains("I am some text"), "{}", a.text);
    assert!(a.text.contains("Marker fields"), "{}", a.text);
}

#[test]
fn a_pair_of_a_matrix_names_the_crossing_that_holds_a_value() {
    // A distance chart fills one triangle: "between Birch and Ash" names row Ash's
    // Birch column, which is empty, as well as row Birch's Ash column, which holds it.
    let md = "# Island walks\n\nWalking times between the villages, in minutes.\n\n\
| Village | Ash | Birch | Cedar | Dune |\n|---|---|---|---|---|\n\
| Ash | — | | | |\n| Birch | 40 | — | | |\n| Cedar | 25 | 55 | — | |\n\
| Dune | 70 | 35 | 90 | — |\n";
    let c = collection("walks.md", md);
    let a = answer(
        &c,
        "How long is the walk between Ash and Dune on the island walks chart?",
    );
    assert!(a.text.contains("Dune; Ash: 70"), "{}", a.text);
    // The crossing alone, not the rows that name either village.
    assert_eq!(a.quotes.len(), 1, "{}", a.text);
    let a = answer(&c, "What is the walking time from Birch to Cedar?");
    assert!(a.text.contains("Cedar; Birch: 55"), "{}", a.text);
    assert!(!a.text.contains("40"), "{}", a.text);
    let a = answer(
        &c,
        "In the walking chart, what is the value between Dune and Birch?",
    );
    assert!(a.text.contains("Dune; Birch: 35"), "{}", a.text);
    assert_eq!(a.quotes.len(), 1, "{}", a.text);
}

#[test]
fn a_numbered_row_the_series_skips_is_declined() {
    // The weeks run 1, 2, 4, 5: week 3 is not in the plan, though its neighbours are.
    let md = "# Rowing course plan\n\n| Week | Topic |\n|---|---|\n| Week 1 | Safety and capsize drill |\n\
| Week 2 | Strokes on flat water |\n| Week 4 | Coastal rowing |\n| Week 5 | Night crossing |\n";
    let c = collection("rowing.md", md);
    let a = answer(&c, "What is the topic of the rowing course in week 3?");
    assert!(a.declined, "{}", a.text);
    assert!(a.text.contains("week 3"), "{}", a.text);
    let a = answer(&c, "What is the topic of the rowing course in week 4?");
    assert!(a.text.contains("Coastal rowing"), "{}", a.text);
}

/// The extractive answer to `question` over `chunks`, the context's sources in order
/// (numbered from 1), all of one DOCX.
fn answer_over(chunks: &[&str], question: &str) -> docrag::query::answer::Answer {
    use docrag::query::answer::{Passage, answer as extract};
    let ps: Vec<Passage<'_>> = chunks
        .iter()
        .enumerate()
        .map(|(n, text)| Passage {
            number: n + 1,
            text,
            file: "trial.docx",
        })
        .collect();
    extract(question, &ps, 400, 3)
}

#[test]
fn a_table_a_chunk_boundary_cut_from_its_naming_line_is_still_named_by_it() {
    // A table, then the line naming the next table, which a chunk boundary cut from it.
    let named = "[Document: trial report | Page: 1]\n\nThe procedure printed its tests.\n\n\
| Statistic | Value |\n| --- | --- |\n| Log-Rank test | 1.52 |\n| Wilcoxon test | 0.77 |\n\n\
Rank statistics of the homogeneity test";
    let table = "[Document: trial report | Page: 2]\n\n\
| Treatment | Log-Rank | Wilcoxon |\n| --- | --- | --- |\n| 1 | 4.09 | 174.00 |\n| 2 | -4.09 | -174.00 |\n\n\
The covariance follows.";
    let got = answer_over(
        &[named, table],
        "Give me the rank statistics table from the trial report.",
    );
    assert!(got.text.contains("174.00"), "{} ({})", got.text, got.kind);
    assert!(!got.text.contains("0.77"), "{}", got.text);
}

#[test]
fn rows_cut_from_a_chunk_of_header_rows_only_take_their_labels() {
    // A small chunk size leaves the header rows alone in one chunk; the rows follow in
    // the next, under no labels of their own.
    let head = "[Document: trial report | Page: 3]\n\n<table>\n\
<tr><th colspan=\"3\">Test of Equality over Strata</th></tr>\n\
<tr><th>Test</th><th>Chi-Square</th><th>DF</th></tr>\n</table>";
    let body = "[Document: trial report | Page: 3]\n\n<table>\n\
<tr><td>Log-Rank</td><td>1.5209</td><td>1</td></tr>\n\
<tr><td>Wilcoxon</td><td>0.7660</td><td>1</td></tr>\n</table>\n\n**Chi-square= 1.5209**";
    let got = answer_over(
        &[head, body],
        "What is the Chi-Square value of the Wilcoxon test?",
    );
    assert!(got.text.contains("0.7660"), "{} ({})", got.text, got.kind);
    assert!(got.text.contains("Chi-Square: 0.7660"), "{}", got.text);
}

/// A cover page: a one-cell table repeating the document's name, then a table of
/// terms. The name chose the document; it tells no row of it from another.
const COVER_PAGE: &str = "[Document: Supply Agreement Cover Page | Page: 1]\n\n\
| **Supply Agreement Cover Page** |\n| --- |\n\
| By signing this Supply Agreement Cover Page, the parties enter into the Supply Agreement. This Cover Page controls over the Supply Agreement. |\n\n\
| Key Terms | |\n| --- | --- |\n| Effective Date | 2026-03-01 |\n| Delivery Window | 45 days |\n| Warranty Period | 18 months |\n| Governing Law | Ontario |";

#[test]
fn words_naming_the_document_do_not_choose_its_row() {
    for question in [
        // The one-row table's label is all title words: not a column asked for.
        "How long does the warranty run under the key terms of the supply agreement cover page?",
        // The best-row path: the title words are in the preamble row, the asked one
        // in a row of terms.
        "What warranty does the supply agreement cover page give?",
    ] {
        let got = answer_over(&[COVER_PAGE], question);
        assert!(
            got.text.contains("18 months"),
            "{question}: {} ({})",
            got.text,
            got.kind
        );
        assert!(!got.text.contains("By signing"), "{question}: {}", got.text);
    }
}
