//! The page estimate (issue 19): files without Word's saved layout get estimated pages,
//! files with it keep Word's, and every chunk says where its pages came from.

mod common;

use std::io::{Cursor, Read, Write};

use common::corpus;
use docrag::{Conversion, ConvertOptions, PageMode, convert};

const GUIDE: &str = "docx4j__Docx4j_GettingStarted.docx";

fn run(bytes: &[u8], name: &str, mode: PageMode) -> Conversion {
    let o = ConvertOptions::new().with_file_name(name).with_pages(mode);
    convert(bytes, &o).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The last page of the body (the largest `lastPage` of a body chunk).
fn pages(c: &Conversion) -> i64 {
    c.chunks
        .iter()
        .filter(|c| c.metadata.get_str("chunkKind") == Some("body"))
        .filter_map(|c| c.metadata.get_int("lastPage"))
        .max()
        .unwrap_or(0)
}

fn sources(c: &Conversion) -> Vec<&str> {
    c.chunks
        .iter()
        .map(|c| {
            c.metadata
                .get_str("pageSource")
                .expect("pageSource on every chunk")
        })
        .collect()
}

/// `bytes` with part `name` rewritten by `edit`.
fn with_part(bytes: &[u8], name: &str, edit: impl Fn(String) -> String) -> Vec<u8> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let member = f.name().unwrap().to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if member == name {
            data = edit(String::from_utf8(data).unwrap()).into_bytes();
        }
        out.start_file(member, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(&data).unwrap();
    }
    out.finish().unwrap().into_inner()
}

#[test]
fn the_docx4j_guide_gets_about_the_46_pages_word_gives_it() {
    let bytes = corpus(GUIDE);
    // Word's count for it (docProps/app.xml); the file has no rendered page breaks.
    let c = run(&bytes, GUIDE, PageMode::Auto);
    let n = pages(&c);
    assert!((42..=50).contains(&n), "{n} pages, Word 46");
    // Without the estimate it has the 3 pages its explicit breaks make.
    assert_eq!(pages(&run(&bytes, GUIDE, PageMode::Saved)), 3);
    let s = sources(&c);
    assert!(s.iter().all(|s| matches!(*s, "explicit" | "estimated")));
    let last = c
        .chunks
        .iter()
        .rfind(|c| c.metadata.get_str("chunkKind") == Some("body"))
        .unwrap();
    assert_eq!(last.metadata.get_str("pageSource"), Some("estimated"));
    let line = last.text.lines().next().unwrap();
    assert!(line.contains(": ~"), "{line}");
    // The first chunk starts on page 1, which is never an estimate.
    assert_eq!(c.chunks[0].metadata.get_int("firstPage"), Some(1));
}

#[test]
fn page_size_margins_spacing_and_font_size_move_the_estimate_the_expected_way() {
    let bytes = corpus(GUIDE);
    let base = pages(&run(&bytes, GUIDE, PageMode::Auto));
    let doc = "word/document.xml";
    let narrow = with_part(&bytes, doc, |x| {
        x.replace(
            r#"w:top="1440" w:right="1440" w:bottom="1440" w:left="1440""#,
            r#"w:top="720" w:right="720" w:bottom="720" w:left="720""#,
        )
    });
    let a5 = with_part(&bytes, doc, |x| {
        x.replace(
            r#"<w:pgSz w:w="12240" w:h="15840"/>"#,
            r#"<w:pgSz w:w="8391" w:h="11906"/>"#,
        )
    });
    let styles = "word/styles.xml";
    let tight = with_part(&bytes, styles, |x| {
        x.replace(
            r#"<w:spacing w:after="200" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault>"#,
            r#"<w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:pPrDefault>"#,
        )
    });
    let large = with_part(&bytes, styles, |x| {
        x.replacen(r#"<w:sz w:val="22"/>"#, r#"<w:sz w:val="32"/>"#, 1)
    });
    for (what, b) in [
        ("margins", &narrow),
        ("page", &a5),
        ("spacing", &tight),
        ("font", &large),
    ] {
        assert_ne!(b, &bytes, "{what}: the edit must change the file");
    }
    let n = |b: &[u8]| pages(&run(b, GUIDE, PageMode::Auto));
    assert!(
        n(&narrow) < base,
        "half-inch margins {} vs {base}",
        n(&narrow)
    );
    assert!(n(&a5) > base, "A5 {} vs {base}", n(&a5));
    assert!(
        n(&tight) < base,
        "no paragraph spacing {} vs {base}",
        n(&tight)
    );
    assert!(n(&large) > base, "16 pt text {} vs {base}", n(&large));
}

#[test]
fn word_s_rendered_breaks_win_over_the_estimate() {
    for name in [
        "poi__bug57031.docx",
        "powertools__RP052-Deleted-Para-Mark.docx",
    ] {
        let bytes = corpus(name);
        let auto = run(&bytes, name, PageMode::Auto);
        let saved = run(&bytes, name, PageMode::Saved);
        let firsts = |c: &Conversion| {
            c.chunks
                .iter()
                .map(|c| {
                    (
                        c.metadata.get_int("firstPage"),
                        c.metadata.get_int("lastPage"),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(firsts(&auto), firsts(&saved), "{name}");
        assert!(sources(&auto).iter().all(|s| *s == "rendered"), "{name}");
    }
    // Ignoring the saved layout (12 pages), the estimate takes over.
    let name = "poi__bug57031.docx";
    let est = run(&corpus(name), name, PageMode::Estimate);
    assert!(sources(&est).contains(&"estimated"));
    assert!((10..=14).contains(&pages(&est)), "{}", pages(&est));
}

#[test]
fn sections_after_word_s_layout_stops_are_estimated_and_only_those() {
    // Word's rendered breaks stop in the later sections of this file.
    let name = "poi__bug65649.docx";
    let c = run(&corpus(name), name, PageMode::Auto);
    let body: Vec<(i64, &str)> = c
        .chunks
        .iter()
        .filter(|c| c.metadata.get_str("chunkKind") == Some("body"))
        .map(|c| {
            (
                c.metadata.get_int("lastPage").unwrap(),
                c.metadata.get_str("pageSource").unwrap(),
            )
        })
        .collect();
    let first_estimated = body.iter().position(|(_, s)| *s == "estimated").unwrap();
    assert!(first_estimated > 0);
    assert!(
        body[..first_estimated]
            .iter()
            .all(|(_, s)| *s == "rendered")
    );
    assert!(
        body[first_estimated..]
            .iter()
            .all(|(_, s)| *s == "estimated")
    );
}

#[test]
fn formats_without_pages_get_no_invented_ones() {
    for name in [
        "pandoc__html-reader.html",
        "es6tutorial__proxy.md",
        "pandoc__MANUAL.txt",
    ] {
        let c = run(&corpus(name), name, PageMode::Auto);
        assert!(c.chunks.len() > 5, "{name}");
        assert_eq!(pages(&c), 1, "{name}");
        assert!(sources(&c).iter().all(|s| *s == "explicit"), "{name}");
    }
}

/// An RTF document of `paragraphs` (corpus text) with `header` words after the font
/// table and `para` words at the start of each paragraph.
fn rtf(paragraphs: &[String], header: &str, para: &str) -> Vec<u8> {
    let mut s = format!("{{\\rtf1\\ansi\\deff0{{\\fonttbl{{\\f0 Times New Roman;}}}}{header}\n");
    for p in paragraphs {
        s.push_str(&format!("\\pard\\plain{para} {}\\par\n", escape(p)));
    }
    s.push('}');
    s.into_bytes()
}

/// `text` as RTF text: `\`, `{`, `}` escaped, non-ASCII as `\uN?`.
fn escape(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        match c {
            '\\' | '{' | '}' => s.push_str(&format!("\\{c}")),
            c if c.is_ascii() => s.push(c),
            c => s.push_str(&format!("\\u{}?", c as u32 as i16)),
        }
    }
    s
}

/// The first 150 paragraphs of pandoc's manual, one line each.
fn manual_paragraphs() -> Vec<String> {
    String::from_utf8(corpus("pandoc__MANUAL.txt"))
        .unwrap()
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .take(150)
        .collect()
}

#[test]
fn rtf_gets_the_page_count_word_saved_for_it() {
    let name = "tika__testRTFVarious.rtf";
    let bytes = corpus(name);
    // Word's own count, from the file's \info group.
    let text = String::from_utf8_lossy(&bytes);
    let at = text.find("\\nofpages").expect("the file has \\nofpages") + 9;
    let word: i64 = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    assert_eq!(word, 2);
    let c = run(&bytes, name, PageMode::Auto);
    assert_eq!(pages(&c), word);
    let s = sources(&c);
    assert!(s.contains(&"estimated") && s.contains(&"explicit"), "{s:?}");
    let saved = run(&bytes, name, PageMode::Saved);
    assert_eq!(pages(&saved), 1);
    assert!(sources(&saved).iter().all(|s| *s == "explicit"));
}

#[test]
fn rtf_page_size_margins_spacing_and_font_size_move_the_estimate_the_expected_way() {
    let paras = manual_paragraphs();
    let count = |header: &str, para: &str| {
        pages(&run(
            &rtf(&paras, header, para),
            "manual.rtf",
            PageMode::Auto,
        ))
    };
    let base = count("", "");
    assert!((8..=30).contains(&base), "{base} pages at RTF's defaults");
    let a5 = count("\\paperw8390\\paperh11905", "");
    let wide_margins = count("\\margl3600\\margr3600\\margt2880\\margb2880", "");
    let narrow_margins = count("\\margl720\\margr720\\margt720\\margb720", "");
    let big_font = count("", "\\fs32");
    let small_font = count("", "\\fs18");
    let double = count("", "\\sl480\\slmult1");
    let spaced = count("", "\\sb240\\sa240");
    let indented = count("", "\\li2880\\ri1440");
    // Section words override the document's, and \sectd returns to them.
    let section_a5 = count("\\sectd\\pgwsxn8390\\pghsxn11905", "");
    let reset = count("\\pgwsxn8390\\pghsxn11905\\sectd", "");
    assert!(a5 > base, "A5 {a5} vs Letter {base}");
    assert!(
        wide_margins > base && narrow_margins < base,
        "{wide_margins} {base} {narrow_margins}"
    );
    assert!(
        big_font > base && small_font < base,
        "{big_font} {base} {small_font}"
    );
    assert!(double > base * 3 / 2, "double spacing {double} vs {base}");
    assert!(
        spaced > base && indented > base,
        "{spaced} {indented} vs {base}"
    );
    assert_eq!((section_a5, reset), (a5, base));
    // An explicit break is kept: with the estimate off it is the only page start.
    let mut broken = paras.clone();
    broken[3].push_str(" PAGEBREAK");
    let broken = String::from_utf8(rtf(&broken, "", ""))
        .unwrap()
        .replace(" PAGEBREAK", "\\page ")
        .into_bytes();
    let saved = run(&broken, "manual.rtf", PageMode::Saved);
    assert_eq!(pages(&saved), 2);
    assert!(pages(&run(&broken, "manual.rtf", PageMode::Auto)) >= base);
}

#[test]
fn a_header_row_taller_than_a_page_is_not_repeated_on_every_page() {
    let paras = manual_paragraphs();
    let long: String = paras.iter().take(60).cloned().collect::<Vec<_>>().join(" ");
    let table = |header: bool| {
        let mut s = String::from("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}\n");
        let hdr = if header { "\\trhdr" } else { "" };
        s.push_str(&format!(
            "\\trowd{hdr}\\cellx9000\\pard\\intbl {}\\cell\\row\n",
            escape(&long)
        ));
        for p in paras.iter().skip(60).take(200) {
            s.push_str(&format!(
                "\\trowd\\cellx9000\\pard\\intbl {}\\cell\\row\n",
                escape(&p.chars().take(40).collect::<String>())
            ));
        }
        s.push_str("\\pard after\\par}");
        pages(&run(s.as_bytes(), "table.rtf", PageMode::Auto))
    };
    let (plain, headed) = (table(false), table(true));
    assert!(plain > 3, "{plain} pages");
    assert_eq!(headed, plain);
}

#[test]
fn rtf_table_rows_are_measured_at_their_cell_widths_and_font_sizes() {
    let paras = manual_paragraphs();
    let count = |cellx: u32, fs: u32| {
        let mut s = String::from("{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}\n");
        for p in paras.iter().take(120) {
            s.push_str(&format!(
                "\\trowd\\cellx{cellx}\\pard\\intbl\\plain\\fs{fs} {}\\cell\\row\n",
                escape(p)
            ));
        }
        s.push_str("\\pard\\plain after\\par}");
        pages(&run(s.as_bytes(), "table.rtf", PageMode::Auto))
    };
    let base = count(8_640, 24);
    assert!(base > 3, "{base} pages");
    assert!(count(2_880, 24) > base * 2, "a third of the width");
    assert!(count(8_640, 48) > base * 2, "twice the font size");
    assert!(count(8_640, 16) < base, "a smaller font");
}
