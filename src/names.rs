//! The per-chunk names hook: persons, organizations, places and important terms.
//!
//! The chunker calls a [`NameFinder`] once per chunk with the chunk's plain text and
//! stores what it returns in the chunk's metadata record (lists joined by `"; "`).
//! Natively it is a Rust trait object; the wasm layer wraps a JS callback in a type
//! that implements it. [`SimpleNameFinder`] is the built-in default.

/// Names found in one chunk. Any list may be empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Person names.
    pub persons: Vec<String>,
    /// Organization names.
    pub organizations: Vec<String>,
    /// Place names.
    pub places: Vec<String>,
    /// Important terms.
    pub terms: Vec<String>,
}

/// Finds names in a chunk's plain text.
pub trait NameFinder {
    /// Names in `text` (the chunk's plain text, without Markdown markup).
    fn find(&self, text: &str) -> Names;
}

impl<T: NameFinder + ?Sized> NameFinder for &T {
    fn find(&self, text: &str) -> Names {
        (**self).find(text)
    }
}

impl<T: NameFinder + ?Sized> NameFinder for Box<T> {
    fn find(&self, text: &str) -> Names {
        (**self).find(text)
    }
}

/// The built-in finder (see `names_simple.rs`): honorific + capitalized words for
/// persons, corporate suffixes for organizations, caller-supplied lists of places and
/// terms matched as whole words.
pub use crate::names_simple::SimpleNameFinder;
