//! Headings marked by direct formatting (`read::implied_headings`), over documents each
//! test writes itself: bold lines over body text open sections in DOCX, RTF, HTML and
//! Markdown alike; a document with heading styles, a run of bold title lines, a label
//! with its value and a list of bold items keep their paragraphs.

mod common;
use common::docx_with;
use docrag::model::{Block, Document, Inline, ParagraphKind};
use docrag::{ConvertOptions, Format};

fn read(bytes: &[u8], format: Format) -> Document {
    let o = ConvertOptions::new().with_format(format);
    docrag::read::read(bytes, &o).expect("reads")
}

fn text(inlines: &[Inline]) -> String {
    let mut s = String::new();
    for i in inlines {
        i.plain_text(&mut s);
    }
    s
}

/// (level, text) of every heading of the body.
fn headings(d: &Document) -> Vec<(u8, String)> {
    d.body
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => match p.kind {
                ParagraphKind::Heading(l) => Some((l, text(&p.inlines).trim().to_string())),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn para(runs: &str) -> String {
    format!("<w:p>{runs}</w:p>")
}

fn run(t: &str, bold: bool, underline: bool) -> String {
    let mut pr = String::new();
    if bold {
        pr.push_str("<w:b/>");
    }
    if underline {
        pr.push_str(r#"<w:u w:val="single"/>"#);
    }
    format!(r#"<w:r><w:rPr>{pr}</w:rPr><w:t xml:space="preserve">{t}</w:t></w:r>"#)
}

/// A DOCX of one paragraph per line, each one run: (text, bold, underlined).
fn docx_bytes(lines: &[(&str, bool, bool)]) -> Vec<u8> {
    let body: String = lines.iter().map(|&(t, b, u)| para(&run(t, b, u))).collect();
    docx_with(&body, &[], &[])
}

/// [`docx_bytes`] read into the model.
fn docx_of(lines: &[(&str, bool, bool)]) -> Document {
    read(&docx_bytes(lines), Format::Docx)
}

#[test]
fn bold_lines_over_body_text_open_sections_of_a_docx() {
    let bytes = docx_bytes(&[
        ("Scope of Work", true, false),
        (
            "The contractor coaches the executive team twice a month.",
            false,
            false,
        ),
        ("Qualifications", true, true),
        (
            "The coach holds a master credential and has taught for ten years.",
            false,
            false,
        ),
        ("Payment", true, false),
        ("Invoices are paid monthly.", false, false),
    ]);
    let d = read(&bytes, Format::Docx);
    assert_eq!(
        headings(&d),
        vec![
            (1, "Scope of Work".to_string()),
            (1, "Qualifications".to_string()),
            (1, "Payment".to_string())
        ]
    );
    // The bold was how the heading looked: the heading's text carries no emphasis.
    let conv = docrag::convert(&bytes, &ConvertOptions::new().with_format(Format::Docx))
        .expect("converts");
    let chunk = &conv.chunks[0];
    assert!(chunk.text.contains("# Qualifications\n"), "{}", chunk.text);
    assert!(!chunk.text.contains("**Qualifications**"), "{}", chunk.text);
}

#[test]
fn a_docx_with_heading_styles_keeps_its_bold_lines_as_paragraphs() {
    let styled =
        r#"<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Report</w:t></w:r></w:p>"#;
    let body = [
        styled.to_string(),
        para(&run("Important", true, false)),
        para(&run("Read this first.", false, false)),
        para(&run("Also important", true, false)),
        para(&run("Read this second.", false, false)),
    ]
    .concat();
    let d = read(&docx_with(&body, &[], &[]), Format::Docx);
    assert_eq!(headings(&d), vec![(1, "Report".to_string())]);
}

#[test]
fn only_the_last_of_a_run_of_bold_lines_heads_the_text_after_it() {
    let d = docx_of(&[
        ("Course 527", true, false),
        ("Dr. Ada Lane", true, false),
        ("Homework 13", true, false),
        ("The data come from a trial of 86 patients.", false, false),
        ("SAS Output:", true, false),
        (
            "The tables below were printed by the procedure.",
            false,
            false,
        ),
    ]);
    assert_eq!(
        headings(&d),
        vec![
            (1, "Homework 13".to_string()),
            (1, "SAS Output:".to_string())
        ]
    );
}

#[test]
fn a_bold_label_with_its_value_or_a_sentence_is_no_heading() {
    let d = docx_of(&[
        ("Server Version: Apache/2.4.7", true, false),
        ("Current Time: Friday 07:19", true, false),
        ("Uptime was measured at noon.", false, false),
        ("p-value= 0.2175", true, false),
        ("The null is not rejected.", false, false),
        ("Do not remove the cover.", true, false),
        ("The cover protects the fan.", false, false),
    ]);
    assert_eq!(headings(&d), Vec::<(u8, String)>::new());
}

#[test]
fn one_bold_line_structures_nothing() {
    let d = docx_of(&[
        ("Notice", true, false),
        ("The office is closed on Friday.", false, false),
    ]);
    assert!(headings(&d).is_empty());
}

#[test]
fn a_numbered_bold_item_over_body_text_is_a_heading_with_its_number() {
    let md = "1. **General requirements**\n\nThe work starts in May.\n\n\
2. **Payment**\n\nInvoices are paid monthly.\n\n\
- **red**\n- **green**\n- **blue**\n\nThe colours above are the palette.\n";
    let d = read(md.as_bytes(), Format::Markdown);
    let h = headings(&d);
    assert_eq!(
        h,
        vec![
            (1, "1. General requirements".to_string()),
            (1, "2. Payment".to_string())
        ],
        "a list of bold items is a list: {h:?}"
    );
}

#[test]
fn bold_lines_head_sections_in_rtf_and_html_and_name_the_chunk_s_section() {
    let rtf = br"{\rtf1\ansi {\b Day 1 arrival}\par The group lands at noon and rests.\par {\b Day 2 volcano}\par A walk to the crater rim in the morning.\par}";
    let d = read(rtf, Format::Rtf);
    assert_eq!(
        headings(&d),
        vec![
            (1, "Day 1 arrival".to_string()),
            (1, "Day 2 volcano".to_string())
        ]
    );
    let html = b"<html><body><p><b>Spruch</b></p><p>The appeal is partly upheld.</p>\
<p><strong>Text</strong></p><p>The court found as follows.</p></body></html>";
    let conv =
        docrag::convert(html, &ConvertOptions::new().with_format(Format::Html)).expect("converts");
    assert_eq!(conv.chunks.len(), 1);
    let d = read(html, Format::Html);
    assert_eq!(
        headings(&d),
        vec![(1, "Spruch".to_string()), (1, "Text".to_string())]
    );
}

#[test]
fn a_bold_label_with_its_value_alone_over_body_text_heads_it() {
    let d = docx_of(&[
        ("Day 1:\tSan José", true, false),
        (
            "The group lands at noon and rests at the hotel.",
            false,
            false,
        ),
        ("Day 2:\tArenal Volcano", true, false),
        ("A walk to the crater rim in the morning.", false, false),
    ]);
    assert_eq!(
        headings(&d),
        vec![
            (1, "Day 1:\tSan José".to_string()),
            (1, "Day 2:\tArenal Volcano".to_string())
        ]
    );
}
