//! RTF tokenizer (RTF 1.9.1, "RTF Syntax"): groups, control words with an optional
//! signed parameter, control symbols, `\'hh` bytes, `\binN` data and plain text.
//!
//! The lexer never fails and never looks back: every byte is read at most once, so the
//! reader is linear in the input. Carriage returns, line feeds and NUL bytes outside
//! `\bin` data are not content (the spec says writers may insert CR/LF anywhere) and
//! are dropped. Parameters that overflow `i32` are clamped, and `\binN` whose count
//! runs past the end of the input is clamped to the input.

/// One token. Slices borrow the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// `{`
    Open,
    /// `}`
    Close,
    /// `\name` or `\nameN`: a control word (letters only, case-sensitive).
    Word {
        /// The letters.
        name: &'a [u8],
        /// The parameter, clamped to `i32`.
        param: Option<i32>,
    },
    /// `\` followed by one non-letter (`\*`, `\~`, `\-`, `\_`, `\:`, `\|`, ...).
    /// `\\`, `\{` and `\}` are returned as [`Token::Text`]; `\` + CR/LF is `\par`.
    Symbol(u8),
    /// `\'hh`: one byte in the current code page.
    Hex(u8),
    /// Literal text bytes (no `\`, `{`, `}`, CR, LF or NUL).
    Text(&'a [u8]),
    /// The data of `\binN` (already skipped; not content).
    Bin(usize),
}

/// The tokenizer.
pub(crate) struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Lexer { bytes, pos: 0 }
    }

    /// The next token, or `None` at the end of the input.
    pub(crate) fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            let b = *self.bytes.get(self.pos)?;
            match b {
                b'{' => {
                    self.pos += 1;
                    return Some(Token::Open);
                }
                b'}' => {
                    self.pos += 1;
                    return Some(Token::Close);
                }
                b'\\' => return Some(self.control()),
                b'\r' | b'\n' | 0 => self.pos += 1,
                _ => {
                    let start = self.pos;
                    let rest = &self.bytes[start..];
                    let len = rest
                        .iter()
                        .position(|&c| matches!(c, b'\\' | b'{' | b'}' | b'\r' | b'\n' | 0))
                        .unwrap_or(rest.len());
                    self.pos += len;
                    return Some(Token::Text(&rest[..len]));
                }
            }
        }
    }

    /// Reads what follows a backslash.
    fn control(&mut self) -> Token<'a> {
        self.pos += 1;
        let Some(&c) = self.bytes.get(self.pos) else {
            return Token::Text(b"");
        };
        if c.is_ascii_alphabetic() {
            return self.word();
        }
        self.pos += 1;
        match c {
            b'\\' | b'{' | b'}' => {
                let at = self.pos - 1;
                Token::Text(&self.bytes[at..=at])
            }
            b'\'' => {
                let hi = self.bytes.get(self.pos).and_then(|&h| hex(h));
                let lo = self.bytes.get(self.pos + 1).and_then(|&h| hex(h));
                match (hi, lo) {
                    (Some(h), Some(l)) => {
                        self.pos += 2;
                        Token::Hex(h << 4 | l)
                    }
                    (Some(h), None) => {
                        self.pos += 1;
                        Token::Hex(h)
                    }
                    _ => Token::Text(b""),
                }
            }
            b'\r' | b'\n' => Token::Word {
                name: b"par",
                param: None,
            },
            _ => Token::Symbol(c),
        }
    }

    /// Reads a control word whose first letter is at `pos`.
    fn word(&mut self) -> Token<'a> {
        let start = self.pos;
        let rest = &self.bytes[start..];
        let len = rest
            .iter()
            .position(|c| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        self.pos += len;
        // Over-long names (the spec allows 32 letters) stay one token and match no word.
        let name = &rest[..len];
        let mut param = None;
        let neg = self.bytes.get(self.pos) == Some(&b'-')
            && self
                .bytes
                .get(self.pos + 1)
                .is_some_and(|d| d.is_ascii_digit());
        if neg {
            self.pos += 1;
        }
        if self.bytes.get(self.pos).is_some_and(|d| d.is_ascii_digit()) {
            let mut v: i64 = 0;
            while let Some(&d) = self.bytes.get(self.pos) {
                if !d.is_ascii_digit() {
                    break;
                }
                v = (v * 10 + i64::from(d - b'0')).min(1 << 40);
                self.pos += 1;
            }
            let v = if neg { -v } else { v };
            param = Some(v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32);
        }
        if self.bytes.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        if name == b"bin"
            && let Some(n) = param.filter(|&n| n > 0)
        {
            let n = (n as usize).min(self.bytes.len() - self.pos);
            self.pos += n;
            return Token::Bin(n);
        }
        Token::Word { name, param }
    }

    /// Skips to the end of the group whose `{` was just read, without tokenizing text,
    /// honouring escapes and `\binN`. Returns false when the input ends first.
    pub(crate) fn skip_group(&mut self) -> bool {
        let mut depth: usize = 1;
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'{' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' => {
                    self.pos += 1;
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                b'\\' => {
                    if self
                        .bytes
                        .get(self.pos + 1)
                        .is_some_and(u8::is_ascii_alphabetic)
                    {
                        // A word: only \bin matters, the rest is skipped by the loop.
                        let _ = self.control();
                    } else {
                        self.pos += 2;
                    }
                }
                _ => {
                    let rest = &self.bytes[self.pos..];
                    let len = rest
                        .iter()
                        .position(|&c| matches!(c, b'\\' | b'{' | b'}'))
                        .unwrap_or(rest.len());
                    self.pos += len;
                }
            }
        }
        self.pos = self.bytes.len();
        false
    }
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(s: &[u8]) -> Vec<Token<'_>> {
        let mut l = Lexer::new(s);
        std::iter::from_fn(|| l.next_token()).collect()
    }

    #[test]
    fn words_symbols_hex_text() {
        let t = all(b"{\\b0 x\\'e9\\u-3\\~\\{}");
        assert_eq!(
            t,
            vec![
                Token::Open,
                Token::Word {
                    name: b"b",
                    param: Some(0)
                },
                Token::Text(b"x"),
                Token::Hex(0xe9),
                Token::Word {
                    name: b"u",
                    param: Some(-3)
                },
                Token::Symbol(b'~'),
                Token::Text(b"{"),
                Token::Close
            ]
        );
    }

    #[test]
    fn bin_and_overflow_are_clamped() {
        let t = all(b"\\bin3 {}}x\\fs99999999999999 \\bin999 ab");
        assert_eq!(t[0], Token::Bin(3));
        assert_eq!(t[1], Token::Text(b"x"));
        assert_eq!(
            t[2],
            Token::Word {
                name: b"fs",
                param: Some(i32::MAX)
            }
        );
        assert_eq!(t[3], Token::Bin(2));
        assert_eq!(t.len(), 4);
    }

    #[test]
    fn skip_group_honours_escapes() {
        let mut l = Lexer::new(b"a\\}b{c}\\bin2 }}d}e");
        assert!(l.skip_group());
        assert_eq!(l.next_token(), Some(Token::Text(b"e")));
        let mut l = Lexer::new(b"{{{");
        assert!(!l.skip_group());
    }
}
