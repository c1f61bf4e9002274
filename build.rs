//! Build-time data of the o200k_base counter (`src/tokens/`), derived from tiktoken-rs
//! so that the shipped crate carries neither tiktoken-rs's base64 rank text nor a
//! regex compiler:
//!
//! - `o200k_vocab.bin`: every ordinary o200k_base token in rank order (the
//!   rank of a token is its position), written as byte-pair merges: a token of two or more bytes
//!   is stored as the ranks of two lower-ranked tokens whose bytes join into it (of
//!   the possible splits, the one with the smallest rank sum). The reader rebuilds the
//!   bytes in rank order by copying the two parts. 0.73 MB gzip, against 0.88 MB for
//!   the token bytes themselves in three streams by byte class and 1.69 MB for
//!   tiktoken's base64. Embedded as is: zopfli would make it 0.70 MB, but inflating
//!   it at every page load added 6-13 ms to the first count (26 -> 32 ms in Node, past
//!   the 30 ms budget), more than the smaller download saves a returning visitor.
//!   Layout (integers little-endian):
//!   `n: u32`; `kinds: [u8; n]` (0 = no ordinary token at this rank, 1 = one byte,
//!   2 = a merge, 3 = literal bytes, for a token no split explains: o200k has none);
//!   the bytes of the kind-1 tokens; the lengths (u8) of the kind-3 tokens, then their
//!   bytes; then the left ranks of the merges as three byte planes (low, middle, high
//!   byte of each rank: gzip finds more repeats within a plane), then the right ranks
//!   likewise.
//! - `o200k_split.dfa.deflate`: tiktoken's o200k split pattern compiled into a
//!   minimized dense `regex-automata` DFA (little-endian, anchored, leftmost-first) with two patterns:
//!   0 = every alternative except the two whitespace-only ones, 1 = `\s+`. The pattern's
//!   look-ahead alternative `\s+(?!\S)` cannot be compiled into a DFA; the search code
//!   applies it to pattern 1's matches (see `src/tokens/split.rs`). Written as
//!   `deflated`: the dense tables are 2.1 MB of mostly repeated transitions that
//!   deflate to 24.5 KB (`src/tokens/split.rs` says why the DFA ships deflated).

use std::collections::HashMap;
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
    fs::write(out.join("o200k_split.dfa.deflate"), deflated(&split_dfa()))
        .expect("write o200k_split.dfa.deflate");
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
    let blob = merges(&ranks);
    // The reader's rebuild (src/tokens/vocab.rs `layout`) must give back every token.
    assert_eq!(
        rebuild(&blob),
        ranks,
        "o200k_vocab.bin does not rebuild the vocabulary"
    );
    blob
}

/// The merge layout of `ranks` (see the module documentation).
fn merges(ranks: &[Option<Vec<u8>>]) -> Vec<u8> {
    let by_bytes: HashMap<&[u8], u32> = ranks
        .iter()
        .enumerate()
        .filter_map(|(r, t)| t.as_deref().map(|t| (t, r as u32)))
        .collect();
    let mut kinds = Vec::with_capacity(ranks.len());
    let mut singles = Vec::new();
    let (mut literal_lens, mut literal_bytes) = (Vec::new(), Vec::new());
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for (r, token) in ranks.iter().enumerate() {
        let r = r as u32;
        match token.as_deref() {
            None => kinds.push(0u8),
            Some([b]) => {
                kinds.push(1);
                singles.push(*b);
            }
            Some(bytes) => {
                let split = (1..bytes.len())
                    .filter_map(|k| {
                        let a = *by_bytes.get(&bytes[..k])?;
                        let c = *by_bytes.get(&bytes[k..])?;
                        (a < r && c < r).then_some((a + c, a, c))
                    })
                    .min();
                match split {
                    Some((_, a, c)) => {
                        kinds.push(2);
                        left.push(a);
                        right.push(c);
                    }
                    None => {
                        assert!(bytes.len() <= 255, "o200k token of {} bytes", bytes.len());
                        kinds.push(3);
                        literal_lens.push(bytes.len() as u8);
                        literal_bytes.extend_from_slice(bytes);
                    }
                }
            }
        }
    }
    let mut blob = (ranks.len() as u32).to_le_bytes().to_vec();
    blob.extend_from_slice(&kinds);
    blob.extend_from_slice(&singles);
    blob.extend_from_slice(&literal_lens);
    blob.extend_from_slice(&literal_bytes);
    for side in [&left, &right] {
        for shift in [0, 8, 16] {
            blob.extend(side.iter().map(|&x| {
                assert!(x < 1 << 24, "rank {x} does not fit three bytes");
                (x >> shift) as u8
            }));
        }
    }
    blob
}

/// Reads the merge layout back (the same steps as `src/tokens/vocab.rs`).
fn rebuild(blob: &[u8]) -> Vec<Option<Vec<u8>>> {
    let n = u32::from_le_bytes(blob[..4].try_into().unwrap()) as usize;
    let kinds = &blob[4..4 + n];
    let count = |k: u8| kinds.iter().filter(|&&x| x == k).count();
    let (singles_n, pairs_n, literals_n) = (count(1), count(2), count(3));
    let mut at = 4 + n;
    let mut take = |len: usize| {
        let s = &blob[at..at + len];
        at += len;
        s
    };
    let singles = take(singles_n);
    let literal_lens = take(literals_n);
    let literal_bytes = take(literal_lens.iter().map(|&l| l as usize).sum());
    let planes: Vec<&[u8]> = (0..6).map(|_| take(pairs_n)).collect();
    let rank = |p: &[&[u8]], i: usize| {
        p[0][i] as usize | (p[1][i] as usize) << 8 | (p[2][i] as usize) << 16
    };
    let mut out: Vec<Option<Vec<u8>>> = Vec::with_capacity(n);
    let (mut si, mut pi, mut li, mut lb) = (0, 0, 0, 0);
    for &kind in kinds {
        out.push(match kind {
            0 => None,
            1 => {
                si += 1;
                Some(vec![singles[si - 1]])
            }
            2 => {
                let (a, c) = (rank(&planes[..3], pi), rank(&planes[3..], pi));
                pi += 1;
                let mut t = out[a].clone().unwrap();
                t.extend_from_slice(out[c].as_deref().unwrap());
                Some(t)
            }
            _ => {
                let len = literal_lens[li] as usize;
                li += 1;
                lb += len;
                Some(literal_bytes[lb - len..lb].to_vec())
            }
        });
    }
    out
}

/// `len: u32` little-endian, then `bytes` as a raw deflate stream. Zopfli's stream is
/// about 12% smaller than zlib's level 9 on the DFA (28.4 -> 24.5 KB) and, as the
/// package is served gzip, a stream that is already deflated passes through gzip at
/// its own size. The check that it inflates back is `src/tokens`' tests (every test
/// run counts text).
fn deflated(bytes: &[u8]) -> Vec<u8> {
    let len = u32::try_from(bytes.len()).expect("the data is smaller than 4 GiB");
    let mut out = len.to_le_bytes().to_vec();
    zopfli::compress(
        zopfli::Options::default(),
        zopfli::Format::Deflate,
        bytes,
        &mut out,
    )
    .expect("deflate into memory");
    out
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
