//! A row asked for by a numbered label that its table's series of labels skips:
//! "week 8" of a schedule whose rows run Week 1 … Week 7, Week 9 …
//!
//! The property this relies on: rows keyed by one word and a number ("Week 3",
//! "Day 10", "Step 4", "Phase 2") enumerate what the table covers, so a question
//! naming that word with a number no key of the series holds, while the series holds
//! the numbers right before and after it, asks for a row the table does not have
//! (the neighbours' rows are in the context, so the row would be too). The nearest
//! rows answer something else; the documents do not say.

use std::collections::HashMap;

use super::cells::tables;
use super::focus;
use super::phrase::fold;
use super::source::Src;

/// Fewest keys of one word and a number a column needs to be a series.
const SERIES_MIN: usize = 3;

/// The folded "word number" pairs of `text` ("week 8"), in order.
fn labelled_numbers(folded: &str) -> Vec<(String, String)> {
    let w: Vec<&str> = folded.split_whitespace().collect();
    w.windows(2)
        .filter(|p| {
            p[0].chars().all(char::is_alphabetic) && p[1].chars().all(|c| c.is_ascii_digit())
        })
        .map(|p| (p[0].to_string(), p[1].to_string()))
        .collect()
}

/// The label ("week 8") of the row `question` names that the series of keys of a
/// table in a document the question is about skips between its neighbours (see the
/// module docs); `None` when every labelled number it names is a key, or is not
/// between two keys of such a series.
pub fn skipped(srcs: &[Src], question: &str, docs: &HashMap<String, f64>) -> Option<String> {
    let asked = labelled_numbers(&fold(question));
    if asked.is_empty() {
        return None;
    }
    // The keys each (document, column) holds as "word number", over every source of
    // the document: a table cut across chunks is one series.
    let mut series: HashMap<(&str, usize, String), Vec<u64>> = HashMap::new();
    for f in tables(srcs) {
        let Some(s) = srcs.get(f.src) else { continue };
        if focus::relevance(docs, s) < focus::TARGET_SHARE {
            continue;
        }
        for row in &f.table.rows {
            for (c, cell) in row.iter().enumerate() {
                let folded = fold(cell);
                if folded.split_whitespace().count() == 2
                    && let [(word, number)] = labelled_numbers(&folded).as_slice()
                {
                    series
                        .entry((s.title.as_str(), c, word.clone()))
                        .or_default()
                        .extend(number.parse::<u64>().ok());
                }
            }
        }
    }
    asked.into_iter().find_map(|(word, number)| {
        let n: u64 = number.parse().ok()?;
        let of_word: Vec<&Vec<u64>> = series
            .iter()
            .filter(|((_, _, w), k)| *w == word && k.len() >= SERIES_MIN)
            .map(|(_, k)| k)
            .collect();
        let skipped = of_word
            .iter()
            .any(|k| n > 0 && k.contains(&(n - 1)) && k.contains(&(n + 1)));
        let held = of_word.iter().any(|k| k.contains(&n));
        (skipped && !held).then(|| format!("{word} {n}"))
    })
}
