//! DOCX reader (placeholder until the reader lands; returns an error, never panics).

use crate::error::ConvertError;
use crate::model::Document;
use crate::options::Limits;

/// Reads a DOCX package.
///
/// # Errors
/// [`ConvertError`] when the package cannot be read.
pub fn read(_bytes: &[u8], _limits: &Limits) -> Result<Document, ConvertError> {
    Err(ConvertError::UnsupportedFormat {
        format: "DOCX (reader not built yet)".into(),
    })
}
