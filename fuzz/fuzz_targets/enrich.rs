//! The enrichment engine over hostile metadata records. An input starting with `[` is a
//! JSON array of flat objects (strings and integers), taken as the records; any other
//! input is a Markdown document up to its first NUL byte, converted (whose records
//! `Enricher::new` must accept), then the bytes after the NUL mutate those records,
//! 4 bytes an edit: record, field, value kind, value. Then the index document and every
//! expansion method run from anchors taken from the input.
#![no_main]

use docrag::enrich::{Enricher, RelatedOptions};
use docrag::{Format, Metadata};
use libfuzzer_sys::fuzz_target;

const FIELDS: [&str; 24] = [
    "ssDocId",
    "ssSeq",
    "docTitle",
    "firstPage",
    "lastPage",
    "sectionIndex",
    "headingPath",
    "headingLevel",
    "chunkKind",
    "tokenCount",
    "tableIds",
    "startsInTable",
    "endsInTable",
    "hasRevisions",
    "revisionAuthors",
    "hasComments",
    "commentAuthors",
    "persons",
    "terms",
    "keyHeadings",
    "keyBold",
    "keyTableHeadings",
    "keyPlainSample",
    "keyFieldData",
];

const STRINGS: [&str; 16] = [
    "",
    "yes",
    "no",
    "body",
    "header",
    "footer",
    "footnote",
    "endnote",
    "1",
    "-1",
    "1; 2; 3",
    "a; b; ; a",
    " 7 ",
    "1000000",
    "4294967296",
    "é; 😀; <<<",
];

const INTS: [i64; 8] = [0, 1, 2, -1, 1_000_000, 1_000_001, u32::MAX as i64, i64::MIN];

fn from_json(data: &[u8]) -> Option<Vec<Metadata>> {
    let v: serde_json::Value = serde_json::from_slice(data).ok()?;
    let mut out = Vec::new();
    for r in v.as_array()? {
        let mut m = Metadata::new();
        for (k, v) in r.as_object()? {
            match v {
                serde_json::Value::String(s) => m.set(k, s.as_str()),
                serde_json::Value::Number(n) => m.set(k, n.as_i64()?),
                _ => return None,
            }
        }
        out.push(m);
    }
    Some(out)
}

fn mutate(records: &mut Vec<Metadata>, edits: &[u8]) {
    for e in edits.chunks_exact(4) {
        if records.is_empty() {
            return;
        }
        let r = usize::from(e[0]) % records.len();
        let field = FIELDS[usize::from(e[1]) % FIELDS.len()];
        match e[2] % 6 {
            0 => records[r].set(field, STRINGS[usize::from(e[3]) % STRINGS.len()]),
            1 => records[r].set(field, INTS[usize::from(e[3]) % INTS.len()]),
            2 => records[r].set(field, i64::from(e[3] as i8)),
            3 => {
                // Drop the field: rebuild the record without it.
                let mut m = Metadata::new();
                for (k, v) in records[r].iter().filter(|(k, _)| *k != field) {
                    m.set(k, v.clone());
                }
                records[r] = m;
            }
            4 => {
                let copy = records[r].clone();
                records.insert(usize::from(e[3]) % (records.len() + 1), copy);
            }
            _ => {
                records.remove(r);
            }
        }
    }
}

fn exercise(e: &Enricher, knobs: &[u8]) {
    let n = e.chunk_count();
    let _ = (
        e.doc_id(),
        e.title(),
        e.token_count(),
        e.sections(),
        e.page_count(),
    );
    let _ = (e.table_count(), e.revision_authors(), e.comment_authors());
    for s in 0..n.min(64) {
        let _ = e.chunk_token_count(s as u32);
    }
    let k = |i: usize| knobs.get(i).copied().unwrap_or(0);
    if let Ok(entry) = e.index_document(f64::from(k(0)) / 2.0) {
        let _ = entry.text();
    }
    let anchors: Vec<i64> = knobs
        .iter()
        .skip(1)
        .take(8)
        .map(|b| i64::from(*b as i8))
        .collect();
    let Ok(mut x) = e.expand(&anchors) else {
        assert!(
            anchors.iter().any(|a| *a < 0 || *a as usize >= n),
            "valid anchors {anchors:?} rejected"
        );
        return;
    };
    let budget = u64::from(k(9)) * 16;
    x.add_page_chunks(k(10) & 1 == 1, u32::from(k(10) >> 1), budget);
    x.add_section_pages(
        if k(11) == 255 {
            u32::MAX
        } else {
            u32::from(k(11))
        },
        budget,
    );
    let author = (k(12) & 1 == 1)
        .then(|| e.revision_authors().first().map(String::as_str))
        .flatten();
    x.add_revision_chunks(author, budget);
    x.add_comment_chunks(author, budget);
    let mut related = RelatedOptions::new(budget);
    related.all_tables = k(12) & 2 == 2;
    related.adjacent_tables = k(12) & 4 == 4;
    x.add_related_chunks(&related);
    if k(12) & 8 == 8 {
        x.anchor_expanded();
    }
    x.complete_tables();
    x.complete_expanded_tables();
    x.complete_revisions();
    x.complete_comments();
    let expanded = x.expanded();
    assert!(
        expanded.windows(2).all(|w| w[0] < w[1]),
        "expanded not ascending"
    );
    assert!(
        expanded.iter().all(|s| (*s as usize) < n),
        "expanded seq out of range"
    );
    for a in x.anchors() {
        assert!(x.contains(*a), "anchor {a} not in the expanded set");
    }
    assert!(x.token_count() >= x.retrieved_tokens());
}

fuzz_target!(|data: &[u8]| {
    let (records, knobs) = if data.first() == Some(&b'[') {
        match from_json(data) {
            Some(r) => (r, data),
            None => return,
        }
    } else {
        let (doc, edits) = match data.iter().position(|b| *b == 0) {
            Some(i) => (&data[..i], &data[i + 1..]),
            None => (data, &[][..]),
        };
        let opts = docrag_fuzz::options(Some(Format::Markdown));
        let Ok(out) = docrag::convert(doc, &opts) else {
            return;
        };
        let mut records: Vec<Metadata> = out.chunks.into_iter().map(|c| c.metadata).collect();
        if !records.is_empty() {
            if let Err(err) = Enricher::new(&records) {
                panic!("Enricher::new rejected convert's own records: {err}");
            }
        }
        mutate(&mut records, edits);
        (records, edits)
    };
    if let Ok(e) = Enricher::new(&records) {
        exercise(&e, knobs);
    }
});
