//! The type of thing a question asks for, and whether a text holds one: "when" asks
//! for a date, "how many" for a number. The property this relies on: the answer to
//! such a question contains a thing of that type, so a sentence that shares the
//! question's words but holds no date (or number) restates the question instead of
//! answering it.

use super::phrase::fold;

/// What a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// A date or a year ("when", "what year", "which date").
    Date,
    /// A quantity ("how many", "how much", "what percentage").
    Number,
}

/// Phrases that ask for a date, folded (word-padded).
const DATE_ASKS: &[&str] = &[
    " when ",
    " what year ",
    " which year ",
    " what date ",
    " which date ",
    " what day ",
    " which day ",
    " in what year ",
    " what month ",
    " which month ",
];

/// Phrases that ask for a quantity, folded.
const NUMBER_ASKS: &[&str] = &[
    " how many ",
    " how much ",
    " how long ",
    " how old ",
    " how far ",
    " how big ",
    " what percentage ",
    " what percent ",
    " what number ",
    " what share ",
    " what price ",
    " what rate ",
    " how often ",
];

/// Month names (English, folded, and their common abbreviations).
const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];

/// What `question` asks for, if it names a type.
pub fn wanted(question: &str) -> Option<Wanted> {
    let q = fold(question);
    if DATE_ASKS.iter().any(|p| q.contains(p)) {
        Some(Wanted::Date)
    } else if NUMBER_ASKS.iter().any(|p| q.contains(p)) {
        Some(Wanted::Number)
    } else {
        None
    }
}

/// Whether `text` holds a thing of type `w`: for a date, a year (a 4-digit number
/// from 1000 to 2199), a month name, a day/month pattern (12.05, 3/4) or a CJK date
/// character (年 月 日); for a number, any digit (of any script) or a CJK numeral.
pub fn holds(w: Wanted, text: &str) -> bool {
    match w {
        Wanted::Number => text
            .chars()
            .any(|c| c.is_numeric() || "一二三四五六七八九十百千万億两".contains(c)),
        Wanted::Date => {
            if text.chars().any(|c| matches!(c, '年' | '月' | '日')) {
                return true;
            }
            let f = fold(text);
            let words: Vec<&str> = f.split_whitespace().collect();
            let year = |w: &str| {
                let d: String = w.chars().filter(char::is_ascii_digit).collect();
                d.len() == 4
                    && d.chars().count() == w.chars().count()
                    && d.parse::<u32>().is_ok_and(|y| (1000..2200).contains(&y))
            };
            if words.iter().any(|w| year(w) || MONTHS.contains(w)) {
                return true;
            }
            // 12.05.2014, 3/4: digits on both sides of a date separator.
            let c: Vec<char> = text.chars().collect();
            c.windows(3).any(|w| {
                w[0].is_ascii_digit() && matches!(w[1], '.' | '/' | '-') && w[2].is_ascii_digit()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wh_phrase_gives_the_type() {
        assert_eq!(wanted("When does the draft expire?"), Some(Wanted::Date));
        assert_eq!(wanted("In what year was it founded?"), Some(Wanted::Date));
        assert_eq!(
            wanted("How many patients were treated?"),
            Some(Wanted::Number)
        );
        assert_eq!(wanted("Who wrote the draft?"), None);
    }

    #[test]
    fn dates_and_numbers_are_recognised() {
        assert!(holds(Wanted::Date, "It will expire on 18 June 2015."));
        assert!(holds(Wanted::Date, "Signed 12.05.2014 in Moscow"));
        assert!(holds(Wanted::Date, "４４年１１月７日に処刑"));
        assert!(!holds(Wanted::Date, "The draft describes a protocol."));
        // A version number is no year.
        assert!(!holds(Wanted::Date, "version 20151 of the tool"));
        assert!(holds(Wanted::Number, "There were 86 patients."));
        assert!(!holds(Wanted::Number, "There were many patients."));
    }
}
