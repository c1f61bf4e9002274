//! Row storage for [`super::VectorIndex`]: `f32` rows of one dimension in fixed-size
//! blocks of about [`BLOCK_BYTES`].
//!
//! A single growing `Vec<f32>` doubles its capacity and copies itself on the way, so
//! adding n vectors peaks near 3x their bytes (old buffer + new buffer), and wasm
//! memory never shrinks back. Blocks are allocated at their final size and never
//! move: the peak is the vectors plus at most one partly filled block.

/// Target size of one block in bytes (at least one row per block).
pub(crate) const BLOCK_BYTES: usize = 1 << 20;

#[derive(Debug, Clone)]
pub(crate) struct Blocks {
    dim: usize,
    rows_per_block: usize,
    blocks: Vec<Vec<f32>>,
    len: usize,
}

impl Blocks {
    /// Empty storage for rows of `dim` components (`dim` > 0).
    pub(crate) fn new(dim: usize) -> Blocks {
        Blocks {
            dim,
            rows_per_block: (BLOCK_BYTES / dim.saturating_mul(4).max(1)).max(1),
            blocks: Vec::new(),
            len: 0,
        }
    }

    /// Number of rows.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends one row of exactly `dim` components.
    pub(crate) fn push(&mut self, row: &[f32]) {
        debug_assert_eq!(row.len(), self.dim);
        if self.len % self.rows_per_block == 0 {
            self.blocks
                .push(Vec::with_capacity(self.rows_per_block * self.dim));
        }
        if let Some(last) = self.blocks.last_mut() {
            last.extend_from_slice(row);
            self.len += 1;
        }
    }

    fn at(&self, row: usize) -> (usize, usize) {
        (
            row / self.rows_per_block,
            (row % self.rows_per_block) * self.dim,
        )
    }

    /// Row `row` (< `len`).
    #[cfg(test)]
    pub(crate) fn row(&self, row: usize) -> &[f32] {
        let (b, at) = self.at(row);
        &self.blocks[b][at..at + self.dim]
    }

    /// Copies row `from` over row `to` (both < `len`).
    pub(crate) fn copy_row(&mut self, from: usize, to: usize) {
        let ((bf, af), (bt, at)) = (self.at(from), self.at(to));
        let dim = self.dim;
        if bf == bt {
            self.blocks[bf].copy_within(af..af + dim, at);
        } else {
            let (lo, hi) = self.blocks.split_at_mut(bf.max(bt));
            let (src, dst) = if bf < bt {
                (&lo[bf][af..af + dim], &mut hi[0][at..at + dim])
            } else {
                (&hi[0][af..af + dim], &mut lo[bt][at..at + dim])
            };
            dst.copy_from_slice(src);
        }
    }

    /// Keeps the first `n` rows and frees the blocks no longer needed.
    pub(crate) fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        let keep_blocks = n.div_ceil(self.rows_per_block);
        self.blocks.truncate(keep_blocks);
        if let Some(last) = self.blocks.last_mut() {
            let rows_in_last = n - (keep_blocks - 1) * self.rows_per_block;
            last.truncate(rows_in_last * self.dim);
        }
        self.len = n;
    }

    /// Calls `f(i, row)` for every row in order, as two plain nested loops.
    #[inline]
    pub(crate) fn for_each_row(&self, mut f: impl FnMut(usize, &[f32])) {
        let mut i = 0;
        for block in &self.blocks {
            for row in block.chunks_exact(self.dim) {
                f(i, row);
                i += 1;
            }
        }
    }

    /// Bytes of `f32` components allocated (capacity, not just length).
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.capacity() * 4).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_survive_block_edges_moves_and_truncation() {
        let dim = 100_000; // 400 KB rows: two rows a block
        let mut b = Blocks::new(dim);
        for i in 0..5 {
            b.push(&vec![i as f32; dim]);
        }
        assert_eq!(b.rows_per_block, 2);
        assert_eq!(b.blocks.len(), 3);
        assert_eq!(b.row(4)[dim - 1], 4.0);
        b.copy_row(4, 1); // across blocks
        b.copy_row(3, 2); // within one block
        assert_eq!(b.row(1)[0], 4.0);
        assert_eq!(b.row(2)[7], 3.0);
        b.truncate(3);
        assert_eq!(b.len(), 3);
        assert_eq!(b.blocks.len(), 2);
        let mut firsts = Vec::new();
        b.for_each_row(|_, r| firsts.push(r[0]));
        assert_eq!(firsts, vec![0.0, 4.0, 3.0]);
        // Three rows of 400 KB in two blocks of 800 KB: never more than one block spare.
        assert_eq!(b.allocated_bytes(), 4 * 4 * dim);
        b.push(&vec![9.0; dim]);
        assert_eq!(b.row(3)[0], 9.0);
        assert_eq!(b.blocks.len(), 2);
    }
}
