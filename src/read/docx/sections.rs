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
use crate::read::pagefit::PageBox;

use super::layout_props::twips;
use super::xml::{Ev, Ns, Start, Xml};

/// One section's properties.
#[derive(Debug, Clone, Default)]
pub(crate) struct SectProps {
    /// `w:type/@w:val` as written.
    pub kind: Option<String>,
    /// Header and footer references: kind, slot, relationship id.
    pub refs: Vec<(PartKind, PartVariant, String)>,
    /// Page size (17.6.13 `w:pgSz` `@w:w`, `@w:h`), twips.
    pub size: Option<(u32, u32)>,
    /// Page margins (17.6.11 `w:pgMar`): top, right, bottom, left, twips; the gutter is
    /// added to the left margin.
    pub margins: Option<[u32; 4]>,
    /// Columns (17.6.4 `w:cols` `@w:num`, `@w:space`).
    pub columns: Option<(u16, u32)>,
    /// `w:lastRenderedPageBreak` marks in the section: Word laid it out.
    pub rendered_marks: usize,
}

impl SectProps {
    /// Whether the section starts on a new page (`nextPage`, `oddPage`, `evenPage`
    /// or absent; not `continuous` or `nextColumn`).
    pub(crate) fn new_page(&self) -> bool {
        !matches!(self.kind.as_deref(), Some("continuous" | "nextColumn"))
    }

    /// The text area of the section's pages; US Letter with 1-inch margins for what
    /// the file leaves out (Word's default template).
    pub(crate) fn page_box(&self) -> PageBox {
        let (w, h) = self.size.unwrap_or((12_240, 15_840));
        let m = self.margins.unwrap_or([1_440; 4]);
        let (n, gap) = self.columns.unwrap_or((1, 720));
        PageBox::from_page(w, h, m, n, gap)
    }
}

/// Reads `w:pgSz`, `w:pgMar` and `w:cols` into `p`.
fn read_geometry(p: &mut SectProps, s: &Start<'_>) {
    let len = |n: &str| {
        s.w(n)
            .and_then(twips)
            .map(|v| v.unsigned_abs().min(1_000_000) as u32)
    };
    match s.local {
        "pgSz" => {
            if let (Some(w), Some(h)) = (len("w"), len("h")) {
                p.size = Some((w, h));
            }
        }
        "pgMar" => {
            // A negative top or bottom margin means the text does not move for the
            // header or footer (17.6.11): the distance is the same.
            let m = |n| len(n).unwrap_or(1_440);
            p.margins = Some([
                m("top"),
                m("right"),
                m("bottom"),
                m("left").saturating_add(len("gutter").unwrap_or(0)),
            ]);
        }
        "cols" => {
            let n = s
                .w("num")
                .and_then(|v| v.trim().parse::<u16>().ok())
                .unwrap_or(1);
            p.columns = Some((n.max(1), len("space").unwrap_or(720)));
        }
        _ => {}
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
                        _ => {
                            read_geometry(&mut p, &s);
                            None
                        }
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
