//! `docrag ask`: the query pipeline from the shell, with the built-in defaults. It is
//! how a person checks a collection, and how the pipeline is benchmarked.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};

use docrag::query::{Collection, Mode, QueryOptions, Replies, ask};

use super::embed::EmbedFlags;
use super::inputs::{collect_files, warn_skipped};
use super::{Common, Fail, common_flag, display_name, json_format, number, value};

/// What `docrag help` adds for this command.
pub(crate) const USAGE: &str = "\
ask       converts each FILE (and the documents under each DIR, as export takes them;
          a file that cannot be read is skipped with a warning, and ask fails only
          when none can be; chunks of --max-tokens), then answers --question over
          them with the built-in defaults (BM25, question analysis, context
          assembly under a token budget, extractive answer). --format text (the
          default when stdout is a terminal) prints the answer and its cited
          sources (document, section, page); --format json (the default into a
          pipe or file) prints JSON: path
          taken and why, payload messages, token accounting, answer (plain text),
          answerMarkdown, answerKind (how it answered; none = declined), citations
          (document id, title, section, pages, sequence, spans) and the mode's
          vector chunks. --mode rag (default) | entire | adaptive | adaptive-rag;
          --budget N sets the context's token budget (default 4000); --chunks N
          fixes the RAG top-k instead; --percents R,C,E uses the percentage
          controls instead (retrieval, coverage, enrichment; e.g. 15,25,10).
          With --embed-url and --embed-model every chunk and the question are
          embedded, and retrieval is hybrid (cosine and BM25, BM25-anchored score
          fusion) instead of BM25 alone; the other embedding flags as for export.";

/// `docrag ask`: converts each FILE and the documents under each DIR (chunks of
/// `--max-tokens`; unreadable files skipped with a warning), builds a collection
/// and answers `--question` with the built-in defaults (BM25, heuristic
/// classification, extractive answer); prints one JSON object: the path taken and
/// why, the payload messages, the accounting (tokens), the answer, its citations
/// (document id, title, section, pages, sequence, spans in UTF-8 bytes and UTF-16
/// units) and the mode's "vector chunks" output.
pub(crate) fn ask_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut question: Option<&str> = None;
    let mut mode_name = "rag";
    let mut chunks: Option<usize> = None;
    let mut budget: Option<usize> = None;
    let mut percents: Option<(u32, u32, u32)> = None;
    let mut files: Vec<&str> = Vec::new();
    let mut embed = EmbedFlags::default();
    // Text for a person at a terminal, JSON for a program reading a pipe.
    let mut json = !io::stdout().is_terminal();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? || embed.take(arg, &mut it)? {
            continue;
        }
        match arg.as_str() {
            "--question" | "-q" => question = Some(value(&mut it, arg)?),
            "--mode" => mode_name = value(&mut it, arg)?,
            "--format" => json = json_format(value(&mut it, arg)?)?,
            "--chunks" => chunks = Some(number(value(&mut it, arg)?, arg)?),
            "--budget" => budget = Some(number(value(&mut it, arg)?, arg)?),
            "--percents" => {
                let v = value(&mut it, arg)?;
                let p: Vec<u32> = v
                    .split(',')
                    .map(|x| x.trim().parse::<u32>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        Fail::usage(format!(
                            "--percents takes R,C,E (three whole numbers), not '{v}'"
                        ))
                    })?;
                let [r, c, e] = p[..] else {
                    return Err(Fail::usage(format!(
                        "--percents takes R,C,E (three whole numbers), not '{v}'"
                    )));
                };
                percents = Some((r, c, e));
            }
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("ask needs a FILE or DIR"));
    }
    let question = question.ok_or_else(|| Fail::usage("ask needs --question TEXT"))?;
    let query_fail = |e: docrag::query::QueryError| Fail {
        message: format!("docrag: error [{}]: {e}", e.code()),
        exit: super::EXIT_CONVERT,
    };
    let mode = Mode::from_name(mode_name, chunks).map_err(|e| Fail::usage(e.to_string()))?;
    let embedder = embed.embedder()?;
    let mut cache = HashMap::new();
    let mut collection = Collection::new();
    let paths = collect_files(&files)?;
    let mut skipped = 0usize;
    let mut last_fail: Option<Fail> = None;
    for path in &paths {
        let path = &*path.to_string_lossy();
        let converted = std::fs::read(path)
            .map_err(|e| Fail::read(path, &e))
            .and_then(|bytes| {
                let options = common.build(path).map_err(|e| Fail::convert(&e))?;
                docrag::convert(&bytes, &options).map_err(|e| Fail::convert(&e))
            });
        let conversion = match converted {
            Ok(c) => c,
            // One file that cannot be read does not stop the others (as in export).
            Err(f) => {
                if paths.len() > 1 {
                    warn_skipped(&f, path);
                }
                skipped += 1;
                last_fail = Some(f);
                continue;
            }
        };
        for w in &conversion.warnings {
            eprintln!(
                "docrag: warning [{}]: {}: {}",
                w.code,
                display_name(path),
                w.message
            );
        }
        let doc_id = conversion.doc_id.clone();
        let vectors = match &embedder {
            Some(e) => {
                let texts: Vec<&str> = conversion.chunks.iter().map(|c| c.text.as_str()).collect();
                let tokens: Vec<usize> = conversion
                    .chunks
                    .iter()
                    .map(|c| c.metadata.get_int("tokenCount").unwrap_or(0).max(0) as usize)
                    .collect();
                Some(e.embed_all(&texts, &tokens, &mut cache)?)
            }
            None => None,
        };
        collection.add(conversion).map_err(query_fail)?;
        collection.set_file_name(&doc_id, path);
        if let (Some(e), Some(v)) = (&embedder, vectors) {
            collection
                .add_embeddings(&doc_id, &e.model_id, &v)
                .map_err(query_fail)?;
        }
    }
    if collection.documents().is_empty() {
        return Err(match (last_fail, paths.len()) {
            (Some(f), 1) => f,
            _ => Fail {
                message: format!(
                    "docrag: error [no-documents]: none of the {} files could be read ({skipped} skipped)",
                    paths.len()
                ),
                exit: super::EXIT_CONVERT,
            },
        });
    }
    let mut options = QueryOptions::new().with_mode(mode);
    if let Some(e) = &embedder {
        let tokens = docrag::tokens::count(question);
        let v = e.embed_all(&[question], &[tokens], &mut cache)?;
        if let Some(v) = v.into_iter().next() {
            options = options.with_query_embedding(e.model_id.clone(), v);
        }
    }
    if let Some(b) = budget {
        options = options.with_token_budget(b).map_err(query_fail)?;
    }
    if let Some((r, c, e)) = percents {
        if budget.is_some() {
            return Err(Fail::usage("give --budget or --percents, not both"));
        }
        options = options.with_percents(r, c, e).map_err(query_fail)?;
    }
    let result =
        ask(&collection, question, &[], &Replies::default(), &options).map_err(query_fail)?;
    if !json {
        return print(&text_report(&result));
    }
    let report = serde_json::json!({
        "path": result.accounting.path,
        "reason": result.accounting.reason,
        "payload": result.payload,
        "accounting": result.accounting,
        "answer": result.answer.text,
        "answerMarkdown": result.answer.markdown,
        "answerKind": result.answer.kind,
        "declined": result.answer.declined,
        "grounded": result.citations.grounded,
        "citations": result.citations.citations,
        "unknownCitations": result.citations.unknown,
        "vectorChunks": result.vector_chunks,
    });
    let mut out = io::stdout().lock();
    match serde_json::to_writer_pretty(&mut out, &report)
        .and_then(|()| writeln!(out).map_err(serde_json::Error::io))
    {
        Ok(()) => Ok(()),
        Err(e) if e.io_error_kind() == Some(io::ErrorKind::BrokenPipe) => Ok(()),
        Err(e) => Err(Fail::write(&io::Error::other(e))),
    }
}

/// The answer for a person: its text, then each cited source on a line of its own
/// as `[n] Title, Section, p. N` (`p. ~N` for an estimated page, `pp.` for a range).
fn text_report(result: &docrag::query::QueryResult) -> String {
    let mut out = result.answer.text.trim_end().to_string();
    out.push('\n');
    let mut seen = std::collections::BTreeSet::new();
    let sources: Vec<&docrag::query::Source> = result
        .citations
        .citations
        .iter()
        .map(|c| &c.source)
        .filter(|s| seen.insert(s.number))
        .collect();
    if !sources.is_empty() {
        out.push_str("\nSources:\n");
    }
    for s in sources {
        let mut line = format!("[{}] {}", s.number, s.title);
        if !s.section.is_empty() {
            line.push_str(&format!(", {}", s.section));
        }
        let tilde = if s.page_source == "estimated" {
            "~"
        } else {
            ""
        };
        match (s.first_page, s.last_page) {
            (0, _) => {}
            (a, b) if b > a => line.push_str(&format!(", pp. {tilde}{a}-{b}")),
            (a, _) => line.push_str(&format!(", p. {tilde}{a}")),
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Writes `text` to stdout; a closed pipe is not an error.
fn print(text: &str) -> Result<(), Fail> {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Fail::write(&e)),
    }
}
