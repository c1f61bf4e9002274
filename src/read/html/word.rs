//! HTML saved by Microsoft Word ("Web Page, Filtered" and full): Word writes list
//! paragraphs as `<p class=MsoListParagraph style='mso-list:l0 level2 lfo1'>` with the
//! generated marker in a `<span style='mso-list:Ignore'>1.&nbsp;</span>` (inside
//! `<![if !supportLists]>`), and the document title as `<p class=MsoTitle>`. Such
//! paragraphs become list items (level and number from the marker, the marker itself
//! dropped) and titles. `<o:p>` and other Office elements are read as inline content;
//! `mso-hide: all` hides like `display: none` (see `css.rs`).

use markup5ever_rcdom::{Handle, NodeData};

use super::builder::Kind;
use super::css::{self, InlineStyle};
use super::dom::{self, attrs, collapse, get};

/// The paragraph kind a Word paragraph declares, if any.
pub(super) fn paragraph_kind(
    h: &Handle,
    a: &[(String, String)],
    style: &InlineStyle,
) -> Option<Kind> {
    let class = get(a, "class").unwrap_or("");
    if class
        .split_whitespace()
        .any(|c| c.eq_ignore_ascii_case("MsoTitle"))
    {
        return Some(Kind::Title);
    }
    let level = style.mso_list.filter(|l| *l >= 1)?;
    let marker = marker_text(h).unwrap_or_default();
    let (ordered, number) = parse_marker(&marker);
    Some(Kind::Item {
        ordered,
        level: level - 1,
        number,
        emitted: false,
    })
}

/// The text of the first descendant styled `mso-list: Ignore` (the list marker).
fn marker_text(h: &Handle) -> Option<String> {
    let mut stack: Vec<Handle> = h.children.borrow().iter().rev().cloned().collect();
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 64 {
            return None;
        }
        if let NodeData::Element { .. } = n.data {
            let a = attrs(&n);
            if get(&a, "style").is_some_and(|s| css::parse(s).mso_list == Some(0)) {
                return Some(collapse(&dom::text_content(&n, &|_| false)));
            }
            stack.extend(n.children.borrow().iter().rev().cloned());
        }
    }
    None
}

/// `1.` / `3)` / `b.` / `iv.` are numbered (with their value); bullets (`·`, `o`,
/// `§`, `-`) are not.
fn parse_marker(m: &str) -> (bool, u32) {
    let core = m
        .trim()
        .trim_end_matches(['.', ')'])
        .trim_start_matches('(');
    let numbered_shape = m.trim().ends_with(['.', ')']) && !core.is_empty();
    if !numbered_shape {
        return (false, 1);
    }
    if let Some(n) = core
        .rsplit('.')
        .next()
        .and_then(|last| last.parse::<u32>().ok())
    {
        return (true, n);
    }
    if let Some(n) = roman(core) {
        return (true, n);
    }
    let mut chars = core.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_ascii_alphabetic()
    {
        return (true, u32::from(c.to_ascii_lowercase() as u8 - b'a') + 1);
    }
    (true, 1)
}

fn roman(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 8 || !s.chars().all(|c| "ivxlcIVXLC".contains(c)) {
        return None;
    }
    // A single letter is read as a letter (a, b, c...) except i, v, x.
    if s.len() == 1 && !matches!(s, "i" | "I" | "v" | "V" | "x" | "X") {
        return None;
    }
    let val = |c: char| match c.to_ascii_lowercase() {
        'i' => 1,
        'v' => 5,
        'x' => 10,
        'l' => 50,
        _ => 100,
    };
    let v: Vec<i64> = s.chars().map(val).collect();
    let mut total = 0i64;
    for (i, x) in v.iter().enumerate() {
        if v.get(i + 1).is_some_and(|n| n > x) {
            total -= x;
        } else {
            total += x;
        }
    }
    u32::try_from(total).ok().filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use super::parse_marker;

    #[test]
    fn markers() {
        assert_eq!(parse_marker("1."), (true, 1));
        assert_eq!(parse_marker("12)"), (true, 12));
        assert_eq!(parse_marker("1.2."), (true, 2));
        assert_eq!(parse_marker("c."), (true, 3));
        assert_eq!(parse_marker("iv."), (true, 4));
        assert_eq!(parse_marker("\u{B7}"), (false, 1));
        assert_eq!(parse_marker("o"), (false, 1));
    }
}
