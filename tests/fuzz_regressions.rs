//! Inputs the fuzz targets (fuzz/, fuzz/README.md) once crashed on, minimized, in
//! tests/data/fuzz/<target>-<short-name>.<ext>. Each is run through what its target
//! runs and must give `Ok` or a typed error without panicking, and keep the invariant
//! that target checks. Reader targets (docx, html, rtf, markdown, text; sniff = no
//! format; a docx_xml input is stored as the .docx it was packed into; read_<reader> as
//! <reader>) convert the file
//! with 64-token chunks; provider_parse reads it as a reply body. Every file is tried and
//! the failures are reported together.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use docrag::provider::parse::{error_message, status_error};
use docrag::provider::{ProviderKind, parse_chat, parse_embeddings};
use docrag::{ConvertOptions, Format, MAX_TITLE_CHARS};

fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz")
}

/// The reader invariants of fuzz/src/lib.rs.
fn convert_checked(bytes: &[u8], format: Option<Format>) {
    let mut options = ConvertOptions::new().with_max_tokens(64).unwrap();
    if let Some(f) = format {
        options = options.with_format(f);
    }
    match docrag::convert(bytes, &options) {
        Ok(out) => {
            assert!(out.doc_id.starts_with("sha256-"), "doc id {:?}", out.doc_id);
            assert!(
                out.title.chars().count() <= MAX_TITLE_CHARS + 1,
                "title too long"
            );
            for (i, c) in out.chunks.iter().enumerate() {
                assert_eq!(
                    c.metadata.get_int("ssSeq"),
                    Some(i as i64),
                    "chunk {i}: ssSeq"
                );
                let tokens = c.metadata.get_int("tokenCount");
                assert!(
                    matches!(tokens, Some(n) if n > 0),
                    "chunk {i}: tokenCount {tokens:?}"
                );
                assert!(!c.text.is_empty(), "chunk {i}: empty text");
            }
        }
        Err(e) => {
            assert!(!e.code().is_empty());
            let _ = e.to_string();
        }
    }
}

/// The provider_parse target's checks, for every status it tries.
fn provider_parse_checked(bytes: &[u8]) {
    let body = String::from_utf8_lossy(bytes);
    for status in [200, 400, 429, 500] {
        for kind in [ProviderKind::OpenAi, ProviderKind::Ollama] {
            if parse_chat(kind, status, &body).is_ok() {
                assert!(
                    (200..300).contains(&status),
                    "chat reply accepted with {status}"
                );
            }
            if let Ok(v) = parse_embeddings(kind, status, &body, 1, None) {
                assert_eq!(v.len(), 1);
            }
        }
        let e = status_error(status, &body, None).to_string();
        assert!(!e.is_empty());
    }
    // An error reply must say something: an empty provider message is no message.
    let m = error_message(&body);
    assert!(!m.trim().is_empty(), "error_message({body:?}) is empty");
}

fn run(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    // A `read_<reader>` target's input is run through the whole conversion, which
    // reads it first.
    let target = name.split('-').next().unwrap_or("");
    let target = target.strip_prefix("read_").unwrap_or(target);
    let bytes = std::fs::read(path).unwrap();
    match target {
        "docx" | "docx_xml" => convert_checked(&bytes, Some(Format::Docx)),
        "html" => convert_checked(&bytes, Some(Format::Html)),
        "rtf" => convert_checked(&bytes, Some(Format::Rtf)),
        "markdown" => convert_checked(&bytes, Some(Format::Markdown)),
        "text" => convert_checked(&bytes, Some(Format::Text)),
        "sniff" => convert_checked(&bytes, None),
        "provider_parse" => provider_parse_checked(&bytes),
        other => {
            panic!("{name}: no fuzz target {other:?} (name files <target>-<short-name>.<ext>)")
        }
    }
}

#[test]
fn every_fuzz_reproducer_passes() {
    let mut files: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "tests/data/fuzz/ is empty");
    let mut failed = Vec::new();
    for f in &files {
        if catch_unwind(AssertUnwindSafe(|| run(f))).is_err() {
            failed.push(f.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} fuzz reproducers fail: {failed:?}",
        failed.len(),
        files.len()
    );
}
