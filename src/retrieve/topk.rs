//! A bounded top-k collector over a binary heap: O(n log k) for n candidates, with
//! a constant-time rejection test for the common case (a score below the current k-th).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A candidate: its score and a tie-break key (smaller key wins a tie).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<K> {
    pub score: f32,
    pub key: K,
}

/// "Worse" entries compare greater, so the heap's top is the worst kept entry.
impl<K: Ord> Ord for Entry<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then_with(|| self.key.cmp(&other.key))
    }
}

impl<K: Ord> PartialOrd for Entry<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord> PartialEq for Entry<K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<K: Ord> Eq for Entry<K> {}

/// Keeps the `k` best entries seen: highest score, ties to the smallest key.
pub(crate) struct TopK<K> {
    k: usize,
    heap: BinaryHeap<Entry<K>>,
    /// The worst kept score once the heap is full, else -inf: anything strictly below
    /// it is rejected without touching the heap.
    floor: f32,
}

impl<K: Ord + Copy> TopK<K> {
    pub fn new(k: usize) -> Self {
        TopK {
            k,
            heap: BinaryHeap::with_capacity(k.min(1 << 16) + 1),
            floor: f32::NEG_INFINITY,
        }
    }

    /// Offers a candidate; `key` is only built when the score can make the cut.
    #[inline]
    pub fn offer(&mut self, score: f32, key: impl FnOnce() -> K) {
        if self.k == 0 || score < self.floor {
            return;
        }
        let entry = Entry { score, key: key() };
        if self.heap.len() < self.k {
            self.heap.push(entry);
        } else if let Some(mut worst) = self.heap.peek_mut()
            && entry < *worst
        {
            *worst = entry;
        }
        if self.heap.len() == self.k
            && let Some(worst) = self.heap.peek()
        {
            self.floor = worst.score;
        }
    }

    /// The kept entries, best first.
    pub fn into_sorted(self) -> Vec<Entry<K>> {
        self.heap.into_sorted_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_best_and_breaks_ties_by_key() {
        let mut t = TopK::new(3);
        for (s, k) in [(0.5, 4), (0.9, 9), (0.5, 1), (0.1, 0), (0.5, 2), (0.9, 3)] {
            t.offer(s, || k);
        }
        let got: Vec<_> = t.into_sorted().iter().map(|e| (e.score, e.key)).collect();
        assert_eq!(got, vec![(0.9, 3), (0.9, 9), (0.5, 1)]);
    }

    #[test]
    fn zero_k_keeps_nothing() {
        let mut t = TopK::<u32>::new(0);
        t.offer(1.0, || 1);
        assert!(t.into_sorted().is_empty());
    }
}
