//! Readers: one per input format, each producing a [`crate::model::Document`].

pub mod budget;
pub mod docx;
pub(crate) mod ebcdic;
pub mod encoding;
pub mod html;
pub mod implied_headings;
pub mod markdown;
pub(crate) mod pagefit;
pub mod pdf;
pub mod rtf;
pub(crate) mod running;
pub mod sniff;
pub(crate) mod symbols;
pub mod text;

use crate::error::ConvertError;
use crate::model::Document;
use crate::options::{ConvertOptions, Format};
use crate::progress::{self, Stage};

/// Detects the format of `bytes` and reads it into the document model.
///
/// # Errors
/// [`ConvertError`] when the input is empty, over the size limit, in an unsupported
/// format, or not readable as its format.
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    if bytes.is_empty() {
        return Err(ConvertError::Empty);
    }
    let limit = options.limits.max_input_bytes;
    if bytes.len() as u64 > limit {
        return Err(ConvertError::TooLarge {
            what: "the input".into(),
            actual: bytes.len() as u64,
            limit,
        });
    }
    let format = match options.format {
        Some(f) => f,
        None => sniff::detect(bytes, options.file_name.as_deref(), options.mime.as_deref())?,
    };
    // A DOCX is compressed: its XML elements are counted against ten times its size.
    let weight = if format == Format::Docx { 10 } else { 1 };
    let _budget = budget::begin(bytes.len().saturating_mul(weight), &options.limits);
    let len = bytes.len() as u64;
    let name = format.name();
    progress::report(Stage::Parse, name, 0, len)?;
    let mut doc = match format {
        Format::Docx => docx::read_with(bytes, &options.limits, options.pages),
        Format::Html => html::read(bytes, options),
        Format::Rtf => rtf::read(bytes, options),
        Format::Markdown => markdown::read(bytes, options),
        Format::Text => text::read(bytes, options),
        Format::Pdf => pdf::read(bytes, options),
    }?;
    // Plain text and PDF find their headings by their own layout rules.
    if matches!(
        format,
        Format::Docx | Format::Html | Format::Rtf | Format::Markdown
    ) {
        implied_headings::infer(&mut doc);
    }
    progress::report(Stage::Parse, name, len, len)?;
    Ok(doc)
}
