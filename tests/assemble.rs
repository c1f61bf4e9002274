//! Context assembly under a token budget (docrag::query::assemble), on corpus files
//! at the default chunk size: the budget holds, excerpts carry the evidence with what
//! makes it readable, and the cost does not grow with the collection.

mod common;
use common::add_corpus_doc;

use docrag::query::{Collection, PathTaken, QueryOptions, Replies, ask};
use docrag::tokens;

const FILES: &[&str] = &[
    "poi__bug57031.docx",
    "pandoc__comments.docx",
    "pandoc__notes.docx",
    "pandoc__track_changes_move.docx",
    "docx4j__Docx4j_GettingStarted.docx",
    "pandoc__MANUAL.txt",
    "es6tutorial__proxy.md",
];

fn collection(files: &[&str]) -> Collection {
    let mut c = Collection::new();
    for f in files {
        add_corpus_doc(&mut c, f, 1024);
    }
    c
}

fn context(q: &str, c: &Collection, o: &QueryOptions) -> (String, docrag::query::QueryResult) {
    let r = ask(c, q, &[], &Replies::default(), o).unwrap();
    (r.payload.cached_prefix().to_string(), r)
}

#[test]
fn the_budget_bounds_the_context_and_a_table_row_comes_with_its_header() {
    let c = collection(FILES);
    assert!(c.total_tokens() > 50_000);
    let q = "What time and treatment are recorded for observation 45 in the bladder data?";
    let (ctx, r) = context(q, &c, &QueryOptions::new());
    assert_eq!(r.accounting.path, PathTaken::Pointed);
    let sent = r.accounting.retrieval_tokens + r.accounting.enrichment_tokens;
    assert!(sent <= 4_000, "{sent} tokens of excerpts");
    assert!(sent > 0);
    // Row 45 and the header row of its table, in one source.
    let part = r
        .payload
        .cached_prefix()
        .split("\n[")
        .find(|p| p.contains("<tr><td>45</td>"))
        .unwrap_or_else(|| panic!("row 45 not in the context:\n{ctx}"));
    assert!(part.contains("<th>Obs</th><th>Time</th>"));
    assert!(part.contains("</table>"));
    // An excerpt, not the whole 1,000-token chunk.
    let chunk = c.documents()[0]
        .chunks
        .iter()
        .find(|ch| ch.text.contains("<tr><td>45</td>"))
        .unwrap();
    assert!(!ctx.contains(&chunk.text));
    assert!(
        r.sources
            .iter()
            .any(|s| s.seq == chunk.metadata.get_int("ssSeq").unwrap() as usize)
    );

    // A smaller budget costs less and still holds the row.
    let small = QueryOptions::new().with_token_budget(600).unwrap();
    let (ctx2, r2) = context(q, &c, &small);
    let sent2 = r2.accounting.retrieval_tokens + r2.accounting.enrichment_tokens;
    assert!(sent2 <= 600, "{sent2}");
    assert!(ctx2.contains("<tr><td>45</td>"));
    assert!(tokens::count(&ctx2) < tokens::count(&ctx));
}

#[test]
fn notes_comments_and_moves_come_with_their_anchors() {
    let c = collection(FILES);
    // A footnote question: the note and the sentence that references it.
    let (ctx, _) = context(
        "What does the footnote of the footnote test say?",
        &c,
        &QueryOptions::new(),
    );
    assert!(ctx.contains("[^1]: My note."), "{ctx}");
    assert!(ctx.contains("Test footnote.[^1]"), "{ctx}");
    // A comment question: the comment, its author and the text it marks.
    let (ctx, _) = context(
        "Which comment spans two paragraphs, and who wrote it?",
        &c,
        &QueryOptions::new(),
    );
    assert!(ctx.contains("A comment across paragraphs."), "{ctx}");
    assert!(ctx.contains("author=\"Jesse Rosenthal\""));
    assert!(
        ctx.contains("<mark comment=\"1\">a new paragraph.</mark>"),
        "{ctx}"
    );
    // A move: both halves of the tracked change.
    let (ctx, _) = context(
        "Which text was moved in the move test?",
        &c,
        &QueryOptions::new(),
    );
    assert!(ctx.contains("type=\"move-to\""), "{ctx}");
    assert!(ctx.contains("type=\"move-from\""), "{ctx}");
}

#[test]
fn a_paragraph_that_introduces_a_table_brings_it() {
    let c = collection(FILES);
    let (ctx, _) = context(
        "List every nonzero exit code of pandoc with its error name.",
        &c,
        &QueryOptions::new(),
    );
    // The manual draws the codes as a pandoc simple table: read as a table, each
    // code is a row.
    for code in [
        "| 1 | PandocIOError |",
        "PandocResourceNotFound",
        "PandocLuaError",
    ] {
        assert!(ctx.contains(code), "{code} missing:\n{ctx}");
    }
}

#[test]
fn the_cost_stays_flat_as_the_collection_grows_and_percentages_do_not() {
    let q = "Which comment spans two paragraphs, and who wrote it?";
    let small = collection(&FILES[..3]);
    let big = collection(FILES);
    let cost = |c: &Collection, o: &QueryOptions| {
        let r = ask(c, q, &[], &Replies::default(), o).unwrap();
        r.accounting.retrieval_tokens + r.accounting.enrichment_tokens
    };
    let budget = QueryOptions::new().with_token_budget(1_000).unwrap();
    assert!(cost(&small, &budget) <= 1_000);
    assert!(cost(&big, &budget) <= 1_000);
    // The seed's percentages scale with the collection: a share of the chunks that
    // share a word with the question, so one whose words most chunks hold.
    let seed = QueryOptions::new()
        .with_percents(15, 25, 10)
        .unwrap()
        .with_small_collection_tokens(0);
    let wide = |c: &Collection| {
        let q = "What are the estimates, the standard errors and the tables of each document?";
        let r = ask(c, q, &[], &Replies::default(), &seed).unwrap();
        r.accounting.retrieval_tokens + r.accounting.enrichment_tokens
    };
    let (a, b) = (wide(&small), wide(&big));
    assert!(b > a && a > 4 * 1_000, "percent mode: {a} -> {b} tokens");
}

#[test]
fn the_same_selection_gives_the_same_cached_prefix() {
    let c = collection(FILES);
    let o = QueryOptions::new();
    let (a, ra) = context("Who moved the text in the move test?", &c, &o);
    // Every hash map has its own random order: scores summed in hash order would
    // differ in their last bits between some of these runs.
    for _ in 0..16 {
        let (b, rb) = context("Who moved the text in the move test?", &c, &o);
        assert_eq!(a, b);
        assert_eq!(ra.sources, rb.sources);
    }
    assert!(QueryOptions::new().with_token_budget(0).is_err());
}

#[test]
fn a_title_without_letters_gives_way_to_the_file_name_so_a_question_can_name_it() {
    // docProps/core.xml of this file has the title ".".
    let mut c = Collection::new();
    let id = add_corpus_doc(&mut c, "pandoc__track_changes_scrubbed_metadata.docx", 1024);
    add_corpus_doc(&mut c, "pandoc__track_changes_move.docx", 1024);
    add_corpus_doc(&mut c, "pandoc__MANUAL.txt", 1024);
    let doc = &c.documents()[c.position(&id).unwrap()];
    assert_eq!(doc.title, "pandoc__track_changes_scrubbed_metadata");
    let r = ask(
        &c,
        "Which word replaced which in the scrubbed-metadata file?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .unwrap();
    assert!(r.sources.iter().any(|s| s.doc_id == id));
    assert!(
        r.payload
            .cached_prefix()
            .contains("<ins author=\"Author\">test</ins>")
    );
}
