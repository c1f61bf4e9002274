//! End-to-end: corpus documents -> collection -> question -> payload, answer and
//! citations, with the built-in defaults (BM25, heuristic classification,
//! extractive answer). Retrieval is forced (send-everything threshold 0) so the
//! selection and enrichment steps run on these small files.

mod common;
use common::add_corpus_doc;

use docrag::query::{
    Collection, Message, Mode, PathTaken, QueryOptions, Replies, VectorChunks, ask,
};

fn collection() -> (Collection, [String; 3]) {
    let mut c = Collection::new();
    let table = add_corpus_doc(&mut c, "poi__bug57031.docx", 120);
    let pics = add_corpus_doc(&mut c, "tika__testWORD_embedded_pics.docx", 80);
    let delins = add_corpus_doc(&mut c, "poi__delins.docx", 200);
    (c, [table, pics, delins])
}

fn retrieval(mode: Mode) -> QueryOptions {
    QueryOptions::new()
        .with_mode(mode)
        .with_small_collection_tokens(0)
}

#[test]
fn a_table_cell_question_gets_the_complete_table() {
    let (c, [table, ..]) = collection();
    let doc = &c.documents()[c.position(&table).unwrap()];
    // The table of the Wilcoxon row spans several chunks at 120 tokens.
    let cell = doc
        .chunks
        .iter()
        .find(|ch| ch.text.contains("<strong>Wilcoxon</strong>"))
        .unwrap();
    let table_id = cell.metadata.get_str("tableIds").unwrap().to_string();
    let parts: Vec<&str> = doc
        .chunks
        .iter()
        .filter(|ch| {
            ch.metadata
                .get_str("tableIds")
                .is_some_and(|t| t.split("; ").any(|x| x == table_id))
        })
        .map(|ch| ch.text.as_str())
        .collect();
    assert!(parts.len() >= 2, "the table spans {} chunks", parts.len());

    let q = "What is the Chi-Square value of the Wilcoxon test?";
    let r = ask(
        &c,
        q,
        &[],
        &Replies::default(),
        &retrieval(Mode::Rag(Some(2))),
    )
    .unwrap();
    assert_eq!(r.accounting.path, PathTaken::Pointed);
    assert!(r.accounting.enrichment_tokens > 0);
    let prefix = r.payload.cached_prefix();
    for p in &parts {
        assert!(
            prefix.contains(p),
            "table chunk missing from the payload:\n{p}"
        );
    }
    // The answer quotes the row and cites the chunk that holds it.
    assert!(r.answer.text.contains("0.7660"), "{}", r.answer.text);
    assert!(r.citations.grounded);
    let cited: Vec<(&str, usize)> = r
        .citations
        .citations
        .iter()
        .map(|c| (c.source.doc_id.as_str(), c.source.seq))
        .collect();
    let seq = cell.metadata.get_int("ssSeq").unwrap() as usize;
    assert!(cited.contains(&(table.as_str(), seq)));
    let last = r.payload.messages.last().unwrap();
    assert_eq!(last.content, q);
    assert!(matches!(r.vector_chunks, VectorChunks::Chunks(ref v) if !v.is_empty()));
}

#[test]
fn who_deleted_gets_the_revision_run_and_author() {
    let (c, [_, pics, delins]) = collection();
    let r = ask(
        &c,
        "Who deleted the pic?",
        &[],
        &Replies::default(),
        &retrieval(Mode::Rag(Some(3))),
    )
    .unwrap();
    let prefix = r.payload.cached_prefix();
    assert!(prefix.contains("<del author=\"Allison, Timothy B.\""));
    assert!(prefix.contains("deleted pic </del>"));
    assert!(
        r.answer.text.contains("Allison, Timothy B."),
        "{}",
        r.answer.text
    );
    let c0 = &r.citations.citations[0];
    assert_eq!(c0.source.doc_id, pics);
    // The file saved no layout: the cited page is the chunk's estimated one.
    let cited = &c.documents()[c.position(&pics).unwrap()].chunks[c0.source.seq];
    assert_eq!(
        c0.source.first_page,
        cited.metadata.get_int("firstPage").unwrap()
    );
    assert_eq!(c0.source.first_page, 3);
    assert_eq!(cited.metadata.get_str("pageSource"), Some("estimated"));

    // A deletion run over several chunks comes whole, with its author.
    let doc = &c.documents()[c.position(&delins).unwrap()];
    let run: Vec<&str> = doc
        .chunks
        .iter()
        .filter(|ch| ch.text.contains("<del author=\"pavel\""))
        .map(|ch| ch.text.as_str())
        .collect();
    assert!(!run.is_empty());
    let r = ask(
        &c,
        "Who deleted the Tika Waylan entry?",
        &[],
        &Replies::default(),
        &retrieval(Mode::Rag(Some(1))),
    )
    .unwrap();
    let prefix = r.payload.cached_prefix();
    assert!(prefix.contains("Tika Waylan"));
    for text in run {
        assert!(prefix.contains(text), "deletion chunk missing:\n{text}");
    }
    assert!(r.answer.text.contains("pavel"), "{}", r.answer.text);
}

#[test]
fn cached_prefix_is_byte_identical_for_the_same_context() {
    let (c, _) = collection();
    let o = retrieval(Mode::Rag(Some(1)));
    let a = ask(&c, "Wilcoxon", &[], &Replies::default(), &o).unwrap();
    let history = [
        Message::user("Wilcoxon"),
        Message::assistant(a.answer.text.clone()),
    ];
    let b = ask(
        &c,
        "What about Wilcoxon?",
        &history,
        &Replies::default(),
        &o,
    )
    .unwrap();
    let keys = |r: &docrag::query::QueryResult| -> Vec<(String, usize)> {
        r.sources
            .iter()
            .map(|s| (s.doc_id.clone(), s.seq))
            .collect()
    };
    assert_eq!(keys(&a), keys(&b));
    assert_eq!(
        a.payload.cached_prefix().as_bytes(),
        b.payload.cached_prefix().as_bytes()
    );
    assert_eq!(b.payload.messages.len(), 4);
    assert!(b.accounting.history_tokens > 0);
}

#[test]
fn entire_adaptive_and_adaptive_rag_modes() {
    let (c, _) = collection();
    let q = "Who deleted the pic?";
    let r = ask(&c, q, &[], &Replies::default(), &retrieval(Mode::Entire)).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Entire);
    assert_eq!(r.vector_chunks, VectorChunks::Marker(""));
    assert!(r.sources.is_empty() && r.citations.citations.is_empty());
    assert!(r.answer.text.contains("deleted pic"));
    let total: usize = c.documents().iter().map(|d| d.chars).sum();
    assert!(total < docrag::query::modes::ENTIRE_CHAR_CAP);

    let r = ask(&c, q, &[], &Replies::default(), &retrieval(Mode::Adaptive)).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Entire);

    let o = retrieval(Mode::AdaptiveRag).with_context_window(3_000);
    let r = ask(&c, q, &[], &Replies::default(), &o).unwrap();
    assert_eq!(r.accounting.path, PathTaken::AdaptiveRag);
    assert!(r.accounting.truncated);
    assert!(!r.sources.is_empty());
    assert!(r.citations.grounded);
    assert!(r.payload.cached_prefix().contains("[TRUNCATED"));
}

#[test]
fn small_collections_send_everything_and_broad_questions_cover_every_document() {
    let (c, ids) = collection();
    // Under a token budget: everything when the collection fits it.
    let fits = QueryOptions::new()
        .with_token_budget(c.total_tokens())
        .unwrap()
        .with_max_sources(c.total_chunks())
        .unwrap();
    let r = ask(&c, "Summarize", &[], &Replies::default(), &fits).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Everything);
    assert_eq!(r.sources.len(), c.total_chunks());
    let tight = QueryOptions::new()
        .with_token_budget(c.total_tokens() - 1)
        .unwrap();
    let r = ask(&c, "Summarize", &[], &Replies::default(), &tight).unwrap();
    assert_ne!(r.accounting.path, PathTaken::Everything);
    // With the percentage controls: below the 20,000-token threshold.
    assert!(c.total_tokens() < 20_000);
    let seed = QueryOptions::new()
        .with_percents(15, 25, 10)
        .unwrap()
        .with_max_sources(c.total_chunks())
        .unwrap();
    let r = ask(&c, "Summarize", &[], &Replies::default(), &seed).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Everything);
    assert_eq!(r.sources.len(), c.total_chunks());

    let r = ask(
        &c,
        "Give an overview of the main points",
        &[],
        &Replies::default(),
        &retrieval(Mode::Rag(None)),
    )
    .unwrap();
    assert_eq!(r.accounting.path, PathTaken::Broad);
    for id in &ids {
        assert!(
            r.sources.iter().any(|s| &s.doc_id == id),
            "{id} not covered"
        );
    }
}

#[test]
fn routing_replies_restrict_or_fall_back() {
    let (c, [table, pics, _]) = collection();
    let reply = format!("```\n{pics}: 95 | unknown-doc: 80\n```");
    let replies = Replies {
        routing: Some(&reply),
        classification: None,
    };
    let r = ask(
        &c,
        "Who deleted the pic?",
        &[],
        &replies,
        &retrieval(Mode::Rag(None)),
    )
    .unwrap();
    assert_eq!(r.accounting.path, PathTaken::RoutedWhole);
    assert!(r.accounting.routing_tokens > 0);
    assert!(r.sources.iter().all(|s| s.doc_id == pics));

    let replies = Replies {
        routing: Some("I am not sure."),
        classification: Some("POINTED"),
    };
    let r = ask(&c, "Wilcoxon", &[], &replies, &retrieval(Mode::Rag(None))).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Pointed);
    assert!(r.accounting.reason.contains("could not be read"));
    assert!(r.sources.iter().any(|s| s.doc_id == table));

    let replies = Replies {
        routing: Some("INDEX"),
        classification: None,
    };
    let r = ask(
        &c,
        "Which documents have revisions?",
        &[],
        &replies,
        &retrieval(Mode::Rag(None)),
    )
    .unwrap();
    assert_eq!(r.accounting.path, PathTaken::Index);
    assert!(r.payload.cached_prefix().contains(&format!("(id: {pics})")));
}
