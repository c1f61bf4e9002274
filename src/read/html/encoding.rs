//! Character encoding of an HTML byte stream, after the HTML Standard's order
//! (13.2.3.2 "Determining the character encoding"): a byte order mark, then the
//! transport-level hint (the caller's MIME type `charset=` parameter), then the
//! `<meta>` prescan of the first 1024 bytes, else a default.
//!
//! Where docrag differs from a browser, it is to recover text a browser would show
//! as mojibake, and each such decision is reported as an `encoding` warning:
//! - no declaration: UTF-8 when the bytes are valid UTF-8, else the legacy encoding
//!   `chardetng` finds most plausible (windows-1252 without evidence);
//! - a declared UTF-8 that the bytes break: UTF-8 with replacement characters when the
//!   breakage is sporadic (a few stray bytes in UTF-8 text), else the guesser;
//! - a declared legacy encoding while the bytes are valid UTF-8 with multi-byte
//!   sequences: UTF-8 (random legacy text is practically never valid UTF-8);
//! - a declared multi-byte legacy encoding (Shift_JIS, GBK, ...) that the bytes break,
//!   while they are valid UTF-8: UTF-8.
//!
//! UTF-16 without a byte order mark is recognised from a leading `<` followed by or
//! following a NUL byte.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};

use super::prescan::{charset_from_content, prescan};
use crate::model::Warning;
use crate::read::encoding::guess_legacy;

/// Decoded text and what was decided on the way.
pub(super) struct Decoded {
    /// The document text (a leading BOM removed).
    pub text: String,
    /// The encoding used (asserted by the unit tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub encoding: &'static Encoding,
    /// Set when the encoding was guessed against or without a declaration, or when
    /// bytes had to be replaced.
    pub warning: Option<Warning>,
}

/// Decodes `bytes`; `mime` is the caller's MIME type hint, if any.
pub(super) fn decode(bytes: &[u8], mime: Option<&str>) -> Decoded {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        let rest = bytes.get(bom..).unwrap_or(&[]);
        return finish(enc, rest, None);
    }
    if let Some(enc) = utf16_without_bom(bytes) {
        return finish(enc, bytes, None);
    }
    let hint = mime
        .and_then(|m| charset_from_content(m.to_ascii_lowercase().as_bytes()).map(<[u8]>::to_vec))
        .and_then(|label| Encoding::for_label(&label))
        .map(|e| (e, "the caller's MIME type"));
    let declared = hint.or_else(|| prescan(bytes).map(|e| (e, "a <meta> declaration")));
    // ISO-2022-KR, HZ-GB-2312 and the like map to the Encoding Standard's "replacement"
    // encoding, which turns a whole document into one U+FFFD: such a declaration is
    // ignored, and the bytes decoded as if undeclared.
    let refused = declared.filter(|(e, _)| *e == REPLACEMENT);
    let declared = declared.filter(|(e, _)| *e != REPLACEMENT);
    if let (Some((_, from)), None) = (refused, declared) {
        let utf8_ok = simdutf8::basic::from_utf8(bytes).is_ok();
        let enc = if utf8_ok { UTF_8 } else { guess_legacy(bytes) };
        let why = format!(
            "{from} names an encoding browsers refuse (decoded as one replacement character); decoded as {} instead",
            enc.name()
        );
        return finish(enc, bytes, Some(why));
    }
    let utf8_ok = simdutf8::basic::from_utf8(bytes).is_ok();
    match declared {
        None if utf8_ok => finish(UTF_8, bytes, None),
        None => {
            let enc = guess_legacy(bytes);
            let why = format!(
                "the HTML declares no character encoding and is not valid UTF-8; decoded as {} (guessed)",
                enc.name()
            );
            finish(enc, bytes, Some(why))
        }
        Some((enc, _)) if enc == UTF_8 && utf8_ok => finish(UTF_8, bytes, None),
        Some((enc, from)) if enc == UTF_8 => {
            if mostly_utf8(bytes) {
                finish(UTF_8, bytes, None)
            } else {
                let guessed = guess_legacy(bytes);
                let why = format!(
                    "{from} says UTF-8 but the bytes are not UTF-8; decoded as {} (guessed)",
                    guessed.name()
                );
                finish(guessed, bytes, Some(why))
            }
        }
        Some((enc, from)) => {
            if utf8_ok && has_multibyte(bytes) && enc != UTF_16LE && enc != UTF_16BE {
                let why = format!(
                    "{from} says {} but the bytes are valid UTF-8; decoded as UTF-8",
                    enc.name()
                );
                return finish(UTF_8, bytes, Some(why));
            }
            finish(enc, bytes, None)
        }
    }
}

/// Decodes with `enc`, adding a warning for replaced bytes or a guess.
fn finish(enc: &'static Encoding, bytes: &[u8], why: Option<String>) -> Decoded {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    let why = match (why, had_errors) {
        (Some(w), _) => Some(w),
        (None, true) => Some(format!(
            "some bytes are not valid {} and were replaced with U+FFFD",
            enc.name()
        )),
        (None, false) => None,
    };
    Decoded {
        text: text.into_owned(),
        encoding: enc,
        warning: why.map(|w| Warning::new("encoding", w)),
    }
}

/// `<` next to a NUL at the start: UTF-16 without a byte order mark.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    match bytes {
        [b'<', 0, c, 0, ..] if *c != 0 => Some(UTF_16LE),
        [0, b'<', 0, c, ..] if *c != 0 => Some(UTF_16BE),
        _ => None,
    }
}

/// Valid UTF-8 multi-byte characters outnumber invalid sequences four to one.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if !chunk.invalid().is_empty() {
            bad += 1;
        }
    }
    good >= bad.saturating_mul(4) && good > 0
}

fn has_multibyte(bytes: &[u8]) -> bool {
    bytes.iter().any(|&b| b >= 0x80)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_6, WINDOWS_1252, WINDOWS_1256};

    #[test]
    fn bom_wins() {
        let mut b = vec![0xFF, 0xFE];
        for u in "<p>hé</p>".encode_utf16() {
            b.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&b, Some("text/html; charset=iso-8859-6"));
        assert_eq!(d.text, "<p>hé</p>");
        assert!(d.warning.is_none());
    }

    #[test]
    fn hint_then_meta_then_default() {
        let b = b"<meta charset=iso-8859-6><p>\xe8\xc3";
        assert_eq!(decode(b, None).encoding, ISO_8859_6);
        assert_eq!(
            decode(b, Some("text/html;charset=windows-1256")).encoding,
            WINDOWS_1256
        );
        assert_eq!(decode(b"<p>plain", None).encoding, UTF_8);
        assert_eq!(decode(b"<p>caf\xe9 cr\xe8me", None).encoding, WINDOWS_1252);
    }

    #[test]
    fn misleading_utf8_declaration() {
        let (arabic, _, _) = WINDOWS_1256.encode("<p>في قرية من القرى كان هناك رجل حكيم</p>");
        let mut b = b"<meta charset=utf-8>".to_vec();
        b.extend_from_slice(&arabic);
        let d = decode(&b, None);
        assert_eq!(d.encoding, WINDOWS_1256);
        assert!(d.text.contains("قرية"));
        assert_eq!(d.warning.map(|w| w.code), Some("encoding"));
    }

    #[test]
    fn sporadic_bad_bytes_stay_utf8() {
        let b = "<meta charset=utf-8><p>naïve café résumé \u{fe}"
            .as_bytes()
            .to_vec();
        let mut b = b;
        b.push(0xFF);
        let d = decode(&b, None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains('\u{FFFD}'));
    }

    #[test]
    fn utf8_under_a_legacy_label() {
        let b = "<meta charset=iso-8859-1><p>café</p>".as_bytes();
        assert_eq!(decode(b, None).encoding, UTF_8);
    }

    #[test]
    fn utf16_without_bom() {
        let b: Vec<u8> = "<p>x</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(decode(&b, None).text, "<p>x</p>");
    }

    #[test]
    fn a_replacement_encoding_declaration_is_ignored() {
        let html = "<meta charset=\"iso-2022-kr\"><p>Plain words here.</p>";
        let d = decode(html.as_bytes(), None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("Plain words here."));
        assert!(d.warning.is_some_and(|w| w.message.contains("refuse")));
    }
}
