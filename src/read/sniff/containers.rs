//! Containers and binary formats by magic number: zip packages (OOXML, ODF, EPUB),
//! OLE2/CFB compound files (legacy Office, encrypted OOXML), PDF and other binaries.

use std::io::Cursor;

use zip::ZipArchive;

use crate::error::ConvertError;
use crate::options::Format;

/// A zip local file header (APPNOTE 4.3.7).
pub(super) const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// The end-of-central-directory record that begins an empty zip (APPNOTE 4.3.16).
pub(super) const ZIP_EMPTY_MAGIC: &[u8] = b"PK\x05\x06";
/// OLE2 / Compound File Binary header signature (MS-CFB 2.2).
pub(super) const CFB_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// What a zip archive holds.
///
/// - a `word/` member: DOCX;
/// - a first member named `mimetype`, stored uncompressed (ODF 1.3 Part 2, 3.3; EPUB
///   OCF 3.3, 4.3): its content names OpenDocument text/spreadsheet/presentation or
///   EPUB, all unsupported;
/// - an `xl/` or `ppt/` member: XLSX or PPTX, unsupported;
/// - anything else, and archives the zip reader cannot open: DOCX, so that the DOCX
///   reader reports the damage, a main part at a non-standard path (found through
///   `_rels/.rels`), or a missing main part.
pub(super) fn classify_zip(bytes: &[u8]) -> Result<Format, ConvertError> {
    let names: Vec<String> = match ZipArchive::new(Cursor::new(bytes)) {
        Ok(zip) => (0..zip.len())
            .filter_map(|i| zip.name_for_index(i).and_then(Result::ok))
            .map(|n| n.trim_start_matches('/').to_ascii_lowercase())
            .collect(),
        Err(_) => return Ok(Format::Docx),
    };
    if names.iter().any(|n| n.starts_with("word/")) {
        return Ok(Format::Docx);
    }
    let unsupported = |f: &str| {
        Err(ConvertError::UnsupportedFormat {
            format: f.to_string(),
        })
    };
    if let Some(mime) = stored_mimetype(bytes) {
        let named = match mime {
            "application/vnd.oasis.opendocument.text" => "ODT (OpenDocument text)",
            "application/vnd.oasis.opendocument.spreadsheet" => "ODS (OpenDocument spreadsheet)",
            "application/vnd.oasis.opendocument.presentation" => "ODP (OpenDocument presentation)",
            "application/epub+zip" => "EPUB (e-book)",
            m if m.starts_with("application/vnd.oasis.opendocument.") => "OpenDocument",
            _ => "",
        };
        if !named.is_empty() {
            return unsupported(named);
        }
    }
    if names.iter().any(|n| n.starts_with("xl/")) {
        return unsupported("XLSX (spreadsheet)");
    }
    if names.iter().any(|n| n.starts_with("ppt/")) {
        return unsupported("PPTX (presentation)");
    }
    Ok(Format::Docx)
}

/// The content of a first zip member named `mimetype` when it is stored (method 0)
/// and short, as ODF and EPUB require.
fn stored_mimetype(bytes: &[u8]) -> Option<&str> {
    let u16_at = |i: usize| -> Option<usize> {
        Some(usize::from(u16::from_le_bytes(
            bytes.get(i..i + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?) as usize)
    };
    if u16_at(8)? != 0 {
        return None;
    }
    let size = u32_at(18)?;
    let (name_len, extra_len) = (u16_at(26)?, u16_at(28)?);
    if bytes.get(30..30 + name_len)? != b"mimetype" || size > 200 {
        return None;
    }
    let start = 30 + name_len + extra_len;
    std::str::from_utf8(bytes.get(start..start + size)?)
        .ok()
        .map(str::trim)
}

/// The error for an OLE2/CFB compound file, by the names of its directory entries.
///
/// Entries are 128 bytes (MS-CFB 2.6.1) and directory sectors start at multiples of
/// the sector size (512 or 4096), so every entry starts at a multiple of 128 past the
/// header; each holds a UTF-16LE name of up to 31 characters, its byte length with the
/// terminating NUL at offset 64, and its object type at offset 66. Scanning those
/// positions finds the names without following the FAT chains:
/// `EncryptionInfo` (MS-OFFCRYPTO 2.3.4, an encrypted OOXML package), `WordDocument`
/// (MS-DOC), `Workbook`/`Book` (MS-XLS), `PowerPoint Document` (MS-PPT).
pub(super) fn classify_cfb(bytes: &[u8]) -> ConvertError {
    let mut found = (false, false, false, false);
    let mut off = 512;
    while off + 128 <= bytes.len() {
        if let Some(name) = entry_name(&bytes[off..off + 128]) {
            match name.as_str() {
                "EncryptionInfo" | "EncryptedPackage" => found.0 = true,
                "WordDocument" => found.1 = true,
                "Workbook" | "Book" => found.2 = true,
                "PowerPoint Document" => found.3 = true,
                _ => {}
            }
        }
        off += 128;
    }
    match found {
        (true, ..) => ConvertError::Encrypted,
        (_, true, ..) => ConvertError::LegacyDoc,
        (_, _, true, _) => ConvertError::UnsupportedFormat {
            format: "legacy Excel .xls".into(),
        },
        (.., true) => ConvertError::UnsupportedFormat {
            format: "legacy PowerPoint .ppt".into(),
        },
        _ => ConvertError::UnsupportedFormat {
            format: "OLE2 compound file (not a Word document)".into(),
        },
    }
}

/// The name of a CFB directory entry, when `e` looks like one.
fn entry_name(e: &[u8]) -> Option<String> {
    let len = usize::from(u16::from_le_bytes([e[64], e[65]]));
    if !(4..=64).contains(&len) || len % 2 != 0 || !matches!(e[66], 1 | 2 | 5) {
        return None;
    }
    let units: Vec<u16> = e[..len - 2]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

/// A PDF: the file begins with its header `%PDF-` (ISO 32000-2, 7.5.2), or, in a
/// file named `.pdf`, the header follows up to 1,024 bytes of leading junk (mail
/// gateways and web servers prepend some; viewers skip it, as ISO 32000-1's
/// implementation notes allow). A text file that merely mentions the header is not
/// a PDF unless it is named one.
pub(super) fn is_pdf(bytes: &[u8], name: Option<&str>) -> bool {
    const HEADER: &[u8] = b"%PDF-";
    let named = name.is_some_and(|n| n.to_ascii_lowercase().ends_with(".pdf"));
    bytes.starts_with(HEADER)
        || (named
            && memchr::memmem::find(&bytes[..bytes.len().min(1024 + HEADER.len())], HEADER)
                .is_some())
}

/// Well-known binary formats by their first bytes, named for the error message.
pub(super) fn binary_magic(bytes: &[u8]) -> Option<&'static str> {
    const TABLE: &[(&[u8], &str)] = &[
        (b"%!PS", "PostScript"),
        (b"\x89PNG\r\n\x1A\n", "PNG image"),
        (b"\xFF\xD8\xFF", "JPEG image"),
        (b"GIF87a", "GIF image"),
        (b"GIF89a", "GIF image"),
        (b"\x1F\x8B", "gzip archive"),
        (b"BZh", "bzip2 archive"),
        (b"\xFD7zXZ\x00", "xz archive"),
        (b"\x28\xB5\x2F\xFD", "zstd archive"),
        (b"7z\xBC\xAF\x27\x1C", "7-Zip archive"),
        (b"Rar!\x1A\x07", "RAR archive"),
        (b"\x7FELF", "ELF executable"),
        (b"\x00asm", "WebAssembly module"),
        (b"SQLite format 3\x00", "SQLite database"),
    ];
    TABLE
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, name)| *name)
}

/// Binary data: more than 5% of the first 8 KB are control bytes other than tab, LF,
/// CR, FF and ESC (NUL included). UTF-16 text (with a BOM, or NULs in every other
/// position) is not binary.
pub(super) fn is_binary(bytes: &[u8]) -> bool {
    if encoding_rs::Encoding::for_bom(bytes).is_some()
        || crate::read::encoding::utf16_without_bom(bytes).is_some()
    {
        return false;
    }
    let sample = &bytes[..bytes.len().min(8192)];
    let controls = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B))
        .count();
    controls * 20 > sample.len()
}
