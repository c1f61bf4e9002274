//! [`Expansion`]: the state of one query on one document — the anchor set (what
//! retrieval found, or what [`Expansion::anchor_expanded`] adopted) and the expanded
//! set (anchors plus everything added so far).
//!
//! Methods work from the anchor set, so chaining them does not compound; each
//! returns the cumulative enrichment tokens: the tokens of expanded chunks that were
//! not retrieved. Completions live in `complete.rs`, additions in `add.rs`.

use std::ops::Deref;

use super::enricher::Enricher;
use super::error::EnrichError;

/// One query's expansion over one document's [`Enricher`]. `E` is how the engine is
/// held: `&Enricher` natively (see [`Enricher::expand`]), or a shared pointer such as
/// `Rc<Enricher>` / `Arc<Enricher>` when the expansion must own it.
///
/// ```
/// use docrag::{convert, ConvertOptions, enrich::Enricher};
/// let text = "# A\n\nOne.\n\n# B\n\nTwo.";
/// let out = convert(text.as_bytes(), &ConvertOptions::new())?;
/// let records: Vec<_> = out.chunks.iter().map(|c| c.metadata.clone()).collect();
/// let enricher = Enricher::new(&records)?;
/// let mut exp = enricher.expand(&[0])?;
/// let added = exp.complete_tables();
/// assert_eq!(added, 0);
/// assert_eq!(exp.expanded(), vec![0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Expansion<E: Deref<Target = Enricher>> {
    pub(crate) enricher: E,
    /// The working anchors, ascending, unique.
    pub(crate) anchors: Vec<u32>,
    pub(crate) set: Selection,
}

/// The expanded set and its token accounting.
#[derive(Debug, Clone)]
pub(crate) struct Selection {
    /// Membership, by sequence number.
    in_set: Vec<bool>,
    /// Tokens of the expanded set.
    tokens: u64,
    /// Tokens of the retrieved set (enrichment is counted against it).
    retrieved_tokens: u64,
    /// Chunks marked by a pending unit (reused across calls).
    scratch: Vec<u32>,
}

impl Selection {
    pub(crate) fn enrichment(&self) -> u64 {
        self.tokens - self.retrieved_tokens
    }

    pub(crate) fn contains(&self, seq: u32) -> bool {
        self.in_set.get(seq as usize).copied().unwrap_or(false)
    }

    /// Adds one chunk, ignoring any budget (completions). Returns whether it was new.
    pub(crate) fn add(&mut self, e: &Enricher, seq: u32) -> bool {
        match self.in_set.get_mut(seq as usize) {
            Some(slot) if !*slot => {
                *slot = true;
                self.tokens += e.tokens_of(seq);
                true
            }
            _ => false,
        }
    }

    /// Adds a unit of chunks (one page, one table, ...) only if the enrichment stays
    /// within `budget` tokens with all of it; otherwise adds nothing. Returns whether
    /// it fitted (a unit with nothing new fits).
    pub(crate) fn try_add(
        &mut self,
        e: &Enricher,
        seqs: impl IntoIterator<Item = u32>,
        budget: u64,
    ) -> bool {
        self.scratch.clear();
        let mut cost = 0;
        for seq in seqs {
            if let Some(slot) = self.in_set.get_mut(seq as usize)
                && !*slot
            {
                *slot = true;
                self.scratch.push(seq);
                cost += e.tokens_of(seq);
            }
        }
        if self.enrichment() + cost <= budget {
            self.tokens += cost;
            return true;
        }
        for &seq in &self.scratch {
            if let Some(slot) = self.in_set.get_mut(seq as usize) {
                *slot = false;
            }
        }
        false
    }

    pub(crate) fn members(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, &on) in self.in_set.iter().enumerate() {
            if on {
                out.push(u32::try_from(i).unwrap_or(u32::MAX));
            }
        }
        out
    }
}

impl Enricher {
    /// Starts an expansion from the retrieved sequence numbers (any order, repeats
    /// ignored), borrowing this engine.
    ///
    /// # Errors
    /// [`EnrichError::AnchorOutOfRange`] for a negative number or one not below
    /// [`Enricher::chunk_count`].
    pub fn expand(&self, anchors: &[i64]) -> Result<Expansion<&Enricher>, EnrichError> {
        Expansion::new(self, anchors)
    }
}

impl<E: Deref<Target = Enricher>> Expansion<E> {
    /// Starts an expansion over `enricher` from the retrieved sequence numbers.
    ///
    /// # Errors
    /// [`EnrichError::AnchorOutOfRange`] for a negative number or one not below the
    /// chunk count.
    pub fn new(enricher: E, anchors: &[i64]) -> Result<Self, EnrichError> {
        let n = enricher.chunk_count();
        let mut in_set = vec![false; n];
        let mut list = Vec::with_capacity(anchors.len());
        let mut tokens = 0;
        for &a in anchors {
            let Some(seq) = usize::try_from(a).ok().filter(|&s| s < n) else {
                return Err(EnrichError::AnchorOutOfRange { seq: a, count: n });
            };
            if !in_set[seq] {
                in_set[seq] = true;
                let seq = u32::try_from(seq).unwrap_or(u32::MAX);
                list.push(seq);
                tokens += enricher.tokens_of(seq);
            }
        }
        crate::order::sort(&mut list);
        Ok(Expansion {
            enricher,
            anchors: list,
            set: Selection {
                in_set,
                tokens,
                retrieved_tokens: tokens,
                scratch: Vec::new(),
            },
        })
    }

    /// The engine this expansion reads.
    pub fn enricher(&self) -> &Enricher {
        &self.enricher
    }

    /// The expanded set (anchors and every chunk added so far), ascending sequence
    /// numbers (document order).
    pub fn expanded(&self) -> Vec<u32> {
        self.set.members()
    }

    /// The current anchor set, ascending.
    pub fn anchors(&self) -> &[u32] {
        &self.anchors
    }

    /// Whether chunk `seq` is in the expanded set.
    pub fn contains(&self, seq: u32) -> bool {
        self.set.contains(seq)
    }

    /// Tokens of the expanded set, retrieved chunks included (o200k_base tokens).
    pub fn token_count(&self) -> u64 {
        self.set.tokens
    }

    /// Tokens of the retrieved chunks alone (o200k_base tokens).
    pub fn retrieved_tokens(&self) -> u64 {
        self.set.retrieved_tokens
    }

    /// Tokens of the chunks added to the retrieved set (what every expansion method
    /// returns); re-anchoring does not reset it.
    pub fn enrichment_tokens(&self) -> u64 {
        self.set.enrichment()
    }

    /// Makes the expanded set the anchor set, so that the next methods work from
    /// everything selected so far (the one way to compound). Enrichment tokens still
    /// count from the originally retrieved chunks.
    pub fn anchor_expanded(&mut self) {
        self.anchors = self.set.members();
    }
}
