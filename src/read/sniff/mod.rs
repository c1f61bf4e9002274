//! Format detection: what the bytes are, with the caller's MIME type and file name as
//! hints.
//!
//! # Order
//! 1. Containers and binary formats by magic number, whatever the name says (a zip
//!    named `.txt` is still a zip): zip ([`containers::classify_zip`]), OLE2/CFB
//!    ([`containers::classify_cfb`]), PDF and a few other well-known binary formats
//!    ([`containers::binary_magic`]), then binary data in general (over 5% control
//!    bytes in the first 8 KB, UTF-16 excepted).
//! 2. The caller's MIME type (`text/html`, `application/xhtml+xml`, `text/rtf`,
//!    `application/rtf`, `text/markdown`, `text/x-markdown`, `text/plain`, the
//!    WordprocessingML type): what the caller says wins over content sniffing.
//!    Unknown types are no decision. (`ConvertOptions::format` skips detection.)
//! 3. The file extension (`.html .htm .xhtml .xht`, `.rtf`, `.md .markdown .mdown
//!    .mkd .mkdn .mdwn`, `.docx .docm .dotx .dotm`); `.txt` and others are no
//!    decision, because `.txt` files are often Markdown (pandoc's own manual is).
//! 4. Content: `{\rtf` (RTF 1.9.1, 2.1: the file begins with it; a BOM and white
//!    space are skipped), an HTML start ([`markup::looks_like_html`]), Markdown by
//!    several distinct signals ([`markup::looks_like_markdown`]), else plain text.

mod containers;
mod markup;

use crate::error::ConvertError;
use crate::options::Format;

pub use markup::{looks_like_html, looks_like_markdown};

/// Detects the input format.
///
/// # Errors
/// [`ConvertError::Encrypted`], [`ConvertError::LegacyDoc`] or
/// [`ConvertError::UnsupportedFormat`] for recognised formats docrag does not read
/// (naming them), and for binary data that is no known format.
pub fn detect(
    bytes: &[u8],
    name: Option<&str>,
    mime: Option<&str>,
) -> Result<Format, ConvertError> {
    if bytes.starts_with(containers::ZIP_MAGIC) || bytes.starts_with(containers::ZIP_EMPTY_MAGIC) {
        return containers::classify_zip(bytes);
    }
    if bytes.starts_with(containers::CFB_MAGIC) {
        return Err(containers::classify_cfb(bytes));
    }
    if containers::is_pdf(bytes, name) {
        return Ok(Format::Pdf);
    }
    if let Some(format) = containers::binary_magic(bytes) {
        return Err(ConvertError::UnsupportedFormat {
            format: format.into(),
        });
    }
    let ext = name
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    let mime = mime.map(|m| {
        m.split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase()
    });
    if let Some(f) = mime.as_deref().and_then(format_of_mime)
        && (f == Format::Docx || !containers::is_binary(bytes))
    {
        return Ok(f);
    }
    if let Some(f) = ext.as_deref().and_then(format_of_extension) {
        // Named .docx but not a zip: let the zip reader say what is wrong.
        if f == Format::Docx || !containers::is_binary(bytes) {
            return Ok(f);
        }
    }
    if containers::is_binary(bytes) {
        return Err(ConvertError::UnsupportedFormat {
            format: "binary data (no known document format)".into(),
        });
    }
    // A `.txt` name does not decide (pandoc's manual is Markdown named .txt), but it
    // does rule out HTML guessed from a leading tag: `<script>…` in a text file is
    // text, and reading it as HTML would drop it silently.
    Ok(sniff(bytes, ext.as_deref() != Some("txt")))
}

/// The text format of text-like bytes: RTF, HTML, Markdown or plain text.
pub fn sniff_text(bytes: &[u8]) -> Format {
    sniff(bytes, true)
}

/// [`sniff_text`], taking a leading HTML-looking tag as HTML only when `guess_html`;
/// a doctype or `<html>`/`<head>`/`<body>` start is HTML either way.
fn sniff(bytes: &[u8], guess_html: bool) -> Format {
    let head = markup::ascii_head(bytes, 4096);
    if head.trim_start().starts_with("{\\rtf") {
        return Format::Rtf;
    }
    let sample = markup::text_sample(bytes, 64 * 1024);
    match looks_like_html(&head) {
        markup::Html::Certain => return Format::Html,
        markup::Html::Likely if guess_html && !looks_like_markdown(&sample) => {
            return Format::Html;
        }
        _ => {}
    }
    if looks_like_markdown(&sample) {
        Format::Markdown
    } else {
        Format::Text
    }
}

/// The format a MIME type essence (lower case, no parameters) names, if decisive.
fn format_of_mime(m: &str) -> Option<Format> {
    Some(match m {
        "text/html" | "application/xhtml+xml" => Format::Html,
        "text/rtf" | "application/rtf" | "application/x-rtf" => Format::Rtf,
        "text/markdown" | "text/x-markdown" | "text/x-gfm" => Format::Markdown,
        "text/plain" => Format::Text,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        | "application/vnd.ms-word.document.macroenabled.12" => Format::Docx,
        _ => return None,
    })
}

/// The format a file extension (lower case) names, if decisive.
/// The format a file name's extension claims (case-insensitive; `.txt` and `.text`
/// claim plain text), or None for another or no extension. Detection reads the
/// content too ([`detect`]): a `.txt` file may hold Markdown.
pub fn format_of_file_name(name: &str) -> Option<Format> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "txt" | "text" => Some(Format::Text),
        "pdf" => Some(Format::Pdf),
        e => format_of_extension(e),
    }
}

fn format_of_extension(e: &str) -> Option<Format> {
    Some(match e {
        "html" | "htm" | "xhtml" | "xht" => Format::Html,
        "rtf" => Format::Rtf,
        "md" | "markdown" | "mdown" | "mkd" | "mkdn" | "mdwn" => Format::Markdown,
        "docx" | "docm" | "dotx" | "dotm" => Format::Docx,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_and_content() {
        let d = |b: &[u8], n: Option<&str>, m: Option<&str>| detect(b, n, m);
        assert_eq!(
            d(b"hello", None, Some("text/markdown")),
            Ok(Format::Markdown)
        );
        assert_eq!(d(b"hello", Some("a.HTM"), None), Ok(Format::Html));
        // A leading tag in a .txt file is text; a doctype is still HTML.
        let xss = b"<script>alert(1)</script> and <img src=x onerror=alert(2)>";
        assert_eq!(d(xss, Some("notes.txt"), None), Ok(Format::Text));
        assert_eq!(d(xss, None, None), Ok(Format::Html));
        assert_eq!(
            d(b"<!DOCTYPE html><p>x", Some("page.txt"), None),
            Ok(Format::Html)
        );
        assert_eq!(
            d(b"hello", Some("a.txt"), Some("text/plain")),
            Ok(Format::Text)
        );
        assert_eq!(
            d(b"\xEF\xBB\xBF \r\n{\\rtf1 x}", None, None),
            Ok(Format::Rtf)
        );
        assert_eq!(
            d(b"<!-- c -->\n<!DOCTYPE html><p>x", None, None),
            Ok(Format::Html)
        );
        assert_eq!(d(b"not a zip", Some("x.docx"), None), Ok(Format::Docx));
        assert_eq!(d(b"%PDF-1.7\n", Some("x.txt"), None), Ok(Format::Pdf));
        // Leading junk before the header: a PDF when named one, text otherwise.
        let junk = b"X-Mailer: gateway\r\n\r\n%PDF-1.4\n";
        assert_eq!(d(junk, Some("Report.PDF"), None), Ok(Format::Pdf));
        assert_eq!(d(junk, Some("notes.txt"), None), Ok(Format::Text));
        assert!(matches!(
            d(&[0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9], None, None),
            Err(ConvertError::UnsupportedFormat { format }) if format.starts_with("binary")
        ));
    }
}
