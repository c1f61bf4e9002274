//! Retrieval: cosine top-k against a brute-force reference, ties, restriction, errors,
//! persistence, BM25 over real corpus chunks (Latin, Cyrillic, CJK), and fusion.

use docrag::retrieve::{
    Bm25Index, Bm25Params, ChunkRef, Hit, RetrieveError, VectorIndex, hybrid,
    reciprocal_rank_fusion,
};

/// xorshift32: a tiny deterministic generator (the same one the bench uses).
struct Rng(u32);

impl Rng {
    fn unit(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x as f64 / 2_147_483_648.0 - 1.0) as f32
    }

    fn vector(&mut self, dim: usize) -> Vec<f32> {
        (0..dim).map(|_| self.unit()).collect()
    }
}

struct Row {
    doc: String,
    seq: u32,
    v: Vec<f32>,
}

fn random_rows(n: usize, dim: usize, seed: u32) -> Vec<Row> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|i| Row {
            doc: format!("doc-{}", (i * 7) % 13),
            seq: i as u32,
            v: rng.vector(dim),
        })
        .collect()
}

/// Cosine in f64, sorted best first with ties by (doc, seq).
fn brute_force(rows: &[Row], q: &[f32], k: usize, docs: Option<&[&str]>) -> Vec<(ChunkRef, f64)> {
    let norm = |v: &[f32]| v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
    let qn = norm(q);
    let mut all: Vec<(ChunkRef, f64)> = rows
        .iter()
        .filter(|r| docs.is_none_or(|d| d.contains(&r.doc.as_str())))
        .map(|r| {
            let dot: f64 =
                r.v.iter()
                    .zip(q)
                    .map(|(&a, &b)| f64::from(a) * f64::from(b))
                    .sum();
            (ChunkRef::new(r.doc.clone(), r.seq), dot / norm(&r.v) / qn)
        })
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(k);
    all
}

fn build(rows: &[Row], dim: usize) -> VectorIndex {
    let mut index = VectorIndex::new(dim).unwrap();
    for r in rows {
        index.add(&r.doc, r.seq, &r.v).unwrap();
    }
    index
}

/// Same scores position by position; same chunks wherever the reference order is not
/// a near-tie (f32 vs f64 rounding may swap chunks whose cosines differ by < 1e-5).
fn assert_matches(got: &[Hit], want: &[(ChunkRef, f64)]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, (c, s))) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(g.score) - s).abs() < 1e-5,
            "rank {i}: {} vs {s}",
            g.score
        );
        let near_tie = want.iter().any(|(o, t)| o != c && (t - s).abs() < 1e-5);
        if !near_tie {
            assert_eq!(&g.chunk, c, "rank {i}");
        }
    }
}

#[test]
fn cosine_top_k_equals_brute_force() {
    for (dim, n) in [(37usize, 1500usize), (384, 800), (1, 50)] {
        let rows = random_rows(n, dim, 0x1234_5678 ^ dim as u32);
        let index = build(&rows, dim);
        let mut rng = Rng(99);
        for k in [1usize, 10, 57, n + 5] {
            let q = rng.vector(dim);
            assert_matches(
                &index.search(&q, k).unwrap(),
                &brute_force(&rows, &q, k, None),
            );
        }
    }
}

#[test]
fn restriction_to_documents_equals_brute_force_over_them() {
    let rows = random_rows(1000, 24, 7);
    let index = build(&rows, 24);
    let q = Rng(5).vector(24);
    let docs = ["doc-3", "doc-11", "no-such-doc"];
    let got = index.search_in(&q, 20, &docs).unwrap();
    assert!(
        got.iter()
            .all(|h| h.chunk.doc == "doc-3" || h.chunk.doc == "doc-11")
    );
    assert_matches(&got, &brute_force(&rows, &q, 20, Some(&docs)));
    assert!(index.search_in(&q, 20, &[] as &[&str]).unwrap().is_empty());
}

#[test]
fn ties_break_by_doc_then_seq_whatever_the_insertion_order() {
    let same = [0.6f32, 0.8];
    let keys = [("b", 2u32), ("a", 9), ("b", 1), ("c", 0), ("a", 3)];
    let mut forward = VectorIndex::new(2).unwrap();
    let mut backward = VectorIndex::new(2).unwrap();
    for &(d, s) in &keys {
        forward.add(d, s, &same).unwrap();
    }
    for &(d, s) in keys.iter().rev() {
        backward.add(d, s, &[3.0, 4.0]).unwrap(); // same direction, other length
    }
    let a = forward.search(&[1.0, 1.0], 4).unwrap();
    let b = backward.search(&[1.0, 1.0], 4).unwrap();
    let order: Vec<(&str, u32)> = a
        .iter()
        .map(|h| (h.chunk.doc.as_str(), h.chunk.seq))
        .collect();
    assert_eq!(order, [("a", 3), ("a", 9), ("b", 1), ("b", 2)]);
    assert_eq!(a, b);
}

#[test]
fn bad_vectors_are_typed_errors() {
    assert_eq!(VectorIndex::new(0).unwrap_err().code(), "invalid-dimension");
    let mut index = VectorIndex::new(3).unwrap();
    let err = index.add("d", 0, &[1.0, 2.0]).unwrap_err();
    assert_eq!(
        err,
        RetrieveError::DimensionMismatch {
            expected: 3,
            got: 2
        }
    );
    assert_eq!(err.code(), "dimension-mismatch");
    assert_eq!(
        index.add("d", 0, &[0.0; 3]).unwrap_err(),
        RetrieveError::ZeroVector
    );
    assert_eq!(
        index.add("d", 0, &[1e-45, 0.0, 0.0]).unwrap_err(),
        RetrieveError::ZeroVector
    );
    assert_eq!(
        index.add("d", 0, &[1.0, f32::NAN, 0.0]).unwrap_err(),
        RetrieveError::NonFinite { index: 1 }
    );
    index.add("d", 0, &[f32::MAX, f32::MAX, 0.0]).unwrap(); // no overflow in the norm
    assert_eq!(
        index.add("d", 0, &[1.0, 0.0, 0.0]).unwrap_err().code(),
        "duplicate-chunk"
    );
    assert_eq!(
        index.search(&[1.0; 4], 3).unwrap_err().code(),
        "dimension-mismatch"
    );
    assert_eq!(
        index.search(&[0.0; 3], 3).unwrap_err().code(),
        "zero-vector"
    );
    assert!(index.search(&[1.0; 3], 0).unwrap().is_empty());
    assert_eq!(index.len(), 1);
}

#[test]
fn removing_a_document_equals_never_adding_it() {
    let rows = random_rows(600, 16, 3);
    let mut index = build(&rows, 16);
    assert_eq!(
        index.remove_document("doc-5"),
        rows.iter().filter(|r| r.doc == "doc-5").count()
    );
    assert_eq!(index.remove_document("doc-5"), 0);
    let kept: Vec<Row> = rows.into_iter().filter(|r| r.doc != "doc-5").collect();
    let q = Rng(8).vector(16);
    assert_eq!(
        index.search(&q, 30).unwrap(),
        build(&kept, 16).search(&q, 30).unwrap()
    );
    index.add("doc-5", 0, &q).unwrap();
    assert_eq!(
        index.search(&q, 1).unwrap()[0].chunk,
        ChunkRef::new("doc-5", 0)
    );
}

#[test]
fn vector_index_round_trips_and_rejects_bad_bytes() {
    let rows = random_rows(200, 12, 11);
    let index = build(&rows, 12);
    let bytes = index.to_bytes();
    assert_eq!(&bytes[..4], b"DRVX");
    let back = VectorIndex::from_bytes(&bytes).unwrap();
    let q = Rng(1).vector(12);
    assert_eq!(back.search(&q, 15).unwrap(), index.search(&q, 15).unwrap());
    assert_eq!((back.len(), back.dim()), (200, 12));

    for cut in 0..bytes.len() {
        let err = VectorIndex::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err.code(), "not-an-index" | "corrupt-index"),
            "cut {cut}: {err}"
        );
    }
    let mut other = bytes.clone();
    other[4] = 2;
    assert_eq!(
        VectorIndex::from_bytes(&other).unwrap_err(),
        RetrieveError::UnsupportedVersion {
            kind: "vector",
            version: 2,
            supported: 1
        }
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        VectorIndex::from_bytes(&longer).unwrap_err().code(),
        "corrupt-index"
    );
    let mut scaled = bytes.clone();
    let last = scaled.len() - 2;
    scaled[last] ^= 0x40; // a vector component's exponent: no longer unit length
    assert_eq!(
        VectorIndex::from_bytes(&scaled).unwrap_err().code(),
        "corrupt-index"
    );
    let mut huge = bytes;
    huge[10..14].copy_from_slice(&u32::MAX.to_le_bytes()); // document count
    assert_eq!(
        VectorIndex::from_bytes(&huge).unwrap_err().code(),
        "corrupt-index"
    );
    assert_eq!(
        VectorIndex::from_bytes(b"BM25 nope").unwrap_err().code(),
        "not-an-index"
    );
}

#[test]
fn large_indexes_hold_each_vector_once_and_load_a_block_at_a_time() {
    // 1,200 vectors of 1,536 dimensions (7.4 MB) span several storage blocks.
    let (n, dim) = (1_200, 1_536);
    let rows = random_rows(n, dim, 21);
    let mut index = build(&rows, dim);
    let vector_bytes = n * dim * 4;
    let held = index.vector_bytes_allocated();
    assert!(
        held >= vector_bytes && held * 10 <= vector_bytes * 12,
        "{held} bytes held for {vector_bytes} bytes of vectors"
    );
    let bytes = index.to_bytes();
    let mut largest_read = 0;
    let loaded = VectorIndex::from_source(bytes.len(), &mut |at, buf| {
        largest_read = largest_read.max(buf.len());
        buf.copy_from_slice(&bytes[at..at + buf.len()]);
    })
    .unwrap();
    assert!(largest_read <= 1 << 17, "read {largest_read} bytes at once");
    let q = Rng(5).vector(dim);
    assert_eq!(
        loaded.search(&q, 20).unwrap(),
        index.search(&q, 20).unwrap()
    );
    assert!(loaded.vector_bytes_allocated() * 10 <= vector_bytes * 12);
    // Removing a document moves rows across blocks.
    let removed = index.remove_document("doc-2");
    assert!(removed > 0);
    let kept: Vec<Row> = rows.into_iter().filter(|r| r.doc != "doc-2").collect();
    assert_eq!(
        index.search(&q, 20).unwrap(),
        build(&kept, dim).search(&q, 20).unwrap()
    );
}

#[test]
fn hostile_headers_are_corrupt_not_panics() {
    let header = |dim: u32, names: &[&str], rows: &[(u32, u32)], vectors: &[f32]| {
        let mut b = b"DRVX".to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&dim.to_le_bytes());
        b.extend_from_slice(&(names.len() as u32).to_le_bytes());
        for n in names {
            b.extend_from_slice(&(n.len() as u32).to_le_bytes());
            b.extend_from_slice(n.as_bytes());
        }
        b.extend_from_slice(&(rows.len() as u32).to_le_bytes());
        for (d, s) in rows {
            b.extend_from_slice(&d.to_le_bytes());
            b.extend_from_slice(&s.to_le_bytes());
        }
        for x in vectors {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    };
    // A huge dimension with no rows loads as an empty index without allocating it.
    for dim in [0x3fff_ffff, 0x4000_0001, u32::MAX] {
        let index = VectorIndex::from_bytes(&header(dim, &[], &[], &[])).unwrap();
        assert_eq!((index.len(), index.dim()), (0, dim as usize));
    }
    // The same document id twice would make rows point past the id table.
    let twice = header(2, &["a", "a"], &[(0, 0), (1, 0)], &[1.0, 0.0, 1.0, 0.0]);
    assert_eq!(
        VectorIndex::from_bytes(&twice).unwrap_err().code(),
        "corrupt-index"
    );
}

/// Every chunk of a few corpus files, as (doc id, seq, text).
fn corpus_chunks() -> Vec<(String, u32, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let files = [
        "poi__bug57031.docx",
        "poi__bug65649.docx",
        "tika__testRTFJapanese.rtf",
        "es6tutorial__proxy.md",
        "pandoc__MANUAL.txt",
        "pandoc__comments.docx",
    ];
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(dir.join(f)).unwrap();
        let options = docrag::ConvertOptions::new()
            .with_file_name(f)
            .with_max_tokens(256)
            .unwrap();
        let conversion = docrag::convert(&bytes, &options).unwrap();
        for (i, chunk) in conversion.chunks.iter().enumerate() {
            out.push((f.to_string(), i as u32, chunk.text.clone()));
        }
    }
    out
}

#[test]
fn bm25_ranks_the_chunk_with_a_distinctive_phrase_first() {
    let chunks = corpus_chunks();
    assert!(chunks.len() > 100, "{} chunks", chunks.len());
    let mut index = Bm25Index::new();
    for (doc, seq, text) in &chunks {
        index.add(doc, *seq, text).unwrap();
    }
    let cases = [
        ("18.2899", "mean 18.2899 standard error"), // a table cell (bug57031)
        ("Варфоломеевская", "варфоломеевская"),     // Russian, lowercased (bug65649)
        ("市谷刑務所", "市谷刑務所の処刑記録"),     // Japanese bigrams (RTF)
        ("元编程", "什么是元编程"),                 // Chinese bigrams (proxy.md)
    ];
    for (needle, query) in cases {
        let holders: Vec<ChunkRef> = chunks
            .iter()
            .filter(|(_, _, t)| t.contains(needle))
            .map(|(d, s, _)| ChunkRef::new(d.clone(), *s))
            .collect();
        assert!(!holders.is_empty(), "no chunk holds {needle}");
        let hits = index.search(query, 5);
        assert!(
            holders.contains(&hits[0].chunk),
            "{query}: got {:?}, want one of {holders:?}",
            hits[0]
        );
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    }
    let only = index.search_in("市谷刑務所", 10, &["poi__bug57031.docx"]);
    assert!(only.iter().all(|h| h.chunk.doc == "poi__bug57031.docx"));
    assert!(index.search("", 5).is_empty());
    assert!(index.search("zzqxqzz", 5).is_empty());
}

#[test]
fn bm25_persists_removes_and_breaks_ties() {
    let chunks = corpus_chunks();
    let mut index = Bm25Index::new();
    for (doc, seq, text) in &chunks {
        index.add(doc, *seq, text).unwrap();
    }
    let bytes = index.to_bytes();
    let back = Bm25Index::from_bytes(&bytes).unwrap();
    for q in ["pandoc markdown tables", "Proxy 拦截", "контракт"] {
        assert_eq!(back.search(q, 10), index.search(q, 10));
    }
    for cut in [0, 3, 5, 6, 13, bytes.len() / 2, bytes.len() - 1] {
        let err = Bm25Index::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err.code(), "not-an-index" | "corrupt-index"),
            "cut {cut}: {err}"
        );
    }
    let mut v9 = bytes.clone();
    v9[4] = 9;
    assert_eq!(
        Bm25Index::from_bytes(&v9).unwrap_err().code(),
        "unsupported-index-version"
    );

    // Removal equals never adding (BM25 statistics included).
    index.remove_document("pandoc__MANUAL.txt");
    let mut without = Bm25Index::new();
    for (doc, seq, text) in chunks.iter().filter(|c| c.0 != "pandoc__MANUAL.txt") {
        without.add(doc, *seq, text).unwrap();
    }
    for q in ["comment author", "Proxy 拦截", "18.2899"] {
        assert_eq!(index.search(q, 10), without.search(q, 10));
    }
    assert_eq!(
        index
            .add("es6tutorial__proxy.md", 0, "x")
            .unwrap_err()
            .code(),
        "duplicate-chunk"
    );

    // Ties: identical texts score equally and come back in (doc, seq) order.
    let mut tied = Bm25Index::new();
    for (d, s) in [("b", 1), ("a", 2), ("b", 0), ("a", 1)] {
        tied.add(d, s, "same words here").unwrap();
    }
    let order: Vec<_> = tied
        .search("words", 3)
        .into_iter()
        .map(|h| (h.chunk.doc, h.chunk.seq))
        .collect();
    assert_eq!(order, [("a".into(), 1), ("a".into(), 2), ("b".into(), 0)]);

    assert_eq!(
        Bm25Index::with_params(Bm25Params { k1: -1.0, b: 0.5 })
            .unwrap_err()
            .code(),
        "invalid-parameter"
    );
    assert!(Bm25Index::with_params(Bm25Params { k1: 1.0, b: 1.5 }).is_err());
}

fn hit(doc: &str, seq: u32, score: f32) -> Hit {
    Hit {
        chunk: ChunkRef::new(doc, seq),
        score,
    }
}

#[test]
fn reciprocal_rank_fusion_on_a_hand_example() {
    let vector = [hit("a", 0, 0.9), hit("b", 0, 0.8), hit("c", 0, 0.7)];
    let lexical = [hit("c", 0, 12.0), hit("a", 0, 9.0), hit("d", 0, 1.0)];
    let fused = reciprocal_rank_fusion(&[&vector, &lexical], 60.0, 10);
    let order: Vec<&str> = fused.iter().map(|h| h.chunk.doc.as_str()).collect();
    // a: 1/61 + 1/62; c: 1/63 + 1/61; b: 1/62; d: 1/63.
    assert_eq!(order, ["a", "c", "b", "d"]);
    assert!((fused[0].score - (1.0 / 61.0 + 1.0 / 62.0)).abs() < 1e-7);
    // Symmetric ranks tie, and the tie goes to the smaller (doc, seq).
    let x = [hit("y", 0, 1.0), hit("x", 0, 0.5)];
    let y = [hit("x", 0, 1.0), hit("y", 0, 0.5)];
    let tied = reciprocal_rank_fusion(&[&x, &y], 60.0, 2);
    assert_eq!(tied[0].chunk.doc, "x");
    assert_eq!(tied[0].score, tied[1].score);
    // Hybrid: fusion only when both exist.
    assert_eq!(hybrid(Some(&vector), None, 2), vector[..2].to_vec());
    assert_eq!(hybrid(Some(&vector), Some(&lexical), 1)[0].chunk.doc, "a");
    assert!(hybrid(None, None, 5).is_empty());
}
