//! The reading context shared by the element readers of all stories (body, headers,
//! footers, notes, comments): resolved definitions, the current story's
//! relationships, page-break state, open fields and warnings.

use std::collections::HashSet;

use crate::model::{Inline, NoteKind, Warning};
use crate::options::Limits;

use crate::read::pagefit::{Measure, TableMeasure};

use super::fields::FieldState;
use super::layout_props::LayoutProps;
use super::numbering::Numbering;
use super::package::Package;
use super::pages::Since;
use super::rels::Rels;
use super::sections::SectProps;
use super::styles::Styles;
use super::xml::Start;

/// Element names skipped without a warning: markup that carries no content for the
/// model (bookmarks, proofing and permission marks, revision-save ids, range marks
/// of moves and custom XML, property containers read elsewhere).
const IGNORED: &[&str] = &[
    "bookmarkStart",
    "bookmarkEnd",
    "proofErr",
    "permStart",
    "permEnd",
    "moveFromRangeStart",
    "moveFromRangeEnd",
    "moveToRangeStart",
    "moveToRangeEnd",
    "customXmlInsRangeStart",
    "customXmlInsRangeEnd",
    "customXmlDelRangeStart",
    "customXmlDelRangeEnd",
    "customXmlMoveFromRangeStart",
    "customXmlMoveFromRangeEnd",
    "customXmlMoveToRangeStart",
    "customXmlMoveToRangeEnd",
    "sdtPr",
    "sdtEndPr",
    "customXmlPr",
    "smartTagPr",
    "rPrChange",
    "pPrChange",
    "sectPrChange",
    "tblPrChange",
    "tblGridChange",
    "trPrChange",
    "tcPrChange",
    "tblPrEx",
    "footnoteRef",
    "endnoteRef",
    "annotationRef",
    "separator",
    "continuationSeparator",
    "continuationNotice",
    "pgNum",
    "dayShort",
    "dayLong",
    "monthShort",
    "monthLong",
    "yearShort",
    "yearLong",
    "contentPart",
    "background",
    "subDoc",
    "lastRenderedPageBreak",
    "noBreakHyphen",
    "softHyphen",
    "rPr",
    "pPr",
    "tblPr",
    "tblGrid",
    "trPr",
    "tcPr",
];

/// Shared state while reading one document.
pub(crate) struct Ctx<'p, 'a> {
    pub pkg: &'p mut Package<'a>,
    pub limits: Limits,
    pub styles: Styles,
    pub numbering: Numbering,
    /// Relationships of the part being read (hyperlink targets, altChunks).
    pub rels: Rels,
    /// Name of the part being read.
    pub part: String,
    /// Reading the main story (page breaks count only there, outside text boxes).
    pub main: bool,
    /// Depth of text boxes being read.
    pub textbox: usize,
    /// What came last in the main story (page-break merging, see `pages.rs`).
    pub since: Since,
    /// Sections of the main story, in order.
    pub sections: Vec<SectProps>,
    /// Open complex fields of the current story (17.16.18 `w:fldChar`).
    pub fields: Vec<FieldState>,
    /// Source of unique ids for inline frames.
    pub next_id: u64,
    /// Note references in order of appearance.
    pub note_refs: Vec<(NoteKind, String)>,
    /// `w14:paraId` of the last paragraph read (comment reply threading).
    pub last_para_id: Option<String>,
    /// Block-level comment anchors waiting for the next paragraph.
    pub pending: Vec<Inline>,
    /// The paragraph just read ended in a deleted paragraph mark: the next paragraph
    /// of the same container joins it.
    pub join_next: bool,
    /// Top-level paragraphs and tables of the main story, measured for the page
    /// estimate (`read::pagefit`).
    pub measures: Vec<Measure>,
    /// Index in the body of the first block of the vector being filled (block-level
    /// content controls are read into a vector of their own, then appended).
    pub block_base: usize,
    /// Depth of tables being read.
    pub tables: usize,
    /// The top-level table being read, measured for the page estimate.
    pub table: TableMeasure,
    /// The paragraph layout of that table's style (`w:tblStyle`).
    pub table_style: LayoutProps,
    /// `w:lastRenderedPageBreak` marks seen in the main story of the current section.
    pub rendered_marks: usize,
    /// Word's saved layout is ignored (`PageMode::Estimate`).
    pub ignore_rendered: bool,
    /// The main part carries Word's layout (and it is not ignored): tables are
    /// measured quickly (`TableMeasure::quick`).
    pub laid_out: bool,
    /// Rendered breaks in the top-level table row being read: the most any earlier
    /// cell of the row had, and the current cell's (see `pages.rs`).
    pub row_marks: (u32, u32),
    warnings: Vec<Warning>,
    seen: HashSet<String>,
}

impl<'p, 'a> Ctx<'p, 'a> {
    pub(crate) fn new(pkg: &'p mut Package<'a>, limits: &Limits) -> Self {
        Ctx {
            pkg,
            limits: limits.clone(),
            styles: Styles::default(),
            numbering: Numbering::default(),
            rels: Rels::default(),
            part: String::new(),
            main: false,
            join_next: false,
            measures: Vec::new(),
            block_base: 0,
            tables: 0,
            table: TableMeasure::default(),
            table_style: LayoutProps::default(),
            rendered_marks: 0,
            ignore_rendered: false,
            laid_out: false,
            row_marks: (0, 0),
            textbox: 0,
            since: Since::Page,
            sections: Vec::new(),
            fields: Vec::new(),
            next_id: 1,
            note_refs: Vec::new(),
            last_para_id: None,
            pending: Vec::new(),
            warnings: Vec::new(),
            seen: HashSet::new(),
        }
    }

    /// A fresh frame id.
    pub(crate) fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Adds a warning.
    pub(crate) fn warn(&mut self, code: &'static str, message: String) {
        self.warnings.push(Warning::new(code, message));
    }

    /// Adds a warning once per `key`.
    pub(crate) fn warn_once(&mut self, key: &str, code: &'static str, message: String) {
        if self.seen.insert(key.to_string()) {
            self.warn(code, message);
        }
    }

    /// Skips an element this reader does not handle at this place: silently for the
    /// allowlist and Office extension namespaces (`w14:` .. `w16*:`, which
    /// `mc:Ignorable` marks as safe to ignore), with one `unknown-element` warning per
    /// element name otherwise.
    pub(crate) fn unknown(&mut self, s: &Start<'_>) {
        use super::xml::Ns;
        let silent = match s.ns {
            Ns::W => IGNORED.contains(&s.local),
            Ns::MsWord => true,
            _ => false,
        };
        if silent {
            return;
        }
        let key = format!("{:?}:{}", s.ns, s.local);
        let name = if s.qname.is_empty() { s.local } else { s.qname };
        let msg = format!("unknown element {name} in {} was skipped", self.part);
        self.warn_once(&key, "unknown-element", msg);
    }

    /// Takes the warnings.
    pub(crate) fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// Whether a page break here counts (main story, outside text boxes).
    pub(crate) fn counts_pages(&self) -> bool {
        self.main && self.textbox == 0
    }

    /// Closes a section of the main story with its properties.
    pub(crate) fn end_section(&mut self, mut sect: SectProps) {
        sect.rendered_marks = std::mem::take(&mut self.rendered_marks);
        self.sections.push(sect);
    }

    /// Whether the paragraph or table being read is a top-level block of the main
    /// story (what the page estimate measures).
    pub(crate) fn top_level(&self) -> bool {
        self.counts_pages() && self.tables == 0
    }
}
