//! Text -> index terms for BM25.
//!
//! - Words are found at Unicode word boundaries (UAX #29, the `unicode-segmentation`
//!   crate), keeping only words with a letter or digit, then lowercased with Unicode
//!   case mapping. "3.14", "don't" and "e-mail"'s parts come out as UAX #29 says.
//! - Chinese, Japanese and Korean are not written with spaces, and UAX #29 splits Han
//!   and Hiragana into single characters; runs of CJK characters (Han, Hiragana,
//!   Katakana, Hangul, including across adjacent words) become overlapping character
//!   bigrams instead ("東京都" -> "東京", "京都"), the standard trick that needs no
//!   dictionary. A run of one character is kept as a unigram.
//! - A number whose decimal part is all zeros ("38.0000", "2.0") is indexed as
//!   written and once more as its whole part ("38", "2"): tables of measurements
//!   print every value to a fixed precision, and a reader asks for "38 months".
//! - No stemming and no stop words: the IDF already discounts common words, and stop
//!   lists are language-specific.

use unicode_segmentation::UnicodeSegmentation;

/// Whether `c` is written without spaces between words: Han (CJK Unified Ideographs
/// and extensions, compatibility ideographs), Hiragana, Katakana (with the
/// prolonged-sound mark and half-width forms) or Hangul.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x309F          // Hiragana
        | 0x30A0..=0x30FF        // Katakana
        | 0x31F0..=0x31FF        // Katakana phonetic extensions
        | 0xFF66..=0xFF9F        // half-width Katakana
        | 0x3400..=0x4DBF        // CJK extension A
        | 0x4E00..=0x9FFF        // CJK unified ideographs
        | 0xF900..=0xFAFF        // CJK compatibility ideographs
        | 0x20000..=0x3134F      // CJK extensions B-G
        | 0x1100..=0x11FF        // Hangul Jamo
        | 0x3130..=0x318F        // Hangul compatibility Jamo
        | 0xAC00..=0xD7AF        // Hangul syllables
        | 0x3005                 // 々 ideographic iteration mark
    )
}

/// The index terms of `text`, in text order (with repeats).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<char> = Vec::new();
    let mut run_end = 0usize;
    for (start, word) in text.unicode_word_indices() {
        if start != run_end {
            flush(&mut run, &mut out);
        }
        let mut plain = String::new();
        for c in word.chars() {
            if is_cjk(c) {
                if !plain.is_empty() {
                    out.push(std::mem::take(&mut plain).to_lowercase());
                }
                run.push(c);
            } else {
                flush(&mut run, &mut out);
                plain.push(c);
            }
        }
        if !plain.is_empty() {
            let whole = whole_part(&plain).map(str::to_string);
            out.push(plain.to_lowercase());
            out.extend(whole);
        }
        run_end = start + word.len();
    }
    flush(&mut run, &mut out);
    out
}

/// The whole part of a number written with a decimal part of zeros only
/// ("38.0000" -> "38", "1,000.00" -> "1,000"); `None` for anything else.
fn whole_part(word: &str) -> Option<&str> {
    let (whole, fraction) = word.rsplit_once('.')?;
    let number = whole.starts_with(|c: char| c.is_ascii_digit())
        && whole.chars().all(|c| c.is_ascii_digit() || c == ',');
    let zeros = !fraction.is_empty() && fraction.chars().all(|c| c == '0');
    (number && zeros).then_some(whole)
}

/// Emits a CJK run as bigrams (a one-character run as itself) and clears it.
fn flush(run: &mut Vec<char>, out: &mut Vec<String>) {
    match run.len() {
        0 => {}
        1 => out.push(run[0].to_string()),
        _ => out.extend(run.windows(2).map(|w| w.iter().collect::<String>())),
    }
    run.clear();
}

#[cfg(test)]
mod tests {
    use super::tokenize;

    #[test]
    fn words_are_lowercased_at_unicode_boundaries() {
        assert_eq!(
            tokenize("Hello, WORLD! 3.14 don't"),
            ["hello", "world", "3.14", "don't"]
        );
        assert_eq!(tokenize("Привет, Мир"), ["привет", "мир"]);
        assert_eq!(tokenize("Straße ÉCOLE"), ["straße", "école"]);
    }

    #[test]
    fn a_number_with_a_zero_decimal_part_is_also_its_whole_part() {
        assert_eq!(
            tokenize("38.0000 months, 1,000.00 and 3.50"),
            [
                "38.0000", "38", "months", "1,000.00", "1,000", "and", "3.50"
            ]
        );
        assert_eq!(tokenize("v2.0."), ["v2.0"]);
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(
            tokenize("東京都に住む"),
            ["東京", "京都", "都に", "に住", "住む"]
        );
        assert_eq!(tokenize("한국어 문장"), ["한국", "국어", "문장"]);
        assert_eq!(tokenize("日"), ["日"]);
    }

    #[test]
    fn mixed_scripts_split_into_words_and_bigrams() {
        assert_eq!(tokenize("Proxy对象代理"), ["proxy", "对象", "象代", "代理"]);
        assert_eq!(tokenize("ES6 的 Proxy"), ["es6", "的", "proxy"]);
        assert_eq!(tokenize("东京。大阪"), ["东京", "大阪"]);
    }
}
