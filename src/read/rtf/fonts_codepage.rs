//! Code pages (RTF 1.9.1, "Character Set", "Font Table", "Unicode RTF"): `\ansicpgN`
//! names the document code page, a font's `\fcharsetN` (or `\cpgN`) overrides it for
//! text in that font. `\'hh` bytes and 8-bit literal text are collected and decoded
//! together, so a double-byte character (Shift_JIS, GBK, Big5, Korean) written as two
//! consecutive `\'hh` decodes as one. `\uN` is a UTF-16 code unit (negative values
//! wrap by 65536), followed by `\ucN` fallback bytes that are skipped; surrogate pairs
//! are joined.

use std::collections::HashMap;

use encoding_rs::Encoding;

/// The encoding for a Windows code page number, when `encoding_rs` has it.
pub(crate) fn codepage(cp: i32) -> Option<&'static Encoding> {
    use encoding_rs as e;
    Some(match cp {
        437 | 850 | 1252 => e::WINDOWS_1252,
        866 => e::IBM866,
        874 => e::WINDOWS_874,
        932 | 10001 => e::SHIFT_JIS,
        936 | 10008 => e::GBK,
        949 | 10003 => e::EUC_KR,
        950 | 10002 => e::BIG5,
        1250 => e::WINDOWS_1250,
        1251 => e::WINDOWS_1251,
        1253 => e::WINDOWS_1253,
        1254 => e::WINDOWS_1254,
        1255 => e::WINDOWS_1255,
        1256 => e::WINDOWS_1256,
        1257 => e::WINDOWS_1257,
        1258 => e::WINDOWS_1258,
        10000 => e::MACINTOSH,
        10007 => e::X_MAC_CYRILLIC,
        20866 => e::KOI8_R,
        21866 => e::KOI8_U,
        28591 => e::WINDOWS_1252,
        28592 => e::ISO_8859_2,
        28595 => e::ISO_8859_5,
        65001 => e::UTF_8,
        _ => return None,
    })
}

/// The code page of a font charset (`\fcharsetN`); `None` for ANSI/default/symbol,
/// which use the document code page.
pub(crate) fn charset(cs: i32) -> Option<&'static Encoding> {
    let cp = match cs {
        77 => 10000,
        78 => 10001,
        79 => 10003,
        80 => 10008,
        81 => 10002,
        128 => 932,
        129 => 949,
        134 => 936,
        136 => 950,
        161 => 1253,
        162 => 1254,
        163 => 1258,
        177 => 1255,
        178 => 1256,
        186 => 1257,
        204 => 1251,
        222 => 874,
        238 => 1250,
        _ => return None,
    };
    codepage(cp)
}

/// The font table: fonts whose charset differs from the document's.
#[derive(Debug, Default)]
pub(crate) struct Fonts {
    by_id: HashMap<i32, &'static Encoding>,
    current: i32,
}

impl Fonts {
    /// `\fN` inside the font table.
    pub(crate) fn select(&mut self, id: i32) {
        self.current = id;
    }

    /// `\fcharsetN` (or `\cpgN` when `is_cpg`) for the font being defined.
    pub(crate) fn set(&mut self, value: i32, is_cpg: bool) {
        let enc = if is_cpg {
            codepage(value)
        } else {
            charset(value)
        };
        if let Some(enc) = enc {
            self.by_id.insert(self.current, enc);
        }
    }

    /// The encoding of text in font `id`.
    pub(crate) fn encoding(&self, id: i32, doc: &'static Encoding) -> &'static Encoding {
        self.by_id.get(&id).copied().unwrap_or(doc)
    }
}

/// Bytes waiting to be decoded, and the `\uN` state.
#[derive(Debug)]
pub(crate) struct Decoder {
    pending: Vec<u8>,
    enc: &'static Encoding,
    high: Option<u16>,
    /// Fallback bytes still to skip after a `\uN`.
    pub skip: u32,
}

impl Decoder {
    /// An empty decoder.
    pub(crate) fn new() -> Self {
        Decoder {
            pending: Vec::new(),
            enc: encoding_rs::WINDOWS_1252,
            high: None,
            skip: 0,
        }
    }

    /// Whether bytes are waiting.
    pub(crate) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Adds bytes in `enc`; returns decoded text of earlier bytes in another encoding.
    pub(crate) fn push(&mut self, bytes: &[u8], enc: &'static Encoding, out: &mut String) {
        if enc != self.enc && !self.pending.is_empty() {
            self.flush(out);
        }
        self.enc = enc;
        self.high = None;
        self.pending.extend_from_slice(bytes);
    }

    /// Decodes the waiting bytes into `out`.
    pub(crate) fn flush(&mut self, out: &mut String) {
        if self.pending.is_empty() {
            return;
        }
        if self.pending.is_ascii() {
            // ASCII is the same in every code page the reader maps (trail bytes of
            // double-byte pairs always follow a lead byte >= 0x81).
            out.extend(self.pending.iter().map(|&b| b as char));
        } else {
            let (text, _) = self.enc.decode_without_bom_handling(&self.pending);
            out.push_str(&text);
        }
        self.pending.clear();
    }

    /// A `\uN` code unit: decoded into `out` (a high surrogate waits for its pair; an unpaired
    /// surrogate is dropped).
    pub(crate) fn unicode(&mut self, n: i32, out: &mut String) {
        let unit = (n.rem_euclid(65536)) as u16;
        match (self.high.take(), unit) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            (_, 0xD800..=0xDBFF) => self.high = Some(unit),
            (_, 0xDC00..=0xDFFF) => {}
            (_, _) => {
                if unit != 0 {
                    out.push(char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_byte_pairs_decode_together() {
        let mut d = Decoder::new();
        let mut out = String::new();
        let sjis = charset(128).unwrap_or(encoding_rs::UTF_8);
        d.push(&[0x83], sjis, &mut out);
        d.push(&[0x5d], sjis, &mut out);
        d.flush(&mut out);
        assert_eq!(out, "ゾ");
    }

    #[test]
    fn surrogates_join_and_negatives_wrap() {
        let mut d = Decoder::new();
        let mut out = String::new();
        d.unicode(-10179, &mut out);
        d.unicode(-8694, &mut out);
        d.unicode(-3929 - 65536 + 65536, &mut out);
        assert_eq!(out, "😊\u{F0A7}");
    }
}
