//! The streamed-reply parsers (OpenAI SSE, Ollama NDJSON), fed the input whole and in
//! up to three slices split at offsets taken from its first two bytes (inside lines,
//! inside UTF-8 characters). Both ways must give the same text and end state.
#![no_main]

use docrag::provider::ProviderError;
use docrag::provider::{NdjsonParser, SseParser, StreamChunk};
use libfuzzer_sys::fuzz_target;

trait Parser {
    fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError>;
    fn finish(&mut self) -> Result<StreamChunk, ProviderError>;
}

impl Parser for SseParser {
    fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError> {
        SseParser::feed(self, bytes)
    }
    fn finish(&mut self) -> Result<StreamChunk, ProviderError> {
        SseParser::finish(self)
    }
}

impl Parser for NdjsonParser {
    fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError> {
        NdjsonParser::feed(self, bytes)
    }
    fn finish(&mut self) -> Result<StreamChunk, ProviderError> {
        NdjsonParser::finish(self)
    }
}

/// The text and the done flag of a stream fed in `slices`, or `None` on an error.
fn run(mut p: impl Parser, slices: &[&[u8]]) -> Option<(String, bool)> {
    let mut text = String::new();
    let mut done = false;
    for s in slices {
        let c = p.feed(s).ok()?;
        text.extend(c.deltas);
        done = c.done;
    }
    let c = p.finish().ok()?;
    assert!(!done || c.done, "done was unset by finish");
    text.extend(c.deltas);
    Some((text, c.done))
}

fuzz_target!(|data: &[u8]| {
    let a = data.first().map_or(0, |b| usize::from(*b)) % (data.len() + 1);
    let b = data.get(1).map_or(0, |b| usize::from(*b) * 7) % (data.len() + 1);
    let (a, b) = (a.min(b), a.max(b));
    let slices = [&data[..a], &data[a..b], &data[b..]];

    let whole = run(SseParser::new(), &[data]);
    let split = run(SseParser::new(), &slices);
    if whole.is_some() {
        assert_eq!(whole, split, "SSE: split feeding changed the result");
    }
    let whole = run(NdjsonParser::new(), &[data]);
    let split = run(NdjsonParser::new(), &slices);
    if whole.is_some() {
        assert_eq!(whole, split, "NDJSON: split feeding changed the result");
    }
});
