//! Integration tests of the DOCX reader over the shared corpus and synthetic packages.

use docrag::Limits;
use docrag::model::*;
use docrag::read::docx;

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../shared/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(name: &str) -> Document {
    docx::read(&corpus(name), &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Prints a document's body text and structure (run with `--nocapture` to look).
#[test]
#[ignore]
fn dump() {
    let name = std::env::var("DOCX").unwrap_or_else(|_| "pandoc__comments.docx".into());
    let d = read(&name);
    println!("{:#?}", d);
    println!("----\n{}", d.body_text());
}
