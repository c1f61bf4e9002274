//! The encoding prescan of the HTML Standard (13.2.3.2 "Determining the character
//! encoding", the "prescan a byte stream to determine its encoding" algorithm): looks
//! for `<meta charset>` or `<meta http-equiv="content-type" content="...charset=...">`
//! in the first 1024 bytes, skipping comments and the attributes of other tags.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the prescan looks at (the spec's recommended 1024).
const WINDOW: usize = 1024;

/// The encoding declared by a `<meta>` in the first 1024 bytes, if any. A declared
/// UTF-16 becomes UTF-8 and `x-user-defined` becomes windows-1252, as the spec says
/// (a document that can be prescanned as ASCII is not UTF-16).
pub(super) fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let b = bytes.get(..bytes.len().min(WINDOW)).unwrap_or(bytes);
    let mut s = Scan { b, pos: 0 };
    while s.pos < b.len() {
        if s.starts_with(b"<!--") {
            // A comment: skip to the end of "-->" (whose '>' may share the opening dashes).
            let from = s.pos + 2;
            match find(b, from, b"-->") {
                Some(i) => s.pos = i + 3,
                None => return None,
            }
            continue;
        }
        if s.starts_with_ci(b"<meta") && s.at(5).is_some_and(|c| is_space(c) || c == b'/') {
            s.pos += 5;
            if let Some(enc) = meta(&mut s) {
                return Some(match enc {
                    e if e == UTF_16BE || e == UTF_16LE => UTF_8,
                    e if e == X_USER_DEFINED => WINDOWS_1252,
                    e => e,
                });
            }
            continue;
        }
        let letter_at = |i: usize| s.at(i).is_some_and(|c| c.is_ascii_alphabetic());
        if s.at(0) == Some(b'<') && (letter_at(1) || (s.at(1) == Some(b'/') && letter_at(2))) {
            // Another tag: skip its name, then its attributes (so a '>' in a quoted
            // attribute value does not end it early).
            while s.pos < b.len() && !s.at(0).is_some_and(|c| is_space(c) || c == b'>') {
                s.pos += 1;
            }
            while get_attribute(&mut s).is_some() {}
            continue;
        }
        if s.starts_with(b"<!") || s.starts_with(b"</") || s.starts_with(b"<?") {
            match find(b, s.pos, b">") {
                Some(i) => s.pos = i + 1,
                None => return None,
            }
            continue;
        }
        s.pos += 1;
    }
    None
}

/// The attributes of one `<meta>` tag (the position is just after `<meta`); the
/// encoding it declares, if it declares one the way the spec accepts.
fn meta(s: &mut Scan<'_>) -> Option<&'static Encoding> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value)) = get_attribute(s) {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" if value == b"content-type" => got_pragma = true,
            b"content" if charset.is_none() => {
                if let Some(label) = charset_from_content(&value) {
                    charset = Encoding::for_label(label);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset,
    }
}

/// The spec's "get an attribute" algorithm: the next attribute's lower-cased name and
/// value, or `None` at the end of the tag (or of the window).
fn get_attribute(s: &mut Scan<'_>) -> Option<(Vec<u8>, Vec<u8>)> {
    while s.at(0).is_some_and(|c| is_space(c) || c == b'/') {
        s.pos += 1;
    }
    let c = s.at(0)?;
    if c == b'>' {
        return None;
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // The name.
    loop {
        let c = s.at(0)?;
        if c == b'=' && !name.is_empty() {
            s.pos += 1;
            break;
        }
        if is_space(c) {
            while s.at(0).is_some_and(is_space) {
                s.pos += 1;
            }
            if s.at(0)? != b'=' {
                return Some((name, value));
            }
            s.pos += 1;
            break;
        }
        if c == b'/' || c == b'>' {
            return Some((name, value));
        }
        name.push(c.to_ascii_lowercase());
        s.pos += 1;
    }
    // The value.
    while s.at(0).is_some_and(is_space) {
        s.pos += 1;
    }
    let c = s.at(0)?;
    if c == b'"' || c == b'\'' {
        s.pos += 1;
        loop {
            let d = s.at(0)?;
            s.pos += 1;
            if d == c {
                return Some((name, value));
            }
            value.push(d.to_ascii_lowercase());
        }
    }
    if c == b'>' {
        return Some((name, value));
    }
    loop {
        let Some(d) = s.at(0) else {
            return Some((name, value));
        };
        if is_space(d) || d == b'>' {
            return Some((name, value));
        }
        value.push(d.to_ascii_lowercase());
        s.pos += 1;
    }
}

/// The spec's "extract a character encoding from a meta element": the label after
/// `charset=` in a `content` value (already lower-cased).
pub(super) fn charset_from_content(v: &[u8]) -> Option<&[u8]> {
    let mut from = 0;
    loop {
        let i = find_ci(v, from, b"charset")?;
        let mut p = i + 7;
        while v.get(p).copied().is_some_and(is_space) {
            p += 1;
        }
        if v.get(p) != Some(&b'=') {
            from = i + 7;
            continue;
        }
        p += 1;
        while v.get(p).copied().is_some_and(is_space) {
            p += 1;
        }
        let q = *v.get(p)?;
        if q == b'"' || q == b'\'' {
            let rest = v.get(p + 1..)?;
            let end = rest.iter().position(|&c| c == q)?;
            return rest.get(..end);
        }
        let rest = v.get(p..)?;
        let end = rest
            .iter()
            .position(|&c| is_space(c) || c == b';')
            .unwrap_or(rest.len());
        return rest.get(..end).filter(|l| !l.is_empty());
    }
}

struct Scan<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Scan<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(self.pos + i).copied()
    }
    fn starts_with(&self, p: &[u8]) -> bool {
        self.b.get(self.pos..).is_some_and(|r| r.starts_with(p))
    }
    fn starts_with_ci(&self, p: &[u8]) -> bool {
        self.b
            .get(self.pos..self.pos + p.len())
            .is_some_and(|r| r.eq_ignore_ascii_case(p))
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

fn find_ci(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_6, SHIFT_JIS, WINDOWS_1256};

    #[test]
    fn meta_charset() {
        assert_eq!(
            prescan(b"<html><meta charset=\"windows-1256\">"),
            Some(WINDOWS_1256)
        );
        assert_eq!(prescan(b"<META CHARSET=Shift_JIS>"), Some(SHIFT_JIS));
    }

    #[test]
    fn http_equiv_needs_pragma() {
        let with = b"<meta http-equiv=Content-Type content=\"text/html; charset=iso-8859-6\">";
        assert_eq!(prescan(with), Some(ISO_8859_6));
        let without = b"<meta content=\"text/html; charset=iso-8859-6\">";
        assert_eq!(prescan(without), None);
    }

    #[test]
    fn comments_and_attributes_are_skipped() {
        assert_eq!(prescan(b"<!-- <meta charset=koi8-r> --><p>"), None);
        assert_eq!(prescan(b"<div title='<meta charset=koi8-r>'>"), None);
        assert_eq!(prescan(b"<meta charset=utf-16le>"), Some(UTF_8));
        assert_eq!(
            prescan(b"<meta charset=x-user-defined>"),
            Some(WINDOWS_1252)
        );
    }

    #[test]
    fn only_the_first_kilobyte() {
        let mut v = vec![b' '; 2000];
        v.extend_from_slice(b"<meta charset=windows-1256>");
        assert_eq!(prescan(&v), None);
    }

    #[test]
    fn content_charset_forms() {
        assert_eq!(
            charset_from_content(b"text/html; charset=utf-8"),
            Some(&b"utf-8"[..])
        );
        assert_eq!(
            charset_from_content(b"text/html;charset = 'x'"),
            Some(&b"x"[..])
        );
        assert_eq!(
            charset_from_content(b"charsetx; charset=a;b"),
            Some(&b"a"[..])
        );
        assert_eq!(charset_from_content(b"text/html"), None);
    }
}
