//! A compact list of lists (compressed sparse rows): row `i` is a slice of `u32`.
//! The engine's indexes (chunk -> tables, table -> chunks, page -> chunks, author ->
//! chunks) are all of this shape, so a lookup is one slice with no allocation.

/// Rows of `u32` stored back to back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Csr {
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Csr {
    /// Builds from one `Vec` per row.
    pub(crate) fn from_rows<R: AsRef<[u32]>>(rows: &[R]) -> Self {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        let mut items = Vec::with_capacity(rows.iter().map(|r| r.as_ref().len()).sum());
        offsets.push(0);
        for r in rows {
            items.extend_from_slice(r.as_ref());
            offsets.push(u32::try_from(items.len()).unwrap_or(u32::MAX));
        }
        Csr { offsets, items }
    }

    /// Row `i` (empty when out of range).
    pub(crate) fn row(&self, i: usize) -> &[u32] {
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Number of rows.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let c = Csr::from_rows(&[vec![1, 2], vec![], vec![7]]);
        assert_eq!(c.len(), 3);
        assert_eq!(c.row(0), &[1, 2]);
        assert_eq!(c.row(1), &[] as &[u32]);
        assert_eq!(c.row(2), &[7]);
        assert_eq!(c.row(3), &[] as &[u32]);
    }
}
