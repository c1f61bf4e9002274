//! A deterministic small BERT for tests: the real architecture and file formats with a
//! 32-wide, 2-layer encoder, a 78-entry WordPiece vocabulary (letters, digits, their
//! `##` continuations, punctuation) and weights from a fixed pseudo-random sequence,
//! so every build writes the same bytes and tests need no download. Its vectors
//! mean nothing; they only exercise loading, tokenizing, pooling and transport.

/// `config.json` of the test model.
pub fn config_json() -> String {
    serde_json::json!({
        "model_type": "bert",
        "architectures": ["BertModel"],
        "vocab_size": vocabulary().len(),
        "hidden_size": 32,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "intermediate_size": 64,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "max_position_embeddings": 64,
        "type_vocab_size": 2,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 0,
        "position_embedding_type": "absolute"
    })
    .to_string()
}

/// Most tokens per text for the test model.
pub const MAX_TOKENS: usize = 64;

fn vocabulary() -> Vec<String> {
    let mut v: Vec<String> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let symbols = ('a'..='z').chain('0'..='9');
    v.extend(symbols.clone().map(String::from));
    v.extend(symbols.take(26).map(|c| format!("##{c}")));
    v.extend(".,;:!?-()'\"".chars().map(String::from));
    v
}

/// `tokenizer.json` of the test model: BERT's normaliser (lower case, accents
/// stripped), pre-tokenizer and [CLS]/[SEP] post-processing over WordPiece.
///
/// # Errors
/// [`crate::EmbedError::Tokenizer`] if `tokenizers` refuses the vocabulary or cannot
/// serialise the tokenizer (neither happens with this fixed vocabulary).
pub fn tokenizer_json() -> Result<String, crate::EmbedError> {
    let tokenizer_error = |e: tokenizers::Error| crate::EmbedError::Tokenizer(e.to_string());
    use tokenizers::models::wordpiece::WordPiece;
    use tokenizers::normalizers::bert::BertNormalizer;
    use tokenizers::pre_tokenizers::bert::BertPreTokenizer;
    use tokenizers::processors::bert::BertProcessing;
    let vocab: ahash::AHashMap<String, u32> = vocabulary()
        .into_iter()
        .enumerate()
        .map(|(i, t)| (t, i as u32))
        .collect();
    let model = WordPiece::builder()
        .vocab(vocab)
        .unk_token("[UNK]".into())
        .build()
        .map_err(tokenizer_error)?;
    let mut tokenizer = tokenizers::Tokenizer::new(model);
    // Setting a normaliser cannot fail; the Result is for normalisers that check input.
    let _ = tokenizer.with_normalizer(Some(BertNormalizer::default()));
    tokenizer.with_pre_tokenizer(Some(BertPreTokenizer));
    tokenizer.with_post_processor(Some(BertProcessing::new(
        ("[SEP]".into(), 3),
        ("[CLS]".into(), 2),
    )));
    tokenizer.to_string(false).map_err(tokenizer_error)
}

/// The test model's weights as a safetensors file (float32), written to `path`: every
/// tensor candle's `BertModel` reads, LayerNorm scales 1 and shifts 0, everything else
/// from a 64-bit linear congruential sequence in [-0.5, 0.5).
#[cfg(not(target_arch = "wasm32"))]
pub fn write_weights(path: &std::path::Path) -> Result<(), crate::EmbedError> {
    use candle_core::{DType, Device, Tensor};
    use candle_nn::{VarBuilder, VarMap};
    use candle_transformers::models::bert::{BertModel, Config};
    let weights = |e: candle_core::Error| crate::EmbedError::Weights(e.to_string());
    let config: Config = serde_json::from_str(&config_json())
        .map_err(|e| crate::EmbedError::Config(e.to_string()))?;
    let map = VarMap::new();
    BertModel::load(
        VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu),
        &config,
    )
    .map_err(weights)?;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let data = map
        .data()
        .lock()
        .map_err(|_| crate::EmbedError::Weights("the variable map's lock is poisoned".into()))?;
    let mut names: Vec<&String> = data.keys().collect();
    names.sort();
    for name in names {
        if name.contains("LayerNorm") {
            continue;
        }
        let var = &data[name];
        let n = var.elem_count();
        let values: Vec<f32> = (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((state >> 40) as f32 / (1u64 << 24) as f32) - 0.5
            })
            .collect();
        var.set(&Tensor::from_vec(values, var.shape(), &Device::Cpu).map_err(weights)?)
            .map_err(weights)?;
    }
    drop(data);
    map.save(path).map_err(weights)
}
