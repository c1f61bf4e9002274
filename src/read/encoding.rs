//! Character-encoding sniffing for the text-based readers (plain text, Markdown).
//!
//! Order of evidence, strongest first:
//! 1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE; WHATWG Encoding, "decode");
//! 2. UTF-16 without a BOM, recognised by NUL bytes in every other position;
//! 3. valid UTF-8;
//! 4. the caller's charset (`charset=` of the MIME type), any WHATWG label;
//! 5. UTF-8 with a few damaged sequences (valid multi-byte sequences outnumber the
//!    invalid bytes two to one), decoded with U+FFFD for the damage;
//! 6. a guess among the single-byte code pages of [`guess_single_byte`]
//!    (windows-1252 unless a Cyrillic page reads clearly better).
//!
//! Steps 5 and 6 add a warning, so a caller can see that the encoding was not certain.
//! The HTML reader has its own prescan (`<meta charset>`), per the HTML standard.

use std::borrow::Cow;

use encoding_rs::{
    Encoding, IBM866, KOI8_R, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1251, WINDOWS_1252,
};

use crate::model::Warning;

/// Text decoded from bytes, with the encoding used and any doubt about it.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The text, without a byte-order mark.
    pub text: Cow<'a, str>,
    /// The encoding that was used.
    pub encoding: &'static Encoding,
    /// Set when the encoding was guessed or the bytes were damaged.
    pub warning: Option<Warning>,
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
            encoding: UTF_8,
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
    let enc = guess_single_byte(bytes);
    let w = Warning::new(
        "guessed-encoding",
        format!(
            "{prefix}the text is not UTF-8 and no charset was given; decoded as {} (the best reading among windows-1252, windows-1251, KOI8-R and IBM866)",
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
        encoding: enc,
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

/// Picks the single-byte code page that reads `bytes` most like natural text.
///
/// Each candidate decodes the bytes; every word (a run of letters) that contains a
/// non-ASCII character scores by the shape real words have: all lowercase +2 per
/// non-ASCII letter, Capitalized +2, ALL CAPS +1, anything else (case changing inside
/// the word, or Latin and Cyrillic letters mixed in one word) -2; a non-ASCII
/// character outside words scores -1 unless it is common punctuation (quotes, dashes,
/// NBSP, «», …, °, №). windows-1252 comes first and wins ties, so only a Cyrillic page
/// that reads clearly better replaces it. Western text fails the Cyrillic pages
/// because its accented letters sit inside ASCII words ("Größe" -> "Grцяe");
/// KOI8-R and windows-1251 tell each other apart by case (each turns the other's
/// lowercase into capitals); IBM866 letters land on symbols in the others.
pub fn guess_single_byte(bytes: &[u8]) -> &'static Encoding {
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    let mut best = (WINDOWS_1252, i64::MIN);
    for enc in [WINDOWS_1252, WINDOWS_1251, KOI8_R, IBM866] {
        let (text, _) = enc.decode_without_bom_handling(sample);
        let s = score(&text);
        if s > best.1 {
            best = (enc, s);
        }
    }
    best.0
}

/// The score of one decoding; see [`guess_single_byte`].
fn score(text: &str) -> i64 {
    let mut total = 0i64;
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphabetic() {
            word.push(c);
            continue;
        }
        total += score_word(&word);
        word.clear();
        if !c.is_ascii() && !is_common_punctuation(c) {
            total -= 1;
        }
    }
    total
}

fn score_word(word: &str) -> i64 {
    let non_ascii = word.chars().filter(|c| !c.is_ascii()).count() as i64;
    if non_ascii == 0 {
        return 0;
    }
    let cyrillic = word.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c));
    let latin = word
        .chars()
        .any(|c| c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c));
    if cyrillic && latin {
        return -2 * non_ascii;
    }
    let mut chars = word.chars();
    let first_upper = chars.next().is_some_and(char::is_uppercase);
    let rest_lower = chars.clone().all(|c| !c.is_uppercase());
    let rest_upper = chars.all(|c| !c.is_lowercase());
    if rest_lower {
        2 * non_ascii
    } else if first_upper && rest_upper {
        non_ascii
    } else {
        -2 * non_ascii
    }
}

fn is_common_punctuation(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '«' | '»' | '°' | '§' | '©' | '®' | '·' | '№'
    ) || ('\u{2010}'..='\u{2027}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(decode(&koi, None).encoding, KOI8_R);
        let (w1251, _, _) = WINDOWS_1251.encode("Привет, как дела? Всё хорошо.");
        assert_eq!(decode(&w1251, None).encoding, WINDOWS_1251);
        let (cp866, _, _) = IBM866.encode("Привет, как дела? Всё хорошо.");
        assert_eq!(decode(&cp866, None).encoding, IBM866);
        let (west, _, _) = WINDOWS_1252.encode("Größe, café, “quoted” — naïve");
        let d = decode(&west, None);
        assert_eq!(d.encoding, WINDOWS_1252);
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
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.starts_with("日本語"));
        assert_eq!(d.warning.map(|w| w.code), Some("invalid-encoding"));
    }
}
