//! The o200k_base vocabulary: token bytes -> rank, rank -> bytes.
//!
//! The data is `build.rs`'s `o200k_vocab.bin` (a header byte per rank, then the tokens'
//! bytes in three streams, leading spaces left out), embedded in the binary. The first use
//! lays the tokens out back to back (1.6 MB) and indexes them in one pass over the
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
/// from the layout `build.rs` writes. Truncated data gives fewer or shorter tokens,
/// never a panic (the data is this crate's own and checked by every test run).
fn layout(blob: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let n = blob
        .get(..4)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let heads = blob.get(4..4 + n).unwrap_or(&[]);
    let mut rest = blob.get(4 + n..).unwrap_or(&[]);
    // Pass 1: each rank's stored length, and the size of each stream.
    let long_count = heads.iter().filter(|&&h| h & 0x1f == 31).count();
    let (long, after) = rest.split_at(long_count.min(rest.len()));
    rest = after;
    let stored = |h: u8, long: &mut std::slice::Iter<u8>| match h & 0x1f {
        31 => long.next().copied().unwrap_or(0) as usize,
        l => l as usize,
    };
    let mut sizes = [0usize; 3];
    let mut longs = long.iter();
    for &h in heads {
        let len = stored(h, &mut longs);
        let stream = ((h >> 5) & 3) as usize;
        if stream > 0 {
            sizes[stream - 1] += len;
        }
    }
    let mut streams: [&[u8]; 3] = [&[]; 3];
    for (s, size) in streams.iter_mut().zip(sizes) {
        let (head, tail) = rest.split_at(size.min(rest.len()));
        *s = head;
        rest = tail;
    }
    // Pass 2: the tokens, spaces restored.
    let spaces = heads.iter().filter(|&&h| h & 0x80 != 0).count();
    let mut bytes = Vec::with_capacity(sizes.iter().sum::<usize>() + spaces);
    let mut ends = Vec::with_capacity(n + 1);
    ends.push(0);
    let mut longs = long.iter();
    for &h in heads {
        let len = stored(h, &mut longs);
        let stream = ((h >> 5) & 3) as usize;
        if stream > 0 {
            if h & 0x80 != 0 {
                bytes.push(b' ');
            }
            let s = &mut streams[stream - 1];
            let (token, tail) = s.split_at(len.min(s.len()));
            bytes.extend_from_slice(token);
            *s = tail;
        }
        ends.push(bytes.len() as u32);
    }
    (bytes, ends)
}
