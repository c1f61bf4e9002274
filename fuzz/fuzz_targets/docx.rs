//! The docx reader: `convert` with the format forced to Docx, 64-token chunks.
#![no_main]

use docrag::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    docrag_fuzz::convert_and_check(data, &docrag_fuzz::options(Some(Format::Docx)));
});
