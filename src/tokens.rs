//! o200k_base token counting, loaded once per process (or wasm instance).
//!
//! Counting uses `encode_ordinary` semantics: special-token text such as
//! `<|endoftext|>` inside a document is counted as ordinary text, never as a control
//! token, so a document cannot smuggle one in.

/// Number of o200k_base tokens in `text`.
///
/// The first call builds the BPE rank table (a few hundred milliseconds in wasm);
/// later calls reuse it.
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_known_strings() {
        assert_eq!(count(""), 0);
        assert_eq!(count("hello world"), 2);
        // Special-token text is ordinary text here: more than one token.
        assert!(count("<|endoftext|>") > 1);
    }
}
