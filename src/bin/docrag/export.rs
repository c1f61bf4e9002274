//! `docrag export`: documents to a JSONL file of chunks (`docrag.chunk.v1`, see
//! `docrag::store::export`), embedded on request, for `docrag load`.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, BufRead, BufWriter, Write};
use std::path::Path;

use docrag::provider::text_hash;
use docrag::store::export::{ExportChunk, export_line, parse_line};

use super::embed::{EmbedFlags, Embedder};
use super::inputs::{collect_files, warn_skipped};
use super::{Common, Fail, common_flag, value};

/// What `docrag help` adds for this command.
pub(crate) const USAGE: &str = "\
export    converts each FILE (and every .docx .html .htm .rtf .md .markdown .txt
          .pdf under each DIR) and writes one JSON object per chunk to --jsonl OUT ('-' =
          stdout), format docrag.chunk.v1. With --embed-url and --embed-model each
          chunk carries its embedding; chunks whose text and model already have one in
          OUT (from an earlier export) are not sent again. A file that cannot be
          converted is skipped with a warning.";

pub(crate) fn export_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut embed = EmbedFlags::default();
    let mut out: Option<&str> = None;
    let mut inputs: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? || embed.take(arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--jsonl" => out = Some(value(&mut it, arg)?),
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => inputs.push(path),
        }
    }
    let out = out.ok_or_else(|| Fail::usage("export needs --jsonl OUT"))?;
    if inputs.is_empty() {
        return Err(Fail::usage("export needs a FILE or DIR"));
    }
    if common.doc_id.is_some() && inputs.len() > 1 {
        return Err(Fail::usage("--doc-id names one document: give one FILE"));
    }
    let embedder = embed.embedder()?;
    let files = collect_files(&inputs)?;
    let mut docs = Vec::new();
    let mut seen = HashSet::new();
    let mut skipped = 0;
    for path in &files {
        let name = path.to_string_lossy();
        match convert_one(path, &common) {
            Ok(c) if c.chunks.is_empty() => {
                eprintln!("docrag: warning [empty-document]: skipped {name}: no text");
                skipped += 1;
            }
            Ok(c) if !seen.insert(c.doc_id.clone()) => {
                eprintln!(
                    "docrag: warning [duplicate]: skipped {name}: same content as an earlier file ({})",
                    c.doc_id
                );
                skipped += 1;
            }
            Ok(c) => docs.push((display_file_name(path), c)),
            Err(f) => {
                warn_skipped(&f, &name);
                skipped += 1;
            }
        }
    }
    if docs.is_empty() {
        return Err(Fail {
            message: format!(
                "docrag: error [empty-export]: no document could be exported ({skipped} files skipped); {out} was left as it was"
            ),
            exit: super::EXIT_CONVERT,
        });
    }
    let chunks: Vec<(&str, &docrag::Chunk, &str)> = docs
        .iter()
        .flat_map(|(file, c)| {
            c.chunks
                .iter()
                .map(move |ch| (c.doc_id.as_str(), ch, file.as_str()))
        })
        .collect();
    let tokens: Vec<usize> = chunks
        .iter()
        .map(|(_, c, _)| {
            c.metadata
                .get_int("tokenCount")
                .map_or_else(|| docrag::tokens::count(&c.text), |n| n as usize)
        })
        .collect();
    let mut embedded = 0;
    let vectors = match &embedder {
        Some(e) => {
            let mut cache = if out == "-" {
                HashMap::new()
            } else {
                cached_vectors(Path::new(out), e)
            };
            let before = cache.len();
            let texts: Vec<&str> = chunks.iter().map(|(_, c, _)| c.text.as_str()).collect();
            let v = e.embed_all(&texts, &tokens, &mut cache)?;
            embedded = cache.len() - before;
            Some(v)
        }
        None => None,
    };
    let lines = chunks.iter().enumerate().map(|(i, (doc_id, c, file))| {
        let seq = c.metadata.get_int("ssSeq").unwrap_or(i as i64) as u32;
        export_line(&ExportChunk {
            document_id: doc_id,
            seq,
            file_name: file,
            text: &c.text,
            token_count: tokens[i],
            metadata: &c.metadata,
            embedding: match (&embedder, &vectors) {
                (Some(e), Some(v)) => Some((e.model_id.as_str(), v[i].as_slice())),
                _ => None,
            },
        })
    });
    write_lines(out, lines)?;
    let cached = if embedder.is_some() {
        chunks.len() - embedded
    } else {
        0
    };
    eprintln!(
        "docrag: exported {} chunks of {} documents to {out}{}{}",
        chunks.len(),
        docs.len(),
        match &embedder {
            Some(e) => format!(
                " ({} embedded with {}, {cached} from the earlier export)",
                embedded, e.model_id
            ),
            None => String::new(),
        },
        if skipped > 0 {
            format!("; {skipped} files skipped")
        } else {
            String::new()
        }
    );
    Ok(())
}

fn convert_one(path: &Path, common: &Common) -> Result<docrag::Conversion, Fail> {
    let name = path.to_string_lossy();
    let options = common.build(&name).map_err(|e| Fail::convert(&e))?;
    let bytes = fs::read(path).map_err(|e| Fail::read(&name, &e))?;
    docrag::convert(&bytes, &options).map_err(|e| Fail::convert(&e))
}

fn display_file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Vectors of `embedder`'s model in an earlier export at `path`, by content hash. A
/// missing or unreadable file, or lines of another format, give none (it is about to
/// be replaced).
fn cached_vectors(path: &Path, embedder: &Embedder) -> HashMap<String, Vec<f32>> {
    let mut cache = HashMap::new();
    let Ok(file) = fs::File::open(path) else {
        return cache;
    };
    for (i, line) in io::BufReader::new(file).lines().enumerate() {
        let Ok(line) = line else { break };
        let Ok(row) = parse_line(&line, i + 1) else {
            continue;
        };
        if let (Some(v), Some(m)) = (row.embedding, row.embedding_model)
            && m == embedder.model_id
        {
            cache.insert(text_hash(&m, &row.text), v);
        }
    }
    cache
}

/// Writes the lines to stdout, or to `out` through a temporary file renamed into
/// place (an interrupted export leaves the earlier file whole).
fn write_lines(out: &str, lines: impl Iterator<Item = String>) -> Result<(), Fail> {
    let write = |w: &mut dyn Write, lines: &mut dyn Iterator<Item = String>| -> io::Result<()> {
        for l in lines {
            w.write_all(l.as_bytes())?;
            w.write_all(b"\n")?;
        }
        w.flush()
    };
    let mut lines = lines;
    if out == "-" {
        let mut w = BufWriter::new(io::stdout().lock());
        return match write(&mut w, &mut lines) {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Fail::write(&e)),
            _ => Ok(()),
        };
    }
    // Something that is not a plain file (a device, a symlink) is written through, as
    // a shell redirection would; a plain file is replaced whole, keeping its mode.
    let existing = fs::symlink_metadata(out).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        let result = fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(out)
            .and_then(|f| {
                let mut w = BufWriter::new(f);
                write(&mut w, &mut lines)
            });
        return result.map_err(|e| Fail::write(&e));
    }
    let tmp = format!("{out}.tmp-{}", std::process::id());
    let result = fs::File::create(&tmp).and_then(|f| {
        let mut w = BufWriter::new(f);
        write(&mut w, &mut lines)?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()
    });
    let keep_mode = |()| match &existing {
        Some(m) => fs::set_permissions(&tmp, m.permissions()),
        None => Ok(()),
    };
    match result
        .and_then(keep_mode)
        .and_then(|()| fs::rename(&tmp, out))
    {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(Fail::write(&e))
        }
    }
}
