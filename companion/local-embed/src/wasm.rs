//! The JavaScript face of [`crate::LocalModel`] (used by the package's worker).

use wasm_bindgen::prelude::*;

use crate::{EmbedError, LocalModel};

fn js(e: EmbedError) -> JsError {
    JsError::new(&e.to_string())
}

/// A loaded model (see the crate docs for what it computes).
#[wasm_bindgen(js_name = LocalModel)]
pub struct JsLocalModel(LocalModel);

#[wasm_bindgen(js_class = LocalModel)]
impl JsLocalModel {
    /// Loads from the bytes of the weights (safetensors), `tokenizer.json` and
    /// `config.json`; texts are cut at `maxTokens` tokens.
    ///
    /// Throws an `Error` whose message names the part that could not be read.
    #[wasm_bindgen(constructor)]
    pub fn new(
        weights: Vec<u8>,
        tokenizer: &[u8],
        config: &[u8],
        max_tokens: u32,
    ) -> Result<JsLocalModel, JsError> {
        LocalModel::load(weights, tokenizer, config, max_tokens as usize)
            .map(JsLocalModel)
            .map_err(js)
    }

    /// Components per vector.
    #[wasm_bindgen(getter)]
    pub fn dimension(&self) -> u32 {
        self.0.dimension() as u32
    }

    /// The unit-length vector of one text.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>, JsError> {
        self.0.embed(text).map_err(js)
    }

    /// Tokens of `text` as the model sees it (cut at `maxTokens`).
    #[wasm_bindgen(js_name = tokenCount)]
    pub fn token_count(&self, text: &str) -> Result<u32, JsError> {
        self.0.token_count(text).map(|n| n as u32).map_err(js)
    }
}
