//! Integration tests of the DOCX reader over the shared corpus and synthetic packages.

mod common;
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
                Inline::Math { tex, display } => s.push_str(&format!("<math {display} {tex}>")),
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
            Ok(d) => {
                let unknown: Vec<&Warning> = d
                    .warnings
                    .iter()
                    .filter(|w| w.code == "unknown-element")
                    .collect();
                assert!(unknown.is_empty(), "{name}: {unknown:?}");
            }
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

// ---------------------------------------------------------------------------------
// Helpers over the model.

fn para_text(p: &Paragraph) -> String {
    let mut s = String::new();
    for i in &p.inlines {
        i.plain_text(&mut s);
    }
    s
}

/// Every paragraph in document order, descending into tables.
fn paragraphs(blocks: &[Block]) -> Vec<&Paragraph> {
    let mut out = Vec::new();
    for b in blocks {
        match b {
            Block::Paragraph(p) => out.push(p),
            Block::Table(t) => {
                for r in &t.rows {
                    for c in &r.cells {
                        out.extend(paragraphs(&c.blocks));
                    }
                }
            }
            Block::Quote(q) => out.extend(paragraphs(q)),
            _ => {}
        }
    }
    out
}

/// Every inline (pre-order), descending into links, revisions and fields.
fn inlines(blocks: &[Block]) -> Vec<&Inline> {
    fn walk<'a>(i: &'a [Inline], out: &mut Vec<&'a Inline>) {
        for x in i {
            out.push(x);
            if let Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } = x
            {
                walk(children, out);
            }
        }
    }
    let mut out = Vec::new();
    for p in paragraphs(blocks) {
        walk(&p.inlines, &mut out);
    }
    out
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

fn cell_text(c: &Cell) -> String {
    let mut s = String::new();
    for b in &c.blocks {
        b.plain_text(&mut s);
    }
    s.trim_end().to_string()
}

/// The text between the Start and End anchors of comment `id`, in the body.
fn anchored_text(d: &Document, id: &str) -> String {
    fn walk(i: &[Inline], id: &str, on: &mut bool, out: &mut String) {
        for x in i {
            match x {
                Inline::CommentAnchor { id: a, mark } if a == id => match mark {
                    AnchorMark::Start => *on = true,
                    AnchorMark::End => *on = false,
                    AnchorMark::Reference => {}
                },
                Inline::Link { children, .. }
                | Inline::Revision { children, .. }
                | Inline::Field { children, .. } => walk(children, id, on, out),
                other if *on => other.plain_text(out),
                _ => {}
            }
        }
    }
    let mut on = false;
    let mut out = String::new();
    for p in paragraphs(&d.body) {
        walk(&p.inlines, id, &mut on, &mut out);
        if on {
            out.push('\n');
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// Synthetic packages.

use common::{W_NS, docx_with, zip_of};

fn docx(body: &str) -> Vec<u8> {
    docx_with(body, &[], &[])
}

fn read_bytes(bytes: &[u8]) -> Result<Document, docrag::ConvertError> {
    docx::read(bytes, &Limits::default())
}

// ---------------------------------------------------------------------------------
// Corpus assertions.

#[test]
fn merged_cells_become_row_spans() {
    let d = read("powertools__HC029-Table-Merged-Cells.docx");
    let t = tables(&d.body);
    assert_eq!(t.len(), 2);
    // Table 1: "100" spans two rows; the covered cell is omitted from row 3.
    let r1 = &t[0].rows[1];
    assert_eq!(cell_text(&r1.cells[0]).lines().next(), Some("100"));
    assert_eq!((r1.cells[0].col_span, r1.cells[0].row_span), (1, 2));
    assert_eq!(t[0].rows[2].cells.len(), 2);
    assert_eq!(cell_text(&t[0].rows[2].cells[0]), "500");
    // Table 2: "100" spans two columns.
    let r1 = &t[1].rows[1];
    assert_eq!((r1.cells[0].col_span, r1.cells[0].row_span), (2, 1));
    assert_eq!(cell_text(&r1.cells[1]), "300");
}

#[test]
fn header_rowspans_keep_grid_positions() {
    let d = read("pandoc__table_header_rowspan.docx");
    let t = tables(&d.body)[0];
    let first = &t.rows[0];
    let texts: Vec<String> = first.cells.iter().map(cell_text).collect();
    assert_eq!(texts, ["A", "B", "C", "D", "E", "F"]);
    assert_eq!(first.cells[0].row_span, 2);
    assert_eq!(first.cells[4].col_span, 3);
    // Row 2 holds only the three cells under "E".
    let second: Vec<String> = t.rows[1].cells.iter().map(cell_text).collect();
    assert_eq!(second, ["G", "H", "I"]);
    assert_eq!(t.rows[2].cells.len(), 8);
}

#[test]
fn deletion_keeps_author_and_text() {
    let d = read("tika__testWORD_embedded_pics.docx");
    let del = inlines(&d.body)
        .into_iter()
        .find_map(|i| match i {
            Inline::Revision {
                kind: RevisionKind::Deletion,
                author,
                children,
                ..
            } => Some((author.clone(), children.clone())),
            _ => None,
        })
        .expect("a deletion");
    assert_eq!(del.0.as_deref(), Some("Allison, Timothy B."));
    let mut s = String::new();
    for c in &del.1 {
        c.plain_text(&mut s);
    }
    assert!(s.contains("deleted pic"), "{s}");
    // Nested tables three deep, text at the bottom.
    assert!(d.body_text().contains("Deeply embedded"));
    let t = tables(&d.body)[0];
    let nested = tables(&t.rows[1].cells[1].blocks);
    assert_eq!(nested.len(), 1);
}

#[test]
fn moves_carry_both_sides() {
    let d = read("pandoc__track_changes_move.docx");
    let moves: Vec<(RevisionKind, Option<String>, String)> = inlines(&d.body)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Revision {
                kind,
                author,
                children,
                ..
            } => {
                let mut s = String::new();
                children.iter().for_each(|c| c.plain_text(&mut s));
                Some((*kind, author.clone(), s))
            }
            _ => None,
        })
        .collect();
    let author = Some("Jesse Rosenthal".to_string());
    assert!(moves.contains(&(
        RevisionKind::MoveTo,
        author.clone(),
        "Here is the text to be moved.".into()
    )));
    assert!(moves.contains(&(
        RevisionKind::MoveFrom,
        author,
        "Here is the text to be moved.".into()
    )));
}

#[test]
fn comments_with_ranges_and_replies() {
    let d = read("pandoc__comments.docx");
    assert_eq!(d.comments.len(), 5);
    assert!(
        d.comments
            .iter()
            .all(|c| c.author.as_deref() == Some("Jesse Rosenthal"))
    );
    assert_eq!(d.comments[0].text, "I left a comment.");
    assert_eq!(
        d.comments[2].text,
        "This one has multiple paragraphs.\nSee?"
    );
    assert_eq!(d.comments[4].parent.as_deref(), Some("3"));
    assert_eq!(d.comments[3].parent, None);
    assert_eq!(anchored_text(&d, "0"), "some text to have a comment ");
    assert_eq!(anchored_text(&d, "4"), "comment in a comment");
    // The comment spanning paragraphs covers both.
    assert!(anchored_text(&d, "1").contains('\n'));
}

#[test]
fn reference_only_comment_survives() {
    let d = read("poi__comment.docx");
    let c = &d.comments[0];
    assert_eq!(c.author.as_deref(), Some("Unbekannter Autor"));
    assert_eq!(c.text, "This is the first line\nThis is the second line");
    assert!(inlines(&d.body).iter().any(|i| matches!(
        i,
        Inline::CommentAnchor { id, mark: AnchorMark::Reference } if id == &c.id
    )));
}

#[test]
fn comment_authors_odd_and_empty() {
    let d = read("openxmlsdk__Comment028.docx");
    assert_eq!(d.comments.len(), 15);
    assert!(
        d.comments[0]
            .author
            .as_deref()
            .is_some_and(|a| a.contains("<Arman Aghaei <"))
    );
    assert_eq!(d.comments.iter().filter(|c| c.parent.is_some()).count(), 10);
    let d = read("python-docx__comments-rich-para.docx");
    assert_eq!(d.comments.len(), 4);
    assert_eq!(d.comments[0].author.as_deref(), Some("Steve Canny"));
    assert_eq!(d.comments[1].author, None);
}

#[test]
fn footnotes_and_endnotes() {
    let d = read("pandoc__notes.docx");
    let refs: Vec<&Inline> = inlines(&d.body)
        .into_iter()
        .filter(|i| matches!(i, Inline::NoteRef { .. }))
        .collect();
    assert_eq!(refs.len(), 2);
    assert_eq!(d.notes.len(), 2);
    assert_eq!(d.notes[0].kind, NoteKind::Footnote);
    let mut s = String::new();
    d.notes[0].blocks.iter().for_each(|b| b.plain_text(&mut s));
    assert_eq!(s.trim(), "My note.");
    assert_eq!(d.notes[1].kind, NoteKind::Endnote);
}

#[test]
fn heading_levels_from_styles() {
    let d = read("pandoc__0_level_headers.docx");
    let kinds: Vec<(ParagraphKind, String)> = paragraphs(&d.body)
        .into_iter()
        .filter(|p| p.kind != ParagraphKind::Normal)
        .map(|p| (p.kind.clone(), para_text(p)))
        .collect();
    // "Heading 0" is a custom style with w:outlineLvl 7.
    assert!(kinds.contains(&(ParagraphKind::Heading(8), "FIGURES".into())));
    assert!(kinds.contains(&(ParagraphKind::Title, "CONTENTS".into())));
    assert!(
        kinds
            .iter()
            .any(|(k, t)| *k == ParagraphKind::Heading(1) && t.contains("Introduction"))
    );
    let d = read("pandoc__notes.docx");
    assert_eq!(paragraphs(&d.body)[0].kind, ParagraphKind::Heading(2));
}

#[test]
fn localized_list_styles() {
    let d = read("pandoc__german_styled_lists.docx");
    let items: Vec<(u8, String)> = paragraphs(&d.body)
        .into_iter()
        .filter_map(|p| match p.kind {
            ParagraphKind::ListItem {
                level,
                ordered: false,
                ..
            } => Some((level, para_text(p))),
            _ => None,
        })
        .collect();
    assert_eq!(items.len(), 4);
    assert_eq!(items[2], (1, "Next level of the list".into()));
}

#[test]
fn numbered_headings_get_labels() {
    let d = read("powertools__LIR008-zh-CH-chineseCountingThousand.docx");
    let heads: Vec<String> = paragraphs(&d.body)
        .into_iter()
        .filter(|p| matches!(p.kind, ParagraphKind::Heading(_)))
        .map(para_text)
        .collect();
    assert_eq!(heads.len(), 3482);
    assert_eq!(heads[0], "一| 1");
    assert_eq!(heads[14], "十五| 15");
}

#[test]
fn page_counts() {
    // (file, Word's docProps/app.xml Pages) where the reader matches exactly.
    for (name, pages) in [
        ("python-docx__doc-odd-even-hdrs.docx", 2),
        ("pandoc__pageref.docx", 2),
        ("openxmlsdk__Comment028.docx", 2),
        ("powertools__RP052-Deleted-Para-Mark.docx", 3),
        ("pandoc__table_variable_width.docx", 2),
        ("pandoc__comments.docx", 1),
    ] {
        let bytes = corpus(name);
        assert_eq!(app_pages(&bytes), Some(pages), "{name}");
        assert_eq!(page_count(&read(name)), pages, "{name}");
    }
    // Close, and never more than Word: a stale layout (12 of 14) and odd-page
    // sections whose blank pages are partly inferred (6 of 7).
    assert_eq!(page_count(&read("poi__bug57031.docx")), 12);
    assert_eq!(page_count(&read("pandoc__0_level_headers.docx")), 6);
    // No page 1 is empty: the first block with content comes before any break.
    for name in ["poi__bug57031.docx", "docx4j__Docx4j_GettingStarted.docx"] {
        let d = read(name);
        assert!(!matches!(d.body.first(), Some(Block::PageBreak)), "{name}");
    }
}

#[test]
fn strict_documents_read() {
    let d = read("mammoth__strict-format.docx");
    assert_eq!(d.body_text().trim(), "Test");
    let d = read("openxmlsdk__Strict01.docx");
    let text = d.body_text();
    assert!(text.contains("Video provides a powerful way"));
    assert!(
        paragraphs(&d.body)
            .iter()
            .any(|p| p.kind == ParagraphKind::Heading(1) && para_text(p) == "Heading 1")
    );
    assert_eq!(d.comments.len(), 1);
    assert_eq!(d.comments[0].author.as_deref(), Some("Eric White"));
    assert!(!d.notes.is_empty());
    assert_eq!(d.properties.author.as_deref(), Some("Eric White"));
}

#[test]
fn a_vml_watermark_is_read_once_in_its_header() {
    // word/header2.xml: mc:AlternateContent whose VML Choice holds a v:textpath
    // (its `string` attribute is the watermark) and whose DrawingML Fallback holds
    // the same word in a text box.
    let bytes = corpus("openxmlsdk__Strict01.docx");
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes.as_slice())).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name("word/header2.xml").unwrap(), &mut xml).unwrap();
    let at = xml.find("<v:textpath ").unwrap();
    let attr = &xml[at..];
    let start = attr.find("string=\"").unwrap() + "string=\"".len();
    let mark = &attr[start..start + attr[start..].find('"').unwrap()];
    assert!(mark.chars().count() > 3);
    let d = read("openxmlsdk__Strict01.docx");
    let texts: Vec<String> = d
        .parts
        .iter()
        .filter(|p| p.kind == PartKind::Header)
        .map(|p| {
            let paras: Vec<String> = paragraphs(&p.blocks).iter().map(|x| para_text(x)).collect();
            paras.join("\n")
        })
        .collect();
    let holding: Vec<&String> = texts.iter().filter(|t| t.contains(mark)).collect();
    assert_eq!(holding.len(), 1, "{texts:#?}");
    assert_eq!(holding[0].matches(mark).count(), 1);
    assert!(!d.body_text().contains(mark));
    // The same shape in body text: its WordArt string, after the anchoring paragraph.
    let v = "xmlns:v=\"urn:schemas-microsoft-com:vml\"";
    let body = format!(
        "<w:p><w:r><w:t>Before</w:t></w:r><w:r><w:pict {v}><v:shape><v:textpath string=\" DRAFT \"/></v:shape></w:pict></w:r></w:p>"
    );
    let d = read_bytes(&docx(&body)).unwrap();
    let paras: Vec<String> = paragraphs(&d.body).iter().map(|p| para_text(p)).collect();
    assert_eq!(paras, vec!["Before", "DRAFT"]);
}

#[test]
fn main_part_through_package_rels() {
    let d = read("pandoc__alternate_document_path.docx");
    assert_eq!(paragraphs(&d.body)[0].kind, ParagraphKind::Heading(1));
    assert_eq!(para_text(paragraphs(&d.body)[0]), "Test");
    assert!(d.body_text().contains("bold italic underlined"));
}

#[test]
fn ruby_text_is_kept() {
    let d = read("poi__61470.docx");
    assert_eq!(d.body_text().trim(), "東京(とうきょう)");
}

#[test]
fn alt_chunk_html_is_read() {
    let d = read("tika__testAltChunkHTML.docx");
    let text = d.body_text();
    assert!(
        text.contains("Simple paragraph with a emphasized word."),
        "{text}"
    );
    // The HTML table is a real table now (read by the HTML reader): cells by tabs.
    assert!(text.contains("Col 1\tCol 2"), "{text}");
    let table = d.body.iter().find_map(|b| match b {
        docrag::model::Block::Table(t) => Some(t),
        _ => None,
    });
    assert!(table.is_some_and(|t| t.rows.len() >= 2), "{:?}", d.body);
}

#[test]
fn header_footer_variants() {
    let d = read("python-docx__doc-odd-even-hdrs.docx");
    let part = |kind: PartKind, variant: PartVariant| {
        d.parts
            .iter()
            .find(|p| p.kind == kind && p.variant == variant)
            .map(|p| {
                let mut s = String::new();
                p.blocks.iter().for_each(|b| b.plain_text(&mut s));
                s.trim().to_string()
            })
    };
    assert_eq!(
        part(PartKind::Header, PartVariant::Even).as_deref(),
        Some("Even page header.")
    );
    assert_eq!(
        part(PartKind::Header, PartVariant::Default).as_deref(),
        Some("Odd page header.")
    );
    assert!(part(PartKind::Footer, PartVariant::First).is_some());
    assert!(d.parts.iter().all(|p| p.section == 0));
    // Headers are not body text.
    assert!(!d.body_text().contains("page header"));
}

#[test]
fn fields_show_results() {
    let d = read("pandoc__instrText_hyperlink.docx");
    let link = inlines(&d.body)
        .into_iter()
        .find_map(|i| match i {
            Inline::Link { target, children } => Some((target.clone(), children.clone())),
            _ => None,
        })
        .expect("HYPERLINK field");
    assert!(link.0.starts_with("https://books.google"), "{}", link.0);
    assert!(!d.body_text().contains("HYPERLINK"));
    let d = read("pandoc__zotero_citations.docx");
    let text = d.body_text();
    assert!(text.contains("(Smith et al., 2013)"));
    assert!(!text.contains("CSL_CITATION"));
    let d = read("poi__checkboxes.docx");
    let text = d.body_text();
    assert_eq!(
        text.matches('☒').count() + text.matches('☐').count(),
        9,
        "{text}"
    );
    assert!(text.contains("Or checked: ☒"));
}

#[test]
fn text_box_content_read_once() {
    let d = read("powertools__WC050-Table-in-Text-Box.docx");
    let text = d.body_text();
    assert_eq!(text.matches("This is a test").count(), 1, "{text}");
    assert_eq!(tables(&d.body).len(), 1);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn math_text_is_kept() {
    let d = read("openxmlsdk__equation.docx");
    let text = d.body_text();
    // Math is LaTeX now (see `office_math_becomes_latex`).
    assert!(text.contains("\\cos\\alpha+\\cos\\beta"), "{text}");
    assert!(text.contains("\\infty"));
}

#[test]
fn content_controls_and_smart_tags_are_transparent() {
    let d = read("pandoc__nested_smart_tags.docx");
    assert!(d.body_text().contains("the king of Egypt died"));
    let d = read("pandoc__sdt_elements.docx");
    assert!(!tables(&d.body).is_empty());
    assert!(tables(&d.body)[0].rows[0].header);
    let d = read("powertools__RP018-MoveFrom-MoveTo-CC.docx");
    assert!(inlines(&d.body).iter().any(|i| matches!(
        i,
        Inline::Revision {
            kind: RevisionKind::MoveTo,
            ..
        }
    )));
}

#[test]
fn damaged_or_hostile_members() {
    // A CRC failure in an unneeded member (the theme) does not matter.
    let d = read("poi__clusterfuzz-testcase-minimized-POIXWPFFuzzer-6733884933668864.docx");
    assert!(!d.body_text().trim().is_empty());
    // An undefined (external) entity is dropped with a warning, never fetched.
    let d = read("poi__ExternalEntityInText.docx");
    assert!(d.warnings.iter().any(|w| w.code == "undefined-entity"));
    // Tracked cell insertion: one warning.
    let d = read("powertools__RP035-Inserted-Cells.docx");
    assert_eq!(
        d.warnings
            .iter()
            .filter(|w| w.code == "cell-revision")
            .count(),
        1
    );
}

#[test]
fn typed_errors() {
    use docrag::ConvertError as E;
    let opts = docrag::ConvertOptions::new();
    let r = docrag::read::read(&corpus("poi__bug53475-password-is-pass.docx"), &opts);
    assert!(matches!(r, Err(E::Encrypted)), "{r:?}");
    let r = docrag::read::read(&corpus("poi__simple-table.doc"), &opts);
    assert!(matches!(r, Err(E::LegacyDoc)), "{r:?}");
    let r = read_bytes(&corpus("poi__truncated62886.docx"));
    assert!(matches!(r, Err(E::NotZip { .. })), "{r:?}");
    let r = read_bytes(&corpus("mammoth__empty.zip"));
    assert!(matches!(r, Err(E::MissingMainPart { .. })), "{r:?}");
    // A zip without a main part names what was looked for.
    let r = read_bytes(&zip_of(&[("hello.txt", b"hi")]));
    match r {
        Err(E::MissingMainPart { detail }) => {
            assert!(detail.contains("word/document.xml"));
            assert!(detail.contains("has 1 other member,"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn zip_bomb_is_stopped() {
    let zeros = vec![0u8; 24 << 20];
    let bomb = zip_of(&[("word/document.xml", &zeros)]);
    let r = read_bytes(&bomb);
    assert!(
        matches!(
            r,
            Err(docrag::ConvertError::ZipBomb { .. } | docrag::ConvertError::TooLarge { .. })
        ),
        "{r:?}"
    );
    // The total cap holds even for members under the ratio limit.
    let limits = Limits {
        max_inflated_bytes: 300,
        ..Limits::default()
    };
    let r = docx::read(&docx("<w:p><w:r><w:t>hello</w:t></w:r></w:p>"), &limits);
    assert!(
        matches!(r, Err(docrag::ConvertError::TooLarge { .. })),
        "{r:?}"
    );
}

#[test]
fn absurd_nesting_is_too_deep() {
    for (open, close) in [
        ("<w:tbl><w:tr><w:tc>", "</w:tc></w:tr></w:tbl>"),
        ("<w:sdt><w:sdtContent>", "</w:sdtContent></w:sdt>"),
    ] {
        let body = format!("{}{}", open.repeat(10_000), close.repeat(10_000));
        let r = read_bytes(&docx(&body));
        assert!(
            matches!(r, Err(docrag::ConvertError::TooDeep { .. })),
            "{r:?}"
        );
    }
    // Just under the limit still reads (no stack overflow on the way).
    let body = format!(
        "{}<w:p><w:r><w:t>deep</w:t></w:r></w:p>{}",
        "<w:sdt><w:sdtContent>".repeat(120),
        "</w:sdtContent></w:sdt>".repeat(120)
    );
    let d = read_bytes(&docx(&body)).expect("reads");
    assert_eq!(d.body_text(), "deep\n");
}

#[test]
fn malformed_main_part() {
    let r = read_bytes(&docx("<w:p><w:r><w:t>x</w:r></w:p>"));
    match r {
        Err(docrag::ConvertError::MalformedXml { part, .. }) => {
            assert_eq!(part, "word/document.xml")
        }
        other => panic!("{other:?}"),
    }
    // A malformed non-main part is a warning.
    let d = docx_with(
        "<w:p><w:r><w:t>x</w:t></w:r></w:p>",
        &[("word/styles.xml", "<w:styles><oops></w:styles>")],
        &[("rId1", "styles", "styles.xml")],
    );
    let d = read_bytes(&d).expect("reads");
    assert!(
        d.warnings.iter().any(|w| w.code == "corrupt-part"),
        "{:?}",
        d.warnings
    );
}

// ---------------------------------------------------------------------------------
// Synthetic documents for single rules.

fn numbered(num: &str, level: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

#[test]
fn list_numbers_with_restarts() {
    let numbering = format!(
        r#"<w:numbering xmlns:w="{W_NS}">
        <w:abstractNum w:abstractNumId="0">
          <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
          <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
        </w:abstractNum>
        <w:abstractNum w:abstractNumId="1">
          <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl>
        </w:abstractNum>
        <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
        <w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>
        <w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
        <w:num w:numId="4"><w:abstractNumId w:val="1"/></w:num>
        </w:numbering>"#
    );
    let body = [
        numbered("1", 0, "a1"),
        numbered("1", 0, "a2"),
        numbered("1", 1, "a2.1"),
        numbered("1", 1, "a2.2"),
        numbered("1", 0, "a3"),
        numbered("1", 1, "a3.1"),
        // Another instance of the same list continues it.
        numbered("2", 0, "a4"),
        // A restart: starts over once, then continues.
        numbered("3", 0, "b1"),
        numbered("3", 0, "b2"),
        numbered("4", 0, "bullet"),
        numbered("3", 0, "b3"),
        numbered("0", 0, "plain"),
    ]
    .concat();
    let d = read_bytes(&docx_with(
        &body,
        &[("word/numbering.xml", &numbering)],
        &[("rId1", "numbering", "numbering.xml")],
    ))
    .expect("reads");
    let got: Vec<(String, ParagraphKind)> = paragraphs(&d.body)
        .into_iter()
        .map(|p| (para_text(p), p.kind.clone()))
        .collect();
    let item = |ordered, level, number| ParagraphKind::ListItem {
        ordered,
        level,
        number,
    };
    let want = vec![
        ("a1", item(true, 0, 1)),
        ("a2", item(true, 0, 2)),
        ("a2.1", item(true, 1, 1)),
        ("a2.2", item(true, 1, 2)),
        ("a3", item(true, 0, 3)),
        ("a3.1", item(true, 1, 1)),
        ("a4", item(true, 0, 4)),
        ("b1", item(true, 0, 1)),
        ("b2", item(true, 0, 2)),
        ("bullet", item(false, 0, 0)),
        ("b3", item(true, 0, 3)),
        ("plain", ParagraphKind::Normal),
    ];
    let want: Vec<(String, ParagraphKind)> =
        want.into_iter().map(|(t, k)| (t.to_string(), k)).collect();
    assert_eq!(got, want);
}

#[test]
fn numbered_heading_label_through_style() {
    let styles = format!(
        r#"<w:styles xmlns:w="{W_NS}">
        <w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>
        <w:style w:type="paragraph" w:styleId="Titre2"><w:name w:val="Titre 2"/><w:basedOn w:val="berschrift1"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
        <w:style w:type="paragraph" w:styleId="Zitat"><w:name w:val="Quote"/><w:rPr><w:i/></w:rPr></w:style>
        <w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>
        </w:styles>"#
    );
    let numbering = format!(
        r#"<w:numbering xmlns:w="{W_NS}"><w:abstractNum w:abstractNumId="7">
        <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
        </w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="7"/></w:num></w:numbering>"#
    );
    let p = |style: &str, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let body = [
        p("berschrift1", "Intro"),
        p("Titre2", "Scope"),
        p("berschrift1", "Method"),
        p("Titre2", "Data"),
        p("Zitat", "quoted"),
        r#"<w:p><w:r><w:rPr><w:rStyle w:val="Strong"/></w:rPr><w:t>strong</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Strong"/><w:b w:val="0"/></w:rPr><w:t>not</w:t></w:r></w:p>"#.to_string(),
    ]
    .concat();
    let d = read_bytes(&docx_with(
        &body,
        &[
            ("word/styles.xml", &styles),
            ("word/numbering.xml", &numbering),
        ],
        &[
            ("rId1", "styles", "styles.xml"),
            ("rId2", "numbering", "numbering.xml"),
        ],
    ))
    .expect("reads");
    let ps = paragraphs(&d.body);
    let heads: Vec<(ParagraphKind, String)> = ps
        .iter()
        .take(4)
        .map(|p| (p.kind.clone(), para_text(p)))
        .collect();
    assert_eq!(
        heads,
        vec![
            (ParagraphKind::Heading(1), "I. Intro".to_string()),
            (ParagraphKind::Heading(2), "I.1 Scope".to_string()),
            (ParagraphKind::Heading(1), "II. Method".to_string()),
            (ParagraphKind::Heading(2), "II.1 Data".to_string()),
        ]
    );
    // Heading style bold is not emphasis; a paragraph style's italic is.
    assert!(matches!(&ps[0].inlines[1], Inline::Text { style, .. } if !style.bold));
    assert!(matches!(&ps[4].inlines[0], Inline::Text { style, .. } if style.italic));
    // Character style bold, turned off again by w:b w:val="0".
    match &ps[5].inlines[..] {
        [
            Inline::Text { text: a, style: sa },
            Inline::Text { text: b, style: sb },
        ] => {
            assert_eq!((a.as_str(), sa.bold), ("strong", true));
            assert_eq!((b.as_str(), sb.bold), ("not", false));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn runs_breaks_symbols_and_warnings() {
    let body = r#"<w:p><w:r><w:t xml:space="preserve">a </w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:cr/><w:sym w:font="Wingdings" w:char="F041"/><w:sym w:font="Symbol" w:char="03B1"/><w:noBreakHyphen/><w:softHyphen/><w:t>d</w:t></w:r>
        <w:foo/><w:foo/><w:bar><w:r><w:t>hidden</w:t></w:r></w:bar><w:proofErr/><w:bookmarkStart w:id="1"/><w:bookmarkEnd w:id="1"/></w:p>
        <w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/><w:strike/><w:u w:val="single"/><w:rFonts w:ascii="Consolas"/></w:rPr><w:t>x</w:t></w:r></w:p>"#;
    let d = read_bytes(&docx(body)).expect("reads");
    let ps = paragraphs(&d.body);
    // Wingdings 0x41 shows a victory hand (the symbol-font table), not the letter A.
    assert_eq!(para_text(ps[0]), "a \tb\nc\n✌α-d");
    let unknown: Vec<&str> = d
        .warnings
        .iter()
        .filter(|w| w.code == "unknown-element")
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(unknown.len(), 2, "{unknown:?}");
    assert!(unknown[0].contains("w:foo"));
    match &ps[1].inlines[0] {
        Inline::Text { style, .. } => {
            assert!(style.superscript && style.strike && style.underline && style.code)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn hyperlinks_fields_and_page_rule() {
    let body = r#"
        <w:p><w:r><w:t>First page.</w:t></w:r></w:p>
        <w:p><w:hyperlink r:id="rId5"><w:r><w:t>ext</w:t></w:r></w:hyperlink><w:hyperlink w:anchor="sec"><w:r><w:t>int</w:t></w:r></w:hyperlink></w:p>
        <w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DATE \@ "yyyy" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2024</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>
             <w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple></w:p>
        <w:p><w:r><w:br w:type="page"/></w:r></w:p>
        <w:p><w:r><w:lastRenderedPageBreak/><w:t>Second page.</w:t></w:r></w:p>
        <w:p><w:r><w:t>More</w:t><w:lastRenderedPageBreak/><w:t>third page.</w:t></w:r></w:p>"#;
    let d = read_bytes(&docx_with(
        body,
        &[],
        &[(
            "rId5",
            "hyperlink\" TargetMode=\"External",
            "https://example.com/",
        )],
    ))
    .expect("reads");
    let links: Vec<String> = inlines(&d.body)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Link { target, .. } => Some(target.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(links, ["https://example.com/", "#sec"]);
    let fields: Vec<(String, String)> = inlines(&d.body)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Field { code, children } => {
                let mut s = String::new();
                children.iter().for_each(|c| c.plain_text(&mut s));
                Some((code.clone(), s))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("DATE".to_string(), "2024".to_string()),
            ("PAGE".into(), "3".into())
        ]
    );
    // The explicit break and the rendered break after it are one page start; the
    // rendered break inside a paragraph is another.
    assert_eq!(page_count(&d), 3);
    assert_eq!(
        d.body
            .iter()
            .filter(|b| matches!(b, Block::PageBreak))
            .count(),
        1
    );
}

#[test]
fn sections_breaks_and_grid_before() {
    let sect = |kind: &str| {
        format!(r#"<w:p><w:pPr><w:sectPr><w:type w:val="{kind}"/></w:sectPr></w:pPr></w:p>"#)
    };
    let body = format!(
        r#"<w:p><w:r><w:t>one</w:t></w:r></w:p>{}<w:p><w:r><w:t>two</w:t></w:r></w:p>{}
        <w:tbl><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>m</w:t></w:r></w:p></w:tc><w:tc><w:p/></w:tc></w:tr>
        <w:tr><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc><w:tc><w:p><w:r><w:t>y</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
        <w:sectPr><w:type w:val="continuous"/></w:sectPr>"#,
        sect("nextPage"),
        sect("evenPage")
    );
    let d = read_bytes(&docx(&body)).expect("reads");
    let breaks: Vec<bool> = d
        .body
        .iter()
        .filter_map(|b| match b {
            Block::SectionBreak { new_page } => Some(*new_page),
            _ => None,
        })
        .collect();
    // Section 2 is evenPage (new page), section 3 continuous.
    assert_eq!(breaks, [true, false]);
    let t = tables(&d.body)[0];
    // The w:gridBefore slot is an empty cell; the merge starts in grid column 1.
    assert_eq!(cell_text(&t.rows[0].cells[0]), "");
    assert_eq!(t.rows[0].cells[1].row_span, 2);
    let second: Vec<String> = t.rows[1].cells.iter().map(cell_text).collect();
    assert_eq!(second, ["x", "y"]);
}

#[test]
fn nested_tables_near_the_limit() {
    let n = 80;
    let body = format!(
        "{}<w:p><w:r><w:t>core</w:t></w:r></w:p>{}",
        "<w:tbl><w:tr><w:tc>".repeat(n),
        "</w:tc></w:tr></w:tbl>".repeat(n)
    );
    let d = read_bytes(&docx(&body)).expect("reads");
    assert!(d.body_text().contains("core"));
}

/// Speed on the largest part of the corpus (12.6 MB of document.xml); prints the time.
#[test]
fn large_document_time() {
    let bytes = corpus("poi__bug65649.docx");
    let t = std::time::Instant::now();
    let d = docx::read(&bytes, &Limits::default()).expect("reads");
    eprintln!(
        "poi__bug65649.docx: {:?} ({} blocks)",
        t.elapsed(),
        d.body.len()
    );
    assert!(d.body_text().len() > 400_000);
}

#[test]
fn utf16_main_part() {
    let doc = format!(
        r#"<?xml version="1.0" encoding="UTF-16"?><w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>Grüße</w:t></w:r></w:p></w:body></w:document>"#
    );
    let mut utf16 = vec![0xFF, 0xFE];
    for u in doc.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let bytes = zip_of(&[("word/document.xml", &utf16)]);
    let d = read_bytes(&bytes).expect("reads");
    assert_eq!(d.body_text(), "Grüße\n");
}

/// All formulas of a block list, in order, as (LaTeX, display).
fn formulas(blocks: &[Block]) -> Vec<(String, bool)> {
    inlines(blocks)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Math { tex, display } => Some((tex.clone(), *display)),
            _ => None,
        })
        .collect()
}

#[test]
fn office_math_becomes_latex() {
    let d = read("openxmlsdk__equation.docx");
    let f = formulas(&d.body);
    assert_eq!(f.len(), 8, "{f:#?}");
    // Inline m:oMath, one per numbered paragraph; the last is an m:oMathPara.
    assert!(f[..7].iter().all(|(_, display)| !display));
    assert!(f[7].1);
    assert_eq!(
        f[1].0,
        "f(x)=a_{0}+\\sum_{n=1}^{\\infty}\\left(a_{n}\\cos\\frac{n\\pi x}{L}+b_{n}\\sin\\frac{n\\pi x}{L}\\right)"
    );
    assert!(
        f[0].0.starts_with("\\cos\\alpha+\\cos\\beta=2\\cos"),
        "{}",
        f[0].0
    );
    assert_eq!(
        f[3].0,
        "\\begin{matrix}\\mathbf{1} & \\mathbf{0} \\\\ \\mathbf{0} & \\mathbf{1}\\end{matrix}"
    );
    assert!(f[4].0.starts_with("\\alpha\\kappa\\gamma"), "{}", f[4].0);
    assert_eq!(f[5].0, "\\exists");
    assert!(f[6].0.contains("\\frac{n(n-1)x^{2}}{2!}"), "{}", f[6].0);
    assert_eq!(f[7].0, "(x+a)^{n}=\\sum_{k=0}^{n}\\binom{n}{k}x^{k}a^{n-k}");
    assert!(
        d.warnings.iter().all(|w| w.code != "unknown-element"),
        "{:?}",
        d.warnings
    );
    // The surrounding text stays text.
    assert!(d.body_text().contains("(ctrl + I)"));
}

#[test]
fn strict_office_math_becomes_latex() {
    // Strict math namespace (http://purl.oclc.org/ooxml/officeDocument/math).
    let d = read("openxmlsdk__Strict01.docx");
    let f = formulas(&d.body);
    assert!(
        f.contains(&(
            "(x+a)^{n}=\\sum_{k=0}^{n}\\binom{n}{k}x^{k}a^{n-k}".to_string(),
            true
        )),
        "{f:#?}"
    );
}

#[test]
fn synthetic_office_math() {
    let m = "xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\"";
    let body = format!(
        "<w:p><w:r><w:t>Let </w:t></w:r><m:oMath {m}><m:rad><m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/><m:e><m:r><m:t>x</m:t></m:r></m:e></m:rad><m:r><m:t>&lt;y</m:t></m:r><m:zzz><m:r><m:t>q</m:t></m:r></m:zzz></m:oMath><w:r><w:t> hold.</w:t></w:r></w:p>\
         <m:oMathPara {m}><m:oMath><m:sSup><m:e><m:r><m:t>e</m:t></m:r></m:e><m:sup><m:r><m:t>iπ</m:t></m:r></m:sup></m:sSup><m:r><m:t>=−1</m:t></m:r></m:oMath></m:oMathPara>"
    );
    let d = read_bytes(&docx(&body)).unwrap();
    assert_eq!(
        formulas(&d.body),
        vec![
            ("\\sqrt{x}<yq".to_string(), false),
            ("e^{i\\pi}=-1".to_string(), true)
        ]
    );
    let unknown: Vec<_> = d
        .warnings
        .iter()
        .filter(|w| w.code == "unknown-element")
        .collect();
    assert_eq!(unknown.len(), 1, "{:?}", d.warnings);
    assert!(unknown[0].message.contains("m:zzz"));
    assert!(d.body_text().starts_with("Let \\sqrt{x}<yq hold."));
}

#[test]
fn an_hmerge_after_grid_slots_keeps_its_text_and_slots_count_against_the_budget() {
    let tc = |t: &str, pr: &str| format!("<w:tc>{pr}<w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>");
    let body = format!(
        "<w:tbl><w:tr>{}{}{}</w:tr><w:tr><w:trPr><w:gridBefore w:val=\"1\"/></w:trPr>{}{}</w:tr></w:tbl>",
        tc("h1", ""),
        tc("h2", ""),
        tc("h3", ""),
        tc("KEEPME", "<w:tcPr><w:hMerge/></w:tcPr>"),
        tc("x", "")
    );
    let d = read_bytes(&docx(&body)).unwrap();
    let row: Vec<String> = tables(&d.body)[0].rows[1]
        .cells
        .iter()
        .map(cell_text)
        .collect();
    assert_eq!(row, ["", "KEEPME", "x"]);
    // 32,000 rows of 64 empty grid slots: two million cells from 1.8 MB of XML.
    let row = "<w:tr><w:trPr><w:gridBefore w:val=\"64\"/></w:trPr></w:tr>";
    let body = format!("<w:tbl>{}</w:tbl>", row.repeat(32_000));
    // Through the public reader, which opens the document's element budget.
    let result = docrag::read::read(&docx(&body), &docrag::ConvertOptions::default());
    let code = result.err().map(|e| e.code());
    assert_eq!(code, Some("too-large"));
}

#[test]
fn a_heading_whose_mark_is_deleted_joins_the_next_paragraph_as_that_paragraph() {
    let body = r#"<w:p><w:pPr><w:outlineLvl w:val="0"/><w:rPr><w:del w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:t>Head</w:t></w:r></w:p><w:p><w:r><w:t>Body text.</w:t></w:r></w:p>"#;
    let d = read_bytes(&docx(body)).unwrap();
    let ps = paragraphs(&d.body);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].kind, ParagraphKind::Normal);
    assert_eq!(para_text(ps[0]), "Head¶Body text.");
}

#[test]
fn theme_and_high_ansi_slots_decide_where_a_symbol_font_applies() {
    let run = |fonts: &str, t: &str| {
        format!("<w:p><w:r><w:rPr><w:rFonts {fonts}/></w:rPr><w:t>{t}</w:t></w:r></w:p>")
    };
    let body = [
        run(r#"w:ascii="Symbol" w:hAnsi="Symbol" w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi""#, "Plain words"),
        run(r#"w:ascii="Symbol" w:hAnsi="Times New Roman""#, "café"),
        run(r#"w:ascii="Symbol" w:hAnsi="Symbol""#, "a\u{b3}b"),
    ]
    .concat();
    let d = read_bytes(&docx(&body)).unwrap();
    let texts: Vec<String> = paragraphs(&d.body).into_iter().map(para_text).collect();
    assert_eq!(texts, ["Plain words", "χαφé", "α≥β"]);
}
