//! The chunk-information line that starts every chunk, e.g.
//! `[Document: Annual Report | Section: 2 Results > 2.1 Revenue | Pages: 3-4]`.
//!
//! One line, then a blank line. The words are labels the caller may rename. Values are
//! made safe for the line (`|` -> `/`, brackets -> parentheses, whitespace collapsed)
//! and shortened so the line stays a small part of the budget: the title and the
//! heading path are each cut (at a word, with `…`) until each costs at most an eighth
//! of `max_tokens`; a long path keeps its innermost headings.

use std::cell::RefCell;
use std::collections::HashMap;

use super::escape::{clip_words, one_line, push_text};
use super::labels::{Label, Labels};
use super::units::Ctx;
use crate::tokens;

/// Builds information lines for one conversion.
pub(crate) struct InfoLines<'a> {
    labels: &'a Labels,
    title: String,
    ctxs: &'a [Ctx],
    max_tokens: usize,
    paths: RefCell<HashMap<usize, String>>,
}

/// What the chunk is part of, besides the body.
pub(crate) enum Place<'a> {
    /// Body text.
    Body,
    /// A header/footer or notes part, described in words.
    Part(&'a str),
}

fn clean(s: &str) -> String {
    let s = one_line(s)
        .replace('|', "/")
        .replace('[', "(")
        .replace(']', ")");
    let mut out = String::with_capacity(s.len());
    push_text(&s, &mut out);
    out
}

impl<'a> InfoLines<'a> {
    /// Lines for a document titled `title` with heading contexts `ctxs`.
    pub(crate) fn new(labels: &'a Labels, title: &str, ctxs: &'a [Ctx], max_tokens: usize) -> Self {
        let budget = (max_tokens / 8).max(4);
        let full = clean(title);
        let mut t = full.clone();
        for cap in [100, 40, 16, 6] {
            t = clip_words(&full, cap);
            if tokens::count(&t) <= budget {
                break;
            }
        }
        InfoLines {
            labels,
            title: t,
            ctxs,
            max_tokens,
            paths: RefCell::new(HashMap::new()),
        }
    }

    fn path(&self, ctx: usize) -> String {
        if let Some(p) = self.paths.borrow().get(&ctx) {
            return p.clone();
        }
        let parts: Vec<String> = self
            .ctxs
            .get(ctx)
            .map(|c| c.path.iter().map(|h| clean(h)).collect())
            .unwrap_or_default();
        let budget = (self.max_tokens / 8).max(4);
        let mut chosen = String::new();
        for cap in [160usize, 60, 20] {
            let each = (cap / parts.len().max(1)).max(12);
            let mut kept: Vec<String> = Vec::new();
            let mut len = 0;
            for h in parts.iter().rev() {
                let h = clip_words(h, each);
                len += h.chars().count() + 3;
                if len > cap && !kept.is_empty() {
                    kept.push("…".into());
                    break;
                }
                kept.push(h);
            }
            kept.reverse();
            chosen = kept.join(" > ");
            if tokens::count(&chosen) <= budget {
                break;
            }
            chosen = clip_words(&chosen, 12);
        }
        self.paths.borrow_mut().insert(ctx, chosen.clone());
        chosen
    }

    /// The line for a chunk at `place` with heading context `ctx` and `pages`.
    pub(crate) fn line(&self, place: &Place, ctx: usize, pages: (u32, u32)) -> String {
        let l = self.labels;
        let mut s = format!("[{}: {}", l.get(Label::Document), self.title);
        if let Place::Part(desc) = place {
            s.push_str(&format!(
                " | {}: {}",
                l.get(Label::Part),
                clean(&clip_words(desc, 100))
            ));
        }
        let path = self.path(ctx);
        if !path.is_empty() {
            s.push_str(&format!(" | {}: {}", l.get(Label::Section), path));
        }
        if pages.0 >= pages.1 {
            s.push_str(&format!(" | {}: {}]", l.get(Label::Page), pages.0));
        } else {
            s.push_str(&format!(
                " | {}: {}-{}]",
                l.get(Label::Pages),
                pages.0,
                pages.1
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_cleans() {
        let labels = Labels::default();
        let ctxs = vec![
            Ctx::default(),
            Ctx {
                section_index: 1,
                path: vec!["2 Results".into(), "2.1 Rev|enue [x]".into()],
                level: 2,
            },
        ];
        let lines = InfoLines::new(&labels, "Annual Report", &ctxs, 1024);
        assert_eq!(
            lines.line(&Place::Body, 1, (3, 4)),
            "[Document: Annual Report | Section: 2 Results > 2.1 Rev/enue (x) | Pages: 3-4]"
        );
        assert_eq!(
            lines.line(&Place::Body, 0, (2, 2)),
            "[Document: Annual Report | Page: 2]"
        );
        assert_eq!(
            lines.line(&Place::Part("footnotes"), 0, (2, 2)),
            "[Document: Annual Report | Part: footnotes | Page: 2]"
        );
    }

    #[test]
    fn long_values_are_bounded() {
        let labels = Labels::default();
        let ctxs = vec![Ctx {
            section_index: 1,
            path: vec!["word ".repeat(200); 6],
            level: 6,
        }];
        let lines = InfoLines::new(&labels, &"Title ".repeat(100), &ctxs, 64);
        let l = lines.line(&Place::Body, 0, (1, 9));
        assert!(tokens::count(&l) <= 32, "{l}");
    }
}
