//! `docrag summarize` (a summary of one or more files, through an OpenAI-compatible
//! chat endpoint or extractively) and `docrag bench-summarize` (model calls and
//! tokens per mode, with simulated replies, in-process).

use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use docrag::query::summarize::{RequestId, Step, Summarizer, Summary, SummaryMode, SummaryOptions};
use docrag::query::{Collection, ModelRequest, QueryError};

use super::{Common, Fail, common_flag, display_name, json_format, number, value};

pub(crate) const USAGE: &str = "\
       docrag summarize FILE... [--mode map-reduce|hierarchical|iterative|topics|extractive]
                  [--focus TEXT] [--provider URL --model NAME [--key-env VAR]]
                  [--context-window N] [--concurrency N] [--format text|json] [--max-tokens N]
       docrag bench-summarize [--context-window N] [--json] FILE...

summarize  summarizes the FILEs (one collection): with --provider, through the
          OpenAI-compatible POST URL/v1/chat/completions (the key, if any, from the
          environment variable --key-env; map calls --concurrency at a time, default
          4), mode hierarchical by default; without one, extractive. Prints the
          summary, then its warning and trace (text), or the whole result (json).
bench-summarize  for the longest FILE and for all FILEs as one collection: model
          calls and tokens sent/received per mode, replies simulated in-process.";

/// Exit code when the provider cannot be reached or keeps failing.
const EXIT_PROVIDER: u8 = 69;

fn query_fail(e: &QueryError) -> Fail {
    Fail {
        message: format!("docrag: error [{}]: {e}", e.code()),
        exit: super::EXIT_CONVERT,
    }
}

/// An OpenAI-compatible chat endpoint.
struct Provider {
    url: String,
    model: String,
    key: Option<String>,
    agent: ureq::Agent,
}

impl Provider {
    fn new(base: &str, model: &str, key: Option<String>) -> Self {
        let base = base.trim_end_matches('/');
        let url = if base.ends_with("/chat/completions") {
            base.to_string()
        } else if base.ends_with("/v1") {
            format!("{base}/chat/completions")
        } else {
            format!("{base}/v1/chat/completions")
        };
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(300)))
            .http_status_as_error(false)
            .build()
            .into();
        Provider {
            url,
            model: model.to_string(),
            key,
            agent,
        }
    }

    /// The reply text; retries 429 and 5xx three times with backoff.
    fn chat(&self, req: &ModelRequest) -> Result<String, String> {
        let body = serde_json::json!({
            "model": self.model,
            "messages": req.messages.iter().map(|m| serde_json::json!({
                "role": m.role, "content": m.content,
            })).collect::<Vec<_>>(),
            "max_tokens": req.max_tokens,
            "temperature": 0,
        })
        .to_string();
        let mut wait = Duration::from_millis(250);
        for attempt in 0..4 {
            let mut r = self
                .agent
                .post(&self.url)
                .header("content-type", "application/json");
            if let Some(k) = &self.key {
                r = r.header("authorization", &format!("Bearer {k}"));
            }
            let resp = r.send(&body).map_err(|e| format!("{}: {e}", self.url))?;
            let status = resp.status().as_u16();
            let text = resp
                .into_body()
                .read_to_string()
                .map_err(|e| format!("{}: {e}", self.url))?;
            if (status == 429 || status >= 500) && attempt < 3 {
                std::thread::sleep(wait);
                wait *= 2;
                continue;
            }
            if status != 200 {
                return Err(format!("{} answered {status}: {}", self.url, text.trim()));
            }
            let v: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("{}: the reply is not JSON: {e}", self.url))?;
            return v["choices"][0]["message"]["content"]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{}: no choices[0].message.content", self.url));
        }
        Err(format!("{}: still failing after retries", self.url))
    }
}

/// Runs `s` to the end, `ask` answering each request, `concurrency` at a time.
fn drive<F>(s: &mut Summarizer, concurrency: usize, ask: F) -> Result<Summary, String>
where
    F: Fn(&ModelRequest) -> Result<String, String> + Sync,
{
    let start = Instant::now();
    loop {
        match s.next_requests() {
            Step::Done(mut summary) => {
                summary.trace.wall_ms = Some(start.elapsed().as_millis() as u64);
                return Ok(*summary);
            }
            Step::Waiting => {
                return Err("the summarizer is waiting for replies it never asked for".into());
            }
            Step::Requests(reqs) => {
                let replies = run_all(&reqs, concurrency, &ask);
                for (id, reply) in replies {
                    let reply = reply?;
                    s.submit(id, &reply).map_err(|e| e.to_string())?;
                }
            }
        }
    }
}

type Replies = Vec<(RequestId, Result<String, String>)>;

fn run_all<F>(reqs: &[(RequestId, ModelRequest)], concurrency: usize, ask: &F) -> Replies
where
    F: Fn(&ModelRequest) -> Result<String, String> + Sync,
{
    if concurrency <= 1 || reqs.len() <= 1 {
        return reqs.iter().map(|(id, r)| (*id, ask(r))).collect();
    }
    let next = AtomicUsize::new(0);
    let out: Mutex<Replies> = Mutex::new(Vec::with_capacity(reqs.len()));
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(reqs.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((id, r)) = reqs.get(i) else { break };
                    let reply = ask(r);
                    if let Ok(mut o) = out.lock() {
                        o.push((*id, reply));
                    }
                }
            });
        }
    });
    let mut v = out.into_inner().unwrap_or_default();
    v.sort_by_key(|(id, _)| *id);
    v
}

fn load(common: &Common, files: &[&str]) -> Result<Collection, Fail> {
    let mut c = Collection::new();
    for path in files {
        let bytes = std::fs::read(path).map_err(|e| Fail::read(path, &e))?;
        let options = common.build(path).map_err(|e| Fail::convert(&e))?;
        let conversion = docrag::convert(&bytes, &options).map_err(|e| Fail::convert(&e))?;
        c.add(conversion).map_err(|e| query_fail(&e))?;
    }
    Ok(c)
}

/// `docrag summarize`.
pub(crate) fn summarize_command(args: &[String]) -> Result<(), Fail> {
    let mut common = Common::default();
    let (mut mode, mut focus, mut provider, mut model, mut key_env) =
        (None, None, None, None, None);
    let (mut window, mut concurrency, mut json) = (None, 4usize, false);
    let mut files: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if common_flag(arg, &mut it, &mut common)? {
            continue;
        }
        match arg.as_str() {
            "--mode" => {
                mode = Some(
                    SummaryMode::from_name(value(&mut it, arg)?)
                        .map_err(|e| Fail::usage(e.to_string()))?,
                )
            }
            "--focus" => focus = Some(value(&mut it, arg)?),
            "--provider" => provider = Some(value(&mut it, arg)?),
            "--model" => model = Some(value(&mut it, arg)?),
            "--key-env" => key_env = Some(value(&mut it, arg)?),
            "--context-window" => window = Some(number::<usize>(value(&mut it, arg)?, arg)?),
            "--concurrency" => concurrency = number::<usize>(value(&mut it, arg)?, arg)?.max(1),
            "--format" => json = json_format(value(&mut it, arg)?)?,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("summarize needs at least one FILE"));
    }
    let mode = match (mode, provider) {
        (Some(m), None) if m.uses_model() => {
            return Err(Fail::usage(format!(
                "--mode {} needs a model: give --provider URL --model NAME",
                m.name()
            )));
        }
        (Some(m), _) => m,
        (None, Some(_)) => SummaryMode::Hierarchical,
        (None, None) => SummaryMode::Extractive,
    };
    let provider = match provider {
        Some(url) => {
            let model = model.ok_or_else(|| Fail::usage("--provider needs --model NAME"))?;
            let key = match key_env {
                Some(var) => Some(std::env::var(var).map_err(|_| {
                    Fail::usage(format!("--key-env {var}: the variable is not set"))
                })?),
                None => None,
            };
            Some(Provider::new(url, model, key))
        }
        None => None,
    };
    let mut options = SummaryOptions::new().with_mode(mode);
    if let Some(f) = focus {
        options = options.with_focus(f);
    }
    if let Some(w) = window {
        options = options
            .with_context_window(w)
            .map_err(|e| Fail::usage(e.to_string()))?;
    }
    let collection = load(&common, &files)?;
    let mut s = Summarizer::new(&collection, None, options).map_err(|e| query_fail(&e))?;
    let summary = drive(&mut s, concurrency, |r| match &provider {
        Some(p) => p.chat(r),
        None => Err("no provider".into()),
    })
    .map_err(|m| Fail {
        message: format!("docrag: error [provider]: {m}"),
        exit: EXIT_PROVIDER,
    })?;
    let mut out = io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &summary)
            .map_err(io::Error::other)
            .and_then(|()| writeln!(out))
    } else {
        write_text(&mut out, &summary)
    };
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Fail::write(&e)),
    }
}

fn write_text(out: &mut impl Write, s: &Summary) -> io::Result<()> {
    writeln!(out, "{}\n", s.text)?;
    if let Some(w) = &s.warning {
        write!(out, "WARNING: {w}")?;
        if !s.invalid_citations.is_empty() {
            write!(out, " (invalid: {})", s.invalid_citations.join(", "))?;
        }
        writeln!(out)?;
    }
    for n in &s.notices {
        writeln!(out, "note: {n}")?;
    }
    let t = &s.trace;
    let pct = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{:.0}%", v * 100.0));
    writeln!(
        out,
        "trace: mode {}, {} of {} chunks, {} model calls ({} retries), {} tokens sent, {} received, {} reduce levels, coverage {} ({}/{} headings), citation rate {} ({}/{} bullets), {} ms",
        s.mode.name(),
        t.chunks_processed,
        t.chunks_total,
        t.model_calls,
        t.retries,
        t.tokens_sent,
        t.tokens_received,
        t.reduce_levels,
        pct(t.coverage),
        t.headings_covered,
        t.headings_total,
        pct(t.citation_rate),
        t.bullets_cited,
        t.bullets,
        t.wall_ms.unwrap_or(0)
    )
}

/// A stand-in model for cost figures: one bullet per citation marker in the
/// document data (a topic line per heading for the topics call), up to the request's
/// reply limit, so reduce levels grow and shrink as with a real model.
pub(crate) fn simulate(req: &ModelRequest) -> Result<String, String> {
    let user = req.messages.last().map_or("", |m| m.content.as_str());
    let system = req.messages.first().map_or("", |m| m.content.as_str());
    if system.starts_with("List the 5 to 8 main topics") {
        let heads: Vec<&str> = user
            .lines()
            .filter_map(|l| l.strip_prefix("- "))
            .take(6)
            .collect();
        return Ok(if heads.is_empty() {
            "Scope\nParties\nObligations\nDates\nAmounts".into()
        } else {
            heads.join("\n")
        });
    }
    let mut ids: Vec<&str> = Vec::new();
    for line in user.lines() {
        let mut rest = line;
        while let Some(o) = rest.find('[') {
            let after = &rest[o + 1..];
            let Some(c) = after.find(']') else { break };
            let inner = &after[..c];
            for item in inner.split([',', ';']).map(str::trim) {
                let is_marker = item.starts_with("chunk-")
                    || item.rsplit_once(':').is_some_and(|(d, n)| {
                        !d.contains(' ') && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
                    });
                if is_marker && !ids.contains(&item) {
                    ids.push(item);
                }
            }
            rest = &after[c..];
        }
    }
    let mut out = String::new();
    let mut used = 0;
    for id in ids {
        let line = format!(
            "- Section: a simulated note of about twenty tokens that keeps the figure 40 EUR and the date 2016 [{id}]\n"
        );
        let t = docrag::tokens::count(&line);
        if used + t > req.max_tokens {
            break;
        }
        used += t;
        out.push_str(&line);
    }
    Ok(out)
}

/// `docrag bench-summarize`.
pub(crate) fn bench_summarize_command(args: &[String]) -> Result<(), Fail> {
    let common = Common::default();
    let (mut windows, mut json) = (vec![8_000usize, 128_000], false);
    let mut files: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--context-window" => windows = vec![number(value(&mut it, arg)?, arg)?],
            "--json" => json = true,
            flag if flag.starts_with("--") => {
                return Err(Fail::unknown_option(flag));
            }
            path => files.push(path),
        }
    }
    if files.is_empty() {
        return Err(Fail::usage("bench-summarize needs at least one FILE"));
    }
    // Files that do not convert are skipped, as in `bench`.
    let mut all = Collection::new();
    let mut longest: Option<(usize, &str)> = None;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(options) = common.build(path) else {
            continue;
        };
        let Ok(conv) = docrag::convert(&bytes, &options) else {
            continue;
        };
        if conv.chunks.is_empty() {
            continue;
        }
        let id = conv.doc_id.clone();
        if all.add(conv).is_err() {
            continue;
        }
        let tokens = all.documents().last().map_or(0, |d| d.tokens);
        if longest.is_none_or(|(t, _)| tokens > t) {
            longest = Some((tokens, path));
        }
        let _ = id;
    }
    let Some((_, long_path)) = longest else {
        return Err(Fail::usage("bench-summarize: no FILE converted"));
    };
    let long = load(&common, &[long_path])?;
    let modes = [
        SummaryMode::MapReduce,
        SummaryMode::Hierarchical,
        SummaryMode::Iterative,
        SummaryMode::Topics,
        SummaryMode::Extractive,
    ];
    let mut out = io::stdout().lock();
    for &w in &windows {
        for (label, c) in [
            (format!("longest: {}", display_name(long_path)), &long),
            (
                format!("collection: {} documents", all.documents().len()),
                &all,
            ),
        ] {
            if !json {
                let _ = writeln!(
                    out,
                    "summaries, {label} ({} chunks, {} tokens), context window {w}:",
                    c.total_chunks(),
                    c.total_tokens()
                );
            }
            for &m in &modes {
                let o = SummaryOptions::new()
                    .with_mode(m)
                    .with_context_window(w)
                    .map_err(|e| Fail::usage(e.to_string()))?;
                let mut s = Summarizer::new(c, None, o).map_err(|e| query_fail(&e))?;
                let sum = drive(&mut s, 1, simulate).map_err(Fail::usage)?;
                let t = &sum.trace;
                if json {
                    let row = serde_json::json!({
                        "target": label, "contextWindow": w, "mode": m.name(),
                        "ranAs": sum.mode.name(), "chunks": t.chunks_total,
                        "modelCalls": t.model_calls, "tokensSent": t.tokens_sent,
                        "tokensReceived": t.tokens_received, "reduceLevels": t.reduce_levels,
                        "maxRequestTokens": t.max_request_tokens, "ms": t.wall_ms,
                        "coverage": t.coverage, "citationRate": t.citation_rate,
                    });
                    let _ = writeln!(out, "{row}");
                } else {
                    let _ = writeln!(
                        out,
                        "  {:<13} {:>6} calls {:>10} tokens sent {:>9} received  levels {}  largest request {:>6}  {:>6} ms{}",
                        m.name(),
                        t.model_calls,
                        t.tokens_sent,
                        t.tokens_received,
                        t.reduce_levels,
                        t.max_request_tokens,
                        t.wall_ms.unwrap_or(0),
                        if sum.mode == m {
                            String::new()
                        } else {
                            format!("  (ran as {})", sum.mode.name())
                        }
                    );
                }
            }
        }
    }
    Ok(())
}
