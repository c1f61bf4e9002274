//! [`Enricher`]: one document's metadata records, validated and indexed once, then
//! shared by every query on that document.

use std::collections::HashMap;

use super::csr::Csr;
use super::error::{EnrichError, RecordRef};
use super::record::{self, ChunkFacts, ChunkKind, ParsedRecord, Phrases};
use crate::chunk::Labels;
use crate::metadata::Metadata;

/// One heading section of the page body, as [`Enricher::sections`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionInfo {
    /// The section's `sectionIndex` (0 before the first heading).
    pub index: u32,
    /// Distinct pages its body chunks cover.
    pub pages: u32,
    /// Body chunks that start in it.
    pub chunks: u32,
}

/// A person's name and the chunks that carry their revisions or comments.
#[derive(Debug, Clone)]
pub(crate) struct Authors {
    /// Names, each once, in order of first appearance.
    pub names: Vec<String>,
    /// Author -> chunks (ascending).
    pub chunks: Csr,
}

/// The enrichment engine for one document: built from that document's complete set
/// of metadata records, in any order, and never changed afterwards, so one instance
/// can serve any number of queries at once (it is `Send + Sync`).
///
/// Construction validates every record and precomputes compact indexes (table ->
/// chunks, page -> chunks, section -> chunks, runs of consecutive revision and
/// comment chunks, author -> chunks), so queries do no parsing and no tokenizing:
/// token counts come from each record's `tokenCount`.
///
/// ```
/// use docrag::{convert, ConvertOptions, enrich::Enricher};
/// let text = "# Intro\n\nSome text.\n\n# Details\n\nMore text.";
/// let out = convert(text.as_bytes(), &ConvertOptions::new())?;
/// let records: Vec<_> = out.chunks.iter().map(|c| c.metadata.clone()).collect();
/// let enricher = Enricher::new(&records)?;
/// assert_eq!(enricher.chunk_count(), records.len());
/// assert!(!enricher.has_tables());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Enricher {
    pub(crate) doc_id: String,
    pub(crate) title: String,
    pub(crate) chunks: Vec<ChunkFacts>,
    pub(crate) total_tokens: u64,
    /// Chunk -> table slots (a slot is one table id within one chunk kind).
    pub(crate) chunk_tables: Csr,
    /// Table slot -> its chunks, ascending; slots in order of first chunk.
    pub(crate) table_chunks: Csr,
    /// Per chunk: first and last chunk of its run of consecutive same-kind chunks
    /// with revisions (itself when it has none).
    pub(crate) revision_run: Vec<(u32, u32)>,
    /// As `revision_run`, for comments.
    pub(crate) comment_run: Vec<(u32, u32)>,
    /// Page intervals: interval `i` is pages `page_bounds[i]..page_bounds[i + 1]`, cut
    /// wherever a body chunk starts or ends, so every page of an interval is covered
    /// by the same chunks. Memory follows the chunks, not the pages they span (a
    /// record may claim pages 1 to 1,000,000).
    pub(crate) page_bounds: Vec<u32>,
    /// Interval -> body chunks covering it, ascending.
    pub(crate) page_chunks: Csr,
    /// Body sections in document order.
    pub(crate) sections: Vec<SectionInfo>,
    /// Per section (as in `sections`): its lowest and highest body page.
    pub(crate) section_span: Vec<(u32, u32)>,
    /// Per chunk: its position in `sections` (`u32::MAX` for non-body chunks).
    pub(crate) section_of: Vec<u32>,
    /// Chunks with revisions / comments, ascending.
    pub(crate) revision_chunks: Vec<u32>,
    pub(crate) comment_chunks: Vec<u32>,
    pub(crate) revision_authors: Authors,
    pub(crate) comment_authors: Authors,
    pub(crate) phrases: Vec<Phrases>,
}

impl Enricher {
    /// Builds the engine from one document's records, with the default labels.
    ///
    /// # Errors
    /// [`EnrichError`] naming the record (its `ssSeq`, else its array position) and
    /// the field: no records, a missing field, a non-numeric number, an unexpected
    /// value, a sequence number out of range, a duplicate sequence number, or records
    /// of two documents.
    pub fn new(records: &[Metadata]) -> Result<Self, EnrichError> {
        Self::with_labels(records, &Labels::default())
    }

    /// As [`Enricher::new`], reading the fields under the caller's label renames
    /// (the same [`Labels`] the conversion used, e.g. from
    /// [`Labels::from_options`]).
    ///
    /// # Errors
    /// As [`Enricher::new`].
    pub fn with_labels(records: &[Metadata], labels: &Labels) -> Result<Self, EnrichError> {
        if records.is_empty() {
            return Err(EnrichError::EmptySet);
        }
        let n = records.len();
        let mut slots: Vec<Option<ParsedRecord>> = vec![None; n];
        let mut doc_id: Option<String> = None;
        for (i, m) in records.iter().enumerate() {
            let r = record::parse(m, i, labels)?;
            let at = RecordRef::Seq(r.seq);
            match &doc_id {
                None => doc_id = Some(r.doc_id.clone()),
                Some(d) if *d != r.doc_id => {
                    return Err(EnrichError::MixedDocuments {
                        record: at,
                        expected: d.clone(),
                        found: r.doc_id,
                    });
                }
                Some(_) => {}
            }
            let idx = usize::try_from(r.seq).ok().filter(|&s| s < n);
            let Some(slot) = idx.and_then(|s| slots.get_mut(s)) else {
                return Err(EnrichError::SeqOutOfRange {
                    record: at,
                    count: n,
                });
            };
            if slot.is_some() {
                return Err(EnrichError::DuplicateSeq {
                    seq: u32::try_from(r.seq).unwrap_or(u32::MAX),
                });
            }
            *slot = Some(r);
        }
        // Every slot is filled: n records, n distinct in-range sequence numbers.
        let parsed: Vec<ParsedRecord> = slots.into_iter().flatten().collect();
        Ok(build(parsed))
    }

    /// Number of chunks (records).
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The document id (`ssDocId`).
    pub fn doc_id(&self) -> &str {
        &self.doc_id
    }

    /// The document title (`docTitle`; empty when the records have none).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The token count of the whole document: the sum of every chunk's `tokenCount`
    /// (o200k_base tokens).
    pub fn token_count(&self) -> u64 {
        self.total_tokens
    }

    /// The token count of chunk `seq` (o200k_base tokens), 0 when out of range.
    pub fn chunk_token_count(&self, seq: u32) -> u32 {
        self.chunks.get(seq as usize).map_or(0, |c| c.tokens)
    }

    /// Body chunks covering page `page` (1-based, absolute), ascending.
    pub(crate) fn page_row(&self, page: u32) -> &[u32] {
        match self
            .page_bounds
            .partition_point(|&b| b <= page)
            .checked_sub(1)
        {
            Some(i) => self.page_chunks.row(i),
            None => &[],
        }
    }

    /// The covered page intervals `(first page, pages, chunks)` in page order.
    pub(crate) fn page_intervals(&self) -> impl DoubleEndedIterator<Item = (u32, u32, &[u32])> {
        (0..self.page_chunks.len()).filter_map(|i| {
            let row = self.page_chunks.row(i);
            let (a, b) = (*self.page_bounds.get(i)?, *self.page_bounds.get(i + 1)?);
            (!row.is_empty()).then_some((a, b - a, row))
        })
    }

    /// One page per page interval that meets `first..=last`, ascending, starting with
    /// `first`: the pages whose rows a walk over `first..=last` would see, one step
    /// per interval rather than per page (a chunk may span many pages).
    pub(crate) fn interval_pages(&self, first: u32, last: u32) -> impl Iterator<Item = u32> + '_ {
        let start = self.page_bounds.partition_point(|&b| b <= first);
        std::iter::once(first)
            .chain(self.page_bounds[start..].iter().copied())
            .take_while(move |&p| p <= last)
    }

    /// Pages from the lowest to the highest page any body chunk covers.
    pub(crate) fn page_span(&self) -> u32 {
        match (self.page_bounds.first(), self.page_bounds.last()) {
            (Some(a), Some(b)) => b - a,
            _ => 0,
        }
    }

    /// Body pages that some chunk covers, from the first (`from_end` false) or the
    /// last; `nth` 0 is the first such page.
    pub(crate) fn nth_page(&self, nth: usize, from_end: bool) -> Option<u32> {
        let mut left = u64::try_from(nth).unwrap_or(u64::MAX);
        let pick = |(first, pages, _): (u32, u32, &[u32])| -> Option<u32> {
            if left < u64::from(pages) {
                let k = left as u32;
                Some(if from_end {
                    first + pages - 1 - k
                } else {
                    first + k
                })
            } else {
                left -= u64::from(pages);
                None
            }
        };
        if from_end {
            self.page_intervals().rev().find_map(pick)
        } else {
            self.page_intervals().find_map(pick)
        }
    }

    pub(crate) fn tokens_of(&self, seq: u32) -> u64 {
        u64::from(self.chunk_token_count(seq))
    }
}

impl Authors {
    /// The chunks of `name` (case-insensitive, trimmed); empty when unknown.
    pub(crate) fn chunks_of(&self, name: &str) -> &[u32] {
        let key = name.trim();
        match self
            .names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(key) || n.to_lowercase() == key.to_lowercase())
        {
            Some(a) => self.chunks.row(a),
            None => &[],
        }
    }
}

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Runs of consecutive same-kind chunks for which `has` holds.
fn runs(chunks: &[ChunkFacts], has: impl Fn(&ChunkFacts) -> bool) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = (0..as_u32(chunks.len())).map(|i| (i, i)).collect();
    let mut i = 0;
    while i < chunks.len() {
        if !has(&chunks[i]) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j + 1 < chunks.len() && has(&chunks[j + 1]) && chunks[j + 1].kind == chunks[i].kind {
            j += 1;
        }
        for slot in &mut out[i..=j] {
            *slot = (as_u32(i), as_u32(j));
        }
        i = j + 1;
    }
    out
}

fn authors(parsed: &[ParsedRecord], pick: impl Fn(&ParsedRecord) -> &[String]) -> Authors {
    let mut names: Vec<String> = Vec::new();
    let mut keys: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<Vec<u32>> = Vec::new();
    for r in parsed {
        for name in pick(r) {
            let key = name.to_lowercase();
            let a = *keys.entry(key).or_insert_with(|| {
                names.push(name.clone());
                rows.push(Vec::new());
                names.len() - 1
            });
            let seq = as_u32(usize::try_from(r.seq).unwrap_or(0));
            if rows[a].last() != Some(&seq) {
                rows[a].push(seq);
            }
        }
    }
    Authors {
        names,
        chunks: Csr::from_rows(&rows),
    }
}

fn build(parsed: Vec<ParsedRecord>) -> Enricher {
    let chunks: Vec<ChunkFacts> = parsed.iter().map(|r| r.facts).collect();
    let total_tokens = chunks.iter().map(|c| u64::from(c.tokens)).sum();

    // Tables: one slot per (kind, id), so a header table never pulls body chunks.
    let mut slot_of: HashMap<(ChunkKind, u32), u32> = HashMap::new();
    let mut table_rows: Vec<Vec<u32>> = Vec::new();
    let mut chunk_table_rows: Vec<Vec<u32>> = Vec::with_capacity(parsed.len());
    for (seq, r) in parsed.iter().enumerate() {
        let mut mine = Vec::with_capacity(r.table_ids.len());
        for &id in &r.table_ids {
            let slot = *slot_of.entry((r.facts.kind, id)).or_insert_with(|| {
                table_rows.push(Vec::new());
                as_u32(table_rows.len() - 1)
            });
            table_rows[slot as usize].push(as_u32(seq));
            mine.push(slot);
        }
        chunk_table_rows.push(mine);
    }

    // Pages and sections of the body.
    let body = || {
        chunks
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == ChunkKind::Body)
    };
    let mut page_bounds: Vec<u32> = body()
        .flat_map(|(_, c)| [c.first_page, c.last_page.saturating_add(1)])
        .collect();
    crate::order::sort(&mut page_bounds);
    page_bounds.dedup();
    let interval = |p: u32| page_bounds.partition_point(|&b| b < p);
    let mut page_rows: Vec<Vec<u32>> = vec![Vec::new(); page_bounds.len().saturating_sub(1)];
    let mut sections: Vec<SectionInfo> = Vec::new();
    let mut section_spans: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut section_slot: HashMap<u32, u32> = HashMap::new();
    let mut section_of = vec![u32::MAX; chunks.len()];
    for (seq, c) in body() {
        for i in interval(c.first_page)..interval(c.last_page.saturating_add(1)) {
            if let Some(row) = page_rows.get_mut(i) {
                row.push(as_u32(seq));
            }
        }
        let s = *section_slot.entry(c.section).or_insert_with(|| {
            sections.push(SectionInfo {
                index: c.section,
                pages: 0,
                chunks: 0,
            });
            section_spans.push(Vec::new());
            as_u32(sections.len() - 1)
        });
        section_of[seq] = s;
        sections[s as usize].chunks += 1;
        section_spans[s as usize].push((c.first_page, c.last_page));
    }
    let mut section_span = Vec::with_capacity(sections.len());
    for (info, mut spans) in sections.iter_mut().zip(section_spans) {
        crate::order::sort(&mut spans);
        let (mut pages, mut covered_to) = (0u64, 0u64);
        for &(a, b) in &spans {
            let (a, b) = (u64::from(a), u64::from(b) + 1);
            if b > covered_to {
                pages += b - a.max(covered_to);
                covered_to = b;
            }
        }
        info.pages = u32::try_from(pages).unwrap_or(u32::MAX);
        section_span.push((
            spans.first().map_or(0, |s| s.0),
            spans.iter().map(|s| s.1).max().unwrap_or(0),
        ));
    }

    let flagged = |f: fn(&ChunkFacts) -> bool| -> Vec<u32> {
        (0..as_u32(chunks.len()))
            .filter(|&i| f(&chunks[i as usize]))
            .collect()
    };
    Enricher {
        doc_id: parsed.first().map(|r| r.doc_id.clone()).unwrap_or_default(),
        title: parsed.first().map(|r| r.title.clone()).unwrap_or_default(),
        total_tokens,
        chunk_tables: Csr::from_rows(&chunk_table_rows),
        table_chunks: Csr::from_rows(&table_rows),
        revision_run: runs(&chunks, |c| c.revisions),
        comment_run: runs(&chunks, |c| c.comments),
        page_chunks: Csr::from_rows(&page_rows),
        page_bounds,
        sections,
        section_span,
        section_of,
        revision_chunks: flagged(|c| c.revisions),
        comment_chunks: flagged(|c| c.comments),
        revision_authors: authors(&parsed, |r| &r.revision_authors),
        comment_authors: authors(&parsed, |r| &r.comment_authors),
        phrases: parsed.into_iter().map(|r| r.phrases).collect(),
        chunks,
    }
}
