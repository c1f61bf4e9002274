//! One metadata record, parsed and validated into the compact form the engine keeps.
//!
//! Required fields (default names; renamed ones are looked up through the
//! [`Labels`] given to the engine): `ssDocId`, `ssSeq`, `firstPage`, `lastPage`,
//! `sectionIndex`, `chunkKind`, `tokenCount`, `tableIds`, `hasRevisions`,
//! `revisionAuthors`, `hasComments`, `commentAuthors`. The title, heading level and
//! key-phrase fields only feed the index document and read as empty when absent.
//! Numbers may be integers or strings holding one (flat stores often stringify).

use super::error::{EnrichError, RecordRef};
use crate::chunk::{Label, Labels};
use crate::metadata::{MetaValue, Metadata};

/// Where a chunk lives: the page body or one of the document's other parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChunkKind {
    /// The main text.
    Body,
    /// A page header.
    Header,
    /// A page footer.
    Footer,
    /// Footnotes.
    Footnote,
    /// Endnotes.
    Endnote,
}

impl ChunkKind {
    fn parse(s: &str) -> Option<Self> {
        Some(match s.trim() {
            "body" => ChunkKind::Body,
            "header" => ChunkKind::Header,
            "footer" => ChunkKind::Footer,
            "footnote" => ChunkKind::Footnote,
            "endnote" => ChunkKind::Endnote,
            _ => return None,
        })
    }
}

/// The structural facts of one chunk, as the engine keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChunkFacts {
    pub first_page: u32,
    pub last_page: u32,
    pub section: u32,
    pub kind: ChunkKind,
    pub tokens: u32,
    pub revisions: bool,
    pub comments: bool,
}

/// The index-document phrase fields of one chunk, in index order (see
/// [`PHRASE_LABELS`]); each is the raw `"; "`-joined list.
pub(crate) type Phrases = [String; PHRASE_LABELS.len()];

/// The key-phrase fields in the order the index document lists them: reviewers,
/// comment authors, field data, important terms, persons, organizations, places,
/// headings, bold, plain sample, italic, table column headings, list text.
pub(crate) const PHRASE_LABELS: [Label; 13] = [
    Label::RevisionAuthors,
    Label::CommentAuthors,
    Label::KeyFieldData,
    Label::Terms,
    Label::Persons,
    Label::Organizations,
    Label::Places,
    Label::KeyHeadings,
    Label::KeyBold,
    Label::KeyPlainSample,
    Label::KeyItalic,
    Label::KeyTableHeadings,
    Label::KeyListText,
];

/// Highest page number accepted (page indexes are sized by it).
pub(crate) const MAX_PAGE: u32 = 1_000_000;

/// One record, parsed.
#[derive(Debug, Clone)]
pub(crate) struct ParsedRecord {
    pub doc_id: String,
    /// As given; the engine checks the range against the record count.
    pub seq: i64,
    pub title: String,
    pub facts: ChunkFacts,
    pub table_ids: Vec<u32>,
    pub revision_authors: Vec<String>,
    pub comment_authors: Vec<String>,
    pub phrases: Phrases,
}

/// Reads fields of one record, turning every problem into an error naming it.
struct Reader<'a> {
    m: &'a Metadata,
    at: RecordRef,
}

impl Reader<'_> {
    fn raw(&self, field: &str) -> Result<&MetaValue, EnrichError> {
        self.m.get(field).ok_or_else(|| EnrichError::MissingField {
            record: self.at,
            field: field.to_string(),
        })
    }

    fn int(&self, field: &str) -> Result<i64, EnrichError> {
        match self.raw(field)? {
            MetaValue::Int(n) => Ok(*n),
            MetaValue::Str(s) => s.trim().parse().map_err(|_| EnrichError::NotANumber {
                record: self.at,
                field: field.to_string(),
                value: s.clone(),
            }),
        }
    }

    fn u32(&self, field: &str, min: i64) -> Result<u32, EnrichError> {
        let n = self.int(field)?;
        if n < min || n > i64::from(u32::MAX) {
            return Err(self.bad(field, &n.to_string(), "a whole number in range"));
        }
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn text(&self, field: &str) -> Result<String, EnrichError> {
        Ok(match self.raw(field)? {
            MetaValue::Str(s) => s.clone(),
            MetaValue::Int(n) => n.to_string(),
        })
    }

    fn optional(&self, field: &str) -> String {
        match self.m.get(field) {
            Some(MetaValue::Str(s)) => s.clone(),
            Some(MetaValue::Int(n)) => n.to_string(),
            None => String::new(),
        }
    }

    fn flag(&self, field: &str) -> Result<bool, EnrichError> {
        let v = self.text(field)?;
        match v.trim() {
            "yes" => Ok(true),
            "no" => Ok(false),
            _ => Err(self.bad(field, &v, "\"yes\" or \"no\"")),
        }
    }

    fn bad(&self, field: &str, value: &str, expected: &'static str) -> EnrichError {
        EnrichError::BadValue {
            record: self.at,
            field: field.to_string(),
            value: value.to_string(),
            expected,
        }
    }
}

/// Splits a `"; "`-joined list into trimmed, non-empty items.
pub(crate) fn split_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(';').map(str::trim).filter(|p| !p.is_empty())
}

/// Parses record `index` of the caller's array.
///
/// # Errors
/// [`EnrichError::MissingField`], [`EnrichError::NotANumber`] or
/// [`EnrichError::BadValue`] naming the record (by `ssSeq` when readable) and field.
pub(crate) fn parse(
    m: &Metadata,
    index: usize,
    labels: &Labels,
) -> Result<ParsedRecord, EnrichError> {
    let mut r = Reader {
        m,
        at: RecordRef::Index(index),
    };
    let seq = r.int("ssSeq")?;
    r.at = RecordRef::Seq(seq);
    let doc_id = r.text("ssDocId")?;
    let l = |label: Label| labels.get(label);
    let first_page = r.u32(l(Label::FirstPage), 0)?;
    let last_page = r.u32(l(Label::LastPage), 0)?;
    for (label, page) in [(Label::FirstPage, first_page), (Label::LastPage, last_page)] {
        if page > MAX_PAGE {
            return Err(r.bad(l(label), &page.to_string(), "a page number up to 1000000"));
        }
    }
    if last_page < first_page {
        return Err(r.bad(
            l(Label::LastPage),
            &last_page.to_string(),
            "a page at or after firstPage",
        ));
    }
    let kind_text = r.text(l(Label::ChunkKind))?;
    let kind = ChunkKind::parse(&kind_text).ok_or_else(|| {
        r.bad(
            l(Label::ChunkKind),
            &kind_text,
            "body, header, footer, footnote or endnote",
        )
    })?;
    let facts = ChunkFacts {
        first_page,
        last_page,
        section: r.u32(l(Label::SectionIndex), 0)?,
        kind,
        tokens: r.u32(l(Label::TokenCount), 0)?,
        revisions: r.flag(l(Label::HasRevisions))?,
        comments: r.flag(l(Label::HasComments))?,
    };
    let ids_field = l(Label::TableIds);
    let ids_text = r.text(ids_field)?;
    let mut table_ids = Vec::new();
    for item in split_list(&ids_text) {
        let id = item.parse::<u32>().map_err(|_| EnrichError::NotANumber {
            record: r.at,
            field: ids_field.to_string(),
            value: ids_text.clone(),
        })?;
        if !table_ids.contains(&id) {
            table_ids.push(id);
        }
    }
    let authors = |field: &str| -> Result<Vec<String>, EnrichError> {
        Ok(split_list(&r.text(field)?).map(str::to_string).collect())
    };
    let revision_authors = authors(l(Label::RevisionAuthors))?;
    let comment_authors = authors(l(Label::CommentAuthors))?;
    let phrases: Phrases = PHRASE_LABELS.map(|label| r.optional(l(label)));
    Ok(ParsedRecord {
        doc_id,
        seq,
        title: r.optional(l(Label::DocTitle)),
        facts,
        table_ids,
        revision_authors,
        comment_authors,
        phrases,
    })
}
