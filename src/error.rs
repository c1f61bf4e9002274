//! The one error type of conversion: "this is not a document we can read", or a
//! configuration mistake. Odd content inside a readable document is never an error;
//! it becomes a [`crate::model::Warning`].

/// Why a conversion failed. Each variant has a stable [`ConvertError::code`] that the
/// wasm layer puts on the JS `Error` as `code`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input has zero bytes.
    #[error("the input is empty (0 bytes)")]
    Empty,
    /// The input looks like a zip-based document but the archive cannot be read.
    #[error(
        "not a readable zip archive: {detail}; a .docx file is a zip archive, so this file is damaged or is not a .docx"
    )]
    NotZip {
        /// What the zip reader reported.
        detail: String,
    },
    /// An OLE2/CFB container holding an encrypted OOXML package.
    #[error(
        "the document is password-protected (an encrypted OOXML package); remove the password in Word and try again"
    )]
    Encrypted,
    /// A legacy binary Word 97-2003 `.doc` file (OLE2/CFB with a WordDocument stream).
    #[error(
        "this is a legacy Word 97-2003 .doc file, which is not supported; save it as .docx and try again"
    )]
    LegacyDoc,
    /// A format that is recognised but not supported (XLSX, PPTX, ODT, ...; PDF in a
    /// build without the native PDF reader).
    #[cfg_attr(
        not(target_arch = "wasm32"),
        error(
            "{format} files are not supported; supported formats are DOCX, HTML, RTF, Markdown, plain text and PDF"
        )
    )]
    #[cfg_attr(
        target_arch = "wasm32",
        error(
            "{format} files are not supported here; docrag reads DOCX, HTML, RTF, Markdown, plain text and PDF (PDF asynchronously: convertAsync() and Collection.addFile())"
        )
    )]
    UnsupportedFormat {
        /// The recognised format, e.g. "PPTX".
        format: String,
    },
    /// A zip archive with no main document part.
    #[error("no main document part: {detail}")]
    MissingMainPart {
        /// What was looked for.
        detail: String,
    },
    /// A required XML part is not well-formed.
    #[error("malformed XML in {part} at byte {position}: {detail}")]
    MalformedXml {
        /// The part name, e.g. `word/document.xml`.
        part: String,
        /// Byte offset in the inflated part where the reader stopped.
        position: u64,
        /// What the XML reader reported.
        detail: String,
    },
    /// A size limit from [`crate::Limits`] was exceeded.
    #[error(
        "{what} is {actual} bytes, over the limit of {limit} bytes (raise the limit in the options if the file is trusted)"
    )]
    TooLarge {
        /// What was measured, e.g. `the input` or `the inflated part word/document.xml`.
        what: String,
        /// The measured size in bytes (or at least this many).
        actual: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The document holds more elements (or pages, or chunks) than its budget
    /// ([`crate::Limits::max_elements`], [`crate::Limits::max_pages`],
    /// [`crate::Limits::max_chunks`]; see `read::budget`).
    #[error(
        "the document has more {what} than the limit of {limit} (raise the limit in the options if the file is trusted)"
    )]
    TooManyElements {
        /// What was counted, e.g. `pages`.
        what: String,
        /// The limit.
        limit: u64,
    },
    /// A zip member inflates far more than its compressed size: a likely zip bomb.
    #[error(
        "zip member {part} inflates {ratio}x its compressed size, over the limit of {limit}x (a likely zip bomb)"
    )]
    ZipBomb {
        /// The member name.
        part: String,
        /// Inflated / compressed size, rounded down.
        ratio: u64,
        /// The ratio limit.
        limit: u64,
    },
    /// Elements nest deeper than [`crate::Limits::max_depth`].
    #[error("{part} nests elements {depth} levels deep, over the limit of {limit}")]
    TooDeep {
        /// The part or input where it happened.
        part: String,
        /// The depth reached.
        depth: usize,
        /// The limit.
        limit: usize,
    },
    /// The document (or the pages selected) holds no text: 0 chunks. [`crate::convert`]
    /// returns an empty conversion (the CLI warns); the JS entry points (`convert`,
    /// `Collection.addFile`) refuse it alike with this error, since there is nothing
    /// to index or retrieve.
    #[error("{what} has no text to index (0 chunks)")]
    NoText {
        /// The document (its file name, or "the document"), or the pages selected of it.
        what: String,
    },
    /// A PDF encrypted with a user password (ISO 32000-2, 7.6): it opens only with the
    /// password. A PDF whose user password is empty opens without one, as viewers do.
    #[error(
        "the PDF is password-protected (it needs a password to open); remove the password and try again"
    )]
    PdfEncrypted,
    /// A PDF whose structure cannot be read: no cross-reference table or page tree
    /// could be recovered, or its interpreter failed on every page.
    #[error("not a readable PDF: {detail}")]
    MalformedPdf {
        /// What could not be read.
        detail: String,
    },
    /// The caller's progress hook asked to stop (`progress::observe`): an abort.
    #[error("the conversion was stopped during its {stage} stage")]
    Stopped {
        /// `parse` or `chunk`.
        stage: &'static str,
    },
    /// A configuration value is invalid.
    #[error("invalid option {name}: {detail}")]
    InvalidOption {
        /// The option's name as the caller spelled it (`maxTokens`, `labels.docTitle`, ...).
        name: String,
        /// What is wrong and what is allowed.
        detail: String,
    },
}

impl ConvertError {
    /// The [`ConvertError::NoText`] for a conversion under `options` that gave 0 chunks.
    pub fn no_text(options: &crate::ConvertOptions) -> Self {
        let name = options
            .file_name
            .as_deref()
            .map(|f| f.rsplit(['/', '\\']).next().unwrap_or(f))
            .filter(|f| !f.is_empty())
            .unwrap_or("the document");
        let what = match (options.first_page, options.last_page) {
            (None, None) => name.to_string(),
            (first, last) => format!(
                "pages {}-{} of {name}",
                first.unwrap_or(1),
                last.map_or_else(|| "end".to_string(), |l| l.to_string())
            ),
        };
        ConvertError::NoText { what }
    }

    /// A stable, machine-readable code (kebab-case) that never changes between versions.
    pub fn code(&self) -> &'static str {
        match self {
            ConvertError::Empty => "empty-input",
            ConvertError::NotZip { .. } => "not-zip",
            ConvertError::Encrypted => "encrypted",
            ConvertError::LegacyDoc => "legacy-doc",
            ConvertError::UnsupportedFormat { .. } => "unsupported-format",
            ConvertError::MissingMainPart { .. } => "missing-main-part",
            ConvertError::MalformedXml { .. } => "malformed-xml",
            ConvertError::TooLarge { .. } | ConvertError::TooManyElements { .. } => "too-large",
            ConvertError::ZipBomb { .. } => "zip-bomb",
            ConvertError::TooDeep { .. } => "too-deep",
            ConvertError::InvalidOption { .. } => "invalid-option",
            ConvertError::NoText { .. } => "empty-document",
            ConvertError::PdfEncrypted => "pdf-encrypted",
            ConvertError::MalformedPdf { .. } => "malformed-pdf",
            ConvertError::Stopped { .. } => "aborted",
        }
    }
}
