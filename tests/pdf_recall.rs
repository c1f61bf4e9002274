//! Word recall of the CLI's PDF reader against pdfminer.six's text, on the dev PDFs
//! of `tests/fixtures/pdf/` (their README says where each comes from), and every
//! chunk's pages within the PDF's page count.

use std::collections::HashMap;
use std::path::Path;

use docrag::{ConvertOptions, convert};

const FIXTURES: &[&str] = &[
    "pandoc__tables",
    "pandoc__notes",
    "pandoc__comments",
    "python-docx__doc-odd-even-hdrs",
    "powertools__HC029-Table-Merged-Cells",
    "docx4j__tables",
    "openxmlsdk__complex2010",
    "docx4j__Docx4j_GettingStarted",
    "libtasn1",
    "reportlab__cjk_cid_fonts",
];

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pdf")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Lower-case words (runs of letters and digits) with their counts; HTML table tags
/// and chunk-information lines are not words of the document.
fn words(text: &str) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with("[Document:")) {
        let line = line
            .split(['<', '>'])
            .enumerate()
            .filter(|(i, _)| i % 2 == 0 || !line.contains('<'))
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        for w in line
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            *out.entry(w.to_lowercase()).or_default() += 1;
        }
    }
    out
}

#[test]
fn dev_pdfs_keep_their_words_and_pages() {
    let mut recalls = Vec::new();
    for name in FIXTURES {
        let bytes = fixture(&format!("{name}.pdf"));
        let reference = String::from_utf8(fixture(&format!("{name}.pdfminer.txt"))).expect("utf-8");
        // pdfminer ends every page with a form feed.
        let pages = reference.matches('\u{c}').count() as i64;
        let conv = convert(
            &bytes,
            &ConvertOptions::new().with_file_name(format!("{name}.pdf")),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = words(
            &conv
                .chunks
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        let want = words(&reference);
        let total: usize = want.values().sum();
        let found: usize = want
            .iter()
            .map(|(w, n)| (*n).min(ours.get(w).copied().unwrap_or(0)))
            .sum();
        let recall = found as f64 / total as f64;
        eprintln!("{name}: recall {recall:.3} of {total} words, {pages} pages");
        assert!(recall >= 0.95, "{name}: recall {recall:.3}");
        for c in &conv.chunks {
            assert_eq!(c.metadata.get_str("pageSource"), Some("pdf"), "{name}");
            let last = c.metadata.get_int("lastPage").expect("lastPage");
            assert!(
                (1..=pages).contains(&last),
                "{name}: page {last} of {pages}"
            );
        }
        recalls.push(recall);
    }
    recalls.sort_by(f64::total_cmp);
    let median = recalls[recalls.len() / 2];
    assert!(median >= 0.97, "median recall {median:.3}");
}
