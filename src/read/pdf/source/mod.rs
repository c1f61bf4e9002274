//! The CLI's PDF glyph source: a content-stream interpreter (hayro) whose device
//! reports each page's positioned glyphs and ruling lines, fed to [`super::layout`].
//!
//! The wasm package has no such interpreter (its PDF path is pdf.js, loaded only for
//! PDFs, so the DOCX path keeps its size); this module is built for native targets
//! only.
//!
//! Third-party PDF code runs behind [`std::panic::catch_unwind`] (ISO 32000 files in
//! the wild break every rule, and a crate's panic must not end the CLI): a page whose
//! interpretation panics is skipped with a warning, and a file none of whose pages can
//! be read is a typed error.

mod device;
mod fonts;
mod outline;
mod structure;
mod work;

use std::panic::{AssertUnwindSafe, catch_unwind};

use hayro_interpret::font::FontData;
use hayro_interpret::kurbo::{Affine, Rect};
use hayro_interpret::{Context, InterpreterCache, InterpreterSettings, interpret_page};
use hayro_syntax::object::DateTime;
use hayro_syntax::{LoadPdfError, Pdf};

use crate::error::ConvertError;
use crate::model::{Document, Properties, Warning};
use crate::options::ConvertOptions;
use crate::progress::{self, Stage};

use super::{PageRuns, layout};
use device::Collector;

/// A TrueType font holding only `.notdef` (576 bytes; made with fontTools'
/// `FontBuilder`: one empty glyph, advance 500). hayro drops the text of a font it
/// has no program for, and the 14 standard fonts are rarely embedded; text needs
/// no outlines, only codes, widths (the PDF's `/Widths` or hayro's built-in AFM
/// metrics) and Unicode (the encoding's glyph names), so any program will do.
static NOTDEF_FONT: &[u8] = include_bytes!("notdef.ttf");

/// Interpreter settings: every unembedded font resolves to [`NOTDEF_FONT`].
fn settings() -> InterpreterSettings {
    InterpreterSettings {
        font_resolver: std::sync::Arc::new(|_| {
            Some((std::sync::Arc::new(NOTDEF_FONT) as FontData, 0))
        }),
        ..InterpreterSettings::default()
    }
}

/// Reads a PDF: every page's text runs and rules (pages outside `first_page ..=
/// last_page` are left empty, but still counted, so page numbers stay the PDF's),
/// the outline and the document information, then [`layout`].
///
/// # Errors
/// [`ConvertError::PdfEncrypted`] when the file needs a user password;
/// [`ConvertError::MalformedPdf`] when no cross-reference data or page tree can be
/// recovered, or no page can be interpreted; [`ConvertError::TooManyElements`] with
/// more pages than `limits.max_pages` or more runs and rules than
/// `limits.max_elements`; [`ConvertError::TooLarge`] and
/// [`ConvertError::TooManyElements`] when the file asks for more decoding or more
/// content-stream operators than the limits allow (`work`);
/// [`ConvertError::Stopped`] when the progress hook stops;
/// the errors of [`layout`].
pub fn read(bytes: &[u8], options: &ConvertOptions) -> Result<Document, ConvertError> {
    let work = work::Work::begin(&options.limits);
    let pdf = catch_unwind(|| Pdf::new(bytes.to_vec()))
        .map_err(|_| malformed("its cross-reference data could not be parsed"))?;
    work.check()?;
    let pdf = pdf.map_err(|e| match e {
        LoadPdfError::Decryption(hayro_syntax::DecryptionError::PasswordProtected) => {
            ConvertError::PdfEncrypted
        }
        LoadPdfError::Decryption(e) => malformed(&format!("its encryption is unusable ({e:?})")),
        LoadPdfError::Invalid => {
            malformed("no cross-reference table or page tree could be recovered")
        }
    })?;
    let limits = &options.limits;
    let count = catch_unwind(AssertUnwindSafe(|| pdf.pages().len()))
        .map_err(|_| malformed("its page tree could not be read"))?;
    if count == 0 {
        return Err(malformed("it has no pages"));
    }
    if count as u64 > limits.max_pages {
        return Err(ConvertError::TooManyElements {
            what: "pages".into(),
            limit: limits.max_pages,
        });
    }
    let first = options.first_page.unwrap_or(1);
    let last = options.last_page.unwrap_or(u32::MAX);
    let total = bytes.len() as u64;
    let cache = InterpreterCache::new();
    let mut tags = catch_unwind(AssertUnwindSafe(|| structure::read(&pdf))).unwrap_or_default();
    work.check()?;
    let mut pages = Vec::with_capacity(count);
    let mut failed = Vec::new();
    let mut textless = Vec::new();
    let mut unmapped = 0usize;
    let mut items = 0u64;
    for (i, page) in pdf.pages().iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        progress::report(Stage::Parse, "pdf", total * i as u64 / count as u64, total)?;
        let (width, height) = page.render_dimensions();
        let mut runs = PageRuns {
            number,
            width,
            height,
            ..PageRuns::default()
        };
        if (first..=last).contains(&number) {
            let cap = limits.max_elements.saturating_sub(items);
            let page_tags = tags.remove(&i).unwrap_or_default();
            let mcids = page_tags.mcids;
            runs.elements = page_tags.elements;
            let read = catch_unwind(AssertUnwindSafe(|| {
                let transform = Affine::new(page.initial_transform(true).as_coeffs());
                let bounds = Rect::new(0.0, 0.0, f64::from(width), f64::from(height));
                let mut ctx = Context::new(transform, bounds, &cache, pdf.xref(), settings());
                let mut device = Collector::new(cap, mcids);
                interpret_page(page, &mut ctx, &mut device);
                device.finish();
                device
            }));
            work.check()?;
            match read {
                Ok(device) if device.overflow => {
                    return Err(ConvertError::TooManyElements {
                        what: "text runs and ruling lines".into(),
                        limit: limits.max_elements,
                    });
                }
                Ok(device) => {
                    items += (device.runs.len() + device.rules.len()) as u64;
                    unmapped += device.unmapped;
                    if device.runs.is_empty() {
                        textless.push(number);
                    }
                    runs.runs = device.runs;
                    runs.rules = device.rules;
                }
                Err(_) => failed.push(number),
            }
        }
        pages.push(runs);
    }
    progress::report(Stage::Parse, "pdf", total, total)?;
    let tried = pages
        .iter()
        .filter(|p| (first..=last).contains(&p.number))
        .count();
    if tried > 0 && failed.len() == tried {
        return Err(malformed("none of its pages could be interpreted"));
    }
    let outline = catch_unwind(AssertUnwindSafe(|| outline::read(&pdf))).unwrap_or_default();
    work.check()?;
    let mut doc = layout(&pages, &outline, limits)?;
    doc.properties = catch_unwind(AssertUnwindSafe(|| info(&pdf))).unwrap_or_default();
    if !failed.is_empty() {
        doc.warnings.push(Warning::new(
            "pdf-page-failed",
            format!(
                "pages {} could not be interpreted and were skipped",
                super::page_list(&failed)
            ),
        ));
    }
    doc.warnings.extend(super::ocr_warning(&textless, tried));
    if unmapped > 0 {
        doc.warnings.push(Warning::new(
            "pdf-unmapped-glyphs",
            format!("{unmapped} glyph(s) have no Unicode mapping and are shown as U+FFFD"),
        ));
    }
    Ok(doc)
}

fn malformed(detail: &str) -> ConvertError {
    ConvertError::MalformedPdf {
        detail: detail.to_string(),
    }
}

/// The document information dictionary (ISO 32000-2, 14.3.3): title, subject,
/// author and keywords as written, dates in ISO 8601 (as DOCX's core properties give
/// them). Empty entries are absent.
fn info(pdf: &Pdf) -> Properties {
    let m = pdf.metadata();
    let text = |b: &Option<Box<[u8]>>| {
        b.as_deref()
            .map(|b| outline::text_string(b).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let date = |d: &Option<DateTime>| {
        d.as_ref().map(|d| {
            format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                d.year, d.month, d.day, d.hour, d.minute, d.second
            )
        })
    };
    Properties {
        title: text(&m.title),
        subject: text(&m.subject),
        author: text(&m.author),
        description: None,
        keywords: text(&m.keywords),
        created: date(&m.creation_date),
        modified: date(&m.modification_date),
    }
}
