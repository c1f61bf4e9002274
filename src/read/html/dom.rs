//! Small read-only helpers over the `markup5ever_rcdom` tree.

use html5ever::ns;
use markup5ever_rcdom::{Handle, NodeData};

/// The attributes of an element node as (name, value) pairs, empty for other nodes.
/// Only attributes without a namespace are listed (all of HTML's).
pub(super) fn attrs(node: &Handle) -> Vec<(String, String)> {
    match &node.data {
        NodeData::Element { attrs, .. } => attrs
            .borrow()
            .iter()
            .filter(|a| a.name.ns == ns!())
            .map(|a| (a.name.local.to_string(), a.value.to_string()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The value of attribute `name` in a list from [`attrs`].
pub(super) fn get<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Which markup language an element belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ns {
    Html,
    Svg,
    MathMl,
    Other,
}

/// The namespace and local name of an element node.
pub(super) fn element_name(node: &Handle) -> Option<(Ns, &str)> {
    match &node.data {
        NodeData::Element { name, .. } => {
            let ns = if name.ns == ns!(html) {
                Ns::Html
            } else if name.ns == ns!(svg) {
                Ns::Svg
            } else if name.ns == ns!(mathml) {
                Ns::MathMl
            } else {
                Ns::Other
            };
            Some((ns, &*name.local))
        }
        _ => None,
    }
}

/// The text of `node` and its descendants in document order (iteratively, so any
/// depth is fine). `skip` decides which elements are left out with their content;
/// `<br>` becomes `\n`.
pub(super) fn text_content(node: &Handle, skip: &dyn Fn(&Handle) -> bool) -> String {
    let mut out = String::new();
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        match &n.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { .. } => {
                if !std::rc::Rc::ptr_eq(&n, node) && skip(&n) {
                    continue;
                }
                if let Some((Ns::Html, "br")) = element_name(&n) {
                    out.push('\n');
                }
                stack.extend(n.children.borrow().iter().rev().cloned());
            }
            NodeData::Document => stack.extend(n.children.borrow().iter().rev().cloned()),
            _ => {}
        }
    }
    out
}

/// Collapses runs of ASCII whitespace (and no-break spaces) to one space and trims.
pub(super) fn collapse(s: &str) -> String {
    s.split(|c: char| c.is_ascii_whitespace() || c == '\u{A0}')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
