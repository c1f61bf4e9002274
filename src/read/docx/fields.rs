//! Fields (ECMA-376 Part 1, 17.16): simple fields (`w:fldSimple`, 17.16.19) and complex
//! fields (`w:fldChar` begin / separate / end, 17.16.18, with `w:instrText`, 17.16.23).
//!
//! A field shows its result (the runs between `separate` and `end`), never its
//! instruction text; runs between `begin` and `separate` are suppressed, including
//! the results of fields nested inside an instruction. The model's
//! [`Inline::Field`] code is the first word of the instruction, upper-cased.
//! `HYPERLINK` fields become [`Inline::Link`] (target from the first argument, plus
//! `#anchor` from `\l`). Legacy form check boxes (`FORMCHECKBOX` with
//! `w:ffData/w:checkBox`, 17.16.7) show "☒" or "☐". Fields are counted per story and
//! may span paragraphs; a result that crosses a paragraph (a table of contents) is
//! kept as plain content rather than wrapped.

use crate::model::{Inline, TextStyle};

use super::inlines::Inl;
use super::xml::{Ev, Ns, Xml};
use crate::error::ConvertError;

/// One open complex field.
#[derive(Debug, Default)]
pub(crate) struct FieldState {
    /// Instruction text collected so far.
    pub instr: String,
    /// `separate` seen: runs now belong to the result.
    pub in_result: bool,
    /// Frame id and position where the result starts.
    pub mark: Option<(u64, usize)>,
    /// Check box state from `w:ffData` (`w:checked`, else `w:default`).
    pub checkbox: Option<bool>,
}

/// The upper-cased first word of a field instruction.
pub(crate) fn field_code(instr: &str) -> String {
    instr
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_start_matches('\\')
        .to_uppercase()
}

/// The link target of a `HYPERLINK` instruction (17.16.5.25): the first
/// non-switch argument, plus `#` and the `\l` bookmark when present.
pub(crate) fn hyperlink_target(instr: &str) -> String {
    let args = split_args(instr);
    let mut url = String::new();
    let mut anchor = String::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        if a.eq_ignore_ascii_case("\\l") {
            anchor = args.get(i + 1).cloned().unwrap_or_default();
            i += 2;
            continue;
        }
        if a.starts_with('\\') {
            // \o "tooltip", \t "frame" take an argument; \m \n \h do not.
            let takes = matches!(a.to_ascii_lowercase().as_str(), "\\o" | "\\t");
            i += if takes { 2 } else { 1 };
            continue;
        }
        if url.is_empty() {
            url = a.clone();
        }
        i += 1;
    }
    if anchor.is_empty() {
        url
    } else {
        format!("{url}#{anchor}")
    }
}

/// Splits field arguments: whitespace-separated, double quotes group.
fn split_args(instr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in instr.chars() {
        match c {
            '"' => {
                if quoted {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
                quoted = !quoted;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            c => {
                cur.push(c);
                started = true;
            }
        }
    }
    if started || quoted {
        out.push(cur);
    }
    out
}

/// Whether runs are currently suppressed (inside some field's instruction).
pub(crate) fn suppressed(fields: &[FieldState]) -> bool {
    fields.iter().any(|f| !f.in_result)
}

/// Handles a `w:fldChar` whose start was just returned (its `w:ffData` is read here).
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn fld_char(
    x: &mut Xml<'_>,
    kind: Option<&str>,
    fields: &mut Vec<FieldState>,
    inl: &mut Inl,
) -> Result<(), ConvertError> {
    let checkbox = read_ff_data(x)?;
    match kind {
        Some("begin") => fields.push(FieldState {
            checkbox,
            ..FieldState::default()
        }),
        Some("separate") => {
            if let Some(f) = fields.last_mut() {
                f.in_result = true;
                f.mark = Some(inl.mark());
            }
        }
        Some("end") => {
            if let Some(f) = fields.pop() {
                end_field(f, inl);
            }
        }
        _ => {}
    }
    Ok(())
}

fn end_field(f: FieldState, inl: &mut Inl) {
    let code = field_code(&f.instr);
    if code == "FORMCHECKBOX" {
        let mark = if f.checkbox.unwrap_or(false) {
            "☒"
        } else {
            "☐"
        };
        if let Some((id, at)) = f.mark.filter(|_| f.in_result) {
            // A check box's result is empty; the box is its content.
            inl.text(mark, TextStyle::default());
            inl.wrap_from(id, at, |children| Inline::Field { code, children });
            return;
        }
        {
            let text = Inline::Text {
                text: mark.into(),
                style: TextStyle::default(),
            };
            inl.push(Inline::Field {
                code,
                children: vec![text],
            });
            return;
        }
    }
    let Some((id, at)) = f.mark else { return };
    if code == "HYPERLINK" {
        let target = hyperlink_target(&f.instr);
        inl.wrap_from(id, at, |children| Inline::Link { target, children });
    } else {
        inl.wrap_from(id, at, |children| Inline::Field { code, children });
    }
}

/// Reads the children of a `w:fldChar` and returns the check box state, if any.
fn read_ff_data(x: &mut Xml<'_>) -> Result<Option<bool>, ConvertError> {
    let mut checkbox = false;
    let mut default = None;
    let mut checked = None;
    let mut depth = 1usize;
    while depth > 0 {
        match x.next()? {
            Ev::Start(s) => {
                depth += 1;
                if s.ns == Ns::W {
                    match s.local {
                        "checkBox" => checkbox = true,
                        "default" if checkbox => default = Some(s.on_off()),
                        "checked" if checkbox => checked = Some(s.on_off()),
                        _ => {}
                    }
                }
            }
            Ev::End => depth -= 1,
            Ev::Eof => break,
            Ev::Text(_) => {}
        }
    }
    Ok(checkbox.then(|| checked.or(default).unwrap_or(false)))
}

#[cfg(test)]
mod tests {
    use super::{field_code, hyperlink_target};

    #[test]
    fn codes_and_targets() {
        assert_eq!(field_code(" hyperlink \"http://x\" "), "HYPERLINK");
        assert_eq!(
            hyperlink_target("HYPERLINK \"http://a.b/c\" \\o \"tip\""),
            "http://a.b/c"
        );
        assert_eq!(hyperlink_target("HYPERLINK \\l \"_Toc1\""), "#_Toc1");
        assert_eq!(hyperlink_target("HYPERLINK http://a.b"), "http://a.b");
    }
}
