//! Summaries: citation validation with one retry then a flagged result, hierarchical
//! reduce on the longest corpus document within the depth limit and the request
//! budget, coverage and citation rate on a hand-checked case, the extractive summary
//! of every non-broken corpus document, and `docrag summarize` with and without an
//! OpenAI-compatible stub on 127.0.0.1 whose replies are scripted.

mod common;
use common::{add_corpus_doc, corpus};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use docrag::query::summarize::{
    Step, Summarizer, Summary, SummaryMode, SummaryOptions, TopicSource,
};
use docrag::query::{Collection, ModelRequest};
use serde_json::Value;

type Script = Arc<dyn Fn(&Value) -> String + Send + Sync>;

/// An OpenAI-compatible chat endpoint on 127.0.0.1: each POST body is recorded and
/// answered with `script(body)` as the assistant message.
struct Stub {
    url: String,
    bodies: Arc<Mutex<Vec<Value>>>,
}

fn stub(script: Script) -> Stub {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let seen = bodies.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let script = script.clone();
            let seen = seen.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                loop {
                    let mut len = 0usize;
                    let mut line = String::new();
                    let mut first = true;
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if first {
                            assert!(line.starts_with("POST /v1/chat/completions "), "{line}");
                            first = false;
                        }
                        let l = line.to_ascii_lowercase();
                        if let Some(v) = l.strip_prefix("content-length:") {
                            len = v.trim().parse().unwrap();
                        }
                        if line == "\r\n" {
                            break;
                        }
                    }
                    let mut body = vec![0u8; len];
                    reader.read_exact(&mut body).unwrap();
                    let body: Value = serde_json::from_slice(&body).unwrap();
                    let content = script(&body);
                    seen.lock().unwrap().push(body);
                    let reply = serde_json::json!({
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]
                    })
                    .to_string();
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                        reply.len()
                    );
                    if conn.write_all(head.as_bytes()).is_err()
                        || conn.write_all(reply.as_bytes()).is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    Stub { url, bodies }
}

/// Replies from a list, in order (the last one repeated).
fn scripted(replies: &[&str]) -> Script {
    let replies: Vec<String> = replies.iter().map(|s| s.to_string()).collect();
    let n = Arc::new(Mutex::new(0usize));
    Arc::new(move |_| {
        let mut i = n.lock().unwrap();
        let r = replies[(*i).min(replies.len() - 1)].clone();
        *i += 1;
        r
    })
}

/// The citation markers (`chunk-N`, `id:N`) in a text, distinct, in order.
fn markers(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(o) = rest.find('[') {
        let after = &rest[o + 1..];
        let Some(c) = after.find([']', '\n']) else {
            break;
        };
        for item in after[..c].split([',', ';']).map(str::trim) {
            let ok = item.starts_with("chunk-")
                || item.rsplit_once(':').is_some_and(|(d, n)| {
                    !d.is_empty()
                        && !d.contains(' ')
                        && !n.is_empty()
                        && n.bytes().all(|b| b.is_ascii_digit())
                });
            if ok && !out.iter().any(|x| x == item) {
                out.push(item.to_string());
            }
        }
        rest = &after[c..];
    }
    out
}

/// A model that answers with one bullet per marker in the document data, up to the
/// reply limit (so reduce levels shrink as with a real model).
fn echo(user: &str, max_tokens: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for id in markers(user) {
        let line = format!("- Section: a note that keeps the amount 39 921 700,00 [{id}]\n");
        let t = docrag::tokens::count(&line);
        if used + t > max_tokens {
            break;
        }
        used += t;
        out.push_str(&line);
    }
    out
}

fn echo_script() -> Script {
    Arc::new(|body: &Value| {
        let user = body["messages"][1]["content"].as_str().unwrap_or("");
        echo(user, body["max_tokens"].as_u64().unwrap_or(0) as usize)
    })
}

fn docrag(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docrag"))
        .args(args)
        .output()
        .unwrap()
}

/// `docrag summarize FILE --mode MODE --provider URL --model stub EXTRA...`.
fn summarize_via(url: &str, file: &str, mode: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "summarize",
        file,
        "--mode",
        mode,
        "--provider",
        url,
        "--model",
        "stub",
    ];
    args.extend_from_slice(extra);
    docrag(&args)
}

fn write_doc(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("docrag-summarize-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn summary_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

const ONE_CHUNK: &str = "# Fees\n\nThe monthly fee is 40 EUR, due on the 5th.\n";

#[test]
fn a_reply_without_citations_is_retried_exactly_once() {
    let s = stub(scripted(&[
        "- Fees: the fee is 40 EUR",
        "- Fees: the fee is 40 EUR, due on the 5th [chunk-0]",
        "## Executive summary\n- The fee is 40 EUR [chunk-0]",
    ]));
    let file = write_doc("retry.md", ONE_CHUNK);
    let o = summarize_via(&s.url, &file, "map-reduce", &["--format", "json"]);
    let v = summary_json(&o);
    assert_eq!(v["verified"], true);
    assert!(v.get("warning").is_none());
    assert_eq!(v["trace"]["modelCalls"], 3);
    assert_eq!(v["trace"]["retries"], 1);
    assert_eq!(v["citations"][0]["id"], "chunk-0");
    let bodies = s.bodies.lock().unwrap();
    assert_eq!(bodies.len(), 3);
    // The retry is the first request with the firmer instruction added.
    let sys = |i: usize| {
        bodies[i]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(!sys(0).contains("IMPORTANT"));
    assert!(sys(1).starts_with(&sys(0)));
    assert!(sys(1).contains("it has no citation markers"), "{}", sys(1));
    assert!(sys(1).contains("[chunk-0]"));
    assert_eq!(bodies[0]["messages"][1], bodies[1]["messages"][1]);
    assert_eq!(bodies[0]["model"], "stub");
}

#[test]
fn a_second_bad_reply_flags_the_summary_with_the_invalid_ids() {
    let s = stub(scripted(&[
        "- Fees: 40 EUR [chunk-0]",
        "## Executive summary\n- The fee is 40 EUR [chunk-3]",
        "## Executive summary\n- The fee is 40 EUR [chunk-3, chunk-8]",
        "never asked",
    ]));
    let file = write_doc("flag.md", ONE_CHUNK);
    let o = summarize_via(&s.url, &file, "map-reduce", &["--format", "json"]);
    let v = summary_json(&o);
    assert_eq!(v["verified"], false);
    assert_eq!(v["warning"], "citations could not be verified");
    assert_eq!(
        v["invalidCitations"],
        serde_json::json!(["chunk-3", "chunk-8"])
    );
    assert_eq!(v["trace"]["modelCalls"], 3);
    assert_eq!(v["trace"]["retries"], 1);
    // The flagged text is returned as written, never silently cleaned.
    assert!(v["text"].as_str().unwrap().contains("[chunk-3, chunk-8]"));
    assert_eq!(v["trace"]["citationRate"], 0.0);
    assert_eq!(s.bodies.lock().unwrap().len(), 3);
    let sys = s.bodies.lock().unwrap()[2]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(sys.contains("not in the document data: chunk-3"), "{sys}");

    // The text format prints the warning with the ids.
    let s = stub(scripted(&[
        "- a [chunk-0]",
        "- b [chunk-5]",
        "- c [chunk-5]",
    ]));
    let o = summarize_via(&s.url, &file, "map-reduce", &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("WARNING: citations could not be verified (invalid: chunk-5)"),
        "{out}"
    );
}

#[test]
fn the_longest_document_reduces_hierarchically_within_budget_and_depth() {
    let s = stub(echo_script());
    let file = corpus_path("poi__bug65649.docx");
    let o = summarize_via(
        &s.url,
        &file,
        "hierarchical",
        &[
            "--context-window",
            "8000",
            "--concurrency",
            "4",
            "--max-tokens",
            "128",
            "--format",
            "json",
        ],
    );
    let v = summary_json(&o);
    let t = &v["trace"];
    // 2,380 since the sections after Word's last rendered page break are paginated
    // by estimate (a page end is a chunk boundary).
    assert_eq!(t["chunksTotal"], 2380);
    assert_eq!(t["chunksProcessed"], 2380);
    let levels = t["reduceLevels"].as_u64().unwrap();
    assert!((2..=4).contains(&levels), "levels {levels}");
    assert_eq!(t["requestBudgetTokens"], 4800);
    assert!(t["maxRequestTokens"].as_u64().unwrap() <= 4800);
    assert_eq!(v["verified"], true, "{}", v["notices"]);
    assert!(t["citationRate"].as_f64().unwrap() > 0.99);
    let bodies = s.bodies.lock().unwrap();
    assert_eq!(bodies.len() as u64, t["modelCalls"].as_u64().unwrap());
    assert!(bodies.len() > 2379 + 2);
    for b in bodies.iter() {
        let sent: usize = b["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| docrag::tokens::count(m["content"].as_str().unwrap()))
            .sum();
        assert!(sent <= 4800, "a request of {sent} tokens");
        assert!(sent + b["max_tokens"].as_u64().unwrap() as usize <= 8000);
    }
    // Citations survive every level: the final summary cites chunks from the map.
    let text = v["text"].as_str().unwrap();
    assert!(markers(text).len() >= 5, "{text}");
}

fn corpus_path(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Drives `s` in-process with `model`, checking every request against `budget`.
fn run(s: &mut Summarizer, budget: usize, model: impl Fn(&ModelRequest) -> String) -> Summary {
    loop {
        match s.next_requests() {
            Step::Requests(rs) => {
                for (id, r) in rs {
                    let sent: usize = r.messages.iter().map(|m| m.tokens()).sum();
                    assert!(sent <= budget, "request of {sent} > {budget}");
                    let reply = model(&r);
                    s.submit(id, &reply).unwrap();
                }
            }
            Step::Waiting => panic!("waiting with nothing outstanding"),
            Step::Done(sum) => return *sum,
        }
    }
}

#[test]
fn a_model_that_never_shortens_still_ends_at_the_depth_limit() {
    let mut c = Collection::new();
    add_corpus_doc(&mut c, "pandoc__MANUAL.txt", 128);
    let o = SummaryOptions::new()
        .with_mode(SummaryMode::Hierarchical)
        .with_context_window(6000)
        .unwrap()
        .with_max_depth(3)
        .unwrap();
    let mut s = Summarizer::new(&c, None, o).unwrap();
    // Every reply repeats every marker with a long line: notes never shrink.
    let sum = run(&mut s, 3600, |r| {
        let user = &r.messages[1].content;
        markers(user)
            .iter()
            .map(|m| {
                format!("- Options: a long note that does not get shorter at all, ever [{m}]\n")
            })
            .collect()
    });
    assert_eq!(sum.trace.reduce_levels, 3);
    assert!(sum.trace.truncated_inputs > 0);
    assert!(
        sum.notices.iter().any(|n| n.contains("depth limit")),
        "{:?}",
        sum.notices
    );
    assert!(sum.trace.max_request_tokens <= 3600);
}

fn three_sections() -> Collection {
    let para = |w: &str| {
        format!("{w} grow in the orchard and the harvest of {w} is counted in crates every autumn by the farm staff, who record the weight of every crate.\n\n").repeat(4)
    };
    let md = format!(
        "# Apples\n\n{}# Bananas\n\n{}# Cherries\n\n{}",
        para("apples"),
        para("bananas"),
        para("cherries")
    );
    let o = docrag::ConvertOptions::new()
        .with_file_name("fruit.md")
        .with_max_tokens(120)
        .unwrap();
    let mut c = Collection::new();
    c.add(docrag::convert(md.as_bytes(), &o).unwrap()).unwrap();
    c
}

#[test]
fn coverage_and_citation_rate_by_hand() {
    let c = three_sections();
    let d = &c.documents()[0];
    let tops: Vec<&str> = d
        .chunks
        .iter()
        .map(|ch| ch.metadata.get_str("headingPath").unwrap())
        .collect();
    assert!(tops.len() >= 3 && tops.contains(&"Cherries"), "{tops:?}");
    let one_chunk = d.chunk_tokens(0);
    // Topics from the headings, one chunk per topic, a budget of one chunk: one
    // heading of three gets a chunk.
    let o = SummaryOptions::new()
        .with_mode(SummaryMode::Topics)
        .with_topic_source(TopicSource::Headings)
        .with_topic_k(1)
        .unwrap()
        .with_retrieval_budget_tokens(one_chunk);
    let mut s = Summarizer::new(&c, None, o).unwrap();
    let sum = run(&mut s, 76_800, |r| {
        let user = &r.messages[1].content;
        let id = markers(user).into_iter().next().unwrap();
        // 4 bullets, 2 with a valid citation (one also names an unknown chunk: still
        // cited, but the reply is retried and then flagged).
        format!(
            "## Apples\n- kept in crates [{id}]\n- weighed\n## Bananas\n- not stated\n- counted [{id}, chunk-77]"
        )
    });
    assert_eq!(sum.trace.topics, ["Apples", "Bananas", "Cherries"]);
    assert_eq!(sum.trace.headings_total, 3);
    assert_eq!(sum.trace.headings_covered, 1);
    assert_eq!(sum.trace.coverage, Some(1.0 / 3.0));
    assert_eq!(sum.trace.bullets, 4);
    assert_eq!(sum.trace.bullets_cited, 2);
    assert_eq!(sum.trace.citation_rate, Some(0.5));
    assert_eq!(sum.trace.chunks_processed, 1);
    assert_eq!(sum.trace.model_calls, 2);
    assert_eq!(sum.invalid_citations, ["chunk-77"]);
    assert!(!sum.verified);
    // Serialized for JS as is: camelCase.
    let v = serde_json::to_value(&sum).unwrap();
    assert_eq!(v["trace"]["headingsCovered"], 1);
    assert_eq!(v["requestedMode"], "topics");
}

#[test]
fn iterative_is_refused_for_long_documents_with_a_reason() {
    let mut c = Collection::new();
    add_corpus_doc(&mut c, "pandoc__MANUAL.txt", 1000);
    let o = SummaryOptions::new().with_mode(SummaryMode::Iterative);
    let mut s = Summarizer::new(&c, None, o).unwrap();
    let sum = run(&mut s, 76_800, |r| {
        echo(&r.messages[1].content, r.max_tokens)
    });
    assert_eq!(sum.mode, SummaryMode::Hierarchical);
    assert_eq!(sum.requested_mode, SummaryMode::Iterative);
    assert!(
        sum.fallback
            .as_deref()
            .unwrap()
            .contains("16000-token limit")
    );

    // A short one runs step by step, the running summary carried along.
    let c = three_sections();
    let o = SummaryOptions::new()
        .with_mode(SummaryMode::Iterative)
        .with_context_window(2000)
        .unwrap();
    let mut s = Summarizer::new(&c, None, o).unwrap();
    let sum = run(&mut s, 1200, |r| echo(&r.messages[1].content, r.max_tokens));
    assert_eq!(sum.mode, SummaryMode::Iterative);
    assert!(sum.verified);
    assert!(sum.trace.model_calls >= 2);
    assert_eq!(sum.trace.coverage, Some(1.0));
}

#[test]
fn extractive_summaries_of_the_corpus_cite_real_chunks_and_cover_every_heading() {
    let manifest = String::from_utf8(corpus("MANIFEST.tsv")).unwrap();
    let mut checked = 0;
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        if f[6].split(',').any(|x| x == "broken") {
            continue;
        }
        let o = docrag::ConvertOptions::new().with_file_name(f[0]);
        let Ok(conv) = docrag::convert(&corpus(f[0]), &o) else {
            continue;
        };
        if conv.chunks.is_empty() {
            continue;
        }
        let mut c = Collection::new();
        c.add(conv).unwrap();
        let summarize = || {
            let o = SummaryOptions::new().with_mode(SummaryMode::Extractive);
            let mut s = Summarizer::new(&c, None, o).unwrap();
            match s.next_requests() {
                Step::Done(sum) => *sum,
                other => panic!("{}: extractive asked for {other:?}", f[0]),
            }
        };
        let sum = summarize();
        let d = &c.documents()[0];
        assert!(sum.verified, "{}", f[0]);
        // Every marker names a real chunk, and the chunk holds the sentence.
        for line in sum.text.lines().filter(|l| l.starts_with("- ")) {
            let ms = markers(line);
            assert_eq!(ms.len(), 1, "{}: {line}", f[0]);
            let seq: usize = ms[0].strip_prefix("chunk-").unwrap().parse().unwrap();
            assert!(seq < d.chunks.len(), "{}: {line}", f[0]);
            let sentence = line[2..line.rfind(" [").unwrap()].trim_end_matches('…');
            let probe: String = sentence.chars().take(20).collect();
            let probe = probe.split_whitespace().next().unwrap_or("");
            assert!(
                d.chunks[seq].text.contains(probe),
                "{}: '{probe}' not in chunk {seq}",
                f[0]
            );
        }
        // Every top-level heading with text has a section in the summary.
        let mut with_text = std::collections::BTreeSet::new();
        for ch in &d.chunks {
            let top = ch
                .metadata
                .get_str("headingPath")
                .unwrap()
                .split(" > ")
                .next()
                .unwrap();
            let has_text = ch.text.lines().skip(1).any(|l| {
                let l = l.trim();
                !l.starts_with('#') && !l.starts_with('<') && l.chars().any(char::is_alphanumeric)
            });
            if !top.is_empty() && has_text {
                let h = top.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    sum.text.contains(&format!("## {h}\n")),
                    "{}: heading '{h}' missing",
                    f[0]
                );
                with_text.insert(h);
            }
        }
        assert!(sum.trace.headings_covered >= with_text.len(), "{}", f[0]);
        assert_eq!(sum.trace.citation_rate, Some(1.0), "{}", f[0]);
        // Deterministic.
        assert_eq!(summarize().text, sum.text, "{}", f[0]);
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} documents");
}

#[test]
fn cli_summarizes_extractively_without_a_provider_and_refuses_model_modes() {
    let file = corpus_path("pandoc__MANUAL.txt");
    let o = docrag(&["summarize", &file]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("## Synopsis\n- "), "{out}");
    assert!(out.contains("trace: mode extractive"));
    assert!(out.contains("coverage 100% (17/17 headings)"), "{out}");

    let o = docrag(&["summarize", &file, "--mode", "topics"]);
    assert_eq!(o.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--mode topics needs a model"));
    let o = docrag(&["summarize", &file, "--mode", "nonsense"]);
    assert_eq!(o.status.code(), Some(64));

    // Two files: a collection, cited as [docId:N].
    let other = corpus_path("poi__delins.docx");
    let o = docrag(&["summarize", &file, &other, "--format", "json"]);
    let v = summary_json(&o);
    assert_eq!(v["trace"]["docIds"].as_array().unwrap().len(), 2);
    let id = v["citations"][0]["id"].as_str().unwrap();
    assert!(
        id.starts_with(v["trace"]["docIds"][0].as_str().unwrap()),
        "{id}"
    );
}

#[test]
fn cli_topics_with_the_stub_model() {
    let script: Script = Arc::new(|body: &Value| {
        let sys = body["messages"][0]["content"].as_str().unwrap();
        if sys.starts_with("List the 5 to 8 main topics") {
            "1. Templates\n2. Defaults files\n3. Extensions\n4. Reader options\n5. Citations".into()
        } else {
            let user = body["messages"][1]["content"].as_str().unwrap();
            echo(user, 1500)
        }
    });
    let s = stub(script);
    let file = corpus_path("pandoc__MANUAL.txt");
    let o = summarize_via(
        &s.url,
        &file,
        "topics",
        &["--focus", "PDF", "--format", "json"],
    );
    let v = summary_json(&o);
    assert_eq!(
        v["trace"]["topics"],
        serde_json::json!([
            "Templates",
            "Defaults files",
            "Extensions",
            "Reader options",
            "Citations"
        ])
    );
    assert_eq!(v["trace"]["modelCalls"], 2);
    assert_eq!(v["verified"], true);
    let n = v["trace"]["chunksProcessed"].as_u64().unwrap();
    assert!((5..=15).contains(&n), "{n}");
    // Every prompt puts document text in the untrusted block.
    for b in s.bodies.lock().unwrap().iter() {
        let user = b["messages"][1]["content"].as_str().unwrap();
        assert!(user.contains(docrag::query::untrusted::BLOCK_OPEN));
        assert!(user.contains(docrag::query::untrusted::DATA_NOTICE));
    }
}
