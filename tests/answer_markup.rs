//! Property test over the corpus: the extractive answer's `text` never carries chunk
//! markup, its `markdown` is balanced, and both cite the same sources in the same
//! order. Every chunk of every readable corpus file is rendered on its own, and
//! every file is asked one question of each answer kind.

mod common;

use docrag::query::answer::{Passage, answer, markup};

/// Tags of the chunk format (see docrag::chunk::render) that must never reach a
/// reader as markup.
const TAGS: &[&str] = &[
    "<ins ",
    "<ins>",
    "</ins>",
    "<del ",
    "<del>",
    "</del>",
    "<mark ",
    "</mark>",
    "<comment ",
    "</comment>",
    "<table>",
    "<tr>",
    "<td>",
    "<th>",
    "<br>",
    "<u>",
    "</u>",
];

const QUESTIONS: &[&str] = &[
    "Give the opening topic's main point.",
    "Which insertions or deletions were tracked, by whom?",
    "Summarise the remarks left as comments, by author.",
    "Give the text of the footnote.",
    "Give the running header or footer text.",
    "Enumerate each row of the grid.",
    "Which documents cover this, and what is in each?",
];

/// The text of `raw` inside code: fenced blocks and backtick spans, where a tag is
/// text the document shows.
fn code_text(raw: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in raw.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 1 {
                out.push_str(part);
                out.push('\n');
            }
        }
    }
    out
}

/// No tag of [`TAGS`] in `s` beyond those the document wrote as text (`&lt;td>` in
/// `raw`, or a literal "<td>" in its code, in a document about HTML).
fn no_markup(s: &str, raw: &str, what: &str) {
    let code = code_text(raw);
    for t in TAGS {
        let escaped = t.replacen('<', "&lt;", 1);
        let shown = raw.matches(escaped.as_str()).count() + code.matches(t).count();
        assert!(
            s.matches(t).count() <= shown,
            "{what}: plain text holds {t}:\n{s}"
        );
    }
}

/// Citation markers `[n]` not escaped, in order.
fn markers(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if c == b'[' && (i == 0 || b[i - 1] != b'\\') {
            let digits: String = s[i + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !digits.is_empty() && s[i + 1 + digits.len()..].starts_with(']') {
                out.push(digits);
            }
        }
    }
    out
}

/// Unescaped `~~` and `*` come in pairs, no unescaped `<` or backtick, brackets
/// balance.
fn balanced(md: &str, what: &str) {
    let chars: Vec<char> = md.chars().collect();
    let (mut tildes, mut stars, mut open, mut close) = (0, 0, 0, 0);
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '~' if chars.get(i + 1) == Some(&'~') => {
                tildes += 1;
                i += 1;
            }
            '*' => stars += 1,
            '<' | '`' => panic!("{what}: unescaped {} in markdown:\n{md}", chars[i]),
            '[' => open += 1,
            ']' => close += 1,
            _ => {}
        }
        i += 1;
    }
    assert!(tildes % 2 == 0, "{what}: unbalanced ~~:\n{md}");
    assert!(stars % 2 == 0, "{what}: unbalanced *:\n{md}");
    assert_eq!(open, close, "{what}: unbalanced brackets:\n{md}");
}

fn readable(name: &str) -> bool {
    let ext = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    matches!(
        ext.as_str(),
        "docx" | "html" | "htm" | "xhtml" | "rtf" | "md" | "txt"
    )
}

#[test]
fn answers_never_carry_markup_and_markdown_is_balanced() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| readable(n))
        .collect();
    names.sort();
    let mut files = 0;
    let mut chunks = 0;
    for name in &names {
        let o = docrag::ConvertOptions::new().with_file_name(name);
        let Ok(conv) = docrag::convert(&common::corpus(name), &o) else {
            continue;
        };
        files += 1;
        for (i, ch) in conv.chunks.iter().enumerate() {
            chunks += 1;
            let r = markup::render(&ch.text);
            no_markup(&r.plain, &ch.text, &format!("{name} chunk {i}"));
            balanced(&r.markdown, &format!("{name} chunk {i}"));
        }
        let passages: Vec<Passage<'_>> = conv
            .chunks
            .iter()
            .take(60)
            .enumerate()
            .map(|(i, ch)| Passage {
                number: i + 1,
                text: &ch.text,
                file: name,
            })
            .collect();
        let raw: String = passages.iter().map(|p| p.text).collect();
        for q in QUESTIONS {
            let a = answer(q, &passages, 400, 3);
            let what = format!("{name}: {q}");
            no_markup(&a.text, &raw, &what);
            balanced(&a.markdown, &what);
            assert_eq!(
                markers(&a.text),
                markers(&a.markdown),
                "{what}:\n{}\n---\n{}",
                a.text,
                a.markdown
            );
            for m in markers(&a.text) {
                let n: usize = m.parse().unwrap();
                assert!(
                    (1..=passages.len()).contains(&n),
                    "{what}: [{n}] names no passage"
                );
            }
        }
    }
    assert!(files >= 70, "{files} corpus files read");
    assert!(chunks >= 690, "{chunks} chunks rendered");
}
