//! Integration tests of the Markdown reader: every Markdown file of the shared corpus
//! (by its MANIFEST format, whatever the extension), synthetic structure checks and
//! hostile input.

use std::time::{Duration, Instant};

use docrag::model::*;
use docrag::read::markdown;
use docrag::{ConvertError, ConvertOptions};

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../shared/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn md(text: &str) -> Document {
    markdown::read(text.as_bytes(), &ConvertOptions::default()).expect("markdown never fails")
}

fn read(name: &str) -> Document {
    markdown::read(&corpus(name), &ConvertOptions::default()).expect("markdown never fails")
}

fn inline_text(inlines: &[Inline]) -> String {
    let mut s = String::new();
    for i in inlines {
        i.plain_text(&mut s);
    }
    s
}

fn block_text(b: &Block) -> String {
    let mut s = String::new();
    b.plain_text(&mut s);
    s
}

/// Every paragraph (any depth except table cells) with its kind.
fn paragraphs(blocks: &[Block]) -> Vec<(ParagraphKind, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<&Block> = blocks.iter().rev().collect();
    while let Some(b) = stack.pop() {
        match b {
            Block::Paragraph(p) => out.push((p.kind.clone(), inline_text(&p.inlines))),
            Block::Quote(inner) => stack.extend(inner.iter().rev()),
            _ => {}
        }
    }
    out
}

fn headings(d: &Document) -> Vec<(u8, String)> {
    paragraphs(&d.body)
        .into_iter()
        .filter_map(|(k, t)| match k {
            ParagraphKind::Heading(n) => Some((n, t)),
            _ => None,
        })
        .collect()
}

fn tables(blocks: &[Block]) -> Vec<&Table> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn cell_texts(row: &Row) -> Vec<String> {
    row.cells
        .iter()
        .map(|c| {
            c.blocks
                .iter()
                .map(block_text)
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

/// Headings of a converted file, as the chunker's metadata sees them.
fn heading_paths(name: &str) -> Vec<String> {
    let out = docrag::convert(&corpus(name), &ConvertOptions::new().with_file_name(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    out.chunks
        .iter()
        .filter_map(|c| c.metadata.get_str("headingPath").map(str::to_string))
        .collect()
}

#[test]
fn manual_front_matter_headings_code_and_definitions() {
    let d = read("pandoc__MANUAL.txt");
    assert_eq!(d.properties.title.as_deref(), Some("Pandoc User's Guide"));
    assert_eq!(d.properties.author.as_deref(), Some("John MacFarlane"));
    assert!(
        !d.body_text().contains("title: Pandoc"),
        "front matter is not text"
    );
    let h = headings(&d);
    assert_eq!(h[0], (1, "Synopsis".to_string()));
    assert!(h.contains(&(2, "Specifying formats".to_string())));
    assert!(h.contains(&(1, "Pandoc's Markdown".to_string())));
    // Heading attributes ({#id}) are not text.
    assert!(h.iter().all(|(_, t)| !t.contains("{#")), "{h:?}");
    let langs: Vec<_> = d
        .body
        .iter()
        .filter_map(|b| match b {
            Block::Code { language, .. } => language.clone(),
            _ => None,
        })
        .collect();
    assert!(langs.iter().any(|l| l == "lua"), "{langs:?}");
    // Definition list terms are bold paragraphs.
    let term = d.body.iter().find_map(|b| match b {
        Block::Paragraph(p) if inline_text(&p.inlines).starts_with("-f FORMAT") => Some(p),
        _ => None,
    });
    let term = term.expect("the -f option term");
    assert!(matches!(&term.inlines[0], Inline::Text { style, .. } if style.bold && style.code));
    let paths = heading_paths("pandoc__MANUAL.txt");
    assert!(
        paths
            .iter()
            .any(|p| p == "Description > Specifying formats"),
        "{paths:?}"
    );
}

#[test]
fn pipe_tables() {
    let d = read("pandoc__pipe-tables.txt");
    let t = tables(&d.body);
    assert_eq!(t.len(), 11);
    // "Table without sides": header row flagged, body cell values.
    let fruit = t
        .iter()
        .find(|t| cell_texts(&t.rows[0]) == ["Fruit", "Quantity"])
        .expect("fruit table");
    assert!(fruit.rows[0].header && !fruit.rows[1].header);
    assert_eq!(cell_texts(&fruit.rows[3]), ["pear", "302"]);
    // Escaped pipe stays inside its cell.
    let tricky = t.last().expect("tricky table");
    assert!(cell_texts(&tricky.rows[3]).contains(&"and|escaped".to_string()));
    // The caption line of pandoc's syntax stays as text.
    assert!(
        d.body_text()
            .contains(": Demonstration of simple table syntax.")
    );
}

#[test]
fn testsuite_title_block_footnotes_lists_quotes() {
    let d = read("pandoc__testsuite.txt");
    assert_eq!(d.properties.title.as_deref(), Some("Pandoc Test Suite"));
    assert_eq!(
        d.properties.author.as_deref(),
        Some("John MacFarlane; Anonymous")
    );
    assert_eq!(d.properties.created.as_deref(), Some("July 17, 2006"));
    let h = headings(&d);
    assert_eq!(h[0], (1, "Headers".to_string()));
    assert_eq!(h[1], (2, "Level 2 with an embedded link".to_string()));
    assert!(h.contains(&(3, "Level 3 with emphasis".to_string())));
    assert!(h.contains(&(5, "Level 5".to_string())));
    // Footnotes: in order of first reference, with their text; references inline.
    let ids: Vec<_> = d.notes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["1", "longnote"]);
    let first = block_text(&d.notes[0].blocks[0]);
    assert!(first.starts_with("Here is the footnote."), "{first}");
    assert!(
        d.notes[1]
            .blocks
            .iter()
            .any(|b| matches!(b, Block::Code { .. }))
    );
    let with_ref = d.body.iter().any(|b| {
        matches!(b, Block::Paragraph(p) if p.inlines.iter().any(|i| matches!(i,
            Inline::NoteRef { kind: NoteKind::Footnote, id } if id == "longnote")))
    });
    assert!(with_ref);
    // Ordered lists keep their numbers; nested lists their level.
    let items: Vec<_> = paragraphs(&d.body)
        .into_iter()
        .filter_map(|(k, t)| match k {
            ParagraphKind::ListItem {
                ordered,
                level,
                number,
            } => Some((ordered, level, number, t)),
            _ => None,
        })
        .collect();
    assert!(
        items.contains(&(true, 0, 3, "Third".to_string())),
        "{items:?}"
    );
    assert!(
        items.iter().any(|(o, l, _, t)| !o && *l == 2 && t == "Tab"),
        "{items:?}"
    );
    // "> 1." is a block quote holding an empty ordered item (CommonMark 5.2).
    assert!(items.contains(&(true, 0, 1, String::new())));
    // Block quotes nest.
    let nested = d.body.iter().any(|b| match b {
        Block::Quote(inner) => inner.iter().any(|b| matches!(b, Block::Quote(_))),
        _ => false,
    });
    assert!(nested);
    assert!(d.body.contains(&Block::Rule));
}

#[test]
fn es6_proxy_cjk_and_javascript() {
    let d = read("es6tutorial__proxy.md");
    let h = headings(&d);
    assert_eq!(h[0], (1, "Proxy".to_string()));
    assert_eq!(h[1], (2, "概述".to_string()));
    assert!(h.contains(&(3, "get()".to_string())));
    assert!(d.body_text().contains("Proxy 用于修改某些操作的默认行为"));
    let code = d.body.iter().find_map(|b| match b {
        Block::Code { language, text } => Some((language.clone(), text.clone())),
        _ => None,
    });
    let (lang, text) = code.expect("a code block");
    assert_eq!(lang.as_deref(), Some("javascript"));
    assert!(text.starts_with("var obj = new Proxy({}, {"));
    assert!(!text.ends_with('\n'));
    let paths = heading_paths("es6tutorial__proxy.md");
    assert!(
        paths
            .iter()
            .any(|p| p == "Proxy > Proxy 实例的方法 > get()"),
        "{paths:?}"
    );
}

#[test]
fn inline_structure() {
    let d = md(
        "Some *it* **bold** ~~gone~~ `code` [link](http://x.org \"t\") ![alt *text*](i.png)  \nnext<br>line <span>raw</span>\n",
    );
    let Block::Paragraph(p) = &d.body[0] else {
        panic!("{:?}", d.body)
    };
    let styled = |want: &str| {
        p.inlines.iter().find_map(|i| match i {
            Inline::Text { text, style } if text == want => Some(*style),
            _ => None,
        })
    };
    assert!(styled("it").is_some_and(|s| s.italic));
    assert!(styled("bold").is_some_and(|s| s.bold));
    assert!(styled("gone").is_some_and(|s| s.strike));
    assert!(styled("code").is_some_and(|s| s.code));
    assert!(p.inlines.iter().any(|i| matches!(i,
        Inline::Link { target, children } if target == "http://x.org" && inline_text(children) == "link")));
    assert!(p.inlines.contains(&Inline::Image {
        alt: "alt text".into()
    }));
    assert_eq!(
        p.inlines
            .iter()
            .filter(|i| **i == Inline::LineBreak)
            .count(),
        2
    );
    assert!(inline_text(&p.inlines).ends_with("line <span>raw</span>"));
}

#[test]
fn lists_tasks_and_loose_items() {
    let d = md("7. seven\n8. eight\n   - [ ] todo\n   - [x] done\n\n     more\n\n-\n");
    let p = paragraphs(&d.body);
    let li = |ordered, level, number| ParagraphKind::ListItem {
        ordered,
        level,
        number,
    };
    assert_eq!(p[0], (li(true, 0, 7), "seven".into()));
    assert_eq!(p[1], (li(true, 0, 8), "eight".into()));
    assert_eq!(p[2], (li(false, 1, 1), "☐ todo".into()));
    assert_eq!(p[3], (li(false, 1, 2), "☒ done".into()));
    assert_eq!(p[4], (ParagraphKind::Normal, "more".into()));
    assert_eq!(
        p[5],
        (li(false, 0, 1), String::new()),
        "an empty item keeps its marker"
    );
}

#[test]
fn code_html_rules_and_tables() {
    let d = md(
        "```rust title=x\nfn main() {}\n```\n\n    indented\n\n<!-- only a comment -->\n\n<div>\nhtml text\n</div>\n\n***\n\n| a | b |\n|---|---|\n| 1 |\n",
    );
    assert_eq!(
        d.body[0],
        Block::Code {
            language: Some("rust".into()),
            text: "fn main() {}".into()
        }
    );
    assert_eq!(
        d.body[1],
        Block::Code {
            language: None,
            text: "indented".into()
        }
    );
    assert!(block_text(&d.body[2]).contains("html text"));
    assert_eq!(d.body[3], Block::Rule);
    let t = tables(&d.body)[0];
    assert_eq!(cell_texts(&t.rows[1]), ["1", ""], "short rows are padded");
}

#[test]
fn front_matter_only_at_start() {
    let d =
        md("---\ntitle: My Doc\ndescription: About it\n---\n\nText\n\n---\nnot: metadata\n---\n");
    assert_eq!(d.properties.title.as_deref(), Some("My Doc"));
    assert_eq!(d.properties.description.as_deref(), Some("About it"));
    let t = d.body_text();
    assert!(t.starts_with("Text\n"), "{t}");
    assert!(t.contains("not: metadata"), "{t}");
}

#[test]
fn bad_bytes_never_fail() {
    let d = markdown::read(b"# T\xFF\xFEitle\0\n\nok\x01\n", &ConvertOptions::default()).unwrap();
    assert!(d.body_text().contains("ok"));
    assert!(d.warnings.iter().any(|w| w.code == "control-characters"));
    assert!(matches!(
        docrag::convert(b"", &ConvertOptions::new().with_file_name("a.md")),
        Err(ConvertError::Empty)
    ));
    let d = md("   \n\n");
    assert!(d.body.is_empty());
}

/// Runs `f` and checks it took less than `secs` (release and debug builds alike).
fn timed<T>(secs: u64, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    assert!(
        t.elapsed() < Duration::from_secs(secs),
        "took {:?}",
        t.elapsed()
    );
    out
}

#[test]
fn deep_quotes_are_flattened() {
    let text = ">".repeat(100_000) + " deep\n";
    let d = timed(20, || md(&text));
    assert!(d.warnings.iter().any(|w| w.code == "nesting-flattened"));
    let mut depth = 0;
    let mut b = &d.body;
    while let Some(Block::Quote(inner)) = b.first() {
        depth += 1;
        b = inner;
    }
    assert_eq!(depth, docrag::Limits::default().max_depth);
    assert_eq!(block_text(&b[0]), "deep\n");
    // And the whole pipeline (chunker included) survives it.
    let out = docrag::convert(
        text.as_bytes(),
        &ConvertOptions::new().with_file_name("q.md"),
    );
    assert!(out.is_ok());
}

#[test]
fn deep_lists_and_brackets() {
    let mut text = String::new();
    for i in 0..100_000usize {
        text.push_str(&" ".repeat((i % 50) * 2));
        text.push_str("- x\n");
    }
    timed(20, || md(&text));
    let nested: String = "- ".repeat(100_000) + "x\n";
    let d = timed(20, || md(&nested));
    assert!(d.warnings.iter().any(|w| w.code == "nesting-flattened"));
    let brackets = "[".repeat(100_000) + &"](x)".repeat(10) + &"]".repeat(100_000);
    let d = timed(20, || md(&brackets));
    assert!(d.body_text().len() >= 200_000);
    let stars = "*a ".repeat(50_000) + &"b* ".repeat(50_000);
    timed(20, || md(&stars));
}
