//! `docrag index`, `docrag expand` and `docrag bench-enrich`: the enrichment engine
//! from the shell. Each converts its files first (chunks of `--max-tokens`), so any
//! document can be tried without a store.

use std::io::{self, Write};
use std::time::Instant;

use docrag::enrich::{DEFAULT_INDEX_PERCENT, EnrichError, Enricher, RelatedOptions};
use docrag::{ConvertOptions, Metadata};

use super::{Common, Fail, common_flag, display_name, number, value};

/// What `docrag help` adds for these commands.
pub(crate) const USAGE: &str = "\
index     converts each FILE and prints its index-document entry (--percent of its
          tokens, default 5), entries separated by a blank line.
expand    converts FILE and expands the chunks --seq (0-based, comma-separated):
          completions plus, within --budget tokens (default 10% of the document),
          all tables (--all-tables), N pages around (--pages N) and the revision and
          comment chunks of --author; prints JSON (expanded sequence numbers, tokens).
bench-enrich  index-document build time and share of the FILEs' tokens, then the
          cost per query (microseconds) of expansions on the FILE with most chunks.";

impl Fail {
    fn enrich(err: &EnrichError) -> Self {
        Fail {
            message: format!("docrag: error [{}]: {err}", err.code()),
            exit: super::EXIT_CONVERT,
        }
    }
}

/// Runs `command` when it is one of these; `None` otherwise.
pub(crate) fn command(command: &str, args: &[String]) -> Option<Result<(), Fail>> {
    Some(match command {
        "index" => index_command(args),
        "expand" => expand_command(args),
        "bench-enrich" => bench_command(args),
        _ => return None,
    })
}

/// One converted document's records.
fn records(path: &str, common: &Common) -> Result<Vec<Metadata>, Fail> {
    let options: ConvertOptions = common.build(path).map_err(|e| Fail::convert(&e))?;
    let bytes = std::fs::read(path).map_err(|e| Fail::read(path, &e))?;
    let out = docrag::convert(&bytes, &options).map_err(|e| Fail::convert(&e))?;
    Ok(out.chunks.into_iter().map(|c| c.metadata).collect())
}

fn print(text: &str) -> Result<(), Fail> {
    let mut out = io::stdout().lock();
    match writeln!(out, "{text}") {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Fail::write(&e)),
        _ => Ok(()),
    }
}

fn percent_flag(text: &str, flag: &str) -> Result<f64, Fail> {
    text.parse::<f64>()
        .ok()
        .filter(|p| *p > 0.0 && *p <= 100.0)
        .ok_or_else(|| {
            Fail::usage(format!(
                "{flag} expects a percentage above 0 and at most 100, got '{text}'"
            ))
        })
}

fn index_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut percent = DEFAULT_INDEX_PERCENT;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--percent" => percent = percent_flag(value(&mut it, arg)?, arg)?,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("index needs at least one FILE"));
    }
    let mut entries = Vec::with_capacity(files.len());
    for path in files {
        let recs = records(path, &common)?;
        if recs.is_empty() {
            eprintln!(
                "docrag: {} has no chunks; no index entry",
                display_name(path)
            );
            continue;
        }
        let e = Enricher::new(&recs).map_err(|e| Fail::enrich(&e))?;
        entries.push(
            e.index_document(percent)
                .map_err(|e| Fail::enrich(&e))?
                .text(),
        );
    }
    print(&entries.join("\n\n"))
}

fn expand_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let (mut seqs, mut budget, mut all_tables, mut pages, mut author) =
        (None, None, false, 0u32, None);
    let mut file = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--seq" => {
                let list = value(&mut it, arg)?;
                let parsed: Result<Vec<i64>, Fail> = list
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| number(s.trim(), arg))
                    .collect();
                seqs = Some(parsed?);
            }
            "--budget" => budget = Some(number::<u64>(value(&mut it, arg)?, arg)?),
            "--all-tables" => all_tables = true,
            "--pages" => pages = number(value(&mut it, arg)?, arg)?,
            "--author" => author = Some(value(&mut it, arg)?.to_string()),
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path if file.is_none() => file = Some(path),
            extra => return Err(Fail::usage(format!("unexpected argument '{extra}'"))),
        }
    }
    let path = file.ok_or_else(|| Fail::usage("expand needs a FILE"))?;
    let seqs = seqs.ok_or_else(|| Fail::usage("expand needs --seq, e.g. --seq 3,17"))?;
    let recs = records(path, &common)?;
    let e = Enricher::new(&recs).map_err(|e| Fail::enrich(&e))?;
    let budget = budget.unwrap_or(e.token_count() / 10);
    let mut x = e.expand(&seqs).map_err(|e| Fail::enrich(&e))?;
    let mut options = RelatedOptions::new(budget);
    options.all_tables = all_tables;
    x.add_related_chunks(&options);
    if pages > 0 {
        x.add_page_chunks(true, pages, budget);
    }
    if let Some(name) = &author {
        x.add_revision_chunks(Some(name), budget);
        x.add_comment_chunks(Some(name), budget);
    }
    let report = serde_json::json!({
        "docId": e.doc_id(),
        "chunks": e.chunk_count(),
        "documentTokens": e.token_count(),
        "budget": budget,
        "anchors": x.anchors(),
        "expanded": x.expanded(),
        "retrievedTokens": x.retrieved_tokens(),
        "enrichmentTokens": x.enrichment_tokens(),
        "tokenCount": x.token_count(),
    });
    print(&report.to_string())
}

/// A small deterministic generator for bench anchors.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn bench_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut queries: u32 = 2000;
    let mut json = false;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--queries" => queries = number(value(&mut it, arg)?, arg)?,
            "--json" => json = true,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() || queries == 0 {
        return Err(Fail::usage(
            "bench-enrich needs at least one FILE and --queries of at least 1",
        ));
    }
    let mut docs = Vec::new();
    for path in &files {
        // Files that do not convert are skipped, as `bench` does.
        if let Ok(recs) = records(path, &common)
            && !recs.is_empty()
        {
            docs.push((*path, recs));
        }
    }
    docrag::tokens::count("warm the tokenizer");
    let (mut corpus_tokens, mut index_tokens) = (0u64, 0u64);
    let t0 = Instant::now();
    for (_, recs) in &docs {
        let e = Enricher::new(recs).map_err(|e| Fail::enrich(&e))?;
        let entry = e
            .index_document(DEFAULT_INDEX_PERCENT)
            .map_err(|e| Fail::enrich(&e))?;
        corpus_tokens += e.token_count();
        index_tokens += entry.tokens as u64;
    }
    let index_ms = t0.elapsed().as_secs_f64() * 1e3;
    let share = index_tokens as f64 / corpus_tokens.max(1) as f64 * 100.0;

    let Some((path, recs)) = docs.iter().max_by_key(|(_, r)| r.len()) else {
        return Err(Fail::usage("bench-enrich: no FILE converted"));
    };
    let t1 = Instant::now();
    let e = Enricher::new(recs).map_err(|e| Fail::enrich(&e))?;
    let build_us = t1.elapsed().as_secs_f64() * 1e6;
    let n = e.chunk_count() as u64;
    let budget = e.token_count() / 10;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let anchor_sets: Vec<Vec<i64>> = (0..queries)
        .map(|_| (0..8).map(|_| (next(&mut state) % n) as i64).collect())
        .collect();
    let time = |f: &dyn Fn(&[i64]) -> usize| -> f64 {
        let t = Instant::now();
        let mut sink = 0;
        for a in &anchor_sets {
            sink += f(a);
        }
        std::hint::black_box(sink);
        t.elapsed().as_secs_f64() * 1e6 / f64::from(queries)
    };
    let related_us = time(&|a| {
        let Ok(mut x) = e.expand(a) else { return 0 };
        x.add_related_chunks(&RelatedOptions::new(budget));
        x.expanded().len()
    });
    let full_us = time(&|a| {
        let Ok(mut x) = e.expand(a) else { return 0 };
        let mut o = RelatedOptions::new(budget);
        o.all_tables = true;
        x.add_related_chunks(&o);
        x.add_page_chunks(true, 1, budget);
        x.add_section_pages(1, budget);
        x.add_revision_chunks(None, budget);
        x.add_comment_chunks(None, budget);
        x.expanded().len()
    });
    let name = display_name(path);
    if json {
        let report = serde_json::json!({
            "files": docs.len(), "corpusTokens": corpus_tokens, "indexTokens": index_tokens,
            "indexSharePercent": share, "indexBuildMs": index_ms,
            "largest": name, "chunks": n, "enricherBuildUs": build_us,
            "relatedUs": related_us, "fullUs": full_us, "queries": queries,
        });
        print(&report.to_string())
    } else {
        print(&format!(
            "index document: {index_tokens} of {corpus_tokens} tokens = {share:.2}% ({} files, built in {index_ms:.1} ms)\n\
             expansion on {name} ({n} chunks, Enricher built in {build_us:.0} us): \
             combined call {related_us:.2} us/query, every method {full_us:.2} us/query (native, 8 anchors, {queries} queries)",
            docs.len()
        ))
    }
}
