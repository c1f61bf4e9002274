//! The document model every reader produces and the chunker consumes.
//!
//! One tree for all formats (DOCX now; HTML, RTF, Markdown and text share it), so the
//! chunker never knows which format a document came from. Readers resolve format
//! dialects before building it: styles are already resolved into heading levels and
//! list kinds, list numbers are already counted (restarts applied), vertical merges are
//! already turned into row spans, and the page-break rule of the format has already been
//! applied (the model holds only the breaks that start a new page).
//!
//! Text is UTF-8; every offset a consumer derives from it is in bytes.

use serde::Serialize;

/// A whole document as read from one file.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Document {
    /// Document properties (DOCX `docProps/core.xml`, HTML `<title>`/`<meta>`, RTF `\info`).
    pub properties: Properties,
    /// The main story in document order.
    pub body: Vec<Block>,
    /// Headers and footers of every section, in section order.
    pub parts: Vec<Part>,
    /// Footnotes and endnotes, in the order they are first referenced (then the rest).
    pub notes: Vec<Note>,
    /// Comments, in the order of their definition (replies after their parent).
    pub comments: Vec<Comment>,
    /// Content the reader saw but could not represent; conversion went on.
    pub warnings: Vec<Warning>,
    /// Where the page numbers of the body come from.
    pub pagination: Pagination,
}

/// Where a page number comes from; each chunk's metadata says it (`pageSource`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
pub enum PageSource {
    /// The word processor's saved layout (DOCX `w:lastRenderedPageBreak`, ECMA-376
    /// Part 1, 17.3.3.13): the page a person sees in Word.
    Rendered,
    /// Explicit page and section breaks only, with no layout in the file and none
    /// estimated: exact when the file has no page that overflows, a lower bound
    /// otherwise. HTML, Markdown and plain text have no pages: everything is page 1.
    #[default]
    Explicit,
    /// Estimated from page size, margins, fonts and spacing where the file saved no
    /// layout (see `read::pagefit`); usually within a page of the real one.
    Estimated,
    /// The pages of a PDF: the file is the laid-out pages themselves, so every page
    /// number is exact (ISO 32000-2, 7.7.3 page tree order).
    Pdf,
}

impl PageSource {
    /// The lower-case name chunk metadata uses: `rendered`, `explicit`, `estimated`,
    /// `pdf`.
    pub fn name(self) -> &'static str {
        match self {
            PageSource::Rendered => "rendered",
            PageSource::Explicit => "explicit",
            PageSource::Estimated => "estimated",
            PageSource::Pdf => "pdf",
        }
    }
}

/// How the body's page numbers were found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pagination {
    /// The source of the pages before `estimated_from`.
    pub source: PageSource,
    /// The first page (1-based) that begins at an estimated break. The numbers of it
    /// and of every later page are estimates (counted on from estimated pages);
    /// `None` when nothing was estimated.
    pub estimated_from: Option<u32>,
}

impl Pagination {
    /// The source of page `page`'s number (1-based). A chunk's source is its last
    /// page's (the weaker of its two ends).
    pub fn source_of(&self, page: u32) -> PageSource {
        match self.estimated_from {
            Some(first) if page >= first => PageSource::Estimated,
            _ => self.source,
        }
    }
}

/// Document properties; every field is optional because most files set few of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Properties {
    /// Title (`dc:title`).
    pub title: Option<String>,
    /// Subject (`dc:subject`).
    pub subject: Option<String>,
    /// Author (`dc:creator`).
    pub author: Option<String>,
    /// Description or abstract (`dc:description`).
    pub description: Option<String>,
    /// Keywords (`cp:keywords`), as written.
    pub keywords: Option<String>,
    /// Creation time as written in the file (`dcterms:created`, usually ISO 8601).
    pub created: Option<String>,
    /// Last modification time as written in the file (`dcterms:modified`).
    pub modified: Option<String>,
}

/// A block-level element.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Block {
    /// A paragraph (including headings and list items).
    Paragraph(Paragraph),
    /// A table; cells hold blocks, so tables nest.
    Table(Table),
    /// A page starts here (between blocks). Breaks inside a paragraph are [`Inline::PageBreak`].
    PageBreak,
    /// A document section ends here. `new_page` is true when the next section starts
    /// on a new page (DOCX `w:sectPr/w:type` other than `continuous`); the reader does
    /// NOT also emit a [`Block::PageBreak`] for it.
    SectionBreak {
        /// Whether the following section begins on a new page.
        new_page: bool,
    },
    /// Preformatted text (a code block), kept verbatim.
    Code {
        /// Info string / language, when the source names one.
        language: Option<String>,
        /// The text, lines separated by `\n`.
        text: String,
    },
    /// A block quotation.
    Quote(Vec<Block>),
    /// A thematic break (horizontal rule).
    Rule,
}

/// A paragraph: its role and its inline content.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Paragraph {
    /// What the paragraph is (body text, heading, list item, ...).
    pub kind: ParagraphKind,
    /// Inline content in reading order.
    pub inlines: Vec<Inline>,
}

/// The role of a paragraph.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub enum ParagraphKind {
    /// Ordinary body text.
    #[default]
    Normal,
    /// The document title style (DOCX `Title`); rendered like a level-1 heading but does
    /// not open a section.
    Title,
    /// A heading, level 1 (top) to 9. DOCX: `w:outlineLvl` 0..8 plus 1, resolved
    /// through the style chain.
    Heading(u8),
    /// A list item.
    ListItem {
        /// Numbered (true) or bulleted (false).
        ordered: bool,
        /// Nesting level, 0 = outermost.
        level: u8,
        /// The item's number within its list at this level, counted by the reader with
        /// restarts applied (1-based); meaningless for bullets.
        number: u32,
    },
}

/// Character formatting that the Markdown output can express.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
pub struct TextStyle {
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underline (any underline style except `none`).
    pub underline: bool,
    /// Strikethrough (single or double), as formatting, not as a tracked deletion.
    pub strike: bool,
    /// Superscript.
    pub superscript: bool,
    /// Subscript.
    pub subscript: bool,
    /// Inline code / monospace.
    pub code: bool,
}

/// Inline content of a paragraph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Inline {
    /// A run of text with one formatting.
    Text {
        /// The characters (symbols, `w:sym`, already mapped to Unicode where possible).
        text: String,
        /// Formatting.
        style: TextStyle,
    },
    /// A tab character.
    Tab,
    /// A line break inside the paragraph (DOCX `w:br` without a page type, `w:cr`).
    LineBreak,
    /// A page starts here, inside the paragraph.
    PageBreak,
    /// A hyperlink around inline content.
    Link {
        /// External URL, or `#bookmark` for an internal anchor; empty when unknown.
        target: String,
        /// The link text.
        children: Vec<Inline>,
    },
    /// A tracked change around inline content (ECMA-376 Part 1, 17.13.5: `w:ins`,
    /// `w:del`, `w:moveFrom`, `w:moveTo`).
    Revision {
        /// Insertion, deletion, or one side of a move.
        kind: RevisionKind,
        /// `w:author`, when the file gives one.
        author: Option<String>,
        /// `w:date` as written (ISO 8601), when the file gives one.
        date: Option<String>,
        /// The inserted / deleted / moved content (deleted text is kept).
        children: Vec<Inline>,
    },
    /// One end of a comment's anchored range, or a bare reference mark.
    CommentAnchor {
        /// The comment's id; matches [`Comment::id`].
        id: String,
        /// Which mark this is.
        mark: AnchorMark,
    },
    /// A reference to a footnote or endnote; the note text is in [`Document::notes`].
    NoteRef {
        /// Footnote or endnote.
        kind: NoteKind,
        /// The note's id; matches [`Note::id`].
        id: String,
    },
    /// A field (ECMA-376 Part 1, 17.16), shown by its result text.
    Field {
        /// The field type, upper-cased first word of the instruction (`HYPERLINK`,
        /// `MERGEFIELD`, `FORMTEXT`, `DATE`, ...).
        code: String,
        /// The displayed result.
        children: Vec<Inline>,
    },
    /// An image or other drawing, represented by its description.
    Image {
        /// Alternative text (`wp:docPr/@descr`, else `@title`, else `@name`); may be empty.
        alt: String,
    },
    /// A formula (DOCX Office Math, ECMA-376 Part 1, 22.1), as LaTeX.
    Math {
        /// LaTeX source without delimiters (no `$`), for example `\frac{a}{b}`.
        tex: String,
        /// A display formula set on its own line (DOCX `m:oMathPara`); false for a
        /// formula inside running text (`m:oMath`).
        display: bool,
    },
}

/// Kinds of tracked change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum RevisionKind {
    /// Inserted content (`w:ins`).
    Insertion,
    /// Deleted content (`w:del`); the text is kept and marked.
    Deletion,
    /// The original place of moved content (`w:moveFrom`).
    MoveFrom,
    /// The new place of moved content (`w:moveTo`).
    MoveTo,
}

/// Which mark of a comment an [`Inline::CommentAnchor`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum AnchorMark {
    /// Start of the commented range (`w:commentRangeStart`).
    Start,
    /// End of the commented range (`w:commentRangeEnd`).
    End,
    /// The reference mark (`w:commentReference`); for a comment without a range this is
    /// the only trace, and the comment must be shown here.
    Reference,
}

/// A table. Merged cells are resolved: a cell spanning rows carries `row_span > 1` and
/// the cells it covers in later rows are omitted (as in HTML).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Table {
    /// Rows in order.
    pub rows: Vec<Row>,
}

/// A table row.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Row {
    /// Cells in order, covered cells omitted.
    pub cells: Vec<Cell>,
    /// A header row (DOCX `w:tblHeader`, HTML `thead`/all-`th`); header rows are first.
    pub header: bool,
    /// A tracked insertion or deletion of the whole row (`w:trPr/w:ins|w:del`).
    pub revision: Option<RowRevision>,
}

/// A tracked change of a whole table row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowRevision {
    /// Insertion or deletion.
    pub kind: RevisionKind,
    /// `w:author`, when given.
    pub author: Option<String>,
    /// `w:date`, when given.
    pub date: Option<String>,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The cell's content.
    pub blocks: Vec<Block>,
    /// Columns spanned (DOCX `w:gridSpan`, HTML `colspan`), at least 1.
    pub col_span: u32,
    /// Rows spanned (DOCX `w:vMerge` restart + continues, HTML `rowspan`), at least 1.
    pub row_span: u32,
}

impl Default for Cell {
    fn default() -> Self {
        Cell {
            blocks: Vec::new(),
            col_span: 1,
            row_span: 1,
        }
    }
}

/// Which header/footer slot of a section a part fills (ECMA-376 Part 1, 17.10.5 `w:type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum PartVariant {
    /// Every page not covered by the other two.
    Default,
    /// The first page of the section (when the section has a title page).
    First,
    /// Even pages (when the document uses different odd and even headers).
    Even,
}

/// Header or footer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum PartKind {
    /// A page header.
    Header,
    /// A page footer.
    Footer,
}

/// A header or footer of one section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Part {
    /// Header or footer.
    pub kind: PartKind,
    /// Default, first-page or even-page slot.
    pub variant: PartVariant,
    /// 0-based index of the section that references it.
    pub section: usize,
    /// Content.
    pub blocks: Vec<Block>,
}

/// Footnote or endnote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum NoteKind {
    /// A footnote (`w:footnote`).
    Footnote,
    /// An endnote (`w:endnote`).
    Endnote,
}

/// A footnote or endnote (separator notes are not included).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Note {
    /// Footnote or endnote.
    pub kind: NoteKind,
    /// Id as in the file; unique per kind.
    pub id: String,
    /// Content.
    pub blocks: Vec<Block>,
}

/// A comment (ECMA-376 Part 1, 17.13.4.2 `w:comment`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Comment {
    /// Id as in the file.
    pub id: String,
    /// `w:author`, when given.
    pub author: Option<String>,
    /// `w:initials`, when given.
    pub initials: Option<String>,
    /// `w:date` as written, when given.
    pub date: Option<String>,
    /// The id of the comment this one replies to (from `commentsExtended.xml`
    /// `w15:paraIdParent`), when it is a reply.
    pub parent: Option<String>,
    /// The comment text, its paragraphs joined by `\n`.
    pub text: String,
}

/// Something in the input the reader skipped or simplified; conversion went on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// Stable machine-readable code, e.g. `unknown-element`, `corrupt-part`.
    pub code: &'static str,
    /// One sentence naming the element or part and what happened to it.
    pub message: String,
}

impl Warning {
    /// A warning with a code and message.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Warning {
            code,
            message: message.into(),
        }
    }
}

impl Inline {
    /// Plain text of this inline and its children (tabs and line breaks as whitespace,
    /// anchors, note references and page breaks as nothing). Deleted text is included.
    pub fn plain_text(&self, out: &mut String) {
        match self {
            Inline::Text { text, .. } => out.push_str(text),
            Inline::Tab => out.push('\t'),
            Inline::LineBreak => out.push('\n'),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => {
                for c in children {
                    c.plain_text(out);
                }
            }
            Inline::Image { alt } => out.push_str(alt),
            Inline::Math { tex, .. } => out.push_str(tex),
            Inline::PageBreak | Inline::CommentAnchor { .. } | Inline::NoteRef { .. } => {}
        }
    }

    /// Whether [`Inline::plain_text`] would hold anything but whitespace (without
    /// building it).
    pub fn has_text(&self) -> bool {
        match self {
            Inline::Text { text, .. } => !text.trim().is_empty(),
            Inline::Link { children, .. }
            | Inline::Revision { children, .. }
            | Inline::Field { children, .. } => children.iter().any(Inline::has_text),
            Inline::Image { alt } => !alt.trim().is_empty(),
            Inline::Math { tex, .. } => !tex.trim().is_empty(),
            Inline::Tab
            | Inline::LineBreak
            | Inline::PageBreak
            | Inline::CommentAnchor { .. }
            | Inline::NoteRef { .. } => false,
        }
    }
}

impl Block {
    /// Whether [`Block::plain_text`] would hold anything but whitespace (without
    /// building it).
    pub fn has_text(&self) -> bool {
        match self {
            Block::Paragraph(p) => p.inlines.iter().any(Inline::has_text),
            Block::Table(t) => t
                .rows
                .iter()
                .any(|r| r.cells.iter().any(|c| c.blocks.iter().any(Block::has_text))),
            Block::Code { text, .. } => !text.trim().is_empty(),
            Block::Quote(blocks) => blocks.iter().any(Block::has_text),
            Block::PageBreak | Block::SectionBreak { .. } | Block::Rule => false,
        }
    }

    /// Plain text of this block, paragraphs separated by `\n`, table cells by `\t`.
    pub fn plain_text(&self, out: &mut String) {
        match self {
            Block::Paragraph(p) => {
                for i in &p.inlines {
                    i.plain_text(out);
                }
                out.push('\n');
            }
            Block::Table(t) => {
                for row in &t.rows {
                    for (n, cell) in row.cells.iter().enumerate() {
                        if n > 0 {
                            out.push('\t');
                        }
                        let mut s = String::new();
                        for b in &cell.blocks {
                            b.plain_text(&mut s);
                        }
                        out.push_str(s.trim_end());
                    }
                    out.push('\n');
                }
            }
            Block::Code { text, .. } => {
                out.push_str(text);
                out.push('\n');
            }
            Block::Quote(blocks) => {
                for b in blocks {
                    b.plain_text(out);
                }
            }
            Block::PageBreak | Block::SectionBreak { .. } | Block::Rule => {}
        }
    }
}

impl Document {
    /// The body as plain text (a second, tiny consumer of the model: it proves the
    /// model stands without the chunker, and tests use it for content assertions).
    pub fn body_text(&self) -> String {
        let mut out = String::new();
        for b in &self.body {
            b.plain_text(&mut out);
        }
        out
    }
}
