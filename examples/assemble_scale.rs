//! `make bench` (ASSEMBLE section): the cost of a question as the collection grows.
//! Converts the eval's `all` collection once, then asks every question of
//! ../shared/eval/questions.jsonl over 1x, 4x and 16x copies of it (each copy under
//! its own document ids) with the default options, and prints the mean tokens sent
//! and the mean selection time per scale. The questions are read at run time; the
//! benchmark contains none.
//!
//! Usage: cargo run --release --example assemble_scale [-- EVAL_DIR CORPUS_DIR]

use std::time::Instant;

use docrag::query::{Collection, QueryOptions, Replies, ask};
use docrag::{ConvertOptions, convert};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let eval = args.get(1).map_or("../shared/eval", String::as_str);
    let corpus = args.get(2).map_or("../shared/corpus", String::as_str);
    let collections: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{eval}/collections.json")).expect("collections.json"),
    )
    .expect("collections.json is JSON");
    let files: Vec<String> = collections["all"]
        .as_array()
        .expect("an 'all' collection")
        .iter()
        .filter_map(|f| f.as_str().map(String::from))
        .collect();
    let questions: Vec<String> = std::fs::read_to_string(format!("{eval}/questions.jsonl"))
        .expect("questions.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|q| q["collection"] == "all")
        .filter_map(|q| q["question"].as_str().map(String::from))
        .collect();
    let inputs: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter_map(|f| Some((f.clone(), std::fs::read(format!("{corpus}/{f}")).ok()?)))
        .collect();
    println!(
        "ASSEMBLE: {} questions over {} documents x 1, 4, 16 (default options: token budget {})",
        questions.len(),
        inputs.len(),
        QueryOptions::new().token_budget.unwrap_or(0)
    );
    println!("| copies | documents | chunks | tokens | mean tokens sent | mean selection ms |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for copies in [1usize, 4, 16] {
        let mut c = Collection::new();
        for k in 0..copies {
            for (name, bytes) in &inputs {
                let o = ConvertOptions::new().with_file_name(name.as_str());
                let Ok(o) = o.with_doc_id(format!("{name}#{k}")) else {
                    continue;
                };
                if let Ok(conv) = convert(bytes, &o) {
                    let id = conv.doc_id.clone();
                    if c.add(conv).is_ok() {
                        c.set_file_name(&id, name);
                    }
                }
            }
        }
        let options = QueryOptions::new();
        let (mut tokens, mut ms) = (0usize, 0f64);
        for q in &questions {
            let t = Instant::now();
            let r = ask(&c, q, &[], &Replies::default(), &options).expect("asks");
            ms += t.elapsed().as_secs_f64() * 1000.0;
            tokens += r.accounting.total_tokens;
        }
        let n = questions.len().max(1);
        println!(
            "| {copies} | {} | {} | {} | {} | {:.1} |",
            c.documents().len(),
            c.total_chunks(),
            c.total_tokens(),
            tokens / n,
            ms / n as f64
        );
    }
}
