//! Exact counts of assembled text without recounting its parts.
//!
//! Pre-tokenization scans left to right, and a piece depends only on the bytes from
//! its start up to where the DFA stops reading. So when a part is placed in a longer
//! text, its pieces keep their tokens from any piece boundary the longer text's scan
//! lands on, up to its open tail (the pieces whose scan read to the part's end, which
//! the following text can change). [`count_joined`] scans only the seams: from one
//! part's open tail, through the text between parts, into the next part until the
//! scan lands on a boundary that part recorded, then takes the part's count from
//! there. The result always equals a fresh [`super::count`] of the whole text.

use super::piece_tokens;
use super::split::Pieces;
use super::vocab::Vocab;

/// Piece boundaries a [`Tally`] records at the start of its text: enough for a seam
/// to find one (a scan re-synchronises within a piece or two).
const HEAD_BOUNDARIES: usize = 6;

/// The o200k_base count of one text plus what [`count_joined`] needs to reuse it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Tokens of the text alone (as [`super::count`]).
    pub tokens: usize,
    /// `(end, tokens)` of the first pieces that are not in the open tail: the byte
    /// offset where the piece ends and the tokens of the text up to there.
    head: Vec<(usize, usize)>,
    /// Byte offset where the open tail starts (the text's length when it has none).
    tail: usize,
    /// Tokens of the open tail.
    tail_tokens: usize,
}

impl Tally {
    /// Counts `text` once, recording its first piece boundaries and its open tail.
    pub fn of(text: &str) -> Tally {
        Tally::joined(text, &[])
    }

    /// A count known only approximately (e.g. estimated from the length): a text with
    /// this tally is rescanned whole by [`count_joined`].
    pub fn estimate(tokens: usize) -> Tally {
        Tally {
            tokens,
            head: Vec::new(),
            tail: 0,
            tail_tokens: tokens,
        }
    }

    /// Tokens of the part from its boundary `at` (0 or a recorded head end) up to its
    /// open tail.
    fn stable_from(&self, at: usize) -> Option<usize> {
        let before = if at == 0 {
            0
        } else {
            self.head.iter().find(|h| h.0 == at)?.1
        };
        Some(self.tokens - before - self.tail_tokens)
    }

    fn last_boundary(&self) -> usize {
        self.head.last().map_or(0, |h| h.0)
    }
}

/// Exact o200k_base tokens of `text`, given parts of it already counted: each
/// `(offset, tally)` says `text[offset..offset + len]` is the text `tally` was made
/// from. Parts must be in order and must not overlap; text between them is scanned.
pub fn count_joined(text: &str, parts: &[(usize, &Tally)]) -> usize {
    Tally::joined(text, parts).tokens
}

impl Tally {
    /// The tally of `text` (equal in count to [`Tally::of`]), given parts of it already
    /// counted as for [`count_joined`]: only the seams are scanned, so a text assembled
    /// from counted parts (a chunk-information line from its title and section path)
    /// is ready to be a part of a longer text in turn. Its recorded boundaries may
    /// differ from [`Tally::of`]'s (a part's inner boundaries are not copied), which
    /// changes how far a later seam scans, never the count.
    pub fn joined(text: &str, parts: &[(usize, &Tally)]) -> Tally {
        let vocab = Vocab::get();
        let bytes = text.as_bytes();
        let mut bounds = Vec::new();
        let mut tally = Tally {
            tail: text.len(),
            ..Tally::default()
        };
        // Whether the open tail has started.
        let mut open = false;
        // Everything before `pos` is counted, and `pos` is a piece boundary of `text`.
        let mut pos = 0;
        let mut scan_one =
            |pos: &mut usize, tally: &mut Tally, open: &mut bool| match Pieces::new(text, *pos)
                .next()
            {
                Some(p) => {
                    let n = piece_tokens(vocab, &bytes[p.start..p.end], &mut bounds);
                    tally.record(open, p.start, p.end, n, p.open);
                    *pos = p.end;
                }
                None => *pos = text.len(),
            };
        for &(at, part) in parts {
            let last = at + part.last_boundary();
            while pos < text.len() {
                if pos >= at {
                    if let Some(n) = part.stable_from(pos - at) {
                        let end = at + part.tail;
                        if end > pos {
                            tally.record(&mut open, pos, end, n, false);
                        }
                        pos = end;
                        break;
                    }
                    if pos >= last {
                        break; // no recorded boundary left: the part is scanned as text
                    }
                }
                scan_one(&mut pos, &mut tally, &mut open);
            }
        }
        // After the last part, one scan to the end.
        for p in Pieces::new(text, pos.min(text.len())) {
            let n = piece_tokens(vocab, &bytes[p.start..p.end], &mut bounds);
            tally.record(&mut open, p.start, p.end, n, p.open);
        }
        tally
    }

    /// Adds the `tokens` of `text[start..end]`: a piece whose scan read to the end of
    /// the text (`piece_open`) starts the open tail, and everything after it belongs to
    /// the tail; before that, `end` is a piece boundary and may be recorded.
    fn record(
        &mut self,
        open: &mut bool,
        start: usize,
        end: usize,
        tokens: usize,
        piece_open: bool,
    ) {
        if piece_open && !*open {
            *open = true;
            self.tail = start;
        }
        self.tokens += tokens;
        if *open {
            self.tail_tokens += tokens;
        } else if self.head.len() < HEAD_BOUNDARIES {
            self.head.push((end, self.tokens));
        }
    }
}
