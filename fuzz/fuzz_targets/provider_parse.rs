//! The provider reply parsers: chat and embeddings replies of both providers, error
//! bodies, Retry-After values. The input's length picks the status and the expected
//! count and dimension, so seeds stay whole bodies.
#![no_main]

use docrag::provider::parse::{error_message, status_error};
use docrag::provider::retry::retry_after_ms;
use docrag::provider::{ProviderKind, classify, parse_chat, parse_embeddings, validate_embeddings};
use libfuzzer_sys::fuzz_target;

const STATUSES: [u16; 11] = [200, 200, 200, 201, 204, 400, 401, 429, 500, 503, 99];

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let n = data.len();
    let status = STATUSES[n % STATUSES.len()];
    let count = (n / 11) % 4;
    let dim = [None, Some(1), Some(2), Some(3)][(n / 44) % 4];
    for kind in [ProviderKind::OpenAi, ProviderKind::Ollama] {
        if let Ok(text) = parse_chat(kind, status, &body) {
            assert!(
                (200..300).contains(&status),
                "chat reply accepted with status {status}"
            );
            let _ = text;
        }
        match parse_embeddings(kind, status, &body, count, dim) {
            Ok(vectors) => {
                assert_eq!(vectors.len(), count);
                if let Some(d) = dim {
                    assert!(vectors.iter().all(|v| v.len() == d), "dimension");
                }
                assert!(
                    vectors.iter().flatten().all(|x| x.is_finite()),
                    "non-finite value"
                );
                validate_embeddings(&vectors, count, dim).expect("parsed vectors validate");
            }
            Err(e) => {
                let _ = (e.code(), e.to_string());
            }
        }
    }
    let m = error_message(&body);
    assert!(!m.trim().is_empty(), "error_message({body:?}) is empty");
    let _ = status_error(status, &body, Some(1000)).to_string();
    let _ = classify(Some(status));
    if let Some(ms) = retry_after_ms(&body, 1.7e12) {
        let _ = ms;
    }
});
