//! The built-in name finder: simple, predictable rules, Unicode-aware, linear time.
//!
//! - Persons: an honorific (`Mr`, `Mrs`, `Ms`, `Dr`, `Prof`, `Sir`, `Herr`, `Frau`,
//!   `Mme`, ..., with or without a period) followed by one to three capitalized words;
//!   the name is reported without the honorific.
//! - Organizations: a run of capitalized words (joined by `&`, `and`, `of`, `de`, `für`
//!   inside) ending with a corporate suffix (`Inc`, `Ltd`, `LLC`, `GmbH`, `AG`, `Corp`,
//!   `Corporation`, `Company`, `plc`, `S.A.`, ...), reported as written.
//! - Places and terms: the caller's lists, matched as whole words, case-insensitively,
//!   reported as the caller spelled them.
//!
//! Each result appears once, in order of first occurrence.

use std::collections::HashMap;

use crate::names::{NameFinder, Names};

const HONORIFICS: &[&str] = &[
    "mr",
    "mrs",
    "ms",
    "miss",
    "mx",
    "dr",
    "prof",
    "professor",
    "sir",
    "dame",
    "lady",
    "lord",
    "herr",
    "frau",
    "mme",
    "mlle",
    "madame",
    "monsieur",
    "señor",
    "señora",
    "sr",
    "sra",
    "srta",
    "dott",
    "sig",
    "rev",
    "hon",
    "capt",
    "gen",
    "col",
    "judge",
    "president",
];

const SUFFIXES: &[&str] = &[
    "inc",
    "incorporated",
    "ltd",
    "limited",
    "llc",
    "llp",
    "lp",
    "gmbh",
    "ag",
    "kg",
    "corp",
    "corporation",
    "co",
    "company",
    "plc",
    "sa",
    "s.a",
    "sas",
    "sarl",
    "se",
    "nv",
    "n.v",
    "bv",
    "b.v",
    "spa",
    "s.p.a",
    "srl",
    "ab",
    "asa",
    "oy",
    "pty",
    "pte",
    "kk",
    "group",
    "holdings",
];

const CONNECTORS: &[&str] = &["&", "and", "of", "de", "du", "für", "und", "the"];

/// `word` lower-cased is one of `list` (lower-case entries), without a lower-cased
/// copy: every word of a chunk is checked, and most are ASCII and in no list.
fn listed(list: &[&str], word: &str) -> bool {
    if word.is_ascii() {
        // An ASCII word lower-cases to ASCII: only same-length entries can match.
        return list
            .iter()
            .any(|x| x.len() == word.len() && x.eq_ignore_ascii_case(word));
    }
    // Entries are compared only when they start with the word's first lower-cased
    // character: a word of another script (Cyrillic, Greek, CJK) is settled by one
    // lower-casing instead of one per entry.
    let mut lower = word.chars().flat_map(char::to_lowercase);
    let Some(first) = lower.next() else {
        return list.iter().any(|x| x.is_empty());
    };
    list.iter()
        .any(|x| x.starts_with(first) && word.chars().flat_map(char::to_lowercase).eq(x.chars()))
}

/// Built-in finder (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct SimpleNameFinder {
    places: Vec<String>,
    terms: Vec<String>,
    place_index: HashMap<String, Vec<(usize, Vec<String>)>>,
    term_index: HashMap<String, Vec<(usize, Vec<String>)>>,
}

/// A word of the text: its characters as written, and where it ends.
struct Word<'a> {
    text: &'a str,
    /// The character right after the word (a period, a space, ...).
    next: Option<char>,
    /// Whether only spaces (no line break or punctuation) separate it from the next word.
    joined_to_next: bool,
}

fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || matches!(c, '_' | '\'' | '-');
    }
    is_common_letter(c) || c == '’' || c.is_alphanumeric()
}

/// Letters of the common scripts settled by a range check (Latin-1 and Latin
/// Extended-A, Greek, Cyrillic, kana, CJK unified ideographs, Hangul syllables: every
/// character of these ranges is Unicode `Alphabetic`, as a test checks), where
/// `char::is_alphanumeric` searches Unicode's tables for each character of a
/// non-Latin document (4.5% of DOCX conversion time on the corpus, mostly a Russian
/// file, before this check).
fn is_common_letter(c: char) -> bool {
    matches!(c,
        '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{17F}'
        | '\u{391}'..='\u{3A1}' | '\u{3A3}'..='\u{3C9}' | '\u{400}'..='\u{481}'
        | '\u{48A}'..='\u{52F}' | '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}'
        | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}')
}

fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let inside = i < text.len() && (is_word_char(c) || c == '&');
        match (start, inside) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                let w = text.get(s..i).unwrap_or("");
                let rest = text.get(i..).unwrap_or("");
                let next = rest.chars().next();
                let after_period = rest.strip_prefix('.').unwrap_or(rest);
                let mut gap = after_period
                    .chars()
                    .take_while(|c| !is_word_char(*c) && *c != '&')
                    .peekable();
                let joined = gap.peek().is_some() && gap.all(|c| c == ' ' || c == ',');
                let w = w.trim_matches(|c: char| c == '\'' || c == '-' || c == '’');
                if !w.is_empty() {
                    out.push(Word {
                        text: w,
                        next,
                        joined_to_next: joined,
                    });
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

fn capitalized(w: &str) -> bool {
    w.chars().next().is_some_and(char::is_uppercase)
}

fn key_words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn index(list: &[String]) -> HashMap<String, Vec<(usize, Vec<String>)>> {
    let mut map: HashMap<String, Vec<(usize, Vec<String>)>> = HashMap::new();
    for (i, item) in list.iter().enumerate() {
        let ws = key_words(item);
        if let Some(first) = ws.first() {
            map.entry(first.clone()).or_default().push((i, ws));
        }
    }
    map
}

impl SimpleNameFinder {
    /// A finder with caller lists of places and terms.
    pub fn new(places: Vec<String>, terms: Vec<String>) -> Self {
        let place_index = index(&places);
        let term_index = index(&terms);
        SimpleNameFinder {
            places,
            terms,
            place_index,
            term_index,
        }
    }
}

fn push_once(out: &mut Vec<String>, s: String) {
    if !s.is_empty() && !out.contains(&s) {
        out.push(s);
    }
}

fn match_list(
    lowered: &[String],
    idx: &HashMap<String, Vec<(usize, Vec<String>)>>,
    list: &[String],
) -> Vec<String> {
    let mut out = Vec::new();
    let mut found = vec![false; list.len()];
    if idx.is_empty() {
        return out;
    }
    for (pos, w) in lowered.iter().enumerate() {
        let Some(cands) = idx.get(w) else { continue };
        for (i, ws) in cands {
            if found.get(*i) == Some(&true) {
                continue;
            }
            let matches = lowered
                .get(pos..pos + ws.len())
                .is_some_and(|slice| slice.iter().zip(ws).all(|(a, b)| a == b));
            if matches {
                if let Some(f) = found.get_mut(*i) {
                    *f = true;
                }
                if let Some(item) = list.get(*i) {
                    out.push(item.trim().to_string());
                }
            }
        }
    }
    out
}

impl NameFinder for SimpleNameFinder {
    fn find(&self, text: &str) -> Names {
        let ws = words(text);
        let mut names = Names::default();
        // Persons.
        let mut in_person = vec![false; ws.len()];
        let mut i = 0;
        while i < ws.len() {
            let w = &ws[i];
            // Lower-cased only when it can matter: most words are not capitalized.
            if capitalized(w.text) && w.joined_to_next && listed(HONORIFICS, w.text) {
                let mut parts = Vec::new();
                let mut j = i + 1;
                while j < ws.len() && parts.len() < 3 && capitalized(ws[j].text) {
                    if listed(HONORIFICS, ws[j].text) || listed(SUFFIXES, ws[j].text) {
                        break;
                    }
                    parts.push(ws[j].text);
                    let joined = ws[j].joined_to_next && ws[j].next != Some(',');
                    j += 1;
                    if !joined {
                        break;
                    }
                }
                if !parts.is_empty() {
                    push_once(&mut names.persons, parts.join(" "));
                    for flag in in_person.iter_mut().take(j).skip(i) {
                        *flag = true;
                    }
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
        // Organizations.
        let mut run: Vec<&str> = Vec::new();
        for (k, w) in ws.iter().enumerate() {
            if in_person.get(k) == Some(&true) {
                run.clear();
                continue;
            }
            let upper = w.text.chars().next().is_some_and(char::is_uppercase);
            let is_suffix =
                (upper || w.text.eq_ignore_ascii_case("plc")) && listed(SUFFIXES, w.text);
            if is_suffix && run.iter().any(|r| capitalized(r)) {
                while run.last().is_some_and(|r| listed(CONNECTORS, r)) {
                    run.pop();
                }
                if !run.is_empty() {
                    let start = run.len().saturating_sub(5);
                    let mut name = run[start..].join(" ");
                    name.push(' ');
                    name.push_str(w.text);
                    if w.next == Some('.') && w.text.len() <= 4 {
                        name.push('.');
                    }
                    push_once(&mut names.organizations, name);
                }
                run.clear();
                continue;
            }
            let connector = !run.is_empty() && listed(CONNECTORS, w.text);
            if capitalized(w.text) || connector {
                run.push(w.text);
                if !w.joined_to_next {
                    // A period or line break ends a name unless a suffix follows.
                    if w.next != Some(',') && w.next != Some(' ') {
                        run.clear();
                    }
                }
            } else {
                run.clear();
            }
        }
        // Places and terms (most finders have no lists: no lower-cased copy then).
        if self.place_index.is_empty() && self.term_index.is_empty() {
            return names;
        }
        let lowered: Vec<String> = key_words(text);
        names.places = match_list(&lowered, &self.place_index, &self.places);
        names.terms = match_list(&lowered, &self.term_index, &self.terms);
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persons_orgs_places_terms() {
        let f = SimpleNameFinder::new(
            vec!["New York".into(), "Zürich".into()],
            vec!["net revenue".into()],
        );
        let n = f.find(
            "Dr. Jane Smith met Mr Bob at Acme Widgets Inc. in new york. \
             Später kam Frau Müller von der Siemens AG nach ZÜRICH. Net revenue rose; Dr. Jane Smith left.",
        );
        assert_eq!(n.persons, vec!["Jane Smith", "Bob", "Müller"]);
        assert_eq!(n.organizations, vec!["Acme Widgets Inc.", "Siemens AG"]);
        assert_eq!(n.places, vec!["New York", "Zürich"]);
        assert_eq!(n.terms, vec!["net revenue"]);
    }

    #[test]
    fn the_common_letter_ranges_are_alphabetic_throughout() {
        let ranges = [
            ('\u{C0}', '\u{D6}'),
            ('\u{D8}', '\u{F6}'),
            ('\u{F8}', '\u{17F}'),
            ('\u{391}', '\u{3A1}'),
            ('\u{3A3}', '\u{3C9}'),
            ('\u{400}', '\u{481}'),
            ('\u{48A}', '\u{52F}'),
            ('\u{3041}', '\u{3096}'),
            ('\u{30A1}', '\u{30FA}'),
            ('\u{4E00}', '\u{9FFF}'),
            ('\u{AC00}', '\u{D7A3}'),
        ];
        for (a, b) in ranges {
            for c in a..=b {
                assert!(is_common_letter(c) && c.is_alphabetic(), "{c:?}");
            }
        }
        for c in [
            '\u{D7}', '\u{F7}', '\u{482}', '\u{483}', '\u{3000}', '\u{30FB}',
        ] {
            assert!(!is_common_letter(c), "{c:?}");
        }
    }

    #[test]
    fn listed_words_match_case_insensitively_in_any_script() {
        assert!(listed(SUFFIXES, "GmbH") && listed(HONORIFICS, "SEÑORA"));
        assert!(listed(CONNECTORS, "FÜR") && listed(CONNECTORS, "Für"));
        // KELVIN SIGN lower-cases to an ASCII 'k': "\u{212A}G" is "kg".
        assert!(listed(SUFFIXES, "\u{212A}G"));
        assert!(!listed(SUFFIXES, "Компания") && !listed(HONORIFICS, "Señorita"));
        assert!(!listed(HONORIFICS, ""));
    }

    #[test]
    fn no_false_positives_on_plain_text() {
        let f = SimpleNameFinder::default();
        let n = f.find("the company said dr is short. co-operation matters");
        assert!(n.persons.is_empty() && n.organizations.is_empty());
    }
}
