//! HTML reader (placeholder until the reader lands; returns an error, never panics).

use crate::error::ConvertError;
use crate::model::Document;
use crate::options::ConvertOptions;

/// Reads a HTML document.
///
/// # Errors
/// [`ConvertError`] when the input cannot be read.
pub fn read(_bytes: &[u8], _options: &ConvertOptions) -> Result<Document, ConvertError> {
    Err(ConvertError::UnsupportedFormat { format: "HTML (reader not built yet)".into() })
}
