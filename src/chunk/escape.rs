//! Escaping and small string helpers shared by the renderers.
//!
//! Escaping is minimal on purpose: enough that document text cannot forge docrag's own
//! markup (a `<` that could open a tag becomes `&lt;`; attribute values escape quotes,
//! `&` and `<`) and that a `|` cannot break a pipe table. Everything else stays as the
//! author wrote it, because every escape costs tokens.

/// Appends `s` to `out`, turning a `<` that could open a tag (followed by a letter,
/// `/`, `!` or `?`) into `&lt;`, and breaking text that spells Markdown link syntax:
/// `](` becomes `]\(`, `][` becomes `]\[`, `]:` becomes `]\:` and `![` becomes `!\[`
/// (CommonMark 2.4 backslash escapes). Document text then never renders as a live
/// link, image (a remote fetch) or reference definition in a plain Markdown renderer;
/// real links of the source format are written by the renderer, not through here.
pub(crate) fn push_text(s: &str, out: &mut String) {
    // Every character acted on is ASCII, so bytes are scanned and the text between
    // them is copied as slices (always at char boundaries).
    let b = s.as_bytes();
    let mut copied = 0;
    for (i, &c) in b.iter().enumerate() {
        let prev = if i > 0 { b[i - 1] } else { 0 };
        let escape: Option<&str> = match c {
            // `i + 1` follows an ASCII byte: a char boundary.
            b'<' => s
                .get(i + 1..)
                .and_then(|r| r.chars().next())
                .filter(|&n| n.is_alphabetic() || matches!(n, '/' | '!' | '?'))
                .map(|_| "&lt;"),
            b'(' if prev == b']' => Some("\\("),
            b'[' if prev == b']' || prev == b'!' => Some("\\["),
            b':' if prev == b']' => Some("\\:"),
            _ => None,
        };
        if let Some(e) = escape {
            out.push_str(&s[copied..i]);
            out.push_str(e);
            copied = i + 1;
        }
    }
    out.push_str(&s[copied..]);
}

/// Appends LaTeX source `tex` for use between `$` delimiters: never escaped as
/// Markdown, but `<` and `>` become `\lt ` / `\gt ` (so a formula cannot forge a tag),
/// a `$` not already escaped becomes `\$` (so it cannot close the formula), and
/// newlines become spaces.
pub(crate) fn push_tex(tex: &str, out: &mut String) {
    let mut backslashes = 0usize;
    for c in tex.chars() {
        match c {
            '<' => out.push_str("\\lt "),
            '>' => out.push_str("\\gt "),
            '$' if backslashes.is_multiple_of(2) => out.push_str("\\$"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
}

/// Most characters of one attribute value written (an author, a date, comment ids);
/// the rest is cut and marked with `…`. Real values are far shorter; the cap keeps a
/// hostile attribute, repeated on every piece of a split paragraph, from multiplying
/// the output.
pub(crate) const MAX_ATTR_CHARS: usize = 80;

/// Appends `s` escaped for a double-quoted attribute value, cut to
/// [`MAX_ATTR_CHARS`] characters.
pub(crate) fn push_attr(s: &str, out: &mut String) {
    for (n, c) in s.chars().enumerate() {
        if n == MAX_ATTR_CHARS {
            out.push('…');
            break;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
}

/// Appends `s` as HTML element content: `&`, `<` and `>` escaped, nothing else (the
/// text of a `<code>` in an HTML table cell, where Markdown is not read).
pub(crate) fn push_html_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Makes rendered cell content safe inside a GFM pipe table row: `|` becomes `\|`
/// (a backslash right before a pipe is doubled first) and newlines become `<br>`.
pub(crate) fn pipe_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '\r' => {}
            '\n' => out.push_str("<br>"),
            _ => out.push(c),
        }
    }
    out
}

/// Collapses every run of whitespace to one space and trims the ends.
pub(crate) fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// The longest prefix of `s` with at most `max` chars (never cuts a char).
pub(crate) fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// `s` cut to at most `max` chars at a word boundary when possible, with `…` appended
/// when something was cut.
pub(crate) fn clip_words(s: &str, max: usize) -> String {
    let head = clip(s, max);
    if head.len() == s.len() {
        return s.to_string();
    }
    let cut = match head.rfind(' ') {
        Some(i) if i > head.len() / 2 => &head[..i],
        _ => head,
    };
    format!("{}…", cut.trim_end())
}

/// The date part of an ISO 8601 timestamp (`2016-03-01T10:00:00Z` -> `2016-03-01`);
/// other strings unchanged.
pub(crate) fn short_date(d: &str) -> &str {
    let b = d.as_bytes();
    let iso = b.len() >= 10
        && b[..10].iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if iso { &d[..10] } else { d.trim() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelled_out_markdown_links_and_images_are_broken() {
        for (text, want) in [
            ("[x](javascript:alert(1))", "[x]\\(javascript:alert(1))"),
            (
                "![i](http://evil.example/p.png)",
                "!\\[i]\\(http://evil.example/p.png)",
            ),
            ("[x]: http://evil.example", "[x]\\: http://evil.example"),
            ("[text][ref]", "[text]\\[ref]"),
            ("see [1] and (2): fine", "see [1] and (2): fine"),
        ] {
            let mut s = String::new();
            push_text(text, &mut s);
            assert_eq!(s, want, "{text}");
        }
    }

    #[test]
    fn text_escapes_only_tag_openers() {
        let mut s = String::new();
        push_text("a < b, <ins author=\"x\"> </x> <!-- <3", &mut s);
        assert_eq!(s, "a < b, &lt;ins author=\"x\"> &lt;/x> &lt;!-- <3");
    }

    #[test]
    fn tex_neutralises_tags_and_dollars() {
        let mut s = String::new();
        push_tex("a<b>c $x\\$ \\\\$\n<ins>", &mut s);
        assert_eq!(s, "a\\lt b\\gt c \\$x\\$ \\\\\\$ \\lt ins\\gt ");
    }

    #[test]
    fn attr_and_pipes() {
        let mut s = String::new();
        push_attr("Jo \"x\" <y> & z", &mut s);
        assert_eq!(s, "Jo &quot;x&quot; &lt;y&gt; &amp; z");
        assert_eq!(pipe_cell("a|b\\|c\nd"), "a\\|b\\\\\\|c<br>d");
    }

    #[test]
    fn clipping_respects_chars() {
        assert_eq!(clip("héllo", 2), "hé");
        assert_eq!(clip_words("alpha beta gamma", 12), "alpha beta…");
        assert_eq!(short_date("2016-03-01T10:00:00Z"), "2016-03-01");
        assert_eq!(short_date("yesterday"), "yesterday");
        assert_eq!(one_line("  a \n b\t"), "a b");
    }
}
