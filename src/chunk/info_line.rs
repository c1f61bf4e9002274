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
use crate::model::{PageSource, Pagination};
use crate::tokens::Tally;

/// Builds information lines for one conversion.
pub(crate) struct InfoLines<'a> {
    labels: &'a Labels,
    title: String,
    title_tally: Tally,
    ctxs: &'a [Ctx],
    max_tokens: usize,
    /// Where page numbers come from: an estimated page is written `~7`.
    pub pagination: Pagination,
    /// Each section's path as shown, with its count: every line of the section joins
    /// the counts of title and path instead of counting them again.
    paths: RefCell<HashMap<usize, (String, Tally)>>,
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
        let mut tally = Tally::default();
        for cap in [100, 40, 16, 6] {
            t = clip_words(&full, cap);
            tally = Tally::of(&t);
            if tally.tokens <= budget {
                break;
            }
        }
        InfoLines {
            labels,
            title: t,
            title_tally: tally,
            ctxs,
            max_tokens,
            pagination: Pagination::default(),
            paths: RefCell::new(HashMap::new()),
        }
    }

    fn path(&self, ctx: usize) -> (String, Tally) {
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
        let mut tally = Tally::default();
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
            tally = Tally::of(&chosen);
            if tally.tokens <= budget {
                break;
            }
            chosen = clip_words(&chosen, 12);
            tally = Tally::of(&chosen);
        }
        let path = (chosen, tally);
        self.paths.borrow_mut().insert(ctx, path.clone());
        path
    }

    /// The line for a chunk at `place` with heading context `ctx` and `pages`, and its
    /// tally, counted from the title's and the path's tallies (only
    /// the labels, the part and the pages are scanned).
    pub(crate) fn tallied_line(
        &self,
        place: &Place,
        ctx: usize,
        pages: (u32, u32),
    ) -> (String, Tally) {
        let l = self.labels;
        let mut s = String::with_capacity(64 + self.title.len());
        s.push('[');
        s.push_str(l.get(Label::Document));
        s.push_str(": ");
        let title_at = s.len();
        s.push_str(&self.title);
        if let Place::Part(desc) = place {
            s.push_str(" | ");
            s.push_str(l.get(Label::Part));
            s.push_str(": ");
            s.push_str(&clean(&clip_words(desc, 100)));
        }
        let (path, path_tally) = self.path(ctx);
        let mut path_at = None;
        if !path.is_empty() {
            s.push_str(" | ");
            s.push_str(l.get(Label::Section));
            s.push_str(": ");
            path_at = Some(s.len());
            s.push_str(&path);
        }
        let about = match self.pagination.source_of(pages.0.max(pages.1)) {
            PageSource::Estimated => "~",
            _ => "",
        };
        if pages.0 >= pages.1 {
            s.push_str(&format!(" | {}: {about}{}]", l.get(Label::Page), pages.0));
        } else {
            s.push_str(&format!(
                " | {}: {about}{}-{}]",
                l.get(Label::Pages),
                pages.0,
                pages.1
            ));
        }
        let mut parts = vec![(title_at, &self.title_tally)];
        parts.extend(path_at.map(|at| (at, &path_tally)));
        let tally = Tally::joined(&s, &parts);
        (s, tally)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens;

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
            lines.tallied_line(&Place::Body, 1, (3, 4)).0,
            "[Document: Annual Report | Section: 2 Results > 2.1 Rev/enue (x) | Pages: 3-4]"
        );
        assert_eq!(
            lines.tallied_line(&Place::Body, 0, (2, 2)).0,
            "[Document: Annual Report | Page: 2]"
        );
        assert_eq!(
            lines.tallied_line(&Place::Part("footnotes"), 0, (2, 2)).0,
            "[Document: Annual Report | Part: footnotes | Page: 2]"
        );
        for (place, ctx) in [
            (Place::Body, 1),
            (Place::Part("footnotes"), 1),
            (Place::Body, 0),
        ] {
            let (line, tally) = lines.tallied_line(&place, ctx, (3, 4));
            assert_eq!(tally.tokens, tokens::count(&line), "{line}");
        }
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
        let l = lines.tallied_line(&Place::Body, 0, (1, 9)).0;
        assert!(tokens::count(&l) <= 32, "{l}");
    }
}
