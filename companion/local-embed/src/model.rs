//! The encoder and its tokenizer, loaded from bytes.

use std::borrow::Cow;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{Tokenizer, TruncationParams};

use crate::EmbedError;
use crate::pool::mean_normalized;

/// A loaded BERT sentence encoder.
pub struct LocalModel {
    bert: BertModel,
    tokenizer: Tokenizer,
    dimension: usize,
    max_tokens: usize,
}

impl LocalModel {
    /// Loads a model from its safetensors `weights` (any float type; computed in
    /// float32), Hugging Face `tokenizer_json` and BERT `config_json`. `max_tokens`
    /// (>= 2, at most the config's `max_position_embeddings`) is where each text is cut.
    ///
    /// The tokenizer's own padding is removed (a tokenizer.json may pad every text to a
    /// fixed length, and padding would enter the mean) and its truncation replaced.
    ///
    /// # Errors
    /// [`EmbedError::Config`], [`EmbedError::Tokenizer`] or [`EmbedError::Weights`]
    /// naming the part that could not be read.
    pub fn load(
        weights: Vec<u8>,
        tokenizer_json: &[u8],
        config_json: &[u8],
        max_tokens: usize,
    ) -> Result<Self, EmbedError> {
        let raw: serde_json::Value =
            serde_json::from_slice(config_json).map_err(|e| EmbedError::Config(e.to_string()))?;
        let config: Config =
            serde_json::from_value(raw.clone()).map_err(|e| EmbedError::Config(e.to_string()))?;
        let dimension = raw["hidden_size"]
            .as_u64()
            .ok_or_else(|| EmbedError::Config("no hidden_size".into()))?
            as usize;
        let positions = raw["max_position_embeddings"].as_u64().unwrap_or(512) as usize;
        // candle divides by the head count and reshapes by it: check what would panic.
        let heads = raw["num_attention_heads"].as_u64().unwrap_or(0) as usize;
        if heads == 0 || dimension == 0 || dimension % heads != 0 {
            return Err(EmbedError::Config(format!(
                "hidden_size {dimension} is not a positive multiple of num_attention_heads {heads}"
            )));
        }
        if max_tokens < 2 || max_tokens > positions {
            return Err(EmbedError::Config(format!(
                "max_tokens {max_tokens} is outside 2..={positions} (max_position_embeddings)"
            )));
        }
        let mut tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        // A tokenizer of another model (e.g. a 30,522-word one with a 78-row embedding
        // table) loaded fine and then failed every text with "index-select invalid
        // index": refuse it here, where the error names the files that do not match.
        let vocab = raw["vocab_size"].as_u64().unwrap_or(0) as usize;
        if let Some(top) = tokenizer.get_vocab(true).values().max()
            && *top as usize >= vocab
        {
            return Err(EmbedError::Tokenizer(format!(
                "token id {top} is outside the model's {vocab} embeddings (config.json vocab_size): the tokenizer is of another model"
            )));
        }
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| EmbedError::Weights(e.to_string()))?;
        // candle's BertModel reads tensor names with or without the "bert." prefix
        // (sentence-transformers checkpoints have none).
        let bert = BertModel::load(vb, &config).map_err(|e| EmbedError::Weights(e.to_string()))?;
        Ok(LocalModel {
            bert,
            tokenizer,
            dimension,
            max_tokens,
        })
    }

    /// Components per vector.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Most tokens per text.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// WordPiece tokens of `text` as the model sees it ([CLS] and [SEP] included, cut
    /// at [`Self::max_tokens`]).
    ///
    /// # Errors
    /// [`EmbedError::Tokenizer`].
    pub fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        Ok(self.ids(text)?.len())
    }

    fn ids(&self, text: &str) -> Result<Vec<u32>, EmbedError> {
        let bert = matches!(
            self.tokenizer.get_pre_tokenizer(),
            Some(tokenizers::PreTokenizerWrapper::BertPreTokenizer(_))
        );
        let text = if bert {
            bert_compact(bert_prefix(text, self.max_tokens))
        } else {
            Cow::Borrowed(text)
        };
        let encoding = self
            .tokenizer
            .encode(text.as_ref(), true)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The unit-length sentence vector of `text` ([`Self::dimension`] components).
    /// A text of no tokens at all (only with a tokenizer that adds no [CLS]/[SEP],
    /// for an empty text) is the zero vector, as [`mean_normalized`] of no rows.
    ///
    /// # Errors
    /// [`EmbedError::Tokenizer`] or [`EmbedError::Inference`] (also when the weights
    /// give NaN or infinite values, which would otherwise be returned as a vector).
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let ids = self.ids(text)?;
        let n = ids.len();
        if n == 0 {
            // candle cannot reshape a (1, 0) input: no forward pass for nothing.
            return Ok(vec![0.0; self.dimension]);
        }
        let input = Tensor::new(ids.as_slice(), &Device::Cpu)?.unsqueeze(0)?;
        let types = input.zeros_like()?;
        let hidden = self.bert.forward(&input, &types, None)?;
        let flat: Vec<f32> = hidden.squeeze(0)?.flatten_all()?.to_vec1()?;
        let v = mean_normalized(&flat, n, self.dimension);
        if !v.iter().all(|x| x.is_finite()) {
            return Err(EmbedError::Inference(
                "the model computed NaN or infinite values: its weights are broken".into(),
            ));
        }
        Ok(v)
    }
}

/// The start of `text` that holds every token a BERT tokenizer keeps when it cuts at
/// `max_tokens`, so a long text is not tokenized whole (a 200 MB text exhausted the
/// wasm memory) and a long chunk costs what its first `max_tokens` tokens cost.
///
/// BERT's pre-tokenizer splits at whitespace and isolates each punctuation character,
/// and every piece with a letter or digit yields at least one WordPiece token
/// ([UNK] at worst; normalisation removes only control characters and combining
/// marks). So once `max_tokens` such pieces are seen, the tokens the cut keeps
/// ([CLS], `max_tokens - 2`, [SEP]) all lie before the next whitespace or punctuation
/// character, and the text can end there. Counting is conservative: a piece counts only when it starts after
/// whitespace, ASCII punctuation or the text's start, and only ASCII punctuation
/// counts on its own, so text is never cut before a token the model would keep.
pub fn bert_prefix(text: &str, max_tokens: usize) -> &str {
    let mut pieces = 0usize;
    let mut after_boundary = true;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if pieces >= max_tokens {
                return &text[..i];
            }
            after_boundary = true;
        } else if c.is_ascii_punctuation() {
            // Also a hard boundary: the pre-tokenizer isolates it.
            if pieces >= max_tokens {
                return &text[..i];
            }
            pieces += 1;
            after_boundary = true;
        } else {
            if after_boundary && c.is_alphanumeric() {
                pieces += 1;
            }
            after_boundary = false;
        }
    }
    text
}

/// Whether BERT's normaliser turns `c` into a space (`clean_text`: tab, line feed,
/// carriage return, and the non-control whitespace of Unicode); the other control
/// characters it removes, so they are not separators.
fn bert_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c.is_whitespace() && !c.is_control())
}

/// `text` with every run of two or more of BERT's spaces written as one space: the
/// pre-tokenizer splits at whitespace and drops it, so the ids are the same, and a
/// text that is mostly whitespace (which [`bert_prefix`] cannot cut: it has no
/// pieces) is not tokenized at its full length.
pub fn bert_compact(text: &str) -> Cow<'_, str> {
    let mut previous_space = false;
    let has_run = text.chars().any(|c| {
        let space = bert_space(c);
        let run = space && previous_space;
        previous_space = space;
        run
    });
    if !has_run {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        let space = bert_space(c);
        if !space {
            out.push(c);
        } else if !in_run {
            out.push(' ');
        }
        in_run = space;
    }
    Cow::Owned(out)
}
