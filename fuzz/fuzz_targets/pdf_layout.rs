//! The PDF layout analysis on arbitrary positioned runs, rules and outline entries:
//! the JSON the JS layer hands the wasm core (pdf.js's text items), parsed, then
//! `docrag::read::pdf::layout` with default limits.
#![no_main]

use docrag::read::pdf::{OutlineEntry, PageRuns, layout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((pages, outline)) = serde_json::from_slice::<(Vec<PageRuns>, Vec<OutlineEntry>)>(data)
    else {
        return;
    };
    docrag_fuzz::check_document(layout(&pages, &outline, &docrag::Limits::default()));
});
