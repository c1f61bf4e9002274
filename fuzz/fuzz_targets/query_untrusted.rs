//! The untrusted-content block: `neutralize` and `wrap` over hostile text. The input
//! (UTF-8, lossily) is split at `\u{1}` into parts. Checks: nothing inside the block
//! spells three `<`-like marks in a row (lookalikes mapped to `<`, invisible characters
//! dropped, as the module documents), `neutralize` only inserts spaces, and is
//! idempotent.
#![no_main]

use docrag::query::untrusted::{BLOCK_CLOSE, BLOCK_OPEN, neutralize, wrap};
use libfuzzer_sys::fuzz_target;

/// `s` as a reader sees it: single lookalikes as `<`, double ones as `<<`, invisible
/// characters gone (the lists of src/query/untrusted.rs's module docs).
fn as_read(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' | '\u{FF1C}' | '\u{FE64}' | '\u{2039}' | '\u{3008}' | '\u{2329}' | '\u{27E8}'
            | '\u{276E}' | '\u{276C}' | '\u{02C2}' | '\u{1438}' => out.push('<'),
            '\u{00AB}' | '\u{300A}' | '\u{27EA}' | '\u{226A}' => out.push_str("<<"),
            '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{E0000}'..='\u{E0FFF}' => {}
            c => out.push(c),
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parts: Vec<&str> = text.split('\u{1}').collect();

    for p in &parts {
        let n = neutralize(p);
        assert!(!n.contains("<<<"), "neutralize left <<< in {n:?}");
        assert!(
            !as_read(&n).contains("<<<"),
            "neutralize left a lookalike run in {n:?}"
        );
        let strip = |s: &str| s.chars().filter(|c| *c != ' ').collect::<String>();
        assert_eq!(strip(&n), strip(p), "neutralize changed more than spaces");
        assert_eq!(neutralize(&n), n, "neutralize is not idempotent");
    }

    let block = wrap(parts.iter().copied());
    let inner = block
        .strip_prefix(&format!("{BLOCK_OPEN}\n"))
        .and_then(|b| b.strip_suffix(&format!("\n{BLOCK_CLOSE}")))
        .expect("the block has its delimiter lines");
    assert!(!inner.contains("<<<"), "delimiter inside the block");
    assert!(
        !as_read(inner).contains("<<<"),
        "lookalike delimiter inside the block"
    );
});
