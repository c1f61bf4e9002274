//! Byte-pair merging of one pre-tokenizer piece, tiktoken's rule: start from single
//! bytes and repeatedly join the adjacent pair whose joined bytes have the lowest rank,
//! the leftmost such pair on ties, until no adjacent pair is a token.
//!
//! Short pieces (nearly all) rescan a small array after each merge; long ones (a run
//! of digits-free symbols, a base64 blob) keep the candidate pairs in a heap so that a
//! piece of n bytes costs O(n log n), not O(n^2).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::vocab::{Rank, Vocab};

/// Pieces of at least this many bytes use the heap.
const LONG: usize = 128;

/// Writes the start offset of each token of `piece` into `bounds`, then `piece.len()`:
/// token k is `piece[bounds[k]..bounds[k + 1]]`. `bounds` is cleared first.
pub(crate) fn merge(vocab: &Vocab, piece: &[u8], bounds: &mut Vec<usize>) {
    bounds.clear();
    if piece.len() < LONG {
        merge_short(vocab, piece, bounds);
    } else {
        merge_long(vocab, piece, bounds);
    }
}

fn merge_short(vocab: &Vocab, piece: &[u8], bounds: &mut Vec<usize>) {
    let n = piece.len();
    bounds.extend(0..=n);
    let rank_of = |a: usize, b: usize| vocab.rank(&piece[a..b]).unwrap_or(Rank::MAX);
    // pair[j]: rank of tokens j and j + 1 joined; the first `pairs` entries are live.
    // On the stack: this runs for most pieces of every count.
    let mut pair = [Rank::MAX; LONG];
    let mut pairs = n.saturating_sub(1).min(LONG);
    for (i, p) in pair.iter_mut().enumerate().take(pairs) {
        *p = rank_of(i, i + 2);
    }
    loop {
        let mut best = (Rank::MAX, 0);
        for (j, &r) in pair[..pairs].iter().enumerate() {
            if r < best.0 {
                best = (r, j);
            }
        }
        if best.0 == Rank::MAX {
            break;
        }
        let j = best.1;
        bounds.remove(j + 1);
        pair.copy_within(j + 1..pairs, j);
        pairs -= 1;
        if j < pairs {
            pair[j] = rank_of(bounds[j], bounds[j + 2]);
        }
        if j > 0 {
            pair[j - 1] = rank_of(bounds[j - 1], bounds[j + 1]);
        }
    }
}

fn merge_long(vocab: &Vocab, piece: &[u8], bounds: &mut Vec<usize>) {
    let n = piece.len();
    let rank_of = |a: usize, b: usize| vocab.rank(&piece[a..b]).unwrap_or(Rank::MAX);
    // Tokens as a linked list over their start offsets.
    let mut end: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut live = vec![true; n];
    // pair[s]: rank of the token starting at s joined with the one after it.
    let mut pair = vec![Rank::MAX; n];
    let mut heap = BinaryHeap::with_capacity(n);
    for s in 0..n - 1 {
        pair[s] = rank_of(s, s + 2);
        if pair[s] != Rank::MAX {
            heap.push(Reverse((pair[s], s)));
        }
    }
    while let Some(Reverse((rank, s))) = heap.pop() {
        if !live[s] || pair[s] != rank {
            continue; // superseded by a later merge
        }
        let t = end[s];
        end[s] = end[t];
        live[t] = false;
        pair[t] = Rank::MAX;
        if end[s] < n {
            prev[end[s]] = s;
            pair[s] = rank_of(s, end[end[s]]);
            if pair[s] != Rank::MAX {
                heap.push(Reverse((pair[s], s)));
            }
        } else {
            pair[s] = Rank::MAX;
        }
        if s > 0 {
            let p = prev[s];
            pair[p] = rank_of(p, end[s]);
            if pair[p] != Rank::MAX {
                heap.push(Reverse((pair[p], p)));
            }
        }
    }
    let mut s = 0;
    while s < n {
        bounds.push(s);
        s = end[s];
    }
    bounds.push(n);
}
