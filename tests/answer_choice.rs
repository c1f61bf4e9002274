//! Which sentence the extractive answerer quotes, and when it declines, over documents
//! each test writes itself: the sentence holding the date a "when" question asks for,
//! a picture placeholder never quoted, and an English question over a document in
//! another script declined rather than answered with the title.

use docrag::query::{Collection, QueryOptions, Replies, ask};

fn collection(name: &str, text: &str) -> Collection {
    let o = docrag::ConvertOptions::new()
        .with_file_name(name)
        .with_max_tokens(512)
        .expect("valid max_tokens");
    let conv = docrag::convert(text.as_bytes(), &o).expect("converts");
    let id = conv.doc_id.clone();
    let mut c = Collection::new();
    c.add(conv).expect("adds");
    c.set_file_name(&id, name);
    c
}

fn answer(c: &Collection, q: &str) -> docrag::query::answer::Answer {
    ask(c, q, &[], &Replies::default(), &QueryOptions::new())
        .unwrap()
        .answer
}

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
