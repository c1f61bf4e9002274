//! RTF reader tests: every RTF file of the shared corpus (through the reader and end to
//! end through `docrag::convert`), and synthetic inputs for merges, revisions, `\uc`,
//! `\bin`, page and section breaks, and bad input.

mod common;
use common::{blocks_text, cell_text, chunks_text, corpus};

use docrag::model::{
    AnchorMark, Block, Document, Inline, NoteKind, ParagraphKind, PartKind, PartVariant,
    RevisionKind, Table,
};
use docrag::{Conversion, ConvertOptions};

fn read(bytes: &[u8]) -> Document {
    docrag::read::rtf::read(bytes, &ConvertOptions::new()).expect("RTF reads")
}

fn convert(bytes: &[u8]) -> Conversion {
    docrag::convert(bytes, &ConvertOptions::new()).expect("RTF converts")
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

/// Paragraphs (outside tables) with their kinds and texts.
fn paragraphs(d: &Document) -> Vec<(ParagraphKind, String)> {
    d.body
        .iter()
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

fn find_inline<'a>(inlines: &'a [Inline], f: &dyn Fn(&Inline) -> bool) -> Option<&'a Inline> {
    for i in inlines {
        if f(i) {
            return Some(i);
        }
        if let Inline::Link { children, .. }
        | Inline::Field { children, .. }
        | Inline::Revision { children, .. } = i
            && let Some(x) = find_inline(children, f)
        {
            return Some(x);
        }
    }
    None
}

fn find_in_body<'a>(d: &'a Document, f: &dyn Fn(&Inline) -> bool) -> Option<&'a Inline> {
    d.body.iter().find_map(|b| match b {
        Block::Paragraph(p) => find_inline(&p.inlines, f),
        _ => None,
    })
}

fn codes(d: &Document) -> Vec<&'static str> {
    d.warnings.iter().map(|w| w.code).collect()
}

// ---------------------------------------------------------------- corpus

#[test]
fn corpus_nested_tables() {
    let d = read(&corpus("pandoc__table_nested.rtf"));
    let outer = tables(&d.body);
    assert_eq!(outer.len(), 1);
    assert_eq!(outer[0].rows.len(), 1);
    let cell = &outer[0].rows[0].cells[0];
    let level2 = tables(&cell.blocks);
    assert_eq!(level2.len(), 1, "{:?}", cell.blocks);
    assert!(blocks_text(&cell.blocks).contains("Outer after"));
    let c2 = &level2[0].rows[0].cells[0];
    let t = blocks_text(&c2.blocks);
    assert!(t.starts_with("Level two before"), "{t}");
    assert!(t.trim_end().ends_with("Level two after"), "{t}");
    let level3 = tables(&c2.blocks);
    assert_eq!(level3.len(), 1);
    let cells: Vec<Vec<String>> = level3[0]
        .rows
        .iter()
        .map(|r| r.cells.iter().map(cell_text).collect())
        .collect();
    assert_eq!(
        cells,
        vec![vec!["Deep A", "Deep B"], vec!["Deep C", "Deep D"]]
    );
    let body = d.body_text();
    assert!(body.contains("Outside table"));
    assert!(
        !body.contains("FALLBACK"),
        "\\nonesttables is a fallback copy"
    );
    let out = convert(&corpus("pandoc__table_nested.rtf"));
    assert!(chunks_text(&out).contains("Deep D"));
}

#[test]
fn corpus_footnotes() {
    let d = read(&corpus("pandoc__footnote.rtf"));
    assert_eq!(d.notes.len(), 2);
    assert!(d.notes.iter().all(|n| n.kind == NoteKind::Footnote));
    let first = blocks_text(&d.notes[0].blocks);
    assert_eq!(
        first.trim(),
        "See Sahlins, Bateson, and Geertz for a complete bibliography."
    );
    assert!(blocks_text(&d.notes[1].blocks).contains("complete bibliography will be found"));
    let body = d.body_text();
    assert!(body.contains("amply annotated. It was"), "{body}");
    assert!(!body.contains("Sahlins"), "note text stays out of the body");
    for n in &d.notes {
        let id = n.id.clone();
        let has_ref = find_in_body(
            &d,
            &|i| matches!(i, Inline::NoteRef { id: r, .. } if *r == id),
        );
        assert!(has_ref.is_some(), "note {id} is referenced");
    }
    let out = convert(&corpus("pandoc__footnote.rtf"));
    let text = chunks_text(&out);
    assert!(text.contains("Sahlins"));
    assert!(
        out.chunks
            .iter()
            .any(|c| c.metadata.get_str("chunkKind") == Some("footnote"))
    );
}

#[test]
fn corpus_headings() {
    let d = read(&corpus("pandoc__heading.rtf"));
    let p = paragraphs(&d);
    let heads: Vec<(ParagraphKind, &str)> = p
        .iter()
        .filter(|(k, _)| matches!(k, ParagraphKind::Heading(_)))
        .map(|(k, t)| (k.clone(), t.as_str()))
        .collect();
    assert_eq!(
        heads,
        vec![
            (ParagraphKind::Heading(1), "Heading 1"),
            (ParagraphKind::Heading(2), "Heading 2"),
            (ParagraphKind::Heading(3), "Heading 3"),
        ]
    );
    assert!(
        p.iter()
            .any(|(k, t)| *k == ParagraphKind::Normal && t == "Paragraph")
    );
    let out = convert(&corpus("pandoc__heading.rtf"));
    let last = out.chunks.last().expect("a chunk");
    assert_eq!(
        last.metadata.get_str("headingPath"),
        Some("Heading 1 > Heading 2 > Heading 3")
    );
    assert!(chunks_text(&out).contains("### Heading 3"));
}

#[test]
fn corpus_complex_lists() {
    let d = read(&corpus("pandoc__list_complex.rtf"));
    let items: Vec<(bool, u8, u32, String)> = paragraphs(&d)
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
    let find = |s: &str| {
        items
            .iter()
            .find(|i| i.3 == s)
            .cloned()
            .unwrap_or_else(|| panic!("item {s} in {items:?}"))
    };
    assert_eq!(find("One"), (true, 0, 1, "One".into()));
    assert_eq!(find("Two").2, 2);
    assert_eq!(find("Four"), (true, 1, 2, "Four".into()));
    assert_eq!(find("Ten").1, 4);
    let eleven = find("Eleven");
    assert!(!eleven.0, "Eleven is a bullet: {eleven:?}");
    assert_eq!(eleven.1, 5);
    assert_eq!(find("Seven Start").2, 7);
    assert_eq!(find("Eight Continue").2, 8);
    assert!(
        paragraphs(&d)
            .iter()
            .any(|(k, t)| *k == ParagraphKind::Normal && t == "Out of list!")
    );
    assert_eq!(d.properties.title.as_deref(), Some("Text before list"));
    let text = d.body_text();
    assert!(!text.contains("\u{b7}"), "list labels are not text");
}

#[test]
fn corpus_comment() {
    let d = read(&corpus("tika__testComment.rtf"));
    assert_eq!(d.comments.len(), 1);
    let c = &d.comments[0];
    assert_eq!(c.author.as_deref(), Some("Michael McCandless"));
    assert_eq!(c.initials.as_deref(), Some("MM"));
    assert_eq!(c.text, "Here is a comment");
    assert!(c.date.is_some());
    let id = c.id.clone();
    for mark in [AnchorMark::Start, AnchorMark::End] {
        let found = find_in_body(
            &d,
            &|i| matches!(i, Inline::CommentAnchor { id: a, mark: m } if *a == id && *m == mark),
        );
        assert!(found.is_some(), "{mark:?} anchor");
    }
    assert_eq!(d.body_text().trim(), "Here is some text.");
    assert_eq!(d.properties.author.as_deref(), Some("Michael McCandless"));
    let out = convert(&corpus("tika__testComment.rtf"));
    let text = chunks_text(&out);
    assert!(text.contains("Here is a comment"), "{text}");
    assert!(text.contains("Michael McCandless"));
    assert_eq!(
        out.chunks[0].metadata.get_str("commentAuthors"),
        Some("Michael McCandless")
    );
}

#[test]
fn corpus_japanese() {
    let d = read(&corpus("tika__testRTFJapanese.rtf"));
    // \u in \info\upr\ud, and Shift_JIS \'hh under \fcharset128 fonts.
    assert_eq!(
        d.properties.title.as_deref(),
        Some("ゾルゲと尾崎、淡々と最期")
    );
    let body = d.body_text();
    assert!(body.contains("ゾルゲと尾崎、淡々と最期"), "{body}");
    assert!(body.contains("古書店で処刑記録見つかる"));
    assert!(body.contains("社会運動史を研究する渡部富哉さん（東京都三鷹市）"));
    assert!(!body.contains('\u{FFFD}'));
    let items = paragraphs(&d)
        .into_iter()
        .filter(|(k, _)| matches!(k, ParagraphKind::ListItem { .. }))
        .count();
    assert!(items >= 6, "{items} list items");
    let t = tables(&d.body);
    assert_eq!(t.len(), 1);
    assert_eq!(cell_text(&t[0].rows[0].cells[0]), "今回発見されたのは、");
    let header = d
        .parts
        .iter()
        .find(|p| p.kind == PartKind::Header)
        .expect("header");
    assert_eq!(blocks_text(&header.blocks).trim(), "ゾルゲの処刑記録、");
    let out = convert(&corpus("tika__testRTFJapanese.rtf"));
    assert_eq!(out.title, "ゾルゲと尾崎、淡々と最期");
}

#[test]
fn corpus_various() {
    let d = read(&corpus("tika__testRTFVarious.rtf"));
    let parts: Vec<(PartKind, String)> = d
        .parts
        .iter()
        .map(|p| (p.kind, blocks_text(&p.blocks).trim().to_string()))
        .collect();
    assert!(parts.contains(&(PartKind::Header, "This is the header text.".into())));
    assert!(parts.contains(&(PartKind::Footer, "This is the footer text.".into())));
    assert_eq!(d.notes.len(), 1);
    assert_eq!(
        blocks_text(&d.notes[0].blocks).trim(),
        "This is a footnote."
    );
    let link = find_in_body(&d, &|i| matches!(i, Inline::Link { .. }));
    match link {
        Some(Inline::Link { target, children }) => {
            assert_eq!(target, "http://tika.apache.org");
            let mut s = String::new();
            for c in children {
                c.plain_text(&mut s);
            }
            assert_eq!(s, "This is a hyperlink");
        }
        other => panic!("no link: {other:?}"),
    }
    let body = d.body_text();
    for want in [
        "Here is a text box",
        "Bullet 3",
        "Number bullet 2",
        "Subject is here",
        "Keyword1 Keyword2",
        "ゾルゲと尾崎、淡々と最期",
        "（ＧＨＱ）",
        "𐌲𐌿𐍄𐌹𐍃𐌺",
        "Figure 1 This is a caption for Figure 1",
        "Row 2 column 2",
    ] {
        assert!(body.contains(want), "{want} in {body}");
    }
    let bold = find_in_body(
        &d,
        &|i| matches!(i, Inline::Text { text, style } if text == "Bold" && style.bold),
    );
    assert!(bold.is_some());
    let sup = find_in_body(
        &d,
        &|i| matches!(i, Inline::Text { text, style } if text == "superscript" && style.superscript),
    );
    assert!(sup.is_some());
    let t = tables(&d.body);
    assert_eq!(cell_text(&t[0].rows[1].cells[2]), "Row 2 Col 3");
    let kinds: Vec<ParagraphKind> = paragraphs(&d).into_iter().map(|(k, _)| k).collect();
    assert!(kinds.contains(&ParagraphKind::ListItem {
        ordered: false,
        level: 0,
        number: 3
    }));
    assert!(kinds.contains(&ParagraphKind::ListItem {
        ordered: true,
        level: 0,
        number: 3
    }));
    assert_eq!(d.properties.subject.as_deref(), Some("Subject is here"));
    assert!(
        d.body
            .iter()
            .any(|b| matches!(b, Block::SectionBreak { new_page: false })),
        "\\sbknone sections are continuous"
    );
    let out = convert(&corpus("tika__testRTFVarious.rtf"));
    let text = chunks_text(&out);
    assert!(text.contains("(http://tika.apache.org)"));
    assert!(text.contains("This is the footer text."));
}

#[test]
fn corpus_unbalanced_braces() {
    let d = read(&corpus("tika__testRTFTIKA_2500.rtf"));
    assert!(codes(&d).contains(&"unbalanced-braces"));
    let body = d.body_text();
    assert!(body.contains("Level1"));
    assert_eq!(body.matches("This is level2 paragraph.").count(), 3);
}

#[test]
fn corpus_every_rtf_converts_end_to_end() {
    let manifest = String::from_utf8(corpus("MANIFEST.tsv")).expect("utf-8 manifest");
    let mut n = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(5) != Some(&"rtf") {
            continue;
        }
        let bytes = corpus(cols[0]);
        let d = read(&bytes);
        assert!(!d.body_text().trim().is_empty(), "{}", cols[0]);
        let out = convert(&bytes);
        assert!(!out.chunks.is_empty(), "{}", cols[0]);
        n += 1;
    }
    assert_eq!(n, 8);
}

// ---------------------------------------------------------------- synthetic

#[test]
fn vertical_and_horizontal_merges() {
    let rtf = br"{\rtf1\ansi
\trowd\clvmgf\cellx1000\clmgf\cellx2000\clmrg\cellx3000
\pard\intbl A\cell B\cell \cell\row
\trowd\clvmrg\cellx1000\cellx2000\cellx3000
\pard\intbl \cell D\cell E\cell\row
\trowd\cellx1000\cellx2000\cellx3000
\pard\intbl G\cell H\cell I\cell\row
\pard after\par}";
    let d = read(rtf);
    let t = tables(&d.body)[0];
    assert_eq!(t.rows.len(), 3);
    let r0 = &t.rows[0].cells;
    assert_eq!(r0.len(), 2);
    assert_eq!((cell_text(&r0[0]).as_str(), r0[0].row_span), ("A", 2));
    assert_eq!((cell_text(&r0[1]).as_str(), r0[1].col_span), ("B", 2));
    let r1: Vec<String> = t.rows[1].cells.iter().map(cell_text).collect();
    assert_eq!(r1, vec!["D", "E"], "the covered cell is omitted");
    assert_eq!(t.rows[2].cells.len(), 3);
    let out = convert(rtf);
    assert!(
        chunks_text(&out).contains("rowspan=\"2\""),
        "{}",
        chunks_text(&out)
    );
}

#[test]
fn wide_cells_span_grid_columns_and_header_rows() {
    let rtf = br"{\rtf1
\trowd\trhdr\cellx4000\cellx6000\pard\intbl Wide\cell Right\cell\row
\trowd\cellx2000\cellx4000\cellx6000\pard\intbl a\cell b\cell c\cell\row}";
    let d = read(rtf);
    let t = tables(&d.body)[0];
    assert!(t.rows[0].header);
    assert!(!t.rows[1].header);
    assert_eq!(t.rows[0].cells[0].col_span, 2);
    assert_eq!(t.rows[0].cells[1].col_span, 1);
}

#[test]
fn revisions_with_author_table() {
    let rtf = br"{\rtf1{\*\revtbl{Unknown;}{Jane Roe;}{John Doe;}}
\pard Keep {\revised\revauth1\revdttm126192222 new words}{\deleted\revauthdel2 old words} end.\par}";
    let d = read(rtf);
    let ins = find_in_body(&d, &|i| {
        matches!(
            i,
            Inline::Revision {
                kind: RevisionKind::Insertion,
                ..
            }
        )
    });
    match ins {
        Some(Inline::Revision {
            author,
            date,
            children,
            ..
        }) => {
            assert_eq!(author.as_deref(), Some("Jane Roe"));
            assert_eq!(date.as_deref(), Some("2020-05-17T09:30"));
            assert!(matches!(&children[0], Inline::Text { text, .. } if text == "new words"));
        }
        other => panic!("{other:?}"),
    }
    let del = find_in_body(&d, &|i| {
        matches!(
            i,
            Inline::Revision {
                kind: RevisionKind::Deletion,
                ..
            }
        )
    });
    assert!(matches!(del, Some(Inline::Revision { author: Some(a), .. }) if a == "John Doe"));
    let out = convert(rtf);
    let authors = out.chunks[0]
        .metadata
        .get_str("revisionAuthors")
        .unwrap_or("");
    assert!(
        authors.contains("Jane Roe") && authors.contains("John Doe"),
        "{authors}"
    );
}

#[test]
fn unicode_fallback_skipping() {
    // \uc2 with two \'hh bytes, \uc0, \uc restored when the group ends, a negative
    // \u, a surrogate pair, and fallback text after a \u.
    let rtf = br"{\rtf1\ansi\ansicpg1252 {\uc2\u12354\'82\'a0x}\u233?y {\uc0\u8364 z}\u-3913?\u-10179?\u-8694?!\u8220\'93q\par}";
    let d = read(rtf);
    assert_eq!(
        d.body_text().trim(),
        "\u{3042}x\u{e9}y \u{20ac}z\u{f0b7}\u{1f60a}!\u{201c}q"
    );
}

#[test]
fn code_pages_and_double_byte() {
    let rtf = br"{\rtf1\ansi\ansicpg932 \'82\'a0\'83\'5d and {\f1 \'e9}\par}";
    let d = read(rtf);
    assert!(
        d.body_text().starts_with("\u{3042}ゾ and "),
        "{}",
        d.body_text()
    );
    let rtf = br"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}{\f1\fcharset204 Cyr;}}\f0 caf\'e9 {\f1 \'cf\'f0\'e8}\par}";
    assert_eq!(read(rtf).body_text().trim(), "café При");
}

#[test]
fn bin_data_is_skipped() {
    let mut rtf =
        b"{\\rtf1 before {\\pict\\bin6 }}{{{\\'zz} after {\\object\\bin4 }\\}}x}\\par".to_vec();
    rtf.extend_from_slice(b" tail\\bin3 ab");
    let d = read(&rtf);
    let t = d.body_text();
    assert!(t.contains("before"), "{t}");
    assert!(!t.contains("zz"), "{t}");
    // A \bin beyond the input is clamped: the reader ends, keeping what it read.
    assert!(t.contains("tail"), "{t}");
    let huge = b"{\\rtf1 text \\bin999999999999 xyz}";
    assert!(read(huge).body_text().contains("text"));
}

#[test]
fn page_and_section_breaks() {
    let rtf = br"{\rtf1 First page.\par\page Second page.\par\sect\sectd\sbknone Same page.\par\sect Next page.\par}";
    let d = read(rtf);
    let kinds: Vec<String> = d
        .body
        .iter()
        .map(|b| match b {
            Block::Paragraph(_) => "p".to_string(),
            Block::PageBreak => "page".to_string(),
            Block::SectionBreak { new_page } => format!("sect:{new_page}"),
            _ => "other".to_string(),
        })
        .collect();
    assert_eq!(
        kinds,
        vec!["p", "page", "p", "sect:false", "p", "sect:false", "p"],
        "\\sbknone stays in force until the next \\sectd"
    );
    let rtf = br"{\rtf1 One\par\sect Two\par}";
    assert!(matches!(
        read(rtf).body[1],
        Block::SectionBreak { new_page: true }
    ));
    let out = convert(br"{\rtf1 First page.\par\page Second page.\par}");
    let second = out
        .chunks
        .iter()
        .find(|c| c.text.contains("Second page."))
        .expect("chunk");
    assert_eq!(
        second.metadata.get_int("lastPage"),
        Some(2),
        "{:?}",
        out.chunks
    );
    // A \page inside a paragraph stays inline.
    let d = read(br"{\rtf1 a\page b\par}");
    assert!(find_in_body(&d, &|i| matches!(i, Inline::PageBreak)).is_some());
}

#[test]
fn truncated_input_keeps_text() {
    let d = read(br"{\rtf1\ansi Hello {\b world {\footnote note");
    assert!(d.body_text().contains("Hello world"), "{}", d.body_text());
    assert!(codes(&d).contains(&"truncated"));
    assert_eq!(d.notes.len(), 1);
    let d = read(br"{\rtf1 x{\*\themedata 0102");
    assert!(d.body_text().contains('x'));
    assert!(codes(&d).contains(&"truncated"));
}

#[test]
fn deep_nesting_is_flattened() {
    let n = 100_000;
    let mut rtf = b"{\\rtf1 top ".to_vec();
    rtf.extend(std::iter::repeat_n(b'{', n));
    rtf.extend_from_slice(b"deep");
    rtf.extend(std::iter::repeat_n(b'}', n));
    rtf.extend_from_slice(b" back\\par}");
    let d = read(&rtf);
    assert_eq!(d.body_text().trim(), "top deep back");
    assert!(codes(&d).contains(&"deep-nesting"));
    // Unclosed, and inside a skipped destination.
    let mut rtf = b"{\\rtf1 a{\\*\\foo ".to_vec();
    rtf.extend(std::iter::repeat_n(b'{', n));
    let d = read(&rtf);
    assert_eq!(d.body_text().trim(), "a");
    let mut rtf = b"{\\rtf1 b".to_vec();
    rtf.extend(std::iter::repeat_n(b'{', n));
    assert!(read(&rtf).body_text().contains('b'));
    assert!(convert(&rtf).chunks.len() == 1);
}

#[test]
fn unbalanced_braces_and_garbage() {
    let d = read(br"{\rtf1 a}}} b\par}");
    assert_eq!(
        d.body_text().split_whitespace().collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert!(codes(&d).contains(&"unbalanced-braces"));
    let mut garbage = b"{\\rtf1 ".to_vec();
    garbage.extend((0..=255u8).cycle().take(70_000));
    garbage.extend_from_slice(b"\\fs99999999999999999999 \\u99999999999 \\uc-5 \\'");
    let d = read(&garbage);
    assert!(!d.body_text().contains('\0'));
    let d = read(b"{\\rtf1 a\0b\\par}");
    assert_eq!(d.body_text().trim(), "ab");
    let d = read(b"plain words");
    assert_eq!(d.body_text().trim(), "plain words");
    assert!(codes(&d).contains(&"not-rtf"));
}

#[test]
fn special_characters_and_hidden_text() {
    let rtf = br"{\rtf1 a\~b\-c\_d\emdash\endash\bullet\lquote\rquote\ldblquote\rdblquote{\v hidden}\tab e\line f\par}";
    let d = read(rtf);
    assert_eq!(
        d.body_text(),
        "a\u{a0}bc\u{2011}d\u{2014}\u{2013}\u{2022}\u{2018}\u{2019}\u{201c}\u{201d}\te\nf\n"
    );
}

#[test]
fn formatting_toggles() {
    let d = read(br"{\rtf1 {\b\i bi\b0 i\i0 n}{\ul u\ulnone n}{\ul0 n}{\strike s}{\super p\nosupersub n}{\sub b}\par}");
    let Block::Paragraph(p) = &d.body[0] else {
        panic!("paragraph");
    };
    let runs: Vec<(String, bool, bool, bool, bool, bool, bool)> = p
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::Text { text, style } => Some((
                text.clone(),
                style.bold,
                style.italic,
                style.underline,
                style.strike,
                style.superscript,
                style.subscript,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        runs[0],
        ("bi".into(), true, true, false, false, false, false)
    );
    assert_eq!(
        runs[1],
        ("i".into(), false, true, false, false, false, false)
    );
    assert_eq!(runs[2].0, "n");
    assert!(runs.iter().any(|r| r.0 == "u" && r.3));
    assert!(runs.iter().any(|r| r.0 == "s" && r.4));
    assert!(runs.iter().any(|r| r.0 == "p" && r.5));
    assert!(runs.iter().any(|r| r.0 == "b" && r.6));
    assert!(
        runs.iter()
            .filter(|r| r.0.contains('n'))
            .all(|r| !r.1 && !r.3 && !r.5)
    );
}

#[test]
fn headings_styles_info_and_stories() {
    let rtf = br#"{\rtf1{\stylesheet{\s0 Normal;}{\s1\sbasedon0 heading 1;}{\s2\outlinelevel1 Custom;}{\s3 Title;}}
{\info{\title The Title}{\author Ann}{\keywords k1 k2}{\doccomm About}{\creatim\yr2020\mo2\dy3\hr4\min5}}
{\headerf \pard First header\par}{\footerl \pard Even footer\par}
\pard\s3 Doc title\par\pard\s1 Chapter\par\pard\s2 Section\par\pard\outlinelevel2 Direct\par
\pard Body{\footnote\ftnalt \pard An endnote.}{\*\atnid X}{\*\atnauthor Bo}\chatn{\*\annotation \pard Note text}.\par
{\field{\*\fldinst HYPERLINK \\l "anchor"}{\fldrslt inner}}{\field{\*\fldinst PAGE}{\fldrslt 7}}\par}"#;
    let d = read(rtf);
    let p = paragraphs(&d);
    assert_eq!(p[0], (ParagraphKind::Title, "Doc title".into()));
    assert_eq!(p[1], (ParagraphKind::Heading(1), "Chapter".into()));
    assert_eq!(p[2], (ParagraphKind::Heading(2), "Section".into()));
    assert_eq!(p[3], (ParagraphKind::Heading(3), "Direct".into()));
    let props = &d.properties;
    assert_eq!(props.title.as_deref(), Some("The Title"));
    assert_eq!(props.author.as_deref(), Some("Ann"));
    assert_eq!(props.keywords.as_deref(), Some("k1 k2"));
    assert_eq!(props.description.as_deref(), Some("About"));
    assert_eq!(props.created.as_deref(), Some("2020-02-03T04:05"));
    assert_eq!(d.parts[0].variant, PartVariant::First);
    assert_eq!(
        (d.parts[1].kind, d.parts[1].variant),
        (PartKind::Footer, PartVariant::Even)
    );
    assert_eq!(d.notes[0].kind, NoteKind::Endnote);
    assert_eq!(d.comments[0].author.as_deref(), Some("Bo"));
    assert_eq!(d.comments[0].text, "Note text");
    let id = d.comments[0].id.clone();
    assert!(find_in_body(&d, &|i| matches!(i, Inline::CommentAnchor { id: a, mark: AnchorMark::Reference } if *a == id)).is_some());
    assert!(
        find_in_body(
            &d,
            &|i| matches!(i, Inline::Link { target, .. } if target == "#anchor")
        )
        .is_some()
    );
    assert!(
        find_in_body(
            &d,
            &|i| matches!(i, Inline::Field { code, .. } if code == "PAGE")
        )
        .is_some()
    );
    assert_eq!(convert(rtf).title, "The Title");
}

#[test]
fn legacy_pn_lists_and_ls_without_tables() {
    let rtf = br"{\rtf1{\pntext 1.\tab}{\*\pn\pnlvlbody\pndec}First\par{\pntext \'b7\tab}{\*\pn\pnlvlblt}Dot\par\pard{\listtext a)\tab}\ls9\ilvl1 Lettered\par}";
    let d = read(rtf);
    let p = paragraphs(&d);
    assert!(matches!(
        p[0].0,
        ParagraphKind::ListItem { ordered: true, .. }
    ));
    assert!(matches!(
        p[1].0,
        ParagraphKind::ListItem { ordered: false, .. }
    ));
    assert!(matches!(
        p[2].0,
        ParagraphKind::ListItem {
            ordered: true,
            level: 1,
            ..
        }
    ));
    assert_eq!(p[0].1, "First");
}

#[test]
fn adversarial_repetitions_stay_linear() {
    // Each pattern repeated to about 0.3-2 MB; quadratic handling would take minutes.
    fn repeat(head: &[u8], unit: &[u8], n: usize) -> Vec<u8> {
        let mut v = head.to_vec();
        for _ in 0..n {
            v.extend_from_slice(unit);
        }
        v.push(b'}');
        v
    }
    let mut wide_row = b"{\\rtf1\\trowd".to_vec();
    for i in 0..1000 {
        wide_row.extend_from_slice(format!("\\cellx{}", (i + 1) * 10).as_bytes());
    }
    let cases: Vec<Vec<u8>> = vec![
        repeat(&wide_row, b"\\pard\\intbl x\\cell\\row ", 60_000),
        repeat(b"{\\rtf1 ", b"\\tab\\page", 100_000),
        repeat(
            b"{\\rtf1 {\\field{\\*\\fldinst HYPERLINK x}{\\fldrslt {\\field{\\*\\fldinst PAGE}{\\fldrslt ",
            b"a\\par ",
            80_000,
        ),
        repeat(b"{\\rtf1 ", b"\\itap60\\intbl a\\par\\itap0 b\\par ", 10_000),
        repeat(b"{\\rtf1 ", b"{\\revised\\revauth1 a}{\\deleted b}", 60_000),
        repeat(b"{\\rtf1 ", b"\\u12354\\'82\\'a0", 80_000),
    ];
    for rtf in cases {
        let d = read(&rtf);
        assert!(!d.body.is_empty());
    }
}
