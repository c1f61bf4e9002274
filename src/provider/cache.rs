//! The content-hash key that lets a store skip texts it has already embedded.

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of `model_id`, a NUL byte, then `text` (64 characters).
/// The same text under the same model id always has the same key, and a change of
/// model, dimensions or text changes it; the NUL keeps `("a:b", "c")` and
/// `("a", ":bc")`-style pairs apart.
pub fn text_hash(model_id: &str, text: &str) -> String {
    let mut h = Sha256::new();
    h.update(model_id.as_bytes());
    h.update([0u8]);
    h.update(text.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_value_and_separation() {
        // printf 'm\0t' | sha256sum
        assert_eq!(
            text_hash("m", "t"),
            "8481c8582a73b3ba64d6506da480d877324f34bae0fb970c71b5d24bc57c06c7"
        );
        assert_ne!(text_hash("openai:a", "bc"), text_hash("openai:ab", "c"));
        assert_eq!(text_hash("x", "same"), text_hash("x", "same"));
        assert_eq!(text_hash("x", "").len(), 64);
    }
}
