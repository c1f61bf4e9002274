//! The work a PDF may ask of the interpreter, bounded: a small file can hold a Flate
//! stream that inflates a thousandfold, forms that draw each other over and over
//! (each level multiplying the operators run), or a page tree of millions of pages,
//! and none may cost more memory or time than the limits allow. The budget lives in hayro-syntax (our patch,
//! `vendor/README.md`): decoders and the interpreter draw from it and stop once it
//! is spent; [`Work::check`] turns a spent budget into a typed error.

use hayro_syntax::budget::{self, Spent};

use crate::error::ConvertError;
use crate::options::Limits;

/// Total bytes all of a PDF's streams may decode to, in multiples of
/// [`Limits::max_inflated_bytes`] (which bounds any one stream): fonts and content
/// streams of a long document come to many times one stream, and decoded pages stay
/// cached while the file is read, so four times 128 MiB is what memory can hold.
const TOTAL_STREAMS: u64 = 4;

/// Content-stream operators a PDF may run, in multiples of
/// [`Limits::max_elements`] (16 million by default, a few seconds of work): a page's
/// operators are mostly not text (paths, colours, state), and every glyph shown counts
/// as one, a form drawn (`Do`) as sixteen (`vendor/hayro-interpret.patch`).
const OPERATORS_PER_ELEMENT: u64 = 8;

/// This thread's work budget while a PDF is read; removed when dropped.
pub(super) struct Work {
    stream: u64,
    total: u64,
    operators: u64,
    pages: u64,
}

impl Work {
    /// Sets the budget from `limits`.
    pub(super) fn begin(limits: &Limits) -> Work {
        let w = Work {
            stream: limits.max_inflated_bytes,
            total: limits.max_inflated_bytes.saturating_mul(TOTAL_STREAMS),
            operators: limits.max_elements.saturating_mul(OPERATORS_PER_ELEMENT),
            // One past the limit: a tree of exactly `max_pages` pages is read.
            pages: limits.max_pages.saturating_add(1),
        };
        budget::begin(w.stream, w.total, w.operators, w.pages);
        w
    }

    /// The typed error for a spent budget, if one is.
    ///
    /// # Errors
    /// [`ConvertError::TooLarge`] when a stream, or all streams together, decoded past
    /// their bytes; [`ConvertError::TooManyElements`] past the operators.
    pub(super) fn check(&self) -> Result<(), ConvertError> {
        match budget::exhausted() {
            None => Ok(()),
            Some(Spent::StreamBytes) => Err(ConvertError::TooLarge {
                what: "a PDF stream, decompressed (a likely decompression bomb)".into(),
                actual: self.stream.saturating_add(1),
                limit: self.stream,
            }),
            Some(Spent::TotalBytes) => Err(ConvertError::TooLarge {
                what: "the PDF's streams, decompressed together".into(),
                actual: self.total.saturating_add(1),
                limit: self.total,
            }),
            Some(Spent::Operators) => Err(ConvertError::TooManyElements {
                what: "content-stream operators".into(),
                limit: self.operators,
            }),
            Some(Spent::Pages) => Err(ConvertError::TooManyElements {
                what: "pages".into(),
                limit: self.pages - 1,
            }),
        }
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        budget::end();
    }
}
