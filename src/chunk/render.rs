//! Leaves -> Markdown.
//!
//! Wrappers nest in one fixed order, outermost first: comment range
//! (`<mark comment="…">`), tracked change (`<ins>`/`<del>`), link (`[…](…)`), character
//! style (`~~`, `**`, `*`, `<u>`, `<sup>`/`<sub>`, or a code span). Each level groups
//! maximal runs of leaves with the same value, so markup is always balanced.

use super::escape::{push_attr, push_html_text, push_tex, push_text, short_date};
use super::flatten::{Flat, Item, Leaf};
use crate::model::{NoteKind, RevisionKind, TextStyle};

/// Where the inline content goes; decides line breaks, tabs and newlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A Markdown block: breaks are `"  \n"`, tabs `\t`.
    Block,
    /// A heading: one line, breaks and tabs are spaces.
    Line,
    /// A pipe-table cell: breaks are `<br>`, tabs spaces, no newlines.
    Cell,
    /// An HTML-table cell: as [`Mode::Cell`], with emphasis, links and code as HTML
    /// (`<strong>`, `<em>`, `<s>`, `<a href>`, `<code>`): CommonMark renders no
    /// Markdown inside an HTML block.
    HtmlCell,
}

/// Renders all leaves of `flat`.
pub(crate) fn render(flat: &Flat, mode: Mode) -> String {
    render_leaves(flat, &flat.leaves, mode)
}

/// Renders `leaves` (a slice of `flat.leaves` or of a piece of it) with `flat`'s tables.
pub(crate) fn render_leaves(flat: &Flat, leaves: &[Leaf], mode: Mode) -> String {
    let mut out = String::new();
    if leaves.iter().all(plain) {
        // Most paragraphs: no comment range, tracked change, link or formatting, so
        // none of the nested levels below would add a mark.
        for leaf in leaves {
            item(flat, &leaf.item, false, mode, &mut out);
        }
    } else {
        marks_level(flat, leaves, mode, &mut out);
    }
    if mode == Mode::Block && out.contains("$$\n") {
        out = tidy_display(&out);
    }
    out
}

/// Display formulas are written as `\n$$…$$\n`; where a line break or another
/// display formula already stands next to one, the extra blank line goes.
fn tidy_display(s: &str) -> String {
    s.replace("  \n\n$$", "\n$$")
        .replace("$$\n  \n", "$$\n")
        .replace("$$\n\n$$", "$$\n$$")
}

/// A leaf that no level of the rendering wraps in anything.
fn plain(leaf: &Leaf) -> bool {
    leaf.marks == 0 && leaf.rev == 0 && leaf.link == 0 && leaf.style == TextStyle::default()
}

/// Ends of the maximal runs of `leaves` with equal `key`.
fn runs<K: PartialEq>(leaves: &[Leaf], key: impl Fn(&Leaf) -> K) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=leaves.len() {
        let boundary = match (leaves.get(start), leaves.get(i)) {
            (Some(a), Some(b)) => key(a) != key(b),
            _ => true,
        };
        if boundary && i > start {
            out.push((start, i));
            start = i;
        }
    }
    out
}

fn visible(leaves: &[Leaf]) -> bool {
    leaves.iter().any(|l| match &l.item {
        Item::Text(t) => !t.trim().is_empty(),
        Item::Image(_) | Item::Math(..) | Item::Note(..) | Item::Comment(_) => true,
        Item::Tab | Item::Break | Item::PageBreak => false,
    })
}

fn marks_level(flat: &Flat, leaves: &[Leaf], mode: Mode, out: &mut String) {
    for (a, b) in runs(leaves, |l| l.marks) {
        let run = &leaves[a..b];
        let set = run
            .first()
            .and_then(|l| (l.marks as usize).checked_sub(1))
            .and_then(|i| flat.t.marks.get(i))
            .filter(|_| visible(run));
        match set {
            Some(set) => {
                out.push_str("<mark comment=\"");
                push_attr(&set.ids.join(" "), out);
                out.push_str("\">");
                rev_level(flat, run, mode, out);
                out.push_str("</mark>");
            }
            None => rev_level(flat, run, mode, out),
        }
    }
}

fn rev_level(flat: &Flat, leaves: &[Leaf], mode: Mode, out: &mut String) {
    for (a, b) in runs(leaves, |l| l.rev) {
        let run = &leaves[a..b];
        let rev = run
            .first()
            .and_then(|l| (l.rev as usize).checked_sub(1))
            .and_then(|i| flat.t.revs.get(i));
        match rev {
            Some(rev) => {
                let (tag, kind) = match rev.kind {
                    RevisionKind::Insertion => ("ins", None),
                    RevisionKind::Deletion => ("del", None),
                    RevisionKind::MoveFrom => ("del", Some("move-from")),
                    RevisionKind::MoveTo => ("ins", Some("move-to")),
                };
                out.push('<');
                out.push_str(tag);
                if let Some(k) = kind {
                    out.push_str(" type=\"");
                    out.push_str(k);
                    out.push('"');
                }
                if let Some(a) = rev
                    .author
                    .as_deref()
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                {
                    out.push_str(" author=\"");
                    push_attr(a, out);
                    out.push('"');
                }
                if let Some(d) = rev.date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
                    out.push_str(" date=\"");
                    push_attr(short_date(d), out);
                    out.push('"');
                }
                out.push('>');
                link_level(flat, run, mode, out);
                out.push_str("</");
                out.push_str(tag);
                out.push('>');
            }
            None => link_level(flat, run, mode, out),
        }
    }
}

/// Longest link target written, in bytes (UTF-8). A longer target is dropped and the
/// link text kept: such a target (a tracking URL, a data blob) says little to a reader
/// or a model, and written on every piece of a split paragraph it would multiply the
/// output.
pub(crate) const MAX_LINK_TARGET_BYTES: usize = 512;

fn link_level(flat: &Flat, leaves: &[Leaf], mode: Mode, out: &mut String) {
    for (a, b) in runs(leaves, |l| l.link) {
        let run = &leaves[a..b];
        let target = run
            .first()
            .and_then(|l| (l.link as usize).checked_sub(1))
            .and_then(|i| flat.t.links.get(i))
            .filter(|t| {
                !t.starts_with('#')
                    && t.len() <= MAX_LINK_TARGET_BYTES
                    && !active_scheme(t)
                    && visible(run)
            });
        match target {
            Some(t) if mode == Mode::HtmlCell => {
                let mut inner = String::new();
                style_level(flat, run, mode, &mut inner);
                let lead = &inner[..inner.len() - inner.trim_start().len()];
                let trail = &inner[inner.trim_end().len()..];
                out.push_str(lead);
                out.push_str("<a href=\"");
                push_url(t, out);
                out.push_str("\">");
                out.push_str(inner.trim());
                out.push_str("</a>");
                out.push_str(trail);
            }
            Some(t) => {
                let mut inner = String::new();
                style_level(flat, run, mode, &mut inner);
                let trimmed = inner.trim();
                let lead = &inner[..inner.len() - inner.trim_start().len()];
                let trail = &inner[inner.trim_end().len()..];
                out.push_str(lead);
                out.push('[');
                // Brackets inside link text become parentheses so the link stays one
                // link and an image in it stays distinct: `[(image: logo) Home](…)`.
                out.push_str(&trimmed.replace('[', "(").replace(']', ")"));
                out.push_str("](");
                push_url(t, out);
                out.push(')');
                out.push_str(trail);
            }
            None => style_level(flat, run, mode, out),
        }
    }
}

/// Whether `url` runs code or carries a document when followed (`javascript:`,
/// `vbscript:`, `data:`): such links keep their text and lose the target, so output
/// rendered without a sanitizer cannot run them. Browsers ignore ASCII whitespace and
/// control characters inside a scheme, so they are skipped here too.
fn active_scheme(url: &str) -> bool {
    let scheme: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control())
        .take_while(|c| *c != ':')
        .take(16)
        .collect::<String>()
        .to_ascii_lowercase();
    url.contains(':') && matches!(scheme.as_str(), "javascript" | "vbscript" | "data")
}

fn push_url(url: &str, out: &mut String) {
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '"' => out.push_str("%22"),
            '|' => out.push_str("%7C"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// Character-style flags in nesting order, outermost first (code spans innermost):
/// the test and its Markdown and HTML markers.
type StyleFlag = (fn(&TextStyle) -> bool, [&'static str; 2], [&'static str; 2]);
const STYLE_FLAGS: [StyleFlag; 6] = [
    (|s| s.strike, ["~~", "~~"], ["<s>", "</s>"]),
    (|s| s.bold, ["**", "**"], ["<strong>", "</strong>"]),
    (|s| s.italic, ["*", "*"], ["<em>", "</em>"]),
    (|s| s.underline, ["<u>", "</u>"], ["<u>", "</u>"]),
    (|s| s.superscript, ["<sup>", "</sup>"], ["<sup>", "</sup>"]),
    (
        |s| s.subscript && !s.superscript,
        ["<sub>", "</sub>"],
        ["<sub>", "</sub>"],
    ),
];

fn style_level(flat: &Flat, leaves: &[Leaf], mode: Mode, out: &mut String) {
    style_flag(flat, leaves, 0, mode, out);
}

/// Groups by one style flag at a time so that, e.g., a bold run with an underlined
/// word inside stays one bold span.
fn style_flag(flat: &Flat, leaves: &[Leaf], depth: usize, mode: Mode, out: &mut String) {
    let Some((flag, markdown, html)) = STYLE_FLAGS.get(depth) else {
        code_level(flat, leaves, mode, out);
        return;
    };
    let [open, close] = if mode == Mode::HtmlCell {
        html
    } else {
        markdown
    };
    for (a, b) in runs(leaves, |l| flag(&l.style)) {
        let run = &leaves[a..b];
        let on = run.first().is_some_and(|l| flag(&l.style));
        if !on {
            style_flag(flat, run, depth + 1, mode, out);
            continue;
        }
        let mut inner = String::new();
        style_flag(flat, run, depth + 1, mode, &mut inner);
        wrap(&inner, open, close, out);
    }
}

fn code_level(flat: &Flat, leaves: &[Leaf], mode: Mode, out: &mut String) {
    for (a, b) in runs(leaves, |l| l.style.code) {
        let run = &leaves[a..b];
        let code = run.first().is_some_and(|l| l.style.code);
        if !code {
            for leaf in run {
                item(flat, &leaf.item, false, mode, out);
            }
            continue;
        }
        let mut content = String::new();
        for leaf in run {
            item(flat, &leaf.item, code, mode, &mut content);
        }
        if !code || content.trim().is_empty() {
            out.push_str(&content);
            continue;
        }
        if mode == Mode::HtmlCell {
            let mut escaped = String::with_capacity(content.len());
            push_html_text(&content, &mut escaped);
            wrap(&escaped, "<code>", "</code>", out);
            continue;
        }
        let trimmed = content.trim();
        let mut longest = 0;
        let mut cur = 0;
        for c in trimmed.chars() {
            cur = if c == '`' { cur + 1 } else { 0 };
            longest = longest.max(cur);
        }
        let fence = "`".repeat(longest + 1);
        let pad = if trimmed.starts_with('`') || trimmed.ends_with('`') {
            " "
        } else {
            ""
        };
        let open = format!("{fence}{pad}");
        let close = format!("{pad}{fence}");
        wrap(&content, &open, &close, out);
    }
}

/// `open` + `content` + `close` with the content's outer whitespace kept outside the
/// markers (Markdown emphasis cannot start or end with a space).
fn wrap(content: &str, open: &str, close: &str, out: &mut String) {
    let trimmed = content.trim();
    if trimmed.is_empty() {
        out.push_str(content);
        return;
    }
    let lead = &content[..content.len() - content.trim_start().len()];
    let trail = &content[content.trim_end().len()..];
    out.push_str(lead);
    out.push_str(open);
    out.push_str(trimmed);
    out.push_str(close);
    out.push_str(trail);
}

fn item(flat: &Flat, item: &Item, code: bool, mode: Mode, out: &mut String) {
    match item {
        Item::Text(t) => {
            let t: std::borrow::Cow<str> = if mode != Mode::Block && t.contains(['\n', '\r']) {
                t.replace("\r\n", "\n").replace(['\n', '\r'], " ").into()
            } else {
                t.into()
            };
            if code {
                out.push_str(&t)
            } else {
                push_text(&t, out)
            }
        }
        Item::Tab => out.push(if mode == Mode::Block { '\t' } else { ' ' }),
        Item::Break => out.push_str(match mode {
            Mode::Block => "  \n",
            Mode::Line => " ",
            Mode::Cell | Mode::HtmlCell => "<br>",
        }),
        Item::Image(alt) => {
            let alt = alt.trim();
            // A picture inline after a word ("Header text" then a logo) is a thing of
            // its own: glued on ("text[image: logo]") it reads as one word.
            if out.ends_with(char::is_alphanumeric) {
                out.push(' ');
            }
            if alt.is_empty() {
                out.push_str("[image]");
            } else {
                out.push_str("[image: ");
                push_text(&super::escape::one_line(alt).replace(['[', ']'], ""), out);
                out.push(']');
            }
        }
        Item::Math(tex, display) => {
            let (open, close) = match (display, mode) {
                (false, _) => ("$", "$"),
                (true, Mode::Block) => ("\n$$", "$$\n"),
                (true, _) => ("$$", "$$"),
            };
            out.push_str(open);
            push_tex(tex.trim(), out);
            out.push_str(close);
        }
        Item::Note(kind, id) => {
            out.push_str(&note_marker(*kind, id));
        }
        Item::Comment(k) => {
            if let Some(c) = flat.t.comments.get(*k) {
                out.push_str(&c.markup);
            }
        }
        Item::PageBreak => {}
    }
}

/// The reference marker of a note: `[^ID]` for footnotes, `[^eID]` for endnotes.
pub(crate) fn note_marker(kind: NoteKind, id: &str) -> String {
    let id: String = id
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '[' | ']' | '^'))
        .collect();
    match kind {
        NoteKind::Footnote => format!("[^{id}]"),
        NoteKind::Endnote => format!("[^e{id}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::comments::CommentBook;
    use crate::chunk::flatten::flatten;
    use crate::model::{AnchorMark, Comment, Inline};

    fn t(s: &str) -> Inline {
        Inline::Text {
            text: s.into(),
            style: TextStyle::default(),
        }
    }

    fn b(s: &str) -> Inline {
        Inline::Text {
            text: s.into(),
            style: TextStyle {
                bold: true,
                ..TextStyle::default()
            },
        }
    }

    fn go(inlines: Vec<Inline>, comments: &[Comment]) -> String {
        let blocks = vec![crate::model::Block::Paragraph(crate::model::Paragraph {
            kind: Default::default(),
            inlines: inlines.clone(),
        })];
        let mut book = CommentBook::new(comments, std::iter::once(blocks.as_slice()));
        book.begin_story(&blocks);
        render(&flatten(&inlines, &mut book, None), Mode::Block)
    }

    #[test]
    fn a_picture_after_a_word_is_set_apart_from_it() {
        let logo = Inline::Image { alt: "Logo".into() };
        assert_eq!(
            go(vec![t("Header text"), logo.clone()], &[]),
            "Header text [image: Logo]"
        );
        assert_eq!(
            go(vec![t("Header text "), logo], &[]),
            "Header text [image: Logo]"
        );
    }

    #[test]
    fn styles_and_whitespace() {
        assert_eq!(go(vec![t("a "), b("bold "), t("c")], &[]), "a **bold** c");
        let link = Inline::Link {
            target: "https://x.org/a b".into(),
            children: vec![t("see")],
        };
        assert_eq!(go(vec![link], &[]), "[see](https://x.org/a%20b)");
        let pictured = Inline::Link {
            target: "https://x.org/".into(),
            children: vec![Inline::Image { alt: "Logo".into() }, t(" Home")],
        };
        assert_eq!(
            go(vec![pictured], &[]),
            "[(image: Logo) Home](https://x.org/)"
        );
        for target in [
            "javascript:alert(1)",
            " JaVa\tScRiPt:alert(1)",
            "data:text/html,<b>x",
            "vbscript:x",
        ] {
            let active = Inline::Link {
                target: target.into(),
                children: vec![t("click")],
            };
            assert_eq!(go(vec![active], &[]), "click", "{target}");
        }
    }

    #[test]
    fn revisions_nest_inside_comment_marks() {
        let c = Comment {
            id: "1".into(),
            author: Some("Jane".into()),
            text: "check <this>".into(),
            ..Comment::default()
        };
        let out = go(
            vec![
                Inline::CommentAnchor {
                    id: "1".into(),
                    mark: AnchorMark::Start,
                },
                t("x "),
                Inline::Revision {
                    kind: RevisionKind::MoveTo,
                    author: Some("Eric \"W\"".into()),
                    date: Some("2016-01-02T03:04:05Z".into()),
                    children: vec![
                        t("moved"),
                        Inline::CommentAnchor {
                            id: "1".into(),
                            mark: AnchorMark::End,
                        },
                        t(" after"),
                    ],
                },
            ],
            &[c],
        );
        assert_eq!(
            out,
            "<mark comment=\"1\">x <ins type=\"move-to\" author=\"Eric &quot;W&quot;\" date=\"2016-01-02\">moved</ins></mark>\
             <comment id=\"1\" author=\"Jane\">check &lt;this></comment>\
             <ins type=\"move-to\" author=\"Eric &quot;W&quot;\" date=\"2016-01-02\"> after</ins>"
        );
    }
}
