//! Format detection: `convert` with no format. The input's length picks a file-name
//! hint (none, or a supported or rejected extension), so seeds stay whole documents.
#![no_main]

use libfuzzer_sys::fuzz_target;

const NAMES: [Option<&str>; 8] = [
    None,
    None,
    Some("a.docx"),
    Some("a.html"),
    Some("a.rtf"),
    Some("a.md"),
    Some("a.txt"),
    Some("a.doc"),
];

fuzz_target!(|data: &[u8]| {
    let mut options = docrag_fuzz::options(None);
    if let Some(name) = NAMES[data.len() % NAMES.len()] {
        options = options.with_file_name(name);
    }
    docrag_fuzz::convert_and_check(data, &options);
});
