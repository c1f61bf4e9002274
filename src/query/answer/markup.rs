//! Chunk markup rendered for a reader: readable plain text and balanced Markdown,
//! with the revision and comment facts they carry.
//!
//! Chunk text is Markdown with a few HTML elements (see `crate::chunk::render`):
//! `<ins>`/`<del>` for tracked changes (ECMA-376 17.13.5 `w:ins`, `w:del`, with
//! `type="move-to"`/`"move-from"` for `w:moveTo`/`w:moveFrom`), `<mark comment="id">`
//! for a comment's anchor (`w:commentRangeStart`..`End`), `<comment id author date
//! reply-to>` for the comment itself, HTML tables, `<u>`, `<br>`. An answer must not
//! carry that markup: a `<del>` cut by an excerpt would turn the rest of the answer
//! into a deletion. So:
//!
//! - plain text writes changes and comments as words: `[deleted by A: old]`,
//!   `new [inserted by A]`, `[comment by A on "anchor": text]`; Markdown emphasis,
//!   code marks, link targets and escapes are dropped, entities decoded;
//! - Markdown is the same text with every Markdown-special character escaped, plus
//!   emphasis and strikethrough of its own, opened and closed in one place, so it is
//!   balanced whatever the input (an unclosed or stray tag is ignored).

/// A tracked change found while rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `inserted`, `deleted`, `moved here` or `moved away`.
    pub kind: &'static str,
    /// The `author` attribute, empty when none was recorded.
    pub author: String,
    /// The `date` attribute (as the chunk wrote it), empty when none.
    pub date: String,
    /// The changed text, plain.
    pub text: String,
}

/// A comment found while rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The comment id.
    pub id: String,
    /// The `author` attribute, empty when none was recorded.
    pub author: String,
    /// The `date` attribute, empty when none.
    pub date: String,
    /// The id of the comment it replies to, empty when none.
    pub reply_to: String,
    /// The comment text, plain.
    pub text: String,
}

/// A rendering: plain text, Markdown and the facts met on the way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    /// Readable plain text, no markup.
    pub plain: String,
    /// Balanced Markdown.
    pub markdown: String,
    /// Tracked changes in text order.
    pub changes: Vec<Change>,
    /// Comments in text order.
    pub comments: Vec<Note>,
    /// Anchor text per comment id (`<mark comment="id">` spans joined by spaces).
    pub anchors: Vec<(String, String)>,
}

/// One open element whose text is buffered until it closes.
struct Frame {
    tag: String,
    attrs: String,
    plain: String,
    md: String,
}

/// Formatting tags with no attributes that carry nothing for a reader; removed
/// before reading so that Markdown around them (`[<u>link</u>](target)`) stays whole.
const TRANSPARENT: &[&str] = &[
    "<u>",
    "</u>",
    "<sup>",
    "</sup>",
    "<sub>",
    "</sub>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<em>",
    "</em>",
    "<strong>",
    "</strong>",
    "<s>",
    "</s>",
];

/// Code as a reader sees it: verbatim (no tag or Markdown read inside), zero-width
/// and direction controls removed; Markdown escapes every special character.
pub fn render_code(raw: &str) -> Rendered {
    let plain = strip_invisible(raw);
    Rendered {
        markdown: escape_md(&plain),
        plain,
        ..Rendered::default()
    }
}

/// `s` without zero-width characters and bidirectional controls (U+200B..U+200F,
/// U+202A..U+202E, U+2060..U+2064, U+2066..U+2069, U+FEFF): they hide a word from
/// matching and can reorder an answer's text.
pub fn strip_invisible(s: &str) -> String {
    s.chars()
        .filter(|&c| {
            !matches!(c as u32,
                0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
        })
        .collect()
}

/// `raw` without invisible characters ([`strip_invisible`]) and without the
/// [`TRANSPARENT`] formatting tags, as [`render`] and [`links`] read it.
pub fn clean(raw: &str) -> String {
    let mut cleaned = strip_invisible(raw);
    for t in TRANSPARENT {
        if cleaned.contains(t) {
            cleaned = cleaned.replace(t, "");
        }
    }
    cleaned
}

/// Renders `raw` (a block of chunk text). Never fails: unknown `<` is text, and
/// text inside backticks (inline code) is never read as a tag.
pub fn render(raw: &str) -> Rendered {
    let cleaned = clean(raw);
    let raw = cleaned.as_str();
    let mut out = Rendered::default();
    let mut stack: Vec<Frame> = vec![Frame {
        tag: String::new(),
        attrs: String::new(),
        plain: String::new(),
        md: String::new(),
    }];
    // Open `<mark comment>` ids with the anchor text gathered so far.
    let mut marks: Vec<(String, String)> = Vec::new();
    let mut rest = raw;
    while !rest.is_empty() {
        let (text, tag) = next_tag(rest);
        if !text.is_empty() {
            let p = inline_plain(text);
            if let Some(top) = stack.last_mut() {
                top.md.push_str(&escape_md(&p));
                top.plain.push_str(&p);
            }
            for m in &mut marks {
                m.1.push_str(&p);
            }
        }
        let Some((whole, name, attrs, closing)) = tag else {
            break;
        };
        rest = &rest[text.len() + whole.len()..];
        match (name, closing) {
            ("ins" | "del" | "comment", false) => stack.push(Frame {
                tag: name.to_string(),
                attrs: attrs.to_string(),
                plain: String::new(),
                md: String::new(),
            }),
            ("ins" | "del" | "comment", true)
                if stack.len() > 1 && stack.last().is_some_and(|f| f.tag == name) =>
            {
                close(&mut stack, &mut out);
            }
            ("mark", false) => marks.push((attr(attrs, "comment"), String::new())),
            ("mark", true) => {
                // One mark may anchor several comments: `comment="1 2"`.
                if let Some((ids, text)) = marks.pop() {
                    for id in ids.split_whitespace() {
                        push_anchor(&mut out.anchors, id.to_string(), text.clone());
                    }
                }
            }
            ("br", _) | ("td" | "th", true) => push_both(&mut stack, " "),
            ("td" | "th", false) => push_both(&mut stack, "| "),
            ("tr", true) | ("table", _) => push_both(&mut stack, "\n"),
            _ => {}
        }
    }
    while stack.len() > 1 {
        close(&mut stack, &mut out);
    }
    while let Some((ids, text)) = marks.pop() {
        for id in ids.split_whitespace() {
            push_anchor(&mut out.anchors, id.to_string(), text.clone());
        }
    }
    if let Some(root) = stack.pop() {
        out.plain = tidy(&root.plain);
        out.markdown = tidy(&root.md);
    }
    out
}

fn push_anchor(anchors: &mut Vec<(String, String)>, id: String, text: String) {
    let text = tidy(&text);
    match anchors.iter_mut().find(|a| a.0 == id) {
        Some(a) => {
            if !text.is_empty() {
                a.1.push(' ');
                a.1.push_str(&text);
            }
        }
        None => anchors.push((id, text)),
    }
}

fn push_both(stack: &mut [Frame], s: &str) {
    if let Some(top) = stack.last_mut() {
        top.plain.push_str(s);
        top.md.push_str(s);
    }
}

/// Closes the top frame into its parent, writing the change or comment as words.
fn close(stack: &mut Vec<Frame>, out: &mut Rendered) {
    let Some(f) = stack.pop() else {
        return;
    };
    let author = attr(&f.attrs, "author");
    let date = attr(&f.attrs, "date");
    let text = tidy(&f.plain);
    let md = tidy(&f.md);
    let by = if author.is_empty() {
        String::new()
    } else {
        format!(" by {author}")
    };
    let by_md = escape_md(&by);
    let (plain, markdown) = if f.tag == "comment" {
        let reply_to = attr(&f.attrs, "reply-to");
        let what = if reply_to.is_empty() {
            "comment"
        } else {
            "reply"
        };
        out.comments.push(Note {
            id: attr(&f.attrs, "id"),
            author: author.clone(),
            date,
            reply_to,
            text: text.clone(),
        });
        (
            format!(" [{what}{by}: {text}]"),
            format!(" *\\[{what}{by_md}: {md}\\]*"),
        )
    } else {
        let kind = match (f.tag.as_str(), attr(&f.attrs, "type").as_str()) {
            ("ins", "move-to") => "moved here",
            ("del", "move-from") => "moved away",
            ("ins", _) => "inserted",
            _ => "deleted",
        };
        // An insertion with no text is an inserted paragraph mark (ECMA-376
        // 17.13.5.16, `w:ins` in a paragraph mark's `w:rPr`): it splits a paragraph
        // and adds no words, so it is neither written nor counted as a change.
        if f.tag == "ins" && text.trim().is_empty() {
            // An inserted space still parts the words around it.
            if !f.plain.is_empty() {
                push_both(stack, " ");
            }
            return;
        }
        // A deleted paragraph mark is written `¶` (docx reader): it joins paragraphs,
        // it is not text anyone removed.
        let changed = if f.tag == "del" {
            text.replace('\u{b6}', "").trim().to_string()
        } else {
            text.clone()
        };
        out.changes.push(Change {
            kind,
            author,
            date,
            text: changed,
        });
        if f.tag == "del" {
            (
                format!("[{kind}{by}: {text}]"),
                format!("~~{md}~~ *\\[{kind}{by_md}\\]*"),
            )
        } else {
            (
                format!("[{kind}{by}: {text}]"),
                format!("{md} *\\[{kind}{by_md}\\]*"),
            )
        }
    };
    if let Some(top) = stack.last_mut() {
        top.plain.push_str(&plain);
        top.md.push_str(&markdown);
    }
}

/// The text before the next known tag, and the tag: (whole tag, name, attributes,
/// closing). Only names of the chunk format count as tags.
fn next_tag(s: &str) -> (&str, Option<(&str, &str, &str, bool)>) {
    let mut from = 0;
    while let Some(i) = s[from..].find(['<', '`']).map(|i| i + from) {
        if s[i..].starts_with('`') {
            // An inline code span: to the next run of as many backticks, or one
            // backtick of text when it is never closed.
            let run = s[i..].bytes().take_while(|&b| b == b'`').count();
            let fence = &s[i..i + run];
            from = s[i + run..]
                .find(fence)
                .map_or(i + run, |j| i + run + j + run);
            continue;
        }
        let after = &s[i + 1..];
        let closing = after.starts_with('/');
        let body = if closing { &after[1..] } else { after };
        let name_len = body
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(body.len());
        let name = &body[..name_len];
        let known = matches!(
            name,
            "ins"
                | "del"
                | "mark"
                | "comment"
                | "u"
                | "br"
                | "sup"
                | "sub"
                | "s"
                | "b"
                | "i"
                | "em"
                | "strong"
                | "span"
                | "table"
                | "tr"
                | "td"
                | "th"
                | "thead"
                | "tbody"
                | "code"
                | "caption"
        );
        if known && let Some(end) = s[i..].find('>') {
            let whole = &s[i..i + end + 1];
            let attrs_start = 1 + usize::from(closing) + name_len;
            let attrs = whole
                .get(attrs_start..whole.len() - 1)
                .unwrap_or("")
                .trim_end_matches('/');
            return (&s[..i], Some((whole, name, attrs, closing)));
        }
        from = i + 1;
    }
    (s, None)
}

/// The value of attribute `name` (double-quoted), entities decoded; empty when none.
pub fn attr(attrs: &str, name: &str) -> String {
    let mut rest = attrs;
    while let Some(i) = rest.find(name) {
        let before_ok = i == 0 || rest[..i].ends_with(' ');
        let tail = &rest[i + name.len()..];
        if before_ok && let Some(v) = tail.strip_prefix("=\"") {
            let end = v.find('"').unwrap_or(v.len());
            return decode(&v[..end]);
        }
        rest = &rest[i + name.len()..];
    }
    String::new()
}

/// HTML entities of the chunk format decoded.
fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// How a note reference reads in plain text: `[^n]` becomes `(note n)`.
pub const NOTE_MARK: &str = "(note ";

/// Inline Markdown of a text run as plain text: emphasis and code marks dropped,
/// `[text](target)` as its text, `[^n]` as `(note n)`, escapes and entities resolved.
pub fn inline_plain(s: &str) -> String {
    inline(s, &mut Vec::new())
}

/// The links of inline Markdown `s`, `[text](target)`, as (plain text, target) in
/// text order.
pub fn links(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    inline(&clean(s), &mut out);
    out
}

/// [`inline_plain`], pushing each link's (text, target) to `links`.
fn inline(s: &str, links: &mut Vec<(String, String)>) -> String {
    let s = decode(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '`' => {}
            // "~~struck~~": the marks go, the text stays.
            '~' if chars.get(i + 1) == Some(&'~') => {
                i += 2;
                continue;
            }
            '*' | '_' => {
                let prev = i.checked_sub(1).map(|j| chars[j]);
                let next = chars.get(i + 1).copied();
                let word = |x: Option<char>| x.is_some_and(char::is_alphanumeric);
                let space = |x: Option<char>| x.is_none_or(char::is_whitespace);
                // A mark between two word characters ("snake_case") or between two
                // spaces ("2 * 3") is text; elsewhere it is emphasis.
                let text = (word(prev) && word(next)) || (space(prev) && space(next));
                if text {
                    out.push(c);
                }
            }
            '!' if chars.get(i + 1) == Some(&'[') => {}
            '[' => {
                if chars.get(i + 1) == Some(&'^')
                    && let Some(end) = chars[i..].iter().position(|&x| x == ']')
                {
                    let label: String = chars[i + 2..i + end].iter().collect();
                    out.push_str(&format!("{NOTE_MARK}{label})"));
                    i += end + 1;
                    continue;
                }
                if let Some(end) = chars[i..].iter().position(|&x| x == ']') {
                    let close = i + end;
                    if chars.get(close + 1) == Some(&'(')
                        && let Some(t) = chars[close..].iter().position(|&x| x == ')')
                    {
                        let label: String = chars[i + 1..close].iter().collect();
                        let text = inline(&label, links);
                        let target: String = chars[close + 2..close + t].iter().collect();
                        links.push((text.clone(), target.trim().to_string()));
                        out.push_str(&text);
                        i = close + t + 1;
                        continue;
                    }
                }
                out.push(c);
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// `s` with every character Markdown could read as markup escaped.
pub fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '~' | '|' | '#' | '$'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whitespace runs collapsed to one space, per line; blank lines dropped.
fn tidy(s: &str) -> String {
    s.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inserted_paragraph_mark_adds_no_words_and_no_change() {
        let r = render("A place in Abkhazia<ins author=\"pavel\"></ins>");
        assert_eq!(r.plain, "A place in Abkhazia");
        assert!(r.changes.is_empty());
        let r = render("one<ins author=\"pavel\"> </ins>two");
        assert_eq!(r.plain, "one two");
    }

    #[test]
    fn changes_and_comments_as_words() {
        let r = render(
            "The <del author=\"Ann\">old</del><ins author=\"Ann\">new</ins> \
             <mark comment=\"3\">**document**</mark><comment id=\"3\" author=\"Bo\">Nice!</comment>.",
        );
        assert_eq!(
            r.plain,
            "The [deleted by Ann: old][inserted by Ann: new] document [comment by Bo: Nice!]."
        );
        assert_eq!(
            r.markdown,
            "The ~~old~~ *\\[deleted by Ann\\]*new *\\[inserted by Ann\\]* document *\\[comment by Bo: Nice!\\]*."
        );
        assert_eq!(r.changes.len(), 2);
        assert_eq!(r.changes[0].kind, "deleted");
        assert_eq!(r.comments[0].author, "Bo");
        assert_eq!(r.anchors, [("3".to_string(), "document".to_string())]);
    }

    #[test]
    fn unclosed_and_stray_tags_never_leak() {
        let r = render("a <del author=\"X\">cut off</ins> and </del> more <mark comment=\"1\">x");
        assert!(!r.plain.contains('<'));
        assert_eq!(r.plain, "a [deleted by X: cut off and] more x");
        assert_eq!(r.markdown.matches("~~").count(), 2);
    }

    #[test]
    fn inline_markdown_and_tables() {
        assert_eq!(
            inline_plain("**Bold** [link](http://x) `code` a_b 2 * 3 [^1] \\[5]"),
            "Bold link code a_b 2 * 3 (note 1) [5]"
        );
        let r = render("<table>\n<tr><th>**A**</th><th>B</th></tr>\n</table>");
        assert_eq!(r.plain, "| A | B");
    }

    #[test]
    fn code_is_text_links_keep_their_words_and_marks_anchor_every_id() {
        let r = render("Use `<del>x</del>` and [<u>Paris</u>](http://p.example) here.");
        assert_eq!(r.plain, "Use <del>x</del> and Paris here.");
        assert!(r.changes.is_empty());
        let r = render("<mark comment=\"1 2\">both</mark><comment id=\"1\">a</comment>");
        assert_eq!(
            r.anchors,
            [("1".into(), "both".into()), ("2".into(), "both".into())]
        );
        assert_eq!(render("pa\u{200C}ss\u{200D}word").plain, "password");
        assert_eq!(
            render_code("<ins>kept</ins> *as is*").plain,
            "<ins>kept</ins> *as is*"
        );
    }
}
