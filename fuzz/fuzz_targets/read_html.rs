//! The HTML reader alone (html5ever tree, walk into the document model). No chunking or token
//! counting: see `docrag_fuzz::read_and_check`.
#![no_main]

use docrag::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    docrag_fuzz::read_and_check(data, Format::Html);
});
