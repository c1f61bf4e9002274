//! The answer written out: plain text and Markdown with the same `[n]` markers,
//! within a token budget, and the declining answer.

use super::draft::{Draft, Line};
use super::{Answer, NO_ANSWER, Quote};
use crate::tokens;

/// The declining answer: what was not found, and the closest passage.
pub fn decline(what: &str, facts: &Draft, max_tokens: usize) -> Answer {
    let mut d = Draft {
        kind: "none",
        ..Draft::default()
    };
    let lead = format!("The documents do not show {what}.");
    d.lines.push(Line::new(lead, 0));
    if let Some(l) = facts.lines.first() {
        d.lines.push(Line {
            plain: format!("The closest passage: \"{}\"", l.plain),
            markdown: format!("The closest passage: \"{}\"", l.markdown),
            number: l.number,
        });
    }
    let mut a = write(vec![d], max_tokens);
    a.declined = true;
    a.kind = "none".into();
    a
}

/// `text` with every `[` that is followed (after spaces) by a digit written `\[`,
/// so a document's own bracket is not read as a citation.
fn escape_brackets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '['
            && text[i + 1..]
                .trim_start_matches([' ', '\t'])
                .starts_with(|d: char| d.is_ascii_digit())
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Writes drafts as the answer, within `max_tokens` (at least the first statement).
pub fn write(drafts: Vec<Draft>, max_tokens: usize) -> Answer {
    let kind = drafts.first().map_or("none", |d| d.kind).to_string();
    let mut text = String::new();
    let mut md = String::new();
    let mut quotes = Vec::new();
    let mut used = 0usize;
    // A statement after a list item starts its own line, as the items do.
    let mut after_item = false;
    'all: for d in &drafts {
        let mut distinct: Vec<&str> = d.lines.iter().map(|l| l.plain.as_str()).collect();
        crate::order::sort(&mut distinct);
        distinct.dedup();
        let as_list = d.list && distinct.len() > 1;
        for (k, l) in d.lines.iter().enumerate() {
            // The same statement from several sources (a table repeated in the
            // document) is written once, citing each.
            if d.lines[..k].iter().any(|p| p.plain == l.plain) {
                continue;
            }
            let mut numbers: Vec<usize> = d.lines[k..]
                .iter()
                .filter(|x| x.plain == l.plain && x.number > 0)
                .map(|x| x.number)
                .collect();
            numbers.dedup();
            let cite = if numbers.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = numbers.iter().map(ToString::to_string).collect();
                format!(" [{}]", list.join(", "))
            };
            let bullet = if as_list { "- " } else { "" };
            let line = format!("{bullet}{}{cite}", escape_brackets(&l.plain));
            let cost = tokens::count(&line) + 1;
            if !quotes.is_empty() && used + cost > max_tokens {
                break 'all;
            }
            used += cost;
            let sep = if text.is_empty() {
                ""
            } else if as_list || after_item || quotes.is_empty() {
                "\n"
            } else {
                " "
            };
            after_item = as_list;
            text.push_str(sep);
            text.push_str(&line);
            let md_sep = if md.is_empty() {
                ""
            } else if as_list {
                "\n"
            } else {
                "\n\n"
            };
            md.push_str(md_sep);
            md.push_str(bullet);
            md.push_str(&l.markdown);
            md.push_str(&cite);
            quotes.push(Quote {
                number: l.number,
                text: l.plain.clone(),
            });
        }
    }
    if text.is_empty() {
        text = NO_ANSWER.to_string();
        md = NO_ANSWER.to_string();
    }
    let tokens = tokens::count(&text);
    Answer {
        declined: kind == "none",
        text,
        markdown: md,
        kind,
        quotes,
        tokens,
    }
}
