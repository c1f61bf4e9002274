//! Embedded objects inside runs: DrawingML drawings (ECMA-376 Part 1, 20.4 `w:drawing`),
//! VML pictures (`w:pict`, Part 4), OLE objects (`w:object`), text boxes
//! (17.17.1 `w:txbxContent`) and ruby (17.3.3.25); Office Math (22.1) is in `math.rs`.
//!
//! A drawing that holds a picture, chart or diagram (`a:blip`, `pic:pic`, `c:chart`,
//! `dgm:relIds`, VML `v:imagedata`, an OLE object) becomes an [`Inline::Image`]; bare
//! shapes and connectors are dropped. The image's alt text is `wp:docPr/@descr`, else
//! `@title`, else `@name` (VML: `v:imagedata/@o:title`, `v:shape/@alt`). A drawing
//! that holds a text box is not an image: the text box's paragraphs are read as blocks
//! and emitted after the paragraph that anchors them (in reading order). The text of a
//! VML WordArt shape (`v:textpath` `string`, as Word writes watermarks) is read the
//! same way, as one paragraph.
//! Ruby is written as base text followed by the reading in parentheses: 漢字(かんじ).

use crate::error::ConvertError;
use crate::model::{Block, Inline, Paragraph, ParagraphKind, TextStyle};

use super::body::read_blocks;
use super::ctx::Ctx;
use super::inlines::{FrameKind, Inl};
use super::runs::read_children;
use super::xml::{Ev, Ns, Xml};

/// Reads a `w:drawing`, `w:pict` or `w:object` whose start was just returned.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_drawing(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    inl: &mut Inl,
) -> Result<(), ConvertError> {
    let mut alt: Option<String> = None;
    let mut image = false;
    let mut textbox = false;
    let mut wordart: Option<String> = None;
    let mut height = 0u32;
    let mut depth = 1usize;
    while depth > 0 {
        match x.next()? {
            Ev::Start(s) => {
                if s.is(Ns::W, "txbxContent") {
                    cx.textbox += 1;
                    let blocks = read_blocks(x, cx);
                    cx.textbox -= 1;
                    inl.after.extend(blocks?);
                    textbox = true;
                    continue;
                }
                depth += 1;
                let found = match (s.ns, s.local) {
                    // 20.4.2.7 `wp:extent` `@cy`: the drawing's height in EMUs
                    // (635 to the twip).
                    (Ns::Wp, "extent") => {
                        let cy = s.attr_any("cy").and_then(|v| v.trim().parse::<u64>().ok());
                        height = height.max(cy.map_or(0, |v| (v / 635).min(31_680) as u32));
                        None
                    }
                    (Ns::Wp, "docPr") => {
                        [s.attr_any("descr"), s.attr_any("title"), s.attr_any("name")]
                            .into_iter()
                            .flatten()
                            .find(|a| !a.trim().is_empty())
                    }
                    (Ns::V, "imagedata") => {
                        image = true;
                        s.attr_ns(Ns::O, "title")
                    }
                    (Ns::V, "shape") => s.attr_any("alt"),
                    // WordArt and watermarks (VML 14.1.2.22 `v:textpath`): the text
                    // is the shape's `string` attribute, not a text box.
                    (Ns::V, "textpath") => {
                        if let Some(t) = s.attr_any("string").map(str::trim)
                            && !t.is_empty()
                        {
                            wordart = Some(t.to_string());
                        }
                        None
                    }
                    // A picture, chart or diagram (not a bare shape or connector).
                    (_, "blip" | "pic" | "chart" | "relIds") => {
                        image = true;
                        None
                    }
                    (Ns::O, "OLEObject") => {
                        image = true;
                        s.attr_any("ProgID")
                    }
                    _ => None,
                };
                if alt.is_none() {
                    alt = found.filter(|a| !a.trim().is_empty()).map(str::to_string);
                }
            }
            Ev::End => depth -= 1,
            Ev::Eof => break,
            Ev::Text(_) => {}
        }
    }
    if let (Some(text), false) = (wordart, textbox) {
        // Read after the anchoring paragraph, as a text box is.
        inl.after.push(Block::Paragraph(Paragraph {
            kind: ParagraphKind::default(),
            inlines: vec![Inline::Text {
                text,
                style: TextStyle::default(),
            }],
        }));
        return Ok(());
    }
    if image && !textbox {
        inl.image_height = inl.image_height.saturating_add(height);
        inl.push(Inline::Image {
            alt: alt.unwrap_or_default(),
        });
    }
    Ok(())
}

/// Reads a `w:ruby` whose start was just returned: base text, then the reading in
/// parentheses.
///
/// # Errors
/// XML errors from [`Xml::next`].
pub(crate) fn read_ruby(
    x: &mut Xml<'_>,
    cx: &mut Ctx<'_, '_>,
    inl: &mut Inl,
) -> Result<(), ConvertError> {
    let mut reading = Vec::new();
    let mut base = Vec::new();
    loop {
        match x.next()? {
            Ev::Start(s) if s.is(Ns::W, "rt") || s.is(Ns::W, "rubyBase") => {
                let id = cx.id();
                inl.open(id, FrameKind::Collect);
                read_children(x, cx, inl)?;
                let items = inl.take();
                if s.local == "rt" {
                    reading = items;
                } else {
                    base = items;
                }
            }
            Ev::Start(_) => x.skip()?,
            Ev::End | Ev::Eof => break,
            Ev::Text(_) => {}
        }
    }
    for i in base {
        inl.push(i);
    }
    if !reading.is_empty() {
        inl.text("(", TextStyle::default());
        for i in reading {
            inl.push(i);
        }
        inl.text(")", TextStyle::default());
    }
    Ok(())
}
