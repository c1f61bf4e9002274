//! Every DOCX/ZIP/DOC file in the shared corpus manifest, end to end through
//! `docrag::convert`: readable files convert and satisfy the chunk invariants; damaged
//! ones fail with the typed error the manifest's notes call for (or recover).

use docrag::{ConvertOptions, MetaValue, convert, tokens};
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

struct Row {
    file: String,
    format: String,
    features: Vec<String>,
}

fn manifest() -> Vec<Row> {
    let text = std::fs::read_to_string(corpus().join("MANIFEST.tsv")).expect("corpus manifest");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (f, fmt, feat) = (col("file"), col("format"), col("features"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|c| Row {
            file: c[f].to_string(),
            format: c[fmt].to_string(),
            features: c[feat].split(',').map(str::to_string).collect(),
        })
        .collect()
}

/// The error code each damaged file must give; `None` = converting it (recovery) is
/// also acceptable.
fn expected_error(file: &str) -> Option<&'static str> {
    match file {
        "poi__bug53475-password-is-pass.docx" => Some("encrypted"),
        "poi__truncated62886.docx" => Some("not-zip"),
        "poi__simple-table.doc" => Some("legacy-doc"),
        "mammoth__empty.zip" => Some("missing-main-part"),
        _ => None,
    }
}

#[test]
fn every_docx_in_the_manifest_converts_or_fails_typed() {
    let rows: Vec<Row> = manifest()
        .into_iter()
        .filter(|r| matches!(r.format.as_str(), "docx" | "zip" | "doc"))
        .collect();
    assert!(
        rows.len() >= 50,
        "expected the whole DOCX corpus, found {}",
        rows.len()
    );
    let options = ConvertOptions::new().with_max_tokens(512).expect("valid");
    for row in &rows {
        let bytes = std::fs::read(corpus().join(&row.file)).expect("corpus file");
        let options = options.clone().with_file_name(row.file.clone());
        let result = convert(&bytes, &options);
        if row.features.iter().any(|f| f == "broken") {
            match (expected_error(&row.file), &result) {
                (Some(code), Err(e)) => assert_eq!(e.code(), code, "{}: {e}", row.file),
                (Some(code), Ok(_)) => panic!("{}: converted, expected error {code}", row.file),
                (None, _) => {} // recovery or a typed error are both acceptable
            }
            continue;
        }
        let out = result.unwrap_or_else(|e| panic!("{}: {} ({})", row.file, e, e.code()));
        assert!(out.doc_id.starts_with("sha256-"), "{}", row.file);
        for (i, chunk) in out.chunks.iter().enumerate() {
            let m = &chunk.metadata;
            assert_eq!(m.get_int("ssSeq"), Some(i as i64), "{}", row.file);
            assert_eq!(
                m.get_str("ssDocId"),
                Some(out.doc_id.as_str()),
                "{}",
                row.file
            );
            let counted = tokens::count(&chunk.text) as i64;
            assert_eq!(
                m.get_int("tokenCount"),
                Some(counted),
                "{} chunk {i}",
                row.file
            );
            if counted > 512 {
                assert_eq!(
                    m.get_str("oversize"),
                    Some("yes"),
                    "{} chunk {i} has {counted} tokens",
                    row.file
                );
            }
            for (k, v) in m.iter() {
                assert!(matches!(v, MetaValue::Str(_) | MetaValue::Int(_)), "{k}");
            }
        }
    }
}

#[test]
fn same_bytes_give_the_same_id_and_chunks() {
    let bytes = std::fs::read(corpus().join("pandoc__comments.docx")).expect("corpus file");
    let a = convert(&bytes, &ConvertOptions::new()).expect("converts");
    let b = convert(&bytes, &ConvertOptions::new()).expect("converts");
    assert_eq!(a.doc_id, b.doc_id);
    assert_eq!(a.chunks, b.chunks);
    let renamed = convert(
        &bytes,
        &ConvertOptions::new().with_doc_id("contract-7").expect("id"),
    )
    .expect("converts");
    assert_eq!(renamed.doc_id, "contract-7");
    assert_eq!(
        renamed.chunks[0].metadata.get_str("ssDocId"),
        Some("contract-7")
    );
}
