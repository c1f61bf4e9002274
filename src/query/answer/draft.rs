//! What an answer kind proposes: cited statements, in the order they are written,
//! and how well they cover the question.

/// One statement of an answer with the source it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Plain text (no markup).
    pub plain: String,
    /// The same statement as balanced Markdown.
    pub markdown: String,
    /// The citation number (0: cite nothing).
    pub number: usize,
}

impl Line {
    /// A statement whose Markdown is its plain text escaped.
    pub fn new(plain: String, number: usize) -> Self {
        let markdown = super::markup::escape_md(&plain);
        Line {
            plain,
            markdown,
            number,
        }
    }
}

/// An answer kind's proposal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Draft {
    /// The kind (`table-cell`, `table`, `list`, `section`, `changes`, `comments`,
    /// `notes`, `header-footer`, `facts`, `documents`, `none`).
    pub kind: &'static str,
    /// Statements, the direct answer first.
    pub lines: Vec<Line>,
    /// How well the best statement covers the question, 0..=1.
    pub score: f64,
    /// Write the lines as a list (several items of one kind).
    pub list: bool,
    /// Where the best statement stands, as (source index, unit index), when it is
    /// one unit of a source (fact answers).
    pub at: Option<(usize, usize)>,
}
