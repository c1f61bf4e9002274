//! Math runs (`m:r`, and `w:r` inside math) as LaTeX: their style (`m:sty`, `m:scr`,
//! `m:nor`), their text (`m:t`, `w:t`, `w:sym`), letters grouped into words, symbols
//! mapped to commands, specials escaped.

use super::latex_names::{is_function, symbol};
use super::tex::cat;
use super::tree::{El, Node, is_property};

use super::super::xml::Ns;
use crate::read::symbols::sym_char;

/// The style of a math run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RunStyle {
    /// Normal text (`m:nor`, or a `w:r` inside math).
    pub(super) text: bool,
    /// Upright (`m:sty` `p` or `b`).
    pub(super) upright: bool,
    /// Bold (`m:sty` `b` or `bi`).
    pub(super) bold: bool,
    /// `m:scr` other than roman: the LaTeX font command.
    pub(super) script: Option<&'static str>,
}

/// The style of a run element, or `None` when `e` is not a run.
pub(super) fn run_style(e: &El) -> Option<RunStyle> {
    if e.is(Ns::W, "r") {
        return Some(RunStyle {
            text: true,
            upright: true,
            bold: false,
            script: None,
        });
    }
    if !e.is(Ns::M, "r") {
        return None;
    }
    let rpr = e.child("rPr");
    let prop = |name: &str| rpr.and_then(|p| p.child(name));
    let sty = prop("sty").and_then(El::val).unwrap_or("i");
    let text = prop("nor").is_some_and(|n| !matches!(n.val(), Some("0" | "false" | "off")));
    let script = match prop("scr").and_then(El::val) {
        Some("script") => Some("mathcal"),
        Some("fraktur") => Some("mathfrak"),
        Some("double-struck") => Some("mathbb"),
        Some("sans-serif") => Some("mathsf"),
        Some("monospace") => Some("mathtt"),
        _ => None,
    };
    Some(RunStyle {
        text,
        upright: matches!(sty, "p" | "b"),
        bold: matches!(sty, "b" | "bi"),
        script,
    })
}

/// The text of a run: `m:t`/`w:t` (and `w:delText`), `w:sym`, tabs as spaces.
pub(super) fn run_text(e: &El) -> String {
    let mut out = String::new();
    for c in e.elements() {
        match c.local.as_str() {
            "t" | "delText" => out.push_str(&plain_text(c)),
            "sym" if c.ns == Ns::W => {
                if let Some(ch) = c.attr("char").and_then(|h| sym_char(c.attr("font"), h)) {
                    out.push(ch);
                }
            }
            "tab" | "br" | "cr" if c.ns == Ns::W => out.push(' '),
            _ => {}
        }
    }
    out
}

/// All character data under `e` (iteratively, whatever the depth).
pub(super) fn plain_text(e: &El) -> String {
    let mut out = String::new();
    let mut stack: Vec<std::slice::Iter<'_, Node>> = vec![e.kids.iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(Node::Text(t)) => out.push_str(t),
            Some(Node::El(c)) => {
                if !is_property(c) {
                    stack.push(c.kids.iter());
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    out
}

/// A run's text as LaTeX in its style.
pub(super) fn styled(text: &str, st: RunStyle, align: bool) -> String {
    if st.text && text.chars().any(char::is_alphabetic) {
        let trimmed = text.trim();
        let mut out = String::from("\\text{");
        for c in trimmed.chars() {
            match c {
                '\\' => out.push_str("\\textbackslash{}"),
                '{' | '}' | '$' | '%' | '#' | '&' | '_' => {
                    out.push('\\');
                    out.push(c);
                }
                '^' => out.push_str("\\^{}"),
                '~' => out.push_str("\\~{}"),
                c if invisible(c) => {}
                c => out.push(c),
            }
        }
        out.push('}');
        return pad(text, out);
    }
    let plain = st.upright && !st.bold && st.script.is_none();
    if !st.bold && st.script.is_none() {
        return math_text(text, plain, align);
    }
    // Font commands go around letters and digits only (`\mathbf{x}+\mathbf{1}`).
    let mut out = String::new();
    let mut seg = String::new();
    let mut seg_alnum = false;
    for c in text.chars().chain(std::iter::once('\0')) {
        let alnum = c.is_alphanumeric();
        if (alnum != seg_alnum || c == '\0') && !seg.is_empty() {
            let core = math_text(&seg, false, align);
            if seg_alnum {
                let mut inner = core.trim().to_string();
                if let Some(cmd) = st.script {
                    inner = format!("\\{cmd}{{{inner}}}");
                }
                if st.bold {
                    inner = format!("\\mathbf{{{inner}}}");
                }
                cat(&mut out, &inner);
            } else {
                cat(&mut out, &core);
            }
            seg.clear();
        }
        seg_alnum = alnum;
        seg.push(c);
    }
    out
}

/// `inner` with one space before / after when `orig` had whitespace there.
pub(super) fn pad(orig: &str, inner: String) -> String {
    let mut out = String::new();
    if orig.starts_with(char::is_whitespace) {
        out.push(' ');
    }
    out.push_str(&inner);
    if orig.ends_with(char::is_whitespace) {
        out.push(' ');
    }
    out
}

/// Math text as LaTeX: letters grouped into words (function names become commands,
/// upright words `\mathrm`), symbols mapped, specials escaped, whitespace collapsed.
pub(super) fn math_text(text: &str, upright: bool, align: bool) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut space = false;
    while let Some(&c) = chars.get(i) {
        if c.is_whitespace() {
            space = true;
            i += 1;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if c.is_ascii_alphabetic() {
            let start = i;
            while chars.get(i).is_some_and(char::is_ascii_alphabetic) {
                i += 1;
            }
            let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            let applied = chars.get(i).is_some_and(|c| *c == '\u{2061}');
            if is_function(&word) && (upright || applied) {
                cat(&mut out, &format!("\\{word}"));
            } else if upright {
                cat(&mut out, &format!("\\mathrm{{{word}}}"));
            } else {
                cat(&mut out, &word);
            }
            continue;
        }
        i += 1;
        let mapped: std::borrow::Cow<'static, str> = match c {
            '{' => "\\{".into(),
            '}' => "\\}".into(),
            '\\' => "\\backslash".into(),
            '%' => "\\%".into(),
            '#' => "\\#".into(),
            '$' => "\\$".into(),
            '&' if !align => "\\&".into(),
            '~' => "\\sim".into(),
            c if invisible(c) => "".into(),
            c => match symbol(c) {
                Some(s) => s.into(),
                None => c.to_string().into(),
            },
        };
        cat(&mut out, &mapped);
    }
    if space && !out.is_empty() {
        out.push(' ');
    }
    out
}

/// Invisible operators and zero-width characters (U+2061..U+2064, U+200B).
pub(super) fn invisible(c: char) -> bool {
    matches!(c, '\u{2061}'..='\u{2064}' | '\u{200B}' | '\u{FEFF}')
}
