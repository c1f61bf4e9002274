//! Format detection: every corpus file agrees with its MANIFEST format column (by name
//! and, for the text formats, by content alone), plus synthetic containers.

use std::io::Write;

use docrag::read::sniff::detect;
use docrag::{ConvertError, Format};

fn corpus_dir() -> String {
    format!("{}/../shared/corpus", env!("CARGO_MANIFEST_DIR"))
}

/// (file, format, features) rows of the MANIFEST.
fn manifest() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(format!("{}/MANIFEST.tsv", corpus_dir())).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[5].to_string(), f[6].to_string())
        })
        .collect()
}

#[test]
fn every_corpus_file_matches_the_manifest() {
    let rows = manifest();
    assert!(rows.len() >= 70, "{}", rows.len());
    let mut checked = 0;
    for (file, format, features) in &rows {
        let bytes = std::fs::read(format!("{}/{file}", corpus_dir())).unwrap();
        let by_name = detect(&bytes, Some(file), None);
        let by_content = detect(&bytes, None, None);
        let want: Result<Format, ConvertError> = match format.as_str() {
            "docx" if features.contains("encrypted") => Err(ConvertError::Encrypted),
            "docx" | "zip" => Ok(Format::Docx),
            "doc" => Err(ConvertError::LegacyDoc),
            "rtf" => Ok(Format::Rtf),
            "html" => Ok(Format::Html),
            "md" => Ok(Format::Markdown),
            "txt" => Ok(Format::Text),
            other => panic!("{file}: unknown MANIFEST format {other}"),
        };
        assert_eq!(by_name, want, "{file} by name");
        assert_eq!(by_content, want, "{file} by content alone");
        checked += 1;
    }
    assert_eq!(checked, rows.len());
}

#[test]
fn caller_mime_type() {
    let md = std::fs::read(format!("{}/pandoc__MANUAL.txt", corpus_dir())).unwrap();
    // The caller's type wins over content: text/plain keeps Markdown source as text.
    assert_eq!(detect(&md, Some("MANUAL.txt"), None), Ok(Format::Markdown));
    assert_eq!(
        detect(&md, Some("MANUAL.txt"), Some("text/plain")),
        Ok(Format::Text)
    );
    let opts = docrag::ConvertOptions::new()
        .with_file_name("MANUAL.txt")
        .with_format(Format::Text);
    let doc = docrag::read::read(&md, &opts).unwrap();
    // Read as text, the front matter is a paragraph (its `---` fences are rules), not
    // the document's properties.
    assert!(
        doc.body_text()
            .trim_start()
            .starts_with("title: Pandoc User's Guide")
    );
    assert_eq!(doc.properties.title, None);
    assert_eq!(
        detect(b"plain words", None, Some("text/markdown; charset=utf-8")),
        Ok(Format::Markdown)
    );
    assert_eq!(
        detect(b"# x [y](z)", Some("a.txt"), Some("text/html")),
        Ok(Format::Html)
    );
    assert_eq!(
        detect(b"{\\rtf1 x}", None, Some("application/rtf")),
        Ok(Format::Rtf)
    );
    // Magic numbers beat the caller's type: a PDF named .md is still a PDF.
    assert_eq!(
        detect(
            b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n",
            Some("notes.md"),
            Some("text/markdown")
        ),
        Ok(Format::Pdf)
    );
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, data) in members {
        w.start_file(*name, stored).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn unsupported(bytes: &[u8]) -> String {
    match detect(bytes, Some("upload.docx"), None) {
        Err(ConvertError::UnsupportedFormat { format }) => format,
        other => panic!("expected UnsupportedFormat, got {other:?}"),
    }
}

#[test]
fn zip_packages() {
    let ct: &[u8] = b"<Types/>";
    assert!(
        unsupported(&zip(&[
            ("[Content_Types].xml", ct),
            ("xl/workbook.xml", b"<w/>")
        ]))
        .starts_with("XLSX")
    );
    assert!(
        unsupported(&zip(&[
            ("[Content_Types].xml", ct),
            ("ppt/presentation.xml", b"<p/>")
        ]))
        .starts_with("PPTX")
    );
    let odt = zip(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text"),
        ("content.xml", b"<c/>"),
    ]);
    assert!(unsupported(&odt).starts_with("ODT"));
    let ods = zip(&[(
        "mimetype",
        b"application/vnd.oasis.opendocument.spreadsheet",
    )]);
    assert!(unsupported(&ods).starts_with("ODS"));
    let epub = zip(&[
        ("mimetype", b"application/epub+zip"),
        ("META-INF/container.xml", b"<c/>"),
    ]);
    assert!(unsupported(&epub).starts_with("EPUB"));
    // DOCX: a word/ part, or anything else (the DOCX reader reports what is missing).
    assert_eq!(
        detect(&zip(&[("word/document.xml", b"<w/>")]), None, None),
        Ok(Format::Docx)
    );
    assert_eq!(
        detect(&zip(&[("notes.txt", b"hi")]), None, None),
        Ok(Format::Docx)
    );
    match docrag::convert(
        &zip(&[("notes.txt", b"hi")]),
        &docrag::ConvertOptions::new(),
    ) {
        Err(ConvertError::MissingMainPart { .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// A CFB file: header sector, then one directory sector with the given entry names.
fn cfb(names: &[&str]) -> Vec<u8> {
    let mut b = vec![0u8; 1024];
    b[..8].copy_from_slice(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]);
    for (i, name) in names.iter().enumerate() {
        let e = 512 + 128 * i;
        let units: Vec<u8> = name.encode_utf16().flat_map(u16::to_le_bytes).collect();
        b[e..e + units.len()].copy_from_slice(&units);
        let len = (units.len() + 2) as u16;
        b[e + 64..e + 66].copy_from_slice(&len.to_le_bytes());
        b[e + 66] = if i == 0 { 5 } else { 2 };
    }
    b
}

#[test]
fn compound_files() {
    assert_eq!(
        detect(&cfb(&["Root Entry", "WordDocument", "1Table"]), None, None),
        Err(ConvertError::LegacyDoc)
    );
    assert_eq!(
        detect(
            &cfb(&["Root Entry", "EncryptionInfo", "EncryptedPackage"]),
            Some("a.docx"),
            None
        ),
        Err(ConvertError::Encrypted)
    );
    assert!(unsupported(&cfb(&["Root Entry", "Workbook"])).contains("Excel"));
    assert!(unsupported(&cfb(&["Root Entry", "PowerPoint Document"])).contains("PowerPoint"));
    assert!(unsupported(&cfb(&["Root Entry", "__properties_version1.0"])).contains("OLE2"));
}

#[test]
fn binary_formats_and_junk() {
    assert_eq!(detect(b"%PDF-1.7\n1 0 obj", None, None), Ok(Format::Pdf));
    assert_eq!(unsupported(b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR"), "PNG image");
    let junk: Vec<u8> = (0..2000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    assert!(matches!(detect(&junk, Some("x.txt"), None),
        Err(ConvertError::UnsupportedFormat { format }) if format.starts_with("binary data")));
    // A few NULs in real text do not make it binary.
    let mut text = b"Some ordinary text with a stray NUL".repeat(20);
    text[40] = 0;
    assert_eq!(detect(&text, None, None), Ok(Format::Text));
}

#[test]
fn html_starts() {
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "<!-- x -->\n<HTML><body>hi"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    assert_eq!(detect(&utf16, None, None), Ok(Format::Html));
    let no_bom: Vec<u8> = "<html><p>hi</p></html>"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert_eq!(detect(&no_bom, None, None), Ok(Format::Html));
    assert_eq!(
        detect(b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<html>", None, None),
        Ok(Format::Html)
    );
    assert_eq!(
        detect(b"<table><tr><td>1</td></tr></table>", None, None),
        Ok(Format::Html)
    );
    // A README that starts with an HTML block but is Markdown throughout.
    let readme = "<div align=\"center\"><img src=\"logo.png\"></div>\n\n# Tool\n\nSee [docs](https://x.org).\n\n## Install\n\n```sh\nmake\n```\n";
    assert_eq!(detect(readme.as_bytes(), None, None), Ok(Format::Markdown));
    assert_eq!(
        detect(b"a < b and <b> is bold", None, None),
        Ok(Format::Text)
    );
}
