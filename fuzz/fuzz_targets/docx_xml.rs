//! The DOCX reader's XML through the whole pipeline: the input becomes the parts of a
//! stored zip (`docrag_fuzz::package`), converted with 64-token chunks.
#![no_main]

use docrag::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let zip = docrag_fuzz::package::package(data);
    docrag_fuzz::convert_and_check(&zip, &docrag_fuzz::options(Some(Format::Docx)));
});
