//! `docrag bench-pages`: how close the page estimate comes to Word's own pages.
//!
//! For each DOCX whose main story carries Word's saved layout (`w:lastRenderedPageBreak`),
//! the document is read twice: with the layout (Word's pages, the reference) and with
//! it ignored (`PageMode::Estimate`). Every chunk of the estimated conversion is found
//! in Word's reading by the first characters of its body text, and its `firstPage` is
//! compared with Word's page at that point. Files without a saved layout report the
//! estimated page count next to the count the producer saved (`docProps/app.xml`
//! `Pages`, RTF `\nofpages`).

use std::io::Read;

use docrag::model::{Block, Inline, PageSource};
use docrag::{ConvertOptions, PageMode};

use super::{Fail, display_name};

pub(crate) const USAGE: &str = "\
bench-pages  for each DOCX FILE with Word's saved layout: the share of chunks whose
          estimated first page (layout ignored) is Word's page, and within one page of
          it; for the others, estimated pages beside the count the producer saved
          (docProps/app.xml Pages, RTF \\nofpages).
          usage: docrag bench-pages [--max-tokens N] FILE...";

/// Letters and digits of a probe: enough to be unique in a document, short enough
/// to stay inside one table cell.
const PROBE: usize = 16;

/// More letters and digits than any page holds (a dense A4 page of 8-point text has
/// about 9,000 characters): text after Word's last page start beyond this is text
/// Word did not lay out.
const PAGE_TEXT: usize = 12_000;

/// Word's reading of the body: its letters and digits (lower case) in order, table
/// cells included, and the page at each offset where a page starts.
struct Reading {
    text: String,
    pages: Vec<(usize, u32)>,
}

pub(crate) fn bench_pages_command(args: &[String]) -> Result<(), Fail> {
    let mut files = Vec::new();
    let mut max_tokens = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--max-tokens" => {
                let v = super::value(&mut it, a)?;
                max_tokens = Some(super::number::<usize>(v, a)?);
            }
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("bench-pages needs at least one FILE"));
    }
    println!(
        "{:<52} {:>6} {:>7} {:>7} {:>11}",
        "document (Word's saved layout)", "chunks", "exact", "+-1", "pages W/est"
    );
    let (mut total, mut exact, mut near) = (0usize, 0usize, 0usize);
    let mut others = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| Fail::read(path, &e))?;
        let options = |mode| {
            let mut o = ConvertOptions::new()
                .with_file_name(path.as_str())
                .with_pages(mode);
            if let Some(n) = max_tokens {
                o = o.with_max_tokens(n)?;
            }
            Ok::<_, docrag::ConvertError>(o)
        };
        let word = options(PageMode::Saved).map_err(|e| Fail::convert(&e))?;
        let Ok(doc) = docrag::read::read(&bytes, &word) else {
            continue;
        };
        let est = options(PageMode::Estimate).map_err(|e| Fail::convert(&e))?;
        let Ok(conv) = docrag::convert(&bytes, &est) else {
            continue;
        };
        let last_page = conv
            .chunks
            .iter()
            .filter_map(|c| page_of(&c.metadata, "lastPage"))
            .max()
            .unwrap_or(1);
        if doc.pagination.source != PageSource::Rendered {
            others.push((display_name(path), last_page, saved_pages(&bytes)));
            continue;
        }
        let reading = reading(&doc.body);
        let word_pages = reading.pages.last().map_or(1, |p| p.1);
        let (mut n, mut e, mut w) = (0usize, 0usize, 0usize);
        let mut from = 0usize;
        for c in &conv.chunks {
            if c.metadata.get_str("chunkKind") != Some("body") {
                continue;
            }
            let Some(first) = page_of(&c.metadata, "firstPage") else {
                continue;
            };
            let Some((at, page)) = reading
                .find(&c.text, from)
                .or_else(|| reading.find(&c.text, 0))
            else {
                if std::env::var_os("DOCRAG_PAGES_TRACE").is_some() {
                    eprintln!(
                        "unmatched: {:?}",
                        c.text.chars().take(300).collect::<String>()
                    );
                }
                continue;
            };
            if at > reading.laid_out() {
                continue;
            }
            from = at;
            if std::env::var_os("DOCRAG_PAGES_TRACE").is_some() {
                eprintln!(
                    "{first:>4} {page:>4}  {}",
                    c.text
                        .lines()
                        .nth(1)
                        .unwrap_or("")
                        .chars()
                        .take(60)
                        .collect::<String>()
                );
            }
            n += 1;
            e += usize::from(first == page);
            w += usize::from(first.abs_diff(page) <= 1);
        }
        total += n;
        exact += e;
        near += w;
        println!(
            "{:<52} {:>6} {:>6.1}% {:>6.1}% {:>5}/{:<5}",
            display_name(path),
            n,
            pct(e, n),
            pct(w, n),
            word_pages,
            last_page
        );
    }
    println!(
        "{:<52} {:>6} {:>6.1}% {:>6.1}%",
        "all chunks",
        total,
        pct(exact, total),
        pct(near, total)
    );
    if !others.is_empty() {
        println!(
            "\n{:<52} {:>9} {:>9}",
            "document (no saved layout)", "estimated", "saved"
        );
        for (name, est, app) in others {
            let app = app.map_or("-".to_string(), |p| p.to_string());
            println!("{name:<52} {est:>9} {app:>9}");
        }
    }
    Ok(())
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// A page-number metadata field.
fn page_of(m: &docrag::Metadata, key: &str) -> Option<u32> {
    u32::try_from(m.get_int(key)?).ok()
}

impl Reading {
    /// The end of the text Word laid out: the start of the first page holding more
    /// text than a page can (Word's layout stops there: the file was edited after, or
    /// Word paginates in the background and saved before it finished), else the end.
    fn laid_out(&self) -> usize {
        let ends = self
            .pages
            .iter()
            .skip(1)
            .map(|p| p.0)
            .chain([self.text.len()]);
        self.pages
            .iter()
            .zip(ends)
            .find(|((start, _), end)| end - start > PAGE_TEXT)
            .map_or(self.text.len(), |((start, _), _)| *start)
    }

    /// Where the body of chunk `text` (after its information line) starts, at or
    /// after byte `from`, and Word's page there. Probes start at each of the first
    /// words, since chunk text adds what the model keeps apart (list numbers, note
    /// marks); the earliest match wins.
    fn find(&self, text: &str, from: usize) -> Option<(usize, u32)> {
        let mut body = text.split_once('\n').map_or("", |(_, b)| b).trim_start();
        // A table chunk repeats the table's header row: start after it.
        let mut lines = body.splitn(3, '\n');
        if let (Some(head), Some(sep), Some(rest)) = (lines.next(), lines.next(), lines.next()) {
            let rule = |l: &str| {
                l.starts_with('|') && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
            };
            if head.starts_with('|') && rule(sep) {
                body = rest;
            }
        }
        // HTML tables (merged cells): drop the tags and the repeated header rows.
        let cleaned;
        if body.starts_with("<table>") {
            let rows: String = body
                .lines()
                .filter(|l| !l.starts_with("<tr><th") && *l != "<table>")
                .collect::<Vec<_>>()
                .join(" ");
            let mut out = String::with_capacity(rows.len());
            let mut in_tag = false;
            for c in rows.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => {
                        in_tag = false;
                        out.push(' ');
                    }
                    c if !in_tag => out.push(c),
                    _ => {}
                }
            }
            cleaned = out;
            body = &cleaned;
        }
        let at = body
            .split_whitespace()
            .take(4)
            .scan(body, |rest, word| {
                let i = rest.find(word)?;
                let tail = &rest[i..];
                *rest = &tail[word.len()..];
                Some(tail)
            })
            .filter_map(|tail| {
                let p: String = tail
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .take(PROBE)
                    .collect();
                if p.chars().count() < PROBE {
                    return None;
                }
                self.text.get(from..)?.find(&p).map(|i| i + from)
            })
            .min()?;
        let page = self
            .pages
            .iter()
            .take_while(|(o, _)| *o <= at)
            .last()
            .map_or(1, |x| x.1);
        Some((at, page))
    }
}

/// The body in reading order (table cells included), with pages counted as the
/// chunker counts them.
fn reading(body: &[Block]) -> Reading {
    let mut r = Reading {
        text: String::new(),
        pages: vec![(0, 1)],
    };
    let mut page = 1u32;
    walk(body, &mut page, &mut r);
    r
}

fn walk(blocks: &[Block], page: &mut u32, r: &mut Reading) {
    for b in blocks {
        match b {
            Block::PageBreak => turn(page, r),
            Block::SectionBreak { new_page: true } => turn(page, r),
            Block::Paragraph(p) => inlines(&p.inlines, page, r),
            Block::Table(t) => {
                for c in t.rows.iter().flat_map(|r| &r.cells) {
                    walk(&c.blocks, page, r);
                }
            }
            Block::Quote(q) => walk(q, page, r),
            _ => {}
        }
    }
}

fn turn(page: &mut u32, r: &mut Reading) {
    *page += 1;
    r.pages.push((r.text.len(), *page));
}

fn inlines(list: &[Inline], page: &mut u32, r: &mut Reading) {
    for i in list {
        match i {
            Inline::PageBreak => turn(page, r),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => inlines(children, page, r),
            Inline::Text { text, .. } => r.text.extend(
                text.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase),
            ),
            _ => {}
        }
    }
}

/// The page count the producer saved: `docProps/app.xml` `Pages` (ECMA-376 Part 1,
/// 22.2.2.19) of a package, `\nofpagesN` of an RTF's `\info` group.
fn saved_pages(bytes: &[u8]) -> Option<u32> {
    if bytes.starts_with(b"{\\rtf") {
        let at = bytes.windows(9).position(|w| w == b"\\nofpages")? + 9;
        let digits = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        return std::str::from_utf8(&bytes[at..at + digits])
            .ok()?
            .parse()
            .ok();
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).ok()?;
    let mut f = zip.by_name("docProps/app.xml").ok()?;
    let mut s = String::new();
    f.by_ref().take(1 << 20).read_to_string(&mut s).ok()?;
    let start = s.find("<Pages>")? + "<Pages>".len();
    let end = s[start..].find('<')? + start;
    s[start..end].trim().parse().ok()
}
