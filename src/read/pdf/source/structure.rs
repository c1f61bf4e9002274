//! A tagged PDF's structure tree (ISO 32000-2, 14.7.2): for each page, the
//! elements that claim its marked content (with their ancestors) as
//! [`Element`]s, and which element each marked-content id (`/MCID`) belongs to.

use std::collections::{HashMap, HashSet};

use hayro_syntax::Pdf;
use hayro_syntax::object::{Array, Dict, Name, Object, ObjectIdentifier};

use crate::read::pdf::Element;

/// Most structure elements read: a long report has tens of thousands; a hostile
/// tree stops here (and is then read as untagged where it ran out).
const MAX_ELEMENTS: usize = 500_000;

/// Tree nodes visited (elements, ids, references): bounds a tree of huge `/K`
/// arrays as `MAX_ELEMENTS` bounds one of many elements.
const MAX_NODES: usize = 4_000_000;

/// Nesting read: real trees are a dozen levels deep.
const MAX_DEPTH: usize = 128;

/// Role-map links followed from a custom type to a standard one (14.7.3).
const MAX_ROLE_HOPS: usize = 8;

/// One page's part of the tree.
#[derive(Debug, Default)]
pub(super) struct PageTags {
    pub elements: Vec<Element>,
    /// Marked-content id -> index into `elements`.
    pub mcids: HashMap<i64, u32>,
    /// Document element (index in the whole tree) -> index into `elements`.
    local: HashMap<usize, u32>,
}

/// The structure tree of `pdf`, by page index (0-based); empty when the file is
/// not tagged.
pub(super) fn read(pdf: &Pdf) -> HashMap<usize, PageTags> {
    let xref = pdf.xref();
    let pages: HashMap<ObjectIdentifier, usize> = pdf
        .pages()
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((p.raw().obj_id()?, i)))
        .collect();
    let Some(root) = xref
        .get::<Dict<'_>>(xref.root_id())
        .and_then(|c| c.get::<Dict<'_>>(b"StructTreeRoot"))
    else {
        return HashMap::new();
    };
    let role_map = root.get::<Dict<'_>>(b"RoleMap");
    let role = |name: &str| -> String {
        let mut name = name.to_string();
        for _ in 0..MAX_ROLE_HOPS {
            match role_map
                .as_ref()
                .and_then(|m| m.get::<Name<'_>>(name.as_bytes()))
            {
                Some(n) if n.as_str() != name => name = n.as_str().to_string(),
                _ => break,
            }
        }
        name
    };

    // Every element once, as (role, parent); every marked-content reference as
    // (page, mcid, element).
    let mut all: Vec<(String, Option<usize>)> = Vec::new();
    let mut refs: Vec<(usize, i64, usize)> = Vec::new();
    let mut seen: HashSet<ObjectIdentifier> = HashSet::new();
    // (node, parent element, page inherited, depth)
    let mut stack: Vec<(Object<'_>, Option<usize>, Option<usize>, usize)> = Vec::new();
    if let Some(k) = root.get::<Object<'_>>(b"K") {
        stack.push((k, None, None, 0));
    }
    let mut visits = 0usize;
    while let Some((node, parent, page, depth)) = stack.pop() {
        visits += 1;
        if all.len() >= MAX_ELEMENTS || visits > MAX_NODES || stack.len() > MAX_NODES {
            break;
        }
        if depth > MAX_DEPTH {
            continue;
        }
        match node {
            Object::Array(a) => push_kids(&mut stack, &a, parent, page, depth),
            Object::Number(n) => {
                if let (Some(e), Some(pg)) = (parent, page) {
                    refs.push((pg, n.as_i64(), e));
                }
            }
            Object::Dict(d) => {
                let pg = d
                    .get_ref(b"Pg")
                    .and_then(|r| pages.get(&r.into()).copied())
                    .or(page);
                match d.get::<Name<'_>>(b"Type").map(|t| t.as_str().to_string()) {
                    // A marked-content reference (14.7.5.3) names its page itself.
                    Some(t) if t == "MCR" => {
                        if let (Some(e), Some(pg), Some(mcid)) = (parent, pg, d.get::<i64>(b"MCID"))
                        {
                            refs.push((pg, mcid, e));
                        }
                    }
                    // An annotation or XObject reference carries no text here.
                    Some(t) if t == "OBJR" => {}
                    _ => {
                        let Some(s) = d.get::<Name<'_>>(b"S") else {
                            continue;
                        };
                        // Elements are indirect objects (14.7.2); one met twice is a
                        // cycle or a shared kid, read once. (An inline dictionary
                        // reports its container's id, so references are not checked.)
                        if let Some(id) = d.obj_id()
                            && !seen.insert(id)
                        {
                            continue;
                        }
                        let id = all.len();
                        all.push((role(s.as_str()), parent));
                        if let Some(k) = d.get::<Object<'_>>(b"K") {
                            stack.push((k, Some(id), pg, depth + 1));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    let mut out: HashMap<usize, PageTags> = HashMap::new();
    for (page, mcid, element) in refs {
        let tags = out.entry(page).or_default();
        if let Some(i) = local_index(tags, &all, element) {
            tags.mcids.entry(mcid).or_insert(i);
        }
    }
    out
}

/// Children of an element given as an array, pushed so they pop in order.
fn push_kids<'a>(
    stack: &mut Vec<(Object<'a>, Option<usize>, Option<usize>, usize)>,
    kids: &Array<'a>,
    parent: Option<usize>,
    page: Option<usize>,
    depth: usize,
) {
    let kids: Vec<Object<'a>> = kids.iter::<Object<'a>>().collect();
    for k in kids.into_iter().rev() {
        stack.push((k, parent, page, depth));
    }
}

/// The index in `tags.elements` of document element `element`, adding it and its
/// ancestors to the page's list as needed (each document element at most once per
/// page).
fn local_index(
    tags: &mut PageTags,
    all: &[(String, Option<usize>)],
    element: usize,
) -> Option<u32> {
    // The chain from the element up, stopping at one the page already holds.
    let mut chain = Vec::new();
    let mut at = Some(element);
    let mut found: Option<u32> = None;
    for _ in 0..MAX_DEPTH {
        let Some(e) = at else { break };
        if let Some(&i) = tags.local.get(&e) {
            found = Some(i);
            break;
        }
        chain.push(e);
        at = all.get(e).and_then(|x| x.1);
    }
    let mut parent = found;
    for &e in chain.iter().rev() {
        let i = u32::try_from(tags.elements.len()).ok()?;
        tags.elements.push(Element {
            role: all.get(e)?.0.clone(),
            parent,
        });
        tags.local.insert(e, i);
        parent = Some(i);
    }
    parent
}
