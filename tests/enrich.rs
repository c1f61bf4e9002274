//! The enrichment engine on real chunked corpus documents (table completion, revision
//! and comment runs, budgets, author filters, re-anchoring, document information, the
//! index document) plus validation errors and property tests over random record sets.

use std::collections::BTreeSet;

use docrag::chunk::Labels;
use docrag::enrich::{
    DEFAULT_INDEX_PERCENT, EnrichError, Enricher, INDEX_ANSWER_PROMPT, PART_TOKENS, ROUTING_PROMPT,
    RecordRef, RelatedOptions,
};
use docrag::{ConvertOptions, MetaValue, Metadata, tokens};
use proptest::prelude::*;

const CORPUS: &str = "../shared/corpus";

fn records_with(file: &str, options: &ConvertOptions) -> Vec<Metadata> {
    let bytes = std::fs::read(format!("{CORPUS}/{file}")).expect("corpus file");
    let out = docrag::convert(&bytes, options).expect("converts");
    out.chunks.into_iter().map(|c| c.metadata).collect()
}

fn records(file: &str, max_tokens: usize) -> Vec<Metadata> {
    let options = ConvertOptions::new()
        .with_file_name(file)
        .with_max_tokens(max_tokens)
        .expect("max tokens");
    records_with(file, &options)
}

fn str_field<'a>(m: &'a Metadata, f: &str) -> &'a str {
    m.get_str(f).unwrap_or("")
}

fn int_field(m: &Metadata, f: &str) -> i64 {
    m.get_int(f).expect("int field")
}

fn tokens_of(recs: &[Metadata], seqs: impl IntoIterator<Item = u32>) -> u64 {
    seqs.into_iter()
        .map(|s| int_field(&recs[s as usize], "tokenCount") as u64)
        .sum()
}

fn list_has(m: &Metadata, f: &str, item: &str) -> bool {
    str_field(m, f).split("; ").any(|x| x == item)
}

/// Maximal runs of consecutive same-kind chunks whose `flag` is yes, computed from the
/// records directly.
fn run_around(recs: &[Metadata], flag: &str, seq: usize) -> Vec<u32> {
    let on = |i: usize| str_field(&recs[i], flag) == "yes";
    let kind = str_field(&recs[seq], "chunkKind");
    let same = |i: usize| on(i) && str_field(&recs[i], "chunkKind") == kind;
    let mut lo = seq;
    while lo > 0 && same(lo - 1) {
        lo -= 1;
    }
    let mut hi = seq;
    while hi + 1 < recs.len() && same(hi + 1) {
        hi += 1;
    }
    (lo as u32..=hi as u32).collect()
}

// ---------- tables ----------

#[test]
fn a_chunk_inside_a_long_table_expands_to_exactly_that_table() {
    let recs = records("poi__bug57031.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    assert!(e.has_tables());
    // Every chunk that both starts and ends inside a table is the middle of one.
    let middles: Vec<usize> = (0..recs.len())
        .filter(|&i| {
            str_field(&recs[i], "startsInTable") == "yes"
                && str_field(&recs[i], "endsInTable") == "yes"
        })
        .collect();
    assert!(middles.len() > 10, "bug57031 at 128 tokens has long tables");
    for &mid in &middles {
        let id = str_field(&recs[mid], "tableIds").to_string();
        assert!(!id.contains(';'), "a middle chunk holds one table");
        let expected: Vec<u32> = (0..recs.len() as u32)
            .filter(|&i| list_has(&recs[i as usize], "tableIds", &id))
            .collect();
        let mut x = e.expand(&[mid as i64]).unwrap();
        let added = x.complete_tables();
        assert_eq!(x.expanded(), expected, "table {id} from chunk {mid}");
        // The table's first chunk opens it, its last closes it.
        let first = &recs[expected[0] as usize];
        let last = &recs[*expected.last().unwrap() as usize];
        assert_eq!(str_field(first, "startsInTable"), "no");
        assert_eq!(str_field(last, "endsInTable"), "no");
        assert_eq!(
            added,
            tokens_of(&recs, expected.iter().copied()) - tokens_of(&recs, [mid as u32])
        );
        // Completions are idempotent.
        assert_eq!(x.complete_tables(), added);
        assert_eq!(x.expanded(), expected);
    }
}

#[test]
fn completions_ignore_the_budget_and_a_chunk_outside_tables_adds_nothing() {
    let recs = records("poi__bug57031.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let mid = (0..recs.len())
        .find(|&i| {
            str_field(&recs[i], "startsInTable") == "yes"
                && str_field(&recs[i], "endsInTable") == "yes"
        })
        .unwrap();
    let mut x = e.expand(&[mid as i64]).unwrap();
    let added = x.add_related_chunks(&RelatedOptions::new(0));
    assert!(added > 1000, "the whole table came in with a zero budget");
    // A chunk with no table, revision or comment gains nothing.
    let mut plain = e.expand(&[0]).unwrap();
    assert_eq!(plain.add_related_chunks(&RelatedOptions::new(u64::MAX)), 0);
    assert_eq!(plain.expanded(), vec![0]);
}

#[test]
fn all_tables_adds_whole_tables_within_the_budget() {
    let recs = records("poi__bug57031.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let table_chunks: BTreeSet<u32> = (0..recs.len() as u32)
        .filter(|&i| !str_field(&recs[i as usize], "tableIds").is_empty())
        .collect();
    let mut opts = RelatedOptions::new(u64::MAX);
    opts.all_tables = true;
    let mut all = e.expand(&[0]).unwrap();
    all.add_related_chunks(&opts);
    let got: BTreeSet<u32> = all.expanded().into_iter().collect();
    assert!(table_chunks.is_subset(&got));
    assert_eq!(got.len(), table_chunks.len() + 1);
    // With a budget of 300 tokens only the small leading tables fit, and each
    // table present is present whole.
    opts.budget = 300;
    let mut some = e.expand(&[0]).unwrap();
    let added = some.add_related_chunks(&opts);
    assert!(added <= 300 && added > 0, "added {added}");
    for s in some.expanded().into_iter().skip(1) {
        let id = str_field(&recs[s as usize], "tableIds");
        for other in 0..recs.len() as u32 {
            if list_has(&recs[other as usize], "tableIds", id) {
                assert!(some.contains(other), "table {id} is whole");
            }
        }
    }
}

// ---------- revision and comment runs ----------

#[test]
fn a_revision_run_completes_to_its_boundaries() {
    let recs = records("poi__delins.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    assert!(e.has_revisions());
    assert_eq!(e.revision_authors(), ["pavel"]);
    let run = run_around(&recs, "hasRevisions", 5);
    assert!(run.len() > 5, "delins has a long run");
    let (lo, hi) = (run[0] as usize, *run.last().unwrap() as usize);
    assert_eq!(str_field(&recs[lo - 1], "hasRevisions"), "no");
    assert_eq!(str_field(&recs[hi + 1], "hasRevisions"), "no");
    let mut x = e.expand(&[5]).unwrap();
    let added = x.complete_revisions();
    assert_eq!(x.expanded(), run);
    assert_eq!(
        added,
        tokens_of(&recs, run.iter().copied()) - tokens_of(&recs, [5])
    );
    assert_eq!(x.complete_revisions(), added, "idempotent");
    // A chunk without revisions completes nothing.
    let mut none = e.expand(&[0]).unwrap();
    assert_eq!(none.complete_revisions(), 0);
}

#[test]
fn runs_stop_at_a_change_of_chunk_kind() {
    // Body chunks 1-7 have revisions, and so does the header right after them.
    let recs = records("openxmlsdk__Comment042.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let mut x = e.expand(&[3]).unwrap();
    x.complete_revisions();
    let got = x.expanded();
    assert_eq!(got, run_around(&recs, "hasRevisions", 3));
    assert!(
        got.iter()
            .all(|&s| str_field(&recs[s as usize], "chunkKind") == "body")
    );
    let next = *got.last().unwrap() as usize + 1;
    assert_eq!(str_field(&recs[next], "hasRevisions"), "yes");
    assert_ne!(str_field(&recs[next], "chunkKind"), "body");
}

#[test]
fn every_run_in_the_corpus_matches_the_records() {
    let files = [
        "openxmlsdk__Comment028.docx",
        "openxmlsdk__Comment042.docx",
        "pandoc__comments.docx",
        "poi__delins.docx",
        "openxmlsdk__cellWithComment.docx",
    ];
    for f in files {
        let recs = records(f, 128);
        let e = Enricher::new(&recs).unwrap();
        for seq in 0..recs.len() {
            for (flag, is_rev) in [("hasRevisions", true), ("hasComments", false)] {
                let mut x = e.expand(&[seq as i64]).unwrap();
                if is_rev {
                    x.complete_revisions();
                } else {
                    x.complete_comments();
                }
                let want = if str_field(&recs[seq], flag) == "yes" {
                    run_around(&recs, flag, seq)
                } else {
                    vec![seq as u32]
                };
                assert_eq!(x.expanded(), want, "{f} #{seq} {flag}");
            }
        }
    }
}

#[test]
fn chained_completions_do_not_compound_until_re_anchored() {
    let recs = records("openxmlsdk__Comment028.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let mut x = e.expand(&[9]).unwrap();
    x.complete_comments();
    let first = x.expanded();
    assert_eq!(first, run_around(&recs, "hasComments", 9));
    x.complete_comments();
    x.complete_revisions();
    x.complete_tables();
    assert_eq!(x.expanded(), first, "chaining works from the anchors");
}

// ---------- additions and budgets ----------

#[test]
fn page_additions_respect_the_budget_stage_by_stage() {
    let recs = records("poi__bug57031.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let anchor = 5u32; // page 2
    let page_of = |s: u32| {
        (
            int_field(&recs[s as usize], "firstPage"),
            int_field(&recs[s as usize], "lastPage"),
        )
    };
    // Nothing happens without a rest-of-page or pages-around request.
    let mut idle = e.expand(&[anchor as i64]).unwrap();
    assert_eq!(idle.add_page_chunks(false, 0, u64::MAX), 0);
    // Unlimited: the anchor's page(s), first, last, one around, second pages.
    let mut x = e.expand(&[anchor as i64]).unwrap();
    let added = x.add_page_chunks(true, 1, u64::MAX);
    assert_eq!(added, x.token_count() - x.retrieved_tokens());
    let (lo, hi) = page_of(anchor);
    let last_page = recs.iter().map(|m| int_field(m, "lastPage")).max().unwrap();
    for s in 0..recs.len() as u32 {
        let (f, l) = page_of(s);
        let on = |p: i64| f <= p && p <= l;
        let wanted =
            (lo - 1..=hi + 1).any(on) || on(1) || on(2) || on(last_page) || on(last_page - 1);
        if str_field(&recs[s as usize], "chunkKind") == "body" {
            assert_eq!(x.contains(s), wanted, "chunk {s} pages {f}-{l}");
        }
    }
    // Every budget is respected by additions, and a smaller budget adds a prefix of
    // the stages (never more than a larger one).
    let mut previous = 0;
    for budget in [0, 50, 200, 500, 1000, 2000, 5000] {
        let mut b = e.expand(&[anchor as i64]).unwrap();
        let got = b.add_page_chunks(true, 2, budget);
        assert!(got <= budget, "budget {budget}: {got}");
        assert!(got >= previous);
        previous = got;
    }
}

#[test]
fn section_pages_stay_inside_the_anchor_section() {
    let recs = records("docx4j__Docx4j_GettingStarted.docx", 256);
    let e = Enricher::new(&recs).unwrap();
    let anchor = recs.len() / 2;
    let section = int_field(&recs[anchor], "sectionIndex");
    let mut x = e.expand(&[anchor as i64]).unwrap();
    x.add_section_pages(u32::MAX, u64::MAX);
    for s in x.expanded() {
        assert_eq!(int_field(&recs[s as usize], "sectionIndex"), section);
    }
    let whole: Vec<u32> = (0..recs.len() as u32)
        .filter(|&s| {
            int_field(&recs[s as usize], "sectionIndex") == section
                && str_field(&recs[s as usize], "chunkKind") == "body"
        })
        .collect();
    assert_eq!(x.expanded(), whole, "u32::MAX pages = the whole section");
    let info = e
        .sections()
        .iter()
        .find(|s| i64::from(s.index) == section)
        .unwrap();
    assert_eq!(info.chunks as usize, whole.len());
    for budget in [0, 100, 400] {
        let mut b = e.expand(&[anchor as i64]).unwrap();
        assert!(b.add_section_pages(3, budget) <= budget);
    }
}

#[test]
fn author_filters_pick_only_that_authors_chunks() {
    let recs = records("openxmlsdk__Comment028.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let authors = e.comment_authors().to_vec();
    assert!(authors.len() >= 3, "{authors:?}");
    // Each author once.
    let unique: BTreeSet<String> = authors.iter().map(|a| a.to_lowercase()).collect();
    assert_eq!(unique.len(), authors.len());
    for author in &authors {
        let mut x = e.expand(&[]).unwrap();
        x.add_comment_chunks(Some(author), u64::MAX);
        let want: Vec<u32> = (0..recs.len() as u32)
            .filter(|&s| list_has(&recs[s as usize], "commentAuthors", author))
            .collect();
        assert_eq!(x.expanded(), want, "{author}");
        // Case and surrounding spaces do not matter.
        let mut y = e.expand(&[]).unwrap();
        y.add_comment_chunks(Some(&format!("  {}  ", author.to_uppercase())), u64::MAX);
        assert_eq!(y.expanded(), want);
    }
    let mut all = e.expand(&[]).unwrap();
    all.add_comment_chunks(None, u64::MAX);
    let want: Vec<u32> = (0..recs.len() as u32)
        .filter(|&s| str_field(&recs[s as usize], "hasComments") == "yes")
        .collect();
    assert_eq!(all.expanded(), want);
    let mut nobody = e.expand(&[]).unwrap();
    assert_eq!(nobody.add_comment_chunks(Some("Nobody Atall"), u64::MAX), 0);
    // Revision chunks by their one author.
    let recs = records("poi__delins.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    let mut r = e.expand(&[0]).unwrap();
    let added = r.add_revision_chunks(Some("Pavel"), 400);
    assert!(added <= 400 && added > 0);
    assert!(r.expanded().iter().skip(1).all(|&s| list_has(
        &recs[s as usize],
        "revisionAuthors",
        "pavel"
    )));
}

#[test]
fn re_anchoring_compounds_only_when_asked() {
    let recs = records("poi__bug57031.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    // The first chunk of the long table: its page, then the table's pages.
    let start = (0..recs.len())
        .find(|&i| {
            str_field(&recs[i], "endsInTable") == "yes"
                && str_field(&recs[i], "startsInTable") == "no"
                && {
                    let id = str_field(&recs[i], "tableIds");
                    (0..recs.len())
                        .filter(|&j| list_has(&recs[j], "tableIds", id))
                        .count()
                        > 10
                }
        })
        .unwrap();
    let mut plain = e.expand(&[start as i64]).unwrap();
    plain.complete_tables();
    let table = plain.expanded();
    let after_table = plain.add_page_chunks(true, 0, u64::MAX);
    let mut compounding = e.expand(&[start as i64]).unwrap();
    compounding.complete_tables();
    compounding.anchor_expanded();
    assert_eq!(compounding.anchors(), &table[..]);
    let compounded = compounding.add_page_chunks(true, 0, u64::MAX);
    assert!(compounded > after_table, "{compounded} > {after_table}");
    // Pages of every table chunk are in the compounded set.
    let last_table_page = int_field(&recs[*table.last().unwrap() as usize], "lastPage");
    for s in 0..recs.len() as u32 {
        let (f, l) = (
            int_field(&recs[s as usize], "firstPage"),
            int_field(&recs[s as usize], "lastPage"),
        );
        let body = str_field(&recs[s as usize], "chunkKind") == "body";
        if body && f <= last_table_page && l >= last_table_page {
            assert!(compounding.contains(s));
        }
    }
    // Enrichment still counts from the retrieved chunk.
    assert_eq!(
        compounding.retrieved_tokens(),
        tokens_of(&recs, [start as u32])
    );
    assert_eq!(
        compounding.token_count(),
        tokens_of(&recs, compounding.expanded())
    );
}

// ---------- document information ----------

#[test]
fn document_information_matches_the_records() {
    let recs = records("docx4j__Docx4j_GettingStarted.docx", 256);
    let e = Enricher::new(&recs).unwrap();
    let total: u64 = recs.iter().map(|m| int_field(m, "tokenCount") as u64).sum();
    assert_eq!(e.token_count(), total);
    assert_eq!(e.chunk_count(), recs.len());
    assert_eq!(
        e.chunk_token_count(3),
        int_field(&recs[3], "tokenCount") as u32
    );
    assert_eq!(e.chunk_token_count(99_999), 0);
    let body = recs
        .iter()
        .filter(|m| str_field(m, "chunkKind") == "body")
        .count();
    assert_eq!(
        e.sections()
            .iter()
            .map(|s| s.chunks as usize)
            .sum::<usize>(),
        body
    );
    assert!(e.sections().len() > 10);
    assert!(e.sections().iter().all(|s| s.pages >= 1));
    let recs = records("openxmlsdk__Comment042.docx", 128);
    let e = Enricher::new(&recs).unwrap();
    assert!(e.has_revisions() && e.has_comments() && !e.has_tables());
    assert_eq!(e.revision_authors(), ["Arman Aghaei"]);
    assert_eq!(e.comment_authors(), ["Arman Aghaei"]);
}

// ---------- validation ----------

fn small() -> Vec<Metadata> {
    records("poi__delins.docx", 256)
}

fn expect_err(recs: &[Metadata]) -> EnrichError {
    Enricher::new(recs).expect_err("invalid set")
}

#[test]
fn bad_record_sets_name_the_record_and_field() {
    assert_eq!(expect_err(&[]), EnrichError::EmptySet);

    let mut r = small();
    r[2] = Metadata::new();
    for (k, v) in small()[2].iter().filter(|(k, _)| *k != "tokenCount") {
        r[2].set(k, v.clone());
    }
    let err = expect_err(&r);
    assert_eq!(err.code(), "missing-field");
    assert_eq!(
        err,
        EnrichError::MissingField {
            record: RecordRef::Seq(2),
            field: "tokenCount".into()
        }
    );
    assert!(err.to_string().contains("ssSeq 2") && err.to_string().contains("tokenCount"));

    let mut r = small();
    r[1].set("firstPage", "one");
    let err = expect_err(&r);
    assert_eq!(err.code(), "not-a-number");
    assert!(err.to_string().contains("firstPage"), "{err}");
    // A number in a string is fine (flat stores stringify).
    let mut r = small();
    r[1].set("firstPage", "1");
    assert!(Enricher::new(&r).is_ok());

    let mut r = small();
    r[0].set("ssSeq", "x");
    assert_eq!(
        expect_err(&r),
        EnrichError::NotANumber {
            record: RecordRef::Index(0),
            field: "ssSeq".into(),
            value: "x".into()
        }
    );

    let mut r = small();
    r.pop();
    let n = r.len() as i64;
    r[0].set("ssSeq", n);
    assert_eq!(expect_err(&r).code(), "seq-out-of-range");

    let mut r = small();
    r[1].set("ssSeq", 0i64);
    assert_eq!(expect_err(&r), EnrichError::DuplicateSeq { seq: 0 });

    let mut r = small();
    let other = records("openxmlsdk__Comment042.docx", 256);
    r[1] = other[1].clone();
    assert_eq!(expect_err(&r).code(), "mixed-documents");

    let mut r = small();
    r[1].set("hasRevisions", "maybe");
    assert_eq!(expect_err(&r).code(), "bad-field-value");
    let mut r = small();
    r[1].set("chunkKind", "sidebar");
    assert_eq!(expect_err(&r).code(), "bad-field-value");

    // Any order is fine.
    let mut r = small();
    r.reverse();
    let e = Enricher::new(&r).unwrap();
    assert_eq!(e.chunk_count(), r.len());
    let e = Enricher::new(&small()).unwrap();
    assert_eq!(e.expand(&[-1]).unwrap_err().code(), "anchor-out-of-range");
    assert_eq!(
        e.expand(&[e.chunk_count() as i64]).unwrap_err(),
        EnrichError::AnchorOutOfRange {
            seq: e.chunk_count() as i64,
            count: e.chunk_count()
        }
    );
    assert_eq!(e.index_document(0.0).unwrap_err().code(), "invalid-percent");
    assert_eq!(
        e.index_document(f64::NAN).unwrap_err().code(),
        "invalid-percent"
    );
}

#[test]
fn renamed_labels_are_read_through_the_label_map() {
    let options = ConvertOptions::new()
        .with_max_tokens(128)
        .unwrap()
        .with_label("tokenCount", "tokens")
        .with_label("hasRevisions", "redlined")
        .with_label("tableIds", "tables");
    let recs = records_with("poi__delins.docx", &options);
    assert!(recs[0].get("tokens").is_some());
    assert_eq!(expect_err(&recs).code(), "missing-field");
    let labels = Labels::from_options(&options).unwrap();
    let e = Enricher::with_labels(&recs, &labels).unwrap();
    let sum: i64 = recs.iter().map(|m| int_field(m, "tokens")).sum();
    assert_eq!(e.token_count(), sum as u64);
    // The same chunks under both namings give the same expansions.
    let plain_recs = records("poi__delins.docx", 128);
    let renamed: Vec<Metadata> = plain_recs
        .iter()
        .map(|m| {
            let mut r = Metadata::new();
            for (k, v) in m.iter() {
                let k = match k {
                    "tokenCount" => "tokens",
                    "hasRevisions" => "redlined",
                    "tableIds" => "tables",
                    other => other,
                };
                r.set(k, v.clone());
            }
            r
        })
        .collect();
    let plain = Enricher::new(&plain_recs).unwrap();
    let e = Enricher::with_labels(&renamed, &labels).unwrap();
    assert_eq!(e.token_count(), plain.token_count());
    let mut x = e.expand(&[5]).unwrap();
    let mut y = plain.expand(&[5]).unwrap();
    assert_eq!(x.complete_revisions(), y.complete_revisions());
    assert!(x.enrichment_tokens() > 0);
    assert_eq!(x.expanded(), y.expanded());
}

// ---------- index document ----------

fn corpus_files() -> Vec<String> {
    let manifest = std::fs::read_to_string(format!("{CORPUS}/MANIFEST.tsv")).unwrap();
    let mut lines = manifest.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (file, features) = (col("file"), col("features"));
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| !c[features].split(',').any(|f| f == "broken"))
        .map(|c| c[file].to_string())
        .collect()
}

#[test]
fn the_corpus_index_stays_under_ten_percent_and_keeps_its_shape() {
    let mut corpus_tokens = 0u64;
    let mut index_tokens = 0u64;
    let mut docs = 0;
    for f in corpus_files() {
        let bytes = std::fs::read(format!("{CORPUS}/{f}")).unwrap();
        let Ok(out) = docrag::convert(&bytes, &ConvertOptions::new().with_file_name(&f)) else {
            continue;
        };
        if out.chunks.is_empty() {
            continue;
        }
        let recs: Vec<Metadata> = out.chunks.into_iter().map(|c| c.metadata).collect();
        let e = Enricher::new(&recs).unwrap();
        let entry = e.index_document(DEFAULT_INDEX_PERCENT).unwrap();
        let text = entry.text();
        assert_eq!(entry.tokens, tokens::count(&text));
        assert!(entry.parts[0].starts_with("## "), "{f}: {}", entry.parts[0]);
        assert!(entry.parts[0].contains(&format!("(id: {})", e.doc_id())));
        for (i, p) in entry.parts.iter().enumerate() {
            assert_eq!(
                i > 0,
                p.lines().next().unwrap().ends_with("(continued)"),
                "{f} part {i}"
            );
            assert!(
                tokens::count(p) <= PART_TOKENS + 100,
                "{f} part {i} is {} tokens",
                tokens::count(p)
            );
        }
        // Each phrase once; no bare numbers but years.
        let mut seen = BTreeSet::new();
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("## ") && !l.starts_with("Holds:"))
        {
            let (_, list) = line.split_once(": ").unwrap_or(("", line));
            for p in list.split("; ") {
                assert!(seen.insert(p.to_lowercase()), "{f}: '{p}' twice");
                if !p.chars().any(char::is_alphabetic) {
                    let y: u32 = p
                        .trim_matches(|c: char| !c.is_ascii_digit())
                        .parse()
                        .unwrap_or(0);
                    assert!((1000..=2100).contains(&y), "{f}: bare number '{p}'");
                }
            }
        }
        corpus_tokens += e.token_count();
        index_tokens += entry.tokens as u64;
        docs += 1;
    }
    assert!(docs > 50, "{docs} documents");
    let share = index_tokens as f64 / corpus_tokens as f64;
    assert!(share < 0.10, "index is {:.1}% of the corpus", share * 100.0);
    assert!(
        share > 0.01,
        "index is {:.1}% of the corpus: too sparse to route",
        share * 100.0
    );
}

#[test]
fn a_long_entry_splits_into_continued_parts_and_grows_with_the_percent() {
    let recs = records("docx4j__Docx4j_GettingStarted.docx", 256);
    let e = Enricher::new(&recs).unwrap();
    let small = e.index_document(2.0).unwrap();
    let large = e.index_document(20.0).unwrap();
    assert!(
        large.tokens > small.tokens * 3,
        "{} vs {}",
        large.tokens,
        small.tokens
    );
    assert!(large.parts.len() >= 3, "{} parts", large.parts.len());
    assert!(large.tokens as f64 <= e.token_count() as f64 * 0.2 * 1.05);
    assert!(large.text().contains("Headings: "));
    // Phrases come from all over the document, not only its start.
    let last_heading = recs
        .iter()
        .rev()
        .find_map(|m| m.get_str("keyHeadings").filter(|h| !h.is_empty()))
        .unwrap();
    let _ = last_heading;
    let tail_phrase_present = recs[recs.len() * 3 / 4..]
        .iter()
        .flat_map(|m| {
            ["keyHeadings", "keyBold", "terms"].map(|f| m.get_str(f).unwrap_or("").to_string())
        })
        .flat_map(|l| l.split("; ").map(str::to_string).collect::<Vec<_>>())
        .any(|p| !p.is_empty() && large.text().contains(&p));
    assert!(tail_phrase_present);
}

#[test]
fn the_prompts_name_every_reply_form() {
    for form in ["NONE", "ALL", "INDEX", "id:confidence | id:confidence"] {
        assert!(ROUTING_PROMPT.contains(form), "{form}");
    }
    assert!(INDEX_ANSWER_PROMPT.contains("title followed by its id"));
}

// ---------- properties ----------

/// A random valid record set: body chunks with nondecreasing pages and sections,
/// tables as contiguous runs (a chunk may end one table and start the next), then a
/// few header chunks with their own tables.
fn record_set() -> impl Strategy<Value = Vec<Metadata>> {
    let chunk = (
        1u32..400,
        0u8..4,
        0u8..3,
        any::<bool>(),
        any::<bool>(),
        0u8..4,
        0u8..3,
    );
    (prop::collection::vec(chunk, 1..60), 0usize..4).prop_map(|(chunks, headers)| {
        let mut out = Vec::new();
        let (mut page, mut section, mut table, mut in_table) = (1i64, 0i64, 0u32, false);
        let n = chunks.len();
        for (i, (tokens, step, table_roll, rev, com, author, sect_step)) in
            chunks.into_iter().enumerate()
        {
            let kind = if i + headers >= n && i > 0 {
                "header"
            } else {
                "body"
            };
            let first = page;
            page += i64::from(step / 2);
            section += i64::from(sect_step / 2);
            let mut ids = Vec::new();
            if in_table {
                ids.push(table);
            }
            // 0: no new table, 1: open a table that continues, 2: a table inside.
            let continues = table_roll == 1 && kind == "body";
            if table_roll > 0 && !(in_table && table_roll == 2) {
                table += 1;
                ids.push(table);
            }
            in_table = continues;
            let mut m = Metadata::new();
            m.set("ssDocId", "doc");
            m.set("ssSeq", i as i64);
            m.set("firstPage", first);
            m.set("lastPage", page);
            m.set("sectionIndex", section);
            m.set("chunkKind", kind);
            m.set("tokenCount", i64::from(tokens));
            m.set(
                "tableIds",
                ids.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            );
            m.set("hasRevisions", MetaValue::flag(rev));
            m.set(
                "revisionAuthors",
                if rev {
                    format!("author{author}")
                } else {
                    String::new()
                },
            );
            m.set("hasComments", MetaValue::flag(com));
            m.set(
                "commentAuthors",
                if com {
                    format!("reader{}", author % 2)
                } else {
                    String::new()
                },
            );
            out.push(m);
        }
        out
    })
}

fn with_anchors() -> impl Strategy<Value = (Vec<Metadata>, Vec<i64>)> {
    record_set().prop_flat_map(|recs| {
        let n = recs.len() as i64;
        (Just(recs), prop::collection::vec(0..n, 0..6))
    })
}

proptest! {
    #[test]
    fn expansions_keep_their_invariants((recs, anchors) in with_anchors(), budget in 0u64..3000, around in 0u32..3, rest in any::<bool>()) {
        let e = Enricher::new(&recs).unwrap();
        let n = recs.len() as u32;
        let check = |x: &docrag::enrich::Expansion<&Enricher>| {
            let got = x.expanded();
            prop_assert!(got.windows(2).all(|w| w[0] < w[1]), "sorted");
            prop_assert!(got.iter().all(|&s| s < n), "in range");
            for &a in &anchors {
                prop_assert!(got.contains(&(a as u32)), "anchor {a} kept");
            }
            prop_assert_eq!(x.token_count(), tokens_of(&recs, got.iter().copied()));
            prop_assert_eq!(x.token_count(), x.retrieved_tokens() + x.enrichment_tokens());
            let uniq: BTreeSet<i64> = anchors.iter().copied().collect();
            prop_assert_eq!(x.retrieved_tokens(), tokens_of(&recs, uniq.iter().map(|&a| a as u32)));
            Ok(())
        };
        // Completions: idempotent, and they return the cumulative enrichment.
        let mut x = e.expand(&anchors).unwrap();
        check(&x)?;
        for step in 0..3 {
            let t = match step { 0 => x.complete_tables(), 1 => x.complete_revisions(), _ => x.complete_comments() };
            prop_assert_eq!(t, x.enrichment_tokens());
            let before = x.expanded();
            let again = match step { 0 => x.complete_tables(), 1 => x.complete_revisions(), _ => x.complete_comments() };
            prop_assert_eq!(again, t);
            prop_assert_eq!(x.expanded(), before);
            check(&x)?;
        }
        // Tables are whole after the combined call (adjacent tables on).
        let mut r = e.expand(&anchors).unwrap();
        r.add_related_chunks(&RelatedOptions::new(budget));
        check(&r)?;
        for s in r.expanded() {
            for id in recs[s as usize].get_str("tableIds").unwrap().split("; ").filter(|i| !i.is_empty()) {
                for o in 0..n {
                    let same_kind = recs[o as usize].get_str("chunkKind") == recs[s as usize].get_str("chunkKind");
                    if same_kind && list_has(&recs[o as usize], "tableIds", id) {
                        prop_assert!(r.contains(o), "table {} whole", id);
                    }
                }
            }
        }
        // Additions never take the enrichment past their budget.
        let mut a = e.expand(&anchors).unwrap();
        prop_assert!(a.add_page_chunks(rest, around, budget) <= budget);
        prop_assert!(a.add_section_pages(around, budget) <= budget);
        prop_assert!(a.add_revision_chunks(None, budget) <= budget);
        prop_assert!(a.add_comment_chunks(Some("reader1"), budget) <= budget);
        check(&a)?;
        a.anchor_expanded();
        prop_assert_eq!(a.anchors(), &a.expanded()[..]);
        prop_assert!(a.add_page_chunks(true, around, budget) <= budget);
        check(&a)?;
    }
}
