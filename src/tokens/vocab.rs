//! The o200k_base vocabulary: token bytes -> rank, rank -> bytes.
//!
//! The data is `build.rs`'s `o200k_vocab.bin` (each token of two or more bytes as the
//! ranks of the two tokens it joins), embedded in the binary. The first use lays the
//! tokens out back to back (1.6 MB) and indexes them in one pass over the
//! 199,998 tokens into an open-addressing table of 2^19 `u32` slots (2 MB, load 0.38,
//! linear probing). A slot holds the rank and 13 bits of the key's hash, so a probe
//! compares bytes only when the tag matches. The table is built for this one static
//! key set: measured in `make bench` (TOKENS), it starts in about a third of the time
//! of a general-purpose hash map, which matters because a page waits for it.

use std::hash::BuildHasher;
use std::sync::OnceLock;

use rustc_hash::FxBuildHasher;

/// A token's rank, which is also its id in o200k_base.
pub type Rank = u32;

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_vocab.bin"));

/// The ordinary tokens of o200k_base (special tokens such as `<|endoftext|>` are not in
/// it: documents are counted as ordinary text).
pub(crate) struct Vocab {
    /// Every token's bytes, in rank order.
    bytes: Vec<u8>,
    /// Token r is `bytes[ends[r]..ends[r + 1]]` (empty for a rank without a token).
    ends: Vec<u32>,
    /// `0` = empty, else `(tag << RANK_BITS) | (rank + 1)`.
    table: Vec<u32>,
    len: usize,
}

/// log2 of the table's slot count.
const SLOT_BITS: u32 = 19;
/// Bits of a slot for `rank + 1` (o200k_base has fewer than 2^19 ranks).
const RANK_BITS: u32 = 19;
const RANK_MASK: u32 = (1 << RANK_BITS) - 1;

fn hash(bytes: &[u8]) -> u64 {
    FxBuildHasher.hash_one(bytes)
}

/// The first slot to probe and the tag stored beside the rank.
#[inline]
fn place(bytes: &[u8]) -> (usize, u32) {
    let h = hash(bytes);
    let slot = (h as usize) & ((1 << SLOT_BITS) - 1);
    let tag = (h >> (64 - (32 - RANK_BITS))) as u32;
    (slot, tag << RANK_BITS)
}

impl Vocab {
    /// The shared table, built on first use.
    pub(crate) fn get() -> &'static Vocab {
        static VOCAB: OnceLock<Vocab> = OnceLock::new();
        VOCAB.get_or_init(Vocab::build)
    }

    fn build() -> Vocab {
        let (bytes, ends) = layout(BLOB);
        let mask = (1usize << SLOT_BITS) - 1;
        let mut table = vec![0u32; 1 << SLOT_BITS];
        let mut len = 0;
        // More ranks than the slot layout holds would be a build.rs defect; they are
        // left out rather than corrupting the table.
        let ranks = ends.len().saturating_sub(1).min(RANK_MASK as usize - 1);
        for rank in 0..ranks {
            let token = &bytes[ends[rank] as usize..ends[rank + 1] as usize];
            if token.is_empty() {
                continue;
            }
            let (mut slot, tag) = place(token);
            while table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            table[slot] = tag | (rank as u32 + 1);
            len += 1;
        }
        Vocab {
            bytes,
            ends,
            table,
            len,
        }
    }

    fn token(&self, rank: Rank) -> &[u8] {
        let r = rank as usize;
        match (self.ends.get(r), self.ends.get(r + 1)) {
            (Some(&a), Some(&b)) => &self.bytes[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The rank of the token whose bytes are exactly `bytes`.
    #[inline]
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        let mask = self.table.len() - 1;
        let (mut slot, tag) = place(bytes);
        loop {
            let s = self.table[slot];
            if s == 0 {
                return None;
            }
            if s & !RANK_MASK == tag {
                let rank = (s & RANK_MASK) - 1;
                if self.token(rank) == bytes {
                    return Some(rank);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The bytes of token `rank` (`None` for a rank o200k_base does not have).
    pub(crate) fn bytes(&self, rank: Rank) -> Option<&[u8]> {
        Some(self.token(rank)).filter(|b| !b.is_empty())
    }

    /// Number of ordinary tokens.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// Every token's bytes back to back in rank order, and where each ends (`ends[0]` = 0),
/// from the merge layout `build.rs` writes: a merged token is the copy of its two
/// parts, which precede it. Truncated or inconsistent data gives fewer or empty tokens,
/// never a panic (the data is this crate's own, and build.rs and every test run check
/// that it rebuilds o200k_base exactly).
fn layout(blob: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let n = blob
        .get(..4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let kinds = blob.get(4..4 + n).unwrap_or(&[]);
    let count = |k: u8| kinds.iter().filter(|&&x| x == k).count();
    let (singles_n, pairs_n, literals_n) = (count(1), count(2), count(3));
    let mut rest = blob.get(4 + n..).unwrap_or(&[]);
    let mut take = |len: usize| {
        let (head, tail) = rest.split_at(len.min(rest.len()));
        rest = tail;
        head
    };
    let singles = take(singles_n);
    let literal_lens = take(literals_n);
    let literal_bytes = take(literal_lens.iter().map(|&l| usize::from(l)).sum());
    let planes: [&[u8]; 6] = std::array::from_fn(|_| take(pairs_n));
    let rank = |p: &[&[u8]], i: usize| -> Option<usize> {
        let byte = |k: usize| {
            p.get(k)
                .and_then(|plane| plane.get(i))
                .map(|&b| usize::from(b))
        };
        Some(byte(0)? | byte(1)? << 8 | byte(2)? << 16)
    };
    let mut bytes: Vec<u8> = Vec::with_capacity(1 << 21);
    let mut ends: Vec<u32> = Vec::with_capacity(n + 1);
    ends.push(0);
    let (mut single, mut pair, mut literal, mut literal_at) = (0, 0, 0, 0);
    for (r, &kind) in kinds.iter().enumerate() {
        match kind {
            1 => {
                bytes.extend(singles.get(single));
                single += 1;
            }
            2 => {
                for part in [rank(&planes[..3], pair), rank(&planes[3..], pair)] {
                    // A part must precede the token (build.rs writes it so).
                    if let Some((&a, &b)) = part
                        .filter(|&p| p < r)
                        .and_then(|p| Some((ends.get(p)?, ends.get(p + 1)?)))
                    {
                        bytes.extend_from_within(a as usize..b as usize);
                    }
                }
                pair += 1;
            }
            3 => {
                let len = literal_lens.get(literal).map_or(0, |&l| usize::from(l));
                bytes.extend(
                    literal_bytes
                        .get(literal_at..literal_at + len)
                        .unwrap_or(&[]),
                );
                literal += 1;
                literal_at += len;
            }
            _ => {}
        }
        ends.push(bytes.len() as u32);
    }
    (bytes, ends)
}
