//! Incremental parsers for streamed chat replies, fed byte slices split anywhere
//! (inside a line, inside a UTF-8 character).
//!
//! - [`SseParser`]: OpenAI server-sent events, `data: {"choices":[{"delta":{"content":".."}}]}`
//!   per event, `data: [DONE]` at the end; comments (`: ...`), `event:`/`id:`/`retry:`
//!   fields, LF or CRLF line ends, multi-line `data`.
//! - [`NdjsonParser`]: Ollama, one JSON object per line,
//!   `{"message":{"content":".."},"done":false}`, the last one with `"done":true`.

use serde_json::Value;

use super::error::ProviderError;

/// What one `feed` produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamChunk {
    /// Text deltas, in order (empty deltas are dropped).
    pub deltas: Vec<String>,
    /// Whether the end-of-stream event has been seen.
    pub done: bool,
}

/// Splits bytes into complete lines; the partial last line waits for more bytes, so
/// a UTF-8 character split between slices is decoded only once whole.
#[derive(Debug, Default)]
struct Lines {
    buf: Vec<u8>,
}

impl Lines {
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, ProviderError> {
        self.buf.extend_from_slice(bytes);
        let mut lines = Vec::new();
        let mut start = 0;
        while let Some(nl) = self.buf[start..].iter().position(|b| *b == b'\n') {
            let end = start + nl;
            lines.push(decode(&self.buf[start..end])?);
            start = end + 1;
        }
        self.buf.drain(..start);
        Ok(lines)
    }

    fn rest(&mut self) -> Result<Option<String>, ProviderError> {
        if self.buf.is_empty() {
            return Ok(None);
        }
        let line = decode(&self.buf)?;
        self.buf.clear();
        Ok(Some(line))
    }
}

fn decode(line: &[u8]) -> Result<String, ProviderError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8(line.to_vec())
        .map_err(|_| ProviderError::MalformedReply("a stream line is not valid UTF-8".into()))
}

fn event_json(text: &str) -> Result<Value, ProviderError> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        let excerpt: String = text.chars().take(80).collect();
        ProviderError::MalformedReply(format!("bad stream event {excerpt:?}: {e}"))
    })?;
    match &v["error"] {
        Value::Null => Ok(v),
        Value::String(s) => Err(ProviderError::Reported(s.clone())),
        other => Err(ProviderError::Reported(
            other["message"]
                .as_str()
                .map_or_else(|| other.to_string(), str::to_string),
        )),
    }
}

/// The OpenAI SSE stream parser.
#[derive(Debug, Default)]
pub struct SseParser {
    lines: Lines,
    data: Vec<String>,
    done: bool,
}

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next bytes; returns the deltas of every event they complete.
    ///
    /// # Errors
    /// [`ProviderError::MalformedReply`] for a non-JSON event or invalid UTF-8,
    /// [`ProviderError::Reported`] for an `{"error":..}` event.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError> {
        let mut out = StreamChunk::default();
        for line in self.lines.push(bytes)? {
            self.line(&line, &mut out)?;
        }
        out.done = self.done;
        Ok(out)
    }

    /// Ends the stream: an event not followed by a blank line still counts.
    ///
    /// # Errors
    /// As [`SseParser::feed`].
    pub fn finish(&mut self) -> Result<StreamChunk, ProviderError> {
        let mut out = StreamChunk::default();
        if let Some(line) = self.lines.rest()? {
            self.line(&line, &mut out)?;
        }
        self.dispatch(&mut out)?;
        out.done = self.done;
        Ok(out)
    }

    /// Whether `data: [DONE]` was seen.
    pub fn is_done(&self) -> bool {
        self.done
    }

    fn line(&mut self, line: &str, out: &mut StreamChunk) -> Result<(), ProviderError> {
        if line.is_empty() {
            return self.dispatch(out);
        }
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        if field == "data" {
            self.data
                .push(value.strip_prefix(' ').unwrap_or(value).to_string());
        }
        Ok(())
    }

    fn dispatch(&mut self, out: &mut StreamChunk) -> Result<(), ProviderError> {
        if self.data.is_empty() {
            return Ok(());
        }
        let data = self.data.join("\n");
        self.data.clear();
        if self.done {
            return Ok(());
        }
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let v = event_json(&data)?;
        if let Some(text) = v["choices"][0]["delta"]["content"]
            .as_str()
            .filter(|t| !t.is_empty())
        {
            out.deltas.push(text.to_string());
        }
        Ok(())
    }
}

/// The Ollama NDJSON stream parser.
#[derive(Debug, Default)]
pub struct NdjsonParser {
    lines: Lines,
    done: bool,
}

impl NdjsonParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next bytes; returns the deltas of every line they complete.
    ///
    /// # Errors
    /// [`ProviderError::MalformedReply`] for a non-JSON line or invalid UTF-8,
    /// [`ProviderError::Reported`] for an `{"error":".."}` line.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<StreamChunk, ProviderError> {
        let mut out = StreamChunk::default();
        for line in self.lines.push(bytes)? {
            self.line(&line, &mut out)?;
        }
        out.done = self.done;
        Ok(out)
    }

    /// Ends the stream: a last line without a newline still counts.
    ///
    /// # Errors
    /// As [`NdjsonParser::feed`].
    pub fn finish(&mut self) -> Result<StreamChunk, ProviderError> {
        let mut out = StreamChunk::default();
        if let Some(line) = self.lines.rest()? {
            self.line(&line, &mut out)?;
        }
        out.done = self.done;
        Ok(out)
    }

    /// Whether a `"done":true` line was seen.
    pub fn is_done(&self) -> bool {
        self.done
    }

    fn line(&mut self, line: &str, out: &mut StreamChunk) -> Result<(), ProviderError> {
        if line.trim().is_empty() || self.done {
            return Ok(());
        }
        let v = event_json(line)?;
        if let Some(text) = v["message"]["content"].as_str().filter(|t| !t.is_empty()) {
            out.deltas.push(text.to_string());
        }
        if v["done"].as_bool() == Some(true) {
            self.done = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SSE: &str = concat!(
        ": keep-alive\r\n\r\n",
        "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\r\n\r\n",
        "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Héllo \"}}]}\n\n",
        "event: message\nid: 3\n",
        "data: {\"choices\":[{\"index\":0,\n",
        "data: \"delta\":{\"content\":\"wörld 日本\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n",
    );

    fn sse_all(chunks: &[&[u8]]) -> (String, bool) {
        let mut p = SseParser::new();
        let mut text = String::new();
        for c in chunks {
            text.extend(p.feed(c).unwrap().deltas);
        }
        let end = p.finish().unwrap();
        text.extend(end.deltas);
        (text, end.done)
    }

    #[test]
    fn sse_whole_and_split_at_every_byte() {
        assert_eq!(
            sse_all(&[SSE.as_bytes()]),
            ("Héllo wörld 日本".to_string(), true)
        );
        let bytes = SSE.as_bytes();
        for cut in 1..bytes.len() {
            let (a, b) = bytes.split_at(cut);
            assert_eq!(sse_all(&[a, b]).0, "Héllo wörld 日本", "cut at {cut}");
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(sse_all(&singles), ("Héllo wörld 日本".to_string(), true));
    }

    #[test]
    fn sse_errors() {
        let mut p = SseParser::new();
        assert_eq!(
            p.feed(b"data: {not json}\n\n").unwrap_err().code(),
            "malformed-reply"
        );
        let mut p = SseParser::new();
        let e = p
            .feed(b"data: {\"error\":{\"message\":\"overloaded\"}}\n\n")
            .unwrap_err();
        assert_eq!(e, ProviderError::Reported("overloaded".into()));
        let mut p = SseParser::new();
        assert_eq!(
            p.feed(b"data: \xff\n").unwrap_err().code(),
            "malformed-reply"
        );
    }

    #[test]
    fn sse_event_without_trailing_blank_line_and_no_done() {
        let mut p = SseParser::new();
        assert!(
            p.feed(b"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}")
                .unwrap()
                .deltas
                .is_empty()
        );
        let end = p.finish().unwrap();
        assert_eq!(end.deltas, vec!["a"]);
        assert!(!end.done);
    }

    const NDJSON: &str = concat!(
        "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Bon\"},\"done\":false}\n",
        "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"jour ça \"},\"done\":false}\n",
        "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"va\"},\"done\":false}\n",
        "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\"}\n",
    );

    #[test]
    fn ndjson_split_at_every_byte() {
        let bytes = NDJSON.as_bytes();
        for cut in 0..=bytes.len() {
            let mut p = NdjsonParser::new();
            let (a, b) = bytes.split_at(cut);
            let mut text: String = p.feed(a).unwrap().deltas.concat();
            let second = p.feed(b).unwrap();
            text.push_str(&second.deltas.concat());
            assert!(second.done);
            assert!(p.finish().unwrap().deltas.is_empty());
            assert_eq!(text, "Bonjour ça va", "cut at {cut}");
        }
    }

    #[test]
    fn ndjson_errors_and_last_line_without_newline() {
        let mut p = NdjsonParser::new();
        assert_eq!(
            p.feed(b"{\"message\":\n").unwrap_err().code(),
            "malformed-reply"
        );
        let mut p = NdjsonParser::new();
        let e = p.feed(b"{\"error\":\"model not found\"}\n").unwrap_err();
        assert_eq!(e.code(), "provider-reported");
        let mut p = NdjsonParser::new();
        p.feed(b"{\"message\":{\"content\":\"x\"},\"done\":true}")
            .unwrap();
        let end = p.finish().unwrap();
        assert_eq!((end.deltas, end.done), (vec!["x".to_string()], true));
    }
}
