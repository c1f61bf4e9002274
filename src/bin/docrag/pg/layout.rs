//! The three table layouts `docrag load` writes: docrag's own (documents + chunks),
//! the one LangChain's `PGVector` store (langchain-postgres) reads, and the one
//! LlamaIndex's `PGVectorStore` (llama-index-vector-stores-postgres) reads. Every
//! row carries the document's load hash, so a reload of an unchanged document is
//! recognised and skipped.

use postgres::Transaction;
use postgres::binary_copy::BinaryCopyInWriter;
use postgres::types::{ToSql, Type};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use docrag::store::export::ExportRow;

/// The metadata key (and docrag-layout column) of a document's load hash: SHA-256 of
/// its export lines, so any change (text, metadata, vector, model) reloads it.
pub(crate) const HASH_KEY: &str = "docrag_document_hash";

/// Where and how chunks are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `T` (one row per chunk, metadata as jsonb, embedding as vector(N)) and
    /// `T_documents` (one row per document).
    Docrag,
    /// `langchain_pg_collection` (one row, named T) and `langchain_pg_embedding`.
    LangChain,
    /// `data_T`, LlamaIndex's `PGVectorStore(table_name="T")`.
    LlamaIndex,
}

/// One document to load: its rows (in `seq` order) and its load hash.
pub(crate) struct Doc {
    pub id: String,
    pub rows: Vec<ExportRow>,
    pub hash: String,
}

impl Doc {
    /// A document of `rows` read from `lines` (their JSONL text, for the hash).
    pub(crate) fn new(id: String, rows: Vec<ExportRow>, lines: &[String]) -> Doc {
        let mut h = Sha256::new();
        for l in lines {
            h.update(l.as_bytes());
            h.update(b"\n");
        }
        let hash = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        Doc { id, rows, hash }
    }
}

/// A table name is an SQL identifier chosen by the user: letters, digits and `_`,
/// starting with a letter or `_`, at most 48 bytes (room for the suffixes).
pub(crate) fn valid_table_name(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 48
        && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The LangChain collection id docrag uses for a new collection named `name`: a UUID
/// from SHA-256 of the name (version-4 bits), so that two loads agree on it.
pub(crate) fn collection_uuid(name: &str) -> uuid::Uuid {
    let d = Sha256::digest(format!("docrag-collection\0{name}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&d[..16]);
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

impl Layout {
    pub(crate) fn parse(s: &str) -> Option<Layout> {
        match s {
            "docrag" => Some(Layout::Docrag),
            "langchain" => Some(Layout::LangChain),
            "llamaindex" => Some(Layout::LlamaIndex),
            _ => None,
        }
    }

    /// The table holding one row per chunk (unquoted).
    pub(crate) fn chunks_table(self, t: &str) -> String {
        match self {
            Layout::Docrag => t.to_string(),
            Layout::LangChain => "langchain_pg_embedding".into(),
            Layout::LlamaIndex => format!("data_{t}"),
        }
    }

    /// Tables created by `--create` (IF NOT EXISTS: existing tables are kept).
    pub(crate) fn create_sql(self, t: &str, dim: usize) -> String {
        match self {
            Layout::Docrag => format!(
                r#"CREATE TABLE IF NOT EXISTS "{t}_documents" (
                     document_id text PRIMARY KEY, file_name text NOT NULL, title text NOT NULL,
                     chunk_count integer NOT NULL, token_count integer NOT NULL,
                     {HASH_KEY} text NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now());
                   CREATE TABLE IF NOT EXISTS "{t}" (
                     chunk_id text PRIMARY KEY,
                     document_id text NOT NULL REFERENCES "{t}_documents" ON DELETE CASCADE,
                     seq integer NOT NULL, text text NOT NULL, token_count integer NOT NULL,
                     metadata jsonb NOT NULL, embedding vector({dim}) NOT NULL,
                     embedding_model text NOT NULL);"#
            ),
            // langchain-postgres's schema (EmbeddingStore / CollectionStore).
            Layout::LangChain => format!(
                r#"CREATE TABLE IF NOT EXISTS langchain_pg_collection (
                     uuid uuid PRIMARY KEY, name varchar NOT NULL UNIQUE, cmetadata json);
                   CREATE TABLE IF NOT EXISTS langchain_pg_embedding (
                     id varchar PRIMARY KEY,
                     collection_id uuid REFERENCES langchain_pg_collection(uuid) ON DELETE CASCADE,
                     embedding vector({dim}), document varchar, cmetadata jsonb);
                   CREATE INDEX IF NOT EXISTS ix_cmetadata_gin
                     ON langchain_pg_embedding USING gin (cmetadata jsonb_path_ops);"#
            ),
            // llama-index-vector-stores-postgres's data model (use_jsonb=False).
            Layout::LlamaIndex => format!(
                r#"CREATE TABLE IF NOT EXISTS "data_{t}" (
                     id bigserial PRIMARY KEY, text varchar NOT NULL, metadata_ json,
                     node_id varchar, embedding vector({dim}));"#
            ),
        }
    }

    /// The btree index on what a load finds and deletes a document by, made before
    /// the rows (each document's transaction looks its rows up).
    pub(crate) fn doc_index_sql(self, t: &str) -> String {
        let chunks = self.chunks_table(t);
        let by_doc = match self {
            Layout::Docrag => "(document_id)".to_string(),
            Layout::LangChain => "(collection_id, (cmetadata->>'docrag_document_id'))".to_string(),
            Layout::LlamaIndex => "((metadata_->>'ref_doc_id'))".to_string(),
        };
        format!(r#"CREATE INDEX IF NOT EXISTS "{chunks}_docrag_document" ON "{chunks}" {by_doc};"#)
    }

    /// The names of the document and HNSW indexes (quoted, for `to_regclass`): a
    /// load skips an index that exists, which a user who does not own the table
    /// could not even re-declare with IF NOT EXISTS.
    pub(crate) fn index_names(self, t: &str) -> [String; 2] {
        let chunks = self.chunks_table(t);
        [
            format!(r#""{chunks}_docrag_document""#),
            format!(r#""{chunks}_embedding_hnsw""#),
        ]
    }

    /// The HNSW (cosine) index on the embedding, made after the rows: building it
    /// once is faster than growing it row by row. A larger maintenance memory keeps
    /// the graph in memory while it is built (pgvector's advice).
    pub(crate) fn vector_index_sql(self, t: &str) -> String {
        let chunks = self.chunks_table(t);
        format!(
            r#"SET maintenance_work_mem = '1GB';
               CREATE INDEX IF NOT EXISTS "{chunks}_embedding_hnsw" ON "{chunks}" USING hnsw (embedding vector_cosine_ops);
               RESET maintenance_work_mem;"#
        )
    }

    /// The WHERE clause (after `WHERE`) that selects document `$1`'s rows, and the
    /// collection filter `$2` where the layout has one.
    fn doc_filter(self) -> &'static str {
        match self {
            Layout::Docrag => "document_id = $1",
            Layout::LangChain => "collection_id = $2 AND cmetadata->>'docrag_document_id' = $1",
            Layout::LlamaIndex => "metadata_->>'ref_doc_id' = $1",
        }
    }

    /// The load hash stored with document `doc`, and its row count.
    pub(crate) fn stored(
        self,
        tx: &mut Transaction,
        t: &str,
        collection: Option<uuid::Uuid>,
        doc: &str,
    ) -> Result<(Option<String>, i64), postgres::Error> {
        let chunks = self.chunks_table(t);
        let hash = match self {
            Layout::Docrag => format!("metadata->>'{HASH_KEY}'"),
            Layout::LangChain => format!("cmetadata->>'{HASH_KEY}'"),
            Layout::LlamaIndex => format!("metadata_->>'{HASH_KEY}'"),
        };
        let sql = format!(
            r#"SELECT min({hash}), count(*) FROM "{chunks}" WHERE {}"#,
            self.doc_filter()
        );
        let row = match (self, collection) {
            (Layout::LangChain, Some(c)) => tx.query_one(&sql, &[&doc, &c])?,
            _ => tx.query_one(&sql, &[&doc])?,
        };
        Ok((row.get(0), row.get(1)))
    }

    /// Deletes document `doc`'s rows.
    pub(crate) fn delete(
        self,
        tx: &mut Transaction,
        t: &str,
        collection: Option<uuid::Uuid>,
        doc: &str,
    ) -> Result<u64, postgres::Error> {
        let chunks = self.chunks_table(t);
        let sql = format!(r#"DELETE FROM "{chunks}" WHERE {}"#, self.doc_filter());
        let n = match (self, collection) {
            (Layout::LangChain, Some(c)) => tx.execute(&sql, &[&doc, &c])?,
            _ => tx.execute(&sql, &[&doc])?,
        };
        if self == Layout::Docrag {
            tx.execute(
                &format!(r#"DELETE FROM "{t}_documents" WHERE document_id = $1"#),
                &[&doc],
            )?;
        }
        Ok(n)
    }

    /// Writes `doc`'s rows with binary COPY (`vector` is the server's vector type).
    pub(crate) fn copy(
        self,
        tx: &mut Transaction,
        t: &str,
        collection: Option<uuid::Uuid>,
        doc: &Doc,
        vector: &Type,
    ) -> Result<(), postgres::Error> {
        let chunks = self.chunks_table(t);
        if self == Layout::Docrag {
            let first = doc.rows.first();
            let title = first
                .and_then(|r| r.metadata.get("docTitle"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let tokens: i64 = doc.rows.iter().map(|r| i64::from(r.token_count)).sum();
            tx.execute(
                &format!(
                    r#"INSERT INTO "{t}_documents" (document_id, file_name, title, chunk_count, token_count, {HASH_KEY})
                       VALUES ($1, $2, $3, $4, $5, $6)"#
                ),
                &[
                    &doc.id,
                    &first.map_or("", |r| r.file_name.as_str()),
                    &title,
                    &(doc.rows.len() as i32),
                    &(tokens.min(i64::from(i32::MAX)) as i32),
                    &doc.hash,
                ],
            )?;
        }
        let (columns, types): (&str, Vec<Type>) = match self {
            Layout::Docrag => (
                "chunk_id, document_id, seq, text, token_count, metadata, embedding, embedding_model",
                vec![
                    Type::TEXT,
                    Type::TEXT,
                    Type::INT4,
                    Type::TEXT,
                    Type::INT4,
                    Type::JSONB,
                    vector.clone(),
                    Type::TEXT,
                ],
            ),
            Layout::LangChain => (
                "id, collection_id, embedding, document, cmetadata",
                vec![
                    Type::VARCHAR,
                    Type::UUID,
                    vector.clone(),
                    Type::VARCHAR,
                    Type::JSONB,
                ],
            ),
            Layout::LlamaIndex => (
                "text, metadata_, node_id, embedding",
                vec![Type::VARCHAR, Type::JSON, Type::VARCHAR, vector.clone()],
            ),
        };
        let sink = tx.copy_in(&format!(
            r#"COPY "{chunks}" ({columns}) FROM STDIN (FORMAT binary)"#
        ))?;
        let mut w = BinaryCopyInWriter::new(sink, &types);
        let collection = collection.unwrap_or_default();
        for r in &doc.rows {
            let v = pgvector::Vector::from(r.embedding.clone().unwrap_or_default());
            let meta = self.metadata(r, &doc.hash);
            let seq = r.seq as i32;
            let tokens = r.token_count as i32;
            let model = r.embedding_model.clone().unwrap_or_default();
            // One `langchain_pg_embedding` holds every collection and its `id` is the
            // primary key: the collection name keeps two collections of the same
            // chunks apart.
            let langchain_id = format!("{t}:{}", r.chunk_id);
            let values: Vec<&(dyn ToSql + Sync)> = match self {
                Layout::Docrag => vec![
                    &r.chunk_id,
                    &r.document_id,
                    &seq,
                    &r.text,
                    &tokens,
                    &meta,
                    &v,
                    &model,
                ],
                Layout::LangChain => vec![&langchain_id, &collection, &v, &r.text, &meta],
                Layout::LlamaIndex => vec![&r.text, &meta, &r.chunk_id, &v],
            };
            w.write(&values)?;
        }
        w.finish()?;
        Ok(())
    }

    /// The row's metadata as this layout stores it: the flat record plus the load hash,
    /// and for LlamaIndex the `ref_doc_id`/`doc_id`/`document_id` its deletes and
    /// filters read.
    fn metadata(self, r: &ExportRow, hash: &str) -> Value {
        let mut m: Map<String, Value> = r.metadata.clone();
        m.insert(HASH_KEY.into(), Value::String(hash.into()));
        if self == Layout::LlamaIndex {
            m.insert(
                "_node_content".into(),
                Value::String(llama_node(r).to_string()),
            );
            m.insert("_node_type".into(), Value::String("TextNode".into()));
            for key in ["ref_doc_id", "doc_id", "document_id"] {
                m.insert(key.into(), Value::String(r.document_id.clone()));
            }
        }
        if self != Layout::Docrag {
            // What reloads and searches key on, whatever the flat record holds.
            m.insert("docrag_chunk_id".into(), Value::String(r.chunk_id.clone()));
            m.insert(
                "docrag_document_id".into(),
                Value::String(r.document_id.clone()),
            );
            m.insert("docrag_seq".into(), Value::from(r.seq));
        }
        Value::Object(m)
    }

    /// `SELECT chunk id, document id, seq, cosine distance` ordered by distance to `$1`
    /// (LangChain: within collection `$3`), `$2` rows; ties by document id, then seq
    /// as a number (the order of the browser's `collection.search()`).
    pub(crate) fn search_sql(self, t: &str) -> String {
        let chunks = self.chunks_table(t);
        match self {
            Layout::Docrag => format!(
                r#"SELECT chunk_id, document_id, seq, embedding <=> $1 AS distance, text
                   FROM "{chunks}" ORDER BY embedding <=> $1, document_id, seq LIMIT $2"#
            ),
            Layout::LangChain => format!(
                r#"SELECT cmetadata->>'docrag_chunk_id', cmetadata->>'docrag_document_id', (cmetadata->>'docrag_seq')::int, embedding <=> $1, document
                   FROM "{chunks}" WHERE collection_id = $3 ORDER BY embedding <=> $1, 2, 3 LIMIT $2"#
            ),
            Layout::LlamaIndex => format!(
                r#"SELECT node_id, metadata_->>'ref_doc_id', (metadata_->>'docrag_seq')::int, embedding <=> $1, text
                   FROM "{chunks}" ORDER BY embedding <=> $1, 2, 3 LIMIT $2"#
            ),
        }
    }
}

/// The serialized LlamaIndex `TextNode` that `PGVectorStore` rebuilds a node from
/// (`metadata_dict_to_node` reads `_node_content`): the chunk id, the flat record as
/// metadata, the document as SOURCE relationship (so `node.ref_doc_id` is the
/// document id), and the empty and bookkeeping fields kept out of the text an LLM
/// sees. The text itself stays in the `text` column.
fn llama_node(r: &ExportRow) -> Value {
    let hidden_from_llm: Vec<&String> = r
        .metadata
        .iter()
        .filter(|(k, v)| {
            v.as_str() == Some("") || ["ssDocId", "ssSeq", "tokenCount"].contains(&k.as_str())
        })
        .map(|(k, _)| k)
        .collect();
    let all: Vec<&String> = r.metadata.keys().collect();
    serde_json::json!({
        "id_": r.chunk_id,
        "metadata": r.metadata,
        "excluded_embed_metadata_keys": all,
        "excluded_llm_metadata_keys": hidden_from_llm,
        "relationships": {
            "1": { "node_id": r.document_id, "node_type": "4", "metadata": {}, "class_name": "RelatedNodeInfo" }
        },
        "text": "",
        "class_name": "TextNode",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_and_collection_ids() {
        assert!(valid_table_name("docs_2026") && valid_table_name("_x"));
        assert!(!valid_table_name("1docs") && !valid_table_name("a;drop") && !valid_table_name(""));
        assert!(!valid_table_name(&"a".repeat(49)));
        let a = collection_uuid("docs");
        assert_eq!(a, collection_uuid("docs"));
        assert_ne!(a, collection_uuid("docs2"));
        assert_eq!(a.get_version_num(), 4);
    }
}
