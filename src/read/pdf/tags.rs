//! A tagged PDF's structure tree (ISO 32000-2, 14.7 and 14.8): which paragraph,
//! heading or list item each run of text belongs to, as the producer recorded it.
//!
//! Geometry only suggests where a paragraph ends and what is a heading; a tagged
//! PDF says so. Each marked-content sequence of a page's content stream carries an
//! id (`/MCID`) that a structure element (`/S /P`, `/H2`, `/LI`, ...) claims. The glyph
//! source reports each page's elements ([`Element`]) and each run's element; here a
//! run's element is climbed to the block it belongs to: inline elements (`Span`,
//! `Link`, `Em`, ...) are inside a block, and a list item's label and body are one
//! item. Lines of one block are one paragraph; a heading element gives the heading
//! level.

use serde::Deserialize;

/// One element of a page's part of the structure tree.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Element {
    /// The element's structure type after the document's role map (ISO 32000-2,
    /// 14.7.3 `/RoleMap`): a standard type such as `P`, `H1`, `LI`, `Span`, `TD`.
    pub role: String,
    /// Index of the parent element in the same page's list; `None` at the top.
    #[serde(default)]
    pub parent: Option<u32>,
}

/// What a block element is, for paragraph building.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// `H1`-`H6` (level 1-6), `H` and `Title` (level by nesting, 1 here).
    Heading(u8),
    /// A list item (`LI`, with its `Lbl` and `LBody`).
    Item,
    /// Any other block: `P`, `BlockQuote`, `Caption`, `TD`, a grouping element that
    /// holds text directly.
    Other,
}

/// The block a run belongs to: its element's index on the page, and its role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Block {
    pub id: u32,
    pub role: Role,
}

/// Inline-level structure types (ISO 32000-1, 14.8.4.4; ISO 32000-2, 14.8.4.7):
/// text inside a block, never a block of its own.
fn inline(role: &str) -> bool {
    matches!(
        role,
        "Span"
            | "Quote"
            | "Reference"
            | "BibEntry"
            | "Code"
            | "Link"
            | "Annot"
            | "Ruby"
            | "RB"
            | "RT"
            | "RP"
            | "Warichu"
            | "WT"
            | "WP"
            | "Em"
            | "Strong"
            | "Sub"
            | "NonStruct"
            | "Private"
            | "Artifact"
    )
}

/// Grouping structure types (ISO 32000-1, 14.8.4.2, 14.8.4.3.3, 14.8.4.3.4): they
/// hold blocks, and are no paragraph themselves.
fn grouping(role: &str) -> bool {
    matches!(
        role,
        "Document"
            | "DocumentFragment"
            | "Part"
            | "Art"
            | "Sect"
            | "Div"
            | "TOC"
            | "L"
            | "Table"
            | "TR"
            | "THead"
            | "TBody"
            | "TFoot"
    )
}

/// The heading level of a heading role.
fn heading(role: &str) -> Option<u8> {
    match role {
        "H" | "Title" => Some(1),
        _ => role
            .strip_prefix('H')
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=6).contains(n)),
    }
}

/// Deepest climb from a run's element to its block: real trees nest a few levels;
/// a parent chain longer than this is a cycle or a hostile file.
const MAX_CLIMB: usize = 64;

/// The block of each element of `elements` (same indices): the nearest ancestor
/// (itself included) that is not inline, except that anything inside a list item
/// belongs to the item. `None` for an element with no such ancestor.
pub(crate) fn blocks(elements: &[Element]) -> Vec<Option<Block>> {
    (0..elements.len())
        .map(|i| {
            let mut at = i;
            let mut found: Option<usize> = None;
            for _ in 0..MAX_CLIMB {
                let e = &elements[at];
                if e.role == "LI" {
                    found = Some(at);
                    break;
                }
                // Text held directly by a grouping element has no block of its own:
                // the layout's geometry decides.
                if grouping(&e.role) {
                    break;
                }
                if found.is_none() && !inline(&e.role) && e.role != "Lbl" && e.role != "LBody" {
                    // Look on for a list item above (a paragraph in an item's body).
                    found = Some(at);
                }
                match e.parent.map(|p| p as usize).filter(|p| *p < elements.len()) {
                    Some(p) => at = p,
                    None => break,
                }
            }
            let id = found?;
            let role = &elements[id].role;
            Some(Block {
                id: id as u32,
                role: if role == "LI" {
                    Role::Item
                } else if let Some(level) = heading(role) {
                    Role::Heading(level)
                } else {
                    Role::Other
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(role: &str, parent: Option<u32>) -> Element {
        Element {
            role: role.into(),
            parent,
        }
    }

    #[test]
    fn runs_climb_to_their_block_and_an_items_parts_are_the_item() {
        let elements = [
            el("Document", None), // 0
            el("H2", Some(0)),    // 1
            el("P", Some(0)),     // 2
            el("Span", Some(2)),  // 3
            el("L", Some(0)),     // 4
            el("LI", Some(4)),    // 5
            el("Lbl", Some(5)),   // 6
            el("LBody", Some(5)), // 7
            el("P", Some(7)),     // 8
            el("Link", Some(99)), // 9: a parent out of range
            el("Sect", Some(0)),  // 10: text held by a grouping element
        ];
        let b = blocks(&elements);
        assert_eq!(
            b[1],
            Some(Block {
                id: 1,
                role: Role::Heading(2)
            })
        );
        assert_eq!(
            b[3],
            Some(Block {
                id: 2,
                role: Role::Other
            })
        );
        assert_eq!(
            b[6],
            Some(Block {
                id: 5,
                role: Role::Item
            })
        );
        assert_eq!(
            b[8],
            Some(Block {
                id: 5,
                role: Role::Item
            })
        );
        assert_eq!(b[9], None);
        assert_eq!(b[10], None);
        // A cycle ends.
        let cyc = [el("Span", Some(1)), el("Span", Some(0))];
        assert_eq!(blocks(&cyc), [None, None]);
    }
}
