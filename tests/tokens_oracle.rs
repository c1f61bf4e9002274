//! The o200k_base counter against tiktoken-rs (its build-time data source and the
//! oracle): identical token ids on every corpus document's chunks and on random Unicode
//! strings built from the characters the split pattern treats specially, and exact
//! joined counts (`count_joined`) on random assemblies.
//!
//! `DOCRAG_ORACLE_CASES` sets the number of random strings (default 1,000,000;
//! `make bench` runs more).

use std::path::PathBuf;
use std::sync::OnceLock;

use docrag::{ConvertOptions, convert, tokens};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn oracle() -> &'static tiktoken_rs::CoreBPE {
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("tiktoken-rs o200k_base"))
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

fn cases() -> u32 {
    std::env::var("DOCRAG_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

/// A runner for `cases` cases that never writes failure files.
fn quiet_runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn corpus_chunks_encode_like_tiktoken_and_counts_are_fresh() {
    let manifest = std::fs::read_to_string(corpus().join("MANIFEST.tsv")).expect("manifest");
    let rows = manifest.lines().skip(1).count();
    let mut files = 0;
    let mut chunks = 0;
    let mut total_tokens = 0;
    for line in manifest.lines().skip(1) {
        let file = line.split('\t').next().expect("file column");
        let Ok(bytes) = std::fs::read(corpus().join(file)) else {
            continue;
        };
        let options = ConvertOptions::new().with_file_name(file.to_string());
        let Ok(out) = convert(&bytes, &options) else {
            continue; // damaged files are corpus_manifest.rs's business
        };
        files += 1;
        for (i, chunk) in out.chunks.iter().enumerate() {
            let ids = tokens::encode(&chunk.text);
            assert_eq!(
                ids,
                oracle().encode_ordinary(&chunk.text),
                "{file} chunk {i}: ids differ from tiktoken-rs"
            );
            assert_eq!(
                chunk.metadata.get_int("tokenCount"),
                Some(ids.len() as i64),
                "{file} chunk {i}: tokenCount is not a fresh count of the text"
            );
            assert_eq!(tokens::count(&chunk.text), ids.len(), "{file} chunk {i}");
            chunks += 1;
            total_tokens += ids.len();
        }
        // The raw text of plain formats, whole (long pieces, every script the corpus has).
        if file.ends_with(".txt") || file.ends_with(".md") {
            let text = String::from_utf8_lossy(&bytes);
            assert_eq!(
                tokens::encode(&text),
                oracle().encode_ordinary(&text),
                "{file}"
            );
        }
    }
    // A few manifest files are damaged on purpose.
    assert!(
        files * 10 >= rows * 9,
        "converted {files} of {rows} corpus files"
    );
    assert!(
        total_tokens > 400_000,
        "{chunks} chunks, {total_tokens} tokens"
    );
    eprintln!("{files} files, {chunks} chunks, {total_tokens} tokens identical to tiktoken-rs");
}

/// Characters the split pattern and the merges treat specially, plus any character.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec![
            ' ', ' ', '\t', '\n', '\r', '\u{a0}', '\u{2003}', '\u{3000}', '\u{85}', '\u{b}',
            '\'', '\u{2019}', 's', 'S', 't', 'T', 'r', 'e', 'v', 'm', 'l', 'L', 'd', 'D',
            '\u{17f}', '\u{212a}', 'A', 'z', 'É', 'ß', 'ǅ', 'ʰ', '0', '7', '٣', '½', '\u{301}',
            '\u{93f}', '中', 'の', 'ㄱ', '한', 'ق', 'א', 'Ω', 'Ж', '/', '=', '.', ',', '!',
            '-', '_', '<', '|', '>', '😀', '👍', '\u{fe0f}', '\u{200d}', '\u{feff}',
        ]),
        1 => any::<char>(),
    ]
}

fn tricky_string(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(tricky_char(), 0..max).prop_map(|c| c.into_iter().collect())
}

#[test]
fn random_unicode_strings_encode_like_tiktoken() {
    let mut runner = quiet_runner(cases());
    runner
        .run(&tricky_string(24), |s| {
            prop_assert_eq!(tokens::encode(&s), oracle().encode_ordinary(&s), "{:?}", s);
            Ok(())
        })
        .expect("ids identical to tiktoken-rs");
}

#[test]
fn long_random_strings_encode_like_tiktoken() {
    // Pieces of 128 bytes and more take the heap merge.
    let mut runner = quiet_runner((cases() / 200).max(500));
    let long = prop_oneof![
        tricky_string(400),
        prop::collection::vec(
            prop::sample::select(vec!['=', '-', '*', '#', '~', 'x', 'Q', '9']),
            100..600
        )
        .prop_map(|c| c.into_iter().collect::<String>()),
        prop::collection::vec(
            prop::sample::select(vec!['a', 'b', 'Z', '+', '/', '0']),
            100..600
        )
        .prop_map(|c| c.into_iter().collect::<String>()),
    ];
    runner
        .run(&long, |s| {
            prop_assert_eq!(tokens::encode(&s), oracle().encode_ordinary(&s), "{:?}", s);
            Ok(())
        })
        .expect("ids identical to tiktoken-rs");
}

#[test]
fn joined_counts_equal_fresh_counts() {
    let mut runner = quiet_runner((cases() / 20).max(5_000));
    let seps = prop::sample::select(vec!["", "\n", "\n\n", " ", "'", "|", "x"]);
    let parts = prop::collection::vec((tricky_string(40), seps), 0..6);
    runner
        .run(&parts, |parts| {
            let mut text = String::new();
            let tallies: Vec<_> = parts.iter().map(|(p, _)| tokens::Tally::of(p)).collect();
            let mut at = Vec::new();
            for (p, sep) in &parts {
                at.push(text.len());
                text.push_str(p);
                text.push_str(sep);
            }
            let joined: Vec<(usize, &tokens::Tally)> = at.into_iter().zip(&tallies).collect();
            prop_assert_eq!(
                tokens::count_joined(&text, &joined),
                tokens::count(&text),
                "{:?}",
                parts
            );
            Ok(())
        })
        .expect("joined counts are exact");
}

#[test]
fn tallies_of_joined_texts_join_again_exactly() {
    // A chunk-information line is tallied from its title and path (`Tally::joined`),
    // then the line is a part of the chunk: both levels must count exactly.
    let mut runner = quiet_runner((cases() / 40).max(3_000));
    let seps = prop::sample::select(vec!["", "\n", " ", "'", "|", "x", " | "]);
    let inner = prop::collection::vec((tricky_string(30), seps.clone()), 1..4);
    let outer = (seps.clone(), inner, seps, tricky_string(30));
    runner
        .run(&outer, |(before, inner, after, rest)| {
            let mut line = String::new();
            let tallies: Vec<_> = inner.iter().map(|(p, _)| tokens::Tally::of(p)).collect();
            let mut at = Vec::new();
            for (p, sep) in &inner {
                at.push(line.len());
                line.push_str(p);
                line.push_str(sep);
            }
            let parts: Vec<(usize, &tokens::Tally)> = at.into_iter().zip(&tallies).collect();
            let line_tally = tokens::Tally::joined(&line, &parts);
            prop_assert_eq!(line_tally.tokens, tokens::count(&line), "{:?}", inner);
            let rest_tally = tokens::Tally::of(&rest);
            let text = format!("{before}{line}{after}{rest}");
            let outer_parts = [
                (before.len(), &line_tally),
                (before.len() + line.len() + after.len(), &rest_tally),
            ];
            prop_assert_eq!(
                tokens::count_joined(&text, &outer_parts),
                tokens::count(&text),
                "{:?}",
                (before, inner, after, rest)
            );
            Ok(())
        })
        .expect("joined tallies are exact");
}
