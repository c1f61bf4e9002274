//! Character-encoding sniffing for the text-based readers (plain text, Markdown).
//!
//! Order of evidence, strongest first:
//! 1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE; WHATWG Encoding, "decode");
//! 2. UTF-16 without a BOM, recognised by NUL bytes in every other position;
//! 3. valid UTF-8;
//! 4. the caller's charset (`charset=` of the MIME type), any WHATWG label;
//! 5. EBCDIC (code page 037), which no WHATWG encoding covers ([`super::ebcdic`]);
//! 6. UTF-8 with a few damaged sequences (valid multi-byte sequences outnumber the
//!    invalid bytes two to one), decoded with U+FFFD for the damage;
//! 7. the legacy encoding Mozilla's detector `chardetng` finds most plausible
//!    ([`guess_legacy`]): the single-byte pages of Western, Central European,
//!    Cyrillic (windows-1251, KOI8-R, IBM866), Greek, Turkish, Hebrew, Arabic, Baltic,
//!    Vietnamese and Thai text, and the CJK encodings (Shift_JIS, EUC-JP, ISO-2022-JP,
//!    EUC-KR, GBK, Big5).
//!
//! Steps 5 to 7 add a warning, so a caller can see that the encoding was not certain.
//! The HTML reader has its own prescan (`<meta charset>`), per the HTML standard, and
//! the same detector.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::model::Warning;

/// Text decoded from bytes, with the encoding used and any doubt about it.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The text, without a byte-order mark.
    pub text: Cow<'a, str>,
    /// The encoding that was used.
    pub encoding: Charset,
    /// Set when the encoding was guessed or the bytes were damaged.
    pub warning: Option<Warning>,
}

/// A character encoding text was decoded with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// An encoding of the WHATWG Encoding Standard (`encoding_rs`).
    Whatwg(&'static Encoding),
    /// IBM EBCDIC code page 037 (US/Canada).
    Ibm037,
}

impl Charset {
    /// The encoding's name (`windows-1252`, `Shift_JIS`, `IBM037`).
    pub fn name(self) -> &'static str {
        match self {
            Charset::Whatwg(e) => e.name(),
            Charset::Ibm037 => "IBM037",
        }
    }
}

/// The `charset` parameter of a MIME type such as `text/plain; charset=KOI8-R`.
pub fn mime_charset(mime: &str) -> Option<&str> {
    mime.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches(['"', '\'']))
            .filter(|v| !v.is_empty())
    })
}

/// Decodes `bytes` as text by the order of evidence in the module documentation.
/// `hint` is a WHATWG encoding label from the caller; unknown labels are ignored with
/// a warning.
pub fn decode<'a>(bytes: &'a [u8], hint: Option<&str>) -> Decoded<'a> {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return lossy(enc, &bytes[bom_len..], None);
    }
    if let Some(enc) = utf16_without_bom(bytes) {
        return lossy(enc, bytes, None);
    }
    if let Ok(s) = simdutf8::basic::from_utf8(bytes) {
        return Decoded {
            text: Cow::Borrowed(s),
            encoding: Charset::Whatwg(UTF_8),
            warning: None,
        };
    }
    let mut hint_warning = None;
    if let Some(label) = hint {
        match Encoding::for_label(label.trim().as_bytes()) {
            Some(enc) => return lossy(enc, bytes, None),
            None => {
                hint_warning = Some(format!(
                    "the charset \"{label}\" is not known and was ignored; "
                ));
            }
        }
    }
    let prefix = hint_warning.unwrap_or_default();
    // Before the damaged-UTF-8 test: in EBCDIC a capital and a small letter (0xC1..0xE9,
    // 0x81..0xA9) can form a valid two-byte UTF-8 sequence.
    if super::ebcdic::looks_ebcdic(bytes) {
        let w = Warning::new(
            "guessed-encoding",
            format!(
                "{prefix}the text is not UTF-8 and no charset was given; its bytes read as EBCDIC and were decoded as IBM037"
            ),
        );
        return Decoded {
            text: Cow::Owned(super::ebcdic::decode(bytes)),
            encoding: Charset::Ibm037,
            warning: Some(w),
        };
    }
    let (valid_multi, invalid) = utf8_damage(bytes);
    if valid_multi >= 2 * invalid {
        let w = Warning::new(
            "invalid-encoding",
            format!(
                "{prefix}the text is UTF-8 with {invalid} invalid byte sequence(s), each replaced by U+FFFD"
            ),
        );
        return lossy(UTF_8, bytes, Some(w));
    }
    let enc = guess_legacy(bytes);
    let w = Warning::new(
        "guessed-encoding",
        format!(
            "{prefix}the text is not UTF-8 and no charset was given; decoded as {} (guessed)",
            enc.name()
        ),
    );
    lossy(enc, bytes, Some(w))
}

/// Decodes with `enc` (no BOM handling), replacing malformed sequences.
fn lossy<'a>(enc: &'static Encoding, bytes: &'a [u8], warning: Option<Warning>) -> Decoded<'a> {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    let warning = warning.or_else(|| {
        had_errors.then(|| {
            Warning::new(
                "invalid-encoding",
                format!("the text has byte sequences that are not valid {}; each was replaced by U+FFFD", enc.name()),
            )
        })
    });
    Decoded {
        text,
        encoding: Charset::Whatwg(enc),
        warning,
    }
}

/// UTF-16 without a BOM: in the first 4 KB, at least 40% of the code units have a NUL
/// high byte on one side and almost none (under 5%) on the other. Latin-script UTF-16
/// looks like this; UTF-8 and single-byte text have no NULs at all.
pub(crate) fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(4096) & !1];
    let units = sample.len() / 2;
    if units < 2 {
        return None;
    }
    let even = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    let many = |n: usize| n * 10 >= units * 4;
    let few = |n: usize| n * 20 < units;
    if many(odd) && few(even) {
        Some(UTF_16LE)
    } else if many(even) && few(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Counts valid multi-byte UTF-8 characters and invalid sequences.
fn utf8_damage(bytes: &[u8]) -> (usize, usize) {
    let (mut multi, mut invalid) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        multi += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if !chunk.invalid().is_empty() {
            invalid += 1;
        }
    }
    (multi, invalid)
}

/// Bytes of a long text the detector reads: plenty for a confident guess, and a
/// bound on its time.
const DETECT_SAMPLE: usize = 256 * 1024;

/// The legacy (non-UTF) encoding `bytes` are most plausibly in, by `chardetng`
/// (Mozilla's detector for unlabelled Web content: byte-pair frequencies of each
/// script's Wikipedia text, CJK validity). windows-1252 when nothing stands out.
pub fn guess_legacy(bytes: &[u8]) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Allow);
    let whole = bytes.len() <= DETECT_SAMPLE;
    detector.feed(&bytes[..bytes.len().min(DETECT_SAMPLE)], whole);
    detector.guess(None, Utf8Detection::Deny)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{
        BIG5, EUC_KR, GBK, IBM866, KOI8_R, KOI8_U, SHIFT_JIS, WINDOWS_1251, WINDOWS_1252,
    };

    fn guessed(bytes: &[u8]) -> Charset {
        decode(bytes, None).encoding
    }

    #[test]
    fn bom_and_utf16_without_bom() {
        let d = decode(b"\xEF\xBB\xBFhi", None);
        assert_eq!(d.text, "hi");
        let le: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(decode(&le, None).text, "hello");
        let be: Vec<u8> = "hello".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&be, None).text, "hello");
    }

    #[test]
    fn hint_and_guess() {
        let (koi, _, _) = KOI8_R.encode("Привет, как дела? Всё хорошо.");
        // KOI8-U extends KOI8-R with Ukrainian letters: the same reading of Russian.
        assert!(matches!(guessed(&koi), Charset::Whatwg(e) if e == KOI8_R || e == KOI8_U));
        assert_eq!(decode(&koi, None).text, "Привет, как дела? Всё хорошо.");
        let (w1251, _, _) = WINDOWS_1251.encode("Привет, как дела? Всё хорошо.");
        assert_eq!(guessed(&w1251), Charset::Whatwg(WINDOWS_1251));
        let (cp866, _, _) = IBM866.encode("Привет, как дела? Всё хорошо.");
        assert_eq!(guessed(&cp866), Charset::Whatwg(IBM866));
        let (west, _, _) = WINDOWS_1252.encode("Größe, café, “quoted” — naïve");
        let d = decode(&west, None);
        assert_eq!(d.encoding, Charset::Whatwg(WINDOWS_1252));
        assert_eq!(d.warning.map(|w| w.code), Some("guessed-encoding"));
        assert_eq!(
            decode(&koi, Some("koi8-r")).text,
            "Привет, как дела? Всё хорошо."
        );
        assert_eq!(
            mime_charset("text/plain; charset=\"KOI8-R\""),
            Some("KOI8-R")
        );
    }

    #[test]
    fn damaged_utf8_stays_utf8() {
        let mut b = "日本語のテキスト".as_bytes().to_vec();
        b.push(0xFF);
        let d = decode(&b, None);
        assert_eq!(d.encoding, Charset::Whatwg(UTF_8));
        assert!(d.text.starts_with("日本語"));
        assert_eq!(d.warning.map(|w| w.code), Some("invalid-encoding"));
    }

    #[test]
    fn undeclared_cjk_is_detected() {
        for (enc, text) in [
            (
                SHIFT_JIS,
                "日本語の文書です。文字コードの判定を確かめるための短い文章です。",
            ),
            (
                GBK,
                "这是一个中文文档。我们用它来检查字符编码的检测是否正确。",
            ),
            (
                BIG5,
                "這是一個中文文件。我們用它來檢查字元編碼的偵測是否正確。",
            ),
            (
                EUC_KR,
                "이것은 한국어 문서입니다. 문자 인코딩 감지를 확인하기 위한 짧은 글입니다.",
            ),
        ] {
            let (bytes, _, _) = enc.encode(text);
            let d = decode(&bytes, None);
            assert_eq!(d.encoding, Charset::Whatwg(enc), "{text}");
            assert_eq!(d.text, text);
            assert_eq!(d.warning.map(|w| w.code), Some("guessed-encoding"));
        }
    }

    #[test]
    fn ebcdic_is_decoded_not_read_as_a_cyrillic_page() {
        // "Quarterly report." in code page 037 (letters 0x81.., space 0x40, NL 0x15).
        let line: &[u8] = &[
            0xD8, 0xA4, 0x81, 0x99, 0xA3, 0x85, 0x99, 0x93, 0xA8, 0x40, 0x99, 0x85, 0x97, 0x96,
            0x99, 0xA3, 0x4B, 0x15,
        ];
        let bytes = line.repeat(4);
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, Charset::Ibm037);
        assert_eq!(d.text, "Quarterly report.\n".repeat(4));
        assert_eq!(d.warning.map(|w| w.code), Some("guessed-encoding"));
    }

    #[test]
    fn single_byte_scripts() {
        use encoding_rs::{WINDOWS_1253, WINDOWS_1255, WINDOWS_1256};
        for (enc, text) in [
            (
                WINDOWS_1256,
                "في قرية من القرى كان هناك رجل حكيم يعرف كل شيء عن الحياة",
            ),
            (
                WINDOWS_1251,
                "Привет, как дела? Это проверка кодировки текста.",
            ),
            (WINDOWS_1253, "Καλημέρα, αυτό είναι ένα κείμενο δοκιμής."),
            (WINDOWS_1255, "שלום עולם, זהו טקסט לבדיקה של קידוד"),
            (
                WINDOWS_1252,
                "Les élèves ont été très contents à l'école, où ça déménage.",
            ),
            (WINDOWS_1252, "Grüße aus München, schöne Straßen und Bäume."),
        ] {
            let (bytes, _, unmappable) = enc.encode(text);
            assert!(!unmappable);
            assert_eq!(guess_legacy(&bytes), enc, "{text}");
        }
        assert_eq!(guess_legacy(b"plain ascii \xff"), WINDOWS_1252);
        assert_eq!(guess_legacy(b""), WINDOWS_1252);
    }

    #[test]
    fn title_case_ebcdic_is_not_taken_for_damaged_utf8() {
        // "Mr Li Wu Al Ed Jo. " in code page 037: "Mr" is 0xD4 0x99, a valid UTF-8 pair.
        let line: &[u8] = &[
            0xD4, 0x99, 0x40, 0xD3, 0x89, 0x40, 0xE6, 0xA4, 0x40, 0xC1, 0x93, 0x40, 0xC5, 0x84,
            0x40, 0xD1, 0x96, 0x4B, 0x40,
        ];
        let bytes = line.repeat(20);
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, Charset::Ibm037);
        assert!(d.text.starts_with("Mr Li Wu Al Ed Jo. Mr Li"));
    }
}
