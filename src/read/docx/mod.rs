//! DOCX reader: an Office Open XML word-processing package (ECMA-376, Transitional or
//! Strict) into the [`Document`] model.
//!
//! # Parts
//! The main part is the target of the package's `officeDocument` relationship
//! (Transitional or Strict URI), else `word/document.xml`. Styles, numbering, comments
//! (with `commentsExtended` threads), footnotes, endnotes, headers, footers, hyperlink
//! targets and altChunks come from the main part's relationships; the core properties
//! from the package's. Only these parts are inflated, so a damaged member the reader
//! does not need (a theme, an image) never fails a conversion; a damaged or
//! malformed part it does need, other than the main part, is skipped with a
//! `corrupt-part` warning. A malformed main part is [`ConvertError::MalformedXml`].
//!
//! # Pages
//! The model keeps only the breaks that start a new page. Explicit breaks, new-page
//! sections and Word's rendered page breaks (`w:lastRenderedPageBreak`) are merged so
//! that each page start counts once; see `pages.rs` for the rule and
//! `tests/docx_reader.rs` (`page_counts`) for how close it comes to
//! `docProps/app.xml` `Pages` on the corpus. Sections Word did not lay out get
//! estimated page starts (`read::pagefit`, [`PageMode`]); `Document::pagination` says
//! from which page on the numbers are estimates.

mod altchunk;
mod body;
mod comments;
mod ctx;
mod fields;
mod headers;
mod inlines;
mod labels;
mod layout_props;
mod math;
mod notes;
mod ns;
mod numbering;
mod objects;
mod package;
mod pages;
mod paragraph;
mod ppr;
mod props;
mod rels;
mod rpr;
mod runs;
mod sections;
mod styles;
mod table;
mod xml;

use crate::error::ConvertError;
use crate::model::{Document, NoteKind};
use crate::options::{Limits, PageMode};
use crate::read::pagefit::Section;

use ctx::Ctx;
use package::{Package, PartError};
use rels::Rels;
use xml::Xml;

/// Reads a DOCX package into the document model.
///
/// # Errors
/// [`ConvertError::NotZip`] for an unreadable archive, [`ConvertError::MissingMainPart`]
/// when no main document part exists, [`ConvertError::UnsupportedFormat`] for other
/// OOXML packages (spreadsheets, presentations) and ODF, [`ConvertError::MalformedXml`]
/// for a malformed main part, and the limit errors [`ConvertError::TooLarge`],
/// [`ConvertError::ZipBomb`], [`ConvertError::TooDeep`].
pub fn read(bytes: &[u8], limits: &Limits) -> Result<Document, ConvertError> {
    read_with(bytes, limits, PageMode::Auto)
}

/// [`read`] with the page numbers taken as `pages` says: Word's saved layout where
/// there is one and an estimate elsewhere ([`PageMode::Auto`]), always estimated, or
/// never estimated.
///
/// # Errors
/// As [`read`].
pub fn read_with(bytes: &[u8], limits: &Limits, pages: PageMode) -> Result<Document, ConvertError> {
    let mut pkg = Package::open(bytes, limits)?;
    let pkg_rels = Rels::read(&mut pkg, "")?;
    let main = find_main(&pkg, &pkg_rels)?;
    let main_bytes = match pkg.read(&main) {
        Ok(b) => xml::utf8_part(b),
        Err(PartError::Fatal(e)) => return Err(e),
        Err(PartError::Missing) => {
            return Err(ConvertError::MissingMainPart {
                detail: format!(
                    "the officeDocument relationship points to {main}, which is not in the archive"
                ),
            });
        }
        Err(PartError::Corrupt(d)) => {
            return Err(ConvertError::NotZip {
                detail: format!("the main part {main} is damaged: {d}"),
            });
        }
    };
    let core = pkg_rels
        .first("core-properties")
        .filter(|r| !r.external)
        .map(|r| r.target.clone());
    let mut cx = Ctx::new(&mut pkg, limits);
    cx.ignore_rendered = pages == PageMode::Estimate;
    cx.rels = Rels::read(cx.pkg, &main)?;
    let main_rels = cx.rels.clone();
    let target = |suffix: &str| {
        main_rels
            .first(suffix)
            .filter(|r| !r.external)
            .map(|r| r.target.clone())
    };

    if let Some(t) = target("styles") {
        if let Some(s) = read_story(&mut cx, &t, |x, _| styles::Styles::parse(x))? {
            cx.styles = s;
        }
    }
    if let Some(t) = target("numbering") {
        if let Some(n) = read_story(&mut cx, &t, |x, _| numbering::Numbering::parse(x))? {
            cx.numbering = n;
        }
    }

    // The main story.
    cx.main = true;
    cx.part = main.clone();
    cx.rels = main_rels.clone();
    let mut x = Xml::new(&main_bytes, &main, limits.max_depth);
    // Word's layout decides the pages of every section it laid out: the few it did not
    // (after its layout stops) do with a quicker measure of their tables.
    cx.laid_out = !cx.ignore_rendered && x.contains("lastRenderedPageBreak");
    let body = body::read_blocks_root(&mut x, &mut cx)?;
    let xml_warnings = std::mem::take(&mut x.warnings);
    for w in xml_warnings {
        cx.warn(w.code, w.message);
    }
    cx.main = false;
    let sections = std::mem::take(&mut cx.sections);
    let (body, pagination) = paginate(&mut cx, body, &sections, pages);

    let parts = headers::read_parts(&mut cx, &sections)?;

    let mut notes = Vec::new();
    for (suffix, kind) in [
        ("footnotes", NoteKind::Footnote),
        ("endnotes", NoteKind::Endnote),
    ] {
        if let Some(t) = target(suffix) {
            if let Some(n) = read_story(&mut cx, &t, |x, cx| notes::read_notes(x, cx, kind))? {
                notes.extend(n);
            }
        }
    }
    let refs = std::mem::take(&mut cx.note_refs);
    let notes = notes::order_notes(notes, &refs);

    let mut comments = Vec::new();
    if let Some(t) = target("comments") {
        if let Some((mut c, para_ids)) = read_story(&mut cx, &t, comments::read_comments)? {
            if let Some(ext) = target("commentsExtended") {
                if let Some(parents) =
                    read_story(&mut cx, &ext, |x, _| comments::read_comments_ex(x))?
                {
                    comments::link_replies(&mut c, &para_ids, &parents);
                }
            }
            comments = c;
        }
    }

    let properties = match core {
        Some(t) => read_story(&mut cx, &t, |x, _| props::read_core(x))?.unwrap_or_default(),
        None => Default::default(),
    };

    Ok(Document {
        properties,
        body,
        parts,
        notes,
        comments,
        warnings: cx.take_warnings(),
        pagination,
    })
}

/// The body with its page starts settled: section breaks typed (and blank pages for
/// odd/even sections), estimated breaks where Word saved no layout (`read::pagefit::paginate`).
#[inline(never)]
fn paginate(
    cx: &mut Ctx<'_, '_>,
    body: Vec<crate::model::Block>,
    sections: &[sections::SectProps],
    pages: PageMode,
) -> (Vec<crate::model::Block>, crate::model::Pagination) {
    let body = pages::patch_section_breaks(body, sections);
    let measures = std::mem::take(&mut cx.measures);
    let fallback = cx.styles.paragraph_layout(None).metrics();
    let sections: Vec<Section> = sections
        .iter()
        .map(|s| Section {
            page: s.page_box(),
            rendered: s.rendered_marks > 0,
        })
        .collect();
    crate::read::pagefit::paginate(
        body,
        &measures,
        &sections,
        pages,
        fallback,
        cx.limits.max_pages,
    )
}

/// Finds the main part name.
fn find_main(pkg: &Package<'_>, rels: &Rels) -> Result<String, ConvertError> {
    if let Some(r) = rels.first("officeDocument").filter(|r| !r.external) {
        return Ok(r.target.clone());
    }
    if pkg.has("word/document.xml") {
        return Ok("word/document.xml".into());
    }
    if pkg.is_empty() {
        return Err(ConvertError::MissingMainPart {
            detail: "the zip archive is empty (looked for an officeDocument relationship in _rels/.rels and for word/document.xml)".into(),
        });
    }
    let names: Vec<&str> = pkg.names().collect();
    let foreign = if names.iter().any(|n| n.starts_with("xl/")) {
        Some("XLSX (spreadsheet)")
    } else if names.iter().any(|n| n.starts_with("ppt/")) {
        Some("PPTX (presentation)")
    } else if names.iter().any(|n| *n == "mimetype") && names.iter().any(|n| *n == "content.xml") {
        Some("OpenDocument")
    } else {
        None
    };
    if let Some(format) = foreign {
        return Err(ConvertError::UnsupportedFormat {
            format: format.into(),
        });
    }
    Err(ConvertError::MissingMainPart {
        detail: format!(
            "looked for an officeDocument relationship in _rels/.rels and for word/document.xml; the zip archive has {} other member{}, so it is probably not a .docx",
            names.len(),
            if names.len() == 1 { "" } else { "s" }
        ),
    })
}

/// Reads the part `name` with its own relationships and `f`. A missing part gives
/// `None`; a damaged or malformed one gives `None` and a `corrupt-part` warning;
/// limit errors are returned. Generic only in `f`: the opening and closing work is
/// in [`open_story`] and [`close_story`], so each caller adds little code (the wasm
/// size budget).
fn read_story<T>(
    cx: &mut Ctx<'_, '_>,
    name: &str,
    f: impl FnOnce(&mut Xml<'_>, &mut Ctx<'_, '_>) -> Result<T, ConvertError>,
) -> Result<Option<T>, ConvertError> {
    let Some((bytes, saved)) = open_story(cx, name)? else {
        return Ok(None);
    };
    let mut x = Xml::new(&bytes, name, cx.limits.max_depth);
    let (value, err) = match f(&mut x, cx) {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e)),
    };
    let keep = close_story(cx, &mut x, saved, err)?;
    Ok(value.filter(|_| keep))
}

/// The part's bytes, and the relationships and part name it replaces in `cx`.
fn open_story(
    cx: &mut Ctx<'_, '_>,
    name: &str,
) -> Result<Option<(Vec<u8>, (Rels, String))>, ConvertError> {
    let bytes = match cx.pkg.read(name) {
        Ok(b) => xml::utf8_part(b),
        Err(PartError::Fatal(e)) => return Err(e),
        Err(PartError::Missing) => return Ok(None),
        Err(PartError::Corrupt(d)) => {
            cx.warn(
                "corrupt-part",
                format!("part {name} is damaged and was skipped: {d}"),
            );
            return Ok(None);
        }
    };
    let saved_rels = std::mem::replace(&mut cx.rels, Rels::read(cx.pkg, name)?);
    let saved_part = std::mem::replace(&mut cx.part, name.to_string());
    cx.fields.clear();
    Ok(Some((bytes, (saved_rels, saved_part))))
}

/// Ends reading a part: reports progress, passes on its warnings, restores `saved`.
/// `Ok(true)` keeps the value read; a malformed part gives a `corrupt-part` warning
/// and `Ok(false)`; other errors are returned.
fn close_story(
    cx: &mut Ctx<'_, '_>,
    x: &mut Xml<'_>,
    saved: (Rels, String),
    err: Option<ConvertError>,
) -> Result<bool, ConvertError> {
    let (_, len) = x.progress();
    let err = err.or_else(|| {
        crate::progress::report(crate::progress::Stage::Parse, &cx.part, len, len).err()
    });
    for w in std::mem::take(&mut x.warnings) {
        cx.warn(w.code, w.message);
    }
    cx.pending.clear();
    cx.fields.clear();
    (cx.rels, cx.part) = saved;
    match err {
        None => Ok(true),
        Some(ConvertError::MalformedXml {
            part,
            position,
            detail,
        }) => {
            cx.warn(
                "corrupt-part",
                format!("part {part} is not well-formed XML (at byte {position}: {detail}) and was skipped"),
            );
            Ok(false)
        }
        Some(e) => Err(e),
    }
}
