//! PDF layout analysis (`docrag::read::pdf::layout`) on hand-laid pages: positioned
//! runs in, the document model out, with real values asserted.

use docrag::chunk::chunk_document;
use docrag::model::*;
use docrag::read::pdf::{Element, OutlineEntry, PageRuns, Rule, TextRun, layout};
use docrag::{ConvertError, ConvertOptions, Limits, SimpleNameFinder};

// ---------- page builders ----------

/// Advance of one character, in ems (a rough average of text fonts).
const CHAR: f32 = 0.5;
/// Advance of a word space, in ems.
const SPACE: f32 = 0.3;

/// Width of `text` set at `size`.
fn width(text: &str, size: f32) -> f32 {
    text.chars().count() as f32 * CHAR * size
}

/// A run of `text` at (`x`, baseline `y`).
fn run(text: &str, x: f32, y: f32, size: f32, bold: bool) -> TextRun {
    TextRun {
        text: text.into(),
        x,
        y,
        width: width(text, size),
        height: size,
        font: if bold { "Helvetica-Bold" } else { "Helvetica" }.into(),
        bold,
        italic: false,
        dir: [1.0, 0.0],
        element: None,
    }
}

/// Lays out `text` word by word (one run per word) from `x` on baseline `y`;
/// returns the x where the line ends.
fn words(runs: &mut Vec<TextRun>, x: f32, y: f32, size: f32, bold: bool, text: &str) -> f32 {
    let mut at = x;
    for w in text.split_whitespace() {
        runs.push(run(w, at, y, size, bold));
        at += width(w, size) + SPACE * size;
    }
    at - SPACE * size
}

/// Body lines of 10-unit text from baseline `y`, 12 units apart.
fn body(runs: &mut Vec<TextRun>, x: f32, y: f32, lines: &[&str]) {
    for (i, l) in lines.iter().enumerate() {
        words(runs, x, y + 12.0 * i as f32, 10.0, false, l);
    }
}

/// A US Letter page (612 x 792 units).
fn page(number: u32, runs: Vec<TextRun>) -> PageRuns {
    PageRuns {
        number,
        width: 612.0,
        height: 792.0,
        runs,
        rules: Vec::new(),
        elements: Vec::new(),
    }
}

fn read(pages: &[PageRuns]) -> Document {
    layout(pages, &[], &Limits::default()).expect("layout succeeds")
}

fn plain(b: &Block) -> String {
    let mut s = String::new();
    b.plain_text(&mut s);
    s.trim_end().to_string()
}

fn paragraphs(doc: &Document) -> Vec<(ParagraphKind, String)> {
    doc.body
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some((p.kind.clone(), plain(b))),
            _ => None,
        })
        .collect()
}

fn tables(doc: &Document) -> Vec<&Table> {
    doc.body
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn cell_texts(t: &Table) -> Vec<Vec<String>> {
    t.rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| c.blocks.iter().map(plain).collect::<Vec<_>>().join(" "))
                .collect()
        })
        .collect()
}

/// A full line of prose for column tests (about 30 characters, 15 ems at 10 units).
fn prose(tag: &str, i: usize) -> String {
    format!("{tag} line {i:02} of some prose text")
}

// ---------- tests ----------

#[test]
fn two_columns_are_read_left_column_first() {
    let mut runs = Vec::new();
    let left: Vec<String> = (1..=12).map(|i| prose("Left", i)).collect();
    let right: Vec<String> = (1..=12).map(|i| prose("Right", i)).collect();
    // Same baselines in both columns, as typeset two-column pages have.
    body(
        &mut runs,
        72.0,
        100.0,
        &left.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    body(
        &mut runs,
        320.0,
        100.0,
        &right.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // A full-width title over both columns.
    words(
        &mut runs,
        200.0,
        70.0,
        18.0,
        false,
        "A Title Across Columns",
    );
    // Content-stream order is not reading order.
    runs.reverse();
    let doc = read(&[page(1, runs)]);
    let paras = paragraphs(&doc);
    let texts: Vec<&str> = paras.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(
        texts,
        [
            "A Title Across Columns".to_string(),
            left.join(" "),
            right.join(" "),
        ]
    );
    assert_eq!(paras[0].0, ParagraphKind::Heading(1));
}

#[test]
fn a_sentence_goes_on_from_one_column_to_the_next() {
    let mut runs = Vec::new();
    let mut left: Vec<String> = (1..=10).map(|i| prose("Left", i)).collect();
    left.push("and the last left line ends in a bro-".into());
    let right = [
        "ken word and goes on in lower case",
        "until the sentence ends right here.",
    ];
    body(
        &mut runs,
        72.0,
        100.0,
        &left.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    body(&mut runs, 320.0, 100.0, &right);
    let paras = paragraphs(&read(&[page(1, runs)]));
    assert_eq!(paras.len(), 1, "{paras:?}");
    assert!(paras[0].1.ends_with(
        "ends in a broken word and goes on in lower case until the sentence ends right here."
    ));
}

#[test]
fn broken_words_are_joined_and_lines_become_one_paragraph() {
    let paras = paragraphs_of_lines(&[
        "The system keeps all infor-",
        "mation about the years 1990-",
        "2000 in one well-kept store.",
    ]);
    assert_eq!(paras.len(), 1, "{paras:?}");
    // Joined after a lower-case letter before lower case; a hyphen after a digit
    // (a range) stays, and a hyphen inside a line is text.
    assert_eq!(
        paras[0].1,
        "The system keeps all information about the years 1990- 2000 in one well-kept store."
    );
}

/// The paragraphs of a page of `lines`, 10-point words at the left margin, 12 units
/// apart.
fn paragraphs_of_lines(lines: &[&str]) -> Vec<(ParagraphKind, String)> {
    let mut runs = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        words(&mut runs, 72.0, 100.0 + 12.0 * i as f32, 10.0, false, l);
    }
    paragraphs(&read(&[page(1, runs)]))
}

#[test]
fn a_hyphenated_name_broken_at_its_hyphen_keeps_it() {
    let paras = paragraphs_of_lines(&[
        "The sub-projects docx4j-",
        "documents4j-remote and the well-",
        "known docs-",
        "tool ship here.",
    ]);
    assert_eq!(paras.len(), 1, "{paras:?}");
    // A name with digits (or whose continuation has its own hyphen) keeps its hyphen;
    // words of letters are joined, as hyphenation broke them.
    assert_eq!(
        paras[0].1,
        "The sub-projects docx4j-documents4j-remote and the wellknown docstool ship here."
    );
}

#[test]
fn contents_entries_are_lines_of_their_own_with_one_leader_each() {
    let paras = paragraphs_of_lines(&[
        "Introduction ........................................ 1",
        "Scope of the work ................................... 3",
        "Appendix . . . . . . . . . . . . . . . . . . . . . . iv",
        "Ellipses... in a sentence stay as they are.",
    ]);
    let texts: Vec<&str> = paras.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(
        texts,
        [
            "Introduction … 1",
            "Scope of the work … 3",
            "Appendix … iv",
            "Ellipses... in a sentence stay as they are."
        ]
    );
}

#[test]
fn a_bold_contents_entry_is_not_a_heading() {
    let mut runs = Vec::new();
    words(
        &mut runs,
        72.0,
        80.0,
        10.0,
        false,
        "Body text comes first on the page.",
    );
    words(
        &mut runs,
        72.0,
        110.0,
        12.0,
        true,
        "1 Introduction .............. 1",
    );
    words(
        &mut runs,
        72.0,
        130.0,
        12.0,
        true,
        "2 Methods ................... 4",
    );
    words(
        &mut runs,
        72.0,
        160.0,
        10.0,
        false,
        "More body text to set the body size here.",
    );
    words(
        &mut runs,
        72.0,
        172.0,
        10.0,
        false,
        "And another line of ordinary body text.",
    );
    let paras = paragraphs(&read(&[page(1, runs)]));
    let entries: Vec<&(ParagraphKind, String)> =
        paras.iter().filter(|p| p.1.contains('…')).collect();
    assert_eq!(entries.len(), 2, "{paras:?}");
    assert!(
        entries.iter().all(|p| p.0 == ParagraphKind::Normal),
        "{entries:?}"
    );
}

#[test]
fn ligature_glyphs_are_written_as_their_letters() {
    let paras =
        paragraphs_of_lines(&["The \u{FB01}nal e\u{FB00}ort and\u{FB03}liation \u{FB02}ows."]);
    assert_eq!(paras[0].1, "The final effort andffiliation flows.");
}

#[test]
fn paragraph_breaks_from_spacing_and_indent() {
    let mut runs = Vec::new();
    words(
        &mut runs,
        72.0,
        100.0,
        10.0,
        false,
        "First paragraph starts here and goes on to the right edge",
    );
    words(
        &mut runs,
        72.0,
        112.0,
        10.0,
        false,
        "and ends on this shorter line.",
    );
    // Extra space before the second paragraph.
    words(
        &mut runs,
        72.0,
        136.0,
        10.0,
        false,
        "Second paragraph after a gap that goes on to the edge",
    );
    words(
        &mut runs,
        72.0,
        148.0,
        10.0,
        false,
        "and it also goes on to the edge of the text column",
    );
    // A first-line indent, no extra space.
    words(
        &mut runs,
        90.0,
        160.0,
        10.0,
        false,
        "Third paragraph is indented and goes on to the edge",
    );
    words(
        &mut runs,
        72.0,
        172.0,
        10.0,
        false,
        "and has a second line.",
    );
    let paras = paragraphs(&read(&[page(1, runs)]));
    let texts: Vec<&str> = paras.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts[0].starts_with("First") && texts[0].ends_with("shorter line."));
    assert!(texts[1].starts_with("Second") && texts[1].ends_with("text column"));
    assert!(texts[2].starts_with("Third") && texts[2].ends_with("second line."));
}

#[test]
fn headings_from_type_size_bold_and_outline() {
    let mut runs = Vec::new();
    words(&mut runs, 72.0, 80.0, 20.0, false, "Introduction");
    body(
        &mut runs,
        72.0,
        110.0,
        &[
            "Body text of the introduction that runs on.",
            "More body text of the introduction here.",
        ],
    );
    words(&mut runs, 72.0, 160.0, 14.0, false, "Background");
    body(
        &mut runs,
        72.0,
        185.0,
        &[
            "Body text of the background section.",
            "And another line of background text.",
        ],
    );
    words(&mut runs, 72.0, 230.0, 10.0, true, "Method details");
    body(
        &mut runs,
        72.0,
        245.0,
        &[
            "Body text of the method section goes here.",
            "And one more line of the method text.",
        ],
    );
    words(
        &mut runs,
        72.0,
        290.0,
        10.0,
        false,
        "Results and discussion",
    );
    body(
        &mut runs,
        72.0,
        305.0,
        &[
            "Body text of the results, long enough to count.",
            "And the final line of the results text.",
        ],
    );
    let outline = [OutlineEntry {
        title: "Results and Discussion".into(),
        level: 2,
        page: 1,
    }];
    let doc = layout(&[page(1, runs)], &outline, &Limits::default()).unwrap();
    let paras = paragraphs(&doc);
    let kind_of = |s: &str| {
        paras
            .iter()
            .find(|p| p.1 == s)
            .map(|p| p.0.clone())
            .unwrap_or_else(|| panic!("{s:?} not a paragraph of its own: {paras:?}"))
    };
    assert_eq!(kind_of("Introduction"), ParagraphKind::Heading(1));
    assert_eq!(kind_of("Background"), ParagraphKind::Heading(2));
    assert_eq!(kind_of("Method details"), ParagraphKind::Heading(3));
    // Body size, not bold: a heading only because the outline names it.
    assert_eq!(kind_of("Results and discussion"), ParagraphKind::Heading(2));
    assert_eq!(
        kind_of("Body text of the method section goes here. And one more line of the method text."),
        ParagraphKind::Normal
    );
}

#[test]
fn bullet_and_numbered_lists() {
    let mut runs = Vec::new();
    body(&mut runs, 72.0, 100.0, &["Things to buy:"]);
    words(&mut runs, 72.0, 124.0, 10.0, false, "•");
    words(&mut runs, 84.0, 124.0, 10.0, false, "Milk from the farm");
    words(&mut runs, 72.0, 136.0, 10.0, false, "•");
    words(&mut runs, 84.0, 136.0, 10.0, false, "Bread");
    words(&mut runs, 72.0, 160.0, 10.0, false, "1. Wake up early");
    words(&mut runs, 72.0, 172.0, 10.0, false, "2) Make coffee");
    words(&mut runs, 84.0, 184.0, 10.0, false, "(a) Grind the beans");
    words(&mut runs, 72.0, 196.0, 10.0, false, "3. Drink it");
    let paras = paragraphs(&read(&[page(1, runs)]));
    let item = |ordered, level, number| ParagraphKind::ListItem {
        ordered,
        level,
        number,
    };
    assert_eq!(
        paras,
        vec![
            (ParagraphKind::Normal, "Things to buy:".to_string()),
            (item(false, 0, 0), "Milk from the farm".into()),
            (item(false, 0, 0), "Bread".into()),
            (item(true, 0, 1), "Wake up early".into()),
            (item(true, 0, 2), "Make coffee".into()),
            (item(true, 1, 1), "Grind the beans".into()),
            (item(true, 0, 3), "Drink it".into()),
        ]
    );
}

#[test]
fn bullets_set_off_by_a_tab_are_a_list_not_a_table() {
    let mut runs = Vec::new();
    for (i, t) in ["First point of three", "Second point", "Third point"]
        .iter()
        .enumerate()
    {
        let y = 100.0 + 12.0 * i as f32;
        // The bullet and its text two ems apart: fragments of their own.
        runs.push(run("•", 72.0, y, 10.0, false));
        words(&mut runs, 92.0, y, 10.0, false, t);
    }
    // A wrapped item line hangs under the item's text.
    words(&mut runs, 92.0, 136.0, 10.0, false, "which wraps");
    let doc = read(&[page(1, runs)]);
    assert!(tables(&doc).is_empty(), "{:?}", doc.body);
    let item = ParagraphKind::ListItem {
        ordered: false,
        level: 0,
        number: 0,
    };
    assert_eq!(
        paragraphs(&doc),
        [
            (item.clone(), "First point of three".to_string()),
            (item.clone(), "Second point".into()),
            (item, "Third point which wraps".into()),
        ]
    );
}

#[test]
fn running_header_and_footer_become_parts() {
    let pages: Vec<PageRuns> = (1..=3)
        .map(|n| {
            let mut runs = Vec::new();
            words(&mut runs, 72.0, 40.0, 9.0, false, "Journal of Layout Tests");
            let lines: Vec<String> = (1..=5)
                .map(|i| format!("Body of page {n}, line {i}, with text."))
                .collect();
            body(
                &mut runs,
                72.0,
                100.0,
                &lines.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            words(&mut runs, 280.0, 760.0, 9.0, false, &format!("Page {n}"));
            page(n, runs)
        })
        .collect();
    let doc = read(&pages);
    let part_text = |k: PartKind| {
        doc.parts
            .iter()
            .filter(|p| p.kind == k)
            .flat_map(|p| p.blocks.iter().map(plain))
            .collect::<Vec<_>>()
    };
    assert_eq!(part_text(PartKind::Header), ["Journal of Layout Tests"]);
    assert_eq!(part_text(PartKind::Footer), ["Page 1"]);
    let text = doc.body_text();
    assert!(
        !text.contains("Journal") && !text.contains("Page "),
        "{text}"
    );
    for n in 1..=3 {
        for i in 1..=5 {
            assert!(
                text.contains(&format!("Body of page {n}, line {i}, with text.")),
                "{text}"
            );
        }
    }
    // Pages are exact: a page break before pages 2 and 3, and each page's text after
    // as many breaks as its number minus one.
    let mut page_no = 1;
    for b in &doc.body {
        match b {
            Block::PageBreak => page_no += 1,
            other => assert!(
                plain(other).contains(&format!("page {page_no},")),
                "{other:?} on {page_no}"
            ),
        }
    }
    assert_eq!(page_no, 3);
    assert_eq!(doc.pagination.source, PageSource::Pdf);
}

/// Rules drawing a grid with corners at `xs` x `ys`.
fn grid(xs: &[f32], ys: &[f32]) -> Vec<Rule> {
    let (x0, x1) = (xs[0], xs[xs.len() - 1]);
    let (y0, y1) = (ys[0], ys[ys.len() - 1]);
    let mut rules: Vec<Rule> = ys
        .iter()
        .map(|&y| Rule {
            x0,
            y0: y,
            x1,
            y1: y,
        })
        .collect();
    rules.extend(xs.iter().map(|&x| Rule {
        x0: x,
        y0,
        x1: x,
        y1,
    }));
    rules
}

#[test]
fn ruled_three_by_three_table() {
    let xs = [72.0, 172.0, 272.0, 372.0];
    let ys = [200.0, 220.0, 240.0, 260.0];
    let cells = [
        ["Item", "Qty", "Price"],
        ["Apple", "3", "1.20"],
        ["Pear", "12", "0.80"],
    ];
    let mut runs = Vec::new();
    body(&mut runs, 72.0, 100.0, &["Text before the table."]);
    for (r, row) in cells.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            // Cells a few units apart: only the rules tell them apart.
            words(&mut runs, xs[c] + 3.0, ys[r] + 14.0, 10.0, r == 0, text);
        }
    }
    body(&mut runs, 72.0, 300.0, &["Text after the table."]);
    let mut p = page(1, runs);
    p.rules = grid(&xs, &ys);
    let doc = read(&[p]);
    let ts = tables(&doc);
    assert_eq!(ts.len(), 1, "{:?}", doc.body);
    assert_eq!(
        cell_texts(ts[0]),
        [
            ["Item", "Qty", "Price"],
            ["Apple", "3", "1.20"],
            ["Pear", "12", "0.80"]
        ]
    );
    assert!(ts[0].rows[0].header && !ts[0].rows[1].header);
    let text = doc.body_text();
    assert!(text.find("Text before").unwrap() < text.find("Apple").unwrap());
    assert!(text.find("Apple").unwrap() < text.find("Text after").unwrap());
}

/// `p` (an upright page) as drawn turned a quarter onto a page of its height and
/// width, its text reading upward: (x, y) goes to (y, width - x).
fn turned_up(p: &PageRuns) -> PageRuns {
    let w = p.width;
    PageRuns {
        width: p.height,
        height: p.width,
        runs: p
            .runs
            .iter()
            .map(|r| TextRun {
                x: r.y,
                y: w - r.x,
                dir: [0.0, -1.0],
                ..r.clone()
            })
            .collect(),
        rules: p
            .rules
            .iter()
            .map(|r| Rule {
                x0: r.y0,
                y0: w - r.x0,
                x1: r.y1,
                y1: w - r.x1,
            })
            .collect(),
        ..p.clone()
    }
}

#[test]
fn a_table_turned_onto_the_page_is_read_as_upright() {
    let xs = [72.0, 272.0, 472.0, 672.0];
    let ys = [200.0, 220.0, 240.0];
    let mut runs = Vec::new();
    body(&mut runs, 72.0, 100.0, &["A wide table, set in landscape."]);
    for (r, row) in [["Region", "2023", "2024"], ["North", "1,204", "1,377"]]
        .iter()
        .enumerate()
    {
        for (c, text) in row.iter().enumerate() {
            words(&mut runs, xs[c] + 3.0, ys[r] + 14.0, 10.0, false, text);
        }
    }
    // Upright, the page is landscape (792 x 612).
    let mut upright = page(1, runs);
    (upright.width, upright.height) = (792.0, 612.0);
    upright.rules = grid(&xs, &ys);
    let turned = turned_up(&upright);
    let (a, b) = (read(&[upright]), read(&[turned]));
    assert_eq!(
        cell_texts(tables(&b)[0]),
        [["Region", "2023", "2024"], ["North", "1,204", "1,377"]]
    );
    assert_eq!(a.body, b.body);
}

#[test]
fn text_in_other_directions_follows_the_main_text_each_in_its_own_lines() {
    let mut runs = Vec::new();
    body(
        &mut runs,
        72.0,
        100.0,
        &[
            "The body of the page is set upright",
            "in two lines of ordinary text.",
        ],
    );
    // A caption reading downward along the right margin, in two runs.
    let down = |text: &str, y: f32| TextRun {
        x: 580.0,
        y,
        dir: [0.0, 1.0],
        ..run(text, 0.0, 0.0, 9.0, false)
    };
    runs.push(down("Figure 3, turned", 100.0));
    runs.push(down("to fit.", 100.0 + width("Figure 3, turned ", 9.0)));
    // A diagonal watermark across the page: one run at 45 degrees.
    runs.push(TextRun {
        dir: [1.0, -1.0],
        ..run("DRAFT", 150.0, 600.0, 60.0, false)
    });
    let doc = read(&[page(1, runs)]);
    let paras: Vec<String> = paragraphs(&doc).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        paras,
        [
            "The body of the page is set upright in two lines of ordinary text.",
            "Figure 3, turned to fit.",
            "DRAFT",
        ]
    );
}

#[test]
fn a_tagged_pdf_s_structure_decides_paragraphs_and_headings() {
    // Five lines at even spacing, four of body size: geometry alone joins them.
    // The structure tree says: a level-2 heading, a paragraph of two lines (the
    // second inside a Span), a one-line paragraph, and a large-type line tagged as
    // a paragraph (a pull quote, not a heading).
    let el = |role: &str, parent: Option<u32>| Element {
        role: role.into(),
        parent,
    };
    let elements = vec![
        el("Document", None),
        el("Sect", Some(0)),
        el("H2", Some(1)),
        el("P", Some(1)),
        el("Span", Some(3)),
        el("P", Some(1)),
        el("P", Some(1)),
    ];
    let lines = [
        ("Scope of the service", 2),
        ("The contractor cleans the hall", 3),
        ("and the yard every morning.", 4),
        ("Payment follows each month", 5),
        ("A large pull quote.", 6),
    ];
    let mut runs = Vec::new();
    for (i, (text, element)) in lines.iter().enumerate() {
        let size = if i == 4 { 20.0 } else { 10.0 };
        let y = 100.0 + 12.0 * i as f32 + if i == 4 { 20.0 } else { 0.0 };
        let mut line = Vec::new();
        words(&mut line, 72.0, y, size, false, text);
        for r in &mut line {
            r.element = Some(*element);
        }
        runs.extend(line);
    }
    let mut p = page(1, runs);
    p.elements = elements;
    let doc = read(&[p.clone()]);
    assert_eq!(
        paragraphs(&doc),
        [
            (ParagraphKind::Heading(2), "Scope of the service".into()),
            (
                ParagraphKind::Normal,
                "The contractor cleans the hall and the yard every morning.".into()
            ),
            (ParagraphKind::Normal, "Payment follows each month".into()),
            (ParagraphKind::Normal, "A large pull quote.".into()),
        ]
    );
    // Untagged, the same page is read by geometry.
    for r in &mut p.runs {
        r.element = None;
    }
    p.elements.clear();
    let untagged = paragraphs(&read(&[p]));
    assert_ne!(untagged, paragraphs(&doc));
}

#[test]
fn ruled_table_with_a_merged_cell() {
    let xs = [72.0, 172.0, 272.0];
    let ys = [200.0, 220.0, 240.0];
    let mut rules = vec![
        Rule {
            x0: 72.0,
            y0: 200.0,
            x1: 272.0,
            y1: 200.0,
        },
        Rule {
            x0: 72.0,
            y0: 220.0,
            x1: 272.0,
            y1: 220.0,
        },
        Rule {
            x0: 72.0,
            y0: 240.0,
            x1: 272.0,
            y1: 240.0,
        },
        Rule {
            x0: 72.0,
            y0: 200.0,
            x1: 72.0,
            y1: 240.0,
        },
        Rule {
            x0: 272.0,
            y0: 200.0,
            x1: 272.0,
            y1: 240.0,
        },
    ];
    // The middle rule only in the second row: the first row is one merged cell.
    rules.push(Rule {
        x0: 172.0,
        y0: 220.0,
        x1: 172.0,
        y1: 240.0,
    });
    let mut runs = Vec::new();
    words(&mut runs, 75.0, 214.0, 10.0, false, "Merged heading");
    words(&mut runs, xs[0] + 3.0, ys[1] + 14.0, 10.0, false, "left");
    words(&mut runs, xs[1] + 3.0, ys[1] + 14.0, 10.0, false, "right");
    let mut p = page(1, runs);
    p.rules = rules;
    let doc = read(&[p]);
    let t = tables(&doc)[0];
    assert_eq!(
        cell_texts(t),
        vec![vec!["Merged heading"], vec!["left", "right"]]
    );
    assert_eq!(t.rows[0].cells[0].col_span, 2);
}

#[test]
fn unruled_aligned_table() {
    let mut runs = Vec::new();
    body(&mut runs, 72.0, 100.0, &["The staff list follows."]);
    let rows = [
        ["Name", "Age", "City"],
        ["Alice", "30", "Paris"],
        ["Bob", "4", "Lyon"],
        ["Carol", "100", "Nice"],
    ];
    for (r, row) in rows.iter().enumerate() {
        let y = 130.0 + 14.0 * r as f32;
        words(&mut runs, 72.0, y, 10.0, r == 0, row[0]);
        // Numbers right-aligned at x = 260.
        words(
            &mut runs,
            260.0 - width(row[1], 10.0),
            y,
            10.0,
            r == 0,
            row[1],
        );
        words(&mut runs, 330.0, y, 10.0, r == 0, row[2]);
    }
    body(&mut runs, 72.0, 210.0, &["That was the list."]);
    let doc = read(&[page(1, runs)]);
    let ts = tables(&doc);
    assert_eq!(ts.len(), 1, "{:?}", doc.body);
    assert_eq!(
        cell_texts(ts[0]),
        [
            ["Name", "Age", "City"],
            ["Alice", "30", "Paris"],
            ["Bob", "4", "Lyon"],
            ["Carol", "100", "Nice"]
        ]
    );
    assert!(ts[0].rows[0].header);
    let paras = paragraphs(&doc);
    assert_eq!(
        paras.first().map(|p| p.1.as_str()),
        Some("The staff list follows.")
    );
    assert_eq!(
        paras.last().map(|p| p.1.as_str()),
        Some("That was the list.")
    );
}

#[test]
fn a_rule_under_the_first_row_marks_the_header() {
    // "Booktabs" style: rules above, under the header and below; no vertical rules.
    let mut runs = Vec::new();
    let rows = [
        ["Year", "Sales"],
        ["2022", "10"],
        ["2023", "12"],
        ["2024", "15"],
    ];
    for (r, row) in rows.iter().enumerate() {
        let y = 130.0 + 14.0 * r as f32;
        words(&mut runs, 72.0, y, 10.0, false, row[0]);
        words(&mut runs, 200.0, y, 10.0, false, row[1]);
    }
    let mut p = page(1, runs);
    p.rules = [118.0, 133.5, 178.0]
        .iter()
        .map(|&y| Rule {
            x0: 70.0,
            y0: y,
            x1: 240.0,
            y1: y,
        })
        .collect();
    let doc = read(&[p]);
    let t = tables(&doc);
    assert_eq!(t.len(), 1, "{:?}", doc.body);
    assert_eq!(cell_texts(t[0])[0], ["Year", "Sales"]);
    assert_eq!(
        t[0].rows.iter().map(|r| r.header).collect::<Vec<_>>(),
        [true, false, false, false]
    );
}

#[test]
fn footnote_is_tied_to_its_marker() {
    let mut runs = Vec::new();
    let end = words(
        &mut runs,
        72.0,
        100.0,
        10.0,
        false,
        "This claim needs a source",
    );
    // The reference: smaller, raised.
    runs.push(run("1", end, 96.5, 6.0, false));
    words(&mut runs, end + 6.0, 100.0, 10.0, false, "and more text.");
    body(
        &mut runs,
        72.0,
        112.0,
        &["A second line of the body text here."],
    );
    // The note at the page foot, in 8-unit type, opening with its marker.
    runs.push(run("1", 72.0, 737.0, 5.0, false));
    words(
        &mut runs,
        76.0,
        740.0,
        8.0,
        false,
        "See the appendix for details.",
    );
    let doc = read(&[page(1, runs)]);
    assert_eq!(doc.notes.len(), 1, "{:?}", doc.body);
    let note = &doc.notes[0];
    assert_eq!((note.kind, note.id.as_str()), (NoteKind::Footnote, "1"));
    assert_eq!(plain(&note.blocks[0]), "See the appendix for details.");
    let Block::Paragraph(p) = &doc.body[0] else {
        panic!("{:?}", doc.body)
    };
    let at = p
        .inlines
        .iter()
        .position(|i| matches!(i, Inline::NoteRef { kind: NoteKind::Footnote, id } if id == "1"))
        .expect("a note reference");
    let mut before = String::new();
    p.inlines[..at]
        .iter()
        .for_each(|i| i.plain_text(&mut before));
    assert_eq!(before.trim_end(), "This claim needs a source");
    assert!(!doc.body_text().contains("appendix"));
}

#[test]
fn below_a_short_separator_a_body_size_line_is_a_note() {
    let mut runs = Vec::new();
    let end = words(&mut runs, 72.0, 100.0, 10.0, false, "The claim");
    runs.push(run("1", end, 96.5, 6.0, false));
    words(&mut runs, end + 6.0, 100.0, 10.0, false, "stands.");
    // The note set at the body size, under a rule a third of the text width long,
    // as word processors print footnotes.
    runs.push(run("1", 72.0, 737.0, 6.0, false));
    words(
        &mut runs,
        78.0,
        740.0,
        10.0,
        false,
        "Shown in the second survey.",
    );
    let mut p = page(1, runs);
    p.rules.push(Rule {
        x0: 72.0,
        y0: 725.0,
        x1: 216.0,
        y1: 725.0,
    });
    let doc = read(&[p.clone()]);
    assert_eq!(doc.notes.len(), 1, "{:?}", doc.body);
    assert_eq!(
        plain(&doc.notes[0].blocks[0]),
        "Shown in the second survey."
    );
    assert!(!doc.body_text().contains("survey"));
    // Without the separator, a line at the body size is body text.
    p.rules.clear();
    assert!(read(&[p]).body_text().contains("survey"));
}

#[test]
fn cjk_lines_get_no_spaces() {
    let mut runs = Vec::new();
    let mut x = 72.0;
    for (i, c) in "日本語のテキストです".chars().enumerate() {
        // Runs of one glyph each, some a little apart.
        let mut r = run(&c.to_string(), x, 100.0, 10.0, false);
        r.width = 10.0;
        runs.push(r);
        x += if i % 3 == 0 { 13.0 } else { 10.0 };
    }
    let doc = read(&[page(1, runs)]);
    assert_eq!(doc.body_text(), "日本語のテキストです\n");
}

#[test]
fn fake_bold_overprint_is_read_once() {
    let mut runs = Vec::new();
    words(&mut runs, 72.0, 100.0, 10.0, false, "Plain and");
    let mut over = Vec::new();
    words(&mut over, 120.0, 100.0, 10.0, false, "heavy words");
    for r in &over {
        let mut copy = r.clone();
        copy.x += 0.3;
        runs.push(r.clone());
        runs.push(copy);
    }
    let doc = read(&[page(1, runs)]);
    assert_eq!(doc.body_text(), "Plain and heavy words\n");
    let Block::Paragraph(p) = &doc.body[0] else {
        panic!()
    };
    assert!(p.inlines.iter().any(
        |i| matches!(i, Inline::Text { text, style } if text.contains("heavy") && style.bold)
    ));
}

#[test]
fn garbage_input_never_panics() {
    assert_eq!(read(&[]).body, Vec::<Block>::new());
    let bad = |x: f32, y: f32, w: f32, h: f32, t: &str| TextRun {
        text: t.into(),
        x,
        y,
        width: w,
        height: h,
        font: String::new(),
        bold: false,
        italic: false,
        dir: [1.0, 0.0],
        element: None,
    };
    let runs = vec![
        bad(f32::NAN, 100.0, 10.0, 10.0, "nan x"),
        bad(72.0, f32::INFINITY, 10.0, 10.0, "inf y"),
        bad(72.0, 100.0, -5.0, 10.0, "negative width"),
        bad(72.0, 100.0, 10.0, 0.0, "no size"),
        bad(72.0, 100.0, 10.0, f32::NAN, "nan size"),
        bad(1e30, 100.0, 10.0, 10.0, "far away"),
        bad(-900.0, -900.0, 10.0, 10.0, "off the page"),
        bad(72.0, 100.0, 10.0, 10.0, ""),
        bad(72.0, 100.0, 10.0, 10.0, "\u{0}\u{1}   "),
        bad(72.0, 120.0, 0.0, 10.0, "kept"),
        // No usable direction reads as upright.
        TextRun {
            dir: [f32::NAN, 0.0],
            ..bad(72.0, 160.0, 0.0, 10.0, "upright")
        },
        TextRun {
            dir: [0.0, 0.0],
            ..bad(72.0, 200.0, 0.0, 10.0, "too")
        },
    ];
    let mut p = page(1, runs);
    p.rules = vec![
        Rule {
            x0: f32::NAN,
            y0: 0.0,
            x1: 1.0,
            y1: 0.0,
        },
        Rule {
            x0: 0.0,
            y0: 0.0,
            x1: f32::INFINITY,
            y1: 0.0,
        },
        Rule {
            x0: 5.0,
            y0: 5.0,
            x1: 5.0,
            y1: 5.0,
        },
    ];
    // No page size: the text's own extent stands in.
    let mut no_size = page(2, vec![bad(72.0, 120.0, 20.0, 10.0, "also kept")]);
    (no_size.width, no_size.height) = (f32::NAN, -1.0);
    let empty = PageRuns {
        number: 0,
        width: -1.0,
        height: 0.0,
        runs: Vec::new(),
        rules: Vec::new(),
        elements: Vec::new(),
    };
    let doc = layout(&[p, no_size, empty.clone(), empty], &[], &Limits::default()).unwrap();
    assert_eq!(doc.body_text(), "kept\nupright\ntoo\nalso kept\n");
    assert_eq!(
        doc.body.iter().filter(|b| **b == Block::PageBreak).count(),
        3
    );
    let codes: Vec<&str> = doc.warnings.iter().map(|w| w.code).collect();
    assert!(
        codes.contains(&"pdf-bad-runs") && codes.contains(&"pdf-page-numbers"),
        "{codes:?}"
    );
    // Limits give typed errors.
    let tight = Limits {
        max_pages: 2,
        ..Limits::default()
    };
    let three: Vec<PageRuns> = (1..=3).map(|n| page(n, Vec::new())).collect();
    assert!(matches!(
        layout(&three, &[], &tight),
        Err(ConvertError::TooManyElements { .. })
    ));
    let far = [page(u32::MAX, Vec::new())];
    assert!(matches!(
        layout(&far, &[], &Limits::default()),
        Err(ConvertError::TooManyElements { .. })
    ));
    let small = Limits {
        max_input_bytes: 100,
        ..Limits::default()
    };
    let mut runs = Vec::new();
    body(
        &mut runs,
        72.0,
        100.0,
        &["a line of text long enough to pass the limit"],
    );
    assert!(matches!(
        layout(&[page(1, runs)], &[], &small),
        Err(ConvertError::TooLarge { .. })
    ));
    let few = Limits {
        max_elements: 50,
        ..Limits::default()
    };
    let many: Vec<TextRun> = (0..200)
        .map(|i| {
            run(
                "w",
                72.0 + 6.0 * (i % 50) as f32,
                100.0 + 12.0 * (i / 50) as f32,
                10.0,
                false,
            )
        })
        .collect();
    let e = layout(&[page(1, many)], &[], &few).unwrap_err();
    assert_eq!(e.code(), "too-large");
}

#[test]
fn output_is_deterministic() {
    let mut runs = Vec::new();
    for i in 0..40 {
        let y = 80.0 + 14.0 * i as f32;
        words(
            &mut runs,
            72.0 + (i % 3) as f32 * 40.0,
            y,
            9.0 + (i % 4) as f32,
            i % 5 == 0,
            &format!("w{i} alpha beta"),
        );
    }
    let pages = [page(1, runs.clone()), page(2, runs)];
    assert_eq!(read(&pages), read(&pages));
}

#[test]
fn chunks_carry_the_page_their_text_is_on() {
    let pages: Vec<PageRuns> = (1..=3)
        .map(|n| {
            let mut runs = Vec::new();
            let lines: Vec<String> = (1..=40)
                .map(|i| format!("Page {n} sentence {i} says something about topic {n}."))
                .collect();
            body(
                &mut runs,
                72.0,
                80.0,
                &lines.iter().map(String::as_str).collect::<Vec<_>>(),
            );
            page(n, runs)
        })
        .collect();
    let doc = read(&pages);
    let opts = ConvertOptions::new().with_max_tokens(128).unwrap();
    let finder = SimpleNameFinder::new(Vec::new(), Vec::new());
    let chunks = chunk_document(&doc, "pdf-1", "Layout", &opts, &finder).unwrap();
    assert!(chunks.len() >= 6, "{} chunks", chunks.len());
    for n in 1..=3i64 {
        // A chunk holding the middle of page n started on page n (a chunk holds about
        // ten of these sentences) and ends there.
        let c = chunks
            .iter()
            .find(|c| c.text.contains(&format!("Page {n} sentence 30 ")))
            .unwrap_or_else(|| panic!("page {n} text not chunked"));
        assert_eq!(c.metadata.get_int("firstPage"), Some(n), "{}", c.text);
        assert_eq!(c.metadata.get_int("lastPage"), Some(n), "{}", c.text);
        assert_eq!(c.metadata.get_str("pageSource"), Some("pdf"));
    }
}

// ---------- robustness ----------

use proptest::prelude::*;

/// Coordinates: mostly plausible, sometimes hostile.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => 0.0f32..700.0,
        1 => prop::sample::select(vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -50.0,
            0.0,
            1.0e7,
            f32::MIN_POSITIVE,
            -0.0,
        ]),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "word", "Title", "infor-", "mation", "•", "1.", "(iv)", "a)", "1", "*", "日本", "語", "",
        " ", "\u{AD}", "Page 3", "-", "–", "x\u{0}y", "\u{F0B7}", "12", "end.",
    ])
    .prop_map(String::from)
}

fn any_run() -> impl Strategy<Value = TextRun> {
    (
        text(),
        coord(),
        coord(),
        coord(),
        prop_oneof![4 => 4.0f32..30.0, 1 => coord()],
        any::<bool>(),
        prop_oneof![3 => Just([1.0f32, 0.0]), 1 => (coord(), coord()).prop_map(|(a, b)| [a, b])],
        prop::option::of(0u32..10),
    )
        .prop_map(|(text, x, y, width, height, bold, dir, element)| TextRun {
            text,
            x,
            y,
            width: width / 4.0,
            height,
            font: String::new(),
            bold,
            italic: false,
            dir,
            element,
        })
}

fn any_page() -> impl Strategy<Value = PageRuns> {
    (
        0u32..6,
        coord(),
        coord(),
        prop::collection::vec(any_run(), 0..60),
        prop::collection::vec((coord(), coord(), coord(), coord()), 0..12),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "P", "H1", "H3", "Span", "LI", "Lbl", "LBody", "L", "Sect",
                ]),
                prop::option::of(0u32..12),
            ),
            0..8,
        ),
    )
        .prop_map(|(number, width, height, runs, rules, elements)| PageRuns {
            number,
            width,
            height,
            runs,
            rules: rules
                .into_iter()
                .map(|(x0, y0, x1, y1)| Rule { x0, y0, x1, y1 })
                .collect(),
            elements: elements
                .into_iter()
                .map(|(role, parent)| Element {
                    role: role.into(),
                    parent,
                })
                .collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn any_input_reads_without_panicking(pages in prop::collection::vec(any_page(), 0..4)) {
        let outline = [OutlineEntry { title: "word".into(), level: 0, page: 1 }];
        let a = layout(&pages, &outline, &Limits::default());
        let b = layout(&pages, &outline, &Limits::default());
        prop_assert_eq!(a, b);
    }
}

#[test]
fn a_crowded_page_reads_every_word_once() {
    // 40,000 runs on one page: a grid of words, each overprinted, under a ruled grid
    // of 1,000 rules. (Its cost is a benchmark's matter, not a test's.)
    let mut runs = Vec::new();
    for i in 0..200 {
        for j in 0..100 {
            let r = run(
                "ab",
                10.0 + 6.0 * j as f32,
                10.0 + 3.9 * i as f32,
                4.0,
                false,
            );
            runs.push(r.clone());
            runs.push(r);
        }
    }
    let mut p = page(1, runs);
    p.rules = (0..500)
        .flat_map(|k| {
            let at = 10.0 + 1.5 * k as f32;
            [
                Rule {
                    x0: 10.0,
                    y0: at,
                    x1: 600.0,
                    y1: at,
                },
                Rule {
                    x0: at,
                    y0: 10.0,
                    x1: at,
                    y1: 780.0,
                },
            ]
        })
        .collect();
    let doc = layout(&[p], &[], &Limits::default()).expect("a crowded page reads");
    // Each overprinted pair is read once: 20,000 words of "ab", in cells or lines.
    let mut text = String::new();
    for (_, t) in paragraphs(&doc) {
        text.push_str(&t);
        text.push(' ');
    }
    for t in tables(&doc) {
        for row in cell_texts(t) {
            text.push_str(&row.join(" "));
            text.push(' ');
        }
    }
    assert_eq!(text.matches("ab").count(), 20_000);
}

/// One page of a two-column paper: running header and page number, a title, an
/// abstract across both columns, numbered section headings, a footnote.
fn paper_page(n: u32) -> PageRuns {
    let mut runs = Vec::new();
    words(
        &mut runs,
        72.0,
        40.0,
        8.0,
        false,
        "Proceedings of the Layout Workshop",
    );
    words(&mut runs, 530.0, 40.0, 8.0, false, &n.to_string());
    if n == 1 {
        words(
            &mut runs,
            180.0,
            90.0,
            16.0,
            true,
            "Reading Order in Two Columns",
        );
        words(
            &mut runs,
            230.0,
            112.0,
            11.0,
            false,
            "Ann Author and Bob Writer",
        );
        let abs = [
            "Abstract. We show how the lines of a page are put back in the order that a person",
            "reads them, even when the page is set in two columns with an abstract over both",
            "of them and a note at the foot of the first column.",
        ];
        for (i, l) in abs.iter().enumerate() {
            words(&mut runs, 72.0, 140.0 + 11.0 * i as f32, 9.0, false, l);
        }
    }
    let left_top = if n == 1 { 200.0 } else { 80.0 };
    words(
        &mut runs,
        72.0,
        left_top,
        12.0,
        true,
        &format!("{n} Introduction part {n}"),
    );
    let left: Vec<String> = (1..=20)
        .map(|i| format!("Left text {i:02} of section {n} in the column."))
        .collect();
    body(
        &mut runs,
        72.0,
        left_top + 18.0,
        &left.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // A note reference after line 3's text.
    let y3 = left_top + 18.0 + 24.0;
    let end3 =
        72.0 + width("Left text 03 of section 1 in the column.", 10.0) - 12.0 * SPACE * 10.0 / 4.0;
    runs.push(run("1", end3 + 2.0, y3 - 3.5, 6.0, false));
    words(
        &mut runs,
        318.0,
        left_top,
        12.0,
        true,
        &format!("{} Method part {n}", n + 1),
    );
    let right: Vec<String> = (1..=20)
        .map(|i| format!("Right text {i:02} of section {n} in the col."))
        .collect();
    body(
        &mut runs,
        318.0,
        left_top + 18.0,
        &right.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    runs.push(run("1", 72.0, 697.0, 5.0, false));
    words(
        &mut runs,
        76.0,
        700.0,
        8.0,
        false,
        &format!("A note on page {n} about the text."),
    );
    words(
        &mut runs,
        290.0,
        760.0,
        8.0,
        false,
        &format!("Page {n} of 2"),
    );
    page(n, runs)
}

#[test]
fn a_two_column_paper_reads_in_order() {
    let doc = read(&[paper_page(1), paper_page(2)]);
    let paras = paragraphs(&doc);
    let heads: Vec<(ParagraphKind, &str)> = paras
        .iter()
        .filter(|p| matches!(p.0, ParagraphKind::Heading(_)))
        .map(|p| (p.0.clone(), p.1.as_str()))
        .collect();
    let h = ParagraphKind::Heading;
    assert_eq!(
        heads,
        [
            (h(1), "Reading Order in Two Columns"),
            // Set a size above the body, the author line ranks as a heading too.
            (h(3), "Ann Author and Bob Writer"),
            (h(2), "1 Introduction part 1"),
            (h(2), "2 Method part 1"),
            (h(2), "2 Introduction part 2"),
            (h(2), "3 Method part 2"),
        ]
    );
    // The abstract's three lines are one paragraph, though its short last line
    // stands over the left column only.
    assert!(paras[2].1.starts_with("Abstract. We show") && paras[2].1.ends_with("first column."));
    // Each column is one paragraph, left before right, notes and furniture out.
    let text = doc.body_text();
    for n in 1..=2 {
        let left = (1..=20)
            .map(|i| format!("Left text {i:02} of section {n} in the column."))
            .collect::<Vec<_>>()
            .join(" ");
        let right = (1..=20)
            .map(|i| format!("Right text {i:02} of section {n} in the col."))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(paras.iter().any(|p| p.1 == left), "{paras:?}");
        assert!(text.find(&left) < text.find(&right));
    }
    assert!(!text.contains("Proceedings") && !text.contains("A note") && !text.contains("Page 1"));
    assert_eq!(
        doc.body.iter().filter(|b| **b == Block::PageBreak).count(),
        1
    );
    // Ids are unique: the second page's note 1 is told apart by its page.
    let notes: Vec<(&str, String)> = doc
        .notes
        .iter()
        .map(|n| (n.id.as_str(), plain(&n.blocks[0])))
        .collect();
    assert_eq!(
        notes,
        [
            ("1", "A note on page 1 about the text.".to_string()),
            ("1-p2", "A note on page 2 about the text.".to_string()),
        ]
    );
    let refs: Vec<&str> = doc
        .body
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(&p.inlines),
            _ => None,
        })
        .flatten()
        .filter_map(|i| match i {
            Inline::NoteRef { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(refs, ["1", "1-p2"]);
    let part = |k: PartKind| {
        doc.parts
            .iter()
            .filter(|p| p.kind == k)
            .flat_map(|p| p.blocks.iter().map(plain))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        part(PartKind::Header),
        ["Proceedings of the Layout Workshop"]
    );
    assert_eq!(part(PartKind::Footer), ["Page 1 of 2"]);
}
