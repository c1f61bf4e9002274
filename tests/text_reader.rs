//! Integration tests of the plain-text reader: every text file of the shared corpus
//! (by its MANIFEST format), encodings, page breaks and bad input.

use docrag::model::*;
use docrag::read::text;
use docrag::{ConvertError, ConvertOptions};

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/../shared/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_bytes(bytes: &[u8]) -> Document {
    text::read(bytes, &ConvertOptions::default()).unwrap()
}

/// Paragraph texts, line breaks as `\n`, page breaks as `<PAGE>`.
fn paras(d: &Document) -> Vec<String> {
    d.body
        .iter()
        .map(|b| match b {
            Block::PageBreak => "<PAGE>".to_string(),
            b => {
                let mut s = String::new();
                b.plain_text(&mut s);
                s.trim_end().to_string()
            }
        })
        .collect()
}

#[test]
fn windows_1252_smart_quotes() {
    // Bytes 0x93 and 0x94 around "windows": curly quotes in windows-1252.
    let d = read_bytes(&corpus("tika__testTXT_win-1252.txt"));
    assert_eq!(
        paras(&d),
        [
            "These smart quotes are the trigger for CharsetRecog_sbcs to think this is a \u{201C}windows\u{201D} encoding"
        ]
    );
    let w = &d.warnings[0];
    assert_eq!(w.code, "guessed-encoding");
    assert!(w.message.contains("windows-1252"), "{}", w.message);
}

#[test]
fn cp866_russian_by_heuristic() {
    let d = read_bytes(&corpus("tika__russian.cp866.txt"));
    let p = paras(&d);
    assert_eq!(p.len(), 1, "one stanza, lines joined by breaks");
    assert!(
        p[0].starts_with("Однажды, в студеную зимнюю пору,\nЯ из лесу вышел; был сильный мороз."),
        "{}",
        p[0]
    );
    assert!(
        p[0].ends_with("Лошадку ведет под уздцы мужичок"),
        "{}",
        p[0]
    );
    assert!(d.warnings[0].message.contains("IBM866"), "{:?}", d.warnings);
}

#[test]
fn utf8_bom_and_crlf() {
    let d = read_bytes(&corpus("poi__Bug47742-text.txt"));
    let p = paras(&d);
    assert!(
        p[0].starts_with("{0>Der Aaa Satz.<}0{>The Aaa phrase.<0}"),
        "BOM stripped: {:?}",
        &p[0][..20]
    );
    assert!(
        p[0].contains("{0>Ein Zeil\nenumbruch mittendrin."),
        "CRLF line ends are line breaks"
    );
    assert!(p.iter().all(|s| !s.contains('\r')));
    assert_eq!(p.len(), 2);
    assert!(d.warnings.is_empty());
}

#[test]
fn a_mail_archive_reads_as_messages_headed_by_subject() {
    let bytes = corpus("pandoc__release-announcements.txt");
    let d = read_bytes(&bytes);
    let p = paras(&d);
    assert!(p.len() > 1500, "{}", p.len());
    assert!(
        p.iter()
            .any(|s| s.starts_with("I'm pleased to announce a major new release of Pandoc"))
    );
    let headings: Vec<&String> = d
        .body
        .iter()
        .zip(&p)
        .filter(|(b, _)| matches!(b, Block::Paragraph(x) if matches!(x.kind, ParagraphKind::Heading(1))))
        .map(|x| x.1)
        .collect();
    // Each message's header fields give one heading, its subject ("Re: " dropped).
    assert_eq!(headings[0], "[ANN] Pandoc 0.3");
    assert_eq!(headings[1], "pandoc 0.4 released");
    assert!(headings.len() > 100, "{}", headings.len());
    // "# " lines of a shell script quoted in a message are text, not headings.
    assert!(headings.iter().all(|h| !h.starts_with('#')));
    // The first of many messages does not name the archive: its file name does.
    let out = docrag::convert(
        &bytes,
        &ConvertOptions::new().with_file_name("pandoc__release-announcements.txt"),
    )
    .unwrap();
    assert_eq!(
        out.chunks[0].metadata.get_str("docTitle"),
        Some("pandoc__release-announcements")
    );
    assert!(d.warnings.is_empty());
}

#[test]
fn form_feed_starts_page_two() {
    let d = read_bytes(b"Page one text.\n\x0cPage two text.\n");
    assert_eq!(paras(&d), ["Page one text.", "<PAGE>", "Page two text."]);
    let bytes = b"Page one text.\n\x0cPage two text.\n";
    let opts = ConvertOptions::new().with_file_name("pages.txt");
    let out = docrag::convert(bytes, &opts).unwrap();
    assert_eq!(out.chunks[0].metadata.get_int("lastPage"), Some(2));
    let page2 = docrag::convert(bytes, &opts.with_page_range(2, 2).unwrap()).unwrap();
    assert_eq!(page2.chunks.len(), 1);
    let c = &page2.chunks[0];
    assert!(
        c.text.contains("Page two text.") && !c.text.contains("Page one"),
        "{}",
        c.text
    );
    assert_eq!(c.metadata.get_int("firstPage"), Some(2));
}

#[test]
fn encodings_from_bom_hint_and_guess() {
    let utf16le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("héllo\nwörld".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(paras(&read_bytes(&utf16le)), ["héllo\nwörld"]);
    let utf16be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain("Ωmega".encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    assert_eq!(paras(&read_bytes(&utf16be)), ["Ωmega"]);
    // KOI8-R with the caller's charset, and without (guessed).
    let koi8 = b"\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2!"; // "Привет, мир!"
    let opts = ConvertOptions {
        mime: Some("text/plain; charset=KOI8-R".into()),
        ..ConvertOptions::default()
    };
    let d = text::read(koi8, &opts).unwrap();
    assert_eq!(paras(&d), ["Привет, мир!"]);
    assert!(d.warnings.is_empty());
    assert_eq!(paras(&read_bytes(koi8)), ["Привет, мир!"]);
}

#[test]
fn bad_input() {
    // Invalid UTF-8 inside mostly-UTF-8 text: replacement characters, a warning.
    let d = read_bytes(
        "naïve café – ok \u{2014} yes "
            .as_bytes()
            .iter()
            .chain(b"\xC3(")
            .copied()
            .collect::<Vec<_>>()
            .as_slice(),
    );
    assert!(paras(&d)[0].contains("naïve café"));
    assert_eq!(d.warnings[0].code, "invalid-encoding");
    // NUL bytes are dropped, not a panic.
    let d = read_bytes(b"a\0b\0\0c\n\n\0\n\nd");
    assert_eq!(paras(&d), ["abc", "d"]);
    assert_eq!(d.warnings[0].code, "control-characters");
    // Empty input is an error, whitespace-only is an empty document.
    let txt = ConvertOptions::new().with_file_name("a.txt");
    assert_eq!(docrag::convert(b"", &txt).unwrap_err(), ConvertError::Empty);
    assert!(read_bytes(b" \n\r\n\t\n").body.is_empty());
    // Binary junk is refused rather than read as garbage text.
    let junk: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 32) as u8).collect();
    assert!(matches!(
        docrag::convert(&junk, &txt),
        Err(ConvertError::UnsupportedFormat { format }) if format.starts_with("binary data")
    ));
}

#[test]
fn the_first_of_several_top_headings_does_not_name_the_document() {
    let title = |name: &str, text: &str| {
        let out =
            docrag::convert(text.as_bytes(), &ConvertOptions::new().with_file_name(name)).unwrap();
        out.chunks[0]
            .metadata
            .get_str("docTitle")
            .unwrap()
            .to_string()
    };
    // Two level-1 headings are two parts of equal rank: the file names the whole.
    assert_eq!(
        title(
            "ferry-notes.md",
            "# Timetable\n\nDaily.\n\n# Fares\n\nCheap.\n"
        ),
        "ferry-notes"
    );
    // One level-1 heading over level-2 ones is the document's name.
    assert_eq!(
        title(
            "ferry-notes.md",
            "# Ferry Guide\n\n## Timetable\n\nDaily.\n\n## Fares\n\nCheap.\n"
        ),
        "Ferry Guide"
    );
}
