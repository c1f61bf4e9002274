//! Headers and footers (ECMA-376 Part 1, 17.10): every `w:headerReference` /
//! `w:footerReference` of every section, with its slot (`default`, `first`, `even`),
//! becomes a [`Part`] tagged with the section's index. All variants present are read,
//! whether or not `w:titlePg` / `w:evenAndOddHeaders` switch them on.

use crate::error::ConvertError;
use crate::model::Part;

use super::ctx::Ctx;
use super::read_story;
use super::sections::SectProps;

/// Reads the header and footer parts the sections reference.
///
/// # Errors
/// Fatal limits and nesting errors.
pub(crate) fn read_parts(
    cx: &mut Ctx<'_, '_>,
    sections: &[SectProps],
) -> Result<Vec<Part>, ConvertError> {
    let main_rels = cx.rels.clone();
    let mut parts = Vec::new();
    for (section, sect) in sections.iter().enumerate() {
        for (kind, variant, rid) in &sect.refs {
            let Some(rel) = main_rels.get(rid).filter(|r| !r.external) else {
                continue;
            };
            let target = rel.target.clone();
            if let Some(blocks) = read_story(cx, &target, super::body::read_blocks_root)? {
                parts.push(Part {
                    kind: *kind,
                    variant: *variant,
                    section,
                    blocks,
                });
            }
        }
    }
    cx.rels = main_rels;
    Ok(parts)
}
