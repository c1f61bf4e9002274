//! Document ids interned as small integers, shared by both indexes.
//!
//! The hot loops compare `u32`s; names only matter for restriction to a set of
//! documents and for breaking score ties in `(doc, seq)` order.

use std::collections::HashMap;

use super::RetrieveError;

/// Document names <-> dense `u32` ids, in first-seen order.
#[derive(Debug, Clone, Default)]
pub(crate) struct DocTable {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl DocTable {
    /// The id of `name`, adding it when new.
    pub fn intern(&mut self, name: &str) -> Result<u32, RetrieveError> {
        if let Some(&id) = self.ids.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.names.len()).map_err(|_| RetrieveError::Full)?;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        Ok(id)
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", String::as_str)
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Each id's position in byte-wise name order, so ties break by name without
    /// comparing strings in the scan.
    pub fn ranks(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.names.len() as u32).collect();
        crate::order::sort_by(&mut order, |&a, &b| {
            self.names[a as usize].cmp(&self.names[b as usize])
        });
        let mut rank = vec![0u32; order.len()];
        for (r, &id) in order.iter().enumerate() {
            rank[id as usize] = r as u32;
        }
        rank
    }

    /// A per-id mask: `true` for ids whose name is in `allowed` (names not in the
    /// table are ignored). `None` (no restriction) stays `None`.
    pub fn mask<S: AsRef<str>>(&self, allowed: Option<&[S]>) -> Option<Vec<bool>> {
        let allowed = allowed?;
        let mut mask = vec![false; self.names.len()];
        for name in allowed {
            if let Some(id) = self.get(name.as_ref()) {
                mask[id as usize] = true;
            }
        }
        Some(mask)
    }
}
