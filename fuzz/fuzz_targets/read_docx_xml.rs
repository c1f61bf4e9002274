//! The DOCX reader alone on fuzzed XML parts inside a valid stored zip (`docrag_fuzz::package`). No chunking or token
//! counting: see `docrag_fuzz::read_and_check`.
#![no_main]

use docrag::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    docrag_fuzz::read_and_check(&docrag_fuzz::package::package(data), Format::Docx);
});
