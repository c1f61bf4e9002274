//! HTML reader tests: every HTML file of the shared corpus (through the reader and end
//! to end through `docrag::convert`), synthetic inputs for structure (lists, tables
//! with spans, revisions, page breaks, hidden content, Word HTML, encodings), and bad
//! input (100,000 levels of nesting, unclosed tags, invalid UTF-8, NUL bytes, an empty
//! file, a 5 MB table).

mod common;
use common::{all_blocks, blocks_text, cell_text, chunks_text, corpus};

use std::time::{Duration, Instant};

use docrag::model::{Block, Document, Inline, ParagraphKind, RevisionKind, Table};
use docrag::{Conversion, ConvertError, ConvertOptions, Limits};

/// A corpus file through format detection (by name and content).
fn read_named(name: &str) -> Document {
    let bytes = corpus(name);
    docrag::read::read(&bytes, &ConvertOptions::new().with_file_name(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn convert_named(name: &str) -> Conversion {
    let bytes = corpus(name);
    docrag::convert(&bytes, &ConvertOptions::new().with_file_name(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Synthetic HTML through the HTML reader directly.
fn html(src: &str) -> Document {
    docrag::read::html::read(src.as_bytes(), &ConvertOptions::new()).expect("HTML reads")
}

fn html_bytes(src: &[u8]) -> Document {
    docrag::read::html::read(src, &ConvertOptions::new()).expect("HTML reads")
}

fn tables(d: &Document) -> Vec<&Table> {
    all_blocks(&d.body)
        .into_iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// Paragraphs anywhere, with kind and text.
fn paragraphs(d: &Document) -> Vec<(ParagraphKind, String)> {
    all_blocks(&d.body)
        .into_iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => {
                let mut s = String::new();
                for i in &p.inlines {
                    i.plain_text(&mut s);
                }
                Some((p.kind.clone(), s))
            }
            _ => None,
        })
        .collect()
}

fn headings(d: &Document) -> Vec<(u8, String)> {
    paragraphs(d)
        .into_iter()
        .filter_map(|(k, t)| match k {
            ParagraphKind::Heading(n) => Some((n, t)),
            _ => None,
        })
        .collect()
}

/// Every inline, links and revisions opened, without recursion.
fn all_inlines(d: &Document) -> Vec<Inline> {
    let mut out = Vec::new();
    for b in all_blocks(&d.body) {
        if let Block::Paragraph(p) = b {
            let mut stack: Vec<&Inline> = p.inlines.iter().rev().collect();
            while let Some(i) = stack.pop() {
                out.push(i.clone());
                if let Inline::Link { children, .. } | Inline::Revision { children, .. } = i {
                    stack.extend(children.iter().rev());
                }
            }
        }
    }
    out
}

fn inline_text(i: &Inline) -> String {
    let mut s = String::new();
    i.plain_text(&mut s);
    s
}

fn find_table<'a>(d: &'a Document, cell: &str) -> &'a Table {
    tables(d)
        .into_iter()
        .find(|t| {
            t.rows
                .iter()
                .any(|r| r.cells.iter().any(|c| cell_text(c) == cell))
        })
        .unwrap_or_else(|| panic!("no table with a cell {cell:?}"))
}

const HTML_FILES: &[&str] = &[
    "pandoc__html-reader.html",
    "readability__wikipedia.html",
    "readability__keep-tabular-data.html",
    "readability__hukumusume.html",
    "readability__ietf-1.html",
    "tika__testHTML_charset_utf16le.html",
    "tika__testHTMLNoisyMetaEncoding_1.html",
    "docx4j__Docx4j_GettingStarted_Hindi.html",
    "tika__testArabicMisleadingCharset.html",
];

// ---------------------------------------------------------------- corpus

#[test]
fn manifest_lists_exactly_these_html_files() {
    let manifest = String::from_utf8(corpus("MANIFEST.tsv")).expect("UTF-8 manifest");
    let mut listed: Vec<&str> = manifest
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols.get(5) == Some(&"html")).then(|| cols[0])
        })
        .collect();
    listed.sort_unstable();
    let mut ours = HTML_FILES.to_vec();
    ours.sort_unstable();
    assert_eq!(listed, ours);
}

#[test]
fn every_corpus_file_reads_and_converts() {
    for name in HTML_FILES {
        let d = read_named(name);
        assert!(!d.body.is_empty(), "{name}: empty body");
        assert!(
            d.warnings.iter().all(|w| w.code != "too-deep"),
            "{name}: {:?}",
            d.warnings
        );
        let c = convert_named(name);
        assert!(!c.chunks.is_empty(), "{name}: no chunks");
        let text = chunks_text(&c);
        for script in [
            "function(",
            "function (",
            "});",
            "document.write",
            "getElementById",
            "addEventListener",
            "{font-",
            "!important",
        ] {
            assert!(
                !text.contains(script),
                "{name}: script/style text {script:?} in output"
            );
        }
    }
}

#[test]
fn pandoc_reader_page_structure() {
    let name = "pandoc__html-reader.html";
    let d = read_named(name);
    assert_eq!(d.properties.title.as_deref(), Some("Pandoc Test Suite"));
    let hs = headings(&d);
    assert!(hs.contains(&(1, "Headers".into())), "{hs:?}");
    assert!(hs.contains(&(2, "Level 2 with an embedded link".into())));
    assert!(hs.contains(&(5, "Level 5".into())));
    assert!(hs.contains(&(2, "Colspans and Rowspans".into())));

    // colspan="2" on the first row, colspan="3" on the second.
    let t = find_table(&d, "1 and 2");
    assert_eq!(t.rows[0].cells.len(), 2);
    assert_eq!(
        (t.rows[0].cells[0].col_span, cell_text(&t.rows[0].cells[1])),
        (2, "3".into())
    );
    assert_eq!(t.rows[1].cells[0].col_span, 3);

    // thead with a colspan="3" header; rowspan="2" covers the first cell of the next row.
    let t = find_table(&d, "1 and 4");
    assert!(t.rows[0].header && !t.rows[1].header);
    assert_eq!(cell_text(&t.rows[0].cells[0]), "Numbers");
    assert_eq!(t.rows[0].cells[0].col_span, 3);
    assert_eq!(t.rows[1].cells[0].row_span, 2);
    let under: Vec<String> = t.rows[2].cells.iter().map(cell_text).collect();
    assert_eq!(under, ["5", "6"]);

    // The "Attributes" table: thead, tbody, tfoot in order.
    let t = find_table(&d, "Cat X");
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.cells.iter().map(cell_text).collect())
        .collect();
    assert_eq!(
        rows,
        [vec!["Cat X"], vec!["1", "2", "3"], vec!["4", "5", "6"]]
    );

    // <ins>bar</ins> and <del>baz</del>.
    let inl = all_inlines(&d);
    assert!(inl.iter().any(|i| matches!(
        i,
        Inline::Revision {
            kind: RevisionKind::Insertion,
            ..
        }
    ) && inline_text(i) == "bar"));
    assert!(inl.iter().any(|i| matches!(
        i,
        Inline::Revision {
            kind: RevisionKind::Deletion,
            ..
        }
    ) && inline_text(i) == "baz"));
    assert!(
        inl.iter()
            .any(|i| matches!(i, Inline::Link { target, .. } if target == "/url"))
    );

    // <ol start="2">, and a nested <ol start="4"> one level down.
    let ps = paragraphs(&d);
    let item = |text: &str| {
        ps.iter()
            .find(|(_, t)| t.trim() == text || t.starts_with(&format!("{text}\n")))
            .map(|(k, _)| k.clone())
            .unwrap_or_else(|| panic!("no paragraph {text:?}"))
    };
    assert_eq!(
        item("begins with 2"),
        ParagraphKind::ListItem {
            ordered: true,
            level: 0,
            number: 2
        }
    );
    // <li><p>and now 3</p><p>with a continuation</p>: one item, two lines.
    assert_eq!(
        item("and now 3"),
        ParagraphKind::ListItem {
            ordered: true,
            level: 0,
            number: 3
        }
    );
    assert!(
        ps.iter()
            .any(|(_, t)| t == "and now 3\nwith a continuation")
    );
    assert!(matches!(
        item("sublist with roman numerals, starting with 4"),
        ParagraphKind::ListItem {
            ordered: true,
            level: 1,
            number: 4
        }
    ));
    let all = all_blocks(&d.body);
    assert!(all.iter().any(|b| matches!(b, Block::Code { text, .. } if text.contains("sub status {\n    print \"working\";\n}"))));
    assert!(all.iter().any(|b| matches!(b, Block::Quote(_))));
    assert!(all.iter().any(|b| matches!(b, Block::Rule)));

    // End to end (small chunks, so that sections do not share one): the rowspan
    // table's chunk carries its heading path.
    let opts = ConvertOptions::new()
        .with_file_name(name)
        .with_max_tokens(128)
        .expect("valid");
    let c = docrag::convert(&corpus(name), &opts).expect("converts");
    let chunk = c
        .chunks
        .iter()
        .find(|c| c.text.contains("1 and 4"))
        .expect("a chunk with the rowspan table");
    let path = chunk.metadata.get_str("headingPath").unwrap_or("");
    assert!(path.ends_with("Colspans and Rowspans"), "{path}");
    assert_eq!(c.title, "Pandoc Test Suite");
}

#[test]
fn wikipedia_drops_scripts_and_hidden_content() {
    let name = "readability__wikipedia.html";
    let d = read_named(name);
    assert_eq!(d.properties.title.as_deref(), Some("Mozilla - Wikipedia"));
    let text = d.body_text();
    assert!(text.contains("Shumway is an open source replacement for the Adobe Flash Player"));
    assert!(!text.contains("wgCanonicalNamespace"), "script text leaked");
    assert!(!text.contains("mw.config"), "script text leaked");
    // <span style="display:none; color:#33aa33">CS1 maint: Unfit url (<a>link</a>)</span>
    assert!(
        !text.contains("CS1 maint: Unfit url (link)"),
        "display:none text leaked"
    );
    assert!(
        text.contains("CS1 maint: Unfit url"),
        "the visible category link stays"
    );
    let hs = headings(&d);
    assert!(
        hs.iter().any(|(n, t)| *n == 1 && t == "Mozilla"),
        "{:?}",
        &hs[..3]
    );
    assert!(hs.iter().any(|(_, t)| t.starts_with("History")));
    assert!(tables(&d).len() >= 5);
    let opts = ConvertOptions::new()
        .with_file_name(name)
        .with_max_tokens(128)
        .expect("valid");
    let c = docrag::convert(&corpus(name), &opts).expect("converts");
    let all = chunks_text(&c);
    assert!(!all.contains("wgCanonicalNamespace"));
    let shumway = c
        .chunks
        .iter()
        .find(|c| {
            c.text
                .contains("is an open source replacement for the Adobe Flash Player")
        })
        .expect("Shumway chunk");
    assert!(
        shumway
            .metadata
            .get_str("headingPath")
            .unwrap_or("")
            .contains("Shumway")
    );
}

#[test]
fn keep_tabular_data_table_and_noscript() {
    let d = read_named("readability__keep-tabular-data.html");
    assert_eq!(
        d.properties.title.as_deref(),
        Some("Friday Facts #282 - 0.17 in sight | Factorio")
    );
    assert!(
        !d.body_text().contains("JavaScript is required"),
        "noscript content leaked"
    );
    assert!(!tables(&d).is_empty());
}

#[test]
fn hukumusume_japanese_layout_tables() {
    let d = read_named("readability__hukumusume.html");
    assert!(
        d.properties
            .title
            .as_deref()
            .is_some_and(|t| t.starts_with("欲張りなイヌ"))
    );
    let text = d.body_text();
    assert!(text.contains("イヌ"), "Japanese text");
    // The page is laid out with nested tables; they are read as the blocks they hold,
    // so the story is a paragraph of the body, not a cell of a giant row.
    let story = d.body.iter().any(|b| {
        matches!(b, Block::Paragraph(_))
            && blocks_text(std::slice::from_ref(b)).contains("肉をくわえたイヌが")
    });
    assert!(story, "layout tables unwrapped");
    // A two-row, four-column box stays a table, with its colspan.
    let t = find_table(&d, "おりがみをつくろう");
    assert_eq!((t.rows.len(), t.rows[1].cells[0].col_span), (2, 4));
}

#[test]
fn ietf_draft_preformatted_text_and_author() {
    let d = read_named("readability__ietf-1.html");
    assert_eq!(d.properties.author.as_deref(), Some("Kooman, F."));
    // The draft is all <pre>, one per printed page: it reads as the paginated plain
    // text it is, with its numbered sections as headings and its running header and
    // footer as parts.
    let headings: Vec<String> = all_blocks(&d.body)
        .into_iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) if matches!(p.kind, ParagraphKind::Heading(_)) => {
                let mut s = String::new();
                b.plain_text(&mut s);
                Some(s.trim().to_string())
            }
            _ => None,
        })
        .collect();
    for h in ["Abstract", "6. Versioning", "12.1. WebFinger"] {
        assert!(headings.iter().any(|x| x == h), "{h} in {headings:?}");
    }
    let pages = d.body.iter().filter(|b| **b == Block::PageBreak).count();
    assert_eq!(pages + 1, 22);
    assert_eq!(d.parts.len(), 2);
    let mut header = String::new();
    for b in &d.parts[0].blocks {
        b.plain_text(&mut header);
    }
    assert_eq!(header.trim(), "Internet-Draft remoteStorage December 2014");
    assert!(
        !d.body_text().contains("[Page 7]"),
        "footer lines left the body"
    );
}

#[test]
fn utf16le_with_bom() {
    let d = read_named("tika__testHTML_charset_utf16le.html");
    assert_eq!(d.properties.title.as_deref(), Some("Title"));
    assert_eq!(d.body_text().trim(), "This is a sample text");
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn word_html_in_iso_8859_6() {
    let d = read_named("tika__testHTMLNoisyMetaEncoding_1.html");
    let text = d.body_text();
    assert!(text.contains("وأعرب الاتحاد الجزائري"), "{text}");
    assert!(!text.contains("<!--"), "conditional comments dropped");
}

#[test]
fn arabic_under_a_misleading_utf8_declaration() {
    let d = read_named("tika__testArabicMisleadingCharset.html");
    assert!(d.body_text().contains("في قرية من القرى كان هناك رجل حكيم"));
    assert!(!d.body_text().contains('\u{FFFD}'));
    let w = d
        .warnings
        .iter()
        .find(|w| w.code == "encoding")
        .expect("encoding warning");
    assert!(w.message.contains("windows-1256"), "{}", w.message);
}

#[test]
fn hindi_devanagari_text_and_table() {
    let d = read_named("docx4j__Docx4j_GettingStarted_Hindi.html");
    assert!(d.body_text().contains("docx4j प्रारंभ करना"));
    assert!(!tables(&d).is_empty());
}

// ---------------------------------------------------------------- synthetic structure

#[test]
fn revisions_with_author_and_date() {
    let d = html(
        r#"<p>Keep <ins cite="/why" datetime="2024-05-01T10:00Z" data-author="Ana">new words</ins>
        <del datetime="2024-05-02" data-username="bo">old words</del>
        <ins title="Cy Young">titled</ins> <del>anon</del></p>
        <del data-author="Di"><p>whole paragraph one</p><p>whole paragraph two</p></del>"#,
    );
    let revs: Vec<(RevisionKind, Option<String>, Option<String>, String)> = all_inlines(&d)
        .into_iter()
        .filter_map(|i| match &i {
            Inline::Revision {
                kind, author, date, ..
            } => Some((*kind, author.clone(), date.clone(), inline_text(&i))),
            _ => None,
        })
        .collect();
    let r = |k, a: Option<&str>, dt: Option<&str>, t: &str| {
        (
            k,
            a.map(str::to_string),
            dt.map(str::to_string),
            t.to_string(),
        )
    };
    use RevisionKind::{Deletion, Insertion};
    assert_eq!(
        revs,
        [
            r(
                Insertion,
                Some("Ana"),
                Some("2024-05-01T10:00Z"),
                "new words"
            ),
            r(Deletion, Some("bo"), Some("2024-05-02"), "old words"),
            r(Insertion, Some("Cy Young"), None, "titled"),
            r(Deletion, None, None, "anon"),
            r(Deletion, Some("Di"), None, "whole paragraph one"),
            r(Deletion, Some("Di"), None, "whole paragraph two"),
        ]
    );
    let c = docrag::convert(
        b"<p>x <ins data-author=\"Ana\">y</ins></p>",
        &ConvertOptions::new().with_file_name("r.html"),
    )
    .expect("converts");
    assert_eq!(c.chunks[0].metadata.get_str("revisionAuthors"), Some("Ana"));
}

#[test]
fn css_page_breaks_number_pages() {
    let src = r#"<html><body>
        <p style="page-break-before: always">first page (a leading break is dropped)</p>
        <p>still first</p>
        <p style="page-break-before: always">second page</p>
        <div style="break-after: page"><p>still second</p></div>
        <h2 style="break-before: page">third page heading</h2>
        <p>third page text<br clear=all style='page-break-before:always'>fourth page text</p>
        </body></html>"#;
    let d = html(src);
    let shape: Vec<&str> = d
        .body
        .iter()
        .map(|b| match b {
            Block::PageBreak => "break",
            Block::Paragraph(_) => "p",
            _ => "other",
        })
        .collect();
    assert_eq!(shape, ["p", "p", "break", "p", "p", "break", "p", "p"]);
    let c = docrag::convert(
        src.as_bytes(),
        &ConvertOptions::new().with_file_name("pages.html"),
    )
    .expect("converts");
    let page_of = |needle: &str| {
        c.chunks
            .iter()
            .find(|c| c.text.contains(needle))
            .and_then(|c| c.metadata.get_int("lastPage"))
            .unwrap_or_else(|| panic!("no chunk with {needle}"))
    };
    assert_eq!(page_of("fourth page text"), 4);
    let first_of = |needle: &str| {
        c.chunks
            .iter()
            .find(|c| c.text.contains(needle))
            .and_then(|c| c.metadata.get_int("firstPage"))
    };
    assert_eq!(first_of("first page"), Some(1));
}

#[test]
fn hidden_and_non_content_elements_are_dropped() {
    let d = html(
        r#"<html><head><title>T</title><style>p{color:red}</style><script>alert(1)</script>
        <link rel=stylesheet href=x.css></head><body>
        <p>visible</p><p hidden>hidden attr</p><p aria-hidden="true">aria</p>
        <div style="display:none">display none</div><span style="visibility: hidden">vis</span>
        <template><p>template</p></template><noscript>noscript</noscript>
        <script type="text/template"><p>tpl script</p></script>
        <p style="mso-hide:all">word hidden</p><input type=hidden value=secret>
        <iframe src="x.html">iframe fallback</iframe><embed src=x.swf>
        <video><p>video fallback</p></video></body></html>"#,
    );
    assert_eq!(d.body_text().trim(), "visible");
    assert_eq!(d.properties.title.as_deref(), Some("T"));
    let w: Vec<&str> = d.warnings.iter().map(|w| w.code).collect();
    assert_eq!(
        w,
        ["embedded-content", "embedded-content"],
        "{:?}",
        d.warnings
    );
    assert!(d.warnings[0].message.contains("<embed>"));
    assert!(d.warnings[1].message.contains("<iframe>"));
}

#[test]
fn lists_nested_numbered_and_multi_paragraph() {
    let d = html(
        r#"<ul><li>a<ul><li>a.1</li><li>a.2<ol start="7"><li>seven</li><li value="10">ten</li><li>eleven</li></ol></li></ul></li>
        <li><p>para one</p><p>para two</p></li></ul>
        <ol reversed><li>three</li><li>two</li><li>one</li></ol><li>stray</li>"#,
    );
    let items: Vec<(ParagraphKind, String)> = paragraphs(&d);
    let li = |ordered, level, number| ParagraphKind::ListItem {
        ordered,
        level,
        number,
    };
    let expect = [
        (li(false, 0, 1), "a"),
        (li(false, 1, 1), "a.1"),
        (li(false, 1, 2), "a.2"),
        (li(true, 2, 7), "seven"),
        (li(true, 2, 10), "ten"),
        (li(true, 2, 11), "eleven"),
        (li(false, 0, 2), "para one\npara two"),
        (li(true, 0, 3), "three"),
        (li(true, 0, 2), "two"),
        (li(true, 0, 1), "one"),
        (li(false, 0, 1), "stray"),
    ];
    let got: Vec<(ParagraphKind, &str)> =
        items.iter().map(|(k, t)| (k.clone(), t.as_str())).collect();
    assert_eq!(got, expect);
}

#[test]
fn tables_headers_spans_and_nesting() {
    let d = html(
        r#"<table><caption>Cap</caption>
        <tfoot><tr><td>f1</td><td>f2</td><td>f3</td></tr></tfoot>
        <tr><th>H1</th><th colspan=2>H2</th></tr>
        <tr><td rowspan=0>all</td><td>b</td><td>c</td></tr>
        <tr><td>e</td><td><table><tr><td>in1</td><td>in2</td></tr><tr><td>in3</td><td>in4</td></tr></table></td></tr>
        </table>
        <table><tr><td>layout a</td><td><table role=presentation><tr><td>x</td></tr><tr><td>y</td></tr></table></td></tr></table>"#,
    );
    assert_eq!(paragraphs(&d)[0].1, "Cap");
    let t = find_table(&d, "H1");
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.cells.iter().map(cell_text).collect())
        .collect();
    assert_eq!(rows[0], ["H1", "H2"]);
    assert!(t.rows[0].header && !t.rows[1].header);
    assert_eq!(t.rows[0].cells[1].col_span, 2);
    // rowspan=0 reaches the end of its group (the implied tbody: 3 rows from here).
    assert_eq!(t.rows[1].cells[0].row_span, 2);
    assert_eq!(rows[3], ["f1", "f2", "f3"], "tfoot last");
    let inner = find_table(&d, "in1");
    assert_eq!(inner.rows[1].cells.len(), 2);
    // A single-row table without th, and a role=presentation table, are layout: their
    // cells become blocks.
    assert_eq!(tables(&d).len(), 2);
    let ps = paragraphs(&d);
    assert!(
        ["layout a", "x", "y"]
            .iter()
            .all(|w| ps.iter().any(|(_, t)| t == w))
    );
}

#[test]
fn whitespace_collapses_outside_pre() {
    let d = html(
        "<p>  one\n\t two   <b> three </b>four&nbsp;&nbsp;five<br>\n  six  </p>\
         <pre>  keep\n    this  </pre><p>&nbsp;</p><p>a&amp;b &lt;c&gt; &eacute; &#x263A;</p>",
    );
    let ps = paragraphs(&d);
    assert_eq!(ps[0].1, "one two three four five\nsix");
    assert_eq!(ps.len(), 2, "the &nbsp; paragraph is empty: {ps:?}");
    assert_eq!(ps[1].1, "a&b <c> é ☺");
    assert!(
        d.body
            .iter()
            .any(|b| matches!(b, Block::Code { text, .. } if text == "  keep\n    this"))
    );
}

#[test]
fn inline_formatting_links_images_and_forms() {
    let d = html(
        r#"<p><b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <s>x</s> <sub>2</sub> <sup>3</sup> <code>c</code>
        <span style="font-weight:bold">css</span> <a href="https://e.x/">link <img src=a.png alt="logo"></a>
        <img src=b.png alt=""> <img src=pixel.gif width=1 height=1>
        <input type=text value="typed"> <input type=checkbox checked> <select><option>no</option><option selected>yes</option></select>
        <button>Go</button> <q>quoted</q> <a href="javascript:void(0)">js</a></p>"#,
    );
    let inl = all_inlines(&d);
    let styled = |t: &str| {
        inl.iter()
            .find_map(|i| match i {
                Inline::Text { text, style } if text.trim() == t => Some(*style),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no run {t:?}"))
    };
    assert!(styled("b").bold && styled("s").bold && styled("css").bold);
    assert!(styled("i").italic && styled("e").italic);
    assert!(styled("u").underline && styled("x").strike);
    assert!(styled("2").subscript && styled("3").superscript && styled("c").code);
    let link = inl
        .iter()
        .find(|i| matches!(i, Inline::Link { target, .. } if target == "https://e.x/"))
        .expect("link");
    assert_eq!(inline_text(link).trim(), "link logo");
    let images: Vec<&Inline> = inl
        .iter()
        .filter(|i| matches!(i, Inline::Image { .. }))
        .collect();
    assert_eq!(images.len(), 1, "decorative and tracking images dropped");
    let text = d.body_text();
    assert!(
        text.contains("typed")
            && text.contains("☒")
            && text.contains("yes")
            && !text.contains("no ")
    );
    assert!(text.contains("Go") && text.contains("“quoted”") && text.contains("js"));
    assert!(
        !inl.iter()
            .any(|i| matches!(i, Inline::Link { target, .. } if target.starts_with("javascript")))
    );
}

#[test]
fn headings_quotes_definitions_figures() {
    let d = html(
        "<h1>One</h1><h3>Three</h3><blockquote><p>q1</p><blockquote>q2</blockquote></blockquote>\
         <dl><dt>Term</dt><dd>Definition</dd></dl><figure><img alt=Chart><figcaption>Fig 1</figcaption></figure><hr>",
    );
    assert_eq!(
        headings(&d),
        [(1, "One".to_string()), (3, "Three".to_string())]
    );
    let Some(Block::Quote(q)) = d.body.get(2) else {
        panic!("quote expected: {:?}", d.body)
    };
    assert!(matches!(q.get(1), Some(Block::Quote(_))));
    let ps = paragraphs(&d);
    assert!(ps.iter().any(|(_, t)| t == "Term"));
    assert!(ps.iter().any(|(_, t)| t == "Definition"));
    assert!(ps.iter().any(|(_, t)| t == "Chart"));
    assert!(ps.iter().any(|(_, t)| t == "Fig 1"));
    let term = all_inlines(&d)
        .into_iter()
        .find_map(|i| match i {
            Inline::Text { text, style } if text == "Term" => Some(style),
            _ => None,
        })
        .expect("term run");
    assert!(term.bold);
    assert!(matches!(d.body.last(), Some(Block::Rule)));
}

#[test]
fn meta_properties() {
    let d = html(
        r#"<head><meta name="Author" content="Ada  Lovelace"><meta name=description content="About engines">
        <meta name=keywords content="a, b"><meta property="og:title" content="OG"></head><body>x"#,
    );
    let p = &d.properties;
    assert_eq!(p.author.as_deref(), Some("Ada Lovelace"));
    assert_eq!(p.description.as_deref(), Some("About engines"));
    assert_eq!(p.keywords.as_deref(), Some("a, b"));
    assert_eq!(p.title.as_deref(), Some("OG"), "og:title without <title>");
}

#[test]
fn word_html_lists_title_and_properties() {
    let src = r#"<html xmlns:o="urn:schemas-microsoft-com:office:office"><head>
<!--[if gte mso 9]><xml><o:DocumentProperties><o:Author>Jan Kowalski</o:Author><o:Created>2020-01-02T03:04:00Z</o:Created></o:DocumentProperties></xml><![endif]-->
</head><body><div class=WordSection1>
<p class=MsoTitle>Annual Plan<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-.25in;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span><![endif]>First step<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='mso-list:l0 level2 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>b)<span>&nbsp;</span></span><![endif]>Sub step</p>
<p class=MsoNormal style='mso-list:l1 level1 lfo2'><span style='font-family:Symbol;mso-list:Ignore'>·<span>&nbsp;</span></span>Bullet</p>
<p class=MsoNormal>Body&nbsp;text<o:p>&nbsp;</o:p></p></div></body></html>"#;
    let d = html(src);
    assert_eq!(d.properties.author.as_deref(), Some("Jan Kowalski"));
    assert_eq!(
        d.properties.created.as_deref(),
        Some("2020-01-02T03:04:00Z")
    );
    let ps = paragraphs(&d);
    let got: Vec<(ParagraphKind, &str)> = ps.iter().map(|(k, t)| (k.clone(), t.as_str())).collect();
    assert_eq!(
        got,
        [
            (ParagraphKind::Title, "Annual Plan"),
            (
                ParagraphKind::ListItem {
                    ordered: true,
                    level: 0,
                    number: 1
                },
                "First step"
            ),
            (
                ParagraphKind::ListItem {
                    ordered: true,
                    level: 1,
                    number: 2
                },
                "Sub step"
            ),
            (
                ParagraphKind::ListItem {
                    ordered: false,
                    level: 0,
                    number: 1
                },
                "Bullet"
            ),
            (ParagraphKind::Normal, "Body text"),
        ]
    );
}

#[test]
fn svg_and_math() {
    let d = html(
        r#"<p>Logo: <svg aria-label="Company logo"><text>inner</text></svg>
        <svg><title>Titled</title><circle/></svg> and <math alttext="x^2"><mi>x</mi><mn>2</mn></math>
        and <math><msup><mi>y</mi><mn>3</mn></msup></math></p>"#,
    );
    let t = d.body_text();
    assert!(
        t.contains("Company logo") && t.contains("Titled") && !t.contains("inner"),
        "{t}"
    );
    assert!(t.contains("x^2") && t.contains("y3"), "{t}");
}

// ---------------------------------------------------------------- encodings

#[test]
fn encodings_hint_meta_bom_and_fallback() {
    // <meta charset> in a legacy encoding.
    let mut b = b"<meta charset=windows-1251><p>".to_vec();
    b.extend_from_slice(&[0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]); // Привет
    assert_eq!(html_bytes(&b).body_text().trim(), "Привет");
    // The caller's hint beats the <meta>.
    let mut b = b"<meta charset=windows-1252><p>".to_vec();
    b.extend_from_slice(&[0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    let opts = ConvertOptions {
        mime: Some("text/html; charset=windows-1251".into()),
        ..ConvertOptions::new()
    };
    let d = docrag::read::html::read(&b, &opts).expect("reads");
    assert_eq!(d.body_text().trim(), "Привет");
    // UTF-16BE with a BOM.
    let mut b = vec![0xFE, 0xFF];
    for u in "<title>ça</title><p>ünï</p>".encode_utf16() {
        b.extend_from_slice(&u.to_be_bytes());
    }
    let d = html_bytes(&b);
    assert_eq!(
        (d.properties.title.as_deref(), d.body_text().trim()),
        (Some("ça"), "ünï")
    );
    // Undeclared and not UTF-8: windows-1252.
    let d = html_bytes(b"<p>caf\xe9 na\xefve");
    assert_eq!(d.body_text().trim(), "café naïve");
    assert!(d.warnings.iter().any(|w| w.code == "encoding"));
}

// ---------------------------------------------------------------- bad input

fn timed<T>(what: &str, limit: Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    let el = t.elapsed();
    // Generous: debug builds and a busy machine; quadratic behaviour takes minutes.
    assert!(el < limit, "{what} took {el:?}");
    out
}

#[test]
fn deep_nesting_is_flattened_not_fatal() {
    for (what, open, close) in [
        ("div", "<div>", ""),
        ("ul/li", "<ul><li>", ""),
        ("b", "<b>", ""),
        ("span", "<span>", "</span>"),
        ("table", "<table><tr><td>", ""),
        ("blockquote", "<blockquote>", ""),
        ("svg", "<svg><g>", ""),
    ] {
        let n = 100_000;
        let src = format!("{}deep text{}", open.repeat(n), close.repeat(n));
        let d = timed(what, Duration::from_secs(30), || html(&src));
        assert!(
            d.body_text().contains("deep text") || what == "svg",
            "{what}: text kept"
        );
        assert!(
            d.warnings.iter().any(|w| w.code == "too-deep"),
            "{what}: {:?}",
            d.warnings
        );
        // And end to end (the chunker gets a shallow model).
        let c = timed(what, Duration::from_secs(30), || {
            docrag::convert(
                src.as_bytes(),
                &ConvertOptions::new().with_file_name("deep.html"),
            )
        })
        .expect("converts");
        assert!(what == "svg" || chunks_text(&c).contains("deep text"));
    }
}

#[test]
fn depth_limit_from_options() {
    let src = format!("{}<p>inner</p>{}", "<div>".repeat(40), "</div>".repeat(40));
    let opts = ConvertOptions::new().with_limits(Limits {
        max_depth: 16,
        ..Limits::default()
    });
    let d = docrag::read::html::read(src.as_bytes(), &opts).expect("reads");
    assert_eq!(d.body_text().trim(), "inner");
    assert!(d.warnings.iter().any(|w| w.code == "too-deep"));
    let d = html(&src);
    assert!(
        d.warnings.is_empty(),
        "40 levels are within the default limit"
    );
}

#[test]
fn dropping_a_deep_rcdom_does_not_recurse() {
    use html5ever::tendril::TendrilSink;
    // html5ever builds 100,000 nested <b> in linear time; the reader's guard never lets
    // such a tree reach the walker, but the DOM type itself must also drop it without
    // recursion: do it on a thread with a small stack.
    let src = "<b>".repeat(100_000);
    let t = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let dom =
                html5ever::parse_document(markup5ever_rcdom::RcDom::default(), Default::default())
                    .one(src.as_str());
            let mut depth = 0;
            let mut node = dom.document.clone();
            loop {
                let next = node.children.borrow().last().cloned();
                match next {
                    Some(n) => {
                        node = n;
                        depth += 1;
                    }
                    None => break,
                }
            }
            drop(node);
            drop(dom);
            depth
        })
        .expect("thread");
    assert!(t.join().expect("no stack overflow") > 100_000);
}

#[test]
fn unclosed_and_misnested_tags() {
    let d =
        html("<p>one<p>two<b>bold<i>both</b>italic</i><table><td>cell<tr><td>next<li>item<div>end");
    let t = d.body_text();
    for w in [
        "one", "two", "bold", "both", "italic", "cell", "next", "item", "end",
    ] {
        assert!(t.contains(w), "{w} in {t:?}");
    }
    let d = html("<a href=x><div>block in link</div></a><ins><p>p1</p><p>p2</p>");
    assert_eq!(paragraphs(&d).len(), 3);
}

#[test]
fn invalid_utf8_nul_bytes_and_garbage() {
    let d = html_bytes(b"<p>ok \xff\xfe\xfd bytes</p>");
    assert!(d.body_text().contains("ok") && d.body_text().contains("bytes"));
    let d = html_bytes(b"<p>a\0b</p>\0\0<p>\0</p>");
    assert!(d.body_text().contains('a') && d.body_text().contains('b'));
    assert!(!d.body_text().contains('\0'));
    let noise: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let _ = html_bytes(&noise);
    let nuls = vec![0u8; 1 << 20];
    let d = html_bytes(&nuls);
    assert!(d.body_text().trim().is_empty());
    for src in [
        "<",
        "<!--",
        "<html",
        "</",
        "<![CDATA[",
        "<p",
        "&",
        "&#",
        "<table><tr><td",
        "<svg><foreignObject><p>x",
    ] {
        let _ = html(src);
    }
}

#[test]
fn empty_input_is_a_typed_error() {
    assert_eq!(
        docrag::read::html::read(b"", &ConvertOptions::new()).unwrap_err(),
        ConvertError::Empty
    );
    assert!(matches!(
        docrag::convert(b"", &ConvertOptions::new().with_file_name("e.html")),
        Err(ConvertError::Empty)
    ));
    // White space only is a document without content.
    assert!(html("  \n ").body.is_empty());
}

#[test]
fn five_megabyte_table() {
    let mut src =
        String::from("<table><thead><tr><th>id</th><th>name</th><th>value</th></tr></thead>");
    let mut rows = 0;
    while src.len() < 5 << 20 {
        src.push_str(&format!(
            "<tr><td>{rows}</td><td>name {rows}</td><td>{}</td></tr>\n",
            rows * 7
        ));
        rows += 1;
    }
    src.push_str("</table>");
    let d = timed("5 MB table", Duration::from_secs(60), || html(&src));
    let t = tables(&d);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].rows.len(), rows + 1);
    assert!(t[0].rows[0].header);
    assert_eq!(
        cell_text(&t[0].rows[rows].cells[1]),
        format!("name {}", rows - 1)
    );
}

#[test]
fn a_line_break_in_a_list_item_keeps_the_next_line_in_the_item() {
    // Two <br> in a row would leave a line of spaces, which ends a CommonMark
    // paragraph; the line after the break is indented under the item's marker.
    let src = "<ul><li>WordprocessingPackage:<br><br>ProtectDocument settings</li>\
<li>SpreadsheetPackage</li></ul>";
    let c = docrag::convert(
        src.as_bytes(),
        &ConvertOptions::new().with_file_name("l.html"),
    )
    .expect("converts");
    let text = chunks_text(&c);
    assert!(
        text.contains(
            "- WordprocessingPackage:  \n  ProtectDocument settings\n- SpreadsheetPackage"
        ),
        "{text}"
    );
}
