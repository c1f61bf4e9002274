//! The OPC package (ECMA-376 Part 2): the zip container, its limits, part lookup and
//! content types.
//!
//! Members are inflated only when a reader asks for them, through a counting reader:
//! the total inflated across all members read is capped by
//! [`Limits::max_inflated_bytes`], and a member that inflates past 1 MiB must stay
//! under [`Limits::max_ratio`] times its compressed size. Both are enforced while
//! inflating, not by trusting the sizes the zip headers claim.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use zip::ZipArchive;

use crate::error::ConvertError;
use crate::options::Limits;

use super::xml::{Ev, Ns, Xml};

/// A member inflating past this many bytes is subject to the ratio check.
const RATIO_FLOOR: u64 = 1 << 20;

/// Why a part could not be read.
#[derive(Debug)]
pub(crate) enum PartError {
    /// The package has no such part.
    Missing,
    /// The member is damaged (bad CRC, bad deflate stream); the detail says how.
    Corrupt(String),
    /// A limit was exceeded: always fatal.
    Fatal(ConvertError),
}

/// An opened package.
pub(crate) struct Package<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    /// Lower-cased part name (no leading slash) -> member index. OPC part names
    /// compare case-insensitively (Part 2, 9.1.1.1).
    names: HashMap<String, usize>,
    limits: Limits,
    inflated: u64,
    /// `[Content_Types].xml`: extension defaults and part overrides (lower-cased).
    defaults: HashMap<String, String>,
    overrides: HashMap<String, String>,
}

impl<'a> Package<'a> {
    /// Opens the zip container.
    ///
    /// # Errors
    /// [`ConvertError::NotZip`] when the bytes are not a readable zip archive.
    pub(crate) fn open(bytes: &'a [u8], limits: &Limits) -> Result<Self, ConvertError> {
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| ConvertError::NotZip {
            detail: e.to_string(),
        })?;
        let mut names = HashMap::new();
        for i in 0..zip.len() {
            if let Some(Ok(name)) = zip.name_for_index(i) {
                names
                    .entry(name.trim_start_matches('/').to_ascii_lowercase())
                    .or_insert(i);
            }
        }
        let mut pkg = Package {
            zip,
            names,
            limits: limits.clone(),
            inflated: 0,
            defaults: HashMap::new(),
            overrides: HashMap::new(),
        };
        pkg.read_content_types()?;
        Ok(pkg)
    }

    /// Whether the package has no members at all.
    pub(crate) fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether a part exists.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.names.contains_key(&key(name))
    }

    /// Inflates a part, enforcing the limits.
    pub(crate) fn read(&mut self, name: &str) -> Result<Vec<u8>, PartError> {
        let index = *self.names.get(&key(name)).ok_or(PartError::Missing)?;
        let mut file = self
            .zip
            .by_index(index)
            .map_err(|e| PartError::Corrupt(e.to_string()))?;
        let compressed = file.compressed_size().max(1);
        let mut out = Vec::new();
        let mut buf = [0u8; 32 * 1024];
        loop {
            let n = match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => return Err(PartError::Corrupt(e.to_string())),
            };
            self.inflated += n as u64;
            if self.inflated > self.limits.max_inflated_bytes {
                return Err(PartError::Fatal(ConvertError::TooLarge {
                    what: format!("the inflated package (while reading {name})"),
                    actual: self.inflated,
                    limit: self.limits.max_inflated_bytes,
                }));
            }
            out.extend_from_slice(buf.get(..n).unwrap_or(&[]));
            let len = out.len() as u64;
            if len > RATIO_FLOOR && len / compressed > self.limits.max_ratio {
                return Err(PartError::Fatal(ConvertError::ZipBomb {
                    part: name.to_string(),
                    ratio: len / compressed,
                    limit: self.limits.max_ratio,
                }));
            }
        }
        Ok(out)
    }

    /// The content type of a part (override, else extension default), lower-cased.
    pub(crate) fn content_type(&self, name: &str) -> Option<&str> {
        if let Some(t) = self.overrides.get(&key(name)) {
            return Some(t);
        }
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        self.defaults.get(&ext).map(String::as_str)
    }

    fn read_content_types(&mut self) -> Result<(), ConvertError> {
        let bytes = match self.read("[Content_Types].xml") {
            Ok(b) => b,
            Err(PartError::Fatal(e)) => return Err(e),
            Err(_) => return Ok(()),
        };
        let mut x = Xml::new(&bytes, "[Content_Types].xml", self.limits.max_depth);
        loop {
            match x.next() {
                Ok(Ev::Start(s)) if s.ns == Ns::ContentTypes => {
                    let ct = s.attr_any("ContentType").unwrap_or("").to_ascii_lowercase();
                    if s.local == "Default" {
                        if let Some(e) = s.attr_any("Extension") {
                            self.defaults.insert(e.to_ascii_lowercase(), ct);
                        }
                    } else if s.local == "Override" {
                        if let Some(p) = s.attr_any("PartName") {
                            self.overrides.insert(key(p), ct);
                        }
                    }
                }
                Ok(Ev::Eof) => return Ok(()),
                Ok(_) => {}
                Err(e @ ConvertError::TooDeep { .. }) => return Err(e),
                Err(_) => return Ok(()),
            }
        }
    }

    /// Part names, for error messages about what a foreign zip contains.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }
}

/// The lookup key of a part name: no leading slash, percent-decoded, lower-cased.
fn key(name: &str) -> String {
    percent_decode(name.trim_start_matches('/')).to_ascii_lowercase()
}

/// Decodes `%XX` escapes of a part name (Part 2, 9.1.1.1.2); invalid escapes stay.
pub(crate) fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(0);
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
