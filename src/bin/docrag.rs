//! `docrag`: the native command line.
//!
//! ```text
//! docrag convert FILE [--max-tokens N] [--first-page N --last-page N]
//!                     [--format jsonl|markdown] [--doc-id ID] [--title T]
//!                     [--page-mode auto|estimate|saved]
//! docrag bench-pages [--max-tokens N] FILE...
//! docrag bench [--iterations N] [--max-tokens N] [--json] FILE...
//! docrag bench-cosine [--n N --dim D] [--k K] [--queries Q] [--json]
//! docrag index FILE... [--percent N]
//! docrag expand FILE --seq 3,17 [--budget TOKENS] [--all-tables] [--pages N] [--author NAME]
//! docrag bench-enrich [--queries N] [--json] FILE...
//! docrag summarize FILE... [--mode M] [--focus T] [--provider URL --model NAME]
//! docrag bench-summarize [--context-window N] [--json] FILE...
//! docrag export FILE|DIR... --jsonl OUT [--embed-url URL --embed-model NAME ...]
//! docrag load postgres://... FILE.jsonl [--table T] [--create] [--layout L]
//! docrag search postgres://... --question Q [--table T] [--layout L] [--k N] [--exact]
//! ```
//!
//! Exit codes (all at most 100, so harnesses can tell them from signals):
//! 0 success; 2 the document could not be converted (`docrag: error [<code>]: ...`
//! on stderr, the code from `ConvertError::code`); 64 usage error; 66 a file could
//! not be read; 69 the model provider or the database failed; 74 output could not be
//! written.
//!
//! Arguments are parsed by hand: the grammar is tiny, and the library crate (which
//! is also built for wasm) takes no dependency for it.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use docrag::{Conversion, ConvertError, ConvertOptions};

#[path = "docrag/ask.rs"]
mod ask;
#[path = "docrag/embed.rs"]
mod embed;
#[path = "docrag/enrich.rs"]
mod enrich;
#[path = "docrag/export.rs"]
mod export;
#[path = "docrag/inputs.rs"]
mod inputs;
#[path = "docrag/pages.rs"]
mod pages;
#[path = "docrag/pg/mod.rs"]
mod pg;
#[path = "docrag/summarize.rs"]
mod summarize;

const EXIT_CONVERT: u8 = 2;
const EXIT_USAGE: u8 = 64;
const EXIT_NO_INPUT: u8 = 66;
const EXIT_IO: u8 = 74;

/// The start of an unknown-option message ([`Fail::unknown_option`]).
const UNKNOWN_OPTION: &str = "unknown option ";

const USAGE: &str = "\
usage: docrag convert FILE [--max-tokens N] [--first-page N --last-page N]
                           [--format jsonl|markdown] [--doc-id ID] [--title T]
                           [--page-mode auto|estimate|saved] [--max-bytes N]
       docrag bench [--iterations N] [--max-tokens N] [--json] FILE...
       docrag bench-cosine [--n N --dim D] [--k K] [--queries Q] [--json]
       docrag ask FILE|DIR... --question TEXT [--mode rag|entire|adaptive|adaptive-rag]
                  [--chunks N | --budget TOKENS | --percents R,C,E] [--max-tokens N]
                  [--format text|json] [--max-bytes N] [--embed-url URL --embed-model NAME]
       docrag index FILE... [--percent N] [--max-tokens N]
       docrag expand FILE --seq 3,17 [--budget TOKENS] [--all-tables] [--pages N]
                     [--author NAME] [--max-tokens N]
       docrag bench-enrich [--queries N] [--max-tokens N] [--json] FILE...
       docrag bench-summarize [--context-window TOKENS] [--json] FILE...
       docrag export FILE|DIR... --jsonl OUT [--max-tokens N]
                     [--embed-url URL --embed-model NAME [--embed-api openai|ollama]
                      [--embed-key-env VAR] [--dimensions N] [--batch N]]
       docrag load postgres://... FILE.jsonl [--table T] [--create]
                   [--layout docrag|langchain|llamaindex]
       docrag search postgres://... --question TEXT [--table T] [--layout L] [--k N]
                     [--exact] [--json] --embed-url URL --embed-model NAME [...]
       docrag system-message
       docrag --version | --help

convert   writes the chunks of FILE (DOCX, HTML, RTF, Markdown, text or PDF) to
          stdout: jsonl (default) is one
          {\"text\":...,\"metadata\":{...}} per line; markdown is the chunk texts
          separated by a '---' line. Warnings go to stderr. Every command that
          converts files takes --max-bytes N, the largest input in bytes (default
          268435456, 256 MiB).
bench     converts each FILE --iterations times (default 5) in-process and prints
          the input megabytes (10^6 bytes), seconds and MB/s.
bench-cosine  cosine top-K (default 10) over N random DIM-dimensional vectors
          (default: 100000 x 384, then 20000 x 1536), Q queries (default 20):
          milliseconds per query and the bytes scanned per second, next to the
          machine's read bandwidth.
bench-summarize  model calls and tokens sent per summary mode, with simulated
          replies (real o200k token counts), for each FILE and for all as one
          collection.";

/// A failure that ends the program: message for stderr and exit code.
struct Fail {
    message: String,
    exit: u8,
}

impl Fail {
    fn usage(message: impl Into<String>) -> Self {
        Fail {
            message: format!("docrag: {}\n{USAGE}", message.into()),
            exit: EXIT_USAGE,
        }
    }

    /// An option the command does not take; [`run`] adds the closest one it does.
    fn unknown_option(flag: &str) -> Self {
        Fail::usage(format!("{UNKNOWN_OPTION}'{flag}'"))
    }

    /// A usage failure of `command` with that command's help in place of the whole
    /// help, and for an unknown option the closest option the help names.
    fn for_command(mut self, command: &str) -> Self {
        if self.exit != EXIT_USAGE {
            return self;
        }
        let Some(help) = command_help(command) else {
            return self;
        };
        let Some(head) = self.message.strip_suffix(&format!("\n{USAGE}")) else {
            return self;
        };
        let mut message = head.to_string();
        if let Some(flag) = head
            .strip_prefix(&format!("docrag: {UNKNOWN_OPTION}'"))
            .and_then(|f| f.strip_suffix('\''))
            && let Some(near) = closest_option(flag, &help)
        {
            message.push_str(&format!(" (did you mean '{near}'?)"));
        }
        self.message = format!("{message}\n{help}");
        self
    }

    fn convert(err: &ConvertError) -> Self {
        // The library's message says to raise the limit in the options; here the
        // option is a flag.
        let hint = match err {
            ConvertError::TooLarge { what, .. } if what == "the input" => {
                "; --max-bytes N raises it"
            }
            _ => "",
        };
        Fail {
            message: format!("docrag: error [{}]: {err}{hint}", err.code()),
            exit: EXIT_CONVERT,
        }
    }

    fn read(path: &str, err: &io::Error) -> Self {
        Fail {
            message: format!("docrag: error [io]: cannot read {path}: {err}"),
            exit: EXIT_NO_INPUT,
        }
    }

    fn write(err: &io::Error) -> Self {
        Fail {
            message: format!("docrag: error [io]: cannot write output: {err}"),
            exit: EXIT_IO,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutputFormat {
    Jsonl,
    Markdown,
}

/// Options shared by `convert` and `bench`, collected before validation.
#[derive(Default)]
struct Common {
    max_tokens: Option<usize>,
    first_page: Option<i64>,
    last_page: Option<i64>,
    doc_id: Option<String>,
    title: Option<String>,
    pages: Option<docrag::PageMode>,
    /// `--max-bytes`: the largest input accepted (`Limits::max_input_bytes`).
    max_bytes: Option<u64>,
}

impl Common {
    /// Builds validated options; `file_name` helps format detection and the title.
    fn build(&self, file_name: &str) -> Result<ConvertOptions, ConvertError> {
        let mut o = ConvertOptions::new().with_file_name(file_name);
        if let Some(n) = self.max_tokens {
            o = o.with_max_tokens(n)?;
        }
        if self.first_page.is_some() || self.last_page.is_some() {
            o = o.with_page_range(self.first_page.unwrap_or(-1), self.last_page.unwrap_or(-1))?;
        }
        if let Some(id) = &self.doc_id {
            o = o.with_doc_id(id.clone())?;
        }
        if let Some(t) = &self.title {
            o = o.with_title(t.clone());
        }
        if let Some(p) = self.pages {
            o = o.with_pages(p);
        }
        if let Some(n) = self.max_bytes {
            let limits = docrag::Limits {
                max_input_bytes: n,
                ..o.limits.clone()
            };
            o = o.with_limits(limits);
        }
        Ok(o)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.exit)
        }
    }
}

fn run(args: &[String]) -> Result<(), Fail> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Fail::usage("missing command"));
    };
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", command_help(command).unwrap_or_else(full_help));
        return Ok(());
    }
    dispatch(command, rest).map_err(|f| f.for_command(command))
}

/// Runs `command` with its arguments `rest`.
fn dispatch(command: &str, rest: &[String]) -> Result<(), Fail> {
    if let Some(result) = enrich::command(command, rest) {
        return result;
    }
    if let Some(result) = pg::command(command, rest) {
        return result;
    }
    match command {
        "convert" => convert_command(rest),
        "bench" => bench_command(rest),
        "bench-cosine" => bench_cosine_command(rest),
        "bench-pages" => pages::bench_pages_command(rest),
        "ask" => ask::ask_command(rest),
        "summarize" => summarize::summarize_command(rest),
        "export" => export::export_command(rest),
        "bench-summarize" => summarize::bench_summarize_command(rest),
        "system-message" => {
            let mut out = io::stdout().lock();
            writeln!(out, "{}", docrag::SYSTEM_MESSAGE).map_err(|e| Fail::write(&e))
        }
        "--version" | "-V" => {
            println!("docrag {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "--help" | "-h" | "help" => {
            println!("{}", full_help());
            Ok(())
        }
        other => Err(Fail::usage(format!("unknown command '{other}'"))),
    }
}

/// Every command's synopsis and description.
fn full_help() -> String {
    [
        USAGE,
        pages::USAGE,
        enrich::USAGE,
        ask::USAGE,
        summarize::USAGE,
        export::USAGE,
        embed::FLAGS,
        pg::USAGE,
    ]
    .join("\n")
}

/// The help of one command (`docrag COMMAND --help`): its synopsis lines (with
/// their continuation lines) and its description from [`full_help`]; `None` for a
/// command the help does not name.
fn command_help(command: &str) -> Option<String> {
    let help = full_help();
    let mut synopsis = Vec::new();
    let mut description = Vec::new();
    // Which block the current line continues: 0 none, 1 synopsis, 2 description.
    let mut open = 0;
    for line in help.lines() {
        let trimmed = line.trim_start();
        let head = trimmed.trim_start_matches("usage: ");
        if head.starts_with("docrag ") {
            let name = head["docrag ".len()..].split_whitespace().next();
            open = if name == Some(command) { 1 } else { 0 };
        } else if !line.starts_with(' ') && !line.is_empty() {
            let name = line.split_whitespace().next();
            open = if name == Some(command) { 2 } else { 0 };
        } else if line.is_empty() {
            open = 0;
            continue;
        }
        match open {
            1 => synopsis.push(head.to_string()),
            2 => description.push(line.to_string()),
            _ => {}
        }
    }
    (!synopsis.is_empty() || !description.is_empty()).then(|| {
        let mut out = String::from("usage: ");
        out.push_str(&synopsis.join("\n       "));
        if !description.is_empty() {
            out.push_str("\n\n");
            out.push_str(&description.join("\n"));
        }
        out
    })
}

/// The option named in `help` closest to `flag` (Levenshtein distance at most a
/// third of its length, and at most 3), if any.
fn closest_option(flag: &str, help: &str) -> Option<String> {
    let mut options: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || matches!(c, '[' | ']' | '|' | ',' | '(' | ')'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.trim_end_matches(['.', ';', ':']))
        .collect();
    options.sort_unstable();
    options.dedup();
    let limit = (flag.chars().count() / 3).clamp(1, 3);
    options
        .into_iter()
        .map(|o| (levenshtein(flag, o), o))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, o)| o.to_string())
}

/// Edits (insertions, deletions, substitutions of one character) from `a` to `b`.
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Whether `--format` asks for JSON (`json`) rather than text (`text`).
fn json_format(format: &str) -> Result<bool, Fail> {
    match format {
        "json" => Ok(true),
        "text" => Ok(false),
        other => Err(Fail::usage(format!(
            "--format expects text or json, got '{other}'"
        ))),
    }
}

/// Takes the value after `flag`, or a usage error naming the flag.
fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a str, Fail> {
    it.next()
        .map(String::as_str)
        .ok_or_else(|| Fail::usage(format!("{flag} needs a value")))
}

fn number<T: std::str::FromStr>(text: &str, flag: &str) -> Result<T, Fail> {
    text.parse()
        .map_err(|_| Fail::usage(format!("{flag} expects a whole number, got '{text}'")))
}

/// Parses a flag shared by both commands; `Ok(false)` when `arg` is not one.
fn common_flag<'a>(
    arg: &str,
    it: &mut impl Iterator<Item = &'a String>,
    c: &mut Common,
) -> Result<bool, Fail> {
    match arg {
        "--max-tokens" => c.max_tokens = Some(number(value(it, arg)?, arg)?),
        "--first-page" => c.first_page = Some(number(value(it, arg)?, arg)?),
        "--last-page" => c.last_page = Some(number(value(it, arg)?, arg)?),
        "--doc-id" => c.doc_id = Some(value(it, arg)?.to_string()),
        "--title" => c.title = Some(value(it, arg)?.to_string()),
        "--max-bytes" => c.max_bytes = Some(number(value(it, arg)?, arg)?),
        "--page-mode" => {
            let v = value(it, arg)?;
            c.pages = Some(docrag::PageMode::parse(v).map_err(|_| {
                Fail::usage(format!("{arg} expects auto, estimate or saved, got '{v}'"))
            })?);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn convert_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut format = OutputFormat::Jsonl;
    let mut file: Option<&str> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--format" => {
                format = match value(&mut it, arg)? {
                    "jsonl" => OutputFormat::Jsonl,
                    "markdown" | "md" => OutputFormat::Markdown,
                    other => {
                        return Err(Fail::usage(format!(
                            "--format expects jsonl or markdown, got '{other}'"
                        )));
                    }
                }
            }
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path if file.is_none() => file = Some(path),
            extra => return Err(Fail::usage(format!("unexpected argument '{extra}'"))),
        }
    }
    let path = file.ok_or_else(|| Fail::usage("convert needs a FILE"))?;
    let options = common.build(path).map_err(|e| Fail::convert(&e))?;
    let bytes = std::fs::read(path).map_err(|e| Fail::read(path, &e))?;
    let conversion = docrag::convert(&bytes, &options).map_err(|e| Fail::convert(&e))?;
    for w in &conversion.warnings {
        eprintln!("docrag: warning [{}]: {}", w.code, w.message);
    }
    if conversion.chunks.is_empty() {
        // The JS API refuses such a document (`empty-document`); a batch over many
        // files goes on, with the same words on stderr.
        let e = docrag::ConvertError::no_text(&options);
        eprintln!("docrag: warning [{}]: {e}", e.code());
    }
    match write_conversion(&conversion, format) {
        Ok(()) => Ok(()),
        // A closed pipe (`docrag convert f | head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Fail::write(&e)),
    }
}

fn write_conversion(conversion: &Conversion, format: OutputFormat) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    for (i, chunk) in conversion.chunks.iter().enumerate() {
        match format {
            OutputFormat::Jsonl => {
                serde_json::to_writer(&mut out, chunk)?;
                out.write_all(b"\n")?;
            }
            OutputFormat::Markdown => {
                if i > 0 {
                    out.write_all(b"\n---\n\n")?;
                }
                out.write_all(chunk.text.as_bytes())?;
                if !chunk.text.ends_with('\n') {
                    out.write_all(b"\n")?;
                }
            }
        }
    }
    out.flush()
}

fn bench_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let mut iterations: u32 = 5;
    let mut json = false;
    let mut files: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--iterations" | "-n" => iterations = number(value(&mut it, arg)?, arg)?,
            "--json" => json = true,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("bench needs at least one FILE"));
    }
    if iterations == 0 {
        return Err(Fail::usage("--iterations must be at least 1"));
    }
    let mut inputs = Vec::with_capacity(files.len());
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| Fail::read(path, &e))?;
        let options = common.build(path).map_err(|e| Fail::convert(&e))?;
        inputs.push((*path, bytes, options));
    }
    // One untimed pass: builds the tokenizer table and drops files that fail.
    let mut failed = Vec::new();
    inputs.retain(
        |(path, bytes, options)| match docrag::convert(bytes, options) {
            Ok(_) => true,
            Err(e) => {
                failed.push(format!("{}: {}", display_name(path), e.code()));
                false
            }
        },
    );
    let mut chunks = 0usize;
    let mut bytes_total = 0u64;
    let start = Instant::now();
    for _ in 0..iterations {
        for (_, bytes, options) in &inputs {
            if let Ok(c) = docrag::convert(bytes, options) {
                chunks += c.chunks.len();
            }
            bytes_total += bytes.len() as u64;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let mb = bytes_total as f64 / 1e6;
    let rate = if seconds > 0.0 { mb / seconds } else { 0.0 };
    for f in &failed {
        eprintln!("docrag: bench skipped {f}");
    }
    if json {
        let report = serde_json::json!({
            "files": inputs.len(),
            "failed": failed.len(),
            "iterations": iterations,
            "bytes": bytes_total,
            "seconds": seconds,
            "mbPerSecond": rate,
            "chunks": chunks,
        });
        println!("{report}");
    } else {
        println!(
            "native: {mb:.3} MB in {seconds:.3} s = {rate:.2} MB/s ({} files x {iterations}, {} skipped, {chunks} chunks)",
            inputs.len(),
            failed.len()
        );
    }
    Ok(())
}

fn display_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// `docrag bench-cosine`: exact cosine top-k latency of [`docrag::retrieve::VectorIndex`]
/// over deterministic random vectors (the xorshift32 stream scripts/bench.mjs also
/// uses), and the read bandwidth of this machine for comparison.
fn bench_cosine_command(args: &[String]) -> Result<(), Fail> {
    let (mut n, mut dim, mut k, mut queries, mut json) = (None, None, 10usize, 20usize, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--n" => n = Some(number::<usize>(value(&mut it, arg)?, arg)?),
            "--dim" => dim = Some(number::<usize>(value(&mut it, arg)?, arg)?),
            "--k" => k = number(value(&mut it, arg)?, arg)?,
            "--queries" => queries = number::<usize>(value(&mut it, arg)?, arg)?.max(1),
            "--json" => json = true,
            other => return Err(Fail::unknown_option(other)),
        }
    }
    let shapes = match (n, dim) {
        (Some(n), Some(dim)) => vec![(n, dim)],
        (None, None) => vec![(100_000, 384), (20_000, 1536)],
        _ => {
            return Err(Fail::usage(
                "bench-cosine needs both --n and --dim, or neither",
            ));
        }
    };
    let memory = read_bandwidth();
    for (n, dim) in shapes {
        let mut rng = XorShift32(0x9E37_79B9);
        let mut index =
            docrag::retrieve::VectorIndex::new(dim).map_err(|e| Fail::usage(e.to_string()))?;
        let mut v = vec![0f32; dim];
        for i in 0..n {
            v.iter_mut().for_each(|x| *x = rng.unit());
            let doc = format!("doc{:05}", i / 100);
            index
                .add(&doc, (i % 100) as u32, &v)
                .map_err(|e| Fail::usage(e.to_string()))?;
        }
        let qs: Vec<Vec<f32>> = (0..queries)
            .map(|_| (0..dim).map(|_| rng.unit()).collect())
            .collect();
        let _ = index.search(&qs[0], k); // warm-up
        let start = Instant::now();
        let mut found = 0;
        for q in &qs {
            found += index.search(q, k).map_or(0, |h| h.len());
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / queries as f64;
        let gbs = (n * dim * 4) as f64 / (ms / 1e3) / 1e9;
        if json {
            let report = serde_json::json!({
                "n": n, "dim": dim, "k": k, "queries": queries, "hits": found,
                "msPerQuery": ms, "gbPerSecond": gbs, "memoryGbPerSecond": memory,
            });
            println!("{report}");
        } else {
            println!(
                "cosine top-{k} {n} x {dim}: {ms:.2} ms/query, {gbs:.1} GB/s scanned \
                 (machine read bandwidth {memory:.1} GB/s)"
            );
        }
    }
    Ok(())
}

/// Read bandwidth in GB/s (10^9 bytes): the best of 5 sums over a 256 MiB buffer with
/// eight independent accumulators (so the loop is bound by memory, not by adds).
fn read_bandwidth() -> f64 {
    let buf: Vec<u64> = (0..(32usize << 20)).map(|i| i as u64).collect();
    let mut best = f64::INFINITY;
    let mut sink = 0u64;
    for _ in 0..5 {
        let start = Instant::now();
        let mut acc = [0u64; 8];
        for c in buf.chunks_exact(8) {
            for i in 0..8 {
                acc[i] = acc[i].wrapping_add(c[i]);
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        sink = sink.wrapping_add(acc.iter().fold(0, |a, &b| a.wrapping_add(b)));
    }
    std::hint::black_box(sink);
    (buf.len() * 8) as f64 / best / 1e9
}

/// xorshift32 (Marsaglia): the same stream as scripts/bench.mjs, so native and wasm
/// scan the same vectors.
struct XorShift32(u32);

impl XorShift32 {
    /// The next value mapped to [-1, 1).
    fn unit(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x as f64 / 2_147_483_648.0 - 1.0) as f32
    }
}
