//! Labels: the words of the chunk-information line and the metadata field names.
//!
//! Every label has a default (the table below) that the caller may rename through
//! [`crate::ConvertOptions::with_label`]. `ssDocId` and `ssSeq` are fixed and are not
//! labels. Renames are validated before any work starts.

use crate::error::ConvertError;
use crate::options::ConvertOptions;

/// Every label, in the order of [`DEFAULT_LABELS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Label {
    Document,
    Section,
    Page,
    Pages,
    Part,
    DocTitle,
    FirstPage,
    LastPage,
    PageSource,
    SectionIndex,
    HeadingPath,
    HeadingLevel,
    ChunkKind,
    TokenCount,
    TableIds,
    StartsInTable,
    EndsInTable,
    HasRevisions,
    RevisionAuthors,
    HasComments,
    CommentAuthors,
    Persons,
    Organizations,
    Places,
    Terms,
    KeyHeadings,
    KeyBold,
    KeyItalic,
    KeyTableHeadings,
    KeyListText,
    KeyFieldData,
    KeyPlainSample,
    Oversize,
}

/// Number of chunk-information-line words at the start of [`DEFAULT_LABELS`]; the rest
/// are metadata field names.
pub const INFO_WORDS: usize = 5;

/// `(default label, meaning)` for every label, in [`Label`] order.
pub const DEFAULT_LABELS: &[(&str, &str)] = &[
    ("Document", "info line: the document title follows"),
    ("Section", "info line: the heading path follows"),
    ("Page", "info line: a single page number follows"),
    ("Pages", "info line: a page range follows"),
    ("Part", "info line: names a header, footer or notes part"),
    ("docTitle", "field: document title"),
    ("firstPage", "field: first page of the chunk (1-based)"),
    ("lastPage", "field: last page of the chunk (1-based)"),
    (
        "pageSource",
        "field: source of the page numbers: rendered, explicit or estimated",
    ),
    (
        "sectionIndex",
        "field: heading section, 0 before the first heading, then 1, 2, ...",
    ),
    (
        "headingPath",
        "field: headings from the top level down, joined by \" > \"",
    ),
    (
        "headingLevel",
        "field: level of the innermost heading, 0 when none",
    ),
    (
        "chunkKind",
        "field: body, header, footer, footnote or endnote",
    ),
    ("tokenCount", "field: o200k_base tokens of the chunk text"),
    (
        "tableIds",
        "field: 1-based ids of the tables in the chunk, \"; \" joined",
    ),
    (
        "startsInTable",
        "field: yes when the chunk continues a table from the previous chunk",
    ),
    (
        "endsInTable",
        "field: yes when the table continues into the next chunk",
    ),
    (
        "hasRevisions",
        "field: yes when the chunk shows tracked changes",
    ),
    ("revisionAuthors", "field: authors of the tracked changes"),
    (
        "hasComments",
        "field: yes when the chunk shows comments or commented text",
    ),
    ("commentAuthors", "field: authors of those comments"),
    ("persons", "field: person names from the name finder"),
    (
        "organizations",
        "field: organization names from the name finder",
    ),
    ("places", "field: place names from the name finder"),
    ("terms", "field: important terms from the name finder"),
    ("keyHeadings", "field: title and level 1-3 heading text"),
    ("keyBold", "field: bold phrases"),
    ("keyItalic", "field: italic phrases"),
    ("keyTableHeadings", "field: table column headings"),
    ("keyListText", "field: list item text"),
    (
        "keyFieldData",
        "field: field results (merge fields, form fields, properties)",
    ),
    ("keyPlainSample", "field: a short sample of the plain text"),
    (
        "oversize",
        "field: yes when one indivisible unit exceeds the token budget",
    ),
];

/// A field name refused everywhere: in a JavaScript object literal or JSON.parse
/// result, `__proto__` sets the prototype instead of making a field.
const RESERVED_FIELD: &str = "__proto__";

/// The fixed field names no option renames.
pub const FIXED_FIELDS: [&str; 2] = ["ssDocId", "ssSeq"];

/// The labels in effect for one conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    names: Vec<String>,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            names: DEFAULT_LABELS.iter().map(|(d, _)| d.to_string()).collect(),
        }
    }
}

impl Labels {
    /// The label text for `label`.
    pub fn get(&self, label: Label) -> &str {
        self.names.get(label as usize).map_or("", |s| s.as_str())
    }

    /// Labels with the options' renames applied, validated: an unknown default name,
    /// an empty new name, a fixed name (`ssDocId`, `ssSeq`), a chunk-information word
    /// containing `|`, `[`, `]`, `:` or a line break, two fields (or two words) ending
    /// with the same name, a caller field colliding with a field name, or a field
    /// named `__proto__` is an error.
    ///
    /// # Errors
    /// [`ConvertError::InvalidOption`] naming the label (`labels.<default name>`).
    pub fn from_options(options: &ConvertOptions) -> Result<Labels, ConvertError> {
        let mut labels = Labels::default();
        for (default, renamed) in &options.labels {
            let err = |detail: String| ConvertError::InvalidOption {
                name: format!("labels.{default}"),
                detail,
            };
            let Some(pos) = DEFAULT_LABELS.iter().position(|(d, _)| d == default) else {
                return Err(err(format!(
                    "\"{default}\" is not a label; labels are: {}",
                    DEFAULT_LABELS
                        .iter()
                        .map(|(d, _)| *d)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            let new = renamed.trim();
            if new.is_empty() {
                return Err(err("the new label is empty".into()));
            }
            if FIXED_FIELDS.contains(&new) {
                return Err(err(format!("\"{new}\" is a fixed field name")));
            }
            if pos >= INFO_WORDS && new == RESERVED_FIELD {
                return Err(err(format!(
                    "\"{RESERVED_FIELD}\" cannot be a field name: JavaScript objects treat it as their prototype"
                )));
            }
            if pos < INFO_WORDS && new.contains(['|', '[', ']', ':', '\n', '\r']) {
                return Err(err(format!(
                    "\"{new}\" would break the chunk-information line (no | [ ] : or line breaks)"
                )));
            }
            if let Some(slot) = labels.names.get_mut(pos) {
                *slot = new.to_string();
            }
        }
        for (range_start, range_end) in [(0, INFO_WORDS), (INFO_WORDS, DEFAULT_LABELS.len())] {
            for i in range_start..range_end {
                for j in (i + 1)..range_end {
                    if labels.names.get(i) == labels.names.get(j) {
                        let (a, b) = (DEFAULT_LABELS[i].0, DEFAULT_LABELS[j].0);
                        return Err(ConvertError::InvalidOption {
                            name: format!("labels.{b}"),
                            detail: format!(
                                "\"{}\" is also the name of label {a}; each label must be unique",
                                labels.get_index(j)
                            ),
                        });
                    }
                }
            }
        }
        for (name, _) in &options.user_fields {
            if name == RESERVED_FIELD {
                return Err(ConvertError::InvalidOption {
                    name: format!("userFields.{name}"),
                    detail: format!(
                        "\"{RESERVED_FIELD}\" cannot be a field name: JavaScript objects treat it as their prototype"
                    ),
                });
            }
            if labels.names[INFO_WORDS..].iter().any(|n| n == name) {
                return Err(ConvertError::InvalidOption {
                    name: format!("userFields.{name}"),
                    detail: format!("\"{name}\" is already a metadata field name"),
                });
            }
        }
        Ok(labels)
    }

    fn get_index(&self, i: usize) -> &str {
        self.names.get(i).map_or("", |s| s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_enum() {
        assert_eq!(DEFAULT_LABELS.len(), Label::Oversize as usize + 1);
        let l = Labels::default();
        assert_eq!(l.get(Label::Document), "Document");
        assert_eq!(l.get(Label::KeyPlainSample), "keyPlainSample");
        assert_eq!(l.get(Label::Oversize), "oversize");
    }

    #[test]
    fn renames_are_validated() {
        let ok = ConvertOptions::new()
            .with_label("docTitle", "title")
            .with_label("Page", "Seite");
        let l = Labels::from_options(&ok).unwrap();
        assert_eq!(l.get(Label::DocTitle), "title");
        assert_eq!(l.get(Label::Page), "Seite");
        for (d, n) in [
            ("nope", "x"),
            ("docTitle", " "),
            ("docTitle", "ssSeq"),
            ("ssDocId", "id"),
            ("docTitle", "lastPage"),
            ("Section", "Se|ction"),
        ] {
            let bad = ConvertOptions::new().with_label(d, n);
            match Labels::from_options(&bad) {
                Err(ConvertError::InvalidOption { name, .. }) => {
                    assert!(name.starts_with("labels."))
                }
                other => panic!("{d}->{n}: {other:?}"),
            }
        }
    }

    #[test]
    fn proto_is_never_a_field_name() {
        let o = ConvertOptions::new().with_label("docTitle", "__proto__");
        let e = Labels::from_options(&o).unwrap_err();
        assert!(e.to_string().contains("prototype"), "{e}");
        let o = ConvertOptions::new()
            .with_user_field("__proto__", "x")
            .unwrap();
        let e = Labels::from_options(&o).unwrap_err();
        assert!(
            matches!(e, ConvertError::InvalidOption { ref name, .. } if name == "userFields.__proto__")
        );
    }
}
