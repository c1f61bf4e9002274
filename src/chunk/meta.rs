//! The flat metadata record of one chunk.
//!
//! Field order (default names): ssDocId, ssSeq, docTitle, firstPage, lastPage,
//! sectionIndex, headingPath, headingLevel, chunkKind, tokenCount, tableIds,
//! startsInTable, endsInTable, hasRevisions, revisionAuthors, hasComments,
//! commentAuthors, persons, organizations, places, terms, keyHeadings, keyBold,
//! keyItalic, keyTableHeadings, keyListText, keyFieldData, keyPlainSample, oversize,
//! then the caller's fields in order. Values are strings or integers only.

use super::builder::Draft;
use super::keyphrases::{PhraseList, SAMPLE_CHARS, sample};
use super::labels::{Label, Labels};
use super::units::{Ctx, Kind, TableInfo};
use crate::metadata::{MetaValue, Metadata};
use crate::model::Pagination;
use crate::names::NameFinder;

/// What every record of one document shares.
pub(crate) struct RecordCtx<'a> {
    pub labels: &'a Labels,
    pub doc_id: &'a str,
    pub title: &'a str,
    pub ctxs: &'a [Ctx],
    pub tables: &'a [TableInfo],
    pub finder: &'a dyn NameFinder,
    pub user_fields: &'a [(String, MetaValue)],
    pub pagination: Pagination,
}

fn list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut l = PhraseList::default();
    for i in items {
        l.add(i.as_ref());
    }
    l.joined()
}

/// The record of `draft`, a chunk of kind `kind` at output position `seq`.
pub(crate) fn record(rc: &RecordCtx, draft: &Draft, kind: &str, seq: usize) -> Metadata {
    let l = rc.labels;
    let ctx = rc.ctxs.get(draft.ctx).cloned().unwrap_or_default();
    let mut table_ids: Vec<usize> = Vec::new();
    let mut headings = PhraseList::default();
    let mut plain = String::new();
    let mut sample_src = String::new();
    let mut comment_plain = String::new();
    for u in &draft.units {
        if let Kind::TableHead(t) | Kind::TableRow(t) = u.kind {
            if let Some(info) = rc.tables.get(t) {
                if !table_ids.contains(&info.id) {
                    table_ids.push(info.id);
                }
            }
        }
        if let Some(h) = &u.facts.heading {
            headings.add(h);
        }
        if !plain.is_empty() {
            plain.push('\n');
        }
        plain.push_str(&u.facts.plain);
        if !matches!(u.kind, Kind::Heading | Kind::Title) && sample_src.len() < SAMPLE_CHARS * 4 {
            sample_src.push_str(&u.facts.plain);
            sample_src.push(' ');
        }
        if !u.facts.comment_plain.is_empty() {
            comment_plain.push('\n');
            comment_plain.push_str(&u.facts.comment_plain);
        }
    }
    plain.push_str(&comment_plain);
    let names = rc.finder.find(&plain);
    let facts = draft.units.iter().map(|u| &u.facts);
    let has_revisions = facts.clone().any(|f| f.revisions);
    let has_comments = facts.clone().any(|f| f.comments);

    let mut m = Metadata::new();
    m.set("ssDocId", rc.doc_id);
    m.set("ssSeq", seq as i64);
    m.set(l.get(Label::DocTitle), rc.title);
    m.set(l.get(Label::FirstPage), i64::from(draft.pages.0));
    m.set(l.get(Label::LastPage), i64::from(draft.pages.1));
    m.set(
        l.get(Label::PageSource),
        rc.pagination
            .source_of(draft.pages.0.max(draft.pages.1))
            .name(),
    );
    m.set(l.get(Label::SectionIndex), i64::from(ctx.section_index));
    m.set(l.get(Label::HeadingPath), ctx.path.join(" > "));
    m.set(l.get(Label::HeadingLevel), i64::from(ctx.level));
    m.set(l.get(Label::ChunkKind), kind);
    m.set(l.get(Label::TokenCount), draft.tokens as i64);
    m.set(
        l.get(Label::TableIds),
        table_ids
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("; "),
    );
    m.set(
        l.get(Label::StartsInTable),
        MetaValue::flag(draft.starts_in.is_some()),
    );
    m.set(
        l.get(Label::EndsInTable),
        MetaValue::flag(draft.ends_in.is_some()),
    );
    m.set(l.get(Label::HasRevisions), MetaValue::flag(has_revisions));
    m.set(
        l.get(Label::RevisionAuthors),
        list(facts.clone().flat_map(|f| f.rev_authors.iter())),
    );
    m.set(l.get(Label::HasComments), MetaValue::flag(has_comments));
    m.set(
        l.get(Label::CommentAuthors),
        list(facts.clone().flat_map(|f| f.comment_authors.iter())),
    );
    m.set(l.get(Label::Persons), list(&names.persons));
    m.set(l.get(Label::Organizations), list(&names.organizations));
    m.set(l.get(Label::Places), list(&names.places));
    m.set(l.get(Label::Terms), list(&names.terms));
    m.set(l.get(Label::KeyHeadings), headings.joined());
    m.set(
        l.get(Label::KeyBold),
        list(facts.clone().flat_map(|f| f.bold.iter())),
    );
    m.set(
        l.get(Label::KeyItalic),
        list(facts.clone().flat_map(|f| f.italic.iter())),
    );
    m.set(
        l.get(Label::KeyTableHeadings),
        list(
            table_ids
                .iter()
                .filter_map(|id| rc.tables.get(id - 1))
                .flat_map(|t| t.headings.iter()),
        ),
    );
    m.set(
        l.get(Label::KeyListText),
        list(facts.clone().flat_map(|f| f.list.iter())),
    );
    m.set(
        l.get(Label::KeyFieldData),
        list(facts.clone().flat_map(|f| f.fields.iter())),
    );
    m.set(l.get(Label::KeyPlainSample), sample(&sample_src));
    m.set(l.get(Label::Oversize), MetaValue::flag(draft.oversize));
    for (name, value) in rc.user_fields {
        m.set(name, value.clone());
    }
    m
}
