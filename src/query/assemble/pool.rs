//! The candidate pool: the chunks worth reading for one question, cut into units,
//! each unit scored where the evidence lives.
//!
//! Candidates are the retriever's best chunks (BM25, cosine or both, exactly as
//! top-k retrieval) plus, in the documents those hits point to, the parts a question
//! names (headers and footers, notes, chunks with comments or tracked changes), which
//! share no words with a question about them. A unit's score is BM25 over the unit's
//! own terms (collection-wide IDF, unit length against [`AVG_UNIT_TERMS`]) plus the
//! question terms its chunk's information line holds (title, section path), plus a
//! prior from its chunk's rank in the retrieval (so cosine hits count where no word
//! is shared), plus a boost where the unit is of the kind the question names.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::analyze::{Analysis, name_terms, terms_of};
use super::units::{ChunkUnits, UnitKind, split};
use crate::query::collection::Collection;
use crate::query::profile::{Profile, script_words_in};
use crate::query::retriever::Retriever;
use crate::tokens;

/// Chunks the first search returns, whatever the budget: enough that the evidence of
/// a pointed question is among them, few enough that reading them stays cheap and
/// does not grow with the collection.
pub const CANDIDATE_CHUNKS: usize = 40;
/// Hits after a document's best that add to its retrieval mass (a quarter each).
pub const MASS_HITS: usize = 3;
/// Documents (by the first search's evidence) whose named parts join the pool.
pub const STRUCTURAL_DOCS: usize = 8;
/// In a broad question, a document's opening weighs at least this share of the best
/// document's best unit ([`LEAD`]): the question is about every document in scope.
const BROAD_FLOOR: f64 = 0.5;
/// Most structural candidates (header, footer, note, comment, revision chunks) added
/// per document.
pub const STRUCTURAL_PER_DOC: usize = 16;
/// Most documents whose record holds the structure a question about documents as
/// such names ("which documents have comments") that join the pool.
pub const HOLDER_DOCS: usize = 12;
/// Structural candidates per such document: enough to show what it holds, few enough
/// that a dozen documents fit one budget.
pub const HOLDER_CHUNKS: usize = 2;
/// Chunks of a section the question quotes by its heading that join the pool.
pub const QUOTED_SECTION_CHUNKS: usize = 3;
/// The opening of a document a broad question reads, in tokens...
pub const LEAD_TOKENS: usize = 600;
/// ...and what its first unit gains, as a share of its document's best unit: the
/// opening ranks with the best match, what follows it less the further in.
const LEAD: f64 = 0.9;
/// The unit length BM25 normalizes against, in index terms (a sentence or two).
pub const AVG_UNIT_TERMS: f64 = 30.0;
const K1: f64 = 1.2;
const B: f64 = 0.5;

/// Where a chunk lives, from its `chunkKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Body text.
    Body,
    /// A page header or footer.
    HeaderFooter,
    /// Footnotes or endnotes.
    Notes,
}

/// One candidate chunk.
#[derive(Debug, Clone)]
pub struct Cand {
    /// Document position in the collection.
    pub doc: usize,
    /// Chunk sequence number.
    pub seq: usize,
    /// Its units.
    pub units: ChunkUnits,
    /// Tokens of each unit (o200k, the unit's text alone).
    pub unit_tokens: Vec<usize>,
    /// Score of each unit.
    pub scores: Vec<f64>,
    /// Tokens of the information line.
    pub info_tokens: usize,
    /// Retrieval score of the chunk (0 for structural candidates).
    pub chunk_score: f64,
    /// Whether retrieval returned it.
    pub retrieved: bool,
    /// Its part.
    pub place: Place,
}

/// The pool of one question.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    /// Candidates by `(document position, sequence)`: collection order.
    pub cands: BTreeMap<(usize, usize), Cand>,
    /// Documents by their evidence, best first: `(doc position, score)`.
    pub doc_rank: Vec<(usize, f64)>,
    /// Documents the question names by title, file name or language
    /// ([`named_by_title`]).
    pub named: Vec<usize>,
}

impl Pool {
    /// The score of unit `u` (0 for a unit not in the pool or not scored).
    pub fn score_of(&self, (key, i): ((usize, usize), usize)) -> f64 {
        self.cands
            .get(&key)
            .and_then(|x| x.scores.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// Document `d`'s retrieval mass ([`Pool::doc_rank`]) against the first
    /// document's: 0 to 1. Chunk-level retrieval sees a question's terms spread over
    /// a passage, where units see them apart.
    pub fn retrieval_share(&self, d: usize) -> f64 {
        let top = self.doc_rank.first().map_or(0.0, |x| x.1);
        if top <= 0.0 {
            return 0.0;
        }
        self.doc_rank
            .iter()
            .find(|x| x.0 == d)
            .map_or(0.0, |x| (x.1 / top).min(1.0))
    }

    /// Chunk `(doc, seq)` as a candidate, added unscored (every unit 0) when
    /// completion needs a chunk retrieval did not return. None when there is no
    /// such chunk.
    pub fn ensure(&mut self, c: &Collection, doc: usize, seq: usize) -> Option<&Cand> {
        if !self.cands.contains_key(&(doc, seq)) {
            let mut cand = candidate(c, doc, seq, 0.0, false)?;
            cand.scores = vec![0.0; cand.units.units.len()];
            self.cands.insert((doc, seq), cand);
        }
        self.cands.get(&(doc, seq))
    }
}

/// Chunk `(doc, seq)` cut into units and counted, not yet scored.
fn candidate(
    c: &Collection,
    d: usize,
    seq: usize,
    chunk_score: f64,
    retrieved: bool,
) -> Option<Cand> {
    let ch = c.documents().get(d).and_then(|x| x.chunks.get(seq))?;
    let units = split(&ch.text);
    let unit_tokens = units
        .units
        .iter()
        .map(|u| tokens::count(&ch.text[u.start..u.end]) + 1)
        .collect();
    let m = &ch.metadata;
    Some(Cand {
        doc: d,
        seq,
        info_tokens: tokens::count(&ch.text[..units.info]) + 2,
        units,
        unit_tokens,
        scores: Vec::new(),
        chunk_score,
        retrieved,
        place: place_of(m.get_str("chunkKind").unwrap_or("body")),
    })
}

fn place_of(kind: &str) -> Place {
    match kind {
        "header" | "footer" => Place::HeaderFooter,
        "footnote" | "endnote" => Place::Notes,
        _ => Place::Body,
    }
}

/// Chunks read from each document whose title names the question.
pub const TITLE_CHUNKS: usize = 8;
/// Documents whose title matches at least this share of the best title match count
/// as named by the question.
const TITLE_SHARE: f64 = 0.6;
/// At most this many documents count as named by the question.
const TITLE_DOCS: usize = 3;

/// The weight of each question term: its IDF squared. Within a unit of a few dozen
/// words BM25's length normalization rewards short units full of common words
/// ("what", "does"); squaring keeps a rare word ahead of several common ones.
fn weights<'a>(c: &Collection, a: &'a Analysis) -> HashMap<&'a str, f64> {
    a.terms
        .iter()
        .map(|t| {
            let idf = c.idf(t);
            (t.as_str(), idf * idf)
        })
        .collect()
}

/// The question's terms in document `d`'s title, weighed as [`weights`].
fn title_score(c: &Collection, a: &Analysis, d: usize, idf: &HashMap<&str, f64>) -> f64 {
    let Some(doc) = c.documents().get(d) else {
        return 0.0;
    };
    let holds = |v: &[String], t: &str| v.binary_search_by(|x| x.as_str().cmp(t)).is_ok();
    let named = |t: &str| holds(&doc.title_terms, t) || holds(&doc.file_terms, t);
    // A document's language names it as its title does ("the Russian contract").
    let language = |t: &str| {
        a.languages
            .iter()
            .any(|(code, term)| term == t && doc.language == Some(*code))
    };
    let whole: f64 = a
        .terms
        .iter()
        .filter(|t| named(t) || language(t))
        .map(|t| idf.get(t.as_str()).copied().unwrap_or(0.0))
        .sum();
    // "report_2019.docx" in a question is one index term; its parts name the file.
    let mut parts: Vec<&String> = a
        .spelled
        .iter()
        .flatten()
        .filter(|p| !a.terms.contains(p) && named(p))
        .collect();
    crate::order::sort(&mut parts);
    parts.dedup();
    let parts: f64 = parts
        .into_iter()
        .map(|t| {
            let i = c.idf(t);
            i * i
        })
        .sum();
    whole + parts
}

/// The documents of `docs` the question names by their title, best first, with their
/// title scores: those within [`TITLE_SHARE`] of the best, at most [`TITLE_DOCS`].
pub fn named_by_title(c: &Collection, a: &Analysis, docs: &[usize]) -> Vec<(usize, f64)> {
    let idf = weights(c, a);
    let mut titled: Vec<(usize, f64)> = docs
        .iter()
        .map(|&d| (d, title_score(c, a, d, &idf)))
        .filter(|x| x.1 > 0.0)
        .collect();
    crate::order::sort_by(&mut titled, |x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    let best_title = titled.first().map_or(0.0, |x| x.1);
    titled.retain(|x| x.1 >= best_title * TITLE_SHARE);
    titled.truncate(TITLE_DOCS);
    titled
}

/// Builds the pool for `question` (analysed as `a`) over the documents at `docs`.
pub fn build(r: &Retriever<'_>, a: &Analysis, docs: &[usize]) -> Pool {
    let c = r.collection();
    let hits = r.search(CANDIDATE_CHUNKS, docs);
    let top = hits
        .first()
        .map_or(0.0, |h| f64::from(h.score))
        .max(f64::MIN_POSITIVE);
    let mut chosen: BTreeMap<(usize, usize), (f64, bool)> = BTreeMap::new();
    let mut doc_mass: HashMap<usize, (f64, usize)> = HashMap::new();
    for h in &hits {
        if let Some(d) = c.position(&h.chunk.doc) {
            let s = f64::from(h.score) / top;
            chosen.insert((d, h.chunk.seq as usize), (s, true));
            let (m, n) = doc_mass.entry(d).or_insert((0.0, 0));
            // The best hit counts whole, the next few a quarter, the rest nothing:
            // one strong passage beats many weak ones, and a long document does not
            // outweigh a short one by its length.
            if *n <= MASS_HITS {
                *m += if *n == 0 { s } else { s * 0.25 };
            }
            *n += 1;
        }
    }
    // Documents the question names by their title: short documents that share few
    // words with the question lose the first search to long ones, so their best
    // chunks join the pool whatever it returned.
    let titled = named_by_title(c, a, docs);
    let best_title = titled.first().map_or(0.0, |x| x.1);
    {
        for &(d, ts) in &titled {
            for h in r.search(TITLE_CHUNKS, &[d]) {
                chosen
                    .entry((d, h.chunk.seq as usize))
                    .or_insert((0.5, true));
            }
            let n = c.documents().get(d).map_or(0, |x| x.chunks.len());
            if n <= TITLE_CHUNKS {
                for seq in 0..n {
                    chosen.entry((d, seq)).or_insert((0.0, false));
                }
            }
            doc_mass.entry(d).or_insert((0.0, 0)).0 += ts / best_title.max(f64::MIN_POSITIVE);
        }
    }
    let mut ranked: Vec<(usize, f64)> = doc_mass.into_iter().map(|(d, (m, _))| (d, m)).collect();
    crate::order::sort_by(&mut ranked, |x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    // A broad question ("give an overview of the main points") is about documents as
    // wholes, and its words need not occur in them: documents in scope that no hit
    // met follow the ranked ones, so their openings are read too.
    if a.broad {
        for &d in docs {
            if !ranked.iter().any(|x| x.0 == d) {
                ranked.push((d, 0.0));
            }
        }
    }
    // Structural candidates in the documents the hits point to most.
    let wants_parts = a.header_footer || a.notes || a.comments || a.revisions;
    if wants_parts {
        // A question about documents as such ("which documents have comments") is
        // about every document holding the structure, not the few its words meet:
        // the per-document records say which hold it, and each gives its first
        // chunks of that structure.
        let holders: Vec<usize> = if a.documents {
            docs.iter()
                .copied()
                .filter(|&d| {
                    c.documents().get(d).is_some_and(|x| {
                        holds_asked(a, &x.profile) && of_format(&a.formats, &x.file_name)
                    })
                })
                .take(HOLDER_DOCS)
                .collect()
        } else {
            Vec::new()
        };
        let per_doc = if holders.is_empty() {
            STRUCTURAL_PER_DOC
        } else {
            HOLDER_CHUNKS
        };
        let read: Vec<usize> = if holders.is_empty() {
            ranked.iter().take(STRUCTURAL_DOCS).map(|x| x.0).collect()
        } else {
            holders
        };
        for d in read {
            if !ranked.iter().any(|x| x.0 == d) {
                ranked.push((d, 0.0));
            }
            let Some(doc) = c.documents().get(d) else {
                continue;
            };
            let mut added = 0usize;
            for (seq, ch) in doc.chunks.iter().enumerate() {
                if added >= per_doc {
                    break;
                }
                let m = &ch.metadata;
                let place = place_of(m.get_str("chunkKind").unwrap_or("body"));
                let yes = |k: &str| m.get_str(k) == Some("yes");
                let take = (a.header_footer && place == Place::HeaderFooter)
                    || (a.notes && place == Place::Notes)
                    || (a.comments && yes("hasComments"))
                    || (a.revisions && yes("hasRevisions"));
                if take && !chosen.contains_key(&(d, seq)) {
                    chosen.insert((d, seq), (0.0, false));
                    added += 1;
                }
            }
        }
    }
    // A question asking which documents hold text in a script ("contain Arabic text")
    // shares no word with that text: each document (the assembler read the question
    // in those holding some) gives the chunk with the most of it.
    if !a.scripts.is_empty() {
        for &d in docs.iter().take(HOLDER_DOCS) {
            let Some(doc) = c.documents().get(d) else {
                continue;
            };
            let best = doc
                .chunks
                .iter()
                .enumerate()
                .map(|(seq, ch)| (script_words_in(&ch.text, &a.scripts), seq))
                .filter(|x| x.0 > 0)
                .max_by(|x, y| x.0.cmp(&y.0).then(y.1.cmp(&x.1)));
            if let Some((_, seq)) = best {
                chosen.entry((d, seq)).or_insert((0.0, false));
                if !ranked.iter().any(|x| x.0 == d) {
                    ranked.push((d, 0.0));
                }
            }
        }
    }
    // A section the question quotes by its heading ('Using the binaries'), or a
    // label line it quotes, joins the pool whatever the first search returned: its text need not repeat the heading's
    // words, and a table of contents that does can outrank it.
    if !a.quotes.is_empty() {
        let quoted = quoted_terms(a);
        let docs_read: Vec<usize> = ranked.iter().take(STRUCTURAL_DOCS).map(|x| x.0).collect();
        for d in docs_read {
            let Some(doc) = c.documents().get(d) else {
                continue;
            };
            let mut added = 0usize;
            for (seq, ch) in doc.chunks.iter().enumerate() {
                if added >= QUOTED_SECTION_CHUNKS {
                    break;
                }
                // The section the chunk opens in, or a line inside it that is the
                // quoted words and nothing else: a heading (ATX line), or a label
                // paragraph standing as one without a heading style ("Samples" over
                // a list), which a writer quotes as they quote a heading.
                let path = ch.metadata.get_str("headingPath").unwrap_or("");
                let last = path.rsplit(" > ").next().unwrap_or("");
                let names = |h: &str| !h.trim().is_empty() && quoted.contains(&terms_of(h));
                let inside = ch.text.lines().any(|l| names(l.trim_start_matches('#')));
                if names(last) || inside {
                    chosen.entry((d, seq)).or_insert((0.5, true));
                    added += 1;
                }
            }
        }
    }
    // A broad question ("summarize the reports") reads each document's opening.
    if a.broad {
        for &(d, _) in ranked.iter().take(STRUCTURAL_DOCS) {
            chosen.entry((d, 0)).or_insert((0.0, false));
        }
    }
    let mut cands = BTreeMap::new();
    for ((d, seq), (chunk_score, retrieved)) in chosen {
        if let Some(cand) = candidate(c, d, seq, chunk_score, retrieved) {
            cands.insert((d, seq), cand);
        }
    }
    // Documents holding the script asked for are named by it, as by a language.
    let mut named: Vec<usize> = titled.iter().map(|x| x.0).collect();
    if !a.scripts.is_empty() {
        named.extend(docs.iter().take(HOLDER_DOCS));
    }
    let mut pool = Pool {
        cands,
        doc_rank: ranked,
        named,
    };
    score(c, a, &mut pool);
    pool
}

/// Whether a file is of a format the question names its documents by (any file
/// when it names none): its name's extension says the format.
pub fn of_format(formats: &[crate::Format], file_name: &str) -> bool {
    formats.is_empty()
        || crate::read::sniff::format_of_file_name(file_name).is_some_and(|f| formats.contains(&f))
}

/// Whether a document's record holds a structure the question names.
fn holds_asked(a: &Analysis, p: &Profile) -> bool {
    (a.header_footer && p.headers + p.footers > 0)
        || (a.notes && p.footnotes + p.endnotes > 0)
        || (a.comments && p.comments > 0)
        || (a.revisions && p.changes() > 0)
}

/// The text of chunk `seq` of the document at position `d`.
pub(super) fn chunk_text(c: &Collection, d: usize, seq: usize) -> Option<&str> {
    c.documents()
        .get(d)
        .and_then(|x| x.chunks.get(seq))
        .map(|ch| ch.text.as_str())
}

/// Scores every unit of the pool (see the module docs).
fn score(c: &Collection, a: &Analysis, pool: &mut Pool) {
    let idf = weights(c, a);
    let mut best_lexical = 0.0f64;
    let mut titles: HashMap<usize, f64> = HashMap::new();
    for cand in pool.cands.values_mut() {
        let Some(text) = chunk_text(c, cand.doc, cand.seq) else {
            continue;
        };
        // The title counts whole, the rest of the information line (section path,
        // part) half: both say what the unit is about.
        let title = *titles
            .entry(cand.doc)
            .or_insert_with(|| title_score(c, a, cand.doc, &idf));
        let info: HashSet<String> = name_terms(&text[..cand.units.info]).into_iter().collect();
        let context: f64 = a
            .terms
            .iter()
            .filter(|t| info.contains(t.as_str()))
            .map(|t| idf[t.as_str()])
            .sum::<f64>();
        let context = title + (context - title).max(0.0) * 0.5;
        let raw: Vec<f64> = cand
            .units
            .units
            .iter()
            .map(|u| {
                let t = &text[u.start..u.end];
                let s = lexical(t, a, &idf);
                if u.kind == UnitKind::TableRow {
                    s + key_bonus(t, &idf)
                } else {
                    s
                }
            })
            .collect();
        // A header row is completion, not evidence: it scores a quarter, and lends
        // half its score to each row under it (the row of a table whose columns the
        // question names is the likelier answer).
        cand.scores = cand
            .units
            .units
            .iter()
            .zip(&raw)
            .map(|(u, &s)| {
                let s = match (u.kind, u.head) {
                    (UnitKind::TableHead, _) => s * 0.25,
                    (UnitKind::TableRow, Some(h)) if s > 0.0 => s + 0.5 * raw[h],
                    _ => s,
                };
                best_lexical = best_lexical.max(s);
                // A unit that shares no word with the question is about it only
                // through its chunk's title or section: a little, not as much as one
                // that does.
                if s > 0.0 { s + context } else { context * 0.25 }
            })
            .collect();
    }
    let scale = if best_lexical > 0.0 {
        best_lexical
    } else {
        1.0
    };
    // How much each document is about the question (its best unit against the best
    // of all): a part the question names counts in proportion, so the footer of the
    // document asked about beats the footers of the others.
    let mut doc_best: HashMap<usize, f64> = HashMap::new();
    for cand in pool.cands.values() {
        let m = cand.scores.iter().fold(0.0f64, |m, &x| m.max(x));
        let e = doc_best.entry(cand.doc).or_insert(0.0);
        *e = e.max(m);
    }
    let top_doc = doc_best
        .values()
        .fold(0.0f64, |m, &x| m.max(x))
        .max(f64::MIN_POSITIVE);
    let shares: HashMap<usize, f64> = doc_best
        .keys()
        .map(|&d| (d, pool.retrieval_share(d)))
        .collect();
    let quoted = quoted_terms(a);
    for cand in pool.cands.values_mut() {
        let relevance = (doc_best.get(&cand.doc).copied().unwrap_or(0.0) / top_doc)
            .max(shares.get(&cand.doc).copied().unwrap_or(0.0));
        let Some(text) = chunk_text(c, cand.doc, cand.seq) else {
            continue;
        };
        let prior = 0.3 * scale * cand.chunk_score;
        let mut at = 0usize;
        for ((u, s), &tok) in cand
            .units
            .units
            .iter()
            .zip(cand.scores.iter_mut())
            .zip(&cand.unit_tokens)
        {
            if a.broad && cand.seq == 0 && at < LEAD_TOKENS && cand.place == Place::Body {
                // What a document is about is said first: its opening counts for a
                // broad question, less the further in.
                // A document whose words the question never meets still has an
                // opening that says what it is about: at least half the weight of
                // the best document's.
                let doc_top = doc_best
                    .get(&cand.doc)
                    .copied()
                    .unwrap_or(0.0)
                    .max(top_doc * BROAD_FLOOR);
                *s += LEAD * doc_top * (1.0 - at as f64 / LEAD_TOKENS as f64);
            }
            at += tok;
            let t = &text[u.start..u.end];
            let mut boost = 0.0;
            if a.header_footer && cand.place == Place::HeaderFooter {
                boost += 0.6;
            }
            if a.notes && cand.place == Place::Notes {
                boost += 0.5;
            }
            if a.comments && t.contains("<comment ") {
                boost += 0.5;
            }
            if a.revisions && (t.contains("<ins ") || t.contains("<del ")) {
                boost += 0.5;
            }
            if a.table && matches!(u.kind, UnitKind::TableRow | UnitKind::TableHead) {
                boost += 0.1;
            }
            // A line that is the quoted words and nothing else (a heading, a label
            // over a list, a term being defined) is where the question points:
            // quoting marks the exact name of a thing, however common its words.
            if !quoted.is_empty() && quoted.contains(&terms_of(t.trim_start_matches('#'))) {
                boost += 1.0;
            }
            *s += prior + boost * scale * relevance * if *s > 0.0 { 1.0 } else { 0.5 };
        }
    }
    // Text in the script asked for is the evidence itself, though it shares no word
    // with the question: it ranks above any word match.
    if !a.scripts.is_empty() {
        let top = pool
            .cands
            .values()
            .flat_map(|x| x.scores.iter())
            .fold(0.0f64, |m, &x| m.max(x));
        for cand in pool.cands.values_mut() {
            let Some(text) = chunk_text(c, cand.doc, cand.seq) else {
                continue;
            };
            for (u, s) in cand.units.units.iter().zip(cand.scores.iter_mut()) {
                if script_words_in(&text[u.start..u.end], &a.scripts) > 0 {
                    *s += top;
                }
            }
        }
    }
}

/// A table row whose first cell (its key: an observation number, a name, a year) the
/// question names word for word is the row asked about: twice the key's weight.
fn key_bonus(row: &str, idf: &HashMap<&str, f64>) -> f64 {
    let cell = first_cell(row);
    let terms = terms_of(cell);
    if terms.is_empty() || !terms.iter().all(|t| idf.contains_key(t.as_str())) {
        return 0.0;
    }
    2.0 * terms.iter().map(|t| idf[t.as_str()]).sum::<f64>() / (terms.len() as f64).max(1.0)
}

/// The text of a row's first cell: `<tr><td>X</td>...` or `| X | ...`.
pub(super) fn first_cell(row: &str) -> &str {
    let r = row.trim_start();
    if let Some(rest) = r.strip_prefix("<tr>") {
        let rest = rest.trim_start();
        let Some(open_end) = rest.find('>') else {
            return "";
        };
        let body = &rest[open_end + 1..];
        return body.find("</t").map_or("", |e| &body[..e]);
    }
    if let Some(rest) = r.strip_prefix('|') {
        return rest.split('|').next().unwrap_or("");
    }
    ""
}

/// The terms of each text the question quotes (none for a quote of no words).
fn quoted_terms(a: &Analysis) -> Vec<Vec<String>> {
    a.quotes
        .iter()
        .map(|q| terms_of(q))
        .filter(|t| !t.is_empty())
        .collect()
}

/// BM25 of the question terms over one unit's terms, with a bonus for each quoted
/// phrase the unit holds in order.
fn lexical(text: &str, a: &Analysis, idf: &HashMap<&str, f64>) -> f64 {
    let terms = terms_of(text);
    if terms.is_empty() {
        return 0.0;
    }
    // Summed in term order: a float sum in hash order differs in its last bits from
    // run to run, and the same question must give the same scores.
    let mut tf: BTreeMap<&str, f64> = BTreeMap::new();
    for t in &terms {
        if idf.contains_key(t.as_str()) {
            *tf.entry(t.as_str()).or_insert(0.0) += 1.0;
        }
    }
    let norm = K1 * (1.0 - B + B * terms.len() as f64 / AVG_UNIT_TERMS);
    let mut s: f64 = tf
        .iter()
        .map(|(t, &f)| idf[t] * f * (K1 + 1.0) / (f + norm))
        .sum();
    for p in &a.phrases {
        if terms.windows(p.len()).any(|w| w == p.as_slice()) {
            s += p
                .iter()
                .map(|t| idf.get(t.as_str()).copied().unwrap_or(0.0))
                .sum::<f64>();
        }
    }
    s
}
