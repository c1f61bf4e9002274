//! Paragraph-level units: headings (which open sections), the title, body paragraphs,
//! list items and code blocks. A paragraph with inline page breaks becomes one unit per
//! page; a heading's page breaks go before or after it.

use super::escape::{clip_words, one_line};
use super::facts::{Facts, of_leaves};
use super::flatten::{Flat, Item, flatten};
use super::render::{Mode, render};
use super::units::{Ctx, Kind, SplitSrc, Walker, block_text, fence_code, quote_lines};
use crate::model::{Paragraph, ParagraphKind};

impl Walker<'_> {
    pub(super) fn code(&mut self, lang: &str, text: &str) {
        let rendered = quote_lines(&fence_code(lang, text), self.quote);
        let facts = Facts {
            plain: text.to_string(),
            ..Facts::default()
        };
        let split = SplitSrc::Code {
            lang: lang.to_string(),
            text: text.to_string(),
            quote: self.quote,
        };
        self.push(rendered, Kind::Code, facts, self.page, Some(split));
    }

    pub(super) fn paragraph(&mut self, p: &Paragraph) {
        let flat = flatten(&p.inlines, &mut self.book, None);
        self.record_notes(&flat);
        match p.kind {
            ParagraphKind::Heading(n) => self.heading(flat, Some(n.clamp(1, 9))),
            ParagraphKind::Title => self.heading(flat, None),
            ParagraphKind::Normal => self.text(flat, String::new(), String::new(), Kind::Text),
            ParagraphKind::ListItem {
                ordered,
                level,
                number,
            } => {
                let indent = "  ".repeat(usize::from(level.min(8)));
                let marker = if ordered {
                    format!("{number}. ")
                } else {
                    "- ".to_string()
                };
                let rest = format!("{indent}{}", " ".repeat(marker.len()));
                self.text(flat, format!("{indent}{marker}"), rest, Kind::ListItem);
            }
        }
    }

    pub(super) fn record_notes(&mut self, flat: &Flat) {
        for leaf in &flat.leaves {
            if let Item::Note(kind, id) = &leaf.item {
                self.note_refs
                    .entry((*kind, id.clone()))
                    .or_insert((self.page, self.ctx));
            }
        }
    }

    fn text(&mut self, flat: Flat, first: String, rest: String, kind: Kind) {
        for (n, seg) in flat.split_pages().into_iter().enumerate() {
            if n > 0 {
                self.new_page();
            }
            if !seg.has_content() {
                continue;
            }
            let prefix = if n == 0 { first.clone() } else { rest.clone() };
            let prefix = match self.prefix.take() {
                Some(p) => format!("{p}{prefix}"),
                None => prefix,
            };
            let mut facts = of_leaves(&seg, &seg.leaves);
            if kind == Kind::ListItem {
                facts.list.push(clip_words(&one_line(&facts.plain), 100));
            }
            let body = render(&seg, Mode::Block);
            let text = quote_lines(&block_text(&prefix, &body, &rest), self.quote);
            let split = SplitSrc::Inline {
                flat: seg,
                first_prefix: prefix,
                rest_prefix: rest.clone(),
                quote: self.quote,
                mode: Mode::Block,
            };
            self.push(text, kind, facts, self.page, Some(split));
        }
    }

    /// A heading (`Some(level)`) or the title (`None`).
    fn heading(&mut self, flat: Flat, level: Option<u8>) {
        let first_content = flat.leaves.iter().position(|l| {
            !matches!(l.item, Item::PageBreak | Item::Tab | Item::Break)
                && !matches!(&l.item, Item::Text(t) if t.trim().is_empty())
        });
        let mut before = 0;
        let mut after = 0;
        for (i, l) in flat.leaves.iter().enumerate() {
            if l.item == Item::PageBreak {
                if first_content.is_some_and(|f| i < f) {
                    before += 1
                } else {
                    after += 1
                }
            }
        }
        let leaves = flat
            .leaves
            .iter()
            .filter(|l| l.item != Item::PageBreak)
            .cloned()
            .collect();
        let flat = flat.with_leaves(leaves);
        for _ in 0..before {
            self.new_page();
        }
        let mut facts = of_leaves(&flat, &flat.leaves);
        let name = one_line(&facts.plain);
        if name.is_empty() {
            if flat.has_content() {
                self.text(flat, String::new(), String::new(), Kind::Text);
            }
        } else {
            let hashes = match level {
                Some(n) if !self.in_body => "#".repeat(usize::from(n.min(6))),
                Some(n) => {
                    self.section_index += 1;
                    self.path.retain(|(l, _)| *l < n);
                    self.path.push((n, clip_words(&name, 200)));
                    self.ctxs.push(Ctx {
                        section_index: self.section_index,
                        path: self.path.iter().map(|(_, t)| t.clone()).collect(),
                        level: n,
                    });
                    self.ctx = self.ctxs.len() - 1;
                    "#".repeat(usize::from(n.min(6)))
                }
                None => "#".to_string(),
            };
            if level.is_none_or(|n| n <= 3) {
                facts.heading = Some(name);
            }
            let prefix = format!("{hashes} ");
            let text = quote_lines(
                &format!("{prefix}{}", render(&flat, Mode::Line).trim()),
                self.quote,
            );
            let split = SplitSrc::Inline {
                flat,
                first_prefix: prefix,
                rest_prefix: String::new(),
                quote: self.quote,
                mode: Mode::Line,
            };
            let kind = if level.is_some() && self.in_body {
                Kind::Heading
            } else {
                Kind::Title
            };
            self.push(text, kind, facts, self.page, Some(split));
        }
        for _ in 0..after {
            self.new_page();
        }
    }
}
