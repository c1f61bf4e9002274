//! Section properties (ECMA-376 Part 1, 17.6.17 `w:sectPr`): the section type that
//! decides whether a section starts on a new page (17.6.22 `w:type`, 17.18.77
//! ST_SectionMark) and the header/footer references (17.10.5, 17.10.2).
//!
//! `w:type` describes how *this* section starts relative to the previous one, so the
//! break between sections `k` and `k + 1` takes its kind from section `k + 1`; the
//! reader emits placeholders while reading and fixes them up (`pages.rs`) once all
//! sections are known. An absent `w:type` means
//! `nextPage`. Only breaks between sections are emitted (none after the last section).

use crate::error::ConvertError;
use crate::model::{PartKind, PartVariant};

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
