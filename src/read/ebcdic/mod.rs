//! EBCDIC text (IBM code page 037), which the WHATWG Encoding Standard and so
//! `encoding_rs` do not cover: mainframe exports read as any ASCII-based code page are
//! mojibake from the first byte (EBCDIC puts the space at 0x40 and the letters at
//! 0x81..=0xE9).
//!
//! Recognition needs no detector: in EBCDIC prose the space byte 0x40 is frequent, the
//! ASCII space 0x20 is absent, and nearly every byte is a letter, digit, space or
//! punctuation of code page 037; text in an ASCII-based encoding fails the first two.

mod table;

/// Bytes sampled by [`looks_ebcdic`].
const SAMPLE: usize = 64 * 1024;

/// `bytes` read as EBCDIC text: at least 5% of the sample is the EBCDIC space (0x40),
/// under 1% is the ASCII space (0x20), and at least 85% are EBCDIC letters, digits,
/// spaces, line ends or common punctuation.
pub(crate) fn looks_ebcdic(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(SAMPLE)];
    if sample.len() < 16 {
        return false;
    }
    let (mut space, mut ascii_space, mut plain) = (0usize, 0usize, 0usize);
    for &b in sample {
        match b {
            0x40 => space += 1,
            0x20 => ascii_space += 1,
            _ => {}
        }
        if is_plain(b) {
            plain += 1;
        }
    }
    let n = sample.len();
    space * 100 >= n * 5 && ascii_space * 100 < n && plain * 100 >= n * 85
}

/// A byte of code page 037 that prose is made of: space, letters, digits, line ends
/// (0x15 NL, 0x25 LF, 0x0D CR, 0x05 TAB) and the punctuation . , ; : ? ! ' " ( ) - / & %.
fn is_plain(b: u8) -> bool {
    matches!(b,
        0x40 | 0x81..=0x89 | 0x91..=0x99 | 0xA2..=0xA9 | 0xC1..=0xC9 | 0xD1..=0xD9
        | 0xE2..=0xE9 | 0xF0..=0xF9 | 0x15 | 0x25 | 0x0D | 0x05
        | 0x4B | 0x6B | 0x5E | 0x7A | 0x6F | 0x5A | 0x7D | 0x7F | 0x4D | 0x5D | 0x60 | 0x61
        | 0x50 | 0x6C)
}

/// Decodes code page 037. The mainframe line end NL (0x15, U+0085) becomes `\n`; other
/// control characters except tab, line feed and carriage return are dropped (record
/// and device controls, not text).
pub(crate) fn decode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        let c = char::from_u32(u32::from(table::CP037[usize::from(b)])).unwrap_or('\u{FFFD}');
        match c {
            '\u{85}' => out.push('\n'),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Hello, World." and a second line in code page 037 (NL line ends), as IBM's
    /// code chart places them.
    const HELLO: &[u8] = &[
        0xC8, 0x85, 0x93, 0x93, 0x96, 0x6B, 0x40, 0xE6, 0x96, 0x99, 0x93, 0x84, 0x4B, 0x15, 0xE3,
        0x88, 0x85, 0x40, 0x85, 0x95, 0x84, 0x4B, 0x15,
    ];

    #[test]
    fn decodes_letters_punctuation_and_line_ends() {
        assert_eq!(decode(HELLO), "Hello, World.\nThe end.\n");
    }

    #[test]
    fn recognises_ebcdic_and_not_ascii() {
        assert!(looks_ebcdic(HELLO));
        assert!(!looks_ebcdic(b"Hello, World. This is ASCII text, plainly."));
        // Shift_JIS Japanese: no EBCDIC spaces.
        let (sjis, _, _) =
            encoding_rs::SHIFT_JIS.encode("日本語のテキストです。これはテストです。");
        assert!(!looks_ebcdic(&sjis));
    }
}
