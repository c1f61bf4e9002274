//! Revision marks (RTF 1.9.1, "Revision Marks"): `\revised` (inserted) and `\deleted`
//! text carry `\revauthN` / `\revauthdelN`, indexes into the `\*\revtbl` author table
//! (0-based, entries separated by `;`), and `\revdttmN` / `\revdttmdelN`, a packed
//! date-time (DTTM: minutes in bits 0-5, hours 6-10, day 11-15, month 16-19,
//! years since 1900 20-28). Text that is both inserted and deleted is shown deleted.

use crate::model::RevisionKind;

use super::inlines::Rev;
use super::state::RevProps;

/// The author table.
#[derive(Debug, Default)]
pub(crate) struct RevTable {
    authors: Vec<String>,
}

impl RevTable {
    /// Sets the table from the captured `\*\revtbl` text.
    pub(crate) fn set(&mut self, text: &str) {
        self.authors = text.split(';').map(|a| a.trim().to_string()).collect();
        if self.authors.last().is_some_and(String::is_empty) {
            self.authors.pop();
        }
    }

    fn author(&self, i: Option<i32>) -> Option<String> {
        let i = usize::try_from(i?).ok()?;
        self.authors.get(i).filter(|a| !a.is_empty()).cloned()
    }

    /// The tracked change of text with these properties, if any.
    pub(crate) fn resolve(&self, p: &RevProps) -> Option<Rev> {
        if p.deleted {
            Some(Rev {
                kind: RevisionKind::Deletion,
                author: self.author(p.author_del.or(p.author)),
                date: p.date_del.or(p.date).and_then(dttm),
            })
        } else if p.inserted {
            Some(Rev {
                kind: RevisionKind::Insertion,
                author: self.author(p.author),
                date: p.date.and_then(dttm),
            })
        } else {
            None
        }
    }
}

/// A packed DTTM as ISO 8601 (`YYYY-MM-DDTHH:MM`), `None` when zero or impossible.
pub(crate) fn dttm(v: i32) -> Option<String> {
    let v = v as u32;
    let min = v & 0x3f;
    let hr = (v >> 6) & 0x1f;
    let dy = (v >> 11) & 0x1f;
    let mo = (v >> 16) & 0xf;
    let yr = 1900 + ((v >> 20) & 0x1ff);
    let ok = (1..=12).contains(&mo) && (1..=31).contains(&dy) && hr < 24 && min < 60;
    ok.then(|| format!("{yr:04}-{mo:02}-{dy:02}T{hr:02}:{min:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dttm_unpacks() {
        // 2006-03-15 14:30
        let v = (106 << 20) | (3 << 16) | (15 << 11) | (14 << 6) | 30;
        assert_eq!(dttm(v).as_deref(), Some("2006-03-15T14:30"));
        assert_eq!(dttm(0), None);
    }

    #[test]
    fn authors_by_index() {
        let mut t = RevTable::default();
        t.set("Unknown;Jane Roe;");
        let p = RevProps {
            inserted: true,
            author: Some(1),
            ..RevProps::default()
        };
        let r = t.resolve(&p);
        assert_eq!(r.and_then(|r| r.author).as_deref(), Some("Jane Roe"));
    }
}
