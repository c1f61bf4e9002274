//! Sorting through one compiled copy of std's stable sort.
//!
//! Each `slice::sort_by` call with its own element type or closure compiles std's
//! driftsort anew (small-sort networks, partition, merge: 2-8 KB of wasm each). The
//! crate's 44 sort calls made 249 KB, 11% of the package's code (measured with
//! `twiggy top` on the wasm build). These helpers sort a permutation of indices with
//! one comparator type, so the sort is compiled once, then move the elements into
//! place. The order is std's stable order (equal elements keep their positions); the
//! cost is one indirect call per comparison and `n` words of scratch, which no sort in
//! this crate notices (none is in a per-byte loop).

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stable (like `slice::sort_by`).
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let perm = permutation(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    apply(v, perm);
}

/// Sorts `v` by the key `key` extracts, stable (like `slice::sort_by_key`).
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` ascending, stable (like `slice::sort`; also stands in for
/// `sort_unstable`, whose order for equal elements is any order).
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The indices `0..n` in the order `cmp` gives them (stable). Not generic: std's sort
/// is instantiated here alone.
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..n).collect();
    perm.sort_by(|&a, &b| cmp(a, b));
    perm
}

/// Rearranges `v` so that `v[i]` becomes the old `v[perm[i]]`, following each cycle of
/// the permutation with swaps. `perm` must be a permutation of `0..v.len()`.
fn apply<T>(v: &mut [T], mut perm: Vec<usize>) {
    for start in 0..v.len() {
        let mut cur = start;
        // A visited position points at itself.
        while perm[cur] != cur {
            let next = perm[cur];
            perm[cur] = cur;
            if next == start {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_stable_sort() {
        // Pairs sorted by the first field only: equal keys keep their input order.
        let mut seed = 0x9e37_79b9_u32;
        for n in [0usize, 1, 2, 3, 7, 31, 100, 1000] {
            let v: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    (seed % 17, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by_key(&mut ours, |p| p.0);
            let mut theirs = v.clone();
            theirs.sort_by_key(|p| p.0);
            assert_eq!(ours, theirs, "n = {n}");
        }
        let mut words = vec!["pear", "apple", "fig", "apple"];
        sort(&mut words);
        assert_eq!(words, ["apple", "apple", "fig", "pear"]);
        let mut desc = vec![3.5f64, -1.0, 9.25, 0.0];
        sort_by(&mut desc, |a, b| b.total_cmp(a));
        assert_eq!(desc, [9.25, 3.5, 0.0, -1.0]);
    }
}
