//! Hybrid retrieval's fusion (BM25-anchored convex combination of normalized scores,
//! `docrag::retrieve::lexical_anchored_fusion`): a hand example with exact scores, and
//! real corpus documents with a deterministic fake embedding model (a hashed bag of
//! words, 64 dimensions) through the query [`Retriever`]: a strong BM25 ranking keeps
//! its top hits while a chunk that shares no word with the question, but is nearest in
//! cosine, is still admitted; and BM25 finding nothing leaves the vector hits alone.

mod common;
use common::{MODEL, add_corpus_doc, embed};

use docrag::query::{Collection, QueryOptions, Retrieval, Retriever};
use docrag::retrieve::{AnchoredFusion, ChunkRef, Hit, anchored_hybrid, lexical_anchored_fusion};

fn hit(doc: &str, seq: u32, score: f32) -> Hit {
    Hit {
        chunk: ChunkRef::new(doc, seq),
        score,
    }
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn anchored_fusion_on_a_hand_example() {
    // BM25: one decisive hit and a tail. Cosine: a chunk BM25 missed is nearest.
    let lexical = [hit("a", 0, 10.0), hit("b", 0, 4.0), hit("c", 0, 1.0)];
    let vector = [
        hit("v", 0, 0.60),
        hit("a", 0, 0.55),
        hit("c", 0, 0.50),
        hit("b", 0, 0.30),
        hit("w", 0, 0.20),
    ];
    let w = AnchoredFusion {
        lexical: 0.7,
        floor: 0.5,
    };
    let fused = lexical_anchored_fusion(&lexical, &vector, w, 10);
    let order: Vec<&str> = fused.iter().map(|h| h.chunk.doc.as_str()).collect();
    // floor 0.3 (half the best 0.6), span 0.3:
    // a: 0.7 x 1 + 0.3 x (0.25 / 0.3) = 0.95; v: 0.3 x 1 = 0.3;
    // b: 0.7 x 0.4 + 0 = 0.28; c: 0.7 x 0.1 + 0.3 x (0.2 / 0.3) = 0.27;
    // w: below the floor, and in no BM25 list: not admitted.
    assert_eq!(order, ["a", "v", "b", "c"]);
    assert!(close(fused[0].score, 0.95), "{fused:?}");
    assert!(close(fused[1].score, 0.3), "{fused:?}");
    assert!(close(fused[2].score, 0.28), "{fused:?}");
    assert!(close(fused[3].score, 0.27), "{fused:?}");
    // The limit truncates after ordering.
    assert_eq!(lexical_anchored_fusion(&lexical, &vector, w, 2).len(), 2);
    // Reciprocal-rank fusion of the same lists admits every cosine hit, the
    // unrelated tail ("w") included.
    let rrf = docrag::retrieve::reciprocal_rank_fusion(&[&vector, &lexical], 60.0, 10);
    assert_eq!(rrf[0].chunk.doc, "a");
    assert!(rrf.iter().any(|h| h.chunk.doc == "w"));
    // Weight 1: BM25 alone, its order and its normalized scores.
    let only = lexical_anchored_fusion(
        &lexical,
        &vector,
        AnchoredFusion {
            lexical: 1.0,
            floor: 0.5,
        },
        10,
    );
    let order: Vec<&str> = only.iter().map(|h| h.chunk.doc.as_str()).collect();
    assert_eq!(order, ["a", "b", "c"]);
    assert!(close(only[1].score, 0.4));
    // Out-of-range and NaN weights are clamped or defaulted, never a panic or NaN.
    for bad in [
        AnchoredFusion {
            lexical: f32::NAN,
            floor: f32::NAN,
        },
        AnchoredFusion {
            lexical: 7.0,
            floor: -3.0,
        },
    ] {
        let f = lexical_anchored_fusion(&lexical, &vector, bad, 10);
        assert!(!f.is_empty() && f.iter().all(|h| h.score.is_finite()));
    }
    // An empty list on either side: the other's normalized contribution.
    assert!(close(
        lexical_anchored_fusion(&lexical, &[], w, 1)[0].score,
        0.7
    ));
    assert!(lexical_anchored_fusion(&[], &[], w, 5).is_empty());
    // Hybrid retrieval's rule: the default fusion, or the cosine top hits unchanged
    // when no chunk shares a word with the question.
    let fused = anchored_hybrid(&lexical, vector.to_vec(), 3);
    assert_eq!(
        fused,
        lexical_anchored_fusion(&lexical, &vector, AnchoredFusion::DEFAULT, 3)
    );
    assert_eq!(fused[0].chunk.doc, "a");
    assert_eq!(
        anchored_hybrid(&[], vector.to_vec(), 2),
        vector[..2].to_vec()
    );
}

/// Three corpus documents with fake embeddings of every chunk.
fn collection() -> Collection {
    let mut c = Collection::new();
    let ids = [
        add_corpus_doc(&mut c, "poi__bug57031.docx", 120),
        add_corpus_doc(&mut c, "tika__testWORD_embedded_pics.docx", 80),
        add_corpus_doc(&mut c, "poi__delins.docx", 200),
    ];
    for id in &ids {
        let doc = &c.documents()[c.position(id).unwrap()];
        let vectors: Vec<Vec<f32>> = doc.chunks.iter().map(|ch| embed(&ch.text)).collect();
        c.add_embeddings(id, MODEL, &vectors).unwrap();
    }
    c
}

fn key(h: &Hit) -> (String, u32) {
    (h.chunk.doc.clone(), h.chunk.seq)
}

#[test]
fn strong_bm25_hits_keep_their_ranks_and_a_cosine_only_chunk_is_admitted() {
    let c = collection();
    let all: Vec<usize> = (0..c.documents().len()).collect();
    let q = "What is the Chi-Square value of the Wilcoxon test?";
    let k = 10;
    // Every chunk BM25 can find for the question; the "paraphrase" is a chunk of the
    // deletions document among the rest (no word in common with the question), and
    // the query embedding points at it.
    let lexical_all = c.search(q, c.total_chunks(), &all);
    let delins = c.position(&c.documents()[2].doc_id).unwrap();
    let doc = &c.documents()[delins];
    let seq = (0..doc.chunks.len())
        .rev()
        .find(|&s| {
            !lexical_all
                .iter()
                .any(|h| h.chunk.doc == doc.doc_id && h.chunk.seq as usize == s)
        })
        .expect("a chunk sharing no word with the question");
    let target = (doc.doc_id.clone(), seq as u32);
    let v = embed(&doc.chunks[seq].text);

    let options = QueryOptions::new().with_query_embedding(MODEL, v.clone());
    let r = Retriever::new(&c, q, &options).unwrap();
    let fused = r.search(k, &all);
    assert_eq!(r.retrieval(), Some(Retrieval::Hybrid));
    assert_eq!(fused.len(), k);
    let bm25 = c.search(q, k, &all);
    assert!(bm25.len() >= 3, "{bm25:?}");
    // BM25's best keeps the first rank and its three best stay in the fused top 4...
    assert_eq!(key(&fused[0]), key(&bm25[0]), "{fused:?}");
    assert!(fused[0].score >= AnchoredFusion::DEFAULT.lexical);
    for h in &bm25[..3] {
        assert!(
            fused[..4].iter().any(|f| key(f) == key(h)),
            "{h:?} not in {fused:?}"
        );
    }
    // ...and the chunk only cosine finds is admitted, at the cosine weight (its own
    // embedding: cosine 1, the best).
    let got = fused
        .iter()
        .find(|h| key(h) == target)
        .unwrap_or_else(|| panic!("{target:?} not in {fused:?}"));
    assert!(
        close(got.score, 1.0 - AnchoredFusion::DEFAULT.lexical),
        "{got:?}"
    );
    // Chunks far from the query vector and without a shared word are not admitted:
    // every fused hit is a BM25 hit or the cosine-nearest.
    let near = c.vector_search(&v, c.total_chunks(), &all);
    let best = near[0].score;
    for h in &fused {
        let lexical = lexical_all.iter().any(|l| key(l) == key(h));
        let cos = near.iter().find(|n| key(n) == key(h)).unwrap().score;
        assert!(
            lexical || cos > AnchoredFusion::DEFAULT.floor * best,
            "{h:?} admitted with cosine {cos}"
        );
    }
    // Both scores of every chunk are fused, whatever k: a smaller k is a prefix.
    assert_eq!(r.search(3, &all), fused[..3].to_vec());
    // Reciprocal-rank fusion of the same top-k lists gives half its places to the
    // cosine list, related or not: fewer of BM25's hits survive.
    let vector_k = c.vector_search(&v, k, &all);
    let rrf = docrag::retrieve::reciprocal_rank_fusion(&[&vector_k, &bm25], 60.0, k);
    let kept = |list: &[Hit]| {
        list.iter()
            .filter(|h| bm25.iter().any(|b| key(b) == key(h)))
            .count()
    };
    assert!(kept(&fused) > kept(&rrf), "{fused:?}\n{rrf:?}");
}

#[test]
fn without_a_shared_word_the_vector_hits_are_returned_alone() {
    let c = collection();
    let all: Vec<usize> = (0..c.documents().len()).collect();
    let doc = &c.documents()[1];
    let v = embed(&doc.chunks[doc.chunks.len() - 1].text);
    let q = "Qzxv wqpt jjkr?";
    assert!(c.search(q, 5, &all).is_empty());
    let options = QueryOptions::new().with_query_embedding(MODEL, v.clone());
    let r = Retriever::new(&c, q, &options).unwrap();
    let hits = r.search(5, &all);
    assert_eq!(r.retrieval(), Some(Retrieval::Vector));
    // Exactly cosine top-5, with the cosines as scores.
    assert_eq!(hits, c.vector_search(&v, 5, &all));
    assert!(close(hits[0].score, 1.0), "{hits:?}");
}
