//! Hybrid retrieval end-to-end: corpus documents converted with docrag::convert, chunk
//! embeddings from a deterministic fake model computed here (a hashed bag of words,
//! 64 dimensions), and questions with and without a query embedding.

mod common;
use common::{DIM, MODEL, add_corpus_doc, embed};

use docrag::query::{
    Collection, Mode, PathTaken, QueryOptions, Replies, Retrieval, Retriever, ask,
};

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let d: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let n = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    d / (n(a) * n(b))
}

fn collection(with_vectors: bool) -> (Collection, [String; 3]) {
    let mut c = Collection::new();
    let ids = [
        add_corpus_doc(&mut c, "poi__bug57031.docx", 120),
        add_corpus_doc(&mut c, "tika__testWORD_embedded_pics.docx", 80),
        add_corpus_doc(&mut c, "poi__delins.docx", 200),
    ];
    if with_vectors {
        for id in &ids {
            let doc = &c.documents()[c.position(id).unwrap()];
            let vectors: Vec<Vec<f32>> = doc.chunks.iter().map(|ch| embed(&ch.text)).collect();
            c.add_embeddings(id, MODEL, &vectors).unwrap();
        }
    }
    (c, ids)
}

fn retrieval(mode: Mode) -> QueryOptions {
    QueryOptions::new()
        .with_mode(mode)
        .with_small_collection_tokens(0)
}

/// The (doc id, seq) whose fake embedding is nearest `v`, over the documents `only`.
fn nearest(c: &Collection, v: &[f32], only: Option<&str>) -> (String, usize) {
    let mut best = (f32::MIN, String::new(), 0usize);
    for d in c.documents() {
        if only.is_some_and(|o| o != d.doc_id) {
            continue;
        }
        for (seq, ch) in d.chunks.iter().enumerate() {
            let s = cosine(v, &embed(&ch.text));
            if s > best.0 {
                best = (s, d.doc_id.clone(), seq);
            }
        }
    }
    (best.1, best.2)
}

fn retrieved(r: &docrag::query::QueryResult, doc: &str, seq: usize) -> bool {
    r.sources.iter().any(|s| s.doc_id == doc && s.seq == seq)
}

#[test]
fn with_embeddings_retrieval_is_hybrid_and_finds_the_nearest_chunk() {
    let (c, _) = collection(true);
    let store = c.embeddings().unwrap();
    assert_eq!((store.model_id(), store.dim()), (MODEL, DIM));
    assert_eq!(store.len(), c.total_chunks());

    let q = "What is the Chi-Square value of the Wilcoxon test?";
    let target = nearest(&c, &embed(q), None);
    // BM25's two decisive hits keep their places under the BM25-anchored fusion; the
    // cosine-nearest chunk (no BM25 match as strong) is admitted among the first five.
    let options = retrieval(Mode::Rag(Some(5))).with_query_embedding(MODEL, embed(q));
    let r = ask(&c, q, &[], &Replies::default(), &options).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Pointed);
    assert_eq!(r.accounting.retrieval, Some(Retrieval::Hybrid));
    assert!(
        r.accounting.reason.contains("retrieval: hybrid"),
        "{}",
        r.accounting.reason
    );
    assert!(
        retrieved(&r, &target.0, target.1),
        "{target:?} not retrieved"
    );
    let json = serde_json::to_value(&r.accounting).unwrap();
    assert_eq!(json["retrieval"], "hybrid");

    // Broad questions search each document with the same retriever.
    let q = "Summarize each document.";
    let options = retrieval(Mode::Rag(Some(6))).with_query_embedding(MODEL, embed(q));
    let r = ask(&c, q, &[], &Replies::default(), &options).unwrap();
    assert_eq!(r.accounting.path, PathTaken::Broad);
    assert!(r.accounting.retrieval.is_some());
    assert!(r.accounting.reason.contains("; retrieval: "));
}

#[test]
fn a_question_with_no_shared_word_is_answered_by_vectors_alone() {
    let (c, [_, pics, _]) = collection(true);
    let doc = &c.documents()[c.position(&pics).unwrap()];
    let seq = doc.chunks.len() - 1;
    // Words no chunk holds; the embedding is the chunk's own.
    let q = "Qzxv wqpt jjkr?";
    let options =
        retrieval(Mode::Rag(Some(1))).with_query_embedding(MODEL, embed(&doc.chunks[seq].text));
    let r = ask(&c, q, &[], &Replies::default(), &options).unwrap();
    assert_eq!(r.accounting.retrieval, Some(Retrieval::Vector));
    assert!(
        r.accounting.reason.contains("retrieval: vector"),
        "{}",
        r.accounting.reason
    );
    let (d, s) = nearest(&c, &embed(&doc.chunks[seq].text), None);
    assert!(retrieved(&r, &d, s));

    // Without the embedding, BM25 alone finds nothing.
    let r = ask(
        &c,
        q,
        &[],
        &Replies::default(),
        &retrieval(Mode::Rag(Some(1))),
    )
    .unwrap();
    assert!(r.sources.is_empty());
    assert_eq!(r.accounting.retrieval, None);

    // Another model's embedding is not used: BM25 alone, and the reason says why.
    let options = retrieval(Mode::Rag(Some(1))).with_query_embedding("other", embed("x y z"));
    let r = ask(&c, q, &[], &Replies::default(), &options).unwrap();
    assert_eq!(r.accounting.retrieval, Some(Retrieval::Bm25));
    assert!(
        r.accounting.reason.contains("not \"other\""),
        "{}",
        r.accounting.reason
    );
}

#[test]
fn vector_search_stays_within_the_routed_documents() {
    let (c, [table, pics, delins]) = collection(true);
    // The query embedding points into the table document...
    let doc = &c.documents()[c.position(&table).unwrap()];
    let v = embed(&doc.chunks[0].text);
    let q = "Qzxv wqpt jjkr?";
    let options = retrieval(Mode::Rag(None))
        .with_percents(1, 25, 0)
        .unwrap()
        .with_query_embedding(MODEL, v.clone());
    // ...but routing chose only the pictures and deletions documents; with a 1%
    // retrieval share they exceed the allowance, so they are searched, not sent whole.
    let reply = format!("{pics}: 95, {delins}: 90");
    let replies = Replies {
        routing: Some(&reply),
        classification: None,
    };
    let r = ask(&c, q, &[], &replies, &options).unwrap();
    assert_eq!(
        r.accounting.path,
        PathTaken::Broad,
        "{}",
        r.accounting.reason
    );
    assert_eq!(r.accounting.retrieval, Some(Retrieval::Vector));
    assert!(!r.sources.is_empty());
    assert!(r.sources.iter().all(|s| s.doc_id != table));
    let (d, s) = nearest(&c, &v, Some(&pics));
    let (d2, s2) = nearest(&c, &v, Some(&delins));
    assert!(retrieved(&r, &d, s) && retrieved(&r, &d2, s2));

    // The retriever itself: a restricted search never leaves its documents.
    let pos = c.position(&pics).unwrap();
    let ret = Retriever::new(&c, q, &options).unwrap();
    let hits = ret.search(50, &[pos]);
    assert!(!hits.is_empty() && hits.iter().all(|h| h.chunk.doc == pics));
    assert_eq!(ret.retrieval(), Some(Retrieval::Vector));
    assert!(
        c.vector_search(&v, 50, &[pos])
            .iter()
            .all(|h| h.chunk.doc == pics)
    );
    assert_eq!(c.vector_search(&v, 1, &[0, 1, 2])[0].chunk.doc, table);
}

#[test]
fn wrong_dimension_and_chunk_count_are_typed_errors() {
    let (mut c, [table, pics, _]) = collection(true);
    let n = c.documents()[c.position(&pics).unwrap()].chunks.len();

    let short = vec![vec![1.0f32; DIM - 1]; n];
    let e = c.add_embeddings(&pics, MODEL, &short).unwrap_err();
    assert_eq!(e.code(), "dimension-mismatch");
    assert!(matches!(
        e,
        docrag::query::QueryError::EmbeddingDimension { expected: DIM, got } if got == DIM - 1
    ));

    let e = c
        .add_embeddings(&pics, MODEL, &vec![vec![1.0f32; DIM]; n + 1])
        .unwrap_err();
    assert_eq!(e.code(), "embedding-count-mismatch");

    let e = c
        .add_embeddings(&pics, "other", &vec![vec![1.0f32; DIM]; n])
        .unwrap_err();
    assert_eq!(e.code(), "embedding-model-mismatch");
    let e = c.add_embeddings("nope", MODEL, &[]).unwrap_err();
    assert_eq!(e.code(), "unknown-document");
    let mut zero = vec![vec![1.0f32; DIM]; n];
    zero[0] = vec![0.0; DIM];
    assert_eq!(
        c.add_embeddings(&pics, MODEL, &zero).unwrap_err().code(),
        "zero-vector"
    );

    // The flat form: chunks x dim components.
    let flat = vec![1.0f32; n * DIM - 3];
    assert_eq!(
        c.add_embeddings_flat(&pics, MODEL, &flat, DIM)
            .unwrap_err()
            .code(),
        "dimension-mismatch"
    );
    let flat = vec![0.5f32; n * DIM];
    c.add_embeddings_flat(&pics, MODEL, &flat, DIM).unwrap();
    // Nothing was lost on the errors, and replacing kept one vector per chunk.
    assert_eq!(c.embeddings().unwrap().len(), c.total_chunks());

    // A query embedding of the collection's model but another dimension.
    let options = retrieval(Mode::Rag(Some(2))).with_query_embedding(MODEL, vec![1.0; 3]);
    let e = ask(&c, "Wilcoxon?", &[], &Replies::default(), &options).unwrap_err();
    assert_eq!(e.code(), "dimension-mismatch");
    let options = retrieval(Mode::Rag(Some(2))).with_query_embedding(MODEL, vec![f32::NAN; DIM]);
    let e = ask(&c, "Wilcoxon?", &[], &Replies::default(), &options).unwrap_err();
    assert_eq!(e.code(), "non-finite-vector");
    let _ = table;
}

#[test]
fn without_a_query_embedding_the_output_is_unchanged() {
    let (plain, _) = collection(false);
    let (embedded, _) = collection(true);
    for (q, mode) in [
        (
            "What is the Chi-Square value of the Wilcoxon test?",
            Mode::Rag(Some(2)),
        ),
        ("Summarize each document.", Mode::Rag(Some(6))),
        ("Who deleted the pic?", Mode::AdaptiveRag),
    ] {
        let o = retrieval(mode);
        let a = ask(&plain, q, &[], &Replies::default(), &o).unwrap();
        let b = ask(&embedded, q, &[], &Replies::default(), &o).unwrap();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        let json = serde_json::to_value(&a.accounting).unwrap();
        assert!(json.get("retrieval").is_none());
        assert!(!a.accounting.reason.contains("retrieval:"));
    }
}
