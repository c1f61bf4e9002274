//! The CLI's PDF reader end to end, on PDFs each test writes itself
//! (`common::pdf`): bytes -> glyph source -> layout -> chunks and answers.

mod common;

use common::pdf::{Pdf, write};
use docrag::model::{Block, ParagraphKind, PartKind};
use docrag::{ConvertError, ConvertOptions, convert};

const LOREM: [&str; 6] = [
    "The left column opens the argument",
    "and carries it down the page in",
    "short lines of ordinary prose that",
    "a reader follows before moving on.",
    "It closes with the left conclusion",
    "at the foot of the first column.",
];

const RIGHT: [&str; 6] = [
    "The right column is read second",
    "because readers finish the left",
    "column before they start this one",
    "even though its lines sit beside",
    "the left ones at the same height.",
    "It ends the page: right conclusion.",
];

fn read(bytes: &[u8]) -> docrag::model::Document {
    docrag::read::read(bytes, &ConvertOptions::new()).expect("reads")
}

fn body_text(doc: &docrag::model::Document) -> String {
    common::blocks_text(&doc.body)
}

#[test]
fn two_columns_are_read_left_column_first() {
    let mut pdf = Pdf::default();
    let page = pdf.page();
    page.lines(72.0, 100.0, 11.0, 14.0, &LOREM);
    page.lines(330.0, 100.0, 11.0, 14.0, &RIGHT);
    let text = body_text(&read(&pdf.bytes()));
    let left = text.find("left conclusion").expect("left column read");
    let right = text.find("The right column").expect("right column read");
    assert!(left < right, "left column first: {text}");
    // Lines of one column join into one paragraph.
    assert!(text.contains("argument and carries it down"), "{text}");
}

#[test]
fn a_larger_bold_line_is_a_heading_and_opens_a_section() {
    let mut pdf = Pdf::default();
    let page = pdf.page();
    page.text(72.0, 80.0, 20.0, true, "Maintenance Schedule");
    page.lines(72.0, 120.0, 11.0, 14.0, &LOREM);
    let conv = convert(&pdf.bytes(), &ConvertOptions::new()).expect("converts");
    let first = &conv.chunks[0];
    assert_eq!(
        first.metadata.get_str("headingPath"),
        Some("Maintenance Schedule")
    );
    assert!(
        first.text.contains("# **Maintenance Schedule**"),
        "{}",
        first.text
    );
}

/// A ruled grid of three rows and three columns with a header row.
fn ruled_table(pdf: &mut Pdf) {
    let page = pdf.page();
    page.text(72.0, 80.0, 16.0, true, "Fleet Fuel Use");
    let (top, row_h) = (100.0, 20.0);
    let cols = [72.0, 200.0, 330.0, 460.0];
    for r in 0..=3 {
        let y = top + r as f32 * row_h;
        page.line(cols[0], y, cols[3], y);
    }
    for &x in &cols {
        page.line(x, top, x, top + 3.0 * row_h);
    }
    let rows = [
        ["Vehicle", "Litres", "Driver"],
        ["Van 4", "312", "Okafor"],
        ["Truck 9", "1045", "Lindqvist"],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            page.text(
                cols[c] + 4.0,
                top + r as f32 * row_h + 14.0,
                10.0,
                r == 0,
                cell,
            );
        }
    }
}

#[test]
fn a_ruled_grid_is_a_table_and_a_cell_question_is_answered() {
    let mut pdf = Pdf::default();
    ruled_table(&mut pdf);
    let bytes = pdf.bytes();
    let doc = read(&bytes);
    let table = doc
        .body
        .iter()
        .find_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .expect("a table");
    assert_eq!(table.rows.len(), 3);
    let row: Vec<String> = table.rows[2].cells.iter().map(common::cell_text).collect();
    assert_eq!(row, ["Truck 9", "1045", "Lindqvist"]);

    let mut c = docrag::query::Collection::new();
    common::add_doc(&mut c, "fleet.pdf", &bytes, 512);
    let answer = common::answer_of(&c, "How many litres did Truck 9 use?");
    assert!(!answer.declined);
    assert!(answer.text.contains("1045"), "{}", answer.text);
}

#[test]
fn a_line_repeated_atop_every_page_is_the_header_and_pages_are_exact() {
    let mut pdf = Pdf::default();
    for n in 1..=3 {
        let page = pdf.page();
        page.text(72.0, 40.0, 9.0, false, "Harbour Authority Annual Review");
        page.text(
            72.0,
            100.0,
            11.0,
            false,
            &format!("Chapter text number {n} opens here."),
        );
        page.lines(72.0, 114.0, 11.0, 14.0, &LOREM);
    }
    let bytes = pdf.bytes();
    let doc = read(&bytes);
    assert!(!body_text(&doc).contains("Harbour Authority"));
    let header = doc
        .parts
        .iter()
        .find(|p| p.kind == PartKind::Header)
        .expect("a header part");
    assert!(common::blocks_text(&header.blocks).contains("Harbour Authority Annual Review"));

    let conv = convert(
        &bytes,
        &ConvertOptions::new().with_max_tokens(64).expect("ok"),
    )
    .expect("converts");
    let third = conv
        .chunks
        .iter()
        .find(|c| c.text.contains("number 3"))
        .expect("page 3 text");
    assert_eq!(third.metadata.get_int("firstPage"), Some(3));
    assert_eq!(third.metadata.get_str("pageSource"), Some("pdf"));
    for c in &conv.chunks {
        assert!(
            c.metadata
                .get_int("lastPage")
                .is_some_and(|p| (1..=3).contains(&p))
        );
    }
}

#[test]
fn a_bookmark_makes_its_line_a_heading_and_the_info_title_is_the_title() {
    let mut pdf = Pdf::default();
    pdf.page().lines(72.0, 100.0, 11.0, 14.0, &LOREM);
    let page = pdf.page();
    // Same size and weight as the body: only the outline says it is a heading.
    page.text(72.0, 100.0, 11.0, false, "Appendix Tables");
    page.lines(72.0, 130.0, 11.0, 14.0, &RIGHT);
    pdf.outline.push(("Appendix Tables".into(), 2));
    pdf.title = Some("Port Review".into());
    let doc = read(&pdf.bytes());
    let heading = doc.body.iter().find_map(|b| match b {
        Block::Paragraph(p)
            if common::blocks_text(std::slice::from_ref(b)).contains("Appendix") =>
        {
            Some(p.kind.clone())
        }
        _ => None,
    });
    assert!(
        matches!(heading, Some(docrag::model::ParagraphKind::Heading(1))),
        "{heading:?}"
    );
    assert_eq!(doc.properties.title.as_deref(), Some("Port Review"));
}

#[test]
fn a_page_range_reads_only_its_pages_but_keeps_their_numbers() {
    let mut pdf = Pdf::default();
    for n in 1..=4 {
        pdf.page().text(
            72.0,
            100.0,
            11.0,
            false,
            &format!("Only page {n} says this."),
        );
    }
    let opts = ConvertOptions::new().with_page_range(2, 3).expect("range");
    let conv = convert(&pdf.bytes(), &opts).expect("converts");
    let text = common::chunks_text(&conv);
    assert!(text.contains("page 2") && text.contains("page 3"), "{text}");
    assert!(
        !text.contains("page 1 ") && !text.contains("page 4"),
        "{text}"
    );
    assert_eq!(conv.chunks[0].metadata.get_int("firstPage"), Some(2));
}

#[test]
fn a_page_without_text_is_named_for_ocr() {
    let mut pdf = Pdf::default();
    pdf.page().lines(72.0, 100.0, 11.0, 14.0, &LOREM);
    // A drawing only, as a scanned page is an image only.
    pdf.page().line(72.0, 100.0, 500.0, 400.0);
    let doc = read(&pdf.bytes());
    let w = doc
        .warnings
        .iter()
        .find(|w| w.code == "needs-ocr")
        .expect("needs-ocr warning");
    assert!(w.message.contains("pages 2 "), "{}", w.message);
}

#[test]
fn a_user_password_is_a_typed_error() {
    // The standard security handler (ISO 32000-1, 7.6.3) with an owner and user
    // hash no empty password matches: the file opens only with its password.
    let mut pdf = Pdf::default();
    pdf.page().text(72.0, 100.0, 11.0, false, "secret");
    let hash = "<".to_string() + &"4A".repeat(32) + ">";
    pdf.trailer_extra = format!(
        " /Encrypt << /Filter /Standard /V 1 /R 2 /O {hash} /U {hash} /P -4 >> /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]"
    );
    let err = convert(&pdf.bytes(), &ConvertOptions::new()).expect_err("refused");
    assert_eq!(err, ConvertError::PdfEncrypted);
    assert_eq!(err.code(), "pdf-encrypted");
}

#[test]
fn a_header_without_a_body_is_malformed_and_a_truncated_file_keeps_its_pages() {
    let err =
        convert(b"%PDF-1.7\n% nothing else here\n", &ConvertOptions::new()).expect_err("refused");
    assert_eq!(err.code(), "malformed-pdf", "{err}");

    let mut pdf = Pdf::default();
    pdf.page()
        .text(72.0, 100.0, 11.0, false, "Survives the cut.");
    pdf.page().text(72.0, 100.0, 11.0, false, "Second page.");
    let bytes = pdf.bytes();
    // Without its cross-reference table and trailer: objects are found by scanning.
    let cut = bytes.len()
        - bytes
            .windows(4)
            .rev()
            .position(|w| w == b"xref")
            .expect("xref")
        - 4;
    let conv = convert(&bytes[..cut], &ConvertOptions::new()).expect("recovers");
    assert!(common::chunks_text(&conv).contains("Survives the cut."));
}

/// A page object with text `words` in Helvetica drawn by content stream `content`
/// (object numbers as the caller lays them out).
fn content(words: &str, extra: &str) -> String {
    let ops = format!("BT /F1 11 Tf 72 700 Td ({words}) Tj ET\n{extra}");
    format!("<< /Length {} >>\nstream\n{ops}endstream", ops.len())
}

#[test]
fn cycles_in_the_page_tree_forms_and_outline_end_and_keep_the_text() {
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string();
    // The page tree lists itself among its kids (ISO 32000 forbids it; files do it).
    let tree = write(
        &[
            "<< /Type /Catalog /Pages 2 0 R >>".into(),
            "<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>".into(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".into(),
            content("Tree survives.", ""),
            font.clone(),
        ],
        "/Root 1 0 R",
    );
    let conv = convert(&tree, &ConvertOptions::new()).expect("converts");
    assert!(common::chunks_text(&conv).contains("Tree survives."));

    // A form XObject that draws itself, and an outline item that is its own next.
    let form = "/Fm0 Do\n";
    let forms = write(
        &[
            "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R >>".into(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Fm0 8 0 R >> >> /Contents 4 0 R >>".into(),
            content("Form survives.", form),
            font,
            "<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>".into(),
            "<< /Title (Loop) /Parent 6 0 R /Next 7 0 R /Dest [3 0 R /XYZ 0 792 0] >>".into(),
            format!(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Fm0 8 0 R >> >> /Length {} >>\nstream\n{form}endstream",
                form.len()
            ),
        ],
        "/Root 1 0 R",
    );
    let conv = convert(&forms, &ConvertOptions::new()).expect("converts");
    let text = common::chunks_text(&conv);
    assert!(text.contains("Form survives."), "{text}");
}

/// A one-page PDF whose content stream is `stream` (its dictionary entries `dict`),
/// with Helvetica as /F1 and the form XObjects `forms` as /Fm0, /Fm1, … (objects 5 on).
fn page_with(stream: &str, dict: &str, forms: &[String]) -> Vec<u8> {
    let names: String = (0..forms.len())
        .map(|i| format!("/Fm{i} {} 0 R ", 5 + i))
        .collect();
    let mut objects: Vec<String> = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".into(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {} 0 R >> /XObject << {names}>> >> /Contents 4 0 R >>",
            5 + forms.len()
        ),
        format!(
            "<< /Length {} {dict} >>\nstream\n{stream}\nendstream",
            stream.len()
        ),
    ];
    objects.extend(forms.iter().cloned());
    objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".into());
    write(&objects, "/Root 1 0 R")
}

fn limits(max_inflated_bytes: u64, max_elements: u64) -> ConvertOptions {
    ConvertOptions::new().with_limits(docrag::Limits {
        max_inflated_bytes,
        max_elements,
        ..docrag::Limits::default()
    })
}

#[test]
fn a_stream_that_inflates_past_the_limit_is_a_typed_error() {
    use std::io::Write;
    // 4 MiB of spaces after a line of text deflates to a few KB: a small file that
    // asks for much memory. Hex-encoded, the stream is text.
    let mut ops = b"BT /F1 11 Tf 72 700 Td (Inflated text.) Tj ET\n".to_vec();
    ops.resize(4 << 20, b' ');
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&ops).unwrap();
    let deflated = z.finish().unwrap();
    assert!(deflated.len() < 16 << 10, "{}", deflated.len());
    let hex: String = deflated
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<String>()
        + ">";
    let bytes = page_with(&hex, "/Filter [/ASCIIHexDecode /FlateDecode]", &[]);
    // Within the limit it reads.
    let doc = docrag::read::read(&bytes, &limits(8 << 20, 2_000_000)).expect("reads");
    assert!(body_text(&doc).contains("Inflated text."));
    // Past it (1 MiB), a typed error names the stream.
    match docrag::read::read(&bytes, &limits(1 << 20, 2_000_000)) {
        Err(ConvertError::TooLarge { what, limit, .. }) => {
            assert!(what.contains("PDF stream"), "{what}");
            assert_eq!(limit, 1 << 20);
        }
        other => panic!("{other:?}"),
    }
    // RunLength writes a byte up to 128 times over: 4 MiB of runs from 64 KB.
    let mut runs = String::new();
    for b in b"BT /F1 11 Tf 72 700 Td (Run text.) Tj ET\n" {
        runs.push_str(&format!("00{b:02X}"));
    }
    runs.push_str(&"8120".repeat(32_768));
    runs.push_str("80>");
    let bytes = page_with(&runs, "/Filter [/ASCIIHexDecode /RunLengthDecode]", &[]);
    let doc = docrag::read::read(&bytes, &limits(8 << 20, 2_000_000)).expect("reads");
    assert!(body_text(&doc).contains("Run text."));
    assert!(matches!(
        docrag::read::read(&bytes, &limits(1 << 20, 2_000_000)),
        Err(ConvertError::TooLarge { .. })
    ));
}

/// A one-page PDF whose /Contents names one unfiltered 64 KiB stream `times` times.
fn contents_repeated(times: usize) -> Vec<u8> {
    let mut ops = "BT /F1 11 Tf 72 700 Td (Repeated text.) Tj ET\n".to_string();
    ops.push_str(&" ".repeat((64 << 10) - ops.len()));
    let contents = "4 0 R ".repeat(times);
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents [{contents}] >>"
        ),
        format!("<< /Length {} >>\nstream\n{ops}\nendstream", ops.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    write(&objects, "/Root 1 0 R")
}

#[test]
fn a_content_stream_listed_over_and_over_counts_each_copy() {
    // Named 2,000 times: a 77 KB file whose page joins 128 MiB of content.
    let bytes = contents_repeated(2_000);
    assert!(bytes.len() < 100_000, "{}", bytes.len());
    // Streams may come to 4 x 8 MiB together: the copies pass that at the 513th.
    match docrag::read::read(&bytes, &limits(8 << 20, 2_000_000)) {
        Err(ConvertError::TooLarge { what, .. }) => assert!(what.contains("together"), "{what}"),
        other => panic!("{:?}", other.map(|d| d.body.len())),
    }
    // Named three times, the page reads.
    let doc =
        docrag::read::read(&contents_repeated(3), &limits(8 << 20, 2_000_000)).expect("reads");
    assert!(body_text(&doc).contains("Repeated text."));
}

#[test]
fn forms_drawing_each_other_over_and_over_stop_at_the_operator_budget() {
    // Each form draws the next ten times: six levels run a million operators.
    let levels = 6;
    let forms: Vec<String> = (0..levels)
        .map(|i| {
            let body = if i + 1 < levels {
                format!("/Fm{} Do\n", i + 1).repeat(10)
            } else {
                "0 0 m 1 1 l S\n".to_string()
            };
            let own: String = (i + 1..levels).map(|k| format!("/Fm{k} {} 0 R ", 5 + k)).collect();
            format!(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << {own}>> >> /Length {} >>\nstream\n{body}endstream",
                body.len()
            )
        })
        .collect();
    let bytes = page_with(
        "BT /F1 11 Tf 72 700 Td (Drawn once.) Tj ET /Fm0 Do",
        "",
        &forms,
    );
    // The default budget (2,000,000 elements, 8 operators each) runs them all.
    let doc = docrag::read::read(&bytes, &ConvertOptions::new()).expect("reads");
    assert!(body_text(&doc).contains("Drawn once."));
    // A budget of 10,000 elements (80,000 operators) stops them, with a typed error.
    match docrag::read::read(&bytes, &limits(128 << 20, 10_000)) {
        Err(ConvertError::TooManyElements { what, limit }) => {
            assert_eq!(what, "content-stream operators");
            assert_eq!(limit, 80_000);
        }
        other => panic!("{other:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Truncated or overwritten PDFs give a document or a typed error, never a panic.
    #[test]
    fn damaged_pdfs_never_panic(cut in 0.0f64..1.0, at in 0.0f64..1.0, byte in proptest::num::u8::ANY, run in 1usize..64) {
        let mut pdf = Pdf::default();
        ruled_table(&mut pdf);
        pdf.page().lines(72.0, 100.0, 11.0, 14.0, &LOREM);
        pdf.outline.push(("Fleet Fuel Use".into(), 1));
        let mut bytes = pdf.bytes();
        let start = (at * bytes.len() as f64) as usize;
        for b in bytes.iter_mut().skip(start).take(run) {
            *b = byte;
        }
        bytes.truncate(((cut * 0.5 + 0.5) * bytes.len() as f64) as usize);
        let _ = convert(&bytes, &ConvertOptions::new());
    }
}

/// The body text of a page of [`LOREM`] set reading upward from baseline x 100,
/// one line every 14 units to the right (how a landscape page is drawn onto a
/// portrait one), with `/Rotate` `rotate`.
fn upward_lorem(rotate: u16) -> String {
    let mut pdf = Pdf::default();
    let page = pdf.page();
    page.rotate = rotate;
    for (i, l) in LOREM.iter().enumerate() {
        page.text_turned(100.0 + i as f32 * 14.0, 700.0, 11.0, 90.0, l);
    }
    body_text(&read(&pdf.bytes()))
}

#[test]
fn text_drawn_sideways_reads_like_upright_text_with_or_without_rotate() {
    let mut pdf = Pdf::default();
    pdf.page().lines(72.0, 100.0, 11.0, 14.0, &LOREM);
    let upright = body_text(&read(&pdf.bytes()));
    assert!(
        upright.starts_with("The left column opens the argument and carries it down"),
        "{upright}"
    );
    // Turned for display by the viewer (/Rotate 90), and left turned on the page.
    assert_eq!(upward_lorem(90), upright);
    assert_eq!(upward_lorem(0), upright);
}

#[test]
fn a_label_up_the_margin_is_read_after_the_body_and_splits_no_line() {
    let mut pdf = Pdf::default();
    let page = pdf.page();
    page.lines(72.0, 100.0, 11.0, 14.0, &LOREM);
    // An archive stamp running up the left margin, level with the body's lines.
    page.text_turned(
        40.0,
        180.0,
        14.0,
        90.0,
        "arXiv:2101.00001v1 [cs.CL] 1 Jan 2021",
    );
    let text = body_text(&read(&pdf.bytes()));
    assert_eq!(
        text,
        format!(
            "{}\narXiv:2101.00001v1 [cs.CL] 1 Jan 2021\n",
            LOREM.join(" ")
        ),
    );
}

#[test]
fn hebrew_lines_read_right_to_left_however_the_glyphs_were_drawn() {
    let mut pdf = Pdf::default();
    let page = pdf.page();
    page.text(72.0, 100.0, 12.0, false, "An English line comes first.");
    // "shalom 2024 olam": seen as one string left to right, with the number kept
    // left to right inside it, and drawn letter by letter from the right.
    page.hebrew_seen(72.0, 130.0, 12.0, "םלוע 2024 םולש");
    page.hebrew_from_right(400.0, 160.0, 12.0, 9.0, "שלום עולם");
    let text = body_text(&read(&pdf.bytes()));
    let lines: Vec<&str> = text.split(['\n', '.']).map(str::trim).collect();
    assert!(lines.contains(&"שלום 2024 עולם"), "{text}");
    assert!(lines.contains(&"שלום עולם"), "{text}");
    assert!(text.starts_with("An English line comes first."), "{text}");
}

/// A one-page tagged PDF (ISO 32000-2, 14.7): five lines at even spacing, each in
/// a marked-content sequence the structure tree claims, with `tree` as the
/// catalog's `/StructTreeRoot` entry (empty: untagged). Inside each sequence,
/// before its text, `nest` untagged sequences open and close.
fn tagged_pdf(tree: &str, nest: usize) -> Vec<u8> {
    let lines = [
        ("P", 0, 10, 692, "Scope of the service"),
        ("P", 1, 10, 680, "The contractor cleans the hall"),
        ("Span", 2, 10, 668, "and the yard every morning."),
        ("P", 3, 10, 656, "Payment follows each month"),
        ("P", 4, 20, 624, "A large pull quote."),
    ];
    let content: String = lines
        .iter()
        .map(|(tag, mcid, size, y, text)| {
            format!(
                "/{tag} <</MCID {mcid}>> BDC {}{} BT /F1 {size} Tf 72 {y} Td ({text}) Tj ET EMC\n",
                "/Span BMC ".repeat(nest),
                "EMC ".repeat(nest)
            )
        })
        .collect();
    let objects = [
        format!("<< /Type /Catalog /Pages 2 0 R {tree} >>"),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /StructParents 0 >>".to_string(),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}endstream", content.len()),
        // The tree: a role map sending custom types to standard ones, a heading, a
        // paragraph whose second line is a Span in it, a paragraph whose content is
        // a marked-content reference, and a pull quote mapped to P.
        "<< /Type /StructTreeRoot /K 7 0 R /RoleMap << /Heading2 /H2 /PullQuote /P >> >>".to_string(),
        "<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] >>".to_string(),
        "<< /S /Sect /P 7 0 R /K [9 0 R 10 0 R 12 0 R 13 0 R] >>".to_string(),
        "<< /S /Heading2 /P 8 0 R /Pg 3 0 R /K 0 >>".to_string(),
        "<< /S /P /P 8 0 R /Pg 3 0 R /K [1 11 0 R] >>".to_string(),
        "<< /S /Span /P 10 0 R /Pg 3 0 R /K 2 >>".to_string(),
        "<< /S /P /P 8 0 R /K << /Type /MCR /Pg 3 0 R /MCID 3 >> >>".to_string(),
        "<< /S /PullQuote /P 8 0 R /Pg 3 0 R /K 4 >>".to_string(),
    ];
    write(&objects, "/Root 1 0 R")
}

#[test]
fn a_tagged_pdf_is_read_from_its_structure_tree() {
    let paragraphs = |doc: &docrag::model::Document| -> Vec<(ParagraphKind, String)> {
        doc.body
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph(p) => Some((
                    p.kind.clone(),
                    common::blocks_text(std::slice::from_ref(b))
                        .trim()
                        .to_string(),
                )),
                _ => None,
            })
            .collect()
    };
    let tagged = paragraphs(&read(&tagged_pdf(
        "/StructTreeRoot 6 0 R /MarkInfo << /Marked true >>",
        0,
    )));
    assert_eq!(
        tagged,
        [
            (
                ParagraphKind::Heading(2),
                "Scope of the service".to_string()
            ),
            (
                ParagraphKind::Normal,
                "The contractor cleans the hall and the yard every morning.".to_string()
            ),
            (
                ParagraphKind::Normal,
                "Payment follows each month".to_string()
            ),
            (ParagraphKind::Normal, "A large pull quote.".to_string()),
        ]
    );
    // The same page untagged is read by its geometry, which cannot see this.
    assert_ne!(paragraphs(&read(&tagged_pdf("", 0))), tagged);
    // Sequences nested past what is kept still close their own: the text after
    // them keeps its tag.
    let nested = paragraphs(&read(&tagged_pdf(
        "/StructTreeRoot 6 0 R /MarkInfo << /Marked true >>",
        1_100,
    )));
    assert_eq!(nested, tagged);
}
