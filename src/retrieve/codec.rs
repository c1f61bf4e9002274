//! The little binary format both indexes persist in (for IndexedDB, issue 6).
//!
//! Every blob starts with 4 magic bytes and a little-endian `u16` format version;
//! all integers are little-endian `u32`, floats little-endian IEEE-754 `f32`, strings
//! a `u32` byte length then UTF-8. A reader never panics: running out of bytes, a
//! length that points past the end, bad UTF-8 or trailing bytes are
//! [`RetrieveError::Corrupt`].

use super::RetrieveError;

/// Appends values in the persisted encoding.
pub(crate) struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn new(magic: &[u8; 4], version: u16) -> Self {
        let mut buf = Vec::new();
        buf.extend_from_slice(magic);
        buf.extend_from_slice(&version.to_le_bytes());
        Writer { buf }
    }

    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A length or count; the indexes never hold more than `u32::MAX` of anything.
    pub fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }

    pub fn str(&mut self, s: &str) {
        self.len(s.len());
        self.buf.extend_from_slice(s.as_bytes());
    }
}

/// Reads values back, with typed errors for every way the bytes can be wrong.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    kind: &'static str,
}

impl<'a> Reader<'a> {
    /// Checks the magic and the version, and positions after them.
    pub fn open(
        bytes: &'a [u8],
        magic: &[u8; 4],
        version: u16,
        kind: &'static str,
    ) -> Result<Self, RetrieveError> {
        if bytes.len() < 4 || &bytes[..4] != magic {
            return Err(RetrieveError::NotAnIndex { kind });
        }
        let mut r = Reader {
            bytes,
            pos: 4,
            kind,
        };
        let found = u16::from_le_bytes(r.array::<2>()?);
        if found != version {
            return Err(RetrieveError::UnsupportedVersion {
                kind,
                version: found,
                supported: version,
            });
        }
        Ok(r)
    }

    pub fn corrupt(&self, detail: impl Into<String>) -> RetrieveError {
        RetrieveError::Corrupt {
            kind: self.kind,
            detail: detail.into(),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], RetrieveError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(self.corrupt(format!(
                "truncated: needs {n} bytes at offset {}, {} left",
                self.pos,
                self.bytes.len() - self.pos
            ))),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], RetrieveError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    pub fn u32(&mut self) -> Result<u32, RetrieveError> {
        Ok(u32::from_le_bytes(self.array::<4>()?))
    }

    /// Bytes read so far.
    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn f32(&mut self) -> Result<f32, RetrieveError> {
        Ok(f32::from_le_bytes(self.array::<4>()?))
    }

    /// A count of items of at least `item_bytes` each, checked against the bytes left
    /// so a corrupt count cannot make the loader allocate gigabytes.
    pub fn count(&mut self, item_bytes: usize) -> Result<usize, RetrieveError> {
        let n = self.u32()? as usize;
        let left = self.bytes.len() - self.pos;
        if n.saturating_mul(item_bytes.max(1)) > left {
            return Err(self.corrupt(format!(
                "a count of {n} at offset {} needs more than the {left} bytes left",
                self.pos - 4
            )));
        }
        Ok(n)
    }

    pub fn str(&mut self) -> Result<&'a str, RetrieveError> {
        let n = self.u32()? as usize;
        let at = self.pos;
        let bytes = self.take(n)?;
        std::str::from_utf8(bytes)
            .map_err(|_| self.corrupt(format!("invalid UTF-8 at offset {at}")))
    }

    /// Fails unless every byte was read.
    pub fn finish(self) -> Result<(), RetrieveError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(self.corrupt(format!(
                "{} trailing bytes at offset {}",
                self.bytes.len() - self.pos,
                self.pos
            )))
        }
    }
}
