//! The o200k pre-tokenizer: cuts text into the pieces that byte-pair merging works on,
//! exactly as tiktoken's o200k split pattern (a `fancy-regex`, leftmost-first, scanned
//! left to right) does.
//!
//! The pattern is compiled at build time (`build.rs`) into a dense DFA with two
//! patterns: 0 = the letter, number, symbol and newline alternatives, 1 = `\s+`. The
//! pattern's look-ahead alternative `\s+(?!\S)`, tried before plain `\s+`, is applied
//! here: a whitespace run found by pattern 1 that is followed by a non-space character
//! gives up its last character (which then starts the next piece, e.g. `" word"`),
//! unless the run is a single character. Pattern 1 only matches where pattern 0 did
//! not, so its run never holds `\r` or `\n` (`\s*[\r\n]+` takes those).

use std::sync::OnceLock;

use regex_automata::Anchored;
use regex_automata::dfa::Automaton;
use regex_automata::dfa::dense::DFA;
use regex_automata::util::primitives::StateID;

/// build.rs's `o200k_split.dfa.deflate`: the DFA's length in bytes (`u32` LE), then the
/// DFA as a raw deflate stream (2.1 MB of tables in 24.5 KB of wasm: a browser moves
/// every raw byte of the wasm through its network stack before compiling it, about
/// 20 ms per MB here, while inflating takes a few milliseconds at first use).
static DFA_DEFLATED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_split.dfa.deflate"));

struct Splitter {
    dfa: DFA<&'static [u32]>,
    start: StateID,
}

/// The DFA's bytes, inflated once into a buffer aligned for `DFA::from_bytes` (which
/// reads `u32`s in place) and kept for the life of the program, like the static they
/// replace. `None` if the embedded stream does not inflate to its recorded length.
fn inflate_dfa() -> Option<&'static [u8]> {
    let len = u32::from_le_bytes(DFA_DEFLATED.get(..4)?.try_into().ok()?) as usize;
    // Room to start at a 4-byte boundary whatever the allocator returns.
    let buf: &'static mut [u8] = Vec::leak(vec![0u8; len + 3]);
    let skip = buf.as_ptr().align_offset(4).min(3);
    let out = &mut buf[skip..skip + len];
    let mut inflater = flate2::Decompress::new(false);
    let status = inflater
        .decompress(&DFA_DEFLATED[4..], out, flate2::FlushDecompress::Finish)
        .ok()?;
    (status == flate2::Status::StreamEnd && inflater.total_out() as usize == len).then_some(&*out)
}

fn dfa_bytes() -> &'static [u8] {
    static BYTES: OnceLock<&'static [u8]> = OnceLock::new();
    BYTES.get_or_init(|| inflate_dfa().unwrap_or(&[]))
}

fn splitter() -> &'static Splitter {
    static SPLITTER: OnceLock<Splitter> = OnceLock::new();
    SPLITTER.get_or_init(|| {
        // Unreachable from input: the bytes are a compile-time constant that build.rs
        // wrote from tiktoken-rs's fixed pattern with this crate's regex-automata, and no
        // document or caller value reaches this code. Every test run's first count
        // (tokens::tests) exercises both calls, so a defect fails the build's tests.
        //
        // SAFETY: `from_bytes_unchecked` skips the validation of every transition (2.1 MB;
        // a sixth of the tokenizer's start-up in wasm). The bytes are build.rs's, written
        // with `to_bytes_little_endian` of this same regex-automata version (Cargo.lock
        // pins one version for both) and inflated whole (`inflate_dfa` checks the length),
        // and `tests::the_embedded_dfa_is_valid` runs the checked `DFA::from_bytes` on
        // them in every test run.
        let (dfa, _) =
            unsafe { DFA::from_bytes_unchecked(dfa_bytes()) }.expect("build.rs wrote a valid DFA");
        // Unreachable from input as well: the pattern is the same constant, and an
        // anchored universal start exists for every pattern without look-behind.
        let start = dfa
            .universal_start_state(Anchored::Yes)
            .expect("the split pattern has no look-behind");
        Splitter { dfa, start }
    })
}

/// One piece of a text: `text[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub start: usize,
    pub end: usize,
    /// The scan that found this piece read to the end of the text without ruling out a
    /// longer match: text appended after it could change this piece.
    pub open: bool,
}

/// The pieces of `text`, left to right. Every character belongs to exactly one piece.
pub(crate) struct Pieces<'t> {
    text: &'t [u8],
    pos: usize,
    sp: &'static Splitter,
}

impl<'t> Pieces<'t> {
    /// Pieces of `text` from byte offset `from`, which must be a piece boundary of the
    /// scan of the whole text (0, or the end of a piece).
    pub(crate) fn new(text: &'t str, from: usize) -> Self {
        Pieces {
            text: text.as_bytes(),
            pos: from,
            sp: splitter(),
        }
    }
}

impl Iterator for Pieces<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        let text = self.text;
        let start = self.pos;
        if start >= text.len() {
            return None;
        }
        let dfa = &self.sp.dfa;
        let mut state = self.sp.start;
        // (end, pattern) of the longest leftmost-first match so far.
        let mut found: Option<(usize, usize)> = None;
        let mut open = true;
        let mut at = start;
        while at < text.len() {
            state = dfa.next_state(state, text[at]);
            if dfa.is_special_state(state) {
                if dfa.is_match_state(state) {
                    // Match states are entered one byte after the match ends.
                    found = Some((at, dfa.match_pattern(state, 0).as_usize()));
                } else if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    open = false;
                    break;
                }
            }
            at += 1;
        }
        if open {
            state = dfa.next_eoi_state(state);
            if dfa.is_match_state(state) {
                found = Some((text.len(), dfa.match_pattern(state, 0).as_usize()));
            }
        }
        let end = match found {
            Some((end, 1)) if end < text.len() => drop_last_char(text, start, end),
            Some((end, _)) => end,
            // Every character matches some alternative; should one not, it becomes a
            // piece of its own rather than being lost.
            None => next_char_end(text, start),
        };
        self.pos = end;
        Some(Piece { start, end, open })
    }
}

/// `\s+(?!\S)`: a run of two or more characters followed by text ends before its last
/// character.
fn drop_last_char(text: &[u8], start: usize, end: usize) -> usize {
    let mut last = end - 1;
    while last > start && (text[last] & 0xC0) == 0x80 {
        last -= 1;
    }
    if last > start { last } else { end }
}

fn next_char_end(text: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while end < text.len() && (text[end] & 0xC0) == 0x80 {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The soundness check of `splitter`'s unchecked load: the full validation passes
    /// on the embedded bytes and gives the same automaton.
    #[test]
    fn the_embedded_dfa_is_valid() {
        let bytes = dfa_bytes();
        assert!(
            bytes.len() > 1_000_000,
            "the DFA inflated to {} bytes",
            bytes.len()
        );
        let (checked, read) = DFA::from_bytes(bytes).expect("valid DFA");
        assert_eq!(read, bytes.len());
        let sp = splitter();
        assert_eq!(checked.memory_usage(), sp.dfa.memory_usage());
        assert_eq!(checked.universal_start_state(Anchored::Yes), Some(sp.start));
    }
}
