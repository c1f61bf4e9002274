//! How the collection's BM25 ranking reads a question and a chunk
//! (`Collection::search`): stop words out of the question, numbers printed to a fixed
//! precision found by their whole value. Documents the tests write themselves.

mod common;
use common::add_doc;

use docrag::query::Collection;

/// A Markdown document of `sections`, each a heading and its body.
fn markdown(sections: &[(&str, String)]) -> String {
    sections
        .iter()
        .map(|(h, body)| format!("# {h}\n\n{body}\n\n"))
        .collect()
}

/// Titles of the sections holding the `k` best chunks for `q`.
fn best_sections(c: &Collection, q: &str, k: usize) -> Vec<String> {
    let all: Vec<usize> = (0..c.documents().len()).collect();
    c.search(q, k, &all)
        .iter()
        .map(|h| {
            let doc = &c.documents()[c.position(&h.chunk.doc).unwrap()];
            let ch = &doc.chunks[h.chunk.seq as usize];
            ch.metadata
                .get_str("headingPath")
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// A Markdown table of gauge readings, many chunks with no English function word.
fn levels() -> String {
    let mut t = String::from("| Gauge | Day | Level | Flow |\n|---|---|---|---|\n");
    for i in 0..400 {
        t.push_str(&format!(
            "| G{} | {} | {}.{} | {} |\n",
            i % 17,
            i % 31 + 1,
            i % 9,
            i % 7,
            100 + i
        ));
    }
    t
}

#[test]
fn a_rare_word_outranks_the_function_words_of_a_long_question() {
    // Sections written in plain prose, dense in the words every question is
    // made of ("what", "is", "the", "of", "where", "it"), and one section that names
    // the town asked about once, in a sentence with none of them.
    let prose = "What is said of the valley is that it is where the old road of the \
                 pass was, and that the people of the villages there were what kept \
                 it open in the winter of each year, as it is told in the records of \
                 the time. ";
    let mut sections: Vec<(&str, String)> = ["Roads", "Passes", "Winters", "Records", "Villages"]
        .iter()
        .map(|h| (*h, prose.repeat(12)))
        .collect();
    let mut rivers = "Rivers join lakes; meadows flank orchards. Bridges span gorges; \
                      ferries cross narrows. Mills grind grain. "
        .repeat(8);
    rivers.push_str("Chur keeps archives.");
    sections.push(("Rivers", rivers));
    let mut c = Collection::new();
    add_doc(&mut c, "valley.md", markdown(&sections).as_bytes(), 256);
    // Chunks without any English function word (a table of readings) give those
    // words an IDF well above zero, as a collection of tables and code does.
    add_doc(&mut c, "levels.md", levels().as_bytes(), 256);
    let best = best_sections(&c, "What is it that the records say of where Chur is?", 1);
    assert_eq!(best, ["Rivers"]);
}

#[test]
fn a_whole_number_finds_the_value_printed_with_zero_decimals() {
    // Statistical output prints every time to a fixed precision ("38.0000"); a
    // reader asks for "38 months".
    let table = |times: std::ops::Range<u32>| {
        let mut t = String::from("| Time | Survival | Left |\n|---|---|---|\n");
        for m in times {
            t.push_str(&format!("| {m}.0000 | 0.{} | {} |\n", 90 - m, 60 - m));
        }
        t
    };
    let sections = [
        ("First stratum", table(1..20)),
        ("Second stratum", table(30..45)),
        (
            "Notes",
            "Survival is estimated at each visit and counted from entry. ".repeat(6),
        ),
    ];
    let mut c = Collection::new();
    add_doc(&mut c, "survival.md", markdown(&sections).as_bytes(), 128);
    let best = best_sections(&c, "What was the survival at 38 months?", 1);
    assert_eq!(best, ["Second stratum"]);
}
