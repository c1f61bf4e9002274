//! `docrag load` and `docrag search`: an export (`docrag.chunk.v1` JSONL) into
//! PostgreSQL with pgvector, and the same cosine top-k answered by SQL.
//!
//! A load is one transaction per document: its rows are deleted and written again
//! (binary COPY) only when its load hash differs from the stored one, so a reload of
//! an unchanged file changes no row, and a connection lost mid-load leaves every
//! document either as it was or wholly loaded.

mod layout;

use std::fs;
use std::io::{self, BufRead};

use pgvector::Vector;
use postgres::error::SqlState;
use postgres::types::{Kind, Type};
use postgres::{Client, NoTls};

use docrag::store::export::{ExportRow, parse_line};

use super::embed::{EXIT_PROVIDER, EmbedFlags, Progress};
use super::{EXIT_NO_INPUT, Fail, number, value};
use layout::{Doc, Layout, collection_uuid, valid_table_name};

/// What `docrag help` adds for these commands.
pub(crate) const USAGE: &str = "\
load      loads an export into PostgreSQL with pgvector: --table T (default docrag),
          --layout docrag (tables T_documents and T), langchain (langchain_pg_collection
          named T + langchain_pg_embedding) or llamaindex (data_T); --create makes the
          tables. One transaction per document; unchanged documents are skipped;
          indexes (HNSW cosine, document id) are made after the load.
search    embeds --question with the --embed-* provider and prints the --k (default
          10) nearest chunks by cosine distance from T (--exact: no index, the same
          order as a full scan; --json: one object per line).";

/// Runs `command` when it is one of these; `None` otherwise.
pub(crate) fn command(command: &str, args: &[String]) -> Option<Result<(), Fail>> {
    Some(match command {
        "load" => load_command(args),
        "search" => search_command(args),
        _ => return None,
    })
}

fn db_fail(message: String) -> Fail {
    Fail {
        message: format!("docrag: error [database]: {message}"),
        exit: EXIT_PROVIDER,
    }
}

/// A database error in words a user can act on.
fn explain(context: &str, e: &postgres::Error) -> Fail {
    let Some(db) = e.as_db_error() else {
        if e.is_closed() || e.to_string().contains("connection") {
            return db_fail(format!(
                "{context}: the connection to the server was lost ({e}); documents committed before it are loaded, the one in progress was rolled back: run the load again to finish"
            ));
        }
        return db_fail(format!("{context}: {e}"));
    };
    let code = db.code();
    let hint = if *code == SqlState::INSUFFICIENT_PRIVILEGE {
        " (missing privileges: the user needs CREATE on the schema for --create, and INSERT, DELETE, SELECT on the tables)"
    } else if *code == SqlState::UNDEFINED_TABLE {
        " (the tables do not exist: add --create)"
    } else if *code == SqlState::ADMIN_SHUTDOWN || *code == SqlState::CONNECTION_FAILURE {
        " (the connection was closed by the server; the document in progress was rolled back: run the load again)"
    } else {
        ""
    };
    db_fail(format!(
        "{context}: {} [{}]{hint}",
        db.message(),
        code.code()
    ))
}

fn connect(url: &str) -> Result<Client, Fail> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(Fail::usage(format!(
            "expected a postgres://user@host:port/database URL, got '{url}'"
        )));
    }
    Client::connect(url, NoTls).map_err(|e| {
        let shown = redact(url);
        let detail = e
            .as_db_error()
            .map(|d| d.message().to_string())
            .or_else(|| std::error::Error::source(&e).map(ToString::to_string))
            .unwrap_or_else(|| e.to_string());
        let hint = if detail.contains("TLS") || url.contains("sslmode=require") {
            " (docrag connects without TLS: use a local or tunnelled server and sslmode=disable or prefer)"
        } else {
            ""
        };
        db_fail(format!("cannot connect to {shown}: {detail}{hint}"))
    })
}

/// `url` with its password replaced by `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some(x) => x,
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// The server's `vector` type (its OID differs per database), creating the extension
/// when allowed.
fn vector_type(client: &mut Client, create: bool) -> Result<Type, Fail> {
    let find = |c: &mut Client| {
        c.query_opt(
            "SELECT t.oid, n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
             WHERE t.typname = 'vector' ORDER BY n.nspname = 'public' DESC LIMIT 1",
            &[],
        )
    };
    let mut row = find(client).map_err(|e| explain("looking up the vector type", &e))?;
    if row.is_none() && create {
        if let Err(e) = client.batch_execute("CREATE EXTENSION IF NOT EXISTS vector") {
            let detail = e
                .as_db_error()
                .map_or(e.to_string(), |d| d.message().to_string());
            return Err(db_fail(format!(
                "pgvector is not enabled in this database and could not be enabled ({detail}): install pgvector on the server and run CREATE EXTENSION vector as a user allowed to"
            )));
        }
        row = find(client).map_err(|e| explain("looking up the vector type", &e))?;
    }
    let Some(row) = row else {
        return Err(db_fail(
            "pgvector is not enabled in this database: run CREATE EXTENSION vector (or load with --create)".into(),
        ));
    };
    Ok(Type::new(
        "vector".into(),
        row.get(0),
        Kind::Simple,
        row.get::<_, String>(1),
    ))
}

/// Dimension of the chunks table's `embedding` column, `None` when the table is
/// missing, `Some(None)` when the column has no fixed dimension.
fn column_dim(client: &mut Client, table: &str) -> Result<Option<Option<i32>>, Fail> {
    let row = client
        .query_opt(
            "SELECT a.atttypmod FROM pg_attribute a
             WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding' AND NOT a.attisdropped",
            &[&format!("\"{table}\"")],
        )
        .map_err(|e| explain("reading the table's columns", &e))?;
    Ok(row.map(|r| Some(r.get::<_, i32>(0)).filter(|&d| d > 0)))
}

/// Whether the table or index `name` (quoted) exists.
fn relation_exists(client: &mut Client, name: &str) -> Result<bool, Fail> {
    client
        .query_one("SELECT to_regclass($1) IS NOT NULL", &[&name])
        .map(|r| r.get(0))
        .map_err(|e| explain("reading the catalog", &e))
}

/// Reads an export into documents (lines of one document must be consecutive).
fn read_export(path: &str) -> Result<Vec<Doc>, Fail> {
    let file = fs::File::open(path).map_err(|e| Fail::read(path, &e))?;
    let mut docs: Vec<Doc> = Vec::new();
    let mut cur: Option<(String, Vec<ExportRow>, Vec<String>)> = None;
    let mut seen = std::collections::HashSet::new();
    let bad = |m: String| Fail {
        message: format!("docrag: error [bad-export]: {path}: {m}"),
        exit: EXIT_NO_INPUT,
    };
    for (i, line) in io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| bad(format!("line {}: {e}", i + 1)))?;
        let line = if i == 0 {
            line.trim_start_matches('\u{feff}').to_string()
        } else {
            line
        };
        if line.trim().is_empty() {
            continue;
        }
        let row = parse_line(&line, i + 1).map_err(|e| bad(e.to_string()))?;
        if let Some(problem) = unstorable(&row) {
            return Err(bad(format!(
                "line {}: chunk {}: {problem}",
                i + 1,
                row.chunk_id
            )));
        }
        if row.embedding.is_none() {
            return Err(bad(format!(
                "line {}: chunk {} has no embedding; export with --embed-url and --embed-model",
                i + 1,
                row.chunk_id
            )));
        }
        if cur.as_ref().is_none_or(|c| c.0 != row.document_id) {
            if let Some((id, rows, lines)) = cur.take() {
                docs.push(Doc::new(id, rows, &lines));
            }
            if !seen.insert(row.document_id.clone()) {
                return Err(bad(format!(
                    "line {}: document {} appears twice (its lines must be consecutive)",
                    i + 1,
                    row.document_id
                )));
            }
            cur = Some((row.document_id.clone(), Vec::new(), Vec::new()));
        }
        if let Some(c) = cur.as_mut() {
            c.1.push(row);
            c.2.push(line);
        }
    }
    if let Some((id, rows, lines)) = cur {
        docs.push(Doc::new(id, rows, &lines));
    }
    let first = docs.iter().flat_map(|d| &d.rows).next();
    let (model, dim) = first
        .map(|r| {
            (
                r.embedding_model.clone(),
                r.embedding.as_ref().map_or(0, Vec::len),
            )
        })
        .unwrap_or_default();
    for r in docs.iter().flat_map(|d| &d.rows) {
        let len = r.embedding.as_ref().map_or(0, Vec::len);
        if r.embedding_model != model || len != dim {
            return Err(bad(format!(
                "chunk {} is embedded with {} ({len} dimensions), the first with {} ({dim}): one load holds one model",
                r.chunk_id,
                r.embedding_model.as_deref().unwrap_or("none"),
                model.as_deref().unwrap_or("none")
            )));
        }
    }
    Ok(docs)
}

/// What PostgreSQL or the layouts cannot store, found before anything is written.
fn unstorable(r: &ExportRow) -> Option<String> {
    if r.seq > i32::MAX as u32 || r.token_count > i32::MAX as u32 {
        return Some("seq or tokenCount is larger than 2147483647".into());
    }
    if r.embedding
        .as_ref()
        .is_some_and(|v| v.iter().any(|x| !x.is_finite()))
    {
        return Some("the embedding has a component that is not a finite 32-bit float".into());
    }
    if r.text.contains('\0') || r.chunk_id.contains('\0') || r.document_id.contains('\0') {
        return Some("a NUL character (U+0000), which PostgreSQL text cannot hold".into());
    }
    for (k, v) in &r.metadata {
        match v {
            serde_json::Value::Object(_) | serde_json::Value::Array(_) => {
                return Some(format!(
                    "metadata field {k:?} is not flat (an object or array)"
                ));
            }
            serde_json::Value::String(t) if t.contains('\0') || k.contains('\0') => {
                return Some(format!("metadata field {k:?} holds a NUL character"));
            }
            _ => {}
        }
    }
    None
}

struct Target {
    url: String,
    table: String,
    layout: Layout,
}

fn target_flag<'a>(
    arg: &str,
    it: &mut impl Iterator<Item = &'a String>,
    t: &mut Target,
) -> Result<bool, Fail> {
    match arg {
        "--table" => t.table = value(it, arg)?.to_string(),
        "--layout" => {
            let v = value(it, arg)?;
            t.layout = Layout::parse(v).ok_or_else(|| {
                Fail::usage(format!(
                    "--layout expects docrag, langchain or llamaindex, got '{v}'"
                ))
            })?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn check_target(t: &Target) -> Result<(), Fail> {
    if t.url.is_empty() {
        return Err(Fail::usage("a postgres:// URL is needed"));
    }
    if !valid_table_name(&t.table) {
        return Err(Fail::usage(format!(
            "--table '{}': letters, digits and _ only, starting with a letter, at most 48",
            t.table
        )));
    }
    Ok(())
}

fn load_command(args: &[String]) -> Result<(), Fail> {
    let mut t = Target {
        url: String::new(),
        table: "docrag".into(),
        layout: Layout::Docrag,
    };
    let mut create = false;
    let mut file: Option<&str> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if target_flag(arg, &mut it, &mut t)? {
            continue;
        }
        match arg.as_str() {
            "--create" => create = true,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            url if t.url.is_empty() && url.contains("://") => t.url = url.to_string(),
            path if file.is_none() => file = Some(path),
            extra => return Err(Fail::usage(format!("unexpected argument '{extra}'"))),
        }
    }
    check_target(&t)?;
    let path =
        file.ok_or_else(|| Fail::usage("load needs an export FILE (docrag export --jsonl)"))?;
    let docs = read_export(path)?;
    let dim = docs
        .iter()
        .flat_map(|d| &d.rows)
        .next()
        .and_then(|r| r.embedding.as_ref())
        .map_or(0, Vec::len);
    let mut client = connect(&t.url)?;
    let vector = vector_type(&mut client, create)?;
    let chunks = t.layout.chunks_table(&t.table);
    if create && dim > 0 {
        // Two loads creating the same tables at once would collide in the catalog.
        let sql = format!(
            "BEGIN; SELECT pg_advisory_xact_lock(hashtext('docrag-create')); {} COMMIT;",
            t.layout.create_sql(&t.table, dim)
        );
        client
            .batch_execute(&sql)
            .map_err(|e| explain("creating the tables", &e))?;
    }
    let column = column_dim(&mut client, &chunks)?;
    match column {
        None if docs.is_empty() => {}
        None => {
            return Err(db_fail(format!(
                "table {chunks} does not exist: add --create"
            )));
        }
        Some(Some(d)) if d as usize != dim && dim > 0 => {
            return Err(db_fail(format!(
                "dimension mismatch: {chunks}.embedding is vector({d}) and the export's vectors have {dim} dimensions (another embedding model?): {}",
                if t.layout == Layout::LangChain {
                    "every LangChain collection shares langchain_pg_embedding: use another database or the docrag layout"
                } else {
                    "load into another --table"
                }
            )));
        }
        Some(_) => {}
    }
    let collection = if t.layout == Layout::LangChain {
        Some(langchain_collection(&mut client, &t.table)?)
    } else {
        None
    };
    let [doc_index, vector_index] = t.layout.index_names(&t.table);
    if !docs.is_empty() && !relation_exists(&mut client, &doc_index)? {
        client
            .batch_execute(&t.layout.doc_index_sql(&t.table))
            .map_err(|e| explain("creating the document index", &e))?;
    }
    let progress = Progress::new(docs.len(), 0).labelled("loading", "documents");
    let (mut loaded, mut unchanged, mut rows) = (0, 0, 0);
    for (i, doc) in docs.iter().enumerate() {
        let context = format!("document {}", doc.id);
        let mut tx = client.transaction().map_err(|e| explain(&context, &e))?;
        // Two loads of the same document at once take turns (no duplicate rows).
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext($1))",
            &[&format!("docrag-load/{chunks}/{}", doc.id)],
        )
        .map_err(|e| explain(&context, &e))?;
        let (hash, count) = t
            .layout
            .stored(&mut tx, &t.table, collection, &doc.id)
            .map_err(|e| explain(&context, &e))?;
        if hash.as_deref() == Some(doc.hash.as_str()) && count == doc.rows.len() as i64 {
            unchanged += 1;
        } else {
            t.layout
                .delete(&mut tx, &t.table, collection, &doc.id)
                .map_err(|e| explain(&context, &e))?;
            t.layout
                .copy(&mut tx, &t.table, collection, doc, &vector)
                .map_err(|e| explain(&context, &e))?;
            tx.commit().map_err(|e| explain(&context, &e))?;
            loaded += 1;
            rows += doc.rows.len();
        }
        progress.show(i + 1);
    }
    progress.finish();
    if dim > 2000 && !docs.is_empty() {
        eprintln!(
            "docrag: warning [no-index]: pgvector's HNSW index takes at most 2,000 dimensions and these vectors have {dim}: searches scan every row"
        );
    } else if column == Some(None) && !docs.is_empty() {
        // LangChain creates `embedding vector` without a dimension unless told one.
        eprintln!(
            "docrag: warning [no-dimension]: {chunks}.embedding has no fixed dimension, which an HNSW index needs: searches scan every row (ALTER TABLE {chunks} ALTER COLUMN embedding TYPE vector({dim}) allows the index)"
        );
    } else if !docs.is_empty() && !relation_exists(&mut client, &vector_index)? {
        client
            .batch_execute(&t.layout.vector_index_sql(&t.table))
            .map_err(|e| explain("creating the HNSW index", &e))?;
    }
    eprintln!(
        "docrag: loaded {loaded} documents ({rows} chunks) into {chunks}; {unchanged} unchanged"
    );
    Ok(())
}

/// The uuid of the LangChain collection named `name`, created when missing.
fn langchain_collection(client: &mut Client, name: &str) -> Result<uuid::Uuid, Fail> {
    let found = client
        .query_opt(
            "SELECT uuid FROM langchain_pg_collection WHERE name = $1",
            &[&name],
        )
        .map_err(|e| explain("reading langchain_pg_collection", &e))?;
    if let Some(row) = found {
        return Ok(row.get(0));
    }
    let id = collection_uuid(name);
    client
        .execute(
            "INSERT INTO langchain_pg_collection (uuid, name, cmetadata) VALUES ($1, $2, '{}'::json)",
            &[&id, &name],
        )
        .map_err(|e| explain("creating the LangChain collection", &e))?;
    Ok(id)
}

/// Whether the server's pgvector has iterative index scans (0.8 and later).
fn iterative_scans(tx: &mut postgres::Transaction) -> Result<bool, Fail> {
    let row = tx
        .query_opt(
            "SELECT string_to_array(extversion, '.')::int[] >= '{0,8}'::int[] FROM pg_extension WHERE extname = 'vector'",
            &[],
        )
        .map_err(|e| explain("search", &e))?;
    Ok(row.is_some_and(|r| r.get::<_, Option<bool>>(0).unwrap_or(false)))
}

fn search_command(args: &[String]) -> Result<(), Fail> {
    let mut t = Target {
        url: String::new(),
        table: "docrag".into(),
        layout: Layout::Docrag,
    };
    let mut embed = EmbedFlags::default();
    let mut question: Option<&str> = None;
    let mut k: i64 = 10;
    let (mut exact, mut json) = (false, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if target_flag(arg, &mut it, &mut t)? || embed.take(arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--question" => question = Some(value(&mut it, arg)?),
            "--k" => k = number(value(&mut it, arg)?, arg)?,
            "--exact" => exact = true,
            "--json" => json = true,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            url if t.url.is_empty() => t.url = url.to_string(),
            extra => return Err(Fail::usage(format!("unexpected argument '{extra}'"))),
        }
    }
    check_target(&t)?;
    if !(t.url.starts_with("postgres://") || t.url.starts_with("postgresql://")) {
        return Err(Fail::usage(format!(
            "expected a postgres://user@host:port/database URL, got '{}'",
            t.url
        )));
    }
    let question = question
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| Fail::usage("search needs a non-empty --question TEXT"))?;
    if !(1..=1000).contains(&k) {
        return Err(Fail::usage("--k expects 1 to 1000"));
    }
    let embedder = embed.embedder()?.ok_or_else(|| {
        Fail::usage("search needs --embed-url and --embed-model (the export's model)")
    })?;
    // The database is checked before the provider is paid for an embedding.
    let mut client = connect(&t.url)?;
    vector_type(&mut client, false)?;
    let chunks = t.layout.chunks_table(&t.table);
    if column_dim(&mut client, &chunks)?.is_none() {
        return Err(db_fail(format!(
            "table {chunks} does not exist: load an export into it first (docrag load --create)"
        )));
    }
    if t.layout == Layout::Docrag {
        let models: Vec<String> = client
            .query(
                &format!(r#"SELECT DISTINCT embedding_model FROM "{chunks}" LIMIT 3"#),
                &[],
            )
            .map_err(|e| explain("search", &e))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if !models.is_empty() && !models.contains(&embedder.model_id) {
            return Err(Fail::usage(format!(
                "{chunks} holds vectors of {}, not {}: pass the export's --embed-model (and --dimensions)",
                models.join(", "),
                embedder.model_id
            )));
        }
    }
    let tokens = [docrag::tokens::count(question)];
    let mut none = std::collections::HashMap::new();
    let q = embedder
        .embed_all(&[question], &tokens, &mut none)?
        .pop()
        .unwrap_or_default();
    let mut tx = client.transaction().map_err(|e| explain("search", &e))?;
    // `--exact` reads every row (the order a browser's full cosine scan gives);
    // otherwise the HNSW index answers, with a candidate list wide enough for k.
    let mut setting = if exact {
        "SET LOCAL enable_indexscan = off".to_string()
    } else {
        format!("SET LOCAL hnsw.ef_search = {}", (k * 4).clamp(40, 1000))
    };
    // LangChain's collections share one table: the index's candidates are filtered by
    // collection afterwards, so a small collection would get fewer than k rows unless
    // the scan goes on (pgvector 0.8's iterative scans).
    if !exact && t.layout == Layout::LangChain && iterative_scans(&mut tx)? {
        setting.push_str("; SET LOCAL hnsw.iterative_scan = strict_order");
    }
    tx.batch_execute(&setting)
        .map_err(|e| explain("search", &e))?;
    let sql = t.layout.search_sql(&t.table);
    let v = Vector::from(q);
    let rows = match t.layout {
        Layout::LangChain => {
            let c = tx
                .query_opt(
                    "SELECT uuid FROM langchain_pg_collection WHERE name = $1",
                    &[&t.table],
                )
                .map_err(|e| explain("search", &e))?
                .ok_or_else(|| db_fail(format!("no LangChain collection named {}", t.table)))?;
            let c: uuid::Uuid = c.get(0);
            tx.query(&sql, &[&v, &k, &c])
        }
        _ => tx.query(&sql, &[&v, &k]),
    }
    .map_err(|e| explain("search", &e))?;
    for r in rows {
        // Rows another tool wrote may lack what docrag writes: nothing here is assumed.
        let (id, doc, seq, distance, text): (
            Option<String>,
            Option<String>,
            Option<i32>,
            Option<f64>,
            Option<String>,
        ) = (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
        let (id, text) = (id.unwrap_or_default(), text.unwrap_or_default());
        let score = distance.map(|d| 1.0 - d).filter(|s| s.is_finite());
        let head: String = text
            .lines()
            .skip_while(|l| l.starts_with('[') || l.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(80)
            .collect();
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "chunkId": id, "documentId": doc, "seq": seq,
                    "score": score, "text": head,
                })
            );
        } else {
            let score = score.map_or_else(|| "   -  ".to_string(), |s| format!("{s:.4}"));
            println!("{score}  {id}  {head}");
        }
    }
    Ok(())
}
