//! The native PDF reader alone (hayro's parser and interpreter behind
//! `catch_unwind`, the glyph device, the outline walk, then the layout analysis). No
//! chunking or token counting: see `docrag_fuzz::read_and_check`.
#![no_main]

use docrag::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // libfuzzer-sys's panic hook aborts even on panics the reader catches (a
        // third-party crate's panic becomes a skipped page or a typed error); the
        // default hook lets them unwind to the reader's `catch_unwind`. A panic
        // nothing catches still reaches libfuzzer-sys's own `catch_unwind`, which
        // aborts: a crash, as it should be.
        let _ = std::panic::take_hook();
    },
    |data: &[u8]| {
        docrag_fuzz::read_and_check(data, Format::Pdf);
    }
);
