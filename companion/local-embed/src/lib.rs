//! A local sentence-embedding model for docrag: a BERT encoder (all-MiniLM-L6-v2 by
//! default) run by candle on the CPU, in WebAssembly inside a Web Worker, so a
//! document's chunks are embedded on the person's machine and never sent anywhere.
//!
//! The model is what sentence-transformers computes for such a checkpoint: WordPiece
//! ids from the model's `tokenizer.json` (no padding, cut at [`Manifest::max_tokens`]),
//! the encoder's last hidden states, their mean over every token, then L2
//! normalisation. One text is one forward pass, so no padding ever enters a mean.
//!
//! - [`model`]: [`LocalModel`], sans-IO: bytes in, vectors out.
//! - [`manifest`]: `model.json`, what the prepared model folder holds and where from.
//! - [`pool`]: mean pooling and normalisation.
//! - [`tiny`]: a deterministic small model for tests (random weights, a small
//!   vocabulary), so tests need no download.

pub mod error;
pub mod manifest;
pub mod model;
pub mod pool;
pub mod tiny;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use error::EmbedError;
pub use manifest::Manifest;
pub use model::LocalModel;
