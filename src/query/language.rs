//! Documents' languages, and the languages a question names.
//!
//! "The Russian report", "the Hebrew leaflet", "which files are in Japanese": a
//! question names a language in English while the document is written
//! in it, so no word of the question meets a word of the document. Each document's
//! language is detected once when it joins a collection (the `whatlang` crate:
//! script, then trigram profiles of 69 languages, over a sample of its body text), and
//! a question that names a language held by a minority of the documents is read in
//! those documents ([`scope`]).

use std::collections::HashSet;

use whatlang::Lang;

use super::collection::Collection;
use crate::chunk::Chunk;

/// Letters sampled from the start of a document's body text for detection.
pub const SAMPLE_CHARS: usize = 4_000;
/// Fewer letters than this tell no language apart (a title and a cell or two): such
/// a document gets none.
pub const MIN_LETTERS: usize = 40;
/// The least `whatlang` confidence (0 to 1) taken as the document's language: a
/// script one language writes (Hebrew, Hangul, kana) gives 1, a clear Latin-script
/// text 0.9 and more, a few words of English 0.1 or less.
pub const MIN_CONFIDENCE: f64 = 0.8;

/// The language of a document's body text (chunks whose `chunkKind` is body), as an
/// ISO 639-3 code ("rus", "heb", "cmn"); None when there is no text or no language
/// stands out.
pub fn detect(chunks: &[Chunk]) -> Option<&'static str> {
    let mut sample = String::with_capacity(SAMPLE_CHARS + 64);
    for ch in chunks {
        if ch.metadata.get_str("chunkKind").unwrap_or("body") != "body" {
            continue;
        }
        push_letters(&ch.text, &mut sample);
        if sample.chars().count() >= SAMPLE_CHARS {
            break;
        }
    }
    if sample.chars().filter(|c| c.is_alphabetic()).count() < MIN_LETTERS {
        return None;
    }
    let info = whatlang::detect(&sample)?;
    (info.confidence() >= MIN_CONFIDENCE).then(|| info.lang().code())
}

/// Appends the words of `text` to `out`: the information line, HTML tags and
/// Markdown punctuation left out, so table markup does not read as English.
fn push_letters(text: &str, out: &mut String) {
    let body = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with('[') => rest,
        _ => text,
    };
    let mut in_tag = false;
    let mut in_target = false;
    let mut prev = ' ';
    let mut n = out.chars().count();
    let mut in_code = false;
    let prose = body.lines().filter(|l| {
        if l.starts_with("```") {
            in_code = !in_code;
            return false;
        }
        !in_code
    });
    for c in prose.flat_map(|l| l.chars().chain(std::iter::once('\n'))) {
        if n >= SAMPLE_CHARS {
            return;
        }
        let after = std::mem::replace(&mut prev, c);
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if in_tag => {}
            '(' if after == ']' => in_target = true,
            ')' if in_target => in_target = false,
            _ if in_target => {}
            c if c.is_alphabetic() || c.is_whitespace() => {
                out.push(c);
                n += 1;
            }
            _ => out.push(' '),
        }
    }
    out.push(' ');
}

/// The languages `terms` (a question's lower-cased index terms) name by their English
/// or native name ("russian", "русский"; "chinese" for Mandarin), as (ISO 639-3
/// code, the term that names it).
pub fn named(terms: &[String]) -> Vec<(&'static str, String)> {
    let words: HashSet<&str> = terms.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for &lang in Lang::all() {
        let eng = lang.eng_name().to_lowercase();
        let native = lang.name().to_lowercase();
        let alias = match lang {
            Lang::Cmn => "chinese",
            Lang::Pes => "farsi",
            _ => "",
        };
        if let Some(w) = [eng.as_str(), native.as_str(), alias]
            .into_iter()
            .find(|w| !w.is_empty() && words.contains(w))
        {
            out.push((lang.code(), w.to_string()));
        }
    }
    out
}

/// The documents of `docs` (positions in `c`) written in a language the question
/// (`terms`) names, when those are fewer than half of `docs`: the scope such a
/// question is read in. None when the question names no language, no document is in
/// it, or it is the language of most documents (it then tells none apart).
pub fn scope(c: &Collection, terms: &[String], docs: &[usize]) -> Option<Vec<usize>> {
    let langs: Vec<&str> = named(terms).into_iter().map(|x| x.0).collect();
    if langs.is_empty() {
        return None;
    }
    let inside: Vec<usize> = docs
        .iter()
        .copied()
        .filter(|&d| {
            c.documents()
                .get(d)
                .and_then(|x| x.language)
                .is_some_and(|l| langs.contains(&l))
        })
        .collect();
    (!inside.is_empty() && inside.len() * 2 < docs.len()).then_some(inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_a_question() {
        let t = |s: &str| crate::retrieve::tokenize::tokenize(s);
        assert_eq!(
            named(&t("In the Russian annual report, what ...")),
            vec![("rus", "russian".to_string())]
        );
        assert_eq!(named(&t("the Chinese ES6 chapter"))[0].0, "cmn");
        assert_eq!(named(&t("Hebrew and German sheets")).len(), 2);
        assert!(named(&t("What does the footer say?")).is_empty());
    }

    #[test]
    fn tags_and_info_lines_are_not_sampled() {
        let mut s = String::new();
        push_letters(
            "[Document: X]\n<tr><td>Привет [мир](http://x.org/a)</td></tr>",
            &mut s,
        );
        assert_eq!(s.split_whitespace().collect::<Vec<_>>(), ["Привет", "мир"]);
    }
}
