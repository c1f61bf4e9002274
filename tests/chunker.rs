//! The chunker, end to end: hand-built documents with real assertions, invariants over
//! random budgets on a long text, and DOCX files from the shared corpus.

use docrag::chunk::chunk_document;
use docrag::model::*;
use docrag::{Chunk, ConvertError, ConvertOptions, MetaValue, SimpleNameFinder, tokens};

// ---------- builders ----------

fn text(s: &str) -> Inline {
    Inline::Text {
        text: s.into(),
        style: TextStyle::default(),
    }
}

fn para_inl(kind: ParagraphKind, inlines: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph { kind, inlines })
}

fn para(s: &str) -> Block {
    para_inl(ParagraphKind::Normal, vec![text(s)])
}

fn heading(n: u8, s: &str) -> Block {
    para_inl(ParagraphKind::Heading(n), vec![text(s)])
}

fn cell(s: &str) -> Cell {
    Cell {
        blocks: vec![para(s)],
        ..Cell::default()
    }
}

fn row(cells: &[&str], header: bool) -> Row {
    Row {
        cells: cells.iter().map(|c| cell(c)).collect(),
        header,
        revision: None,
    }
}

fn doc(body: Vec<Block>) -> Document {
    Document {
        body,
        ..Document::default()
    }
}

fn run(d: &Document, o: &ConvertOptions) -> Vec<Chunk> {
    let f = SimpleNameFinder::new(o.places.clone(), o.terms.clone());
    chunk_document(d, "doc-1", "Test Doc", o, &f).expect("chunking succeeds")
}

fn opts(max: usize) -> ConvertOptions {
    ConvertOptions::new()
        .with_max_tokens(max)
        .expect("valid max")
}

fn s<'a>(c: &'a Chunk, k: &str) -> &'a str {
    c.metadata
        .get_str(k)
        .unwrap_or_else(|| panic!("{k} missing or not a string"))
}

fn n(c: &Chunk, k: &str) -> i64 {
    c.metadata
        .get_int(k)
        .unwrap_or_else(|| panic!("{k} missing or not an int"))
}

/// Text after the chunk-information line.
fn body_of(c: &Chunk) -> &str {
    c.text.split_once("\n\n").map_or("", |(_, b)| b)
}

/// The invariants every conversion must satisfy.
fn check(chunks: &[Chunk], max: usize) {
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!(n(c, "ssSeq"), i as i64);
        assert_eq!(
            n(c, "tokenCount") as usize,
            tokens::count(&c.text),
            "chunk {i}"
        );
        if s(c, "oversize") == "no" {
            assert!(
                n(c, "tokenCount") as usize <= max,
                "chunk {i} over {max}: {}",
                c.text
            );
        }
        assert!(c.text.starts_with('['), "info line first: {}", c.text);
        let first = c.text.lines().next().unwrap_or("");
        assert!(first.ends_with(']') && !first.is_empty());
        for (_, v) in c.metadata.iter() {
            assert!(matches!(v, MetaValue::Str(_) | MetaValue::Int(_)));
        }
        assert!(n(c, "firstPage") <= n(c, "lastPage"));
        // HTML tables are balanced in every chunk.
        assert_eq!(
            c.text.matches("<table>").count(),
            c.text.matches("</table>").count(),
            "unbalanced table in chunk {i}:\n{}",
            c.text
        );
        assert_eq!(
            c.text.matches("<tr>").count(),
            c.text.matches("</tr>").count()
        );
        for tag in ["ins", "del", "mark", "comment"] {
            let opens = c.text.matches(&format!("<{tag} ")).count()
                + c.text.matches(&format!("<{tag}>")).count();
            assert_eq!(
                opens,
                c.text.matches(&format!("</{tag}>")).count(),
                "<{tag}> in chunk {i}"
            );
        }
    }
}

fn long_table(rows: usize) -> Block {
    let mut t = Table::default();
    t.rows.push(row(&["Name", "Quantity", "Remarks"], true));
    for i in 0..rows {
        t.rows.push(row(
            &[
                &format!("item {i}"),
                &format!("{}", i * 7),
                "a remark that takes a few tokens of room",
            ],
            false,
        ));
    }
    Block::Table(t)
}

// ---------- tables ----------

#[test]
fn long_pipe_table_repeats_header_in_continuations() {
    let d = doc(vec![
        para("Before the table."),
        long_table(120),
        para("After."),
    ]);
    let chunks = run(&d, &opts(256));
    check(&chunks, 256);
    let with_table: Vec<&Chunk> = chunks.iter().filter(|c| s(c, "tableIds") == "1").collect();
    assert!(with_table.len() >= 4, "table spans several chunks");
    for (i, c) in with_table.iter().enumerate() {
        let b = body_of(c);
        let header_at = b
            .find("| Name | Quantity | Remarks |")
            .expect("header row in every table chunk");
        assert!(b[header_at..].contains("| --- | --- | --- |"));
        assert_eq!(s(c, "keyTableHeadings"), "Name; Quantity; Remarks");
        if i > 0 {
            assert_eq!(s(c, "startsInTable"), "yes");
            assert!(b.starts_with("| Name | Quantity | Remarks |\n| --- | --- | --- |\n| item"));
        }
        if i + 1 < with_table.len() {
            assert_eq!(s(c, "endsInTable"), "yes");
        } else {
            assert_eq!(s(c, "endsInTable"), "no");
        }
        // Rows are never cut.
        for line in b.lines().filter(|l| l.starts_with('|')) {
            assert!(line.ends_with('|'), "cut row: {line}");
        }
    }
    assert_eq!(s(with_table[0], "startsInTable"), "no");
    // Every row appears exactly once.
    let all: String = chunks.iter().map(|c| c.text.as_str()).collect();
    for i in 0..120 {
        assert_eq!(all.matches(&format!("| item {i} |")).count(), 1, "row {i}");
    }
}

#[test]
fn spans_make_an_html_table_that_is_closed_and_reopened() {
    let mut t = Table::default();
    t.rows.push(Row {
        cells: vec![
            Cell {
                blocks: vec![para("Region")],
                row_span: 2,
                ..Cell::default()
            },
            Cell {
                blocks: vec![para("Sales")],
                col_span: 2,
                ..Cell::default()
            },
        ],
        header: true,
        revision: None,
    });
    t.rows.push(row(&["2023", "2024"], true));
    for i in 0..80 {
        t.rows
            .push(row(&[&format!("region {i}"), "10", "20"], false));
    }
    // A nested table inside a cell.
    let mut inner = Table::default();
    inner.rows.push(row(&["x", "y"], false));
    t.rows.push(Row {
        cells: vec![
            cell("nested"),
            Cell {
                blocks: vec![Block::Table(inner)],
                col_span: 2,
                ..Cell::default()
            },
        ],
        header: false,
        revision: None,
    });
    let chunks = run(&doc(vec![Block::Table(t)]), &opts(200));
    check(&chunks, 200);
    assert!(chunks.len() >= 3);
    let first = &chunks[0].text;
    assert!(first.contains("<th rowspan=\"2\">Region</th><th colspan=\"2\">Sales</th>"));
    for c in &chunks {
        let b = body_of(c);
        assert!(
            b.starts_with("<table>\n<tr><th rowspan=\"2\">Region</th>"),
            "header repeated: {b}"
        );
        assert!(b.contains("<tr><th>2023</th><th>2024</th></tr>"));
        assert!(b.trim_end().ends_with("</table>"));
    }
    let last = chunks.last().map(|c| c.text.clone()).unwrap_or_default();
    assert!(last.contains("<table><tr><td>x</td><td>y</td></tr></table>"));
}

#[test]
fn a_row_larger_than_the_budget_is_oversize_and_alone() {
    let big = "word ".repeat(400);
    let mut t = Table::default();
    t.rows.push(row(&["A", "B"], true));
    t.rows.push(row(&["small", "row"], false));
    t.rows.push(row(&["huge", &big], false));
    t.rows.push(row(&["after", "row"], false));
    let chunks = run(&doc(vec![Block::Table(t)]), &opts(128));
    check(&chunks, 128);
    let over: Vec<&Chunk> = chunks
        .iter()
        .filter(|c| s(c, "oversize") == "yes")
        .collect();
    assert_eq!(over.len(), 1);
    assert!(over[0].text.contains("| huge |"));
    assert!(!over[0].text.contains("| small |") && !over[0].text.contains("| after |"));
    assert!(n(over[0], "tokenCount") > 128);
}

#[test]
fn a_heading_stays_with_the_oversize_row_it_introduces() {
    let big = "word ".repeat(400);
    let mut t = Table::default();
    t.rows.push(row(&["A", "B"], true));
    t.rows.push(row(&["huge", &big], false));
    let chunks = run(
        &doc(vec![para("intro"), heading(1, "Data"), Block::Table(t)]),
        &opts(128),
    );
    check(&chunks, 128);
    assert_eq!(chunks.len(), 2);
    let b = body_of(&chunks[1]);
    assert!(
        b.starts_with("# Data\n\n| A | B |\n| --- | --- |\n| huge |"),
        "{b}"
    );
    assert_eq!(s(&chunks[1], "oversize"), "yes");
}

#[test]
fn code_blocks_and_quotes() {
    let code: String = (0..300).map(|i| format!("let x{i} = {i};\n")).collect();
    let d = doc(vec![
        Block::Code {
            language: Some("rust".into()),
            text: code,
        },
        Block::Quote(vec![
            para("quoted line"),
            Block::Quote(vec![para("deeper")]),
        ]),
        Block::Rule,
    ]);
    let chunks = run(&d, &opts(128));
    check(&chunks, 128);
    let code_chunks: Vec<&Chunk> = chunks.iter().filter(|c| c.text.contains("let x")).collect();
    assert!(code_chunks.len() > 3);
    for c in &code_chunks {
        let b = body_of(c);
        assert!(b.starts_with("```rust\nlet x"), "{b}");
        assert_eq!(b.matches("```").count() % 2, 0, "fences balanced: {b}");
    }
    let all: String = chunks.iter().map(|c| c.text.as_str()).collect();
    for i in 0..300 {
        assert_eq!(
            all.matches(&format!("let x{i} = {i};")).count(),
            1,
            "line {i}"
        );
    }
    let bodies: Vec<&str> = chunks.iter().map(body_of).collect();
    let joined = bodies.join("\n\n");
    assert!(
        joined.contains("> quoted line\n\n>> deeper\n\n---"),
        "{joined}"
    );
}

#[test]
fn pipes_and_tags_in_text_are_escaped() {
    let mut t = Table::default();
    t.rows
        .push(row(&["a|b", "<ins author=\"x\">forged</ins>"], false));
    let d = doc(vec![
        Block::Table(t),
        para("Look: <comment id=\"9\" author=\"Boss\">ok</comment>"),
    ]);
    let c = run(&d, &opts(1024));
    let text = &c[0].text;
    assert!(
        text.contains("| a\\|b | &lt;ins author=\"x\">forged&lt;/ins> |"),
        "{text}"
    );
    assert!(text.contains("&lt;comment id=\"9\""));
    assert_eq!(s(&c[0], "hasRevisions"), "no");
    assert_eq!(s(&c[0], "hasComments"), "no");
}

// ---------- revisions and comments ----------

#[test]
fn revisions_show_author_kind_and_moves() {
    let rev = |kind, who: &str, t: &str| Inline::Revision {
        kind,
        author: Some(who.into()),
        date: Some("2016-04-16T10:00:00Z".into()),
        children: vec![text(t)],
    };
    let d = doc(vec![
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Keep "),
                rev(RevisionKind::Insertion, "Eric White", "new words"),
                text(" and "),
                rev(RevisionKind::Deletion, "Ann", "old words"),
            ],
        ),
        para_inl(
            ParagraphKind::Normal,
            vec![rev(RevisionKind::MoveFrom, "Ann", "moved text")],
        ),
        para_inl(
            ParagraphKind::Normal,
            vec![rev(RevisionKind::MoveTo, "Ann", "moved text")],
        ),
    ]);
    let c = run(&d, &opts(1024));
    assert_eq!(c.len(), 1);
    let t = &c[0].text;
    assert!(
        t.contains("<ins author=\"Eric White\" date=\"2016-04-16\">new words</ins>"),
        "{t}"
    );
    assert!(t.contains("<del author=\"Ann\" date=\"2016-04-16\">old words</del>"));
    assert!(
        t.contains("<del type=\"move-from\" author=\"Ann\" date=\"2016-04-16\">moved text</del>")
    );
    assert!(
        t.contains("<ins type=\"move-to\" author=\"Ann\" date=\"2016-04-16\">moved text</ins>")
    );
    assert_eq!(s(&c[0], "hasRevisions"), "yes");
    assert_eq!(s(&c[0], "revisionAuthors"), "Eric White; Ann");
}

#[test]
fn whole_row_revisions_mark_every_cell() {
    let mut t = Table::default();
    t.rows.push(row(&["h1", "h2"], true));
    let mut r = row(&["gone", "too"], false);
    r.revision = Some(RowRevision {
        kind: RevisionKind::Deletion,
        author: Some("Row Remover".into()),
        date: None,
    });
    t.rows.push(r);
    let c = run(&doc(vec![Block::Table(t)]), &opts(1024));
    assert!(c[0].text.contains(
        "| <del author=\"Row Remover\">gone</del> | <del author=\"Row Remover\">too</del> |"
    ));
    assert_eq!(s(&c[0], "revisionAuthors"), "Row Remover");
}

fn comment(id: &str, author: &str, text: &str, parent: Option<&str>) -> Comment {
    Comment {
        id: id.into(),
        author: Some(author.into()),
        text: text.into(),
        parent: parent.map(Into::into),
        ..Comment::default()
    }
}

fn anchor(id: &str, mark: AnchorMark) -> Inline {
    Inline::CommentAnchor {
        id: id.into(),
        mark,
    }
}

#[test]
fn every_comment_is_shown_with_its_author() {
    let mut d = doc(vec![
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Start "),
                anchor("1", AnchorMark::Start),
                text("ranged text"),
                anchor("1", AnchorMark::End),
                anchor("1", AnchorMark::Reference),
                text(" end."),
            ],
        ),
        // A point comment: only a reference mark.
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Here"),
                anchor("2", AnchorMark::Reference),
                text(" it is."),
            ],
        ),
        // A start with no end anywhere.
        para_inl(
            ParagraphKind::Normal,
            vec![anchor("3", AnchorMark::Start), text("dangling start")],
        ),
        // A range across paragraphs.
        para_inl(
            ParagraphKind::Normal,
            vec![anchor("5", AnchorMark::Start), text("first half")],
        ),
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("second half"),
                anchor("5", AnchorMark::End),
                text(" tail"),
            ],
        ),
    ]);
    d.comments = vec![
        comment("1", "Jane Roe", "Please check", None),
        comment("2", "Bob \"B\" <Smith>", "Point remark", None),
        comment("3", "Carl", "Dangling", None),
        comment("4", "Dana", "Never anchored", None),
        comment("5", "Eve", "Across", None),
        comment("6", "Jane Roe", "A reply", Some("1")),
    ];
    let c = run(&d, &opts(1024));
    check(&c, 1024);
    let all: String = c
        .iter()
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(all.contains("Start <mark comment=\"1\">ranged text</mark><comment id=\"1\" author=\"Jane Roe\">Please check</comment><comment id=\"6\" author=\"Jane Roe\" reply-to=\"1\">A reply</comment> end."), "{all}");
    assert!(all.contains("Here<comment id=\"2\" author=\"Bob &quot;B&quot; &lt;Smith&gt;\">Point remark</comment> it is."));
    assert!(all.contains("<comment id=\"3\" author=\"Carl\">Dangling</comment>dangling start"));
    assert!(all.contains("<mark comment=\"5\">first half</mark>"));
    assert!(all.contains("<mark comment=\"5\">second half</mark><comment id=\"5\" author=\"Eve\">Across</comment> tail"));
    assert!(all.contains("<comment id=\"4\" author=\"Dana\">Never anchored</comment>"));
    for id in 1..=6 {
        assert_eq!(
            all.matches(&format!("<comment id=\"{id}\"")).count(),
            1,
            "comment {id} once"
        );
    }
    let authors: Vec<&str> = c.iter().map(|c| s(c, "commentAuthors")).collect();
    let joined = authors.join("; ");
    for a in ["Jane Roe", "Bob \"B\" <Smith>", "Carl", "Dana", "Eve"] {
        assert!(joined.contains(a), "{a} in commentAuthors: {joined}");
    }
    assert!(c.iter().any(|c| s(c, "hasComments") == "yes"));
}

// ---------- pages, headings, parts, notes ----------

#[test]
fn pages_and_heading_paths() {
    // Each section here holds over half the budget, so each heading starts a chunk
    // (smaller sections share one; see below).
    let fill = |s: &str| format!("{s} {}", "lorem ipsum dolor sit amet ".repeat(15));
    let d = doc(vec![
        para(&fill("Preface text.")),
        heading(1, "Results"),
        para(&fill("Intro to results.")),
        heading(2, "Revenue"),
        para("Revenue grew."),
        Block::PageBreak,
        para(&fill("Still revenue on page two.")),
        heading(2, "Costs"),
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Costs fell."),
                Inline::PageBreak,
                text(&fill("Page three text.")),
            ],
        ),
        Block::SectionBreak { new_page: true },
        heading(1, "Outlook"),
        para("Bright."),
    ]);
    let c = run(&d, &opts(160));
    check(&c, 160);
    let find = |needle: &str| {
        c.iter()
            .find(|c| c.text.contains(needle))
            .unwrap_or_else(|| panic!("{needle}"))
    };
    let pre = find("Preface");
    assert_eq!(
        (
            n(pre, "sectionIndex"),
            s(pre, "headingPath"),
            n(pre, "headingLevel")
        ),
        (0, "", 0)
    );
    assert!(!pre.text.contains("Results"), "a heading starts a chunk");
    let rev = find("Revenue grew");
    assert_eq!(s(rev, "headingPath"), "Results > Revenue");
    assert_eq!((n(rev, "sectionIndex"), n(rev, "headingLevel")), (2, 2));
    assert_eq!((n(rev, "firstPage"), n(rev, "lastPage")), (1, 2));
    assert!(rev.text.starts_with(
        "[Document: Test Doc | Section: Results > Revenue | Pages: 1-2]\n\n## Revenue"
    ));
    let costs = find("Costs fell");
    assert_eq!(s(costs, "headingPath"), "Results > Costs");
    assert_eq!((n(costs, "firstPage"), n(costs, "lastPage")), (2, 3));
    let out = find("Bright");
    assert_eq!(s(out, "headingPath"), "Outlook");
    assert_eq!(n(out, "firstPage"), 4);
    assert_eq!(s(out, "keyHeadings"), "Outlook");
    // Short sections share a chunk; its section is the one it starts in.
    let d = doc(vec![
        para("x"),
        heading(1, "A"),
        heading(2, "B"),
        para("content"),
    ]);
    let c = run(&d, &opts(1024));
    assert_eq!(c.len(), 1);
    assert_eq!(body_of(&c[0]), "x\n\n# A\n\n## B\n\ncontent");
    assert_eq!(s(&c[0], "headingPath"), "");
    assert_eq!(s(&c[0], "keyHeadings"), "A; B");
    // Consecutive headings stay with their first content, and no heading ends a chunk.
    let d = doc(vec![
        para(&format!("x {}", "lorem ipsum dolor sit amet ".repeat(12))),
        heading(1, "A"),
        heading(2, "B"),
        para(&format!(
            "content {}",
            "lorem ipsum dolor sit amet ".repeat(26)
        )),
    ]);
    let c = run(&d, &opts(200));
    check(&c, 200);
    assert_eq!(c.len(), 2, "{c:#?}");
    assert!(body_of(&c[1]).starts_with("# A\n\n## B\n\ncontent"));
    assert_eq!(s(&c[1], "headingPath"), "A > B");
    assert!(!body_of(&c[0]).contains("# A"));
}

#[test]
fn headers_footers_and_notes_are_their_own_chunks() {
    // Over half the budget, so the heading "Later" starts the second body chunk.
    let long = format!("{} Body with a note", "lorem ipsum ".repeat(300));
    let mut d = doc(vec![
        para_inl(
            ParagraphKind::Normal,
            vec![
                text(&long),
                Inline::NoteRef {
                    kind: NoteKind::Footnote,
                    id: "1".into(),
                },
                text("."),
            ],
        ),
        Block::SectionBreak { new_page: true },
        heading(1, "Later"),
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("And an endnote"),
                Inline::NoteRef {
                    kind: NoteKind::Endnote,
                    id: "1".into(),
                },
            ],
        ),
    ]);
    let hdr = |section, variant| Part {
        kind: PartKind::Header,
        variant,
        section,
        blocks: vec![para("ACME confidential")],
    };
    d.parts = vec![
        hdr(0, PartVariant::Default),
        hdr(1, PartVariant::Default),
        Part {
            kind: PartKind::Footer,
            variant: PartVariant::First,
            section: 1,
            blocks: vec![para("Page footer text")],
        },
    ];
    d.notes = vec![
        Note {
            kind: NoteKind::Footnote,
            id: "1".into(),
            blocks: vec![para("The footnote text.")],
        },
        Note {
            kind: NoteKind::Endnote,
            id: "1".into(),
            blocks: vec![para("The endnote text.")],
        },
    ];
    let c = run(&d, &opts(1024));
    check(&c, 1024);
    let kinds: Vec<&str> = c.iter().map(|c| s(c, "chunkKind")).collect();
    assert_eq!(
        kinds,
        vec!["body", "body", "header", "footer", "footnote", "endnote"]
    );
    assert!(c[0].text.contains("Body with a note[^1]."));
    assert!(c[1].text.contains("And an endnote[^e1]"));
    for b in &c[..2] {
        assert!(!b.text.contains("ACME") && !b.text.contains("footnote text"));
    }
    // The identical header of both sections is emitted once and says so.
    assert_eq!(
        c.iter()
            .filter(|c| c.text.contains("ACME confidential"))
            .count(),
        1
    );
    assert!(
        c[2].text.starts_with(
            "[Document: Test Doc | Part: header, sections 1-2 (default) | Pages: 1-2]"
        ),
        "{}",
        c[2].text
    );
    assert!(
        c[3].text
            .starts_with("[Document: Test Doc | Part: footer, section 2 (first page) | Page: 2]"),
        "{}",
        c[3].text
    );
    assert!(body_of(&c[4]).starts_with("[^1]: The footnote text."));
    assert_eq!((n(&c[4], "firstPage"), s(&c[4], "headingPath")), (1, ""));
    assert!(body_of(&c[5]).starts_with("[^e1]: The endnote text."));
    assert_eq!(
        (n(&c[5], "firstPage"), s(&c[5], "headingPath")),
        (2, "Later")
    );
}

// ---------- options ----------

#[test]
fn labels_rename_fields_and_info_words() {
    let o = opts(1024)
        .with_label("Document", "Dokument")
        .with_label("Page", "Seite")
        .with_label("docTitle", "titel")
        .with_label("tokenCount", "tokens");
    let c = run(&doc(vec![para("Hallo Welt.")]), &o);
    assert!(c[0].text.starts_with("[Dokument: Test Doc | Seite: 1]"));
    assert_eq!(s(&c[0], "titel"), "Test Doc");
    assert_eq!(n(&c[0], "tokens") as usize, tokens::count(&c[0].text));
    assert!(c[0].metadata.get("docTitle").is_none());
    assert!(c[0].metadata.get("ssDocId").is_some() && c[0].metadata.get("ssSeq").is_some());
    let msg =
        docrag::chunk::system_message(&docrag::chunk::Labels::from_options(&o).expect("valid"));
    assert!(msg.contains("[Dokument: Annual Report"));
    for (d, new) in [
        ("nope", "x"),
        ("docTitle", ""),
        ("docTitle", "ssDocId"),
        ("persons", "places"),
        ("Page", "Pages"),
    ] {
        let f = SimpleNameFinder::default();
        let err = chunk_document(
            &doc(vec![para("x")]),
            "d",
            "t",
            &opts(1024).with_label(d, new),
            &f,
        )
        .unwrap_err();
        match err {
            ConvertError::InvalidOption { name, .. } => {
                assert!(name.starts_with("labels."), "{name}")
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn user_fields_are_copied_and_page_range_filters() {
    let o = opts(1024)
        .with_user_field("customer", "C-42")
        .expect("ok")
        .with_user_field("year", 2024i64)
        .expect("ok")
        .with_page_range(2, 3)
        .expect("ok");
    let d = doc(vec![
        para("page one"),
        Block::PageBreak,
        para("page two"),
        Block::PageBreak,
        para("page three"),
        Block::PageBreak,
        para("page four"),
    ]);
    let c = run(&d, &o);
    check(&c, 1024);
    assert!(
        c.iter()
            .all(|c| !c.text.contains("page one") && !c.text.contains("page four"))
    );
    assert!(
        c.iter().any(|c| c.text.contains("page two"))
            && c.iter().any(|c| c.text.contains("page three"))
    );
    for x in &c {
        assert_eq!(s(x, "customer"), "C-42");
        assert_eq!(n(x, "year"), 2024);
        let last = x.metadata.iter().last().map(|(k, _)| k.to_string());
        assert_eq!(last.as_deref(), Some("year"));
    }
    let f = SimpleNameFinder::default();
    let clash = opts(1024)
        .with_user_field("docTitle", "x")
        .expect("builder allows it");
    assert!(chunk_document(&d, "d", "t", &clash, &f).is_err());
}

#[test]
fn metadata_field_names_and_key_phrases() {
    let bold = TextStyle {
        bold: true,
        ..TextStyle::default()
    };
    let italic = TextStyle {
        italic: true,
        ..TextStyle::default()
    };
    let d = doc(vec![
        heading(1, "Overview"),
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Dr. Jane Smith of Acme Widgets Inc. visited Zürich. "),
                Inline::Text {
                    text: "Key point".into(),
                    style: bold,
                },
                text(" and "),
                Inline::Text {
                    text: "an aside".into(),
                    style: italic,
                },
                text(". Customer: "),
                Inline::Field {
                    code: "MERGEFIELD".into(),
                    children: vec![text("Contoso")],
                },
            ],
        ),
        para_inl(
            ParagraphKind::ListItem {
                ordered: true,
                level: 0,
                number: 3,
            },
            vec![text("third item")],
        ),
        para_inl(
            ParagraphKind::ListItem {
                ordered: false,
                level: 1,
                number: 0,
            },
            vec![text("nested bullet")],
        ),
    ]);
    let o = ConvertOptions {
        places: vec!["Zürich".into()],
        terms: vec!["key point".into()],
        ..opts(1024)
    };
    let c = run(&d, &o);
    let names: Vec<&str> = c[0].metadata.iter().map(|(k, _)| k).collect();
    assert_eq!(
        names,
        vec![
            "ssDocId",
            "ssSeq",
            "docTitle",
            "firstPage",
            "lastPage",
            "pageSource",
            "sectionIndex",
            "headingPath",
            "headingLevel",
            "chunkKind",
            "tokenCount",
            "tableIds",
            "startsInTable",
            "endsInTable",
            "hasRevisions",
            "revisionAuthors",
            "hasComments",
            "commentAuthors",
            "persons",
            "organizations",
            "places",
            "terms",
            "keyHeadings",
            "keyBold",
            "keyItalic",
            "keyTableHeadings",
            "keyListText",
            "keyFieldData",
            "keyPlainSample",
            "oversize"
        ]
    );
    let m = &c[0];
    assert_eq!(s(m, "persons"), "Jane Smith");
    assert_eq!(s(m, "organizations"), "Acme Widgets Inc.");
    assert_eq!(s(m, "places"), "Zürich");
    assert_eq!(s(m, "terms"), "key point");
    assert_eq!(s(m, "keyBold"), "Key point");
    assert_eq!(s(m, "keyItalic"), "an aside");
    assert_eq!(s(m, "keyFieldData"), "Contoso");
    assert_eq!(s(m, "keyListText"), "third item; nested bullet");
    assert!(s(m, "keyPlainSample").starts_with("Dr. Jane Smith"));
    assert!(m.text.contains("\n\n3. third item\n  - nested bullet"));
    assert!(m.text.contains("**Key point** and *an aside*"));
}

#[test]
fn same_input_same_output() {
    let mut d = doc(vec![
        heading(1, "H"),
        long_table(50),
        para(&"Sentence here. ".repeat(300)),
    ]);
    d.comments = vec![comment("1", "A", "c", None)];
    let a = run(&d, &opts(200));
    let b = run(&d, &opts(200));
    assert_eq!(a, b);
    let ja = serde_json::to_string(&a).expect("json");
    let jb = serde_json::to_string(&b).expect("json");
    assert_eq!(ja, jb);
}

#[test]
fn oversized_paragraphs_split_at_sentences_and_keep_markup_balanced() {
    let mut inl = Vec::new();
    for i in 0..200 {
        inl.push(text(&format!("Sentence number {i} says something plain. ")));
        if i % 10 == 0 {
            inl.push(Inline::Revision {
                kind: RevisionKind::Insertion,
                author: Some("Ed".into()),
                date: None,
                children: vec![text(
                    "An inserted sentence that is long enough. Another one follows it here. ",
                )],
            });
        }
    }
    let d = doc(vec![
        heading(1, "Long"),
        para_inl(ParagraphKind::Normal, inl),
    ]);
    let c = run(&d, &opts(128));
    check(&c, 128);
    assert!(c.len() > 10);
    assert!(c.iter().all(|c| s(c, "oversize") == "no"));
    assert!(
        body_of(&c[0]).starts_with("# Long\n\n"),
        "heading stays with the first piece"
    );
    for x in &c[1..] {
        let b = body_of(x);
        assert!(
            b.starts_with("Sentence")
                || b.starts_with("<ins")
                || b.starts_with("An")
                || b.starts_with("Another"),
            "{b}"
        );
    }
    let words: Vec<String> = c
        .iter()
        .flat_map(|c| {
            body_of(c)
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(words.iter().filter(|w| w.starts_with("number")).count() == 200);
}

// ---------- invariants on a long text ----------

fn words_of(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn corpus(name: &str) -> Option<Vec<u8>> {
    std::fs::read(format!(
        "{}/../shared/corpus/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .ok()
}

#[test]
fn random_budgets_keep_every_invariant_on_the_manual() {
    let Some(bytes) = corpus("pandoc__MANUAL.txt") else {
        return;
    };
    let input_words = words_of(&String::from_utf8_lossy(&bytes));
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut sizes = vec![64, 2048];
    for _ in 0..4 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        sizes.push(64 + (seed % (2048 - 64)) as usize);
    }
    for max in sizes {
        // Read as plain text (its content is Markdown) so every input word is output.
        let o = opts(max)
            .with_file_name("MANUAL.txt")
            .with_format(docrag::Format::Text)
            .with_doc_id("manual")
            .expect("id");
        let conv = docrag::convert(&bytes, &o).expect("converts");
        check(&conv.chunks, max);
        let out_words: Vec<String> = conv
            .chunks
            .iter()
            .flat_map(|c| words_of(body_of(c)))
            .collect();
        // Every input word appears in order (escaping and markup may add words).
        let mut it = out_words.iter();
        for (i, w) in input_words.iter().enumerate() {
            assert!(
                it.any(|o| o == w),
                "max {max}: word {i} {w:?} missing or out of order"
            );
        }
        let over = conv
            .chunks
            .iter()
            .filter(|c| s(c, "oversize") == "yes")
            .count();
        assert_eq!(over, 0, "max {max}: plain text never needs oversize");
    }
}

// ---------- DOCX files from the corpus ----------

fn convert_file(name: &str, max: usize) -> Option<Vec<Chunk>> {
    let bytes = corpus(name)?;
    let o = opts(max).with_file_name(name);
    let conv = docrag::convert(&bytes, &o).expect("converts");
    check(&conv.chunks, max);
    Some(conv.chunks)
}

#[test]
fn docx_table_continuation_repeats_header() {
    let Some(c) = convert_file("poi__bug57031.docx", 300) else {
        return;
    };
    let cont: Vec<&Chunk> = c
        .iter()
        .filter(|c| s(c, "startsInTable") == "yes")
        .collect();
    assert!(cont.len() > 10, "long tables continue over many chunks");
    for x in cont {
        let b = body_of(x);
        let id = s(x, "tableIds")
            .split("; ")
            .next()
            .expect("table id")
            .to_string();
        let first = c
            .iter()
            .find(|c| s(c, "tableIds").split("; ").any(|t| t == id))
            .expect("table start");
        // The repeated header: "<table>" + header rows, or a pipe header + separator.
        let header: Vec<&str> = b
            .lines()
            .take_while(|l| *l == "<table>" || l.contains("<th") || l.starts_with('|'))
            .take(3)
            .collect();
        assert!(
            !header.is_empty(),
            "continuation starts with the table: {b}"
        );
        let line = header
            .iter()
            .find(|l| l.contains("<th") || l.starts_with('|'))
            .expect("header row");
        assert!(
            body_of(first).contains(line),
            "header {line} comes from the table's first chunk"
        );
        assert_eq!(b.matches(line).count(), 1);
    }
}

#[test]
fn docx_comments_and_moves() {
    if let Some(c) = convert_file("pandoc__comments.docx", 1024) {
        let all: String = c.iter().map(|c| c.text.as_str()).collect();
        assert!(all.contains("<comment id=\"0\" author=\"Jesse Rosenthal\""));
        assert!(all.contains("reply-to=\"3\""));
        assert!(
            c.iter()
                .any(|c| s(c, "commentAuthors") == "Jesse Rosenthal")
        );
        assert!(all.contains("<mark comment=\"0\">some text to have a comment </mark>"));
    }
    if let Some(c) = convert_file("pandoc__track_changes_move.docx", 1024) {
        let all: String = c.iter().map(|c| c.text.as_str()).collect();
        assert!(
            all.contains("<del type=\"move-from\" author=\"Jesse Rosenthal\""),
            "{all}"
        );
        assert!(all.contains("<ins type=\"move-to\" author=\"Jesse Rosenthal\""));
        assert!(
            c.iter()
                .any(|c| s(c, "revisionAuthors") == "Jesse Rosenthal"
                    && s(c, "hasRevisions") == "yes")
        );
    }
}

#[test]
fn docx_long_document_sizes() {
    let Some(c) = convert_file("docx4j__Docx4j_GettingStarted.docx", 1024) else {
        return;
    };
    let body: Vec<i64> = c
        .iter()
        .filter(|c| s(c, "chunkKind") == "body")
        .map(|c| n(c, "tokenCount"))
        .collect();
    let avg = body.iter().sum::<i64>() as f64 / body.len() as f64;
    eprintln!(
        "docx4j GettingStarted: {} body chunks, average {avg:.0} tokens, max {:?}",
        body.len(),
        body.iter().max()
    );
    assert!(body.len() > 20);
    // Short sections share chunks, so the average is well over half the budget.
    assert!(avg > 600.0, "chunks are not fragmented: {avg}");
    assert!(
        c.iter()
            .any(|c| s(c, "headingPath").contains("Getting Help")
                || s(c, "keyHeadings").contains("Getting Help"))
    );
    assert!(c.iter().any(|c| s(c, "chunkKind") == "footnote"));
}

#[test]
fn every_corpus_docx_chunks_with_exact_counts() {
    let dir = format!("{}/../shared/corpus", env!("CARGO_MANIFEST_DIR"));
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names
        .iter()
        .filter(|n| n.ends_with(".docx") || n.ends_with(".docm"))
    {
        let Some(bytes) = corpus(name) else { continue };
        for max in [64, 333, 1024] {
            if let Ok(conv) = docrag::convert(&bytes, &opts(max).with_file_name(name.as_str())) {
                check(&conv.chunks, max);
            }
        }
    }
}

#[test]
fn big_document_is_fast_enough() {
    let Some(bytes) = corpus("poi__bug65649.docx") else {
        return;
    };
    if cfg!(debug_assertions) {
        return;
    }
    let t = std::time::Instant::now();
    let conv = docrag::convert(&bytes, &opts(1024).with_file_name("poi__bug65649.docx"))
        .expect("converts");
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "poi__bug65649.docx: {} chunks in {secs:.2}s",
        conv.chunks.len()
    );
    assert!(secs < 5.0, "{secs}s");
}

#[test]
fn huge_inputs_stay_linear() {
    if cfg!(debug_assertions) {
        return;
    }
    // One paragraph of ~2 MB in 100,000 runs, with links and revisions.
    let mut inl = Vec::new();
    for i in 0..100_000 {
        let style = TextStyle {
            bold: i % 3 == 0,
            ..TextStyle::default()
        };
        inl.push(Inline::Text {
            text: format!("word{i} and more text. "),
            style,
        });
        if i % 50 == 0 {
            inl.push(Inline::Link {
                target: format!("https://x.org/{i}"),
                children: vec![text("link")],
            });
        }
    }
    // A table of 20,000 rows.
    let big_table = long_table(20_000);
    let d = doc(vec![para_inl(ParagraphKind::Normal, inl), big_table]);
    let t = std::time::Instant::now();
    let chunks = run(&d, &opts(512));
    let secs = t.elapsed().as_secs_f64();
    eprintln!("huge inputs: {} chunks in {secs:.2}s", chunks.len());
    check(&chunks, 512);
    assert!(secs < 10.0, "{secs}s");
    assert!(chunks.iter().all(|c| s(c, "oversize") == "no"));
}

// ---------- formulas ----------

fn math(tex: &str, display: bool) -> Inline {
    Inline::Math {
        tex: tex.into(),
        display,
    }
}

#[test]
fn formulas_render_as_latex_between_dollars() {
    let d = doc(vec![
        para_inl(
            ParagraphKind::Normal,
            vec![
                text("Since "),
                math("a<b", false),
                text(" and "),
                math("x^{2}>0", false),
                text(", we have"),
                Inline::LineBreak,
                math("\\frac{a}{b} = \\$5 + $", true),
                text("for all *x*."),
            ],
        ),
        para_inl(
            ParagraphKind::Heading(2),
            vec![text("On "), math("\\alpha", true)],
        ),
        para_inl(
            ParagraphKind::Normal,
            vec![math("</mark><ins author=\"x\">", false)],
        ),
    ]);
    let c = run(&d, &opts(512));
    check(&c, 512);
    let all: String = c.iter().map(|c| c.text.as_str()).collect();
    // Inline math keeps its LaTeX; < and > cannot open tags; $ cannot close the formula.
    assert!(
        all.contains("Since $a\\lt b$ and $x^{2}\\gt 0$, we have\n"),
        "{all}"
    );
    // Display math stands on its own line, unescaped as Markdown.
    assert!(
        all.contains("we have\n$$\\frac{a}{b} = \\$5 + \\$$$\nfor all *x*."),
        "{all}"
    );
    // A heading stays on one line.
    assert!(all.contains("## On $$\\alpha$$"), "{all}");
    assert!(
        all.contains("$\\lt /mark\\gt \\lt ins author=\"x\"\\gt $"),
        "{all}"
    );
    assert!(!all.contains("<ins"), "{all}");
}

#[test]
fn docx_equations_are_latex() {
    let Some(c) = convert_file("openxmlsdk__equation.docx", 512) else {
        return;
    };
    let all: String = c.iter().map(|c| c.text.as_str()).collect();
    for want in [
        "$f(x)=a_{0}+\\sum_{n=1}^{\\infty}\\left(a_{n}\\cos\\frac{n\\pi x}{L}+b_{n}\\sin\\frac{n\\pi x}{L}\\right)$",
        "\\frac{n\\pi x}{L}",
        "\\sum_{n=1}^{\\infty}",
        "$\\begin{matrix}\\mathbf{1} & \\mathbf{0} \\\\ \\mathbf{0} & \\mathbf{1}\\end{matrix}$",
        "$\\alpha\\kappa\\gamma\\delta",
        "-\\infty\\lt x\\lt \\infty",
        "8\n$$(x+a)^{n}=\\sum_{k=0}^{n}\\binom{n}{k}x^{k}a^{n-k}$$",
    ] {
        assert!(all.contains(want), "{want} in {all}");
    }
    assert!(docrag::SYSTEM_MESSAGE.contains("LaTeX"));
}

#[test]
fn html_table_cells_carry_html_markup_and_pipe_cells_markdown() {
    // CommonMark renders no Markdown inside an HTML block: an HTML table's cells carry
    // HTML inline markup; a pipe table keeps Markdown.
    let text = |name: &str| {
        convert_file(name, 1024)
            .expect("converts")
            .iter()
            .map(|c| c.text.clone())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let wiki = text("readability__wikipedia.html");
    assert!(wiki.contains(
        "<tr><td>Industry</td><td><a href=\"/wiki/Open-source_software\">Open-source software</a></td></tr>"
    ));
    let sas = text("poi__bug57031.docx");
    // Bold header cells: <th> says it. A column of bold row labels: no <strong> per row.
    assert!(sas.contains("<tr><th>Time</th><th></th><th>Survival</th><th>Failure</th>"));
    assert!(sas.contains(
        "<tr><td>38.0000</td><td></td><td>0.4464</td><td>0.5536</td><td>0.0924</td><td>18</td><td>10</td></tr>"
    ));
    // A column whose filled cells are all bold ("*" marks) drops it too; bold that
    // sets a cell apart in its column stays, as HTML.
    assert!(sas.contains("<tr><td>38.0000</td><td>*</td><td>.</td>"));
    assert!(sas.contains("<tr><td><strong>Wilcoxon</strong></td><td>0.7660</td>"));
    // A pipe table keeps Markdown emphasis.
    assert!(sas.contains("| **Mean** | **Standard Error** |"));
    for html_table in sas.split("<table>").skip(1) {
        let table = html_table.split("</table>").next().unwrap();
        assert!(
            !table.contains("**"),
            "Markdown inside an HTML table: {table}"
        );
    }
    // The system message tells a model about it.
    assert!(
        docrag::SYSTEM_MESSAGE.contains("inside an HTML table, formatting is HTML too (<strong>")
    );
}
