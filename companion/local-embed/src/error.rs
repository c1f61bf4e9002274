//! Errors of loading and running the model.

/// What went wrong, named for the input that caused it.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// `config.json` is not a BERT configuration candle can read.
    #[error("model config: {0}")]
    Config(String),
    /// The weights are not a safetensors file holding the configured BERT's tensors
    /// (a missing tensor, a wrong shape, a truncated file).
    #[error("model weights: {0}")]
    Weights(String),
    /// `tokenizer.json` cannot be read, or a text cannot be tokenized.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// The forward pass failed (a shape the model cannot take).
    #[error("inference: {0}")]
    Inference(String),
    /// A `model.json` that is not a manifest of this package.
    #[error("manifest: {0}")]
    Manifest(String),
}

impl From<candle_core::Error> for EmbedError {
    fn from(e: candle_core::Error) -> Self {
        EmbedError::Inference(e.to_string())
    }
}
