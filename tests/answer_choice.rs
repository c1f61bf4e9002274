//! Which sentence the extractive answerer quotes, and when it declines, over documents
//! each test writes itself: the sentence holding the date a "when" question asks for,
//! a picture placeholder never quoted, and an English question over a document in
//! another script declined rather than answered with the title.

mod common;
use common::{answer_of as answer, collection_of as collection};
use docrag::query::{QueryOptions, Replies, ask};

#[test]
fn a_when_question_quotes_the_sentence_with_a_date() {
    let text = "# Harbour bridge\n\nThe harbour bridge was opened by the mayor of the town.\n\n\
The bridge was opened on 12 May 1931, after four years of work.\n";
    let c = collection("bridge.md", text);
    let a = answer(&c, "When was the harbour bridge opened by the mayor?");
    assert!(a.text.contains("12 May 1931"), "{}", a.text);
}

#[test]
fn a_picture_is_never_the_answer() {
    let html = "<html><head><title>Trip notes</title></head><body><h1>Trip notes</h1>\
<p><img src=\"a.png\" alt=\"Picture 1\"></p><p>The ferry leaves at noon.</p></body></html>";
    let c = collection("trip.html", html);
    let a = answer(&c, "What does Picture 1 in the trip notes show?");
    assert!(!a.text.starts_with("[image"), "{}", a.text);
}

#[test]
fn an_english_question_over_another_script_is_not_answered_with_the_title() {
    let text =
        "# Поездка в Японию\n\nРейс вылетает в восемь утра.\n\nГостиница находится у вокзала.\n";
    let c = collection("trip-ru.md", text);
    let a = answer(&c, "What exchange rate does the Russian trip sheet give?");
    assert!(a.declined, "{}", a.text);
    assert!(a.text.starts_with("The documents do not"), "{}", a.text);
}

#[test]
fn what_a_text_says_about_a_heading_is_that_section_s_key_sentences() {
    // Wiki-style headings all end in an "edit" link: the word names no section.
    let mut text = String::from("# Guide\n\n");
    for (h, body) in [
        (
            "Alpha",
            "Alpha is the first tool of the kit. It sorts files.",
        ),
        (
            "Beta",
            "Beta is the second tool. It copies files between disks.",
        ),
        (
            "Gamma",
            "Gamma is a compiler for the kit's scripts. It is designed for speed and safety. \
Gamma checks every script before it runs. Scripts compiled by Gamma run twice as fast. \
Gamma was written by the kit's maintainers. It ships with the kit since version two. \
A Gamma script ends in .gm by convention. Gamma reports errors with line numbers. \
Gamma caches compiled scripts between runs. Gamma can target two processor families.",
        ),
    ] {
        text.push_str(&format!("## {h}[[edit](/edit/{h})]\n\n{body}\n\n"));
    }
    let c = collection("guide.md", &text);
    let a = answer(&c, "What does the guide say about Gamma?");
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(a.text.contains("Gamma is a compiler"), "{}", a.text);
    assert!(!a.text.contains("copies files"), "{}", a.text);
    // Key sentences, not the whole section: eight of its ten.
    assert_eq!(a.quotes.len(), 8, "{}", a.text);
}

#[test]
fn a_section_quoted_by_its_heading_is_read_and_answered_though_a_contents_list_names_it_too() {
    // Over the send-everything threshold, so retrieval must find the section: every
    // other part mentions its heading's words more often than the section does.
    let topics: Vec<String> = (0..60).map(|i| format!("Topic {i} overview")).collect();
    let mut text = String::from("# Handbook\n\n**Contents**\n\n");
    for t in &topics {
        text.push_str(&format!("{t}\t{}\n\n", 3));
    }
    text.push_str("Fetching the binaries\t9\n\n");
    for (i, t) in topics.iter().enumerate() {
        text.push_str(&format!("# {t}\n\n"));
        for j in 0..24 {
            text.push_str(&format!(
                "Paragraph {j} of part {i} talks about harbour cranes, tides and cargo number {}; fetching the binaries comes later, the binaries are fetched last. \n\n",
                i * 100 + j
            ));
        }
    }
    text.push_str("# Fetching the binaries\n\nDownload the latest release archive from the project site and unpack it anywhere.\n\n\
Each archive carries a checksum file next to it.\n");
    let c = collection("handbook.md", &text);
    let r = ask(
        &c,
        "What does the handbook say about 'Fetching the binaries'?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .unwrap();
    // Retrieval, not the whole document.
    assert!(
        r.accounting.reason.contains("budget"),
        "{}",
        r.accounting.reason
    );
    assert!(
        r.accounting.total_tokens < 8_000,
        "{}",
        r.accounting.total_tokens
    );
    let a = r.answer;
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(
        a.text.contains("Download the latest release archive"),
        "{}",
        a.text
    );
}

#[test]
fn sentences_the_question_cannot_tell_apart_are_both_shown() {
    // Both sentences hold every word of the question: choosing one would be a guess.
    let text = "# Town hall\n\nThe hall was built of stone in the old style.\n\n\
The north door of the hall is painted green every spring.\n\n\
The south door of the hall is painted blue every spring.\n\n\
Visitors enter through the garden gate.\n";
    let c = collection("hall.md", text);
    let a = answer(&c, "How is the door of the hall painted every spring?");
    assert!(
        a.text.contains("green") && a.text.contains("blue"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("garden gate"), "{}", a.text);
}

/// A wiki-style page: every heading ends in an "[edit]" link.
fn wiki_page() -> String {
    let mut text = String::from("# Tools\n\n");
    for (h, body) in [
        (
            "Alpha",
            "Alpha sorts files by name. It was the kit's first tool.",
        ),
        (
            "Beta",
            "Beta copies files between disks. It checks each copy.",
        ),
        (
            "Delta",
            "Delta compresses archives. It keeps the old copies.",
        ),
        (
            "Gamma",
            "Gamma is short. The compiler checks every script before any script runs on the kit. \
Scripts compiled by the compiler run twice as fast as scripts the kit interprets. \
The compiler and the kit share one parser for every script. \
Every script the compiler accepts also runs under the kit's interpreter. \
The compiler writes its output next to the script it compiled. \
The kit's maintainers wrote the compiler and its parser. \
The compiler reports each error with the line it stands on. \
The compiler keeps compiled scripts in a cache between runs. \
The compiler targets the two processor families the kit runs on.",
        ),
    ] {
        text.push_str(&format!("## {h}[[edit](/edit/{h})]\n\n{body}\n\n"));
    }
    text
}

#[test]
fn a_heading_quoted_without_its_edit_link_names_its_section() {
    // Words most headings share ("edit") are decoration, not part of a heading's name.
    let c = collection("tools.md", &wiki_page());
    let a = answer(&c, "What is covered under the heading 'Delta'?");
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(a.text.contains("Delta compresses archives"), "{}", a.text);
}

#[test]
fn a_section_answer_keeps_the_section_s_opening() {
    // The opening states the topic even when it is short and the rest is more central.
    let c = collection("tools.md", &wiki_page());
    let a = answer(&c, "Summarize the section 'Gamma'.");
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(a.text.starts_with("Gamma is short."), "{}", a.text);
    assert_eq!(a.quotes.len(), 8, "{}", a.text);
}

#[test]
fn a_quoted_label_line_brings_the_list_under_it() {
    // A label with no colon ("Samples") over a list, deep in a document over the
    // budget, whose other parts use the label's word more often.
    let mut text = String::from("# Handbook\n\n");
    for i in 0..150 {
        text.push_str(&format!("## Part {i}\n\n"));
        for j in 0..12 {
            text.push_str(&format!(
                "Paragraph {j} of part {i} mentions samples of harbour cranes and samples of tides, number {}.\n\n",
                i * 100 + j
            ));
        }
    }
    text.push_str("## Extras\n\n");
    for j in 0..20 {
        text.push_str(&format!(
            "Ferry line {j} leaves the quay at dawn and returns by the evening tide.\n\n"
        ));
    }
    text.push_str("The kit ships with these.\n\nSamples\n\n- BridgeDemo\n- CraneDemo\n- TideTable\n- WharfWalk\n\nThat is all.\n");
    let c = collection("handbook.md", &text);
    let r = ask(
        &c,
        "What are all the points listed under \"Samples\" in the handbook?",
        &[],
        &Replies::default(),
        &QueryOptions::new(),
    )
    .unwrap();
    let context = &r.payload.messages[0].content;
    for item in ["BridgeDemo", "CraneDemo", "TideTable", "WharfWalk"] {
        assert!(context.contains(item), "{item} missing from the context");
        assert!(r.answer.text.contains(item), "{}", r.answer.text);
    }
}

#[test]
fn a_question_asking_two_things_gets_a_statement_for_the_part_its_list_leaves_out() {
    // Each interrogative word opens one thing asked: a list answers the first part,
    // the paragraph after it the second.
    let text = "# Ferry guide\n\n## Tickets\n\nThe ferry company sells three kinds of ticket:\n\n\
- a single ticket, valid for one crossing;\n- a day ticket, valid until midnight;\n\
- a season pass, which needs a photo card.\n\n\
Since the spring timetable, the night crossing is suspended on Mondays.\n\n\
## Boarding\n\nCars board first, then foot passengers.\n";
    let c = collection("ferry.md", text);
    let a = answer(
        &c,
        "Which kinds of ticket does the ferry company sell, what is each valid for, and what \
changed with the spring timetable?",
    );
    assert_eq!(a.kind, "list", "{}", a.text);
    assert!(a.text.contains("season pass"), "{}", a.text);
    assert!(a.text.contains("suspended on Mondays"), "{}", a.text);
    assert!(!a.text.contains("Cars board first"), "{}", a.text);
}

/// A guide whose headings repeat its own name, and one phrased as a question about
/// documents.
fn tool_guide() -> String {
    "# Quill Getting Started\n\n## What is Quill?\n\nQuill is a library for reading ledgers in Go. \
It parses each ledger line into typed records.\n\n## Is Quill for you?\n\n\
Quill is for processing ledgers when you need typed records rather than raw text.\n\n\
## What ledger documents does it support?\n\nQuill reads ledgers written by version 2 \
or later of the accounting suite.\n"
        .to_string()
}

#[test]
fn a_heading_quoted_as_written_names_its_section_though_its_words_are_the_document_s() {
    let c = collection("quill.md", &tool_guide());
    let a = answer(
        &c,
        "In quill.md, what is covered under the heading 'What is Quill?'?",
    );
    assert!(
        a.text.starts_with("Quill is a library for reading ledgers"),
        "{}",
        a.text
    );
    let a = answer(&c, "What does quill.md say about 'Is Quill for you?'?");
    assert!(
        a.text.contains("Quill is for processing ledgers"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("library for reading"), "{}", a.text);
}

#[test]
fn words_inside_a_quoted_heading_do_not_say_what_is_asked() {
    // "documents" inside the quote names the section; it does not ask which documents.
    let c = collection("quill.md", &tool_guide());
    let a = answer(
        &c,
        "What does quill.md say about 'What ledger documents does it support?'?",
    );
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(a.text.contains("version 2 or later"), "{}", a.text);
}

#[test]
fn a_list_item_continued_on_an_indented_line_is_one_item() {
    let text = "# Packages\n\nThe setting is read from the package object:\n\n\
- WordPackage:  \n  ProtectDocument settings()\n- SheetPackage:  \n  ProtectWorkbook settings()\n";
    let c = collection("packages.md", text);
    let a = answer(
        &c,
        "What is the second item of the list after \"The setting is read from the package object:\"?",
    );
    assert!(
        a.text
            .starts_with("SheetPackage: ProtectWorkbook settings()"),
        "{}",
        a.text
    );
}

#[test]
fn a_short_paragraph_is_quoted_whole() {
    // A reference entry is one paragraph the sentence splitter cuts at its initials
    // and its full stops; the journal the question asks for is in its last part.
    let text = "# References\n\nSmith, D. M., Eade, R., & Pohlmann, H. (2013). A comparison of \
full-field and anomaly initialization for seasonal prediction. Climate Dynamics, 41(11), 3325-3338.\n\n\
Boer, G. J. (2016). The decadal climate prediction project. Geoscientific Model Development, 9, 3751.\n";
    let c = collection("refs.md", text);
    let a = answer(
        &c,
        "In which journal was the 2013 paper by Smith, Eade and Pohlmann published?",
    );
    assert!(a.text.contains("Climate Dynamics, 41(11)"), "{}", a.text);
}

#[test]
fn a_contents_entry_is_never_an_answer() {
    let text = "# Ferry handbook\n\n**Contents**\n\nTickets and passes ........ 4\n\nNight crossings ........ 5\n\n\
## Tickets and passes\n\nA season pass needs a photo card and is valid for a year.\n\n\
## Night crossings\n\nThe night crossing leaves at midnight on weekdays.\n";
    let c = collection("ferry.md", text);
    let a = answer(
        &c,
        "What does the ferry handbook say about night crossings?",
    );
    assert!(a.text.contains("leaves at midnight"), "{}", a.text);
    // A question naming nothing but the document asks what it says as a whole: its
    // sentences, not its title heading or its contents list.
    let a = answer(&c, "What is the ferry handbook about?");
    assert_eq!(a.kind, "documents", "{}", a.text);
    assert!(
        a.text.contains("season pass") && a.text.contains("midnight"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("...."), "{}", a.text);
}

#[test]
fn each_section_is_told_by_its_heading_and_opening_sentence() {
    let text = "# Ferry handbook\n\n**Contents**\n\n## Tickets and passes\n\nA season pass needs a \
photo card and is valid for a year. Day tickets are sold on board.\n\n## Night crossings\n\n\
The night crossing leaves at midnight on weekdays. It is suspended in January.\n\n\
## Lost property\n\nLost items are kept at the harbour office for a month.\n";
    let c = collection("ferry.md", text);
    let a = answer(
        &c,
        "Give an overview of the ferry handbook: what does each of its sections say?",
    );
    assert_eq!(a.kind, "section", "{}", a.text);
    assert_eq!(a.quotes.len(), 3, "{}", a.text);
    assert!(
        a.quotes[0]
            .text
            .starts_with("Tickets and passes: A season pass"),
        "{}",
        a.text
    );
    assert!(
        a.quotes[2].text.starts_with("Lost property: Lost items"),
        "{}",
        a.text
    );
}

/// Three printed pages of a protocol memo as plain text: each opens with the same
/// running header and closes with a footer that differs only in its page number.
fn paginated_memo() -> String {
    let pages = [
        "1. Requests\n\n   Every request MUST carry an 'Accept' header and a 'Date' header.\n",
        "2. Replies\n\n   Every reply carries a 'Cache-Control' header.\n",
        "3. Errors\n\n   A failed request gets a 400 status.\n",
    ];
    pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "Memo        Harbour Protocol        May 2020\n\n{p}\nSmith        Expires June 2020        [Page {}]\n",
                i + 1
            )
        })
        .collect::<Vec<_>>()
        .join("\u{000C}")
}

#[test]
fn headers_a_document_talks_about_are_not_its_page_headers() {
    let c = collection("memo.txt", &paginated_memo());
    let a = answer(
        &c,
        "Which headers must every request carry in the harbour protocol?",
    );
    assert_ne!(a.kind, "header-footer", "{}", a.text);
    assert!(a.text.contains("'Accept' header"), "{}", a.text);
    // Asked for as a page's header, the running header is the answer.
    let a = answer(
        &c,
        "What does the page header of the harbour protocol memo say?",
    );
    assert_eq!(a.kind, "header-footer", "{}", a.text);
    assert!(
        a.text.contains("Memo Harbour Protocol May 2020"),
        "{}",
        a.text
    );
}

/// A guide whose "Ferries" section runs over two chunks, with a subsection, and whose
/// short "Buses" section shares the second chunk.
fn island_guide() -> String {
    let mut t = String::from("# Island Guide\n\n## Ferries\n\nMain article: Ferry services\n\n");
    t.push_str("The ferries link the island to the mainland every hour from dawn to dusk.\n\n");
    for i in 0..14 {
        t.push_str(&format!(
            "Ferry pier {i} has a waiting room, a ticket machine and a covered bicycle rack for travellers.\n\n"
        ));
    }
    t.push_str(
        "### Night ferries\n\nA night ferry leaves the harbour at midnight on Saturdays.\n\n",
    );
    t.push_str("## Buses\n\nThe buses stop at the church and at the beach car park.\n");
    t
}

#[test]
fn a_section_answer_ends_at_the_next_heading_of_its_level_and_opens_with_a_sentence() {
    let c = collection("island.md", &island_guide());
    assert!(
        c.documents()[0].chunks.len() >= 2,
        "the section spans chunks"
    );
    let a = answer(&c, "Summarize the section 'Ferries' of the island guide.");
    assert_eq!(a.kind, "section", "{}", a.text);
    // The opening sentence, not the pointer to another article before it.
    assert!(
        a.text.contains("link the island to the mainland"),
        "{}",
        a.text
    );
    // The next section at the same level is not part of it.
    assert!(!a.text.contains("church"), "{}", a.text);
}

#[test]
fn of_two_quoted_headings_the_inner_one_is_asked() {
    let html = "<html><head><title>Harbour guide</title></head><body>\
<h1>2019 Harbour Guide</h1><p>The harbour guide covers the town's transport.</p>\
<h2>Ferries</h2><p>The ferries leave the harbour every hour.</p>\
<h2>Buses</h2><p>The buses stop at the church and at the beach.</p></body></html>";
    let c = collection("guide.html", html);
    let a = answer(
        &c,
        "In the document headed '2019 Harbour Guide', what is covered under the heading 'Buses'?",
    );
    assert!(a.text.contains("stop at the church"), "{}", a.text);
    assert!(!a.text.contains("ferries leave"), "{}", a.text);
}

#[test]
fn a_numbered_heading_is_named_by_its_words_and_its_contents_entry_is_no_answer() {
    let text = "# Contents\n\n**1.0**\t**Introduction**\t**3**\n\n**2.0**\t**Ferry Events**\t**4**\n\n\
# 1.0 Introduction\n\nThis schedule describes the harbour's duties.\n\n\
# 2.0 Ferry Events\n\nA ferry event means a sailing cancelled by the harbour master.\n";
    let c = collection("schedule.md", text);
    let a = answer(
        &c,
        "What is covered under the heading 'Ferry Events' in the schedule?",
    );
    assert!(
        a.text.contains("sailing cancelled by the harbour master"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("Ferry Events 4"), "{}", a.text);
}

#[test]
fn a_number_only_one_heading_holds_names_its_section() {
    // Release notes: headings told apart by their version numbers. The question
    // describes what it wants in its own words ("new options") and names the
    // version; another section shares those words but not the number.
    let text = "# Kettle release notes\n\n\
## Kettle 2.4 shipped today\n\nThis release adds two commands.\n\n\
- A new --dry-run option prints what would change.\n\
- A new --color option colours the report.\n\n\
## Kettle 3.0\n\n\
### New options announced\n\n\
The configuration file moved to the home folder. Old files are read once and converted.\n\n\
## Kettle 3.1\n\nThis is a bug fix release.\n";
    let c = collection("kettle.md", text);
    let a = answer(&c, "What new options were announced for Kettle 2.4?");
    assert!(a.text.contains("--dry-run"), "{}", a.text);
    assert!(a.text.contains("--color"), "{}", a.text);
    assert!(!a.text.contains("configuration file"), "{}", a.text);
}

#[test]
fn a_heading_written_out_in_a_long_question_names_its_section() {
    // The question asks three things about one heading, in many words of its own:
    // they cover little of the heading's section, yet the heading is written out.
    let text = "# Kettle guide\n\n\
## Kettle.reset()\n\n\
Kettle.reset() returns a fresh kettle whose water is gone. \
After a reset the old handle throws an error when used. \
It is useful when a kettle must not be reached again once its work is done.\n\n\
## Kettle.boil()\n\n\
Kettle.boil() heats the water and gives back the temperature reached. \
The old handle stays usable after boiling. \
In situations where tea is wanted, one should call it twice.\n";
    let c = collection("kettle-guide.md", text);
    let a = answer(
        &c,
        "What does the guide say about Kettle.reset(): what does it give back, what happens to the old handle, and in which situations should one call it?",
    );
    // The named section's sentences come first, all of them.
    assert!(
        a.text.starts_with("Kettle.reset() returns a fresh kettle"),
        "{}",
        a.text
    );
    let reached = a
        .text
        .find("must not be reached again")
        .expect("its last sentence");
    assert!(
        a.text.find("heats the water").is_none_or(|b| b > reached),
        "{}",
        a.text
    );
}

#[test]
fn a_message_s_header_fields_are_not_what_its_section_says() {
    // A mail archive as plain text: each message opens with its header fields.
    let mut text = String::new();
    for (v, body) in [
        (
            "2.4",
            "Kettle 2.4 has been released! It adds a --dry-run option. The report is now coloured. Old settings files are read once and converted. Thanks to everyone who tested it.",
        ),
        (
            "2.5",
            "Kettle 2.5 is a bug fix release. It repairs the --color option on old terminals.",
        ),
    ] {
        text.push_str(&format!(
            "Subject: ANN: Kettle {v}\nFrom: Ann Lee\nDate: May 28, 2015, 7:37:29 AM\nLink: https://example.org/ann/{v}\n\n{body}\n\n"
        ));
    }
    let c = collection("announcements.txt", &text);
    let a = answer(&c, "What did the Kettle 2.4 release announcement say?");
    assert!(
        a.text.starts_with("Kettle 2.4 has been released!"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("From:"), "{}", a.text);
}

#[test]
fn a_past_form_of_an_irregular_verb_matches_its_other_forms() {
    // The question asks in the simple past what the text states in the passive:
    // "took" and "taken" share no suffix, only their verb.
    let text = "# Harbour photographs\n\nThe harbour archive keeps prints from many decades.\n\n\
The photograph of the flooded quay was printed by Olek Varga in 1960.\n\n\
The photograph of the flooded quay was taken by Ines Moll in 1952.\n";
    let c = collection("archive.md", text);
    let a = answer(&c, "Who took the photograph of the flooded quay?");
    assert!(a.text.contains("Ines Moll"), "{}", a.text);
    assert!(!a.text.contains("Olek"), "{}", a.text);
}

#[test]
fn a_date_asked_of_a_named_thing_is_not_taken_from_another_thing() {
    // Two services of one port: a date is given for the ferry only. The name the
    // question gives is written in the text, so a date beside another name answers
    // about something else.
    let text = "# Port services\n\nThe port runs several public services.\n\n\
## Harbour Light Service\n\nThe Harbour Light Service guides ships into the bay at night. \
It was first lit in 1871, after a wreck on the bar.\n\n\
## Harbour Ferry\n\nThe Harbour Ferry carries passengers across the bay. \
The Harbour Ferry will be shut down on 30 November 2026.\n";
    let c = collection("port.md", text);
    let a = answer(&c, "When will the Harbour Light Service be shut down?");
    assert!(a.declined, "{}", a.text);
    // The date stated under the name's own heading answers.
    let a = answer(&c, "When was the Harbour Light Service first lit?");
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("1871"), "{}", a.text);
    let a = answer(&c, "When will the Harbour Ferry be shut down?");
    assert!(a.text.contains("30 November 2026"), "{}", a.text);
}

#[test]
fn what_a_heading_introduces_leaves_out_filler() {
    // Template text said over and over around the section's real sentences; the
    // one-word heading is read as a lead-in whose section the answer quotes.
    let filler = "I am some text ".repeat(20);
    let text = format!(
        "# Complex sample\n\nThis document exercises many features.\n\n## Columns\n\n\
{filler}\n\n{filler}\n\n## Fields\n\nThere are three types of fields: marker, display, and \
result. Marker fields are invisible when printed. Display fields print a picture. Result \
fields print the computed result of the field, here 90.\n\n{filler}[image: Picture 6]{filler}\n\n\
{filler}\n\n## Tables\n\n{filler}\n"
    );
    let c = collection("complex.md", &text);
    let a = answer(&c, "What does the Fields section say?");
    assert!(a.text.contains("three types of fields"), "{}", a.text);
    assert!(!a.text.contains("I am some text"), "{}", a.text);
}

#[test]
fn a_note_named_by_its_label_is_the_one_answered() {
    // Three notes marked in one paragraph: the words of the paragraph fit each of
    // them alike; the label tells them apart.
    let text = "# Harbour history\n\nThe harbour was dredged in 1902.[^dredge] The quay was \
extended in 1931.[^quay] A new crane arrived in 1950.[^3]\n\n\
[^dredge]: Dredging records are kept at the town archive.\n\n\
[^quay]: The extension added forty metres of berth.\n\n\
[^3]: The crane came from a shipyard in Leith.\n";
    let c = collection("harbour.md", text);
    let a = answer(&c, "What does the footnote labelled quay say?");
    assert!(a.text.contains("forty metres"), "{}", a.text);
    assert!(!a.text.contains("Leith"), "{}", a.text);
    // Its mark, set right after a full stop, ends the sentence that references it:
    // the reference is that sentence, not the paragraph.
    assert!(
        a.text.contains("The quay was extended in 1931."),
        "{}",
        a.text
    );
    assert!(!a.text.contains("1902"), "{}", a.text);
    let a = answer(&c, "What does footnote 3 say?");
    assert!(a.text.contains("Leith"), "{}", a.text);
    assert!(!a.text.contains("archive"), "{}", a.text);
}

#[test]
fn a_count_asked_for_and_not_written_is_declined() {
    // "How many ...?" is answered by a number: the sentence that names the crew but
    // counts nobody restates the question. A year placed in time ("in 1990") and
    // reference marks ("[4]") count nothing.
    let md = "# Skerry Ferry Company\n\nThe company was founded in 1990 by two brothers.[4]\n\n\
The company employs deckhands from the island villages.[5]\n\n\
## Boats\n\nThe company runs a small fleet of boats across the sound.\n";
    let c = collection("ferry.md", md);
    let a = answer(
        &c,
        "How many deckhands does the Skerry Ferry Company employ?",
    );
    assert!(a.declined, "{}", a.text);
    let counted = md.replace("employs deckhands", "employs 34 deckhands");
    let c = collection("ferry.md", &counted);
    let a = answer(
        &c,
        "How many deckhands does the Skerry Ferry Company employ?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("34 deckhands"), "{}", a.text);
}

#[test]
fn a_kind_of_document_in_the_question_is_no_word_of_what_is_asked() {
    // "according to the article" says where to look: a numbered reference line
    // that only shares "article" with the question counts none of the deckhands.
    let md = "# Skerry Ferry Company\n\nThe company employs deckhands from the island villages.\n\n\
## References\n\n12. Moor, Ann (4 May 2011). \"Ferries of the sound\". Harbour article on boats. Retrieved 2012-03-01.\n";
    let c = collection("ferry.md", md);
    let q = "How many deckhands does the Skerry Ferry Company employ, according to the article?";
    let a = answer(&c, q);
    assert!(a.declined, "{}", a.text);
    let counted = md.replace("employs deckhands", "employs 34 deckhands");
    let a = answer(&collection("ferry.md", &counted), q);
    assert!(!a.declined && a.text.contains("34 deckhands"), "{}", a.text);
}

#[test]
fn a_version_after_another_name_is_another_release() {
    // The notes write "ferryctl" before its releases' numbers; "0.5" is written
    // only after "ferry-maps", another program, so ferryctl 0.5 is not described.
    let md = "# Release notes\n\nferryctl 1.2 adds a timetable printer for the quay office.\n\n\
ferryctl 1.3 adds fares for bicycles and a new ticket layout.\n\n\
The installer also bundles ferry-maps 0.5, which draws the crossings of the sound.\n";
    let c = collection("notes.md", md);
    let a = answer(&c, "What did ferryctl 0.5 add?");
    assert!(a.declined, "{}", a.text);
    let a = answer(&c, "What did ferryctl 1.3 add?");
    assert!(!a.declined && a.text.contains("bicycles"), "{}", a.text);
}

#[test]
fn a_why_question_gets_the_sentence_that_gives_the_reason() {
    // The claim asked about shares the question's words; the reason follows it and
    // shares almost none ("The reason being that ..."). "main" before a plain noun
    // ("the main timetable") picks a thing out and makes the question no summary.
    let md = "# Skerry Ferry Company\n\nThe company sells tickets on the quay.\n\n\
Each autumn the winter timetable is printed as a separate leaflet rather than in the main timetable. \
The reason being that the harbour board sets the winter sailings only in October. \
The leaflet lists every crossing of the sound, the fares for cars, bicycles and foot passengers, \
the telephone number of the quay office and the days on which the first boat leaves late.\n\n\
## Boats\n\nThe company runs a small fleet of boats across the sound.\n";
    let c = collection("ferry.md", md);
    let a = answer(
        &c,
        "Why is the winter timetable printed as a separate leaflet rather than in the main timetable?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("harbour board sets"), "{}", a.text);
}

#[test]
fn a_how_question_gets_the_instruction_after_the_problem() {
    // "How can I ...?" asks for a way; the paragraph names the problem first (the
    // question's words), restates it, then instructs ("To avoid this, set ...") in
    // words the question does not use.
    let md = "# Skerry Ferry Company\n\nThe company sells tickets on the quay.\n\n\
Printed tickets carry the time of printing in their corner. \
That means two tickets for the same crossing never look alike. \
To avoid this, set the quay printer's clock to the sailing time before printing. \
The printer is serviced every spring by the harbour electrician, who also checks the \
paper roll, the cutter, the ink ribbon and the cable to the ticket office.\n\n\
## Boats\n\nThe company runs a small fleet of boats across the sound.\n";
    let c = collection("ferry.md", md);
    let a = answer(
        &c,
        "Printed tickets carry the time of printing. How can I make two tickets for one crossing alike?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("clock to the sailing time"), "{}", a.text);
}

#[test]
fn a_section_answer_keeps_the_sentence_that_answers_best() {
    // A section of many list items quoted from its top would end before the one
    // sentence that states what is asked; that sentence stays in the answer.
    let mut md = String::from(
        "# Ticket machine\n\nThe machine sells ferry tickets.\n\n## Settings file\n\n",
    );
    for i in 1..=40 {
        md.push_str(&format!("- key{i}: value {i}\n"));
    }
    md.push_str(
        "\nIf no settings file is found on the quay computer, the ticket machine uses its factory defaults.\n\n\
## Repairs\n\nThe machine is serviced in spring.\n",
    );
    let c = collection("machine.md", &md);
    let a = answer(
        &c,
        "What does the 'Settings file' section say happens if no settings file is found on the quay computer?",
    );
    assert!(a.text.contains("factory defaults"), "{}", a.text);
}

#[test]
fn a_date_asked_for_is_not_the_date_of_a_mail_header() {
    // "On what date ...": the line holding a date must be about what is asked, and
    // the word "date" asks for the type, so a mail's "Date:" field dates no signing.
    let md = "# Harbour notes\n\nFrom: Ann Lee Date: Jun 20, 2023 Link: https://example.org/notes\n\n\
The harbour lease was signed by the mayor and the ferry company.\n\n\
## Boats\n\nThe company runs a small fleet of boats across the sound.\n";
    let c = collection("notes.md", md);
    let a = answer(&c, "On what date was the harbour lease signed?");
    assert!(a.declined, "{}", a.text);
    let dated = md.replace("was signed by", "was signed on 3 May 2021 by");
    let c = collection("notes.md", &dated);
    let a = answer(&c, "On what date was the harbour lease signed?");
    assert!(a.text.contains("3 May 2021"), "{}", a.text);
}

#[test]
fn note_alone_asks_for_a_footnote_only_where_one_answers() {
    // "note" names a footnote in a document that has them ("the note on the
    // timetable"); where no footnote answers, it was the ordinary word ("the safety
    // note" is a paragraph's title) and the question is answered from the text.
    let md = "# Skerry Ferry Company\n\nThe timetable changes in winter.[^1]\n\n\
Safety note: life jackets are stored under the benches of the upper deck.\n\n\
[^1]: The winter timetable starts on the first Monday of November.\n";
    let c = collection("ferry.md", md);
    let a = answer(&c, "What does the note on the timetable say?");
    assert!(a.text.contains("first Monday of November"), "{}", a.text);
    assert_eq!(a.kind, "notes", "{}", a.text);
    let a = answer(
        &c,
        "Where does the safety note say life jackets are stored?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("under the benches"), "{}", a.text);
}

#[test]
fn a_document_named_by_a_title_word_outranks_one_that_never_writes_it() {
    // The question names the quayside protocol; the ferry guide has a list that
    // matches "risks ... against each" better, but never writes "quayside": its
    // list is no answer about the protocol.
    let mut c = docrag::query::Collection::new();
    let ferry = "# Skerry Ferry Company\n\nThe company runs boats across the sound.\n\n\
## Passenger safety\n\nSecurity risks on board, and what the crew does against each:\n\n\
- Slippery decks: wear shoes with rubber soles.\n- Strong winds: hold the rail.\n\
- Cold water: wear a life jacket.\n";
    let quay = "# Quayside Booking Protocol\n\nThe protocol books places on the morning boats.\n\n\
## Considerations\n\nTickets sent over plain connections can be read by others: \
clients use encrypted connections.\n\nA stolen booking code lets another person board, \
so the office checks a photo card.\n";
    common::add_doc(&mut c, "ferry.md", ferry.as_bytes(), 512);
    common::add_doc(&mut c, "quayside.md", quay.as_bytes(), 512);
    let a = answer(
        &c,
        "What security risks does the quayside protocol discuss, and what does it recommend against each?",
    );
    assert!(!a.text.contains("rubber soles"), "{}", a.text);
    assert!(
        [
            "encrypted connections",
            "photo card",
            "Quayside Booking Protocol"
        ]
        .iter()
        .any(|t| a.text.contains(t)),
        "{}",
        a.text
    );
}

#[test]
fn a_change_author_named_beside_a_weak_change_word_asks_for_the_change() {
    // "insert" is also the ordinary verb; the name of the one who made the
    // insertions says the question is about them, even where a sentence of the
    // text shares more of its words.
    let p = |t: &str| format!("<w:p><w:r><w:t xml:space=\"preserve\">{t}</w:t></w:r></w:p>");
    let body = format!(
        "{}{}<w:p><w:r><w:t xml:space=\"preserve\">Fares: </w:t></w:r>\
<w:ins w:id=\"1\" w:author=\"Ann Moor\" w:date=\"2020-01-02T00:00:00Z\"><w:r><w:t>bicycles 3 euro</w:t></w:r></w:ins></w:p>",
        p("Which fares the ticket office inserts in the timetable cells is decided in spring."),
        p("The ticket office prints the timetable."),
    );
    let bytes = common::docx_with(&body, &[], &[]);
    let mut c = docrag::query::Collection::new();
    common::add_doc(&mut c, "fares.docx", &bytes, 512);
    let a = answer(
        &c,
        "Which fares did Ann Moor insert in the timetable cells?",
    );
    assert!(a.text.contains("bicycles 3 euro"), "{}", a.text);
    assert_eq!(a.kind, "changes", "{}", a.text);
}

#[test]
fn when_opening_a_condition_asks_for_no_date() {
    // "... when they join" states a condition; the answer is what is done then, and
    // holds no date. Only a "when" that asks ("When did ...", "and when is ...")
    // wants one.
    let md = "# Skerry Ferry Company\n\nThe company runs boats across the sound.\n\n\
## Deck helpers\n\nDeck helpers are volunteers from the island villages.\n\n\
When joining the crew, a deck helper agrees to take on the following duties:\n\n\
- Check the life jackets before each crossing\n- Greet passengers on the quay\n\n\
## Boats\n\nThe boats are painted every spring.\n";
    let c = collection("ferry.md", md);
    let a = answer(
        &c,
        "What does someone promise to do when they become a deck helper?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("life jackets"), "{}", a.text);
}

#[test]
fn a_who_question_is_answered_where_its_verb_states_the_deed() {
    // The description of the crack shares most of the question's words; the one
    // sentence that says who discovered it shares its verb.
    let md = "# Harbour notices\n\nThe harbour office opens at nine.\n\n\
The crack in the quay wall near the ferry ramp lets sea water into the cellar of the office.\n\n\
Ann Moor discovered the crack during the spring tide.\n\n\
## Boats\n\nThe boats are painted every spring.\n";
    let c = collection("notices.md", md);
    let a = answer(
        &c,
        "Who discovered the crack in the quay wall near the ferry ramp?",
    );
    assert!(a.text.starts_with("Ann Moor discovered"), "{}", a.text);
}

#[test]
fn a_key_sentence_whose_paragraph_ends_in_a_colon_brings_its_list() {
    // A prose section longer than its key sentences, whose list items are short and
    // rank below the long sentences on their own.
    let text = "# Boat kit\n\n## Rigging\n\n\
The rigging of the kit boat is the set of lines that hold and work its sails. \
These include:\n\n- the halyard\n- the sheet\n- the downhaul\n\n\
Every line of the rigging is made of braided polyester rope that resists stretching in wet weather. \
The lines are coiled and stowed in the cockpit locker after every sail on the lake. \
A worn line of the rigging should be replaced before the start of the sailing season. \
Spare rigging lines can be ordered from the kit's maker by their colour and length. \
The rigging of the kit boat is checked by the club's bosun twice a year in spring.\n\n\
## Hull\n\nThe hull is moulded glass fibre.\n";
    let c = collection("boat.md", text);
    let a = answer(&c, "What does the section 'Rigging' say?");
    assert_eq!(a.kind, "section", "{}", a.text);
    for item in ["halyard", "sheet", "downhaul"] {
        assert!(a.text.contains(item), "{item}: {}", a.text);
    }
}

#[test]
fn a_heading_whose_every_word_the_question_holds_names_its_section() {
    // The question adds a word the document never writes ("concrete") and puts the
    // heading's words in another order and form ("verify" for "verified").
    let text = "# Engine review\n\n## 1. Scope\n\nThe review covers the diff engine of the tool.\n\n\
## 2. Weaknesses in the current engine, verified\n\n\
Three specific consequences are reproducible. Repetitive text is reported as one large replacement. \
Paired numbers become two separate changes. Sentence mode loses the paragraphs of the text.\n\n\
## 3. Plan\n\nThe engine will be rewritten next year.\n";
    let c = collection("review.md", text);
    let a = answer(
        &c,
        "Which concrete weaknesses of the current engine does the review verify?",
    );
    assert_eq!(a.kind, "section", "{}", a.text);
    assert!(a.text.contains("Paired numbers"), "{}", a.text);
}

#[test]
fn a_sentence_under_a_dated_heading_is_dated_by_it() {
    // A changelog: each entry states what changed and leaves its date to the heading.
    let text = "# Change log\n\n## 3.0.0 - 2024-02-03\n\nThis release adds a plugin loader and new rules.\n\n\
## 2.2.0 - 2023-06-05\n\nThis release drops support for the old Tcl parser and adds a cache.\n\n\
## 2.1.0 - 2022-11-30\n\nThis release fixes two crashes in the lexer.\n";
    let c = collection("CHANGELOG.md", text);
    let a = answer(&c, "When was support for the old Tcl parser dropped?");
    assert!(a.text.contains("2023-06-05"), "{}", a.text);
    assert!(a.text.contains("drops support"), "{}", a.text);
}

#[test]
fn a_weak_change_word_over_a_document_without_changes_is_its_text() {
    // "changed" names a tracked change in only one of its senses: in a question about
    // a document with no tracked changes it is the ordinary word, even when another
    // document of the collection carries changes.
    let p = |t: &str| format!("<w:p><w:r><w:t xml:space=\"preserve\">{t}</w:t></w:r></w:p>");
    let body = format!(
        "{}<w:p><w:r><w:t xml:space=\"preserve\">Fares: </w:t></w:r>\
<w:ins w:id=\"1\" w:author=\"Ann Moor\" w:date=\"2020-01-02T00:00:00Z\"><w:r><w:t>opening hours posted: 9 to 5</w:t></w:r></w:ins></w:p>",
        p("The ticket office prints the fares."),
    );
    let mut c = docrag::query::Collection::new();
    common::add_doc(
        &mut c,
        "fares.docx",
        &common::docx_with(&body, &[], &[]),
        512,
    );
    common::add_doc(
        &mut c,
        "lighthouse-walk.md",
        b"# Lighthouse walk\n\nThe walk starts at the old pier.\n\n\
Changed opening hours of the lighthouse are posted at the pier gate a week ahead.\n",
        512,
    );
    let a = answer(
        &c,
        "Where are changed opening hours posted, according to the lighthouse walk?",
    );
    assert!(a.text.contains("pier gate"), "{}", a.text);
    assert_ne!(a.kind, "changes", "{}", a.text);
    // "revised" is such a word too ("revised versions of the licence"); "revision"
    // and "tracked" name the structure.
    let a = answer(
        &c,
        "Where are revised opening hours posted, according to the lighthouse walk?",
    );
    assert!(a.text.contains("pier gate"), "{}", a.text);
}

#[test]
fn the_note_on_a_remark_the_question_restates_is_the_answer() {
    // The question restates the sentence a footnote hangs on, word for word, so the
    // sentence covers the question better than the note does; but that sentence
    // points to a note, and the question asks what the note says.
    let text = "# Harbour\n\nThe quay was built in stone by the harbour board. \
The harbour bridge was due to open in 1931.[^1] Ferries ran until it did.\n\n\
Boats are moored along the east wall in winter.\n\n\
[^1]: It opened on 12 May 1931, two months late, after a strike.\n";
    let c = collection("harbour.md", text);
    let a = answer(
        &c,
        "The text says the harbour bridge was due to open in 1931. What does the note on that remark say?",
    );
    assert_eq!(a.kind, "notes", "{}", a.text);
    assert!(a.text.contains("two months late"), "{}", a.text);
}

#[test]
fn a_dotted_name_is_found_by_its_parts() {
    // "org.example.openpackaging.SlidesPackage" is one word at Unicode word
    // boundaries; a reader names the class by its package ("the openpackaging
    // class"), a word no other text of the document writes.
    let text = "# Packages\n\nEach file type is opened by its own package class:\n\n\
| docx | org.example.openpackaging.WordPackage |\n|---|---|\n\
| pptx | org.example.openpackaging.SlidesPackage |\n\
| xlsx | org.example.openpackaging.SheetPackage |\n\n\
Each part of a package has a class as well. The class that represents a part \
says how the part is read and which file type it belongs to.\n";
    let c = collection("packages.md", text);
    let a = answer(&c, "Which openpackaging class represents a pptx file?");
    assert!(a.text.contains("SlidesPackage"), "{}", a.text);
}

#[test]
fn what_a_question_sets_apart_is_not_its_answer() {
    // "Besides the checksum": the sentence about the checksum covers the question's
    // words best, but the asker has it already and asks for the other one.
    let text = "# Responses\n\nEvery successful response to a read must carry a \
'Checksum' header with the current version of the file, computed over its bytes as \
stored, so that a client can tell whether its copy is current before it asks again.\n\n\
Every successful read must also carry a 'Cache-Age: 0' header, so that no proxy on \
the way keeps a copy of the response and hands it out after the file has changed.\n\n\
Writes may carry an 'If-Version' header.\n";
    let c = collection("responses.md", text);
    let a = answer(
        &c,
        "Besides the checksum, which header must every successful response to a read carry?",
    );
    assert!(a.text.contains("Cache-Age"), "{}", a.text);
    assert!(!a.text.contains("'Checksum' header"), "{}", a.text);
}

#[test]
fn a_short_paragraph_ending_with_a_colon_brings_what_it_introduces() {
    // The question's words are in the paragraph's first sentence; the numbers it asks
    // for are in the lines its closing "Here are the timings:" introduces.
    let text = "# News\n\nThe office moved to the harbour building in spring. \
Visitors park behind the ferry terminal.\n\n\
The parser of the new version reads files much faster than before. \
Here are the timings:\n\n\
4.20s old version  \n0.75s new version\n\n\
The installer now asks for a folder. The manual has a chapter on backups.\n";
    let c = collection("news.md", text);
    let a = answer(&c, "Does the parser of the new version read files faster?");
    assert!(a.text.contains("0.75s new version"), "{}", a.text);
}

#[test]
fn a_question_for_a_sum_of_money_is_declined_when_no_line_gives_one() {
    // The notice gives hours, places and a postal code, but no price: the number a
    // sentence holds is no sum of money.
    let text = "# Coaching services notice\n\nThe contractor will provide coaching services \
for 120 hours at the medical centre.\n\nContracting office postal code: 89086.\n\n\
The coaching contract runs for one base year and one option year.\n";
    let c = collection("notice.md", text);
    let a = answer(
        &c,
        "What is the estimated dollar value of the coaching contract?",
    );
    assert!(a.declined, "{}", a.text);
    // A price in a column headed by its noun is a sum, with no currency sign.
    let text =
        "# Fruit prices\n\n| fruit | price |\n|---|---|\n| apple | 2.05 |\n| pear | 1.37 |\n";
    let c = collection("fruit.md", text);
    let a = answer(&c, "What is the price of a pear?");
    assert!(!a.declined && a.text.contains("1.37"), "{}", a.text);
    let text = "# Membership\n\nThe yearly membership fee is $40 for adults.\n\n\
Members meet on 12 occasions a year.\n";
    let c = collection("club.md", text);
    let a = answer(&c, "What is the yearly fee for adult members?");
    assert!(a.text.contains("$40"), "{}", a.text);
}

#[test]
fn a_description_is_answered_from_the_section_its_best_sentence_stands_in() {
    // The question shares the heading's word ("volunteers") and the section's first
    // sentence; what volunteers agree to is the list after the second paragraph,
    // which shares no word with the question.
    let text = "# Harbour museum\n\nThe museum opened in 1931 in the old customs house.\n\n\
## Opening hours\n\nThe museum is open every day except Monday.\n\n\
## Volunteers\n\nThe volunteers programme supports people who want to guide visitors.\n\n\
On joining, each helper agrees to the following:\n\n\
- lead two tours a month\n- keep the log book up to date\n- attend the spring training day\n\n\
## Shop\n\nThe shop sells maps and postcards.\n";
    let c = collection("museum.md", text);
    let a = answer(
        &c,
        "What do people commit to when they join the volunteers programme?",
    );
    assert!(
        a.text.contains("keep the log book up to date"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("postcards"), "{}", a.text);
    // "What is X?" asks for a definition: the sentence that gives it.
    let a = answer(&c, "What is the volunteers programme of the museum?");
    assert!(
        a.text.contains("supports people who want to guide"),
        "{}",
        a.text
    );
    assert!(!a.text.contains("log book"), "{}", a.text);
}

/// A schedule (DOCX) whose second row holds a form's box: a `w:tbl` nested in a
/// `w:tc` (ECMA-376 Part 1, 17.4.66), which the chunk keeps as a table inside the cell.
fn schedule_with_nested_table() -> Vec<u8> {
    let p = |t: &str| format!("<w:p><w:r><w:t>{t}</w:t></w:r></w:p>");
    let tc = |inner: &str| format!("<w:tc>{inner}</w:tc>");
    let tr = |cells: &[String]| format!("<w:tr>{}</w:tr>", cells.concat());
    let mut rows = vec![tr(&[tc(&p("Week")), tc(&p("Topic"))])];
    for (week, topic) in [
        (1, "Fractions"),
        (2, "Decimals"),
        (3, "Ratios"),
        (4, "Percentages"),
        (6, "Graphs"),
        (7, "Review"),
    ] {
        let cell = if week == 2 {
            let inner = [
                tr(&[tc(&p("Item")), tc(&p("Value"))]),
                tr(&[tc(&p("Room")), tc(&p("B12"))]),
                tr(&[tc(&p("Teacher")), tc(&p("Ms Lee"))]),
            ];
            let inner = format!("<w:tbl>{}</w:tbl>", inner.concat());
            tc(&format!("{}{inner}{}", p(topic), p("")))
        } else {
            tc(&p(topic))
        };
        rows.push(tr(&[tc(&p(&format!("Week {week}"))), cell]));
    }
    let body = format!(
        "<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>Autumn maths schedule</w:t></w:r></w:p>\
<w:tbl>{}</w:tbl>",
        rows.concat()
    );
    common::docx_with(&body, &[], &[])
}

#[test]
fn a_table_nested_in_a_cell_does_not_end_its_table() {
    let mut c = docrag::query::Collection::new();
    common::add_doc(&mut c, "schedule.docx", &schedule_with_nested_table(), 512);
    // The rows after the nested table are rows of the outer table.
    let a = answer(
        &c,
        "Which topic does the autumn maths schedule give for Week 4?",
    );
    assert!(a.text.contains("Percentages"), "{}", a.text);
    // Week 5 is skipped between Week 4 and Week 6: the row is not there.
    let a = answer(
        &c,
        "Which topic does the autumn maths schedule give for Week 5?",
    );
    assert!(a.declined, "{}", a.text);
}

#[test]
fn a_price_question_naming_a_section_is_not_answered_with_a_section_that_gives_none() {
    // The heading matches the question's words, but no sentence under it gives a sum
    // of money: the section is the topic asked about, not the answer.
    let text = "# Coast guide\n\nThe coast has many walks.\n\n## Island boat tour\n\n\
The island boat tour visits the crater lake and the old lighthouse. Guides point out \
the 40 species of nesting birds on the cliffs. The boat returns before sunset.\n\n\
## Harbour\n\nThe harbour has two piers and a fish market.\n";
    let c = collection("coast.md", text);
    let a = answer(&c, "How much does the island boat tour cost per person?");
    assert!(a.declined, "{} ({})", a.text, a.kind);
    // Asked what the section says, the same section answers.
    let a = answer(
        &c,
        "What does the coast guide say about the island boat tour?",
    );
    assert_eq!(a.kind, "section", "{}", a.text);
}

/// Bylaws of the kind whose sentences run to a hundred words and cite their own
/// sections by number.
const BYLAWS: &str = "# Bylaws of the Rowing Club\n\n## Meetings\n\n\
Whenever members are required to act at a meeting, a notice of the meeting in writing (as defined in Section 4.2 of these bylaws) shall be given which shall state the place, date and hour of the meeting and the business to be done. \
Except where the law provides otherwise, the notice of any meeting of members shall be given not less than 14 nor more than 40 days before the meeting to each member entitled to vote.\n\n\
## Proxies\n\n\
Each member entitled to vote at a meeting of members may authorize another member to act for that member by a proxy in writing (as defined in Section 4.2 of these bylaws) or by an electronic message filed with the secretary before the meeting opens, but no such proxy shall be voted after eleven months from its date, unless the proxy provides for a longer period.\n";

#[test]
fn the_number_of_a_cross_reference_is_no_quantity() {
    // The first sentence restates the question and cites "Section 4.2"; the
    // second gives the quantity asked for.
    let c = collection("bylaws.md", BYLAWS);
    let a = answer(
        &c,
        "How far in advance must notice of a members' meeting be given under the bylaws?",
    );
    assert!(a.text.contains("14 nor more than 40 days"), "{}", a.text);
}

#[test]
fn a_long_sentence_is_cut_to_the_clause_that_gives_the_asked_number() {
    // The clauses that name the proxy restate the question; the one with the
    // period of time answers it.
    let c = collection("bylaws.md", BYLAWS);
    let a = answer(
        &c,
        "For how long can a member's proxy be used under the bylaws?",
    );
    assert!(!a.declined, "{}", a.text);
    assert!(a.text.contains("eleven months"), "{}", a.text);
}

#[test]
fn a_heading_numbered_once_in_its_document_is_named_by_its_number() {
    // The itinerary's overview line names day 4 with the place the question says;
    // the day's own heading does not. Another document of the collection numbers a
    // heading 4 too, which says nothing about which day of the itinerary is asked.
    let trip = "# Lake tour\n\nOverview of the days:\n\nDay 3: Harbour // Old town\n\nDay 4: Lakeside // Swan Island\n\n\
## Day 3: HARBOUR\n\nWe walk the old town and its market halls in the morning, then take lunch by the harbour wall.\n\n\
## Day 4: LAKESIDE\n\nA boat takes us across to Swan Island, a nature reserve two kilometres offshore. \
The crossing lasts twenty minutes in calm weather. On the island a ranger leads a walk to the heron colony.\n";
    let licence = "# Licence\n\n## 3. Grant\n\nThe licensor grants a licence to copy the work.\n\n\
## 4. Conditions\n\nCopies must keep this notice on every page.\n";
    let mut c = docrag::query::Collection::new();
    common::add_doc(&mut c, "lake-tour.md", trip.as_bytes(), 512);
    common::add_doc(&mut c, "licence.md", licence.as_bytes(), 512);
    let a = answer(&c, "What does the lake tour plan for day 4 at Swan Island?");
    assert!(a.text.contains("heron colony"), "{}", a.text);
}

#[test]
fn a_heading_over_nothing_but_a_picture_heads_the_sections_after_it() {
    // A flat product page: the label heading and each tool's heading are all h2.
    let html = "<html><head><title>Trailmaker Studio</title></head><body>\
<h1>Welcome to Trailmaker Studio</h1><p>Plan routes on any device.</p>\
<h2>Sync your account</h2><p>Studio keeps a separate profile, so sign in once to bring your saved routes across.</p>\
<h2>Features and tools</h2><p><a href=\"https://example.org/v\"><img src=\"s.png\" alt=\"Screenshot\"></a></p>\
<h2>Route Planner</h2><p>Draw a route on the map and see its length and climb at once.</p>\
<h2>Elevation Profile</h2><p>Inspect every slope of a route before you set out.</p>\
<h2>Offline Maps</h2><p>Store map tiles on the device for trips without signal.</p>\
</body></html>";
    let c = collection("trailmaker.html", html);
    let a = answer(
        &c,
        "What features and tools does the Trailmaker Studio page present?",
    );
    for tool in ["Route Planner", "Elevation Profile", "Offline Maps"] {
        assert!(a.text.contains(tool), "{tool}: {}", a.text);
    }
    assert!(!a.text.contains("image"), "{}", a.text);
}

#[test]
fn a_heading_naming_what_is_asked_outranks_sentences_restating_the_subject() {
    // The question's other words name the notice's subject, which the opening and
    // a field of its form restate; what it asks for is named by one heading.
    let text = "# Harbour Dredging Services Notice\n\n## General information\n\n\
| Field | Value |\n| --- | --- |\n| Contracting office | Port Authority of Lakemouth, harbour dredging services office |\n| Response date | 12 May |\n\n\
## Overview\n\n\
The Port Authority of Lakemouth has a requirement for harbour dredging services at the north basin of Lakemouth harbour.\n\n\
The dredging services run from March to October.\n\n\
## 4. Qualifications of Key Personnel\n\n\
- A licensed dredge master with ten years of experience on inland waters.\n\
- A hydrographic surveyor certified under the national survey scheme.\n\n\
## 5. Place of Performance\n\nThe work is done at the north basin.\n";
    let c = collection("dredging-notice.md", text);
    let a = answer(
        &c,
        "What qualifications must the contractor have for the Lakemouth harbour dredging services?",
    );
    // The section comes first; the subject's sentence may follow, for what it adds.
    let qualified = a.text.find("dredge master");
    let subject = a.text.find("has a requirement");
    assert!(qualified.is_some(), "{}", a.text);
    assert!(subject.is_none_or(|s| qualified < Some(s)), "{}", a.text);
}

#[test]
fn a_two_word_asked_phrase_does_not_steer_to_the_heading_of_its_first_words() {
    // "which map generator settings": the heading "Map generator" holds the phrase's
    // modifier, not what is asked; the answer stands under another heading.
    let text = "# Island Builder 0.17 notes\n\n## Map generator\n\n\
Since 0.17 the map generator settings take their place in a preset file.\n\n\
## Terrain\n\n\
For 0.17, the water sliders give their place to scale and coverage.\n";
    let c = collection("island-builder.md", text);
    let a = answer(
        &c,
        "In Island Builder 0.17, which map generator settings take the place of the water sliders?",
    );
    assert!(a.text.contains("scale and coverage"), "{}", a.text);
}
