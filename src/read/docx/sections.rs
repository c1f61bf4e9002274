//! Section properties (ECMA-376 Part 1, 17.6.17 `w:sectPr`): the section type that
//! decides whether a section starts on a new page (17.6.22 `w:type`, 17.18.77
//! ST_SectionMark) and the header/footer references (17.10.5, 17.10.2).
//!
//! `w:type` describes how *this* section starts relative to the previous one, so the
//! break between sections `k` and `k + 1` takes its kind from section `k + 1`; the
//! reader emits placeholders while reading and fixes them up with
//! [`patch_section_breaks`] once all sections are known. An absent `w:type` means
//! `nextPage`. Only breaks between sections are emitted (none after the last section).

use crate::error::ConvertError;
use crate::model::{Block, PartKind, PartVariant};

use super::xml::{Ev, Ns, Xml};

/// One section's properties.
#[derive(Debug, Clone, Default)]
pub(crate) struct SectProps {
    /// `w:type/@w:val` as written.
    pub kind: Option<String>,
    /// Header and footer references: kind, slot, relationship id.
    pub refs: Vec<(PartKind, PartVariant, String)>,
}

impl SectProps {
    /// Whether the section starts on a new page (`nextPage`, `oddPage`, `evenPage`
    /// or absent; not `continuous` or `nextColumn`).
    pub(crate) fn new_page(&self) -> bool {
        !matches!(self.kind.as_deref(), Some("continuous" | "nextColumn"))
    }
}

/// Reads a `w:sectPr` whose start was just returned.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_sect_pr(x: &mut Xml<'_>) -> Result<SectProps, ConvertError> {
    let mut p = SectProps::default();
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.ns == Ns::W {
                    let kind = match s.local {
                        "headerReference" => Some(PartKind::Header),
                        "footerReference" => Some(PartKind::Footer),
                        "type" => {
                            p.kind = s.w("val").map(str::to_string);
                            None
                        }
                        _ => None,
                    };
                    if let (Some(kind), Some(id)) = (kind, s.attr_ns(Ns::R, "id")) {
                        let variant = match s.w("type") {
                            Some("first") => PartVariant::First,
                            Some("even") => PartVariant::Even,
                            _ => PartVariant::Default,
                        };
                        p.refs.push((kind, variant, id.to_string()));
                    }
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(p),
            Ev::Text(_) => {}
        }
    }
}

/// Sets `new_page` of the section-break placeholders in `body` (top level, in order):
/// the break after section `k` takes the type of section `k + 1`. When `rendered` is
/// true (Word's saved page layout is trusted, see the module doc of the reader), every
/// section break gets `new_page: false` because the rendered page breaks already mark
/// the new pages.
pub(crate) fn patch_section_breaks(body: &mut [Block], sections: &[SectProps], rendered: bool) {
    let mut k = 0usize;
    for block in body.iter_mut() {
        if let Block::SectionBreak { new_page } = block {
            k += 1;
            *new_page = !rendered && sections.get(k).is_none_or(SectProps::new_page);
        }
    }
}
