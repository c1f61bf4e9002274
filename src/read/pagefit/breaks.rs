//! Page breaks in the model: counting the ones a block holds ([`breaks_in`]) and
//! placing estimated ones between the words of a paragraph ([`insert_breaks`]).

use crate::model::{Block, Inline};

use super::is_wide as glyphs_wide;
use super::measure::counts;

/// Page breaks inside a block (tables included).
pub(crate) fn breaks_in(block: &Block) -> usize {
    fn inl(i: &[Inline]) -> usize {
        i.iter()
            .map(|x| match x {
                Inline::PageBreak => 1,
                Inline::Link { children, .. }
                | Inline::Revision { children, .. }
                | Inline::Field { children, .. } => inl(children),
                _ => 0,
            })
            .sum()
    }
    match block {
        Block::PageBreak => 1,
        Block::Paragraph(p) => inl(&p.inlines),
        Block::Table(t) => t
            .rows
            .iter()
            .flat_map(|r| &r.cells)
            .flat_map(|c| &c.blocks)
            .map(breaks_in)
            .sum(),
        Block::Quote(q) => q.iter().map(breaks_in).sum(),
        _ => 0,
    }
}

/// Characters past a break offset searched for a word boundary before the break is
/// placed inside the word (a run of text with no space, as a hostile file may have).
const LONGEST_WORD: usize = 200;

/// `inlines` with an [`Inline::PageBreak`] at each of `offsets` (characters of the
/// paragraph's text, ascending): at the first break opportunity at or after it (after
/// a space, before an ideograph), or after the inline holding it when that is a link,
/// change or field. One pass, one break per offset.
pub(crate) fn insert_breaks(inlines: Vec<Inline>, offsets: &[usize]) -> Vec<Inline> {
    let mut out = Vec::with_capacity(inlines.len() + 2 * offsets.len());
    let mut next = offsets.iter().copied().peekable();
    let mut seen = 0usize;
    for inline in inlines {
        let (n, _) = counts(&inline);
        let Inline::Text { text, style } = inline else {
            out.push(inline);
            while next.next_if(|o| *o < seen + n).is_some() {
                out.push(Inline::PageBreak);
            }
            seen += n;
            continue;
        };
        // Breaks owed (offsets passed) and the byte where the current piece starts.
        let (mut owed, mut since, mut start) = (0usize, 0usize, 0usize);
        for (ci, (b, c)) in text.char_indices().enumerate() {
            while next.next_if(|o| *o <= seen + ci).is_some() {
                owed += 1;
            }
            if owed == 0 {
                continue;
            }
            let before_wide = glyphs_wide(c) && b > start;
            if before_wide || since >= LONGEST_WORD {
                out.push(Inline::Text {
                    text: text[start..b].to_string(),
                    style,
                });
                out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
                (owed, since, start) = (0, 0, b);
            } else if c.is_whitespace() {
                let end = b + c.len_utf8();
                out.push(Inline::Text {
                    text: text[start..end].to_string(),
                    style,
                });
                out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
                (owed, since, start) = (0, 0, end);
            } else {
                since += 1;
            }
        }
        if start < text.len() {
            out.push(Inline::Text {
                text: text[start..].to_string(),
                style,
            });
        }
        out.extend(std::iter::repeat_n(Inline::PageBreak, owed));
        seen += n;
    }
    out.extend(next.map(|_| Inline::PageBreak));
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::model::TextStyle;

    /// A text inline with no style (also the flow tests').
    pub(in crate::read::pagefit) fn text(s: &str) -> Inline {
        Inline::Text {
            text: s.into(),
            style: TextStyle::default(),
        }
    }

    #[test]
    fn a_break_goes_between_words_or_before_an_ideograph() {
        let v = insert_breaks(vec![text("alpha beta gamma")], &[7]);
        assert_eq!(
            v,
            vec![text("alpha beta "), Inline::PageBreak, text("gamma")]
        );
        let v = insert_breaks(vec![text("alpha"), text("beta")], &[2]);
        assert_eq!(v, vec![text("alpha"), Inline::PageBreak, text("beta")]);
        let v = insert_breaks(vec![text("文档检索工具")], &[2]);
        assert_eq!(v, vec![text("文档"), Inline::PageBreak, text("检索工具")]);
        // Two offsets, one pass; one past the end still gives its break.
        let v = insert_breaks(vec![text("a b c d")], &[1, 5, 99]);
        assert_eq!(
            v,
            vec![
                text("a "),
                Inline::PageBreak,
                text("b c "),
                Inline::PageBreak,
                text("d"),
                Inline::PageBreak
            ]
        );
        // A word longer than LONGEST_WORD is broken inside.
        let long = "x".repeat(500);
        let v = insert_breaks(vec![text(&long)], &[10]);
        assert_eq!(v.len(), 3);
        assert_eq!(v[1], Inline::PageBreak);
    }
}
