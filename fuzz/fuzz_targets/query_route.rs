//! The routing and classification reply parsers, with the requests built around
//! hostile index documents and questions. The input (UTF-8, lossily) is the reply; a
//! `\u{1}` splits off a leading comma-separated list of extra known document ids.
#![no_main]

use docrag::query::route::{
    RoutingReply, classify_heuristic, classify_request, decide, parse_classify_reply,
    parse_confidence, parse_routing_reply, routing_request,
};
use docrag::query::untrusted::{BLOCK_CLOSE, BLOCK_OPEN};
use libfuzzer_sys::fuzz_target;

const KNOWN: [&str; 5] = [
    "doc-1",
    "sha256-0123456789abcdef",
    "Ünïcode-ид",
    "a",
    "報告",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (extra, reply) = text.split_once('\u{1}').unwrap_or(("", &text));
    let mut known: Vec<&str> = KNOWN.to_vec();
    known.extend(extra.split(',').filter(|s| !s.is_empty()));

    let parsed = parse_routing_reply(reply, &known);
    if let RoutingReply::Documents {
        choices,
        unknown_ids,
    } = &parsed
    {
        for (i, c) in choices.iter().enumerate() {
            assert!(
                known.contains(&c.doc_id.as_str()),
                "chose unknown id {:?}",
                c.doc_id
            );
            assert!(c.confidence <= 100, "confidence {}", c.confidence);
            assert!(
                choices[..i].iter().all(|d| d.doc_id != c.doc_id),
                "id {:?} chosen twice",
                c.doc_id
            );
        }
        for u in unknown_ids {
            assert!(
                !known.contains(&u.as_str()),
                "known id {u:?} reported unknown"
            );
        }
    }
    for threshold in [0, 70, 100] {
        let _ = decide(&parsed, threshold);
    }
    let _ = parse_classify_reply(reply);
    let _ = classify_heuristic(reply);
    assert!(parse_confidence(reply) <= 100);
    for line in reply.lines().take(16) {
        assert!(parse_confidence(line) <= 100);
        let _ = parse_classify_reply(line);
    }

    // The index document is data: inside the block, it cannot spell a delimiter.
    let request = routing_request(reply, extra);
    let user = &request.messages.last().expect("a user message").content;
    let open = user
        .find(&format!("{BLOCK_OPEN}\n"))
        .expect("the block opens");
    let inner = &user[open + BLOCK_OPEN.len() + 1..];
    let close = inner
        .rfind(&format!("\n{BLOCK_CLOSE}"))
        .expect("the block closes");
    assert!(
        !inner[..close].contains("<<<"),
        "delimiter inside the routing block"
    );
    let _ = classify_request(reply);
});
