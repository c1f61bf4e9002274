//! The document outline (bookmarks, ISO 32000-2, 12.3.3) as [`OutlineEntry`]s: each
//! entry's title, depth and the page its destination names.

use std::collections::{HashMap, HashSet};

use hayro_syntax::Pdf;
use hayro_syntax::object::{Array, Dict, Name, Object, ObjectIdentifier, String as PdfString};

use crate::read::pdf::OutlineEntry;

/// Most outline entries read: a real outline has hundreds; a cycle that slips past
/// the visited set, or a hostile file, stops here.
const MAX_ENTRIES: usize = 50_000;

/// Outline nesting read (the layout maps deeper levels to 9 anyway).
const MAX_DEPTH: u8 = 32;

/// Links followed to resolve one destination (a named destination may name a
/// dictionary that names an array).
const MAX_HOPS: u32 = 4;

/// Name-tree levels searched for a named destination.
const MAX_TREE_DEPTH: u32 = 32;

/// Name-tree nodes visited for one lookup: a tree whose kids repeat one node would
/// otherwise be walked exponentially often.
const MAX_TREE_NODES: u32 = 10_000;

/// The outline of `pdf`, in document order (an entry, then its children, then its
/// next sibling). Entries whose destination does not resolve to a page of the
/// document are left out: the layout places a bookmark on its page.
pub(super) fn read(pdf: &Pdf) -> Vec<OutlineEntry> {
    let xref = pdf.xref();
    let pages: HashMap<ObjectIdentifier, u32> = pdf
        .pages()
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((p.raw().obj_id()?, u32::try_from(i + 1).ok()?)))
        .collect();
    let Some(catalog) = xref.get::<Dict<'_>>(xref.root_id()) else {
        return Vec::new();
    };
    let Some(first) = catalog
        .get::<Dict<'_>>(b"Outlines")
        .and_then(|o| o.get::<Dict<'_>>(b"First"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    // Depth-first with an explicit stack: children before the next sibling.
    let mut stack: Vec<(Dict<'_>, u8)> = vec![(first, 1)];
    while let Some((item, level)) = stack.pop() {
        if out.len() >= MAX_ENTRIES {
            break;
        }
        if let Some(id) = item.obj_id()
            && !seen.insert(id)
        {
            continue;
        }
        let title = item
            .get::<PdfString<'_>>(b"Title")
            .map(|s| text_string(s.as_bytes()))
            .unwrap_or_default();
        if let Some(page) = destination(&item, &catalog, &pages) {
            out.push(OutlineEntry { title, level, page });
        }
        if let Some(next) = item.get::<Dict<'_>>(b"Next") {
            stack.push((next, level));
        }
        if level < MAX_DEPTH
            && let Some(child) = item.get::<Dict<'_>>(b"First")
        {
            stack.push((child, level + 1));
        }
    }
    out
}

/// A PDF text string (ISO 32000-2, 7.9.2.2): UTF-16BE after a `FE FF` mark, UTF-8
/// after `EF BB BF`, else PDFDocEncoding (read as Latin-1, which it equals on the
/// printable range).
pub(super) fn text_string(b: &[u8]) -> String {
    if let Some(rest) = b.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else if let Some(rest) = b.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        b.iter().map(|&c| char::from(c)).collect()
    }
}

/// The page an outline item goes to: its `/Dest`, or the `/D` of a `GoTo` action.
fn destination(
    item: &Dict<'_>,
    catalog: &Dict<'_>,
    pages: &HashMap<ObjectIdentifier, u32>,
) -> Option<u32> {
    let dest = item.get::<Object<'_>>(b"Dest").or_else(|| {
        let action = item.get::<Dict<'_>>(b"A")?;
        (action.get::<Name<'_>>(b"S")?.as_str() == "GoTo")
            .then(|| action.get::<Object<'_>>(b"D"))?
    })?;
    resolve(dest, catalog, pages, 0)
}

/// An explicit destination is an array whose first element is the page (12.3.2.2);
/// a named one is looked up in the catalog's `/Dests` or the `/Names` tree.
fn resolve(
    dest: Object<'_>,
    catalog: &Dict<'_>,
    pages: &HashMap<ObjectIdentifier, u32>,
    hops: u32,
) -> Option<u32> {
    if hops > MAX_HOPS {
        return None;
    }
    match dest {
        Object::Array(a) => {
            let first = a.raw_iter().next()?;
            match first.as_obj_ref() {
                Some(r) => pages.get(&r.into()).copied(),
                // A page index (remote-style) where a page reference belongs.
                None => {
                    let n = a.iter::<Object<'_>>().next()?.into_number()?.as_f64();
                    (n >= 0.0 && n < f64::from(u32::MAX)).then(|| n as u32 + 1)
                }
            }
        }
        Object::Dict(d) => resolve(d.get::<Object<'_>>(b"D")?, catalog, pages, hops + 1),
        Object::Name(n) => {
            let d = catalog
                .get::<Dict<'_>>(b"Dests")?
                .get::<Object<'_>>(n.as_str().as_bytes())?;
            resolve(d, catalog, pages, hops + 1)
        }
        Object::String(s) => {
            let tree = catalog
                .get::<Dict<'_>>(b"Names")?
                .get::<Dict<'_>>(b"Dests")?;
            let d = name_tree_lookup(&tree, s.as_bytes(), 0, &mut { MAX_TREE_NODES })?;
            resolve(d, catalog, pages, hops + 1)
        }
        _ => None,
    }
}

/// The value of `key` in a name tree (7.9.6), visiting at most `visits` more nodes.
fn name_tree_lookup<'a>(
    node: &Dict<'a>,
    key: &[u8],
    depth: u32,
    visits: &mut u32,
) -> Option<Object<'a>> {
    if depth > MAX_TREE_DEPTH || *visits == 0 {
        return None;
    }
    *visits -= 1;
    if let Some(names) = node.get::<Array<'a>>(b"Names") {
        let mut it = names.iter::<Object<'a>>();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            if let Object::String(k) = k
                && k.as_bytes() == key
            {
                return Some(v);
            }
        }
    }
    node.get::<Array<'a>>(b"Kids")?
        .iter::<Dict<'a>>()
        .find_map(|kid| name_tree_lookup(&kid, key, depth + 1, visits))
}
