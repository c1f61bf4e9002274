//! The type of thing a question asks for, and whether a text holds one: "when" asks
//! for a date, "how many" for a number, "what is the price" for a sum of money. The
//! property this relies on: the answer to
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
    /// A sum of money ("what is the price", "what fine", "how much does it cost").
    Money,
}

/// Nouns for a sum of money, folded: a question that asks what one of them is ("what
/// was the fee", "what dollar value") asks for an amount.
const MONEY_NOUNS: &[&str] = &[
    "dollar", "dollars", "euro", "euros", "price", "prices", "cost", "costs", "fee", "fees",
    "budget", "salary", "salaries", "wage", "wages", "fine", "fines", "penalty", "rent",
];

/// Verbs that, after "how much", ask what something costs ("how much does it cost").
const MONEY_VERBS: &[&str] = &[
    "cost", "costs", "pay", "paid", "charge", "charged", "spend", "spent",
];

/// How many words after "how much" its verb is looked for: the verb follows the
/// subject, and a subject that names what is bought runs to several words ("how much
/// does the 12-day guided island tour cost").
const MONEY_VERB_WINDOW: usize = 9;

/// Words between "what" and a money noun that keep the question about its amount:
/// a linking verb, an article, a possessive or a modifier ("what is the estimated
/// dollar value"). A content verb ("what does the fee cover") asks about something
/// else.
const MONEY_LINKS: &[&str] = &[
    "is",
    "was",
    "are",
    "were",
    "the",
    "a",
    "an",
    "its",
    "their",
    "his",
    "her",
    "total",
    "estimated",
    "annual",
    "monthly",
    "yearly",
    "final",
    "full",
    "base",
    "new",
    "old",
    "original",
    "maximum",
    "minimum",
    "average",
];

/// Currency signs, codes and words, folded or as written: a sum of money is written
/// with one of them beside its digits (ISO 4217 codes; the common signs and names).
const CURRENCY_MARKS: &[&str] = &[
    "$", "€", "£", "¥", "₽", "₹", "₩", "元", "円", " usd ", " eur ", " gbp ", " jpy ", " cny ",
    " rmb ", " rub ", " chf ", " aud ", " cad ", " dollar", " euro ", " euros ", " cents ",
    " yen ", " yuan ", " руб", " pounds ", " rupee",
];

/// Whether `text` speaks of money: a currency sign, code or name, or a noun for a
/// sum ("price", "fee").
pub fn names_money(text: &str) -> bool {
    let f = fold(text);
    CURRENCY_MARKS
        .iter()
        .any(|m| text.contains(m) || f.contains(m))
        || f.split_whitespace().any(|w| MONEY_NOUNS.contains(&w))
}

/// Whether `q` (folded) asks for an amount of money: "what" (or "which") followed,
/// across linking words only ([`MONEY_LINKS`]), by a money noun, or "how much"
/// followed within [`MONEY_VERB_WINDOW`] words by a verb of paying ([`MONEY_VERBS`]).
fn asks_money(q: &str) -> Option<usize> {
    let words: Vec<&str> = q.split_whitespace().collect();
    let at = |i: usize| q.match_indices(' ').nth(i).map_or(0, |x| x.0);
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "what" | "which") {
            let noun = words[i + 1..]
                .iter()
                .take_while(|x| MONEY_LINKS.contains(x) || MONEY_NOUNS.contains(x))
                .any(|x| MONEY_NOUNS.contains(x));
            if noun {
                return Some(at(i));
            }
        }
        if *w == "how" && words.get(i + 1) == Some(&"much") {
            let verb = words[i + 2..]
                .iter()
                .take(MONEY_VERB_WINDOW)
                .any(|x| MONEY_VERBS.contains(x) || MONEY_NOUNS.contains(x));
            if verb {
                return Some(at(i));
            }
        }
    }
    None
}

/// Phrases that ask for a date, folded (word-padded).
const DATE_ASKS: &[&str] = &[
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

/// Auxiliary verbs an interrogative "when" is followed by ("when did", "when is
/// it due"), folded.
const AUXILIARIES: &[&str] = &[
    "is", "was", "are", "were", "did", "does", "do", "will", "would", "has", "have", "had", "can",
    "could", "should", "shall", "must", "may", "might",
];

/// Verbs that open an embedded question ("tell me when the office opened").
const ASKING_VERBS: &[&str] = &[
    "tell",
    "say",
    "says",
    "know",
    "state",
    "states",
    "show",
    "shows",
    "find",
    "ask",
    "mention",
    "mentions",
    "indicate",
    "indicates",
    "explain",
    "explains",
];

/// Whether a "when" of the folded question `q` asks for a time: it opens the
/// question (not before an -ing form: "When setting up ..., what ..."), is followed
/// by an auxiliary verb, as a question inverts ("and when does it expire"), or
/// follows a verb of telling or knowing ("tell me when the office opened"). A
/// "when" that opens a clause about a condition ("what happens when they join")
/// asks for no date.
fn asks_when(q: &str) -> Option<usize> {
    let w: Vec<&str> = q.split_whitespace().collect();
    let at = w.iter().enumerate().position(|(i, x)| {
        if *x != "when" {
            return false;
        }
        let next = w.get(i + 1).copied().unwrap_or("");
        if i == 0 {
            return !next.ends_with("ing");
        }
        AUXILIARIES.contains(&next)
            || w[i.saturating_sub(2)..i]
                .iter()
                .any(|p| ASKING_VERBS.contains(p))
    })?;
    // Its byte offset in `q`: the words before it and one space after each.
    Some(w[..at].iter().map(|x| x.len() + 1).sum())
}

/// The verb a "who" question asks about, stemmed ("Who discovered the flaw?" ->
/// "discover"): the word right after "who" when it is no auxiliary ("Who was ...",
/// "Who did ..." name no deed there). The sentence naming the person states the
/// deed with that verb ("A. B. has discovered ...").
pub fn who_verb(question: &str) -> Option<String> {
    let q = fold(question);
    let w: Vec<&str> = q.split_whitespace().collect();
    let at = w.iter().position(|x| *x == "who")?;
    // "Who else ...", "who first ...": an adverb may stand before the verb.
    let next = *w[at + 1..]
        .iter()
        .find(|x| !(matches!(**x, "else" | "first" | "then" | "also") || x.ends_with("ly")))?;
    let verb = !AUXILIARIES.contains(&next)
        && !crate::query::assemble::analyze::STOP.contains(&next)
        && next.chars().all(char::is_alphabetic);
    verb.then(|| super::words::stem(next))
}

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

/// Phrases that ask for a reason, folded.
const WHY_ASKS: &[&str] = &[
    " why ",
    " for what reason ",
    " what is the reason ",
    " what was the reason ",
];

/// Words and phrases that give a reason, folded (word-padded).
const REASON_MARKS: &[&str] = &[
    " because ",
    " since ",
    " due to ",
    " owing to ",
    " thanks to ",
    " the reason ",
    " reason being ",
    " so that ",
    " in order to ",
    " as a result ",
    " caused by ",
    " that is why ",
    " this is why ",
];

/// Phrases that ask for a way of doing something, folded (word-padded).
const METHOD_ASKS: &[&str] = &[
    " how can i ",
    " how do i ",
    " how should i ",
    " how can we ",
    " how do we ",
    " how can you ",
    " how do you ",
    " how does one ",
    " how can one ",
    " how to ",
    " what should i do ",
    " what can i do ",
];

/// Phrases that state a way of doing something, folded (word-padded): the
/// second person of instructions and the means of "by".
const METHOD_MARKS: &[&str] = &[
    " you can ",
    " you may ",
    " you should ",
    " you need to ",
    " you must ",
    " you have to ",
    " by setting ",
    " by using ",
    " by adding ",
    " by running ",
    " by passing ",
];

/// Verbs that open an instruction in the imperative ("Set the variable", "To avoid
/// this, run ..."), folded.
const IMPERATIVES: &[&str] = &[
    "set",
    "use",
    "run",
    "add",
    "install",
    "specify",
    "pass",
    "call",
    "open",
    "click",
    "select",
    "choose",
    "type",
    "enter",
    "put",
    "create",
    "edit",
    "remove",
    "delete",
    "change",
    "enable",
    "disable",
    "configure",
    "replace",
    "write",
    "include",
    "save",
    "press",
    "copy",
    "define",
    "provide",
    "invoke",
    "start",
    "insert",
    "upgrade",
];

/// What a question asks beside the sentence that states its subject: a reason
/// ("why ...?") or a way of doing it ("how can I ...?"). Both are most often
/// written in the sentence after the one that names the subject, sharing few of
/// the question's words ("... include timestamps. To avoid this, set ...").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// "Why ...?": a sentence that gives a reason ([`REASON_MARKS`]).
    Reason,
    /// "How can I ...?": a sentence that instructs ([`METHOD_MARKS`], or an
    /// imperative verb first, after an opening "To ..., " clause).
    Method,
}

impl Follow {
    /// Whether `text` gives what this follow-up asks for.
    pub fn given(self, text: &str) -> bool {
        let t = fold(text);
        match self {
            Follow::Reason => REASON_MARKS.iter().any(|p| t.contains(p)),
            Follow::Method => METHOD_MARKS.iter().any(|p| t.contains(p)) || imperative(text),
        }
    }
}

/// Whether `text` opens with an imperative verb ([`IMPERATIVES`]), or does after a
/// purpose clause ("To keep them, set ...") or a sequence word ("Then, run ...").
fn imperative(text: &str) -> bool {
    let clauses: Vec<&str> = text.splitn(2, ',').collect();
    let first_word = |c: &str| {
        fold(c)
            .split_whitespace()
            .next()
            .is_some_and(|w| IMPERATIVES.contains(&w))
    };
    if first_word(clauses[0]) {
        return true;
    }
    let opener = fold(clauses[0]);
    let opens = opener.starts_with(" to ")
        || matches!(
            opener.trim(),
            "then" | "first" | "next" | "finally" | "instead"
        );
    opens && clauses.get(1).is_some_and(|c| first_word(c))
}

/// What `question` asks to follow its subject's sentence, if anything ([`Follow`]).
pub fn follow(question: &str) -> Option<Follow> {
    let q = fold(question);
    if WHY_ASKS.iter().any(|p| q.contains(p)) {
        Some(Follow::Reason)
    } else if METHOD_ASKS.iter().any(|p| q.contains(p)) {
        Some(Follow::Method)
    } else {
        None
    }
}

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

/// Whether `word` (lower case, or its stem) is one of the words that ask for a type ("date",
/// "year", "many", "percentage"): it says what kind of answer is wanted, not what
/// the answer is about.
pub fn is_type_word(word: &str) -> bool {
    DATE_ASKS.iter().chain(NUMBER_ASKS).any(|p| {
        p.split_whitespace()
            .any(|w| w == word || super::words::stem(w) == word)
    }) || MONEY_NOUNS
        .iter()
        .any(|&w| w == word || super::words::stem(w) == word)
}

/// Whether `question` asks for a description: its first question word is "what" or
/// "how" and it names no type ([`wanted`]) ("what does a member agree to", "how are
/// conflicts handled"). Such a question is answered by what is written on its topic,
/// where "who", "which", "where" and "when" ask for one thing, and "what is X?" for
/// a definition.
pub fn describes(question: &str) -> bool {
    let q = fold(question);
    let first = q.split_whitespace().find(|w| {
        matches!(
            *w,
            "what" | "how" | "who" | "whom" | "which" | "where" | "when" | "why"
        )
    });
    // "What is X?" asks for a definition, which one sentence gives.
    let defines = q.starts_with(" what is ") || q.starts_with(" what was ");
    matches!(first, Some("what" | "how")) && !defines && wanted(question).is_none()
}

/// What `question` asks for, if it names a type.
pub fn wanted(question: &str) -> Option<Wanted> {
    let q = fold(question);
    let first = |asks: &[&str]| asks.iter().filter_map(|p| q.find(p)).min();
    let date = [first(DATE_ASKS), asks_when(&q)]
        .into_iter()
        .flatten()
        .min();
    // A question asking for both ("how many yen to the dollar, and on what date?")
    // asks first for what it asks first; the other is a detail of it.
    // A sum of money is the more exact reading of "how much" (and of "what
    // price"): the amount is a number written with its currency.
    if asks_money(&q).is_some_and(|m| date.is_none_or(|d| m <= d)) {
        return Some(Wanted::Money);
    }
    match (date, first(NUMBER_ASKS)) {
        (Some(d), Some(n)) if n < d => Some(Wanted::Number),
        (Some(_), _) => Some(Wanted::Date),
        (None, Some(_)) => Some(Wanted::Number),
        (None, None) => None,
    }
}

/// Whether `text` holds a thing of type `w`: for a date, a year (a 4-digit number
/// from 1000 to 2199), a month name, a day/month pattern (3/4, 12.05.2014) or a CJK date
/// character (年 月 日); for a number, any digit (of any script) or a CJK numeral.
pub fn holds(w: Wanted, text: &str) -> bool {
    let text = &without_reference_marks(text);
    match w {
        // A sum is written with its currency, or under a label that names it (a
        // "price" column's "2.05", "Fee: 40").
        Wanted::Money => holds(Wanted::Number, text) && names_money(text),
        Wanted::Number => {
            text.chars()
                .any(|c| "一二三四五六七八九十百千万億两".contains(c))
                || quantity_digits(text)
                || fold(text)
                    .split_whitespace()
                    .any(|w| NUMBER_WORDS.contains(&w))
        }
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
            // 3/4, 12/05/2014: digits on both sides of a slash. With dots or hyphens a
            // date is day, month and year (12.05.2014, 27-12-24): two numbers joined by a
            // dot are a decimal or a version ("3.9", "0.31.2"), not a date.
            let c: Vec<char> = text.chars().collect();
            c.windows(3)
                .any(|w| w[0].is_ascii_digit() && w[1] == '/' && w[2].is_ascii_digit())
                || text
                    .split(|ch: char| !(ch.is_ascii_digit() || ch == '.' || ch == '-'))
                    .any(day_month_year)
        }
    }
}

/// Whether `w` is a date written as day, month and year joined by dots or hyphens
/// ("12.05.2014", "27-12-24"; a trailing dot allowed): three numbers of 1-2, 1-2 and
/// 2 or 4 digits, day and month in range.
fn day_month_year(w: &str) -> bool {
    let w = w.trim_end_matches(['.', '-']);
    for sep in ['.', '-'] {
        let p: Vec<&str> = w.split(sep).collect();
        if p.len() == 3
            && p.iter()
                .all(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit()))
        {
            let (d, m) = (p[0].parse::<u32>(), p[1].parse::<u32>());
            let short = p[0].len() <= 2 && p[1].len() <= 2 && matches!(p[2].len(), 2 | 4);
            if short
                && d.is_ok_and(|d| (1..=31).contains(&d))
                && m.is_ok_and(|m| (1..=31).contains(&m))
            {
                return true;
            }
        }
    }
    false
}

/// English number words: a count written out ("three types", "a dozen").
const NUMBER_WORDS: &[&str] = &[
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "billion",
    "dozen",
    "half",
    "twice",
    "single",
    "once",
];

/// Words before a year that make it one ("in 2013", "since 1998"): a time, not a
/// quantity.
const YEAR_PREPOSITIONS: &[&str] = &[
    "in", "since", "of", "by", "from", "until", "till", "before", "after", "during", "to",
];

/// Nouns for a numbered place in a document, folded: the number after one ("Section
/// 7.1", "Article 3", "§ 5", "Figure 2") is a cross-reference, the address of a
/// part, and counts nothing.
const PLACE_NOUNS: &[&str] = &[
    "section",
    "sections",
    "subsection",
    "article",
    "articles",
    "clause",
    "clauses",
    "paragraph",
    "paragraphs",
    "chapter",
    "chapters",
    "§",
    "§§",
    "figure",
    "fig",
    "appendix",
    "annex",
    "exhibit",
    "schedule",
];

/// Whether `text` writes a number that may be a quantity: digits (of any script)
/// other than a year placed in time ("in 2013", "May 2013"), which dates a statement
/// and counts nothing, and other than the number of a cross-reference ("as defined
/// in Section 7.1", [`PLACE_NOUNS`]).
fn quantity_digits(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().any(|(i, w)| {
        let core = w.trim_matches(|c: char| !c.is_alphanumeric());
        if !core.chars().any(char::is_numeric) {
            return false;
        }
        let year = core.len() == 4
            && core.chars().all(|c| c.is_ascii_digit())
            && core.parse::<u32>().is_ok_and(|y| (1000..2200).contains(&y));
        let placed = i > 0 && {
            let prev = fold(words[i - 1]);
            let prev = prev.trim();
            YEAR_PREPOSITIONS.contains(&prev) || MONTHS.contains(&prev)
        };
        let reference = i > 0 && {
            let prev = words[i - 1].to_lowercase();
            PLACE_NOUNS.contains(&prev.trim_matches(|c: char| !c.is_alphanumeric() && c != '§'))
        };
        !(year && placed) && !reference
    })
}

/// `text` without its reference marks: a bracketed citation number ("[6]", "\\[68]",
/// "[3, 4]", Wikipedia's and most papers' style) and a note mark ("(note 2)", as
/// docrag writes a footnote reference). They number the references, not what the
/// sentence says: "a small group of employees.[8]" states no quantity.
fn without_reference_marks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['[', '(']) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let close = if from.starts_with('[') { ']' } else { ')' };
        let inner_end = from.find(close);
        let mark = inner_end.is_some_and(|e| {
            let inner = &from[1..e];
            let inner =
                inner
                    .strip_prefix("note ")
                    .unwrap_or(if close == ')' { "" } else { inner });
            !inner.is_empty()
                && inner.chars().any(|c| c.is_ascii_digit())
                && inner
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, ',' | ' ' | '-' | '–'))
                && (close == ')' || inner.chars().all(|c| !c.is_alphabetic()))
        });
        match (mark, inner_end) {
            (true, Some(e)) => {
                if out.ends_with('\\') {
                    out.pop();
                }
                rest = &from[e + 1..];
            }
            _ => {
                out.push_str(&from[..1]);
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_two_types_asked_the_first_is_wanted() {
        assert_eq!(
            wanted("How many yen is one dollar, and on what date was the rate set?"),
            Some(Wanted::Number)
        );
        assert_eq!(
            wanted("When was it released, and how many copies were sold?"),
            Some(Wanted::Date)
        );
    }

    #[test]
    fn the_paying_verb_ends_a_long_subject() {
        assert_eq!(
            wanted("How much does the 12-day guided island ferry tour cost per person?"),
            Some(Wanted::Money)
        );
        assert_eq!(
            wanted("How much rain fell on the island during the long ferry tour?"),
            Some(Wanted::Number)
        );
    }

    #[test]
    fn a_version_or_a_decimal_is_no_date() {
        assert!(!holds(
            Wanted::Date,
            "drops support for Python 3.9 and CommonMark 0.31.2"
        ));
        assert!(holds(Wanted::Date, "decided on 27.12.2024 in Vienna"));
        assert!(holds(Wanted::Date, "due 3/4"));
        assert!(holds(Wanted::Date, "signed 05-06-23."));
    }

    #[test]
    fn the_wh_phrase_gives_the_type() {
        assert_eq!(wanted("When does the draft expire?"), Some(Wanted::Date));
        assert_eq!(wanted("In what year was it founded?"), Some(Wanted::Date));
        assert_eq!(
            wanted("How many patients were treated?"),
            Some(Wanted::Number)
        );
        assert_eq!(wanted("Who wrote the draft?"), None);
        assert_eq!(
            who_verb("Who discovered the leak, and when?").as_deref(),
            Some("discover")
        );
        assert_eq!(who_verb("Who was the first skipper?"), None);
        assert_eq!(who_verb("Who else from the crew is thanked?"), None);
        assert_eq!(
            who_verb("Who first sailed the route?").as_deref(),
            Some("sail")
        );
        assert_eq!(wanted("And when is the ferry due?"), Some(Wanted::Date));
        assert_eq!(wanted("Tell me when the ferry left."), Some(Wanted::Date));
        assert_eq!(wanted("What do deckhands carry when they board?"), None);
        assert_eq!(wanted("When boarding the ferry, what must I show?"), None);
        assert_eq!(
            follow("Why is the import a separate project?"),
            Some(Follow::Reason)
        );
        assert!(Follow::Reason.given("The reason being that its parser is LGPL."));
        assert!(!Follow::Reason.given("The import is a separate project."));
        assert_eq!(
            follow("How can I keep the logs small?"),
            Some(Follow::Method)
        );
        assert_eq!(follow("How large are the logs?"), None);
        assert!(Follow::Method.given("To keep them small, set the rotation size."));
        assert!(Follow::Method.given("Run the cleaner weekly."));
        assert!(Follow::Method.given("You can also pass a limit."));
        assert!(!Follow::Method.given("The logs grow without bound."));
        assert!(!Follow::Method.given("To this day, logs are kept."));
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
        // Reference marks number the references, not the sentence's content.
        assert!(!holds(
            Wanted::Number,
            "A small group of employees ran it.\\[8]\\[9] See (note 2) and [3, 4]."
        ));
        assert!(holds(Wanted::Number, "It had 40 staff.[8]"));
        // A year placed in time dates the statement; a four-digit count still counts.
        assert!(!holds(Wanted::Number, "Its last summit was in 2013."));
        assert!(holds(Wanted::Number, "It employs 1500 people."));
        assert!(holds(Wanted::Number, "There are three kinds of field."));
        assert!(holds(Wanted::Number, "The fee (12 crowns) is due."));
    }
}
