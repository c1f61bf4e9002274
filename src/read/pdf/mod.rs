//! PDF layout analysis, sans IO: positioned text runs in, the document model out.
//!
//! A PDF page is glyphs placed at coordinates; lines, paragraphs, columns, headings
//! and tables exist only in how they are placed. A glyph source (pdf.js in the JS
//! layer, a content-stream interpreter in the CLI; neither lives here) reports each
//! page's [`TextRun`]s and ruling [`Rule`]s, and [`layout`] reads the structure back
//! off the geometry, into the same [`Document`] the other readers build, so chunking
//! and retrieval work on PDFs unchanged:
//!
//! 1. runs are grouped by the direction of their baseline and turned to read along x
//!    (`turn`): the page's main direction is laid out as below, text in other
//!    directions (margin labels, watermarks) after it; runs are cleaned (non-finite,
//!    sizeless or off-page runs skipped, `runs`);
//! 2. ruling lines that meet in a grid make ruled tables; the runs inside a cell are
//!    the cell (`ruled`);
//! 3. runs sharing a baseline band make lines, fake-bold overprints are dropped, word
//!    spaces found from gaps, and lines split at wide gaps into fragments (`lines`);
//! 4. fragments repeated in the top or bottom margin of most pages are running
//!    headers and footers and go to the header/footer parts (`furniture`);
//! 5. the page is cut into columns at vertical gutters (XY-cut, `order`), each read
//!    top to bottom, left column first;
//! 6. lines whose fragments stay in the same columns make unruled tables (`aligned`);
//! 7. small lines at the foot of a column that open with a marker the body shows as a
//!    superscript are footnotes (`notes`);
//! 8. the remaining lines are joined into paragraphs (hyphenation undone), headings
//!    (by type size and bold, or by the outline) and list items (`paragraphs`,
//!    `headings`, `lists`); in a tagged PDF, lines of one structure element are one
//!    paragraph and a heading element gives its level (`tags`).
//!
//! Every page after the first starts with a [`Block::PageBreak`] (a gap in the page
//! numbers given adds one per missing page), so each chunk's page is the page its
//! text is printed on.

mod aligned;
mod bidi;
mod cells;
mod furniture;
mod headings;
mod inlines;
mod lines;
mod lists;
mod notes;
mod order;
mod paragraphs;
mod ruled;
mod runs;
#[cfg(not(target_arch = "wasm32"))]
mod source;
mod tags;
mod turn;

use std::collections::BTreeSet;

use crate::error::ConvertError;
use crate::model::{
    Block, Document, Inline, PageSource, Pagination, Paragraph, ParagraphKind, Part, PartKind,
    PartVariant, TextStyle, Warning,
};
use crate::options::Limits;
use crate::read::budget;

pub use runs::{OutlineEntry, PageRuns, Rule, TextRun};
#[cfg(not(target_arch = "wasm32"))]
pub use source::read;
pub use tags::Element;

/// The wasm core has no PDF interpreter: the package reads PDFs through pdf.js and
/// hands its text runs to [`layout`] (`convertAsync`, `Collection.addFile`); the
/// synchronous `convert` cannot wait for pdf.js.
///
/// # Errors
/// Always [`ConvertError::UnsupportedFormat`].
#[cfg(target_arch = "wasm32")]
pub fn read(
    _bytes: &[u8],
    _options: &crate::options::ConvertOptions,
) -> Result<Document, ConvertError> {
    Err(ConvertError::UnsupportedFormat {
        format: "PDF".into(),
    })
}

use cells::Seg1;
use headings::{Outline, Tally};
use lines::Frag;
use order::Bx;
use paragraphs::{Ctx, Seg};
use ruled::Ruled;

/// Bytes a run or rule counts as besides its text: its numbers and flags as the
/// JSON the JS layer passes spells them. The element budget and the input size limit
/// are measured on this estimate of the input.
const ITEM_BYTES: u64 = 64;

/// One page after cleaning, ruled-table extraction and fragmenting.
struct Prepared {
    number: u32,
    width: f32,
    height: f32,
    frags: Vec<Frag>,
    tables: Vec<Ruled>,
    hrules: Vec<Seg1>,
    /// Fragments of text set in other directions than the page's main text, one
    /// list per direction, each in its own frame (`turn`).
    turned: Vec<Vec<Frag>>,
}

/// Reads the layout of `pages` (in document order) into a [`Document`]. `outline` is
/// the document's bookmarks (may be empty); a bookmark whose title matches a line on
/// its page makes that line a heading at the bookmark's level.
///
/// The document's pagination is [`PageSource::Pdf`]: a PDF is the laid-out pages
/// themselves, so each page break is a page as printed (not an explicit break of a
/// flowing text, which is a lower bound, nor an estimate).
///
/// # Errors
/// [`ConvertError::TooManyElements`] with more pages than `limits.max_pages` (or a
/// page numbered beyond it), or more runs, paragraphs and cells than the element
/// budget (`crate::read::budget`, measured on the runs' size);
/// [`ConvertError::TooLarge`] when the runs' text and coordinates come to more than
/// `limits.max_input_bytes`. Bad runs (NaN or infinite coordinates, no size, no text)
/// are skipped with a warning, never an error.
pub fn layout(
    pages: &[PageRuns],
    outline: &[OutlineEntry],
    limits: &Limits,
) -> Result<Document, ConvertError> {
    let too_many_pages = ConvertError::TooManyElements {
        what: "pages".into(),
        limit: limits.max_pages,
    };
    if pages.len() as u64 > limits.max_pages {
        return Err(too_many_pages);
    }
    let bytes = pages.iter().fold(0u64, |acc, p| {
        let runs = p.runs.iter().fold(0u64, |a, r| {
            a.saturating_add(r.text.len() as u64)
                .saturating_add(ITEM_BYTES)
        });
        acc.saturating_add(runs)
            .saturating_add((p.rules.len() as u64).saturating_mul(ITEM_BYTES))
    });
    if bytes > limits.max_input_bytes {
        return Err(ConvertError::TooLarge {
            what: "the text runs of the PDF".into(),
            actual: bytes,
            limit: limits.max_input_bytes,
        });
    }
    let _budget = budget::begin(usize::try_from(bytes).unwrap_or(usize::MAX), limits);
    let mut doc = Document {
        pagination: Pagination {
            source: PageSource::Pdf,
            estimated_from: None,
        },
        ..Document::default()
    };

    let mut tally = Tally::default();
    // Whether the structure tree tags headings: then a tagged paragraph is not a
    // heading, however large its type.
    let mut tagged_headings = false;
    let mut skipped = 0usize;
    let mut prepared = Vec::with_capacity(pages.len());
    for page in pages {
        let (main, others, rules) = turn::split(page);
        let blocks = tags::blocks(&page.elements);
        tagged_headings |= blocks
            .iter()
            .any(|b| b.is_some_and(|b| matches!(b.role, tags::Role::Heading(_))));
        let (runs, bad, page_box) = runs::clean(&main, &blocks);
        skipped += bad;
        budget::take(runs.len() as u64)?;
        for r in &runs {
            tally.add(r);
        }
        let mut turned = Vec::with_capacity(others.len());
        for other in &others {
            let (runs, bad, _) = runs::clean(other, &blocks);
            skipped += bad;
            budget::take(runs.len() as u64)?;
            for r in &runs {
                tally.add(r);
            }
            turned.push(lines::fragments(runs, 0));
        }
        let (h, v) = cells::split_rules(&rules);
        let (tables, rest) = ruled::extract(&h, &v, runs, &mut doc.warnings, page.number)?;
        prepared.push(Prepared {
            number: page.number,
            width: page_box.width,
            height: page_box.height,
            frags: lines::fragments(rest, 0),
            tables,
            hrules: h,
            turned,
        });
    }
    if skipped > 0 {
        doc.warnings.push(Warning::new(
            "pdf-bad-runs",
            format!("{skipped} text run(s) with invalid coordinates or size were skipped"),
        ));
    }
    let sizes = tally.sizes();

    let views: Vec<furniture::PageFrags<'_>> = prepared
        .iter()
        .map(|p| furniture::PageFrags {
            frags: &p.frags,
            height: p.height,
        })
        .collect();
    let furn = furniture::find(&views);
    drop(views);

    let mut laid = Vec::with_capacity(prepared.len());
    for (pi, p) in prepared.into_iter().enumerate() {
        let drop_flags = furn.drop.get(pi);
        let frags: Vec<Frag> = p
            .frags
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !drop_flags.and_then(|d| d.get(*i)).copied().unwrap_or(false))
            .map(|(_, f)| f)
            .collect();
        let separator = notes::separator(&p.hrules, p.width, p.height);
        let mut segs = page_segs(frags, p.tables, &p.hrules)?;
        // Text in other directions is read after the page's main text: it is not on
        // the main text's lines, and where it sits in the reading order is not
        // written anywhere (a margin label, a turned caption).
        for other in p.turned {
            segs.extend(page_segs(other, Vec::new(), &[])?);
        }
        laid.push((p.number, p.height, separator, segs));
    }
    let spacing = paragraphs::spacing(laid.iter().flat_map(|p| &p.3));

    let mut outline = Outline::new(outline);
    let mut used = BTreeSet::new();
    let mut prev: Option<u32> = None;
    let mut misnumbered = false;
    for (number, height, separator, mut segs) in laid {
        // Page breaks: one per page, one more per page number skipped, so chunk pages
        // are the printed page numbers' positions.
        let (breaks, now) = match prev {
            None => (u64::from(number.saturating_sub(1)), number.max(1)),
            Some(p) if number > p => (u64::from(number - p), number),
            Some(p) => {
                misnumbered = true;
                (1, p.saturating_add(1))
            }
        };
        if u64::from(now) > limits.max_pages {
            return Err(too_many_pages);
        }
        prev = Some(now);
        budget::take(breaks)?;
        doc.body.extend(std::iter::repeat_n(
            Block::PageBreak,
            usize::try_from(breaks).unwrap_or(0),
        ));
        let (notes, mut markers) =
            notes::extract(&mut segs, sizes.body, height, separator, number, &mut used)?;
        let mut ctx = Ctx {
            sizes: &sizes,
            outline: &mut outline,
            page: number,
            spacing,
            markers: &mut markers,
            tagged_headings,
        };
        doc.body.extend(paragraphs::blocks(&segs, &mut ctx)?);
        doc.notes.extend(notes);
    }
    if misnumbered {
        doc.warnings.push(Warning::new(
            "pdf-page-numbers",
            "page numbers were not increasing; pages were counted in the order given",
        ));
    }
    for (kind, texts) in [
        (PartKind::Header, furn.header),
        (PartKind::Footer, furn.footer),
    ] {
        if texts.is_empty() {
            continue;
        }
        budget::take(texts.len() as u64)?;
        doc.parts.push(Part {
            kind,
            variant: PartVariant::Default,
            section: 0,
            blocks: texts.into_iter().map(text_paragraph).collect(),
        });
    }
    Ok(doc)
}

/// The warning for pages with no text (`textless`, of `tried` pages read): a page
/// with no text layer is an image of text (a scan) or a drawing, which needs optical
/// character recognition, which docrag does not do.
pub fn ocr_warning(textless: &[u32], tried: usize) -> Option<Warning> {
    if textless.is_empty() {
        None
    } else if textless.len() < tried {
        Some(Warning::new(
            "needs-ocr",
            format!(
                "pages {} have no text layer (scanned?); they need OCR",
                page_list(textless)
            ),
        ))
    } else {
        Some(Warning::new(
            "needs-ocr",
            "no page has a text layer (a scanned document?); it needs OCR",
        ))
    }
}

/// Page numbers as `1, 3, 7-9`.
pub(crate) fn page_list(pages: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let start = pages[i];
        let mut end = start;
        while i + 1 < pages.len() && pages[i + 1] == end + 1 {
            i += 1;
            end = pages[i];
        }
        out.push(if end > start {
            format!("{start}-{end}")
        } else {
            start.to_string()
        });
        i += 1;
    }
    out.join(", ")
}

/// A plain paragraph of `text`.
fn text_paragraph(text: String) -> Block {
    Block::Paragraph(Paragraph {
        kind: ParagraphKind::Normal,
        inlines: vec![Inline::Text {
            text,
            style: TextStyle::default(),
        }],
    })
}

/// A page's fragments and ruled tables in reading order, as column segments (with
/// the unruled tables among their lines found) and tables.
fn page_segs(
    frags: Vec<Frag>,
    tables: Vec<Ruled>,
    hrules: &[Seg1],
) -> Result<Vec<Seg>, ConvertError> {
    let mut boxes: Vec<Bx> = frags
        .iter()
        .map(|f| Bx {
            x0: f.x0,
            x1: f.x1,
            top: f.top,
            bottom: f.bottom,
            size: f.size,
            key: f.base,
        })
        .collect();
    boxes.extend(tables.iter().map(|t| t.bx));
    let leaves = order::leaves(&boxes);
    let nf = frags.len();
    let mut frags: Vec<Option<Frag>> = frags.into_iter().map(Some).collect();
    let mut tables: Vec<Option<Ruled>> = tables.into_iter().map(Some).collect();
    let mut segs = Vec::new();
    for leaf in leaves {
        let mut cur: Vec<Frag> = Vec::new();
        for i in leaf {
            if i < nf {
                cur.extend(frags.get_mut(i).and_then(Option::take));
            } else if let Some(t) = tables.get_mut(i - nf).and_then(Option::take) {
                if !cur.is_empty() {
                    segs.extend(aligned::split(
                        lines::lines(std::mem::take(&mut cur)),
                        hrules,
                    )?);
                }
                segs.push(Seg::Table(t.table));
            }
        }
        if !cur.is_empty() {
            segs.extend(aligned::split(lines::lines(cur), hrules)?);
        }
    }
    Ok(segs)
}
