//! The flat metadata record attached to each chunk.
//!
//! Every value is a string or an integer (booleans are `"yes"`/`"no"`), with no arrays
//! or nested objects, so a record fits any flat store (a database row, a vector store's
//! metadata, JSON) unchanged. Field order is kept as inserted so output is stable.

use serde::ser::{Serialize, SerializeMap, Serializer};

/// A metadata value: a string or a whole number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaValue {
    /// A string value (also used for yes/no flags and `; `-separated lists).
    Str(String),
    /// An integer value (pages, counts, sequence numbers).
    Int(i64),
}

impl MetaValue {
    /// `"yes"` or `"no"`.
    pub fn flag(b: bool) -> Self {
        MetaValue::Str(if b { "yes" } else { "no" }.to_string())
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            MetaValue::Str(s) => Some(s),
            MetaValue::Int(_) => None,
        }
    }

    /// The integer value, if this is an integer.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            MetaValue::Int(n) => Some(*n),
            MetaValue::Str(_) => None,
        }
    }
}

impl From<&str> for MetaValue {
    fn from(s: &str) -> Self {
        MetaValue::Str(s.to_string())
    }
}

impl From<String> for MetaValue {
    fn from(s: String) -> Self {
        MetaValue::Str(s)
    }
}

impl From<i64> for MetaValue {
    fn from(n: i64) -> Self {
        MetaValue::Int(n)
    }
}

impl Serialize for MetaValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MetaValue::Str(v) => s.serialize_str(v),
            MetaValue::Int(n) => s.serialize_i64(*n),
        }
    }
}

/// One chunk's metadata record: ordered `(field name, value)` pairs, names unique.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata(Vec<(String, MetaValue)>);

impl Metadata {
    /// An empty record.
    pub fn new() -> Self {
        Metadata(Vec::new())
    }

    /// Sets `name` to `value`, replacing an existing value in place.
    pub fn set(&mut self, name: &str, value: impl Into<MetaValue>) {
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value,
            None => self.0.push((name.to_string(), value)),
        }
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&MetaValue> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The string value of `name` (None when absent or an integer).
    pub fn get_str(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(MetaValue::as_str)
    }

    /// The integer value of `name` (None when absent or a string).
    pub fn get_int(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(MetaValue::as_int)
    }

    /// Fields in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &MetaValue)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the record has no fields.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Metadata {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
