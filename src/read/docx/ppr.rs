//! Paragraph properties (ECMA-376 Part 1, 17.3.1.26 `w:pPr`), the parts the reader
//! uses: style, outline level, numbering, page break before, and the section
//! properties a paragraph mark carries for a non-final section (17.6.17), and a tracked
//! deletion of the paragraph mark itself (17.13.5.15 `w:pPr/w:rPr/w:del`).

use crate::error::ConvertError;

use super::layout_props::LayoutProps;
use super::sections::{SectProps, read_sect_pr};
use super::xml::{Ev, Ns, Xml};

/// A `w:numPr` reference: numbering instance and level, each optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NumRef {
    /// `w:numId/@w:val`; `"0"` removes numbering.
    pub num_id: Option<String>,
    /// `w:ilvl/@w:val`, 0..=8.
    pub level: Option<u8>,
}

/// Paragraph properties as read.
#[derive(Debug, Clone, Default)]
pub(crate) struct ParaProps {
    /// `w:pStyle`.
    pub style: Option<String>,
    /// `w:outlineLvl` (0..=9; 9 is body text).
    pub outline: Option<u8>,
    /// `w:numPr`.
    pub num: Option<NumRef>,
    /// `w:pageBreakBefore`.
    pub page_break_before: Option<bool>,
    /// `w:sectPr`: this paragraph ends a (non-final) section.
    pub sect: Option<SectProps>,
    /// `w:rPr/w:del`: the paragraph mark is a tracked deletion, so once accepted the
    /// paragraph runs on into the next one.
    pub mark_deleted: Option<MarkDeletion>,
    /// Spacing, indentation and keep properties, for the page estimate.
    pub layout: LayoutProps,
}

/// Who deleted a paragraph mark, and when (`w:author`, `w:date` as written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MarkDeletion {
    pub author: Option<String>,
    pub date: Option<String>,
}

/// The `w:pPr` children `read_ppr` reads (17.3.1); the others are skipped unread.
const PPR_READ: &[(Ns, &str)] = &[
    (Ns::W, "pStyle"),
    (Ns::W, "outlineLvl"),
    (Ns::W, "pageBreakBefore"),
    (Ns::W, "numPr"),
    (Ns::W, "sectPr"),
    (Ns::W, "rPr"),
    (Ns::W, "spacing"),
    (Ns::W, "ind"),
    (Ns::W, "keepNext"),
    (Ns::W, "keepLines"),
    (Ns::W, "contextualSpacing"),
];

/// Reads a `w:pPr` whose start was just returned. Revision records (`w:pPrChange`)
/// are skipped: they describe the properties before a tracked change.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_ppr(x: &mut Xml<'_>) -> Result<ParaProps, ConvertError> {
    let mut p = ParaProps::default();
    loop {
        match x.next_among(PPR_READ)? {
            Ev::Start(s) if s.ns == Ns::W => match s.local {
                "pStyle" => {
                    p.style = s.w("val").map(str::to_string);
                    x.skip()?;
                }
                "outlineLvl" => {
                    p.outline = s.w("val").and_then(|v| v.trim().parse().ok());
                    x.skip()?;
                }
                "pageBreakBefore" => {
                    p.page_break_before = Some(s.on_off());
                    x.skip()?;
                }
                "numPr" => p.num = Some(read_num_pr(x)?),
                "sectPr" => p.sect = Some(read_sect_pr(x)?),
                "rPr" => p.mark_deleted = read_mark_rpr(x)?,
                _ => {
                    p.layout.read(&s);
                    x.skip()?
                }
            },
            Ev::Start(_) => x.skip()?,
            Ev::End | Ev::Eof => return Ok(p),
            Ev::Text(_) => {}
        }
    }
}

/// Reads the paragraph mark's `w:rPr` whose start was just returned: only its
/// `w:del` matters here (the mark's formatting styles no text).
///
/// # Errors
/// XML errors from [`Xml::next`].
fn read_mark_rpr(x: &mut Xml<'_>) -> Result<Option<MarkDeletion>, ConvertError> {
    let mut deleted = None;
    loop {
        match x.next_among(&[(Ns::W, "del")])? {
            Ev::Start(s) => {
                if s.is(Ns::W, "del") {
                    let attr = |n| s.w(n).filter(|v| !v.is_empty()).map(str::to_string);
                    deleted = Some(MarkDeletion {
                        author: attr("author"),
                        date: attr("date"),
                    });
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(deleted),
            Ev::Text(_) => {}
        }
    }
}

/// Reads a `w:numPr` whose start was just returned.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_num_pr(x: &mut Xml<'_>) -> Result<NumRef, ConvertError> {
    let mut n = NumRef::default();
    loop {
        match x.next()? {
            Ev::Start(s) => {
                if s.is(Ns::W, "numId") {
                    n.num_id = s.w("val").map(|v| v.trim().to_string());
                } else if s.is(Ns::W, "ilvl") {
                    n.level = s.w("val").and_then(|v| v.trim().parse::<u8>().ok());
                }
                x.skip()?;
            }
            Ev::End | Ev::Eof => return Ok(n),
            Ev::Text(_) => {}
        }
    }
}
