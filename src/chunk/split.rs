//! Splitting a unit that is larger than the room it must fit in.
//!
//! Paragraph-like units are split between leaves or inside a text leaf, preferring a
//! sentence end (or a line break), then whitespace, then any char boundary; because
//! each piece renders from its own leaves, markup is closed at the end of a piece and
//! reopened in the next (never cut inside a tag or a span). Code blocks are split at
//! line ends and each piece is fenced again. Table rows are never split.
//!
//! All pieces come out of one pass: a target length is estimated from the unit's
//! tokens per byte, the piece is rendered and counted, and the target shrinks only
//! when the piece is still too large, so the work stays linear in the unit's size.

use super::facts::{Facts, of_leaves};
use super::flatten::{Item, Leaf};
use super::render::render_leaves;
use super::units::{Kind, SplitSrc, Unit, block_text, fence_code, quote_lines};
use crate::tokens::{self, Tally};

/// Tries per piece before accepting a piece that is still too large.
const TRIES: usize = 8;

/// One rendered piece.
struct Piece {
    text: String,
    tokens: usize,
    tally: Tally,
    facts: Facts,
    split: Option<SplitSrc>,
}

/// Splits `u` so the first piece fits `first_cap` tokens and later ones `rest_cap`.
/// Returns `u` unchanged (one element) when it cannot be split.
pub(crate) fn split_unit(u: Unit, first_cap: usize, rest_cap: usize) -> Vec<Unit> {
    let Some(src) = u.split.as_deref() else {
        return vec![u];
    };
    let pieces = match src {
        SplitSrc::Inline {
            flat,
            first_prefix,
            rest_prefix,
            quote,
            mode,
        } => {
            let (plain, starts) = plain_map(&flat.leaves);
            let mut render = |a: usize, b: usize, first: bool| {
                let leaves = slice_leaves(&flat.leaves, &starts, a, b, plain.len());
                let prefix = if first { first_prefix } else { rest_prefix };
                let body = render_leaves(flat, &leaves, *mode);
                let text = quote_lines(&block_text(prefix, &body, rest_prefix), *quote);
                let facts = of_leaves(flat, &leaves);
                let split = SplitSrc::Inline {
                    flat: flat.with_leaves(leaves),
                    first_prefix: prefix.clone(),
                    rest_prefix: rest_prefix.clone(),
                    quote: *quote,
                    mode: *mode,
                };
                let tally = Tally::of(&text);
                Piece {
                    text,
                    tokens: tally.tokens,
                    tally,
                    facts,
                    split: Some(split),
                }
            };
            let mut content = |a: usize, b: usize| {
                let mut leaves = slice_leaves(&flat.leaves, &starts, a, b, plain.len());
                for l in &mut leaves {
                    (l.marks, l.rev, l.link) = (0, 0, 0);
                }
                tokens::count(&render_leaves(flat, &leaves, *mode))
            };
            cut(
                &plain,
                u.tokens,
                first_cap,
                rest_cap,
                &mut render,
                &mut content,
            )
        }
        SplitSrc::Code { lang, text, quote } => {
            let mut render = |a: usize, b: usize, _first: bool| {
                let part = text.get(a..b).unwrap_or("").trim_matches('\n');
                let out = quote_lines(&fence_code(lang, part), *quote);
                let tally = Tally::of(&out);
                Piece {
                    text: out,
                    tokens: tally.tokens,
                    tally,
                    facts: Facts {
                        plain: part.to_string(),
                        ..Facts::default()
                    },
                    split: Some(SplitSrc::Code {
                        lang: lang.clone(),
                        text: part.to_string(),
                        quote: *quote,
                    }),
                }
            };
            let mut content = |a: usize, b: usize| text.get(a..b).map_or(0, tokens::count);
            cut(
                text,
                u.tokens,
                first_cap,
                rest_cap,
                &mut render,
                &mut content,
            )
        }
    };
    if pieces.len() <= 1 {
        return vec![u];
    }
    let n = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let mut facts = p.facts;
            if i == 0 {
                facts.heading = u.facts.heading.clone();
                facts.list = u.facts.list.clone();
            } else {
                facts.list.clear();
            }
            let kind = match u.kind {
                Kind::Code => Kind::Code,
                k if i == 0 => k,
                _ => Kind::Text,
            };
            Unit {
                text: p.text,
                tokens: p.tokens,
                tally: p.tally,
                kind,
                line_sep: i == 0 && u.line_sep,
                pages: u.pages,
                ctx: u.ctx,
                facts,
                more_rows: i + 1 < n && u.more_rows,
                split: p.split.map(Box::new),
            }
        })
        .collect()
}

/// The splittable text of `leaves` (text as is, breaks `\n`, tabs `\t`, others empty)
/// and the byte offset where each leaf starts in it.
fn plain_map(leaves: &[Leaf]) -> (String, Vec<usize>) {
    let mut plain = String::new();
    let mut starts = Vec::with_capacity(leaves.len());
    for l in leaves {
        starts.push(plain.len());
        match &l.item {
            Item::Text(t) => plain.push_str(t),
            Item::Break => plain.push('\n'),
            Item::Tab => plain.push('\t'),
            _ => {}
        }
    }
    (plain, starts)
}

/// The leaves covering plain bytes `a..b` (zero-length leaves at a cut go with the
/// earlier piece; the last piece takes everything to the end).
fn slice_leaves(leaves: &[Leaf], starts: &[usize], a: usize, b: usize, total: usize) -> Vec<Leaf> {
    let mut out = Vec::new();
    // Leaves start in order: skip those that end before `a` without scanning them.
    let first = starts.partition_point(|&s| s < a).saturating_sub(1);
    for (i, l) in leaves.iter().enumerate().skip(first) {
        let s = starts.get(i).copied().unwrap_or(total);
        if s > b {
            break;
        }
        let len = match &l.item {
            Item::Text(t) => t.len(),
            Item::Break | Item::Tab => 1,
            _ => 0,
        };
        let e = s + len;
        let take = if len == 0 {
            (s > a || (a == 0 && s == 0)) && s <= b
        } else {
            e > a && s < b
        };
        if !take {
            continue;
        }
        match &l.item {
            Item::Text(t) => {
                let from = a.saturating_sub(s).min(t.len());
                let to = b.saturating_sub(s).min(t.len());
                if let Some(part) = t.get(from..to)
                    && !part.is_empty()
                {
                    // Field by field: cloning the leaf would copy all of its text
                    // (the whole paragraph when it is one run) for every piece.
                    out.push(Leaf {
                        item: Item::Text(part.to_string()),
                        style: l.style.clone(),
                        marks: l.marks,
                        rev: l.rev,
                        link: l.link,
                        field: l.field,
                    });
                }
            }
            _ => out.push(l.clone()),
        }
    }
    out
}

/// Cuts `plain` into pieces rendered by `render(a, b, first)`; `content(a, b)` is the
/// tokens of a piece's own content (its text, images, comments, notes) without the
/// wrappers and prefixes it repeats.
///
/// A piece must fit its cap. When what every piece repeats (its wrappers: a link
/// target, revision attributes, a comment mark, a quote prefix) takes more than half
/// the cap, shrinking would only write the same wrappers around ever smaller slices
/// (one character per chunk at worst); so from then on a piece may hold its wrappers
/// plus half a cap of text, and is sealed over budget (`oversize`). Every piece then
/// carries at least half a cap of text and the output stays linear in the input.
fn cut(
    plain: &str,
    unit_tokens: usize,
    first_cap: usize,
    rest_cap: usize,
    render: &mut dyn FnMut(usize, usize, bool) -> Piece,
    content: &mut dyn FnMut(usize, usize) -> usize,
) -> Vec<Piece> {
    let total = plain.len();
    if total == 0 || unit_tokens == 0 {
        return Vec::new();
    }
    // A unit whose own text is at most half the cap is as small as splitting can make
    // it; it stays whole. Text over 128 bytes a token of cap is never that small (no
    // o200k token is longer), so it is not counted.
    if total <= first_cap.saturating_mul(128) && content(0, total) <= first_cap / 2 {
        return Vec::new();
    }
    let mut per_byte = unit_tokens as f64 / total as f64;
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut cap = first_cap.max(1);
    // Tokens the wrappers of a piece take, once measured as over half a cap.
    let mut overhead: Option<usize> = None;
    while start < total {
        let first = pieces.is_empty();
        let allow = overhead.map_or(cap, |o| o + cap / 2);
        let remaining = (total - start) as f64 * per_byte;
        if remaining <= allow as f64 * 1.15 {
            let p = render(start, total, first);
            if p.tokens <= allow {
                pieces.push(p);
                break;
            }
        }
        let mut want = ((allow as f64 * 0.9) / per_byte.max(1e-6)) as usize;
        let mut accepted = None;
        for _ in 0..TRIES {
            let end = best_cut(plain, start, start.saturating_add(want.max(1)));
            let p = render(start, end, first);
            let size = end - start;
            if size > 0 {
                // Learn the density of this part of the text for the next target.
                per_byte = p.tokens.max(1) as f64 / size as f64;
            }
            let mut fits = p.tokens <= allow;
            if !fits && overhead.is_none() {
                let text = content(start, end);
                let o = p.tokens.saturating_sub(text);
                if o > cap / 2 {
                    overhead = Some(o);
                    fits = text <= cap / 2;
                }
            }
            let allow = overhead.map_or(cap, |o| o + cap / 2);
            accepted = Some((end, p));
            if fits || size <= 1 {
                break;
            }
            let ratio = allow as f64 / accepted.as_ref().map_or(1.0, |a| a.1.tokens.max(1) as f64);
            want = ((size as f64) * ratio * 0.9) as usize;
            if want == 0 {
                want = 1;
            }
        }
        let Some((end, p)) = accepted else {
            break;
        };
        pieces.push(p);
        start = end;
        cap = rest_cap.max(1);
    }
    pieces
}

/// The best cut in `plain[start..]` at or before `target`: after a sentence end or a
/// line break (if past 40% of the way), else after whitespace, else the char boundary
/// at or before `target` (at least one char).
fn best_cut(plain: &str, start: usize, target: usize) -> usize {
    let total = plain.len();
    if target >= total {
        return total;
    }
    let mut t = target;
    while t > start && !plain.is_char_boundary(t) {
        t -= 1;
    }
    let Some(region) = plain.get(start..t) else {
        return total;
    };
    let min = region.len() * 2 / 5;
    let mut space_cut = None;
    let mut punct_cut = None;
    let mut prev: Option<char> = None;
    for (i, c) in region.char_indices().rev() {
        // `i` is the start of `c`; a cut at i + len(c) starts the next piece after `c`.
        let after = i + c.len_utf8();
        if after < region.len() {
            let next_is_word = prev.is_some_and(|n| !n.is_whitespace());
            if (c == '\n' || matches!(c, '。' | '！' | '？')) && after >= min {
                return start + after;
            }
            if punct_cut.is_none()
                && !c.is_alphanumeric()
                && !c.is_whitespace()
                && prev.is_some_and(char::is_alphanumeric)
            {
                punct_cut = Some(after);
            }
            if c.is_whitespace() && next_is_word {
                if space_cut.is_none() {
                    space_cut = Some(after);
                }
                if after >= min && i > 0 {
                    let before = region[..i].chars().next_back();
                    if before.is_some_and(|b| {
                        matches!(
                            b,
                            '.' | '!'
                                | '?'
                                | ';'
                                | ':'
                                | '。'
                                | '！'
                                | '？'
                                | '"'
                                | '\u{201d}'
                                | ')'
                        )
                    }) {
                        return start + after;
                    }
                }
            }
        }
        prev = Some(c);
    }
    if let Some(s) = space_cut.filter(|s| *s > 0) {
        return start + s;
    }
    // No whitespace: after punctuation (URLs, paths), keeping words whole.
    if let Some(s) = punct_cut.filter(|s| *s > 0) {
        return start + s;
    }
    // No whitespace: cut at the char boundary at or before the target, at least one char.
    if t > start {
        return t;
    }
    let mut e = start + 1;
    while e < total && !plain.is_char_boundary(e) {
        e += 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_prefer_sentences_then_spaces() {
        let s = "One two three. Four five six seven eight nine ten";
        assert_eq!(&s[..best_cut(s, 0, 30)], "One two three. ");
        let s = "aaaa bbbb cccc dddd";
        assert_eq!(&s[..best_cut(s, 0, 12)], "aaaa bbbb ");
        let s = "第一句。第二句很长很长";
        assert_eq!(&s[..best_cut(s, 0, 20)], "第一句。");
        let s = "https://example.org/path/to/file.pdf";
        assert_eq!(&s[..best_cut(s, 0, 22)], "https://example.org/");
        let s = "ééééé";
        let c = best_cut(s, 0, 5);
        assert!(s.is_char_boundary(c) && c > 0 && c <= 5);
    }
}
