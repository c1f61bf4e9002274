//! The per-document element budget, checked as a reader goes.
//!
//! The document model costs a few hundred bytes of memory per element (a paragraph, a
//! table cell, a run of text, an XML element of a part), whatever the bytes that
//! spelled it: 1 MB of `|1|1|1` is a million cells. So readers count what they create
//! and stop with [`ConvertError::TooManyElements`] once a document holds more
//! elements than its budget, before the model outgrows the machine (in wasm a failed
//! allocation is a trap that poisons the instance). The budget is
//! [`ELEMENTS_FLOOR`] plus one element per [`BYTES_PER_ELEMENT`] bytes of input, never
//! more than [`crate::Limits::max_elements`]. Real documents stay below it (a DOCX
//! part holds one XML element per 30-60 inflated bytes, counted against ten times the
//! compressed size; prose has one paragraph per few hundred bytes); the densest real
//! shape, a Markdown or HTML table of one- or two-character values, is refused past the
//! floor, and 1 MB of `# h` headings or `|1|1|` cells is refused in a few milliseconds
//! instead of growing the model to 400 times the input.
//!
//! One budget covers one [`super::read`] call, readers nested inside it included (the
//! HTML of a DOCX `w:altChunk`). It lives in a thread-local so that the many XML part
//! readers need no extra argument; it is reset when the outermost call ends.

use std::cell::Cell;

use crate::error::ConvertError;
use crate::options::Limits;

/// Elements every document may hold, however small its input.
pub const ELEMENTS_FLOOR: u64 = 100_000;

/// Input bytes per element of budget above the floor.
pub const BYTES_PER_ELEMENT: u64 = 8;

thread_local! {
    /// (elements used, limit, open scopes).
    static BUDGET: Cell<(u64, u64, u32)> = const { Cell::new((0, u64::MAX, 0)) };
}

/// An open budget; the outermost one resets the count when dropped.
pub(crate) struct Scope(());

/// Opens the budget of one document of `input_len` bytes (a nested call keeps the
/// outer budget).
pub(crate) fn begin(input_len: usize, limits: &Limits) -> Scope {
    BUDGET.with(|b| {
        let (used, limit, open) = b.get();
        if open == 0 {
            b.set((0, budget_for(input_len as u64, limits), 1));
        } else {
            b.set((used, limit, open + 1));
        }
    });
    Scope(())
}

impl Drop for Scope {
    fn drop(&mut self) {
        BUDGET.with(|b| {
            let (used, limit, open) = b.get();
            if open <= 1 {
                b.set((0, u64::MAX, 0));
            } else {
                b.set((used, limit, open - 1));
            }
        });
    }
}

/// The element budget of an input of `input_len` bytes.
pub fn budget_for(input_len: u64, limits: &Limits) -> u64 {
    (ELEMENTS_FLOOR + input_len / BYTES_PER_ELEMENT).min(limits.max_elements)
}

/// Counts `n` more elements.
///
/// # Errors
/// [`ConvertError::TooManyElements`] once the document is over its budget. Outside a
/// [`begin`] scope nothing is counted.
pub(crate) fn take(n: u64) -> Result<(), ConvertError> {
    BUDGET.with(|b| {
        let (used, limit, open) = b.get();
        if open == 0 {
            return Ok(());
        }
        let used = used.saturating_add(n);
        b.set((used, limit, open));
        if used > limit {
            Err(ConvertError::TooManyElements {
                what: "elements (paragraphs, table cells, runs, markup elements)".into(),
                limit,
            })
        } else {
            Ok(())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grows_with_the_input_up_to_the_cap() {
        let l = Limits::default();
        assert_eq!(budget_for(0, &l), ELEMENTS_FLOOR);
        assert_eq!(budget_for(8_000_000, &l), ELEMENTS_FLOOR + 1_000_000);
        assert_eq!(budget_for(u64::MAX / 2, &l), l.max_elements);
    }

    #[test]
    fn counting_stops_at_the_limit_and_resets_with_the_outer_scope() {
        let l = Limits {
            max_elements: 10,
            ..Limits::default()
        };
        {
            let _outer = begin(0, &l);
            assert!(take(6).is_ok());
            {
                let _inner = begin(1 << 30, &l);
                assert!(take(4).is_ok());
            }
            let e = take(1).unwrap_err();
            assert_eq!(e.code(), "too-large");
            assert!(e.to_string().contains("10"), "{e}");
        }
        // No scope: nothing counted.
        assert!(take(1_000).is_ok());
        let _again = begin(0, &l);
        assert!(take(10).is_ok());
    }
}
