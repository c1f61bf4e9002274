//! Converter fidelity (issue 16): the structures of tests/data/fidelity/ (list restarts
//! through `w:startOverride`, deleted paragraph marks, `w:gridBefore`/`w:gridAfter`,
//! symbol fonts, text boxes in headers and footers, comment ranges between table rows,
//! EBCDIC and undeclared CJK encodings) converted natively, against the expectations
//! in tests/data/fidelity/expected.json, which tests/node/fidelity.test.mjs asserts
//! through the wasm package too.

use std::path::PathBuf;

use docrag::ConvertOptions;
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fidelity")
}

#[test]
fn every_fixture_meets_its_expectations() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("expected.json")).unwrap())
            .unwrap();
    let fixtures = expected["fixtures"].as_object().unwrap();
    assert_eq!(fixtures.len(), 9);
    for (name, want) in fixtures {
        let bytes = std::fs::read(dir().join(name)).unwrap();
        let options = ConvertOptions::default().with_file_name(name.as_str());
        let c = docrag::convert(&bytes, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text: String = c
            .chunks
            .iter()
            .map(|ch| ch.text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        let strings = |key: &str| -> Vec<&str> {
            want.get(key)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default()
        };
        for s in strings("contains") {
            assert!(text.contains(s), "{name}: missing {s:?} in\n{text}");
        }
        for s in strings("lacks") {
            assert!(!text.contains(s), "{name}: has {s:?} in\n{text}");
        }
        for s in strings("once") {
            assert_eq!(text.matches(s).count(), 1, "{name}: {s:?} in\n{text}");
        }
        if let Some(kinds) = want.get("chunks").and_then(Value::as_object) {
            for (kind, wanted) in kinds {
                let of_kind: Vec<&str> = c
                    .chunks
                    .iter()
                    .filter(|ch| ch.metadata.get_str("chunkKind") == Some(kind.as_str()))
                    .map(|ch| ch.text.as_str())
                    .collect();
                for s in wanted.as_array().unwrap().iter().filter_map(Value::as_str) {
                    assert!(
                        of_kind.iter().any(|t| t.contains(s)),
                        "{name}: no {kind} chunk holds {s:?}: {of_kind:?}"
                    );
                }
            }
        }
        if let Some(fields) = want.get("metadata").and_then(Value::as_object) {
            for (field, value) in fields {
                let value = value.as_str().unwrap();
                assert!(
                    c.chunks
                        .iter()
                        .any(|ch| ch.metadata.get_str(field) == Some(value)),
                    "{name}: no chunk has {field} = {value:?}"
                );
            }
        }
        if let Some(w) = want.get("warning") {
            let code = w["code"].as_str().unwrap();
            let needle = w["text"].as_str().unwrap();
            assert!(
                c.warnings
                    .iter()
                    .any(|x| x.code == code && x.message.contains(needle)),
                "{name}: no {code} warning naming {needle}: {:?}",
                c.warnings
            );
        }
        if want.get("noWarnings").and_then(Value::as_bool) == Some(true) {
            assert!(c.warnings.is_empty(), "{name}: {:?}", c.warnings);
        }
        if let Some(max) = want.get("maxTokens").and_then(Value::as_u64) {
            let total: i64 = c
                .chunks
                .iter()
                .filter_map(|ch| ch.metadata.get_int("tokenCount"))
                .sum();
            assert!(total as u64 <= max, "{name}: {total} tokens > {max}");
        }
    }
}

/// The members of a zip, by name (the deflate streams themselves depend on the zlib
/// build that wrote them).
fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    use std::io::Read;
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            (f.name().unwrap().to_string(), data)
        })
        .collect()
}

/// The committed fixtures are what the generator writes (so a reader of the generator
/// reads the tested content). Skipped with a note where python3 is missing.
#[test]
fn fixtures_match_their_generator() {
    let tmp = std::env::temp_dir().join(format!("docrag-fidelity-{}", std::process::id()));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/gen-fidelity-fixtures.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .env("DOCRAG_FIDELITY_OUT", &tmp)
        .output();
    let Ok(out) = out else {
        eprintln!("python3 not found: the fixture generator was not rerun");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for entry in std::fs::read_dir(&tmp).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let (fresh, committed) = (
            std::fs::read(&path).unwrap(),
            std::fs::read(dir().join(name)).unwrap(),
        );
        if path.extension().is_some_and(|e| e == "docx") {
            assert_eq!(
                members(&fresh),
                members(&committed),
                "{name:?} differs from the generator's"
            );
        } else {
            assert_eq!(
                fresh, committed,
                "{name:?} differs from scripts/gen-fidelity-fixtures.py's output"
            );
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
}
