//! Fields (RTF 1.9.1, "Fields"): `{\field{\*\fldinst INSTRUCTION}{\fldrslt RESULT}}`.
//! The result is what a reader shows; the instruction names the field. `HYPERLINK`
//! becomes a link to its target (`\l "bookmark"` to `#bookmark`), anything else a
//! [`crate::model::Inline::Field`] with the upper-cased first word as its code.

use super::inlines::Container;

/// A `\field` group being read: its instruction so far.
#[derive(Debug, Default)]
pub(crate) struct FieldFrame {
    pub instr: String,
}

/// The container a field result goes in.
pub(crate) fn container(instr: &str) -> Container {
    let words = split(instr);
    let code = words.first().map(|w| w.to_uppercase()).unwrap_or_default();
    if code != "HYPERLINK" {
        return Container::Field(code);
    }
    let mut url = String::new();
    let mut anchor = String::new();
    let mut i = 1;
    while let Some(w) = words.get(i) {
        match w.as_str() {
            "\\l" => {
                anchor = words.get(i + 1).cloned().unwrap_or_default();
                i += 2;
            }
            "\\o" | "\\t" => i += 2,
            s if s.starts_with('\\') => i += 1,
            s => {
                if url.is_empty() {
                    url = s.to_string();
                }
                i += 1;
            }
        }
    }
    let target = match (url.is_empty(), anchor.is_empty()) {
        (_, true) => url,
        (true, false) => format!("#{anchor}"),
        (false, false) => format!("{url}#{anchor}"),
    };
    Container::Link(target)
}

/// Splits an instruction into words; `"quoted text"` is one word without its quotes.
fn split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut w = String::new();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                w.push(c);
            }
            out.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '"' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            out.push(w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyperlinks_and_codes() {
        assert_eq!(
            container(" HYPERLINK \"http://x.org/a b\" \\o \"tip\""),
            Container::Link("http://x.org/a b".into())
        );
        assert_eq!(
            container("HYPERLINK \\l \"_Toc1\""),
            Container::Link("#_Toc1".into())
        );
        assert_eq!(
            container(" page \\* MERGEFORMAT"),
            Container::Field("PAGE".into())
        );
    }
}
