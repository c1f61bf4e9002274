//! Exact o200k_base token counts and ids, ready in milliseconds.
//!
//! The counter is tiktoken's algorithm over build-time data (`build.rs` derives it
//! from tiktoken-rs, which stays the oracle of `tests/tokens_oracle.rs`): a DFA of the
//! o200k split pattern cuts text into pieces ([`split`]), a piece that is a token is
//! one token, any other is split by byte-pair merges ([`merge`]). Nothing is parsed or
//! copied at start: the first call indexes the embedded vocabulary (199,998 tokens) in
//! one pass.
//!
//! Counting uses `encode_ordinary` semantics: special-token text such as
//! `<|endoftext|>` inside a document is counted as ordinary text, never as a control
//! token, so a document cannot smuggle one in.
//!
//! [`Tally`] and [`count_joined`] count a text assembled from parts already counted
//! (a chunk from its units) by rescanning only the few bytes around each seam.

mod join;
mod merge;
mod split;
mod vocab;

pub use join::{Tally, count_joined};

use std::cell::RefCell;
use std::collections::HashMap;

use rustc_hash::FxBuildHasher;
pub use vocab::Rank;

use merge::merge;
use split::Pieces;
use vocab::Vocab;

/// Longest o200k_base token in bytes; a longer piece is never looked up whole.
const MAX_TOKEN_BYTES: usize = 128;

/// Number of o200k_base tokens in `text` (as `encode_ordinary(text).len()`).
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    let vocab = Vocab::get();
    let mut bounds = Vec::new();
    Pieces::new(text, 0)
        .map(|p| piece_tokens(vocab, &text.as_bytes()[p.start..p.end], &mut bounds))
        .sum()
}

/// The o200k_base token ids of `text` (tiktoken's `encode_ordinary`).
pub fn encode(text: &str) -> Vec<Rank> {
    let vocab = Vocab::get();
    let mut bounds = Vec::new();
    let mut ids = Vec::with_capacity(text.len() / 4 + 1);
    for p in Pieces::new(text, 0) {
        let piece = &text.as_bytes()[p.start..p.end];
        if let Some(rank) = whole(vocab, piece) {
            ids.push(rank);
            continue;
        }
        merge(vocab, piece, &mut bounds);
        for w in bounds.windows(2) {
            // Every single byte is a token, so every merged part has a rank.
            ids.extend(vocab.rank(&piece[w[0]..w[1]]));
        }
    }
    ids
}

/// The bytes of token ids (the inverse of [`encode`]; may split a UTF-8 character when
/// `ids` is a slice of a longer encoding). Unknown ids are skipped.
pub fn decode(ids: &[Rank]) -> Vec<u8> {
    let vocab = Vocab::get();
    ids.iter()
        .filter_map(|&id| vocab.bytes(id))
        .flatten()
        .copied()
        .collect()
}

/// Builds the vocabulary index and the split DFA now rather than on the first count
/// (a worker calls this while it waits for its first file). Returns the vocabulary size.
pub fn warm_up() -> usize {
    count("warm up");
    Vocab::get().len()
}

fn whole(vocab: &Vocab, piece: &[u8]) -> Option<Rank> {
    if piece.len() <= MAX_TOKEN_BYTES {
        vocab.rank(piece)
    } else {
        None
    }
}

/// Pieces up to this many bytes have their merged counts remembered ([`MERGED`]).
const CACHED_PIECE_BYTES: usize = 64;
/// Entries of [`MERGED`] before it starts over (about 1 MB at most).
const CACHED_PIECES: usize = 1 << 14;

thread_local! {
    /// Token counts of pieces that are not one token, by their bytes: a document
    /// repeats its words, and in scripts whose words are rarely single tokens
    /// (Cyrillic, CJK, Greek) merging is most of the counting. The cache of
    /// Hugging Face's BPE tokenizers, bounded: full, it is cleared. It changes no
    /// count (merging is a function of the piece's bytes).
    static MERGED: RefCell<HashMap<Box<[u8]>, u32, FxBuildHasher>> =
        RefCell::new(HashMap::with_hasher(FxBuildHasher));
}

/// Tokens of one pre-tokenizer piece.
fn piece_tokens(vocab: &Vocab, piece: &[u8], bounds: &mut Vec<usize>) -> usize {
    if whole(vocab, piece).is_some() {
        return 1;
    }
    if piece.len() > CACHED_PIECE_BYTES {
        merge(vocab, piece, bounds);
        return bounds.len() - 1;
    }
    MERGED.with_borrow_mut(|cache| {
        if let Some(&n) = cache.get(piece) {
            return n as usize;
        }
        merge(vocab, piece, bounds);
        let n = bounds.len() - 1;
        if cache.len() >= CACHED_PIECES {
            cache.clear();
        }
        cache.insert(piece.into(), n as u32);
        n
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_known_strings() {
        assert_eq!(count(""), 0);
        assert_eq!(count("hello world"), 2);
        // Special-token text is ordinary text here: more than one token.
        assert_eq!(count("<|endoftext|>"), 7);
        assert_eq!(encode("hello world"), vec![24912, 2375]);
        assert_eq!(decode(&encode("naïve café ☕")), "naïve café ☕".as_bytes());
    }

    #[test]
    fn whitespace_before_a_word_leaves_one_space_to_it() {
        // "   x" is "  " + " x" (the look-ahead alternative), "   " alone one piece.
        let ids = encode("a   x");
        assert_eq!(decode(&ids[1..2]), b"  ");
        assert_eq!(decode(&ids[2..]), b" x");
        assert_eq!(encode("a   ").len(), 2);
    }

    #[test]
    fn long_pieces_merge_like_short_ones() {
        // 300 bytes of one symbol run: the heap path; its halves use the array path.
        let long = "=-".repeat(150);
        let half = "=-".repeat(50);
        assert_eq!(decode(&encode(&long)), long.as_bytes());
        assert!(count(&long) <= count(&half) * 3 + 2);
        assert_eq!(warm_up(), 199_998);
    }
}
