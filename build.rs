//! Build-time data of the o200k_base counter (`src/tokens/`), derived from tiktoken-rs
//! so that the shipped crate carries neither tiktoken-rs's base64 rank text nor a
//! regex compiler:
//!
//! - `o200k_vocab.bin`: every ordinary o200k_base token in rank order, as one byte of
//!   length (1..=255) followed by the token's bytes; a rank without an ordinary token is
//!   a single 0 byte. The rank of a token is its position in this list.
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
    let mut blob = Vec::with_capacity(1_600_000);
    let mut last_ordinary = 0;
    let mut ranks = Vec::new();
    for rank in 0..=200_100u32 {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) if !special.contains(&bytes) => {
                assert!(
                    (1..=255).contains(&bytes.len()),
                    "o200k token {rank} is {} bytes long",
                    bytes.len()
                );
                last_ordinary = rank;
                ranks.push(Some(bytes));
            }
            _ => ranks.push(None),
        }
    }
    ranks.truncate(last_ordinary as usize + 1);
    for token in ranks {
        match token {
            Some(bytes) => {
                blob.push(bytes.len() as u8);
                blob.extend_from_slice(&bytes);
            }
            None => blob.push(0),
        }
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
