//! Block-level content (ECMA-376 Part 1, 17.2 `w:body` and every story that holds
//! blocks: table cells, text boxes, headers, footers, notes, comments).
//!
//! Paragraphs and tables become blocks; block-level content controls (`w:sdt`,
//! 17.5.2.29) and custom XML (`w:customXml`) are transparent; `w:altChunk` (17.17.2.1)
//! pulls in an imported part; the body-level `w:sectPr` closes the last section.
//! A comment range mark between paragraphs, or between the rows or cells of a table,
//! is attached to the next paragraph (a start) or the previous one (an end; inside a
//! table, the last paragraph of its last cell read).

use crate::error::ConvertError;
use crate::model::{AnchorMark, Block, Inline, Paragraph};
use crate::progress::{self, Stage};
use crate::read::pagefit::{Measure, What};

/// Top-level body blocks between two progress reports.
const REPORT_EVERY: usize = 64;

use super::altchunk::read_alt_chunk;
use super::ctx::Ctx;
use super::inlines::{FrameKind, Inl};
use super::layout_props::LayoutProps;
use super::paragraph::read_paragraph;
use super::sections::read_sect_pr;
use super::table::read_table;
use super::xml::{Ev, Ns, Start, Xml};

/// Reads a whole story part: the blocks under its root element (`w:hdr`, `w:ftr`,
/// `w:txbxContent`), or under `w:document/w:body` for the main part.
///
/// # Errors
/// As [`read_blocks`].
pub(crate) fn read_blocks_root(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
) -> Result<Vec<Block>, ConvertError> {
    let mut out = Vec::new();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "document") => loop {
                match x.next()? {
                    Ev::Start(b) if b.is(Ns::W, "body") => out.extend(read_body(x, cx)?),
                    Ev::Start(_) => x.skip()?,
                    Ev::Text(_) => {}
                    Ev::End | Ev::Eof => break,
                }
            },
            Ev::Start(_) => out.extend(read_blocks(x, cx)?),
            Ev::End | Ev::Text(_) => {}
            Ev::Eof => {
                flush_pending(cx, &mut out);
                return Ok(out);
            }
        }
    }
}

/// Reads the children of `w:body` as [`read_blocks`] does, telling the progress hook
/// (`crate::progress`) how far into the part it is every [`REPORT_EVERY`] blocks.
///
/// # Errors
/// As [`read_blocks`]; [`ConvertError::Stopped`] when the hook asks to stop.
fn read_body(x: &mut Xml<'_>, cx: &mut Ctx<'_, '_>) -> Result<Vec<Block>, ConvertError> {
    let mut out = Vec::new();
    let mut since = 0;
    loop {
        match x.next()? {
            Ev::Start(s) => {
                block_element(x, cx, &s, &mut out)?;
                since += 1;
                if since == REPORT_EVERY {
                    since = 0;
                    let (done, total) = x.progress();
                    progress::report(Stage::Parse, &cx.part, done, total)?;
                }
            }
            Ev::End | Ev::Eof => return Ok(out),
            Ev::Text(_) => {}
        }
    }
}

/// Reads the block children of the element whose start was just returned, until its
/// end.
///
/// # Errors
/// XML errors from [`Xml::next`]; [`ConvertError::TooDeep`] on absurd nesting.
pub(crate) fn read_blocks(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
) -> Result<Vec<Block>, ConvertError> {
    let mut out = Vec::new();
    loop {
        match x.next()? {
            Ev::Start(s) => block_element(x, cx, &s, &mut out)?,
            Ev::End | Ev::Eof => return Ok(out),
            Ev::Text(_) => {}
        }
    }
}

/// Reads one block-level element whose start `s` was just returned into `out`.
///
/// # Errors
/// As [`read_blocks`].
pub(crate) fn block_element(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    s: &Start<'_>,
    out: &mut Vec<Block>,
) -> Result<(), ConvertError> {
    if s.ns != Ns::W {
        if s.ns == Ns::M && s.local == "oMathPara" {
            // Math outside a paragraph: read it as one.
            return inline_paragraph(x, cx, s, out);
        }
        cx.unknown(s);
        return x.skip();
    }
    match s.local {
        "p" => read_paragraph(x, cx, s, out),
        "tbl" => {
            if cx.tables == 0 {
                cx.table.quick = cx.laid_out;
            }
            cx.tables += 1;
            let t = read_table(x, cx);
            cx.tables -= 1;
            if cx.top_level() {
                let rows = std::mem::take(&mut cx.table).rows;
                cx.table_style = LayoutProps::default();
                cx.measures.push(Measure {
                    at: cx.block_base + out.len(),
                    what: What::Table { rows },
                });
            }
            out.push(Block::Table(t?));
            Ok(())
        }
        "sdt" | "customXml" | "sdtContent" => {
            // The inner blocks land after `out`'s: measures count from there.
            let base = cx.block_base;
            cx.block_base += out.len();
            let inner = read_blocks(x, cx);
            cx.block_base = base;
            out.extend(inner?);
            Ok(())
        }
        "sectPr" => {
            let sect = read_sect_pr(x)?;
            if cx.main {
                cx.end_section(sect);
            }
            Ok(())
        }
        "altChunk" => {
            let id = s.attr_ns(Ns::R, "id").unwrap_or("").to_string();
            x.skip()?;
            let blocks = read_alt_chunk(cx, &id)?;
            out.extend(blocks);
            Ok(())
        }
        "commentRangeStart" | "commentRangeEnd" => {
            range_mark(cx, s, last_paragraph(out));
            x.skip()
        }
        "ins" | "del" | "moveFrom" | "moveTo" | "r" | "hyperlink" | "smartTag" | "fldSimple" => {
            inline_paragraph(x, cx, s, out)
        }
        _ => {
            cx.unknown(s);
            x.skip()
        }
    }
}

/// Places a `w:commentRangeStart`/`w:commentRangeEnd` (17.13.4.4, 17.13.4.3) found
/// between blocks: a start waits for the next paragraph, an end closes on `before`
/// (the last paragraph read in the same container) or, when there is none, waits too.
pub(crate) fn range_mark(cx: &mut Ctx<'_, '_>, s: &Start<'_>, before: Option<&mut Paragraph>) {
    let Some(id) = s.w("id") else {
        return;
    };
    let start = s.local == "commentRangeStart";
    let anchor = Inline::CommentAnchor {
        id: id.to_string(),
        mark: if start {
            AnchorMark::Start
        } else {
            AnchorMark::End
        },
    };
    match before {
        Some(p) if !start => p.inlines.push(anchor),
        _ => cx.pending.push(anchor),
    }
}

/// The last paragraph of `blocks`, looking into the last cell of a trailing table.
pub(crate) fn last_paragraph(blocks: &mut [Block]) -> Option<&mut Paragraph> {
    match blocks.last_mut()? {
        Block::Paragraph(p) => Some(p),
        Block::Table(t) => {
            let cell = t.rows.last_mut()?.cells.last_mut()?;
            last_paragraph(&mut cell.blocks)
        }
        _ => None,
    }
}

/// Run-level content found where a block belongs: read into a paragraph of its own.
fn inline_paragraph(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    s: &Start<'_>,
    out: &mut Vec<Block>,
) -> Result<(), ConvertError> {
    let id = cx.id();
    let mut inl = Inl::new(id);
    inl.base = cx.styles.paragraph(None).run;
    let frame = cx.id();
    inl.open(frame, FrameKind::Collect);
    super::runs::inline_element(x, cx, &mut inl, s)?;
    inl.close();
    let (inlines, after, _) = inl.finish();
    if !inlines.is_empty() {
        out.push(Block::Paragraph(Paragraph {
            kind: Default::default(),
            inlines,
        }));
    }
    out.extend(after);
    Ok(())
}

/// Attaches comment anchors still pending at the end of a story to its last
/// paragraph (or a paragraph of their own), so no comment vanishes.
pub(crate) fn flush_pending(cx: &mut Ctx<'_, '_>, blocks: &mut Vec<Block>) {
    if cx.pending.is_empty() {
        return;
    }
    let pending = std::mem::take(&mut cx.pending);
    if let Some(Block::Paragraph(p)) = blocks
        .iter_mut()
        .rev()
        .find(|b| matches!(b, Block::Paragraph(_)))
    {
        p.inlines.extend(pending);
    } else {
        blocks.push(Block::Paragraph(Paragraph {
            kind: Default::default(),
            inlines: pending,
        }));
    }
}
