//! Conversion options: a builder validated as it is built.

use crate::error::ConvertError;
use crate::metadata::MetaValue;

/// Resource limits for untrusted input. Defaults are safe for a browser tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted input, in bytes. Default 256 MiB.
    pub max_input_bytes: u64,
    /// Largest total of inflated zip members read, in bytes. Default 128 MiB: ten times
    /// the largest real part seen (a 12.6 MB `document.xml`), and small enough that a
    /// browser tab survives the text it inflates to. In the CLI's PDF reader it bounds
    /// each decoded stream, and four times it all of a file's streams together.
    pub max_inflated_bytes: u64,
    /// Largest inflated/compressed ratio of one zip member, applied to members that
    /// inflate to more than 1 MiB. Default 300 (the most repetitive real part seen, 3,482
    /// numbered headings, compresses 94x).
    pub max_ratio: u64,
    /// Deepest element nesting accepted in any XML part or HTML tree. Default 256.
    pub max_depth: usize,
    /// Most elements (paragraphs, cells, runs, XML elements) one document may hold;
    /// the budget is also bounded by the input size (`read::budget`). Default
    /// 2,000,000 (about 600 MB of document model at worst). The CLI's PDF reader runs
    /// at most 8 times as many content-stream operators (each glyph shown counting one).
    pub max_elements: u64,
    /// Most pages one document may have. Default 100,000.
    pub max_pages: u64,
    /// Most chunks one document may produce. Default 200,000.
    pub max_chunks: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 << 20,
            max_inflated_bytes: 128 << 20,
            max_ratio: 300,
            max_depth: 256,
            max_elements: 2_000_000,
            max_pages: 100_000,
            max_chunks: 200_000,
        }
    }
}

/// Input formats docrag reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Office Open XML word-processing document (`.docx`, `.docm`, Strict or Transitional).
    Docx,
    /// HTML (parsed per the HTML5 spec).
    Html,
    /// Rich Text Format.
    Rtf,
    /// Markdown (CommonMark + GFM tables, task lists, strikethrough).
    Markdown,
    /// Plain text.
    Text,
    /// PDF (ISO 32000). Read by the CLI's content-stream interpreter
    /// (`read::pdf::source`); the wasm package reads PDFs through pdf.js.
    Pdf,
}

impl Format {
    /// The lower-case name (`docx`, `html`, `rtf`, `markdown`, `text`, `pdf`), as the JS
    /// `format` option and stored document records spell it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Docx => "docx",
            Format::Html => "html",
            Format::Rtf => "rtf",
            Format::Markdown => "markdown",
            Format::Text => "text",
            Format::Pdf => "pdf",
        }
    }
}

/// Where page numbers come from when a file saved no layout (see
/// [`crate::model::PageSource`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PageMode {
    /// Word's saved layout where the file has it, estimated pages where it has none
    /// (DOCX, RTF). The default: a citation's page is the page a person opens.
    #[default]
    Auto,
    /// Estimate every page, ignoring the saved layout (to compare the estimate with
    /// Word's pages; `make bench` does).
    Estimate,
    /// Saved layout and explicit breaks only; no estimate (the behaviour before
    /// estimation existed: page numbers in files without layout count explicit breaks).
    Saved,
}

impl PageMode {
    /// Parses `auto`, `estimate` or `saved`.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] naming the accepted values.
    pub fn parse(s: &str) -> Result<PageMode, ConvertError> {
        match s {
            "auto" => Ok(PageMode::Auto),
            "estimate" => Ok(PageMode::Estimate),
            "saved" => Ok(PageMode::Saved),
            _ => Err(ConvertError::InvalidOption {
                name: "pages".into(),
                detail: format!("{s:?}: expected auto, estimate or saved"),
            }),
        }
    }
}

/// Options for [`crate::convert`]. Build with [`ConvertOptions::new`] and the `with_*`
/// methods; each validates its argument.
#[derive(Debug, Clone)]
pub struct ConvertOptions {
    /// Maximum chunk size in o200k_base tokens. Default 1024; at least 64.
    pub max_tokens: usize,
    /// First page to convert, 1-based; `None` = from the start.
    pub first_page: Option<u32>,
    /// Last page to convert, 1-based inclusive; `None` = to the end.
    pub last_page: Option<u32>,
    /// Document id; `None` = derived from SHA-256 of the input bytes.
    pub doc_id: Option<String>,
    /// Document title; `None` = document properties, else first title/heading, else file name.
    pub title: Option<String>,
    /// The file name, used for format detection and as the title of last resort.
    pub file_name: Option<String>,
    /// A MIME type hint (never required). Decides the format unless the bytes are a
    /// container or binary format (see `read::sniff`); its `charset=` parameter is the
    /// encoding of last resort for text and Markdown.
    pub mime: Option<String>,
    /// The input format, when the caller knows it: skips detection entirely.
    /// `None` (the default) detects it from the bytes, the MIME type and the file name.
    pub format: Option<Format>,
    /// The caller's own fields, copied into every metadata record.
    pub user_fields: Vec<(String, MetaValue)>,
    /// Renamed labels: `(default label, new label)`; see `chunk::labels`.
    pub labels: Vec<(String, String)>,
    /// Place names for the built-in name finder.
    pub places: Vec<String>,
    /// Important terms for the built-in name finder.
    pub terms: Vec<String>,
    /// Where page numbers come from. Default [`PageMode::Auto`].
    pub pages: PageMode,
    /// Resource limits.
    pub limits: Limits,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            max_tokens: 1024,
            first_page: None,
            last_page: None,
            doc_id: None,
            title: None,
            file_name: None,
            mime: None,
            format: None,
            user_fields: Vec::new(),
            labels: Vec::new(),
            places: Vec::new(),
            terms: Vec::new(),
            pages: PageMode::Auto,
            limits: Limits::default(),
        }
    }
}

/// Smallest accepted `max_tokens`: below this the chunk-information line alone would
/// fill a chunk.
pub const MIN_MAX_TOKENS: usize = 64;

impl ConvertOptions {
    /// Default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the maximum chunk size in tokens.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] when `n` is below [`MIN_MAX_TOKENS`].
    pub fn with_max_tokens(mut self, n: usize) -> Result<Self, ConvertError> {
        if n < MIN_MAX_TOKENS {
            return Err(ConvertError::InvalidOption {
                name: "maxTokens".into(),
                detail: format!("{n} is below the minimum of {MIN_MAX_TOKENS} tokens"),
            });
        }
        self.max_tokens = n;
        Ok(self)
    }

    /// Restricts output to pages `first..=last` (1-based). A value of -1 means "open":
    /// `(-1, -1)` is the whole document, `(3, -1)` is page 3 to the end.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] for 0, values below -1, or `first > last`.
    pub fn with_page_range(mut self, first: i64, last: i64) -> Result<Self, ConvertError> {
        let check = |name: &str, v: i64| -> Result<Option<u32>, ConvertError> {
            match v {
                -1 => Ok(None),
                1..=1_000_000 => Ok(Some(v as u32)),
                _ => Err(ConvertError::InvalidOption {
                    name: name.into(),
                    detail: format!("{v} is not a page number (1-based) or -1 for open-ended"),
                }),
            }
        };
        let (f, l) = (check("firstPage", first)?, check("lastPage", last)?);
        if let (Some(f), Some(l)) = (f, l) {
            if f > l {
                return Err(ConvertError::InvalidOption {
                    name: "firstPage".into(),
                    detail: format!("first page {f} is after last page {l}"),
                });
            }
        }
        self.first_page = f;
        self.last_page = l;
        Ok(self)
    }

    /// Sets the document id.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] when `id` is empty.
    pub fn with_doc_id(mut self, id: impl Into<String>) -> Result<Self, ConvertError> {
        let id = id.into();
        if id.trim().is_empty() {
            return Err(ConvertError::InvalidOption {
                name: "docId".into(),
                detail: "the document id is empty".into(),
            });
        }
        self.doc_id = Some(id);
        Ok(self)
    }

    /// Sets the document title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the file name (format detection, title of last resort).
    pub fn with_file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Sets the input format, skipping detection (e.g. [`Format::Text`] to read a
    /// Markdown-looking `.txt` file as plain text).
    pub fn with_format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// Adds a caller field copied into every metadata record.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] when `name` is empty or is `ssDocId`/`ssSeq`.
    pub fn with_user_field(
        mut self,
        name: impl Into<String>,
        value: impl Into<MetaValue>,
    ) -> Result<Self, ConvertError> {
        let name = name.into();
        if name.is_empty() || name == "ssDocId" || name == "ssSeq" {
            return Err(ConvertError::InvalidOption {
                name: format!("userFields.{name}"),
                detail: "a caller field may not be empty or named ssDocId or ssSeq".into(),
            });
        }
        self.user_fields.push((name, value.into()));
        Ok(self)
    }

    /// Renames a label (metadata field name / chunk-information word), validated when
    /// the conversion starts against the list in `chunk::labels`.
    pub fn with_label(mut self, default: impl Into<String>, renamed: impl Into<String>) -> Self {
        self.labels.push((default.into(), renamed.into()));
        self
    }

    /// Sets where page numbers come from.
    pub fn with_pages(mut self, pages: PageMode) -> Self {
        self.pages = pages;
        self
    }

    /// Sets the resource limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}
