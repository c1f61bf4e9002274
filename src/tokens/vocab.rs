//! The o200k_base vocabulary: token bytes -> rank.
//!
//! The data is `build.rs`'s `o200k_vocab.bin` (rank order, one length byte then the
//! token's bytes), embedded in the binary and never copied: the lookup table built on
//! first use maps borrowed slices of it to ranks. Building it is one pass of 199,998
//! inserts into a map sized up front (no rehash, no owned keys).

use std::collections::HashMap;
use std::sync::OnceLock;

use rustc_hash::FxBuildHasher;

/// A token's rank, which is also its id in o200k_base.
pub type Rank = u32;

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_vocab.bin"));

/// The ordinary tokens of o200k_base (special tokens such as `<|endoftext|>` are not in
/// it: documents are counted as ordinary text).
pub(crate) struct Vocab {
    ranks: HashMap<&'static [u8], Rank, FxBuildHasher>,
    /// The bytes of each rank (empty where o200k_base has no ordinary token).
    tokens: Vec<&'static [u8]>,
}

impl Vocab {
    /// The shared table, built on first use.
    pub(crate) fn get() -> &'static Vocab {
        static VOCAB: OnceLock<Vocab> = OnceLock::new();
        VOCAB.get_or_init(Vocab::build)
    }

    fn build() -> Vocab {
        let mut tokens = Vec::with_capacity(200_000);
        let mut at = 0;
        while let Some(&len) = BLOB.get(at) {
            let end = (at + 1 + len as usize).min(BLOB.len());
            tokens.push(&BLOB[at + 1..end]);
            at = end;
        }
        let mut ranks = HashMap::with_capacity_and_hasher(tokens.len(), FxBuildHasher);
        for (rank, bytes) in tokens.iter().enumerate() {
            if !bytes.is_empty() {
                ranks.insert(*bytes, rank as Rank);
            }
        }
        Vocab { ranks, tokens }
    }

    /// The rank of the token whose bytes are exactly `bytes`.
    #[inline]
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<Rank> {
        self.ranks.get(bytes).copied()
    }

    /// The bytes of token `rank` (`None` for a rank o200k_base does not have).
    pub(crate) fn bytes(&self, rank: Rank) -> Option<&'static [u8]> {
        self.tokens
            .get(rank as usize)
            .copied()
            .filter(|b| !b.is_empty())
    }

    /// Number of ordinary tokens.
    pub(crate) fn len(&self) -> usize {
        self.ranks.len()
    }
}
