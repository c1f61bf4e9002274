//! Paragraph content (ECMA-376 Part 1, 17.3.2 runs, 17.13.5 tracked changes, 17.16
//! fields, 17.5.2 content controls, 17.5.1 custom XML and smart tags) read into an
//! [`Inl`] builder.
//!
//! Run content: `w:t`, `w:delText` (17.3.3.7, the text of a deletion), `w:tab`/`w:ptab`,
//! `w:br` (17.3.3.1: `w:type="page"` is a page break, everything else a line break),
//! `w:cr`, `w:sym` (17.3.3.30), `w:noBreakHyphen` (as "-"), `w:softHyphen` (dropped),
//! note and comment references, drawings, pictures, objects and ruby.

use crate::error::ConvertError;
use crate::model::{AnchorMark, Inline, NoteKind, RevisionKind, TextStyle};
use crate::read::symbols::{SymbolFonts, sym_char};

use super::ctx::Ctx;
use super::fields::{field_code, fld_char, hyperlink_target, suppressed};
use super::inlines::{FrameKind, Inl};
use super::math::read_math;
use super::objects::{read_drawing, read_ruby};
use super::pages::{Mark, page_break};
use super::rpr::read_rpr;
use super::xml::{Ev, Ns, Start, Xml};

/// Reads the children of a paragraph-content container whose start was just returned
/// (a `w:hyperlink`, `w:ins`, `w:smartTag`, `w:sdtContent`, ...), until its end.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_children(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    inl: &mut Inl,
) -> Result<(), ConvertError> {
    loop {
        match x.next()? {
            Ev::Start(s) => inline_element(x, cx, inl, &s)?,
            Ev::End | Ev::Eof => return Ok(()),
            Ev::Text(_) => {}
        }
    }
}

/// Reads one paragraph-level element whose start `s` was just returned.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn inline_element(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    inl: &mut Inl,
    s: &Start<'_>,
) -> Result<(), ConvertError> {
    if s.ns == Ns::M {
        if matches!(s.local, "oMath" | "oMathPara") {
            let hidden = suppressed(&cx.fields);
            return read_math(x, cx, s, inl, hidden);
        }
        cx.unknown(s);
        return x.skip();
    }
    if s.ns != Ns::W {
        cx.unknown(s);
        return x.skip();
    }
    match s.local {
        "r" => read_run(x, cx, inl),
        "ins" | "del" | "moveFrom" | "moveTo" => {
            let kind = match s.local {
                "ins" => RevisionKind::Insertion,
                "del" => RevisionKind::Deletion,
                "moveFrom" => RevisionKind::MoveFrom,
                _ => RevisionKind::MoveTo,
            };
            let author = s.w("author").filter(|a| !a.is_empty()).map(str::to_string);
            let date = s.w("date").filter(|a| !a.is_empty()).map(str::to_string);
            let id = cx.id();
            inl.open(id, FrameKind::Revision(kind, author, date));
            read_children(x, cx, inl)?;
            inl.close();
            Ok(())
        }
        "hyperlink" => {
            let mut target = s
                .attr_ns(Ns::R, "id")
                .and_then(|id| cx.rels.get(id))
                .map(|r| r.target.clone())
                .unwrap_or_default();
            if let Some(anchor) = s.w("anchor").filter(|a| !a.is_empty()) {
                target.push('#');
                target.push_str(anchor);
            }
            let id = cx.id();
            inl.open(id, FrameKind::Link(target));
            read_children(x, cx, inl)?;
            inl.close();
            Ok(())
        }
        "fldSimple" => {
            let instr = s.w("instr").unwrap_or("");
            let code = field_code(instr);
            let kind = if code == "HYPERLINK" {
                FrameKind::Link(hyperlink_target(instr))
            } else {
                FrameKind::Field(code)
            };
            let id = cx.id();
            inl.open(id, kind);
            read_children(x, cx, inl)?;
            inl.close();
            Ok(())
        }
        "smartTag" | "customXml" | "sdtContent" | "dir" | "bdo" => read_children(x, cx, inl),
        "sdt" => read_children(x, cx, inl),
        "commentRangeStart" | "commentRangeEnd" => {
            if let Some(id) = s.w("id") {
                let mark = if s.local == "commentRangeStart" {
                    AnchorMark::Start
                } else {
                    AnchorMark::End
                };
                inl.push(Inline::CommentAnchor {
                    id: id.to_string(),
                    mark,
                });
            }
            x.skip()
        }
        // A run-level element directly in a paragraph (seen from some producers).
        "t" | "tab" | "br" | "drawing" | "pict" => {
            let (style, font) = (inl.base.style(), inl.base.symbol_font());
            run_element(x, cx, inl, s, style, font)
        }
        _ => {
            cx.unknown(s);
            x.skip()
        }
    }
}

/// Reads a `w:r` whose start was just returned.
fn read_run(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>, inl: &mut Inl) -> Result<(), ConvertError> {
    let mut style = inl.base.style();
    let mut font = inl.base.symbol_font();
    // The run's own size and face (direct or character style), for the page estimate.
    let mut size = None;
    let mut face = None;
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "rPr") => {
                let (direct, char_style) = read_rpr(x)?;
                let mut own = super::rpr::RunProps::default();
                if let Some(cs) = char_style {
                    own = cx.styles.character(&cs);
                }
                let own = own.then(direct);
                size = own.size;
                face = own.face;
                let props = inl.base.then(own);
                style = props.style();
                font = props.symbol_font();
            }
            Ev::Start(s) => run_element(x, cx, inl, &s, style, font)?,
            Ev::End | Ev::Eof => {
                inl.run_font(size, face);
                return Ok(());
            }
            Ev::Text(_) => {}
        }
    }
}

/// Reads one run-content element whose start `s` was just returned; the run's text is
/// in `font` when that is a symbol-encoded font.
fn run_element(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    inl: &mut Inl,
    s: &Start<'_>,
    style: TextStyle,
    font: Option<SymbolFonts>,
) -> Result<(), ConvertError> {
    let hidden = suppressed(&cx.fields);
    if s.ns == Ns::M && matches!(s.local, "oMath" | "oMathPara") {
        return read_math(x, cx, s, inl, hidden);
    }
    if s.ns != Ns::W {
        cx.unknown(s);
        return x.skip();
    }
    match s.local {
        "t" | "delText" => {
            let text = x.text()?;
            if !hidden {
                match font {
                    Some(f) => inl.text(&f.map_text(&text), style),
                    None => inl.text(&text, style),
                }
            }
            Ok(())
        }
        "instrText" | "delInstrText" => {
            let text = x.text()?;
            if let Some(f) = cx.fields.iter_mut().rev().find(|f| !f.in_result) {
                f.instr.push_str(&text);
            }
            Ok(())
        }
        "fldChar" => fld_char(x, s.w("fldCharType"), &mut cx.fields, inl),
        "tab" | "ptab" => {
            if !hidden {
                inl.push(Inline::Tab);
            }
            x.skip()
        }
        "cr" => {
            if !hidden {
                inl.push(Inline::LineBreak);
            }
            x.skip()
        }
        "br" => {
            if s.w("type") == Some("page") {
                if !hidden {
                    page_break(cx, inl, Mark::Explicit);
                }
            } else if !hidden {
                inl.push(Inline::LineBreak);
            }
            x.skip()
        }
        "lastRenderedPageBreak" => {
            page_break(cx, inl, Mark::Rendered);
            x.skip()
        }
        "sym" => {
            if let Some(c) = s.w("char").and_then(|c| sym_char(s.w("font"), c)) {
                if !hidden {
                    inl.text(&c.to_string(), style);
                }
            }
            x.skip()
        }
        "noBreakHyphen" => {
            if !hidden {
                inl.text("-", style);
            }
            x.skip()
        }
        "footnoteReference" | "endnoteReference" => {
            let kind = if s.local == "footnoteReference" {
                NoteKind::Footnote
            } else {
                NoteKind::Endnote
            };
            if let Some(id) = s.w("id") {
                cx.note_refs.push((kind, id.to_string()));
                inl.push(Inline::NoteRef {
                    kind,
                    id: id.to_string(),
                });
            }
            x.skip()
        }
        "commentReference" => {
            if let Some(id) = s.w("id") {
                inl.push(Inline::CommentAnchor {
                    id: id.to_string(),
                    mark: AnchorMark::Reference,
                });
            }
            x.skip()
        }
        "drawing" | "pict" | "object" => {
            if hidden {
                return x.skip();
            }
            read_drawing(x, cx, inl)
        }
        "ruby" => read_ruby(x, cx, inl),
        _ => {
            cx.unknown(s);
            x.skip()
        }
    }
}
