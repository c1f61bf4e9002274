//! The o200k_base vocabulary: token bytes -> rank, rank -> bytes.
//!
//! The data is `build.rs`'s `o200k_vocab.bin` (a header byte per rank, then the tokens'
//! bytes with their leading spaces left out), embedded in the binary. The first use
//! lays the tokens out back to back (1.6 MB) and indexes them in a hash table of ranks
//! (4 bytes a slot, keys compared in place), one pass over 199,998 tokens.

use std::hash::BuildHasher;
use std::sync::OnceLock;

use hashbrown::HashTable;
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
    table: HashTable<Rank>,
}

fn hash(bytes: &[u8]) -> u64 {
    FxBuildHasher.hash_one(bytes)
}

impl Vocab {
    /// The shared table, built on first use.
    pub(crate) fn get() -> &'static Vocab {
        static VOCAB: OnceLock<Vocab> = OnceLock::new();
        VOCAB.get_or_init(Vocab::build)
    }

    fn build() -> Vocab {
        let n = BLOB
            .get(..4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        let heads = BLOB.get(4..4 + n).unwrap_or(&[]);
        let mut stream = BLOB.get(4 + n..).unwrap_or(&[]);
        let spaces = heads.iter().filter(|&&h| h & 0x80 != 0).count();
        let mut bytes = Vec::with_capacity(stream.len() + spaces);
        let mut ends = Vec::with_capacity(n + 1);
        ends.push(0);
        for &h in heads {
            if h & 0x80 != 0 {
                bytes.push(b' ');
            }
            let len = ((h & 0x7f) as usize).min(stream.len());
            bytes.extend_from_slice(&stream[..len]);
            stream = &stream[len..];
            ends.push(bytes.len() as u32);
        }
        let mut table = HashTable::with_capacity(n);
        for (rank, w) in ends.windows(2).enumerate() {
            let token = &bytes[w[0] as usize..w[1] as usize];
            if !token.is_empty() {
                table.insert_unique(hash(token), rank as Rank, |&r| {
                    let r = r as usize;
                    hash(&bytes[ends[r] as usize..ends[r + 1] as usize])
                });
            }
        }
        Vocab { bytes, ends, table }
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
        self.table
            .find(hash(bytes), |&r| self.token(r) == bytes)
            .copied()
    }

    /// The bytes of token `rank` (`None` for a rank o200k_base does not have).
    pub(crate) fn bytes(&self, rank: Rank) -> Option<&[u8]> {
        Some(self.token(rank)).filter(|b| !b.is_empty())
    }

    /// Number of ordinary tokens.
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }
}
