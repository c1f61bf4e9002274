//! Question analysis with no model: the index terms, quoted phrases, and what the
//! question asks for (every row or item, a part of the document, a section, a page,
//! several documents). Word lists are English, the language of most questions to a
//! document tool; a question in another language keeps its terms and loses only these
//! hints.

use crate::Format;
use crate::retrieve::tokenize::tokenize;
use unicode_segmentation::UnicodeSegmentation;

/// What [`analyze`] found in a question.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// Distinct index terms ([`tokenize`]), numbers also in their plain form
    /// ("38.0" also as "38").
    pub terms: Vec<String>,
    /// The texts the question quotes ([`quote_spans`]), as written.
    pub quotes: Vec<String>,
    /// The quoted texts of two or more index terms, as index terms.
    pub phrases: Vec<Vec<String>>,
    /// "list", "all", "every", "each", "how many": completion should take every row
    /// of a table and every item of a list it hits.
    pub wants_all: bool,
    /// Names a page header, footer or running head.
    pub header_footer: bool,
    /// Names a footnote, endnote or note.
    pub notes: bool,
    /// Names a comment, remark or annotation.
    pub comments: bool,
    /// Names a change, insertion, deletion, move or revision (or who changed).
    pub revisions: bool,
    /// Names a table, row, column or cell.
    pub table: bool,
    /// Asks about a section or chapter as a whole.
    pub section: bool,
    /// Asks for a summary, an overview, a comparison or which documents: evidence
    /// from several places (documents) rather than the one best passage.
    pub broad: bool,
    /// Asks about documents or files as such ("which documents ..."): "each" and
    /// "all" then count documents, not rows.
    pub documents: bool,
    /// The parts of each question term that joins words with `.`, `_` or `-`
    /// ("report_2019.docx" -> "report", "2019", "docx"; [`name_terms`] without the
    /// term itself), at least two: a file name spelled in a question meets the
    /// document's file name and title by them.
    pub spelled: Vec<Vec<String>>,
    /// Languages the question names, as (ISO 639-3 code, the question's term):
    /// "Russian" -> ("rus", "russian"). See [`crate::query::language::named`].
    pub languages: Vec<(&'static str, String)>,
    /// A language is named as the documents' ("the Russian contract", "written in
    /// Hebrew"), not in passing ("which French phrases does the guide list"): the
    /// language's name is within [`LANGUAGE_WINDOW`] words before a word of
    /// [`DOCUMENT_NOUNS`], or right after "in" or "into". Only then does the language
    /// narrow the documents read.
    pub language_scope: bool,
    /// The scripts of the first named language when the question asks which
    /// documents hold text written in it ("contain Arabic text", "Hebrew letters")
    /// rather than which are written in it: `whatlang::Script` names; empty otherwise.
    /// The evidence is a passage in that script, whatever words it shares with the
    /// question.
    pub scripts: Vec<&'static str>,
    /// The formats the question names its documents by ("the RTF files", "Word
    /// documents"); empty when it names none.
    pub formats: Vec<Format>,
    /// The format's name as the question writes it ("RTF"), for answers.
    pub format_name: String,
}

/// File formats a question names its documents by: the words for each. A format's
/// name right before a word for documents ("the RTF files", "Word documents", "HTML
/// pages") names their format, which the file name's extension says
/// ([`crate::read::sniff::format_of_file_name`]).
const FORMATS: &[(&[&str], Format)] = &[
    (&["rtf"], Format::Rtf),
    (&["docx", "word", "ooxml"], Format::Docx),
    (&["html", "htm", "xhtml", "web"], Format::Html),
    (&["markdown", "md"], Format::Markdown),
    (&["txt", "plain", "text"], Format::Text),
    (&["pdf", "pdfs"], Format::Pdf),
];

/// The formats `question` names its documents by (see [`FORMATS`]), and the first
/// one's name as written.
fn formats(question: &str) -> (Vec<Format>, String) {
    let outside = unquoted(question);
    let written: Vec<&str> = outside.unicode_words().collect();
    let lower: Vec<String> = written.iter().map(|w| w.to_lowercase()).collect();
    let mut found: Vec<Format> = Vec::new();
    let mut name = String::new();
    for (i, w) in lower.iter().enumerate() {
        let noun = lower
            .get(i + 1)
            .is_some_and(|n| DOCUMENT_NOUNS.contains(&n.as_str()));
        if !noun || owned(&lower, i + 1) {
            continue;
        }
        if let Some((_, f)) = FORMATS
            .iter()
            .find(|(names, _)| names.contains(&w.as_str()))
        {
            found.push(*f);
            if name.is_empty() {
                name = written[i].to_string();
            }
        }
    }
    (found, name)
}

/// Whether the noun at `words[at]` (lowercased words) is the asker's own: "my docx
/// files", "your EPUB and HTML files" name the owner's things, not the collection's.
/// A possessive determiner opens the noun phrase; the phrase runs back to it over
/// up to three modifiers, and stops at a determiner that points into the collection.
fn owned(words: &[String], at: usize) -> bool {
    (1..=4)
        .map_while(|k| at.checked_sub(k).map(|j| words[j].as_str()))
        .take_while(|w| !matches!(*w, "the" | "which" | "these" | "those" | "all"))
        .any(|w| matches!(w, "my" | "our" | "your"))
}

/// Words that pick documents out of the collection when they open the noun phrase
/// of "documents" or "files" ("which files", "how many documents", "all the files").
const PICKING: &[&str] = &[
    "which", "what", "how", "many", "any", "all", "each", "every", "the", "these", "those", "both",
    "some", "list", "name",
];

/// Whether `question` asks about documents or files as such: the plural noun with
/// a word that picks some out of the collection within the three words before it
/// ([`PICKING`]). "My files differ" tells of the asker's own ([`owned`]); "for Word
/// and Excel files" names a kind of file in passing.
fn asks_for_documents(question: &str) -> bool {
    let words: Vec<String> = unquoted(question)
        .unicode_words()
        .map(str::to_lowercase)
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "documents" | "files")
            && !owned(&words, i)
            && words[i.saturating_sub(3)..i]
                .iter()
                .any(|p| PICKING.contains(&p.as_str()))
    })
}

const ALL_WORDS: &[&str] = &["list", "all", "every", "each", "enumerate"];
/// Words that name a page header or footer.
pub const HEADER_WORDS: &[&str] = &[
    "header",
    "headers",
    "footer",
    "footers",
    "running",
    "watermark",
];
/// Words that name a footnote or endnote.
pub const NOTE_WORDS: &[&str] = &[
    "footnote",
    "footnotes",
    "endnote",
    "endnotes",
    "note",
    "notes",
];
/// Words that name a comment.
pub const COMMENT_WORDS: &[&str] = &[
    "comment",
    "comments",
    "commented",
    "remark",
    "annotation",
    "annotations",
    "reviewer",
];
/// Words that name a tracked change.
pub const REVISION_WORDS: &[&str] = &[
    "change",
    "changes",
    "changed",
    "insert",
    "inserted",
    "insertion",
    "insertions",
    "delete",
    "deleted",
    "deletion",
    "deletions",
    "move",
    "moved",
    "revision",
    "revisions",
    "tracked",
    "edit",
    "edited",
    "added",
    "removed",
];
const TABLE_WORDS: &[&str] = &[
    "table", "tables", "row", "rows", "column", "columns", "cell",
];
const SECTION_WORDS: &[&str] = &["section", "chapter", "part"];
const BROAD_WORDS: &[&str] = &[
    "summarize",
    "summarise",
    "summary",
    "overview",
    "compare",
    "comparison",
    "documents",
];

/// Nouns "main" asks for a gist with ("the main points", "its main findings"); before
/// other nouns it only picks one thing out ("the main library", "the main menu").
const GIST_NOUNS: &[&str] = &[
    "point",
    "points",
    "idea",
    "ideas",
    "topic",
    "topics",
    "theme",
    "themes",
    "finding",
    "findings",
    "conclusion",
    "conclusions",
    "argument",
    "arguments",
    "takeaway",
    "takeaways",
    "message",
    "messages",
    "subject",
    "subjects",
    "change",
    "changes",
];

/// `s` as a run of lower-case words (letters and digits of any script), each word
/// padded by one space, so `contains` on two folded strings matches whole words.
pub fn fold(s: &str) -> String {
    let mut out = String::from(" ");
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Phrases that ask what a text says on a topic as a whole, folded (word-padded).
const ABOUT_ASKS: &[&str] = &[
    " say about ",
    " says about ",
    " said about ",
    " tell about ",
    " tells about ",
    " say on ",
    " cover ",
    " covers ",
    " describe ",
    " describes ",
    " discuss ",
    " discusses ",
    " summarize ",
    " summarise ",
    " overview ",
    " explain ",
    " explains ",
];

/// Whether the question asks what the documents say on a topic ("what does the
/// article say about Rust", "what does ... cover"): the answer is the part written on
/// it, when a heading names the topic, not one sentence.
pub fn asks_about(question: &str) -> bool {
    let q = fold(question);
    ABOUT_ASKS.iter().any(|p| q.contains(p))
}

/// English function words and question words: they ask, and name nothing asked
/// about (the answerer never makes them terms; a heading is not named by them).
pub const STOP: &[&str] = &[
    "a",
    "an",
    "and",
    "are",
    "as",
    "at",
    "be",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "for",
    "from",
    "had",
    "has",
    "have",
    "how",
    "i",
    "in",
    "is",
    "it",
    "its",
    "me",
    "of",
    "on",
    "or",
    "so",
    "that",
    "the",
    "their",
    "there",
    "these",
    "this",
    "those",
    "to",
    "was",
    "were",
    "what",
    "when",
    "where",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "with",
    "you",
    "your",
    "tell",
    "give",
    "s",
    "any",
    "about",
    "into",
    "they",
    "them",
    "he",
    "she",
    "his",
    "her",
    "we",
    "our",
    "my",
    "one",
    "each",
    "all",
    "every",
    "also",
    "according",
    "say",
    "says",
    "said",
    "show",
    "shows",
    "shown",
    "mention",
    "mentions",
    "mentioned",
    "list",
    "lists",
    "listed",
    "name",
    "named",
    "names",
    "many",
    "much",
    "does",
    "doing",
    "please",
    "both",
    "other",
    "than",
    "then",
    "whether",
    "if",
    "not",
    "no",
    "yes",
    "only",
    "just",
    "some",
    "such",
    "given",
    "gives",
    "state",
    "states",
    "stated",
    "find",
    "used",
    "use",
    "uses",
    "document",
    "documents",
    "file",
    "files",
    "text",
    "write",
    "wrote",
    "written",
    "report",
    "reports",
    "reported",
    "appear",
    "appears",
    "printed",
    "print",
    "contain",
    "contains",
    "containing",
    "include",
    "includes",
    "included",
    "describe",
    "describes",
    "described",
    "explain",
    "explains",
    "mean",
    "means",
    "value",
    "values",
    "number",
    "numbers",
    "what's",
    "who's",
    "left",
    "leave",
    "put",
    "made",
    "make",
    "makes",
    "kind",
    "kinds",
    "part",
];

/// The plain form of a number term: "38.0000" -> "38", "0.50" -> "0.5"; None when
/// `t` is not a decimal number with a fraction to trim.
pub fn plain_number(t: &str) -> Option<String> {
    let (int, frac) = t.split_once('.')?;
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let f = frac.trim_end_matches('0');
    let plain = if f.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{f}")
    };
    (plain != t).then_some(plain)
}

/// Index terms of `text` as the assembler compares them: [`tokenize`], possessives
/// without their `'s` ("tika's" -> "tika"), plus the plain form of each decimal
/// number.
pub fn terms_of(text: &str) -> Vec<String> {
    let mut out = tokenize(text);
    for t in &mut out {
        for s in ["'s", "’s"] {
            if t.len() > s.len() + 1 && t.ends_with(s) {
                t.truncate(t.len() - s.len());
            }
        }
    }
    let extra: Vec<String> = out
        .iter()
        .filter_map(|t| plain_number(t).or_else(|| singular(t)))
        .collect();
    out.extend(extra);
    out.extend(text.chars().filter(|&c| is_symbol(c)).map(String::from));
    out
}

/// A symbol a question may ask about by itself ("×", "≥", "€", "→", "☑"): a
/// character outside ASCII that is neither a letter, a digit, a space nor
/// punctuation (quotes, dashes, ellipsis, CJK and full-width punctuation). Word
/// segmentation (UAX #29) drops these, so they are matched as terms of their own.
pub fn is_symbol(c: char) -> bool {
    !c.is_ascii()
        && !c.is_alphanumeric()
        && !c.is_whitespace()
        && !matches!(c as u32,
            0x00A0..=0x00A9 | 0x00AB | 0x00AD | 0x00AF | 0x00B4 | 0x00B6..=0x00B8 | 0x00BB | 0x00BF
            | 0x2000..=0x206F   // general punctuation
            | 0x3000..=0x303F   // CJK symbols and punctuation
            | 0xFE30..=0xFE4F   // CJK compatibility forms
            | 0xFF00..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65
            | 0xFE00..=0xFE0F   // variation selectors
            | 0x0300..=0x036F   // combining marks
            | 0xFEFF)
}

/// The singular of a plain English plural ("pears" -> "pear", "codes" -> "code");
/// None for short words, "-ss" words and anything else. The cheapest stemming that
/// lets "pears" meet "pear" without a language model of each language.
pub fn singular(t: &str) -> Option<String> {
    let stem = t.strip_suffix('s')?;
    (stem.chars().count() >= 3 && !stem.ends_with('s') && stem.chars().all(char::is_alphabetic))
        .then(|| stem.to_string())
}

/// The words of `question` that BM25 should rank by: its index terms
/// ([`tokenize`]) less the [`STOP`] words, joined by spaces; the question itself
/// when every word is a stop word. Why: BM25's IDF never reaches zero, so in a
/// collection of long chunks the many "the", "of", "what" of a question, each
/// matched dozens of times by every long chunk, outweigh the one rare word that
/// names what is asked (a place, a clause number) and push the chunk holding it out
/// of the candidates. Lucene's and Elasticsearch's English analyzers drop the same
/// words for the same reason.
pub fn lexical_query(question: &str) -> String {
    let words: Vec<String> = tokenize(question)
        .into_iter()
        .filter(|w| !STOP.contains(&w.as_str()))
        .collect();
    if words.is_empty() {
        question.to_string()
    } else {
        words.join(" ")
    }
}

/// Terms of a name (a title, a file name): [`terms_of`] of the name as written and
/// once more split at `_`, `-`, `.` and lower-to-upper case changes, so
/// "cellWithComment" and "test comment" both meet "openxmlsdk__testComment".
pub fn name_terms(name: &str) -> Vec<String> {
    let (punct, split) = name_words(name);
    let mut out = terms_of(name);
    out.extend(terms_of(&punct));
    out.extend(terms_of(&split));
    crate::order::sort(&mut out);
    out.dedup();
    out
}

/// The words a name joins, as two spellings: split at `_`, `-` and `.` only, and
/// split there and at lower-to-upper case changes ("zh-CH-chineseCountingThousand"
/// -> "zh CH chineseCountingThousand", "zh CH chinese Counting Thousand"). File
/// names join words so (`snake_case`, `kebab-case`, `camelCase`); each spelling is
/// kept because an acronym ("HTMLReader") splits badly at case changes.
pub fn name_words(name: &str) -> (String, String) {
    let punct: String = name
        .chars()
        .map(|c| if matches!(c, '_' | '-' | '.') { ' ' } else { c })
        .collect();
    let mut split = String::with_capacity(name.len() + 8);
    let mut prev_lower = false;
    for ch in name.chars() {
        if matches!(ch, '_' | '-' | '.') {
            split.push(' ');
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower {
            split.push(' ');
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        split.push(ch);
    }
    (punct, split)
}

/// Words a language's name may stand before when it names the documents' language.
pub const DOCUMENT_NOUNS: &[&str] = &[
    "document",
    "documents",
    "file",
    "files",
    "page",
    "pages",
    "sheet",
    "sheets",
    "text",
    "texts",
    "contract",
    "contracts",
    "report",
    "reports",
    "letter",
    "letters",
    "manual",
    "manuals",
    "guide",
    "guides",
    "poem",
    "poems",
    "article",
    "articles",
    "chapter",
    "chapters",
    "tutorial",
    "tutorials",
    "book",
    "books",
    "version",
    "versions",
    "translation",
    "translations",
    "paper",
    "papers",
    "story",
    "stories",
    "site",
    "leaflet",
    "brochure",
    "memo",
    "form",
    "forms",
    "email",
    "message",
    "spreadsheet",
    "original",
    "edition",
    "source",
    "sources",
];
/// Words after a language's name searched for a word of [`DOCUMENT_NOUNS`].
pub const LANGUAGE_WINDOW: usize = 3;

/// Languages written in Cyrillic script (ISO 639-3), whose documents' acronyms an
/// English question spells in Latin letters.
const CYRILLIC: &[&str] = &["rus", "ukr", "bel", "bul", "srp", "mkd"];

/// The Cyrillic spelling of a lower-case Latin word, by the reverse of the common
/// Russian romanization (BGN/PCGN: "zh" -> "ж", "kh" -> "х", "ts" -> "ц", "ch" ->
/// "ч", "sh" -> "ш", "yu" -> "ю", "ya" -> "я", then letter by letter).
pub fn to_cyrillic(latin: &str) -> String {
    const PAIRS: &[(&str, char)] = &[
        ("zh", 'ж'),
        ("kh", 'х'),
        ("ts", 'ц'),
        ("ch", 'ч'),
        ("sh", 'ш'),
        ("yu", 'ю'),
        ("ya", 'я'),
    ];
    const ONE: &[(char, char)] = &[
        ('a', 'а'),
        ('b', 'б'),
        ('v', 'в'),
        ('g', 'г'),
        ('d', 'д'),
        ('e', 'е'),
        ('z', 'з'),
        ('i', 'и'),
        ('y', 'ы'),
        ('k', 'к'),
        ('l', 'л'),
        ('m', 'м'),
        ('n', 'н'),
        ('o', 'о'),
        ('p', 'п'),
        ('r', 'р'),
        ('s', 'с'),
        ('t', 'т'),
        ('u', 'у'),
        ('f', 'ф'),
        ('c', 'ц'),
        ('h', 'х'),
        ('j', 'й'),
        ('w', 'в'),
        ('x', 'х'),
        ('q', 'к'),
    ];
    let mut out = String::with_capacity(latin.len() * 2);
    let mut rest = latin;
    'outer: while !rest.is_empty() {
        for &(pair, cy) in PAIRS {
            if let Some(r) = rest.strip_prefix(pair) {
                out.push(cy);
                rest = r;
                continue 'outer;
            }
        }
        let mut chars = rest.chars();
        let c = chars.next().unwrap_or(' ');
        out.push(ONE.iter().find(|x| x.0 == c).map_or(c, |x| x.1));
        rest = chars.as_str();
    }
    out
}

/// The quoted spans of `question` as char ranges of the text between the quotes:
/// an opening quote (' " ‘ “ « „) follows a space, an opening bracket or the start;
/// the closing one (the same, or ’ ” » “ for the typographic pairs) is followed by a
/// non-letter, so the apostrophe of "pandoc's" opens nothing.
pub fn quote_ranges(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let opens = matches!(
            c,
            '\'' | '"' | '\u{2018}' | '\u{201C}' | '\u{AB}' | '\u{201E}'
        ) && (i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(');
        if opens {
            let close = |x: char| match c {
                '\u{2018}' => x == '\u{2019}',
                '\u{201C}' => x == '\u{201D}',
                '\u{AB}' => x == '\u{BB}',
                '\u{201E}' => x == '\u{201C}',
                _ => x == c,
            };
            if let Some(j) = (i + 1..chars.len())
                .find(|&j| close(chars[j]) && chars.get(j + 1).is_none_or(|n| !n.is_alphanumeric()))
            {
                out.push((i + 1, j));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// `question` without its quoted spans ('Headers', "Tables"): a quoted word names
/// a thing in the document, not what is asked.
pub fn unquoted(question: &str) -> String {
    let chars: Vec<char> = question.chars().collect();
    let mut out = String::with_capacity(question.len());
    let mut at = 0;
    for (a, b) in quote_ranges(&chars) {
        out.extend(&chars[at..a - 1]);
        out.push(' ');
        at = b + 1;
    }
    out.extend(&chars[at.min(chars.len())..]);
    out
}

/// The texts the question quotes ('Headers', "Tables"), in order.
pub fn quote_spans(question: &str) -> Vec<String> {
    let chars: Vec<char> = question.chars().collect();
    quote_ranges(&chars)
        .into_iter()
        .map(|(a, b)| chars[a..b].iter().collect())
        .collect()
}

/// Words after a language's name that make it a script's: "Arabic text", "Hebrew
/// letters".
pub const SCRIPT_NOUNS: &[&str] = &[
    "text",
    "texts",
    "script",
    "characters",
    "letters",
    "words",
    "names",
    "passages",
    "writing",
];

/// Words before a language's name that ask which documents hold some of it
/// ("contain Arabic"), not which are written in it.
pub const CONTAIN_WORDS: &[&str] = &[
    "contain",
    "contains",
    "containing",
    "include",
    "includes",
    "including",
    "with",
    "have",
    "has",
    "hold",
    "holds",
    "use",
    "uses",
    "using",
];

/// The scripts a language is written in (`whatlang::Script` names): the script of
/// its own name, and for Japanese the kana its text is told by (its name is written
/// in Han, which Chinese shares).
fn scripts_of(code: &str) -> Vec<&'static str> {
    let Some(lang) = whatlang::Lang::from_code(code) else {
        return Vec::new();
    };
    if lang == whatlang::Lang::Jpn {
        return vec!["Hiragana", "Katakana"];
    }
    whatlang::detect_script(lang.name())
        .map(|s| match s {
            whatlang::Script::Latin => Vec::new(),
            other => vec![script_name(other)],
        })
        .unwrap_or_default()
}

/// `whatlang::Script::name` with a static lifetime (the names are literals).
fn script_name(s: whatlang::Script) -> &'static str {
    whatlang::Script::all()
        .iter()
        .find(|x| **x == s)
        .map_or("", |x| x.name())
}

/// The scripts asked for when the question asks which documents hold text in the
/// first of `languages` ([`Analysis::scripts`]): the language's name is followed by a
/// word of [`SCRIPT_NOUNS`], or follows a word of [`CONTAIN_WORDS`] within three words
/// (and not right after "in").
fn asked_scripts(question: &str, languages: &[(&'static str, String)]) -> Vec<&'static str> {
    let Some((code, name)) = languages.first() else {
        return Vec::new();
    };
    let lower: Vec<String> = question.unicode_words().map(str::to_lowercase).collect();
    let at = lower.iter().position(|w| w == name).unwrap_or(0);
    let before = &lower[at.saturating_sub(3)..at];
    let after = lower.get(at + 1).map_or("", String::as_str);
    let contains = before.iter().any(|w| CONTAIN_WORDS.contains(&w.as_str()))
        && !before
            .last()
            .is_some_and(|w| matches!(w.as_str(), "in" | "into"));
    if SCRIPT_NOUNS.contains(&after) || contains {
        scripts_of(code)
    } else {
        Vec::new()
    }
}

/// Analyzes `question` (see the module docs).
pub fn analyze(question: &str) -> Analysis {
    let mut terms = terms_of(question);
    let words: Vec<String> = terms.clone();
    crate::order::sort(&mut terms);
    terms.dedup();
    // What is asked is said outside quotes: a quoted 'Headers' or 'What Word
    // documents does it support?' names a thing in a document.
    let outer = terms_of(&unquoted(question));
    let has = |list: &[&str]| outer.iter().any(|w| list.contains(&w.as_str()));
    let lower = question.to_lowercase();
    let quotes = quote_spans(question);
    let phrases: Vec<Vec<String>> = quotes
        .iter()
        .map(|q| tokenize(q))
        .filter(|p| p.len() > 1)
        .collect();
    let how_many = lower.contains("how many");
    let (formats, format_name) = formats(question);
    let languages = crate::query::language::named(&terms);
    let language_scope = languages.iter().any(|(_, name)| {
        words.iter().enumerate().any(|(i, w)| {
            w == name
                && (i > 0 && matches!(words[i - 1].as_str(), "in" | "into")
                    || words[i + 1..]
                        .iter()
                        .take(LANGUAGE_WINDOW)
                        .any(|n| DOCUMENT_NOUNS.contains(&n.as_str())))
        })
    });
    if languages.iter().any(|(code, _)| CYRILLIC.contains(code)) {
        // Form codes and abbreviations of a Cyrillic-script document ("ГОСТ",
        // "ОКПД") are spelled in Latin letters in an English question ("GOST").
        for w in question.split(|c: char| !c.is_ascii_alphabetic()) {
            let acronym = (2..=5).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_uppercase());
            if acronym {
                terms.push(to_cyrillic(&w.to_ascii_lowercase()));
            }
        }
        crate::order::sort(&mut terms);
        terms.dedup();
    }
    let scripts = asked_scripts(question, &languages);
    Analysis {
        wants_all: has(ALL_WORDS) || how_many,
        header_footer: has(HEADER_WORDS) || lower.contains("top of each page"),
        notes: has(NOTE_WORDS),
        comments: has(COMMENT_WORDS),
        revisions: has(REVISION_WORDS),
        table: has(TABLE_WORDS),
        section: has(SECTION_WORDS),
        broad: has(BROAD_WORDS)
            || outer.windows(2).any(|w| {
                matches!(w[0].as_str(), "main" | "key") && GIST_NOUNS.contains(&w[1].as_str())
            }),
        documents: asks_for_documents(question),
        spelled: terms
            .iter()
            .filter(|t| t.contains(['.', '_', '-']))
            .map(|t| {
                name_terms(t)
                    .into_iter()
                    .filter(|p| p != t)
                    .collect::<Vec<_>>()
            })
            .filter(|p| p.len() >= 2)
            .collect(),
        languages,
        language_scope,
        scripts,
        formats,
        format_name,
        terms,
        phrases,
        quotes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_hints() {
        assert_eq!(plain_number("38.0000").as_deref(), Some("38"));
        assert_eq!(plain_number("0.50").as_deref(), Some("0.5"));
        assert_eq!(plain_number("12"), None);
        let a = analyze("List every footnote in the \"Getting Started\" guide");
        assert!(a.wants_all && a.notes && !a.comments);
        assert_eq!(
            a.phrases,
            vec![vec!["getting".to_string(), "started".to_string()]]
        );
        assert!(terms_of("the sign × and ≥").contains(&"×".to_string()));
        assert!(terms_of("a ≥ b").contains(&"≥".to_string()));
        assert!(
            !terms_of("“quoted” — text…")
                .iter()
                .any(|t| !t.chars().all(char::is_alphanumeric))
        );
        assert_eq!(to_cyrillic("ks"), "кс");
        assert_eq!(to_cyrillic("gost"), "гост");
        let r = analyze("Which GOST standard does the Russian manual cite?");
        assert!(r.terms.contains(&"гост".to_string()) && r.terms.contains(&"gost".to_string()));
        assert!(
            !analyze("Which GOST standard applies?")
                .terms
                .contains(&"гост".to_string())
        );
        assert!(analyze("What does the Russian annual report say?").language_scope);
        assert!(analyze("Which files are written in Hebrew?").language_scope);
        let passing = analyze("Which French phrases does the style guide list?");
        assert!(!passing.language_scope && passing.languages.len() == 1);
        let b = analyze("Who deleted the word in the page header?");
        assert!(b.revisions && b.header_footer && !b.wants_all);
        assert!(analyze("What are the main points of the report?").broad);
        assert!(!analyze("Why is it not in the main library?").broad);
    }

    #[test]
    fn a_format_names_the_collection_documents_unless_they_are_the_askers() {
        assert_eq!(
            formats("Which RTF files have comments?").0,
            vec![Format::Rtf]
        );
        assert_eq!(formats("the EPUB and docx files").0, vec![Format::Docx]);
        assert!(
            formats("My EPUB and docx files differ on every build")
                .0
                .is_empty()
        );
        assert!(formats("How do I open your Word documents?").0.is_empty());
        assert!(!analyze("Our exported files change size each night; why?").documents);
        assert!(analyze("Which files mention the harbour?").documents);
        assert!(analyze("How many documents mention the harbour?").documents);
        assert!(!analyze("How do I read it for Word, Writer and Excel files?").documents);
        assert!(analyze("Do my colleagues' files, or the documents here, say so?").documents);
    }
}
