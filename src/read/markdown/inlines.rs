//! Inline content of one Markdown paragraph: text runs with the current emphasis,
//! links (one level; CommonMark 6.3 forbids links in links), images reduced to their
//! alt text, and the few raw HTML tags that map to the model (`<br>`, emphasis tags).

use crate::model::{Inline, TextStyle};

/// Nesting counters of the inline styles (a counter, not a flag, so that `***a***`
/// and unbalanced raw tags stay consistent).
#[derive(Debug, Default, Clone)]
pub(super) struct Styles {
    pub bold: u32,
    pub italic: u32,
    pub underline: u32,
    pub strike: u32,
    pub superscript: u32,
    pub subscript: u32,
    pub code: u32,
}

impl Styles {
    /// The model style of text written now.
    pub fn current(&self) -> TextStyle {
        TextStyle {
            bold: self.bold > 0,
            italic: self.italic > 0,
            underline: self.underline > 0,
            strike: self.strike > 0,
            superscript: self.superscript > 0,
            subscript: self.subscript > 0,
            code: self.code > 0,
        }
    }
}

/// The inline content being built for the open paragraph.
#[derive(Debug, Default)]
pub(super) struct Inlines {
    /// Top-level inlines of the paragraph.
    pub items: Vec<Inline>,
    /// Open link: its target and children.
    link: Option<(String, Vec<Inline>)>,
    /// Nesting depth of images; while above 0 all text goes to `alt`.
    image_depth: u32,
    alt: String,
    pub styles: Styles,
}

impl Inlines {
    fn target(&mut self) -> &mut Vec<Inline> {
        match &mut self.link {
            Some((_, children)) => children,
            None => &mut self.items,
        }
    }

    /// Appends text in the current style, merging with the previous run.
    pub fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if self.image_depth > 0 {
            self.alt.push_str(s);
            return;
        }
        let style = self.styles.current();
        let target = self.target();
        if let Some(Inline::Text { text, style: last }) = target.last_mut()
            && *last == style
        {
            text.push_str(s);
            return;
        }
        target.push(Inline::Text {
            text: s.to_string(),
            style,
        });
    }

    /// Appends text as inline code.
    pub fn code(&mut self, s: &str) {
        self.styles.code += 1;
        self.text(s);
        self.styles.code -= 1;
    }

    /// Appends an inline that is not text (break, note reference).
    pub fn push(&mut self, inline: Inline) {
        if self.image_depth > 0 {
            if inline == Inline::LineBreak {
                self.alt.push(' ');
            }
            return;
        }
        self.target().push(inline);
    }

    pub fn start_link(&mut self, target: &str) {
        if self.image_depth == 0 && self.link.is_none() {
            self.link = Some((target.to_string(), Vec::new()));
        }
    }

    pub fn end_link(&mut self) {
        if self.image_depth == 0
            && let Some((target, children)) = self.link.take()
        {
            self.items.push(Inline::Link { target, children });
        }
    }

    pub fn start_image(&mut self) {
        self.image_depth += 1;
    }

    pub fn end_image(&mut self) {
        self.image_depth = self.image_depth.saturating_sub(1);
        if self.image_depth == 0 {
            let alt = std::mem::take(&mut self.alt);
            self.target().push(Inline::Image { alt });
        }
    }

    /// Raw inline HTML (CommonMark 6.6): `<br>` is a line break, comments vanish, the
    /// emphasis tags (`b strong i em u ins s strike del sup sub code kbd tt`) open and
    /// close styles; any other tag stays as text.
    pub fn raw_html(&mut self, html: &str) {
        if html.starts_with("<!--") {
            return;
        }
        let inner = html
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim_end_matches('/')
            .trim();
        let (closing, name) = match inner.strip_prefix('/') {
            Some(n) => (true, n.trim()),
            None => (false, inner),
        };
        let name = name
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name == "br" {
            self.push(Inline::LineBreak);
            return;
        }
        let s = &mut self.styles;
        let counter = match name.as_str() {
            "b" | "strong" => &mut s.bold,
            "i" | "em" => &mut s.italic,
            "u" | "ins" => &mut s.underline,
            "s" | "strike" | "del" => &mut s.strike,
            "sup" => &mut s.superscript,
            "sub" => &mut s.subscript,
            "code" | "kbd" | "tt" | "samp" => &mut s.code,
            _ => {
                self.text(html);
                return;
            }
        };
        if closing {
            *counter = counter.saturating_sub(1);
        } else {
            *counter += 1;
        }
    }

    /// Finishes the paragraph: closes what is still open and returns its inlines.
    pub fn finish(&mut self) -> Vec<Inline> {
        if self.image_depth > 0 {
            self.image_depth = 1;
            self.end_image();
        }
        self.end_link();
        self.styles = Styles::default();
        std::mem::take(&mut self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_tags_map_to_styles() {
        let mut i = Inlines::default();
        i.raw_html("<b>");
        i.text("x");
        i.raw_html("</b>");
        i.raw_html("<br/>");
        i.raw_html("<span class=a>");
        i.raw_html("<!-- hidden -->");
        let out = i.finish();
        assert!(matches!(&out[0], Inline::Text { text, style } if text == "x" && style.bold));
        assert_eq!(out[1], Inline::LineBreak);
        assert!(matches!(&out[2], Inline::Text { text, .. } if text == "<span class=a>"));
        assert_eq!(out.len(), 3);
    }
}
