//! The `docrag` binary, run as a user runs it, on real corpus files.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name)
}

fn docrag(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docrag"))
        .args(args)
        .output()
        .expect("the docrag binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

fn jsonl(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each stdout line is one JSON object"))
        .collect()
}

const MANUAL: &str = "pandoc__MANUAL.txt";

#[test]
fn jsonl_is_the_library_output_line_for_line() {
    let path = corpus(MANUAL);
    let p = path.to_str().unwrap();
    let out = docrag(&["convert", p, "--format", "jsonl", "--max-tokens", "512"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let lines = jsonl(&out);

    let bytes = std::fs::read(&path).unwrap();
    let options = docrag::ConvertOptions::new()
        .with_file_name(p)
        .with_max_tokens(512)
        .unwrap();
    let lib = docrag::convert(&bytes, &options).unwrap();
    assert_eq!(lines.len(), lib.chunks.len());
    assert!(!lines.is_empty());
    for (line, chunk) in lines.iter().zip(&lib.chunks) {
        assert_eq!(line, &serde_json::to_value(chunk).unwrap());
    }

    let id = docrag::content_id(&bytes);
    assert!(id.starts_with("sha256-") && id.len() == 7 + 16, "{id}");
    let mut all_text = String::new();
    for (i, line) in lines.iter().enumerate() {
        let obj = line.as_object().unwrap();
        assert_eq!(obj.len(), 2, "only text and metadata: {obj:?}");
        let meta = line["metadata"].as_object().unwrap();
        assert_eq!(meta["ssSeq"], Value::from(i as i64));
        assert_eq!(meta["ssDocId"], Value::from(id.as_str()));
        for (k, v) in meta {
            assert!(v.is_string() || v.is_i64(), "{k} = {v} is not flat");
        }
        let text = line["text"].as_str().unwrap();
        assert_eq!(
            meta["tokenCount"].as_i64(),
            Some(docrag::tokens::count(text) as i64),
            "chunk {i}: the recorded token count is the o200k count of the text"
        );
        all_text.push_str(text);
    }
    for phrase in ["Pandoc User's Guide", "John MacFarlane", "--track-changes"] {
        assert!(all_text.contains(phrase), "missing {phrase:?}");
    }
}

#[test]
fn doc_id_option_reaches_every_record() {
    let p = corpus(MANUAL);
    let out = docrag(&["convert", p.to_str().unwrap(), "--doc-id", "manual-1"]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let lines = jsonl(&out);
    assert!(!lines.is_empty());
    for line in &lines {
        assert_eq!(line["metadata"]["ssDocId"], "manual-1");
    }
}

#[test]
fn markdown_format_separates_the_same_chunks() {
    let p = corpus(MANUAL);
    let p = p.to_str().unwrap();
    let json = jsonl(&docrag(&["convert", p, "--max-tokens", "256"]));
    let md = docrag(&["convert", p, "--max-tokens", "256", "--format", "markdown"]);
    assert_eq!(md.status.code(), Some(0), "stderr: {}", stderr(&md));
    let mut expected = String::new();
    for (i, line) in json.iter().enumerate() {
        if i > 0 {
            expected.push_str("\n---\n\n");
        }
        let text = line["text"].as_str().unwrap();
        expected.push_str(text);
        if !text.ends_with('\n') {
            expected.push('\n');
        }
    }
    assert_eq!(stdout(&md), expected);
}

#[test]
fn legacy_doc_fails_with_its_code_and_exit_2() {
    let p = corpus("poi__simple-table.doc");
    let out = docrag(&["convert", p.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with("docrag: error [legacy-doc]: ") && err.contains(".doc"),
        "{err}"
    );
}

#[test]
fn invalid_option_values_fail_with_invalid_option() {
    let p = corpus(MANUAL);
    let p = p.to_str().unwrap();
    for args in [
        vec!["convert", p, "--max-tokens", "10"],
        vec!["convert", p, "--first-page", "5", "--last-page", "2"],
        vec!["convert", p, "--first-page", "0"],
    ] {
        let out = docrag(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with("docrag: error [invalid-option]: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn usage_errors_exit_64_and_missing_files_66() {
    let p = corpus(MANUAL);
    let p = p.to_str().unwrap();
    for args in [
        vec![],
        vec!["frobnicate"],
        vec!["convert"],
        vec!["convert", p, "--format", "xml"],
        vec!["convert", p, "--max-tokens"],
        vec!["convert", p, "--max-tokens", "many"],
        vec!["convert", p, "--bogus"],
        vec!["convert", p, p],
        vec!["bench"],
    ] {
        let out = docrag(&args);
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(stderr(&out).contains("usage: docrag"), "{args:?}");
    }
    let out = docrag(&["convert", "/nonexistent/file.docx"]);
    assert_eq!(out.status.code(), Some(66));
    assert!(stderr(&out).starts_with("docrag: error [io]: cannot read /nonexistent/file.docx"));
}

#[test]
fn bench_reports_bytes_times_iterations() {
    let manual = corpus(MANUAL);
    let doc = corpus("poi__simple-table.doc");
    let out = docrag(&[
        "bench",
        "--json",
        "--iterations",
        "2",
        "--max-tokens",
        "512",
        manual.to_str().unwrap(),
        doc.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let report: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let size = std::fs::metadata(&manual).unwrap().len();
    assert_eq!(report["bytes"], Value::from(size * 2));
    assert_eq!(report["files"], 1);
    assert_eq!(report["failed"], 1);
    assert!(report["seconds"].as_f64().unwrap() > 0.0);
    assert!(report["mbPerSecond"].as_f64().unwrap() > 0.0);
    assert!(stderr(&out).contains("poi__simple-table.doc: legacy-doc"));
}

#[test]
fn system_message_is_the_library_constant() {
    let out = docrag(&["system-message"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), format!("{}\n", docrag::SYSTEM_MESSAGE));
}

#[test]
fn ask_reads_folders_and_skips_a_file_it_cannot_read() {
    let dir = std::env::temp_dir().join(format!("docrag-ask-{}", std::process::id()));
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(corpus(MANUAL), sub.join(MANUAL)).unwrap();
    // A damaged DOCX beside it, and a file whose extension no reader takes.
    std::fs::write(dir.join("broken.docx"), b"PK\x03\x04broken").unwrap();
    std::fs::write(dir.join("notes.bin"), b"not a document").unwrap();
    let d = dir.to_string_lossy().into_owned();
    let o = docrag(&["ask", &d, "-q", "What does --toc do?"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let answer: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cited = answer["citations"].as_array().unwrap();
    assert!(!cited.is_empty(), "{answer}");
    let err = stderr(&o);
    assert!(
        err.contains("warning [not-zip]") && err.contains("skipped") && err.contains("broken.docx"),
        "{err}"
    );
    assert!(!err.contains("notes.bin"), "{err}");
    // When nothing can be read, ask fails: one file with its own error, several with
    // a count.
    let broken = dir.join("broken.docx").to_string_lossy().into_owned();
    let o = docrag(&["ask", &broken, "-q", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("docrag: error [not-zip]"),
        "{}",
        stderr(&o)
    );
    std::fs::write(dir.join("also.docx"), b"PK\x03\x04also broken").unwrap();
    let o = docrag(&[
        "ask",
        &broken,
        &dir.join("also.docx").to_string_lossy(),
        "-q",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("error [no-documents]: none of the 2 files"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ask_prints_the_answer_and_its_sources_as_text_on_request() {
    let manual = corpus(MANUAL).to_string_lossy().into_owned();
    let q = "What does the --toc option do?";
    let o = docrag(&["ask", &manual, "-q", q, "--format", "text"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // The same answer as the JSON's, then the sources it cites by number.
    let json: Value = serde_json::from_str(&stdout(&docrag(&["ask", &manual, "-q", q]))).unwrap();
    let answer = json["answer"].as_str().unwrap();
    assert!(text.starts_with(answer.trim_end()), "{text}");
    let (_, sources) = text.split_once("\nSources:\n").expect("a sources list");
    let first = &json["citations"][0];
    let line = format!("[{}] {}", first["number"], first["title"].as_str().unwrap());
    assert!(sources.lines().any(|l| l.starts_with(&line)), "{sources}");
    assert!(
        sources
            .lines()
            .all(|l| l.contains(", p. ") || l.contains(", pp. ")),
        "{sources}"
    );
    let bad = docrag(&["ask", &manual, "-q", q, "--format", "yaml"]);
    assert_eq!(bad.status.code(), Some(64));
    assert!(stderr(&bad).contains("--format expects text or json, got 'yaml'"));
}

#[test]
fn max_bytes_sets_the_input_limit_the_too_large_error_names() {
    let manual = corpus(MANUAL).to_string_lossy().into_owned();
    let size = std::fs::metadata(corpus(MANUAL)).unwrap().len();
    let small = (size - 1).to_string();
    let o = docrag(&["convert", &manual, "--max-bytes", &small]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("error [too-large]")
            && err.contains(&format!("over the limit of {small} bytes")),
        "{err}"
    );
    assert!(err.contains("--max-bytes N raises it"), "{err}");
    let o = docrag(&["convert", &manual, "--max-bytes", &size.to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn every_command_has_its_own_help() {
    for (command, says) in [
        ("convert", "--page-mode auto|estimate|saved"),
        ("ask", "--format text|json"),
        ("export", "--jsonl OUT"),
        ("summarize", "--context-window"),
        ("system-message", "docrag system-message"),
    ] {
        let o = docrag(&[command, "--help"]);
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.starts_with(&format!("usage: docrag {command}")),
            "{command}: {out}"
        );
        assert!(out.contains(says), "{command}: {out}");
        // Only its own synopsis.
        assert!(!out.contains("docrag bench-cosine"), "{command}: {out}");
        assert_eq!(stdout(&docrag(&[command, "-h"])), out);
    }
    // The whole help names each command's synopsis once.
    let all = stdout(&docrag(&["--help"]));
    assert_eq!(all.matches("docrag summarize FILE").count(), 1, "{all}");
}

#[test]
fn an_unknown_option_gets_the_closest_one_and_the_command_s_help() {
    let o = docrag(&["ask", "a.docx", "--questoin", "hi"]);
    assert_eq!(o.status.code(), Some(64));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "docrag: unknown option '--questoin' (did you mean '--question'?)\nusage: docrag ask"
        ),
        "{err}"
    );
    assert!(!err.contains("docrag bench-cosine"), "{err}");
    // Nothing close: no guess.
    let err = stderr(&docrag(&["convert", "x.docx", "--zzzzzzzz"]));
    assert!(
        err.starts_with("docrag: unknown option '--zzzzzzzz'\nusage: docrag convert"),
        "{err}"
    );
}
