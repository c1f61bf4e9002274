//! Helpers shared by the integration tests: corpus files, text of conversions and
//! blocks, walking the model, adding corpus documents to a query collection. Each test
//! binary uses a subset, hence the `dead_code` allowance.
#![allow(dead_code)]

use docrag::Conversion;
use docrag::model::{Block, Cell};

/// The bytes of `../shared/corpus/<name>`; panics naming the path when missing.
pub fn corpus(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every chunk's text, joined by newlines.
pub fn chunks_text(c: &Conversion) -> String {
    c.chunks
        .iter()
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plain text of blocks (the model's own plain-text consumer).
pub fn blocks_text(blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        b.plain_text(&mut s);
    }
    s
}

/// A cell's plain text, trimmed.
pub fn cell_text(c: &Cell) -> String {
    blocks_text(&c.blocks).trim().to_string()
}

/// Every block, quotes and table cells included, in document order, without recursion.
pub fn all_blocks(body: &[Block]) -> Vec<&Block> {
    let mut out = Vec::new();
    let mut stack: Vec<&Block> = body.iter().rev().collect();
    while let Some(b) = stack.pop() {
        out.push(b);
        match b {
            Block::Quote(inner) => stack.extend(inner.iter().rev()),
            Block::Table(t) => {
                for row in t.rows.iter().rev() {
                    for cell in row.cells.iter().rev() {
                        stack.extend(cell.blocks.iter().rev());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Converts corpus file `name` at `max_tokens`, adds it to `c`, returns its doc id.
pub fn add_corpus_doc(c: &mut docrag::query::Collection, name: &str, max_tokens: usize) -> String {
    add_doc(c, name, &corpus(name), max_tokens)
}

/// Converts `bytes` as file `name` at `max_tokens`, adds it to `c`, returns its doc id.
pub fn add_doc(
    c: &mut docrag::query::Collection,
    name: &str,
    bytes: &[u8],
    max_tokens: usize,
) -> String {
    let o = docrag::ConvertOptions::new()
        .with_file_name(name)
        .with_max_tokens(max_tokens)
        .expect("valid max_tokens");
    let conv = docrag::convert(bytes, &o).expect("converts");
    let id = conv.doc_id.clone();
    c.add(conv).expect("adds");
    c.set_file_name(&id, name);
    id
}

/// A collection of one document the test wrote: `text` as file `name`, 512-token chunks.
pub fn collection_of(name: &str, text: &str) -> docrag::query::Collection {
    let mut c = docrag::query::Collection::new();
    add_doc(&mut c, name, text.as_bytes(), 512);
    c
}

/// The extractive answer to `q` over `c`, default options.
pub fn answer_of(c: &docrag::query::Collection, q: &str) -> docrag::query::answer::Answer {
    use docrag::query::{QueryOptions, Replies, ask};
    ask(c, q, &[], &Replies::default(), &QueryOptions::new())
        .expect("asks")
        .answer
}

/// The fake embedding model of the hybrid retrieval tests.
pub const MODEL: &str = "fake-bow-64";
/// Its dimension.
pub const DIM: usize = 64;

/// The fake embedding model: lowercase alphanumeric words of three letters or more,
/// each hashed (FNV-1a) into one of 64 buckets, counted. Texts sharing words point the
/// same way; a text with no such word is the unit vector on bucket 0.
pub fn embed(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; DIM];
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
    {
        let mut h: u32 = 0x811c_9dc5;
        for b in w.to_lowercase().bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        v[(h as usize) % DIM] += 1.0;
    }
    if v.iter().all(|&x| x == 0.0) {
        v[0] = 1.0;
    }
    v
}

/// The WordprocessingML namespace (ECMA-376 Part 1, 17).
pub const W_NS: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/// A zip with the given members (deflated).
pub fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        w.start_file(*name, opts).expect("start");
        w.write_all(data).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

/// A minimal package: `document.xml` body content plus optional extra parts and
/// document relationships (`(id, type suffix, target)`).
pub fn docx_with(body: &str, extra: &[(&str, &str)], rels: &[(&str, &str, &str)]) -> Vec<u8> {
    let doc = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W_NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>{body}</w:body></w:document>"#
    );
    let pkg_rels = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
    let mut doc_rels = String::from(
        r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for (id, kind, target) in rels {
        doc_rels.push_str(&format!(
            r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>"#
        ));
    }
    doc_rels.push_str("</Relationships>");
    let mut members: Vec<(&str, &[u8])> = vec![
        ("_rels/.rels", pkg_rels.as_bytes()),
        ("word/document.xml", doc.as_bytes()),
        ("word/_rels/document.xml.rels", doc_rels.as_bytes()),
    ];
    for (n, d) in extra {
        members.push((n, d.as_bytes()));
    }
    zip_of(&members)
}
pub mod pdf;
