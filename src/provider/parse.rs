//! Replies -> vectors and text; error bodies -> messages.

use serde_json::Value;

use super::config::ProviderKind;
use super::error::ProviderError;

/// Longest body excerpt kept in an error message, in characters.
const EXCERPT_CHARS: usize = 300;

/// The error for a non-2xx reply: the provider's own message when the body is
/// OpenAI's `{"error":{"message":..}}` or Ollama's `{"error":".."}`, else an excerpt
/// of the body.
pub fn status_error(status: u16, body: &str, retry_after_ms: Option<u32>) -> ProviderError {
    ProviderError::HttpStatus {
        status,
        message: error_message(body),
        retry_after_ms,
    }
}

/// The provider's error message in `body` (`error` or `error.message`, when not
/// blank), or the body's first 300 characters; never empty.
pub fn error_message(body: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let message = match &v["error"] {
            Value::String(s) => Some(s),
            Value::Object(o) => match o.get("message") {
                Some(Value::String(s)) => Some(s),
                _ => None,
            },
            _ => None,
        };
        if let Some(s) = message.filter(|s| !s.trim().is_empty()) {
            return s.trim().to_string();
        }
    }
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return "(empty body)".into();
    }
    let mut out: String = trimmed.chars().take(EXCERPT_CHARS).collect();
    if trimmed.chars().nth(EXCERPT_CHARS).is_some() {
        out.push('…');
    }
    out
}

fn is_success(status: u16) -> bool {
    (200..300).contains(&status)
}

fn json(body: &str) -> Result<Value, ProviderError> {
    serde_json::from_str(body).map_err(|e| ProviderError::MalformedReply(format!("not JSON: {e}")))
}

fn vector(v: &Value, what: &str) -> Result<Vec<f32>, ProviderError> {
    let arr = v.as_array().ok_or_else(|| {
        ProviderError::MalformedReply(format!("{what} is not an array of numbers"))
    })?;
    arr.iter()
        .map(|x| {
            // `null` is what JSON serializers write for NaN; report it as non-finite.
            if x.is_null() {
                return Ok(f32::NAN);
            }
            x.as_f64()
                .map(|f| f as f32)
                .ok_or_else(|| ProviderError::MalformedReply(format!("{what} holds a non-number")))
        })
        .collect()
}

/// Parses an embeddings reply: OpenAI `{"data":[{"index":i,"embedding":[..]}]}`
/// (ordered by `index`), Ollama `{"embeddings":[[..]]}`; then [`validate_embeddings`].
///
/// # Errors
/// [`ProviderError::HttpStatus`] for a non-2xx status, [`ProviderError::MalformedReply`]
/// for an unreadable body, else the errors of [`validate_embeddings`].
pub fn parse_embeddings(
    kind: ProviderKind,
    status: u16,
    body: &str,
    expected_count: usize,
    expected_dim: Option<usize>,
) -> Result<Vec<Vec<f32>>, ProviderError> {
    if !is_success(status) {
        return Err(status_error(status, body, None));
    }
    let v = json(body)?;
    let vectors = match kind {
        ProviderKind::OpenAi => {
            let data = v["data"]
                .as_array()
                .ok_or_else(|| ProviderError::MalformedReply("no `data` array".into()))?;
            let mut indexed = Vec::with_capacity(data.len());
            for (pos, item) in data.iter().enumerate() {
                // A missing index means reply order; a present one must be a whole
                // number below the count (no truncation to usize on 32-bit wasm).
                let index = match &item["index"] {
                    serde_json::Value::Null => pos,
                    i => i
                        .as_u64()
                        .filter(|&i| i < data.len() as u64)
                        .map(|i| i as usize)
                        .ok_or_else(|| {
                            ProviderError::MalformedReply(format!(
                                "`data[{pos}].index` is {i}, not a position below {}",
                                data.len()
                            ))
                        })?,
                };
                indexed.push((
                    index,
                    vector(&item["embedding"], &format!("data[{pos}].embedding"))?,
                ));
            }
            crate::order::sort_by_key(&mut indexed, |(i, _)| *i);
            if indexed.iter().enumerate().any(|(pos, (i, _))| *i != pos) {
                return Err(ProviderError::MalformedReply(
                    "`data[].index` values are not 0..n without gaps or repeats".into(),
                ));
            }
            indexed.into_iter().map(|(_, e)| e).collect::<Vec<_>>()
        }
        ProviderKind::Ollama => v["embeddings"]
            .as_array()
            .ok_or_else(|| ProviderError::MalformedReply("no `embeddings` array".into()))?
            .iter()
            .enumerate()
            .map(|(i, e)| vector(e, &format!("embeddings[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
    };
    validate_embeddings(&vectors, expected_count, expected_dim)?;
    Ok(vectors)
}

/// Checks vectors from any source (HTTP or a caller's function): `expected_count`
/// of them, none empty, every component finite, and every length equal to
/// `expected_dim` (or, when `None`, to the first vector's length).
///
/// # Errors
/// [`ProviderError::EmbeddingCount`], [`ProviderError::EmbeddingEmpty`],
/// [`ProviderError::EmbeddingNonFinite`], [`ProviderError::EmbeddingDimension`].
pub fn validate_embeddings(
    vectors: &[Vec<f32>],
    expected_count: usize,
    expected_dim: Option<usize>,
) -> Result<(), ProviderError> {
    if vectors.len() != expected_count {
        return Err(ProviderError::EmbeddingCount {
            expected: expected_count,
            got: vectors.len(),
        });
    }
    let dim = expected_dim.or_else(|| vectors.first().map(Vec::len));
    for (index, v) in vectors.iter().enumerate() {
        if v.is_empty() {
            return Err(ProviderError::EmbeddingEmpty { index });
        }
        if let Some(position) = v.iter().position(|x| !x.is_finite()) {
            return Err(ProviderError::EmbeddingNonFinite { index, position });
        }
        if let Some(expected) = dim.filter(|d| *d != v.len()) {
            return Err(ProviderError::EmbeddingDimension {
                index,
                expected,
                got: v.len(),
            });
        }
    }
    Ok(())
}

/// Parses a non-streamed chat reply: OpenAI `choices[0].message.content`, Ollama
/// `message.content`.
///
/// # Errors
/// [`ProviderError::HttpStatus`] for a non-2xx status, [`ProviderError::MalformedReply`]
/// when the content is missing.
pub fn parse_chat(kind: ProviderKind, status: u16, body: &str) -> Result<String, ProviderError> {
    if !is_success(status) {
        return Err(status_error(status, body, None));
    }
    let v = json(body)?;
    let content = match kind {
        ProviderKind::OpenAi => &v["choices"][0]["message"]["content"],
        ProviderKind::Ollama => &v["message"]["content"],
    };
    content
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| ProviderError::MalformedReply("the reply has no message content".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_embeddings_are_ordered_by_index() {
        let body = r#"{"object":"list","data":[
            {"object":"embedding","index":1,"embedding":[0.5,-1.0]},
            {"object":"embedding","index":0,"embedding":[0.25,2e-3]}],
            "model":"text-embedding-3-small","usage":{"prompt_tokens":4,"total_tokens":4}}"#;
        let v = parse_embeddings(ProviderKind::OpenAi, 200, body, 2, Some(2)).unwrap();
        assert_eq!(v, vec![vec![0.25, 0.002], vec![0.5, -1.0]]);
    }

    #[test]
    fn ollama_embeddings() {
        let body =
            r#"{"model":"nomic-embed-text","embeddings":[[0.1,0.2,0.3]],"total_duration":1}"#;
        let v = parse_embeddings(ProviderKind::Ollama, 200, body, 1, None).unwrap();
        assert_eq!(v, vec![vec![0.1f32, 0.2, 0.3]]);
    }

    #[test]
    fn embedding_errors_are_distinct() {
        let k = ProviderKind::Ollama;
        let e = parse_embeddings(k, 200, r#"{"embeddings":[[1.0]]}"#, 2, None).unwrap_err();
        assert_eq!(
            e,
            ProviderError::EmbeddingCount {
                expected: 2,
                got: 1
            }
        );
        let e = parse_embeddings(k, 200, r#"{"embeddings":[[]]}"#, 1, None).unwrap_err();
        assert_eq!(e, ProviderError::EmbeddingEmpty { index: 0 });
        let e = parse_embeddings(k, 200, r#"{"embeddings":[[1.0,null]]}"#, 1, None).unwrap_err();
        assert_eq!(
            e,
            ProviderError::EmbeddingNonFinite {
                index: 0,
                position: 1
            }
        );
        let e =
            parse_embeddings(k, 200, r#"{"embeddings":[[1.0,2.0],[1.0]]}"#, 2, None).unwrap_err();
        assert_eq!(
            e,
            ProviderError::EmbeddingDimension {
                index: 1,
                expected: 2,
                got: 1
            }
        );
        let e = parse_embeddings(k, 200, r#"{"embeddings":[[1.0,2.0]]}"#, 1, Some(3)).unwrap_err();
        assert_eq!(e.code(), "embedding-dimension");
        // f32 overflow is non-finite too.
        let e = parse_embeddings(k, 200, r#"{"embeddings":[[1e300]]}"#, 1, None).unwrap_err();
        assert_eq!(e.code(), "embedding-non-finite");
    }

    #[test]
    fn malformed_bodies() {
        for body in [
            "{\"data\":[",
            "{}",
            r#"{"data":[{"index":0,"embedding":"x"}]}"#,
            r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}"#,
            r#"{"data":[{"index":4294967296,"embedding":[1]}]}"#,
            r#"{"data":[{"index":-1,"embedding":[1]}]}"#,
        ] {
            let e = parse_embeddings(ProviderKind::OpenAi, 200, body, 1, None).unwrap_err();
            assert_eq!(e.code(), "malformed-reply", "{body}");
        }
    }

    #[test]
    fn error_bodies_become_messages() {
        let openai = r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}"#;
        let e = parse_embeddings(ProviderKind::OpenAi, 401, openai, 1, None).unwrap_err();
        assert_eq!(
            e,
            ProviderError::HttpStatus {
                status: 401,
                message: "Incorrect API key provided".into(),
                retry_after_ms: None
            }
        );
        let e = parse_chat(
            ProviderKind::Ollama,
            404,
            r#"{"error":"model \"llama9\" not found, try pulling it first"}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("HTTP 404: model \"llama9\" not found")
        );
        let long = "x".repeat(1000);
        assert_eq!(error_message(&long).chars().count(), 301);
        assert_eq!(error_message("  "), "(empty body)");
    }

    #[test]
    fn chat_replies() {
        let openai = r#"{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello [1]."},"finish_reason":"stop"}]}"#;
        assert_eq!(
            parse_chat(ProviderKind::OpenAi, 200, openai).unwrap(),
            "Hello [1]."
        );
        let ollama =
            r#"{"model":"llama3.2","message":{"role":"assistant","content":"Hi"},"done":true}"#;
        assert_eq!(parse_chat(ProviderKind::Ollama, 200, ollama).unwrap(), "Hi");
        assert_eq!(
            parse_chat(ProviderKind::Ollama, 200, "{}")
                .unwrap_err()
                .code(),
            "malformed-reply"
        );
    }
}
