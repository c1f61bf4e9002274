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

/// A compact outline of a document: one line per block, then parts, notes, comments
/// and warnings.
fn outline(d: &Document) -> String {
    fn inl(i: &[Inline]) -> String {
        let mut s = String::new();
        for x in i {
            match x {
                Inline::Text { text, .. } => s.push_str(text),
                Inline::Tab => s.push_str("\\t"),
                Inline::LineBreak => s.push_str("\\n"),
                Inline::PageBreak => s.push_str("<PAGE>"),
                Inline::Link { target, children } => {
                    s.push_str(&format!("[{}]({target})", inl(children)))
                }
                Inline::Revision {
                    kind,
                    author,
                    children,
                    ..
                } => s.push_str(&format!("{{{kind:?} {author:?}: {}}}", inl(children))),
                Inline::CommentAnchor { id, mark } => s.push_str(&format!("<c{id}:{mark:?}>")),
                Inline::NoteRef { kind, id } => s.push_str(&format!("<{kind:?} {id}>")),
                Inline::Field { code, children } => {
                    s.push_str(&format!("<{code}|{}>", inl(children)))
                }
                Inline::Image { alt } => s.push_str(&format!("<img {alt}>")),
            }
        }
        s
    }
    fn blocks(b: &[Block], depth: usize, out: &mut String) {
        let pad = "  ".repeat(depth);
        for x in b {
            match x {
                Block::Paragraph(p) => {
                    out.push_str(&format!("{pad}{:?}: {}\n", p.kind, inl(&p.inlines)))
                }
                Block::Table(t) => {
                    out.push_str(&format!("{pad}TABLE\n"));
                    for r in &t.rows {
                        out.push_str(&format!(
                            "{pad} ROW header={} rev={:?}\n",
                            r.header, r.revision
                        ));
                        for c in &r.cells {
                            out.push_str(&format!("{pad}  CELL {}x{}\n", c.col_span, c.row_span));
                            blocks(&c.blocks, depth + 2, out);
                        }
                    }
                }
                other => out.push_str(&format!("{pad}{other:?}\n")),
            }
        }
    }
    let mut out = String::new();
    out.push_str(&format!("{:?}\n", d.properties));
    blocks(&d.body, 0, &mut out);
    for p in &d.parts {
        out.push_str(&format!(
            "PART {:?} {:?} s{}\n",
            p.kind, p.variant, p.section
        ));
        blocks(&p.blocks, 1, &mut out);
    }
    for n in &d.notes {
        out.push_str(&format!("NOTE {:?} {}\n", n.kind, n.id));
        blocks(&n.blocks, 1, &mut out);
    }
    for c in &d.comments {
        out.push_str(&format!("COMMENT {c:?}\n"));
    }
    for w in &d.warnings {
        out.push_str(&format!("WARN {}: {}\n", w.code, w.message));
    }
    out
}

/// `DOCX=name cargo test --test docx_reader show -- --ignored --nocapture`
#[test]
#[ignore]
fn show() {
    let name = std::env::var("DOCX").unwrap_or_else(|_| "pandoc__comments.docx".into());
    println!("{}", outline(&read(&name)));
}

fn manifest_docx() -> Vec<(String, bool)> {
    let path = format!(
        "{}/../shared/corpus/MANIFEST.tsv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("manifest");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.get(5) == Some(&"docx")).then(|| {
                let broken = f
                    .get(6)
                    .is_some_and(|x| x.split(',').any(|t| t == "broken"));
                (f[0].to_string(), broken)
            })
        })
        .collect()
}

/// Every corpus DOCX reads; broken ones read or fail with a typed error.
#[test]
fn every_corpus_docx_reads() {
    for (name, broken) in manifest_docx() {
        let bytes = corpus(&name);
        let t = std::time::Instant::now();
        let r = docrag::read::read(&bytes, &docrag::ConvertOptions::new());
        eprintln!(
            "{name}: {:?} in {:?}",
            r.as_ref().map(|d| d.body.len()).map_err(|e| e.code()),
            t.elapsed()
        );
        match r {
            Ok(_) => {}
            Err(e) if broken => assert!(!e.code().is_empty()),
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

/// Writes every corpus outline to `$DUMP_DIR` (for looking at output).
#[test]
#[ignore]
fn dump_all() {
    let dir = std::env::var("DUMP_DIR").unwrap_or_else(|_| "/tmp/docx-out".into());
    std::fs::create_dir_all(&dir).expect("dir");
    for (name, _) in manifest_docx() {
        if let Ok(d) = docx::read(&corpus(&name), &Limits::default()) {
            std::fs::write(format!("{dir}/{name}.txt"), outline(&d)).expect("write");
        }
    }
}

/// Pages the model implies: 1 + page breaks + new-page section breaks.
fn page_count(d: &Document) -> usize {
    fn inl(i: &[Inline]) -> usize {
        i.iter()
            .map(|x| match x {
                Inline::PageBreak => 1,
                Inline::Link { children, .. }
                | Inline::Revision { children, .. }
                | Inline::Field { children, .. } => inl(children),
                _ => 0,
            })
            .sum()
    }
    fn blocks(b: &[Block]) -> usize {
        b.iter()
            .map(|x| match x {
                Block::PageBreak | Block::SectionBreak { new_page: true } => 1,
                Block::Paragraph(p) => inl(&p.inlines),
                Block::Table(t) => t
                    .rows
                    .iter()
                    .flat_map(|r| &r.cells)
                    .map(|c| blocks(&c.blocks))
                    .sum(),
                Block::Quote(q) => blocks(q),
                _ => 0,
            })
            .sum()
    }
    1 + blocks(&d.body)
}

/// `docProps/app.xml` `<Pages>` of a corpus file, if any.
fn app_pages(bytes: &[u8]) -> Option<usize> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).ok()?;
    let mut s = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("docProps/app.xml").ok()?, &mut s).ok()?;
    let at = s.find("<Pages>")? + 7;
    s.get(at..)?.split('<').next()?.trim().parse().ok()
}

/// Prints our page count next to Word's for every corpus file.
#[test]
#[ignore]
fn page_table() {
    for (name, _) in manifest_docx() {
        let bytes = corpus(&name);
        if let Ok(d) = docx::read(&bytes, &Limits::default()) {
            let rendered = String::from_utf8_lossy(&bytes).len(); // placeholder
            let _ = rendered;
            println!("{:>4} {:>4?}  {name}", page_count(&d), app_pages(&bytes));
        }
    }
}
