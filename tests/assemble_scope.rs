//! Context assembly (docrag::query::assemble) choosing where to read: a section the
//! question names by its heading, documents in a language it names, a document it
//! names by file name. Corpus files at the
//! default chunk size, with the pandoc manual as a large neighbour.

mod common;
use common::add_corpus_doc;

use docrag::query::{Collection, QueryOptions, QueryResult, Replies, ask};
use docrag::{ConvertOptions, convert};

fn collection(files: &[&str]) -> Collection {
    let mut c = Collection::new();
    for f in files {
        add_corpus_doc(&mut c, f, 1024);
    }
    c
}

/// The document data of the context (the cached prefix after its instructions).
fn run(c: &Collection, q: &str) -> (String, QueryResult) {
    let r = ask(c, q, &[], &Replies::default(), &QueryOptions::new()).unwrap();
    let prefix = r.payload.cached_prefix();
    let data = prefix
        .split_once("<<<BEGIN DOCUMENT DATA>>>\n")
        .map_or(prefix, |x| x.1)
        .to_string();
    (data, r)
}

fn titles(c: &Collection, r: &QueryResult) -> Vec<String> {
    let mut t: Vec<String> = r
        .sources
        .iter()
        .map(|s| c.documents()[c.position(&s.doc_id).unwrap()].title.clone())
        .collect();
    t.sort();
    t.dedup();
    t
}

#[test]
fn a_section_named_by_its_heading_comes_whole() {
    let c = collection(&["pandoc__MANUAL.txt", "es6tutorial__proxy.md"]);
    // No "section" in the question: the heading "Running pandoc as a web server"
    // is named by most of its weight.
    let (ctx, _) = run(&c, "How does running pandoc as a web server work?");
    for part in [
        "# Running pandoc as a web server",
        "it will function as a CGI program exposing the same API",
        "uses Haskell's type system to provide strong guarantees",
    ] {
        assert!(ctx.contains(part), "{part} missing:\n{ctx}");
    }
}

#[test]
fn a_code_block_with_blank_lines_stays_whole_in_an_excerpt() {
    let c = collection(&["pandoc__MANUAL.txt", "es6tutorial__proxy.md"]);
    let (ctx, _) = run(
        &c,
        "What does the Proxy chapter say about the this problem (this 问题)?",
    );
    // Every fence that opens in the context closes in it.
    let fences = ctx.lines().filter(|l| l.starts_with("```")).count();
    assert!(fences > 0, "{ctx}");
    assert_eq!(fences % 2, 0, "an excerpt cut a code block:\n{ctx}");
}

#[test]
fn a_language_the_question_names_narrows_the_documents() {
    let c = collection(&[
        "pandoc__MANUAL.txt",
        "tika__testHTMLNoisyMetaEncoding_1.html",
        "tika__testArabicMisleadingCharset.html",
        "readability__hukumusume.html",
        "docx4j__Docx4j_GettingStarted.docx",
    ]);
    let lang = |t: &str| {
        let d = c.documents().iter().find(|d| d.title == t).unwrap();
        d.language
    };
    assert_eq!(lang("Test Arabic"), Some("ara"));
    assert_eq!(lang("Pandoc User's Guide"), Some("eng"));
    // The file names and titles say nothing of Arabic; detection does.
    let (_, r) = run(&c, "What are the Arabic pages about?");
    assert!(
        r.accounting.reason.contains("names a language"),
        "{}",
        r.accounting.reason
    );
    assert_eq!(
        titles(&c, &r),
        vec!["Test Arabic", "tika__testHTMLNoisyMetaEncoding_1"]
    );
    // A language named in passing, not as the documents', narrows nothing.
    let (_, r) = run(&c, "Which Arabic numerals does the pandoc manual mention?");
    assert!(
        !r.accounting.reason.contains("names a language"),
        "{}",
        r.accounting.reason
    );
    // English is the language of most documents: it tells none apart.
    let mut c = c;
    for f in ["poi__bug57031.docx", "pandoc__release-announcements.txt"] {
        add_corpus_doc(&mut c, f, 1024);
    }
    let english = c.documents().iter().filter(|d| d.language == Some("eng"));
    assert!(english.count() * 2 > c.documents().len());
    let (_, r) = run(&c, "Which English options control the table of contents?");
    assert!(
        !r.accounting.reason.contains("names a language"),
        "{}",
        r.accounting.reason
    );
}

#[test]
fn a_question_names_a_document_by_its_file_name() {
    let c = collection(&[
        "pandoc__MANUAL.txt",
        "pandoc__list_complex.rtf",
        "pandoc__heading.rtf",
        "docx4j__Docx4j_GettingStarted.docx",
    ]);
    let listed = &c.documents()[1];
    assert_eq!(listed.title, "Text before list");
    assert_eq!(listed.file_name, "pandoc__list_complex.rtf");
    let (ctx, r) = run(&c, "How deep does the nesting go in list_complex.rtf?");
    assert!(
        titles(&c, &r).contains(&"Text before list".to_string()),
        "{ctx}"
    );
    assert!(ctx.contains("Eleven"), "{ctx}");
}

#[test]
fn a_symbol_finds_its_row_and_an_unlabelled_row_brings_its_neighbours() {
    let mut c = collection(&["pandoc__MANUAL.txt"]);
    // Rows of Latin-1 glyphs with no label of their own, each above the row of their
    // codes (U+00A2 on, four a row).
    let mut md = String::from("| | -0 | -1 | -2 | -3 |\n|---|---|---|---|---|\n");
    for n in 0..23u32 {
        let cells: Vec<String> = (0..4)
            .map(|k| char::from_u32(0xA2 + 4 * n + k).unwrap().to_string())
            .collect();
        md.push_str(&format!("| | {} |\n", cells.join(" | ")));
        let codes: Vec<String> = (0..4).map(|k| (0xA2 + 4 * n + k).to_string()).collect();
        md.push_str(&format!("| R{n} | {} |\n", codes.join(" | ")));
    }
    md.push_str("\nThe glyph chart lists Latin-1 signs.\n");
    let o = ConvertOptions::new().with_file_name("latin1.md");
    c.add(convert(md.as_bytes(), &o).unwrap()).unwrap();
    let small = QueryOptions::new().with_token_budget(300).unwrap();
    let r = ask(
        &c,
        "Which decimal code does the glyph chart give for ÷?",
        &[],
        &Replies::default(),
        &small,
    )
    .unwrap();
    let ctx = r.payload.cached_prefix();
    // The glyph row (found by its symbol, which word segmentation drops), the
    // header, and the codes below it.
    assert!(ctx.contains("|  | ö | ÷ | ø | ù |"), "{ctx}");
    assert!(ctx.contains("| R21 | 246 | 247 | 248 | 249 |"), "{ctx}");
    assert!(ctx.contains("| -0 | -1 | -2 | -3 |"), "{ctx}");
    // An excerpt of the 700-token chart: rows far from the glyph's are left out.
    assert!(!ctx.contains("| R14 |"), "{ctx}");
}

#[test]
fn an_identifier_a_question_writes_names_the_one_file_spelled_so() {
    // "timetableWinter" is written as file names are (a lower-to-upper case change
    // inside a word) and names one file: a summary of it reads that file, not the
    // neighbours that share its words.
    let mut c = Collection::new();
    // Two chunks: what the question's words do not reach is in the second.
    let mut winter =
        String::from("# Winter sailings\n\nThe winter boats leave at eight and at four.\n\n");
    for i in 0..900 {
        winter.push_str(&format!("Boat {i} carries {} passengers.\n\n", 20 + i % 9));
    }
    winter.push_str("Bicycles ride free in January.\n");
    let summer = "# Summer sailings\n\nThe summer boats leave every hour from seven.\n";
    let mut log = String::from("# Harbour log\n\n");
    for i in 0..600 {
        log.push_str(&format!(
            "Crossing {i} of the winter timetable left the quay with {} cars and {} bicycles.\n\n",
            i % 17,
            i % 5
        ));
    }
    common::add_doc(&mut c, "ferry__timetableWinter.md", winter.as_bytes(), 1024);
    common::add_doc(&mut c, "ferry__timetableSummer.md", summer.as_bytes(), 1024);
    common::add_doc(&mut c, "harbour_log.md", log.as_bytes(), 1024);
    for k in 0..6 {
        let mut n = format!("# Notice {k}\n\n");
        for i in 0..200 {
            n.push_str(&format!(
                "Notice {k}.{i} says the winter timetable changes on day {i}.\n\n"
            ));
        }
        common::add_doc(&mut c, &format!("notice_{k}.md"), n.as_bytes(), 1024);
    }
    let (ctx, r) = run(
        &c,
        "Summarize what the winter timetable (timetableWinter) says.",
    );
    assert!(c.documents()[0].chunks.len() > 1);
    assert_eq!(titles(&c, &r), ["Winter sailings"], "{ctx}");
    assert!(ctx.contains("Bicycles ride free"), "{ctx}");
}

#[test]
fn a_broad_question_reads_the_documents_it_names_before_others() {
    // "Summarize the winter sailings" is about that document: its passages come
    // before those of notices that match the question's other words as well.
    let mut c = Collection::new();
    let mut winter = String::from("# Winter sailings\n\n");
    for i in 0..400 {
        winter.push_str(&format!(
            "Boat {i} of the sound carries {} passengers in the cold months.\n\n",
            20 + i % 9
        ));
    }
    common::add_doc(&mut c, "sailings.md", winter.as_bytes(), 512);
    for k in 0..6 {
        let mut n = format!("# Notice {k}\n\n");
        for i in 0..200 {
            n.push_str(&format!(
                "Notice {k}.{i}: boats of the sound carry passengers on day {i}.\n\n"
            ));
        }
        common::add_doc(&mut c, &format!("notice_{k}.md"), n.as_bytes(), 512);
    }
    let (ctx, r) = run(
        &c,
        "Summarize what the winter sailings say about boats and passengers.",
    );
    let winter_sources = r
        .sources
        .iter()
        .filter(|s| c.documents()[c.position(&s.doc_id).unwrap()].title == "Winter sailings")
        .count();
    assert!(
        winter_sources * 2 > r.sources.len(),
        "{winter_sources} of {}\n{ctx}",
        r.sources.len()
    );
}
