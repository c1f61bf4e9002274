//! The formula as a small owned tree: `m:oMath`/`m:oMathPara` read from the XML
//! without recursion, run formatting and control properties dropped on the way.

use crate::error::ConvertError;

use super::super::xml::{Ev, Ns, Start, Xml};

/// One node of the math subtree.
#[derive(Debug)]
pub(super) enum Node {
    El(El),
    Text(String),
}

/// One element of the math subtree: name, attributes and children.
#[derive(Debug)]
pub(super) struct El {
    pub(super) ns: Ns,
    pub(super) local: String,
    pub(super) qname: String,
    /// Attributes as (local name, value); math properties use `m:val`.
    pub(super) attrs: Vec<(String, String)>,
    pub(super) kids: Vec<Node>,
}

impl El {
    pub(super) fn from_start(s: &Start<'_>) -> El {
        El {
            ns: s.ns,
            local: s.local.to_string(),
            qname: s.qname.to_string(),
            attrs: s
                .attrs
                .iter()
                .map(|a| (a.local.to_string(), a.value.to_string()))
                .collect(),
            kids: Vec::new(),
        }
    }

    pub(super) fn is(&self, ns: Ns, local: &str) -> bool {
        self.ns == ns && self.local == local
    }

    pub(super) fn attr(&self, local: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == local)
            .map(|(_, v)| v.as_str())
    }

    /// `m:val` (or `w:val`).
    pub(super) fn val(&self) -> Option<&str> {
        self.attr("val")
    }

    pub(super) fn elements(&self) -> impl Iterator<Item = &El> {
        self.kids.iter().filter_map(|n| match n {
            Node::El(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// The first `m:local` child.
    pub(super) fn child(&self, local: &str) -> Option<&El> {
        self.elements().find(|e| e.is(Ns::M, local))
    }

    /// The `m:prop` child of the `m:pr` child (a property of a structure).
    pub(super) fn prop(&self, pr: &str, prop: &str) -> Option<&El> {
        self.child(pr).and_then(|p| p.child(prop))
    }

    /// The value of property `prop` in `pr`: `None` when absent, `Some("")` when the
    /// element has no `m:val`.
    pub(super) fn prop_val(&self, pr: &str, prop: &str) -> Option<&str> {
        self.prop(pr, prop).map(|p| p.val().unwrap_or(""))
    }

    /// An ST_OnOff property: absent is off, present without a value is on.
    pub(super) fn prop_on(&self, pr: &str, prop: &str) -> bool {
        self.prop_val(pr, prop)
            .is_some_and(|v| !matches!(v, "0" | "false" | "off"))
    }

    /// Content children: elements other than property containers.
    pub(super) fn content(&self) -> impl Iterator<Item = &El> {
        self.elements().filter(|e| !is_property(e))
    }
}

/// Property containers and control properties carry no content.
pub(super) fn is_property(e: &El) -> bool {
    e.ns == Ns::M && (e.local.ends_with("Pr") || e.local == "ctrlPr" || e.local == "argPr")
}

/// Elements dropped while the tree is read (run formatting of WordprocessingML and
/// control properties: they never hold math content).
pub(super) fn dropped(s: &Start<'_>) -> bool {
    (s.ns == Ns::W && s.local == "rPr") || (s.ns == Ns::M && matches!(s.local, "ctrlPr" | "argPr"))
}

/// Reads the element whose start `s` was just returned into a tree, without recursion.
pub(super) fn read_tree(x: &mut Xml<'_>, s: &Start<'_>) -> Result<El, ConvertError> {
    let mut stack = vec![El::from_start(s)];
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if dropped(&s) {
                    x.skip()?;
                } else {
                    stack.push(El::from_start(&s));
                }
            }
            Ev::Text(t) => {
                if let Some(top) = stack.last_mut().filter(|e| e.local == "t") {
                    top.kids.push(Node::Text(t.into_owned()));
                }
            }
            Ev::End => {
                let Some(done) = stack.pop() else {
                    return Ok(empty_root(s));
                };
                match stack.last_mut() {
                    Some(parent) => parent.kids.push(Node::El(done)),
                    None => return Ok(done),
                }
            }
            Ev::Eof => {
                while let Some(done) = stack.pop() {
                    match stack.last_mut() {
                        Some(parent) => parent.kids.push(Node::El(done)),
                        None => return Ok(done),
                    }
                }
                return Ok(empty_root(s));
            }
        }
    }
}

pub(super) fn empty_root(s: &Start<'_>) -> El {
    El::from_start(s)
}
