//! One document in five formats (tests/data/five_formats/, see its README): DOCX,
//! HTML, RTF and Markdown must give the same headings (text and level) and table cell
//! values; all five, plain text included, the same paragraph text (whitespace
//! normalised). Everything goes through `docrag::convert`, the public entry point;
//! headings and cells are read from the same reader's model (`docrag::read::read`).

mod common;
use common::all_blocks;

use docrag::model::*;
use docrag::{ConvertOptions, read};

const HEADINGS: &[(u8, &str)] = &[
    (1, "Orchard Survey 2024"),
    (2, "Findings"),
    (3, "Yield by variety"),
    (2, "Next steps"),
];

const CELLS: &[[&str; 3]] = &[
    ["Variety", "Trees", "Harvest (kg)"],
    ["Bramley", "14", "1260"],
    ["Victoria plum", "9", "415"],
    ["Conference pear", "6", "Zephyr-7731"],
];

const PARAGRAPHS: &[&str] = &[
    "This report summarises the autumn survey of the hillside orchard and the changes planned for next season.",
    "Most trees were healthy, but the old pear row near the stream showed signs of canker and needs pruning before winter.",
    "Apples yielded more fruit than last year.",
    "Plums ripened two weeks early.",
    "Pears suffered from canker on the lower branches.",
    "The table lists the harvest of each variety in kilograms.",
    "The following work is scheduled in this order.",
    "Prune the pear row and burn the cuttings.",
    "Plant four new cider apple trees.",
    "Repeat the survey in September.",
    "Questions about the survey go to the orchard committee.",
];

fn file(ext: &str) -> (String, Vec<u8>) {
    let name = format!("orchard.{ext}");
    let path = format!(
        "{}/tests/data/five_formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    (
        name,
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    )
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text_of(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        b.plain_text(&mut s);
    }
    one_line(&s)
}

/// Converts the file and checks the paragraph text; returns the model for the
/// structural checks.
fn convert_and_read(ext: &str) -> Document {
    let (name, bytes) = file(ext);
    let opts = ConvertOptions::new().with_file_name(&name);
    let out = docrag::convert(&bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = one_line(
        &out.chunks
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    for p in PARAGRAPHS {
        assert!(
            text.contains(p),
            "{name}: paragraph missing: {p}\n--- got:\n{text}"
        );
    }
    read::read(&bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Same headings and table cells as the source document.
fn check_structure(ext: &str) {
    let d = convert_and_read(ext);
    let headings: Vec<(u8, String)> = all_blocks(&d.body)
        .into_iter()
        .filter_map(|b| match b {
            Block::Paragraph(Paragraph {
                kind: ParagraphKind::Heading(n),
                inlines,
            }) => {
                let mut s = String::new();
                inlines.iter().for_each(|i| i.plain_text(&mut s));
                Some((*n, one_line(&s)))
            }
            _ => None,
        })
        .collect();
    let want: Vec<(u8, String)> = HEADINGS.iter().map(|(n, t)| (*n, t.to_string())).collect();
    assert_eq!(headings, want, "orchard.{ext}: headings");

    let tables: Vec<&Table> = all_blocks(&d.body)
        .into_iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(tables.len(), 1, "orchard.{ext}: one table");
    let cells: Vec<Vec<String>> = tables[0]
        .rows
        .iter()
        .map(|r| r.cells.iter().map(|c| text_of(&c.blocks)).collect())
        .collect();
    let want: Vec<Vec<String>> = CELLS
        .iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect();
    assert_eq!(cells, want, "orchard.{ext}: table cells");
    // LibreOffice's RTF export writes no `\trhdr`, so only the other three mark the
    // header row in the file.
    if ext != "rtf" {
        assert!(
            tables[0].rows[0].header,
            "orchard.{ext}: header row flagged"
        );
    }
}

#[test]
fn docx() {
    check_structure("docx");
}

#[test]
fn html() {
    check_structure("html");
}

#[test]
fn rtf() {
    check_structure("rtf");
}

#[test]
fn markdown() {
    check_structure("md");
}

#[test]
fn text() {
    let d = convert_and_read("txt");
    // Plain text shows no headings or tables here (LibreOffice writes one line per
    // paragraph, so the cells are lines of one paragraph); its bulleted and numbered
    // lines are list items.
    let kinds: Vec<&ParagraphKind> = all_blocks(&d.body)
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(&p.kind),
            _ => None,
        })
        .collect();
    assert!(
        kinds
            .iter()
            .all(|k| matches!(k, ParagraphKind::Normal | ParagraphKind::ListItem { .. }))
    );
    assert_eq!(
        kinds
            .iter()
            .filter(|k| matches!(k, ParagraphKind::ListItem { ordered: true, .. }))
            .count(),
        3
    );
    assert_eq!(
        kinds
            .iter()
            .filter(|k| matches!(k, ParagraphKind::ListItem { ordered: false, .. }))
            .count(),
        3
    );
    let body = one_line(&d.body_text());
    for row in CELLS {
        assert!(body.contains(&row.join(" ")), "{row:?}");
    }
}
