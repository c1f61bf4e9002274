//! Format detection from magic bytes, with the file name and MIME type as hints.

use crate::error::ConvertError;
use crate::options::Format;

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const ZIP_EMPTY_MAGIC: &[u8] = b"PK\x05\x06";
/// OLE2 / Compound File Binary header (MS-CFB 2.2).
const CFB_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// Detects the input format.
///
/// Zip archives are treated as DOCX (the reader then reports a missing main part for
/// other zips); a CFB container is an encrypted OOXML package when it holds an
/// `EncryptionInfo` stream, else a legacy binary document; `%PDF` is PDF.
///
/// # Errors
/// [`ConvertError::Encrypted`], [`ConvertError::LegacyDoc`] or
/// [`ConvertError::UnsupportedFormat`] for recognised formats docrag does not read.
pub fn detect(
    bytes: &[u8],
    name: Option<&str>,
    mime: Option<&str>,
) -> Result<Format, ConvertError> {
    if bytes.starts_with(ZIP_MAGIC) || bytes.starts_with(ZIP_EMPTY_MAGIC) {
        return Ok(Format::Docx);
    }
    if bytes.starts_with(CFB_MAGIC) {
        // Directory entry names are UTF-16LE; "EncryptionInfo" marks an encrypted
        // OOXML package (MS-OFFCRYPTO 2.3.4), anything else a legacy binary file.
        let needle: Vec<u8> = "EncryptionInfo"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
            return Err(ConvertError::Encrypted);
        }
        return Err(ConvertError::LegacyDoc);
    }
    if bytes.starts_with(b"%PDF") {
        return Err(ConvertError::UnsupportedFormat {
            format: "PDF".into(),
        });
    }
    let ext = name
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    let wants_docx = matches!(ext.as_deref(), Some("docx" | "docm" | "dotx" | "dotm"))
        || mime.is_some_and(|m| m.contains("wordprocessingml"));
    if wants_docx {
        // Named .docx but not a zip: let the zip reader say what is wrong.
        return Ok(Format::Docx);
    }
    Ok(Format::Text)
}
