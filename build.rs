//! Build-time data of the o200k_base counter (`src/tokens/`), derived from tiktoken-rs
//! so that the shipped crate carries neither tiktoken-rs's base64 rank text nor a
//! regex compiler:
//!
//! - `o200k_vocab.bin`: every ordinary o200k_base token in rank order (the rank of a
//!   token is its position), laid out so that gzip sees like next to like: the number
//!   of ranks (u32, little-endian); one header byte per rank; the lengths too long for
//!   a header; then the token bytes as three streams, each in rank order: ASCII tokens
//!   with a letter, other ASCII tokens, tokens with non-ASCII bytes. Header byte: bit 7
//!   = the token starts with a space the stream leaves out (a quarter of o200k's
//!   tokens: " the", " and", ...); bits 5-6 = the stream (0 = no ordinary token at this
//!   rank); bits 0-4 = the bytes the stream holds, 31 = see the next long length.
//!   0.88 MB gzip, against 0.96 MB for one stream and 1.69 MB for tiktoken's base64.
//! - `o200k_split.dfa`: tiktoken's o200k split pattern compiled into a minimized dense
//!   `regex-automata` DFA (little-endian, anchored, leftmost-first) with two patterns:
//!   0 = every alternative except the two whitespace-only ones, 1 = `\s+`. The pattern's
//!   look-ahead alternative `\s+(?!\S)` cannot be compiled into a DFA; the search code
//!   applies it to pattern 1's matches (see `src/tokens/split.rs`).

use std::env;
use std::fs;
use std::path::PathBuf;

use regex_automata::MatchKind;
use regex_automata::dfa::{StartKind, dense};

/// The two whitespace alternatives at the end of the o200k split pattern.
const WHITESPACE_TAIL: &str = r"|\s+(?!\S)|\s+";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out.join("o200k_vocab.bin"), vocabulary()).expect("write o200k_vocab.bin");
    fs::write(out.join("o200k_split.dfa"), split_dfa()).expect("write o200k_split.dfa");
}

fn vocabulary() -> Vec<u8> {
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs builds o200k_base");
    let special: Vec<Vec<u8>> = bpe
        .special_tokens()
        .into_iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    // o200k_base's ordinary ranks are 0..=199_997; the specials sit above them.
    let mut last_ordinary = 0;
    let mut ranks = Vec::new();
    for rank in 0..=200_100u32 {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) if !special.contains(&bytes) => {
                last_ordinary = rank;
                ranks.push(Some(bytes));
            }
            _ => ranks.push(None),
        }
    }
    ranks.truncate(last_ordinary as usize + 1);
    let mut heads = Vec::with_capacity(ranks.len());
    let mut long = Vec::new();
    let mut streams: [Vec<u8>; 3] = Default::default();
    for token in &ranks {
        let Some(bytes) = token else {
            heads.push(0u8);
            continue;
        };
        let spaced = bytes.len() > 1 && bytes[0] == b' ';
        let kept = if spaced { &bytes[1..] } else { &bytes[..] };
        let stream = if !kept.is_ascii() {
            3
        } else if kept.iter().any(u8::is_ascii_alphabetic) {
            1
        } else {
            2
        };
        assert!(kept.len() <= 255, "o200k token of {} bytes", bytes.len());
        let len = if kept.len() >= 31 {
            long.push(kept.len() as u8);
            31
        } else {
            kept.len() as u8
        };
        heads.push(if spaced { 0x80 } else { 0 } | (stream << 5) | len);
        streams[stream as usize - 1].extend_from_slice(kept);
    }
    let mut blob = (ranks.len() as u32).to_le_bytes().to_vec();
    blob.extend_from_slice(&heads);
    blob.extend_from_slice(&long);
    for s in &streams {
        blob.extend_from_slice(s);
    }
    blob
}

fn split_dfa() -> Vec<u8> {
    let pattern = tiktoken_rs::O200K_BASE_PAT_STR;
    assert!(
        pattern.ends_with(WHITESPACE_TAIL),
        "the o200k split pattern no longer ends with {WHITESPACE_TAIL}: review src/tokens/split.rs"
    );
    let main = &pattern[..pattern.len() - WHITESPACE_TAIL.len()];
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .minimize(true)
                .start_kind(StartKind::Anchored)
                .match_kind(MatchKind::LeftmostFirst),
        )
        .build_many(&[main, r"\s+"])
        .expect("the o200k split pattern compiles into a DFA");
    let (bytes, pad) = dfa.to_bytes_little_endian();
    bytes[pad..].to_vec()
}
