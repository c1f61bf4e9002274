//! Work budgets for untrusted files (added for docrag; not in the published crate).
//!
//! A small file can ask for unbounded work: a Flate or LZW stream that inflates a
//! thousandfold (a "decompression bomb"), or form XObjects that draw each other many
//! times over (each level multiplying the operators run). The caller sets a budget on
//! this thread before reading a file; decoders and the interpreter draw from it, and
//! stop (a stream decodes to nothing, an interpretation ends) once it is spent. The
//! caller then asks [`exhausted`] which budget ran out and reports it.
//!
//! With no budget set, nothing is limited (the published crate's behaviour).

use core::cell::Cell;

/// What a budget limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// Bytes one stream decodes to.
    StreamBytes,
    /// Bytes all streams decode to, together.
    TotalBytes,
    /// Content-stream operators interpreted.
    Operators,
    /// Pages in the page tree.
    Pages,
}

#[derive(Clone, Copy)]
struct State {
    stream_bytes: u64,
    total_left: u64,
    ops_left: u64,
    pages: u64,
    spent: Option<Spent>,
}

std::thread_local! {
    static STATE: Cell<Option<State>> = const { Cell::new(None) };
}

/// Sets this thread's budget: at most `stream_bytes` decoded from any one stream,
/// `total_bytes` decoded from all streams, `operators` content-stream operators
/// interpreted, and `pages` pages read from the page tree. Replaces any budget set
/// before.
pub fn begin(stream_bytes: u64, total_bytes: u64, operators: u64, pages: u64) {
    STATE.with(|s| {
        s.set(Some(State {
            stream_bytes,
            total_left: total_bytes,
            ops_left: operators,
            pages,
            spent: None,
        }))
    });
}

/// Whether one more page may join the `count` the page tree has given: false (and
/// the budget spent) past the budget's pages. A page tree can list millions of pages
/// in a few kilobytes, each a dictionary in memory before any limit is checked.
pub(crate) fn page(count: usize) -> bool {
    STATE.with(|s| {
        let Some(mut st) = s.get() else {
            return true;
        };
        if count as u64 >= st.pages {
            st.spent.get_or_insert(Spent::Pages);
            s.set(Some(st));
            return false;
        }
        true
    })
}

/// Removes this thread's budget.
pub fn end() {
    STATE.with(|s| s.set(None));
}

/// Which budget ran out first, if one did.
pub fn exhausted() -> Option<Spent> {
    STATE.with(|s| s.get().and_then(|st| st.spent))
}

/// The most bytes the next stream may decode to (`u64::MAX` with no budget, 0 once a
/// budget is spent).
pub(crate) fn stream_allowance() -> u64 {
    STATE.with(|s| match s.get() {
        None => u64::MAX,
        Some(st) if st.spent.is_some() => 0,
        Some(st) => st.stream_bytes.min(st.total_left),
    })
}

/// Records that a stream decoded to `len` bytes; false (and the budget spent) when
/// that is more than [`stream_allowance`] allowed.
pub(crate) fn decoded(len: u64) -> bool {
    STATE.with(|s| {
        let Some(mut st) = s.get() else {
            return true;
        };
        if st.spent.is_some() {
            return false;
        }
        if len > st.stream_bytes {
            st.spent = Some(Spent::StreamBytes);
        } else if len > st.total_left {
            st.spent = Some(Spent::TotalBytes);
        } else {
            st.total_left -= len;
        }
        s.set(Some(st));
        st.spent.is_none()
    })
}

/// Draws one operator; false (and the budget spent) when none is left.
pub fn operator() -> bool {
    operators(1)
}

/// Draws `n` operators' worth (a costlier operator weighs more than one); false (and
/// the budget spent) when fewer are left.
pub fn operators(n: u64) -> bool {
    STATE.with(|s| {
        let Some(mut st) = s.get() else {
            return true;
        };
        if st.spent.is_some() {
            return false;
        }
        if st.ops_left < n {
            st.spent = Some(Spent::Operators);
            s.set(Some(st));
            return false;
        }
        st.ops_left -= n;
        s.set(Some(st));
        true
    })
}
