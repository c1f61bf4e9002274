//! The IndexedDB schema of a collection: one database per collection, named
//! [`DB_PREFIX`] + the collection name, at version [`SCHEMA_VERSION`].
//!
//! Object stores (key paths in parentheses):
//! - `documents` (`docId`): one [`super::DocumentInfo`] per document;
//! - `chunks` (`[docId, seq]`): `{docId, seq, text}`, the chunk Markdown;
//! - `metadata` (`[docId, seq]`): `{docId, seq, record}`, the flat metadata record;
//! - `embeddings` (`[docId, modelId]`): `{docId, modelId, dim, vectors, hashes}` with
//!   `vectors` a `Float32Array` of chunk count x `dim` components in `ssSeq` order
//!   and `hashes` the content hash of each chunk text (the re-embedding cache);
//! - `settings` (`key`): `{key, value}`, the collection's settings as JSON text.
//!
//! A document's records are written in one transaction over every store, and
//! deleted in one, so a reader never sees half a document. Upgrades run each step
//! from the stored version up to [`SCHEMA_VERSION`] ([`upgrade_steps`]).

/// The schema version (the IndexedDB database version).
pub const SCHEMA_VERSION: u32 = 1;

/// Prefix of the database name: `docrag:` + collection name.
pub const DB_PREFIX: &str = "docrag:";

/// The `documents` store.
pub const DOCUMENTS: &str = "documents";
/// The `chunks` store.
pub const CHUNKS: &str = "chunks";
/// The `metadata` store.
pub const METADATA: &str = "metadata";
/// The `embeddings` store.
pub const EMBEDDINGS: &str = "embeddings";
/// The `settings` store.
pub const SETTINGS: &str = "settings";

/// Every object store, in the order a whole-collection transaction names them.
pub const ALL_STORES: [&str; 5] = [DOCUMENTS, CHUNKS, METADATA, EMBEDDINGS, SETTINGS];

/// One object store to create during an upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreSpec {
    /// The store name.
    pub name: &'static str,
    /// Its key path: one field, or a compound key of several.
    pub key_path: &'static [&'static str],
}

/// The stores that upgrading from `old` to `old + 1` creates. Version 1 creates
/// every store; later versions will add their steps here, so a database of any
/// older version reaches [`SCHEMA_VERSION`] without losing records.
pub fn upgrade_steps(old: u32) -> Vec<StoreSpec> {
    match old {
        0 => vec![
            StoreSpec {
                name: DOCUMENTS,
                key_path: &["docId"],
            },
            StoreSpec {
                name: CHUNKS,
                key_path: &["docId", "seq"],
            },
            StoreSpec {
                name: METADATA,
                key_path: &["docId", "seq"],
            },
            StoreSpec {
                name: EMBEDDINGS,
                key_path: &["docId", "modelId"],
            },
            StoreSpec {
                name: SETTINGS,
                key_path: &["key"],
            },
        ],
        _ => Vec::new(),
    }
}

/// The database name of collection `name`.
pub fn database_name(name: &str) -> String {
    format!("{DB_PREFIX}{name}")
}

/// Checks a collection name: 1 to 200 characters, no control characters.
///
/// # Errors
/// A sentence naming what is wrong.
pub fn check_name(name: &str) -> Result<(), String> {
    let chars = name.chars().count();
    if chars == 0 || name.trim().is_empty() {
        return Err("the collection name is empty".into());
    }
    if chars > 200 {
        return Err(format!(
            "the collection name has {chars} characters (at most 200)"
        ));
    }
    if name.chars().any(char::is_control) {
        return Err("the collection name contains a control character".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_one_creates_every_store() {
        let names: Vec<&str> = upgrade_steps(0).iter().map(|s| s.name).collect();
        assert_eq!(names, ALL_STORES);
        assert!(upgrade_steps(SCHEMA_VERSION).is_empty());
        assert_eq!(database_name("notes"), "docrag:notes");
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("team docs").is_ok());
        assert!(check_name("  ").is_err());
        assert!(check_name("a\u{0}b").unwrap_err().contains("control"));
        assert!(check_name(&"x".repeat(201)).unwrap_err().contains("201"));
    }
}
