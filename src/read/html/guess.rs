//! A small guesser for bytes that are not UTF-8 and whose declaration (if any) is
//! wrong: which single-byte legacy code page makes the most plausible words.
//!
//! Each run of letters that contains a byte >= 0x80 is decoded with every candidate; a
//! word counts for a candidate when all its letters come from one script (Latin,
//! Greek, Cyrillic, Hebrew, Arabic), its case never goes from lower to upper inside the
//! word, and (for Latin) it has an ASCII letter unless it is one character long. The
//! candidate with the most plausible letters wins; ties go to windows-1252, the
//! HTML Standard's fallback for unlabelled Western documents. This is the idea behind
//! browser detectors such as chardetng, cut down to the scripts single-byte pages
//! cover; it is only consulted when the bytes are invalid in the declared encoding.

use encoding_rs::{
    Encoding, ISO_8859_6, WINDOWS_1251, WINDOWS_1252, WINDOWS_1253, WINDOWS_1255, WINDOWS_1256,
};

/// Candidates, fallback first.
const CANDIDATES: [&Encoding; 6] = [
    WINDOWS_1252,
    WINDOWS_1251,
    WINDOWS_1253,
    WINDOWS_1255,
    WINDOWS_1256,
    ISO_8859_6,
];

/// How many bytes are sampled.
const SAMPLE: usize = 64 * 1024;

/// The most plausible single-byte encoding of `bytes`.
pub(super) fn guess_single_byte(bytes: &[u8]) -> &'static Encoding {
    let sample = bytes.get(..bytes.len().min(SAMPLE)).unwrap_or(bytes);
    let mut scores = [Score::default(); CANDIDATES.len()];
    for word in sample.split(|&b| b < 0x80 && !b.is_ascii_alphabetic()) {
        if word.iter().all(|&b| b < 0x80) {
            continue;
        }
        for (score, enc) in scores.iter_mut().zip(CANDIDATES) {
            score.add(enc, word);
        }
    }
    let scores = scores.map(|s| s.value());
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores.get(best).copied().unwrap_or(0) {
            best = i;
        }
    }
    CANDIDATES.get(best).copied().unwrap_or(WINDOWS_1252)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Other,
}

fn script(c: char) -> Option<Script> {
    let s = match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xAA | 0xBA | 0xC0..=0x24F => Script::Latin,
        0x370..=0x3FF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x591..=0x5FF => Script::Hebrew,
        0x600..=0x6FF | 0x750..=0x77F | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => Script::Arabic,
        _ if c.is_alphabetic() => Script::Other,
        _ => return None,
    };
    if matches!(c, '\u{D7}' | '\u{F7}') {
        return None;
    }
    Some(s)
}

/// Evidence for one candidate.
#[derive(Debug, Default, Clone, Copy)]
struct Score {
    /// Letters in plausible words.
    letters: usize,
    /// Greek and Cyrillic letters by case: text in these scripts capitalises sentence
    /// starts and names, so a sample without a single capital is another script
    /// (Hebrew text read as windows-1251 is all lower-case Cyrillic).
    upper: usize,
    lower: usize,
}

impl Score {
    fn add(&mut self, enc: &'static Encoding, word: &[u8]) {
        let (text, had_errors) = enc.decode_without_bom_handling(word);
        if had_errors {
            return;
        }
        let n = plausible_letters(&text);
        if n == 0 {
            return;
        }
        self.letters += n;
        for c in text.chars() {
            if matches!(script(c), Some(Script::Greek | Script::Cyrillic)) {
                self.upper += usize::from(c.is_uppercase());
                self.lower += usize::from(c.is_lowercase());
            }
        }
    }

    fn value(self) -> usize {
        if self.upper == 0 && self.lower >= 20 {
            self.letters / 4
        } else {
            self.letters
        }
    }
}

/// The number of letters in `text` (a decoded word), or 0 when it is implausible.
fn plausible_letters(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    // Symbols may stand at the edges of a word (quotes, dashes), not inside it.
    let start = chars.iter().position(|&c| script(c).is_some());
    let end = chars.iter().rposition(|&c| script(c).is_some());
    let (Some(start), Some(end)) = (start, end) else {
        return 0;
    };
    let letters = chars.get(start..=end).unwrap_or(&[]);
    let mut first: Option<Script> = None;
    let mut ascii = false;
    let mut was_lower = false;
    for &c in letters {
        let Some(s) = script(c) else { return 0 };
        // Hebrew and Arabic points and Arabic tatweel belong to their script.
        match first {
            None => first = Some(s),
            Some(f) if f != s => return 0,
            _ => {}
        }
        ascii |= c.is_ascii_alphabetic();
        if c.is_uppercase() && was_lower {
            return 0;
        }
        was_lower = c.is_lowercase();
    }
    if first == Some(Script::Latin) && !ascii && letters.len() > 1 {
        return 0;
    }
    if first == Some(Script::Other) {
        return 0;
    }
    letters.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str, enc: &'static Encoding) -> &'static Encoding {
        let (bytes, _, unmappable) = enc.encode(text);
        assert!(!unmappable);
        guess_single_byte(&bytes)
    }

    #[test]
    fn scripts() {
        let arabic = "في قرية من القرى كان هناك رجل حكيم يعرف كل شيء عن الحياة";
        assert_eq!(roundtrip(arabic, WINDOWS_1256), WINDOWS_1256);
        assert_eq!(roundtrip(arabic, ISO_8859_6), ISO_8859_6);
        let russian = "Привет, как дела? Это проверка кодировки текста.";
        assert_eq!(roundtrip(russian, WINDOWS_1251), WINDOWS_1251);
        let greek = "Καλημέρα, αυτό είναι ένα κείμενο δοκιμής.";
        assert_eq!(roundtrip(greek, WINDOWS_1253), WINDOWS_1253);
        let hebrew = "שלום עולם, זהו טקסט לבדיקה של קידוד";
        assert_eq!(roundtrip(hebrew, WINDOWS_1255), WINDOWS_1255);
        let french = "Les élèves ont été très contents à l'école, où ça déménage.";
        assert_eq!(roundtrip(french, WINDOWS_1252), WINDOWS_1252);
        let german = "Grüße aus München, schöne Straßen und Bäume.";
        assert_eq!(roundtrip(german, WINDOWS_1252), WINDOWS_1252);
    }

    #[test]
    fn no_evidence_is_windows_1252() {
        assert_eq!(guess_single_byte(b"plain ascii \xff"), WINDOWS_1252);
        assert_eq!(guess_single_byte(b""), WINDOWS_1252);
    }
}
