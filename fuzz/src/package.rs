//! A stored (uncompressed) DOCX zip around fuzzed XML, so every input reaches the XML
//! readers rather than the zip layer: the input, split at NUL bytes (which XML cannot
//! hold), becomes word/document.xml, styles.xml, numbering.xml, comments.xml,
//! footnotes.xml, header1.xml and docProps/core.xml, with valid content types and
//! relationships.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;

const PACKAGE_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#;

const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";

/// Part names in input order, with the relationship type of the main part's rels
/// (`None` for the main part itself and for core.xml, related from the package).
const PARTS: [(&str, Option<(&str, &str)>); 7] = [
    ("word/document.xml", None),
    ("word/styles.xml", Some(("rId1", "styles"))),
    ("word/numbering.xml", Some(("rId2", "numbering"))),
    ("word/comments.xml", Some(("rId3", "comments"))),
    ("word/footnotes.xml", Some(("rId4", "footnotes"))),
    ("word/header1.xml", Some(("rId5", "header"))),
    ("docProps/core.xml", None),
];

/// The zip bytes of a package whose parts are `data` split at NUL bytes.
pub fn package(data: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let o = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut add = |name: &str, bytes: &[u8]| {
        w.start_file(name, o).expect("start a member");
        w.write_all(bytes).expect("write a member");
    };
    add("[Content_Types].xml", CONTENT_TYPES.as_bytes());
    add("_rels/.rels", PACKAGE_RELS.as_bytes());
    let mut rels = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for (name, rel) in PARTS {
        if let Some((id, kind)) = rel {
            let target = name.trim_start_matches("word/");
            rels.push_str(&format!(
                r#"<Relationship Id="{id}" Type="{R}{kind}" Target="{target}"/>"#
            ));
        }
    }
    rels.push_str("</Relationships>");
    add("word/_rels/document.xml.rels", rels.as_bytes());
    for ((name, _), bytes) in PARTS.iter().zip(data.splitn(PARTS.len(), |b| *b == 0)) {
        add(name, bytes);
    }
    w.finish().expect("finish the zip").into_inner()
}
