//! Past forms of English irregular verbs, mapped to the verb ("wrote", "written" →
//! "write"), so that a question and a sentence that use two forms of one verb share
//! a term ("Who wrote it?" over "It was written by …").
//!
//! The property this relies on: suffix stripping ([`super::words::stem`]) joins the
//! regular forms of a verb ("checked", "checks" → "check") but an irregular verb
//! changes its vowel, not its ending, and a question is most often asked in another
//! tense than the text states it (simple past asked of a passive, and back). Only
//! forms that are not also common nouns or adjectives are listed ("left", "found",
//! "saw", "rose", "lead", "felt" are not), so no other word is joined by mistake.

/// (past form, verb), sorted by form for a binary search.
const FORMS: &[(&str, &str)] = &[
    ("arisen", "arise"),
    ("arose", "arise"),
    ("ate", "eat"),
    ("began", "begin"),
    ("begun", "begin"),
    ("bought", "buy"),
    ("broke", "break"),
    ("broken", "break"),
    ("brought", "bring"),
    ("built", "build"),
    ("came", "come"),
    ("caught", "catch"),
    ("chose", "choose"),
    ("chosen", "choose"),
    ("drawn", "draw"),
    ("drew", "draw"),
    ("driven", "drive"),
    ("drove", "drive"),
    ("eaten", "eat"),
    ("fallen", "fall"),
    ("flew", "fly"),
    ("flown", "fly"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("fought", "fight"),
    ("froze", "freeze"),
    ("frozen", "freeze"),
    ("gave", "give"),
    ("given", "give"),
    ("gone", "go"),
    ("gotten", "get"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("heard", "hear"),
    ("held", "hold"),
    ("hid", "hide"),
    ("hidden", "hide"),
    ("kept", "keep"),
    ("knew", "know"),
    ("known", "know"),
    ("meant", "mean"),
    ("paid", "pay"),
    ("ran", "run"),
    ("ridden", "ride"),
    ("risen", "rise"),
    ("rode", "ride"),
    ("sang", "sing"),
    ("seen", "see"),
    ("sent", "send"),
    ("shaken", "shake"),
    ("shook", "shake"),
    ("shown", "show"),
    ("sold", "sell"),
    ("sought", "seek"),
    ("spent", "spend"),
    ("spoke", "speak"),
    ("spoken", "speak"),
    ("stole", "steal"),
    ("stolen", "steal"),
    ("stood", "stand"),
    ("sung", "sing"),
    ("taken", "take"),
    ("taught", "teach"),
    ("thought", "think"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("told", "tell"),
    ("took", "take"),
    ("understood", "understand"),
    ("went", "go"),
    ("withdrawn", "withdraw"),
    ("withdrew", "withdraw"),
    ("won", "win"),
    ("wore", "wear"),
    ("worn", "wear"),
    ("written", "write"),
    ("wrote", "write"),
];

/// The verb a lower-case irregular past form belongs to, if `word` is one.
pub fn verb(word: &str) -> Option<&'static str> {
    FORMS
        .binary_search_by(|(form, _)| (*form).cmp(word))
        .ok()
        .map(|i| FORMS[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_maps_past_forms() {
        assert!(FORMS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(verb("wrote"), Some("write"));
        assert_eq!(verb("written"), Some("write"));
        assert_eq!(verb("writes"), None);
        // A noun that is also a past form is left alone.
        assert_eq!(verb("left"), None);
    }
}
