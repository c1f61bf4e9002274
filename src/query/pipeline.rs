//! The whole question: mode, routing, selection, context, payload, answer, citations.
//!
//! Sans-IO: a model call is a request the caller sends ([`super::route::routing_request`]
//! with [`Collection::index_document`], [`super::route::classify_request`]) and a reply
//! the caller hands back in [`Replies`]. With no replies, there is no routing and the
//! heuristic classifier decides broad vs pointed. The answer is always the extractive
//! one; a caller with a chat model sends [`QueryResult::payload`] instead and builds
//! citations from the model's answer with [`super::citations::build`] over
//! [`QueryResult::sources`].
//!
//! RAG mode, in order:
//! 1. With no explicit chunk count and a collection below the send-everything
//!    threshold (default 20,000 tokens), every chunk is sent.
//! 2. With a routing reply: INDEX answers from the index document; chosen documents
//!    that fit the allowance (top-k x average chunk tokens + the enrichment budget)
//!    are sent whole; chosen documents over it are searched as a broad question;
//!    anything else falls back to the whole collection.
//! 3. Pointed: one top-k over the documents in scope; broad: distribution. Then
//!    enrichment.
//!
//! Context chunks are the sources: ranked by retrieval score (chunks added by
//! enrichment or sent whole score 0), clamped to `max_sources`, then numbered from 1
//! in collection order (document, then sequence) and written into the context as
//! `[n] ` + chunk text. Numbering in document order, not score order, keeps the
//! context (the cached prefix) byte-identical whenever the same chunks are selected,
//! whatever the question.

use serde::Serialize;

use crate::SYSTEM_MESSAGE;
use crate::enrich::INDEX_ANSWER_PROMPT;
use crate::tokens;

use super::answer::{self, Answer, Passage};
use super::assemble::{self, Assembly};
use super::citations::{self, CitationReport, Source};
use super::collection::Collection;
use super::distribute::{enrichment_total, retrieval_quota};
use super::error::QueryError;
use super::history;
use super::inventory;
use super::modes::{
    DEFAULT_RAG_CHUNKS, ENTIRE_CHAR_CAP, Mode, TRUNCATED, VectorChunks, fit_chunks,
};
use super::options::QueryOptions;
use super::payload::{Accounting, Message, PathTaken, Payload, context_message};
use super::retriever::Retriever;
use super::route::{self, RoutingDecision, Scope};
use super::select::{self, Selection};
use super::truncate::{TRUNCATED_MARKER, fair_truncate};

/// What the instructions add to [`SYSTEM_MESSAGE`] when the context has numbered
/// sources.
pub const CITE_INSTRUCTION: &str = "Each excerpt in the document data starts with its source number in square brackets, such as [3], before its first line. After each statement in your answer, cite the excerpts it comes from by those numbers, for example [3] or [1, 4].";

/// Model replies the caller obtained (the text of each reply).
#[derive(Debug, Clone, Copy, Default)]
pub struct Replies<'a> {
    /// The reply to [`route::routing_request`]; None: no routing.
    pub routing: Option<&'a str>,
    /// The reply to [`route::classify_request`]; None: the heuristic classifier.
    pub classification: Option<&'a str>,
}

/// Everything a question produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryResult {
    /// The messages to send to a chat model.
    pub payload: Payload,
    /// Tokens by purpose, the path and why.
    pub accounting: Accounting,
    /// The numbered sources in the context (empty in entire-document mode).
    pub sources: Vec<Source>,
    /// The "vector chunks" output of the mode.
    pub vector_chunks: VectorChunks,
    /// The routing decision, when a routing reply was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing: Option<RoutingDecision>,
    /// The extractive answer.
    pub answer: Answer,
    /// Its citations.
    pub citations: CitationReport,
}

/// The content of a context before it becomes messages.
struct Built {
    instructions: String,
    parts: Vec<String>,
    sources: Vec<Source>,
    /// Uncited texts the extractive answerer may read (entire mode, index).
    plain: Vec<String>,
    accounting: Accounting,
    vector_chunks: VectorChunks,
    routing: Option<RoutingDecision>,
}

impl Built {
    fn new(path: PathTaken, reason: String) -> Self {
        Built {
            instructions: format!("{SYSTEM_MESSAGE}\n{CITE_INSTRUCTION}"),
            parts: Vec::new(),
            sources: Vec::new(),
            plain: Vec::new(),
            accounting: Accounting::new(path, reason),
            vector_chunks: VectorChunks::Marker(""),
            routing: None,
        }
    }
}

/// Answers `question` over `collection` (see the module docs). `history` is the
/// earlier conversation, reduced to the history budget here.
///
/// # Errors
/// [`QueryError::EmptyQuestion`] for a blank question; with a query embedding of the
/// collection's model, [`QueryError::EmbeddingDimension`] or [`QueryError::Embedding`]
/// for a vector of the wrong dimension, non-finite or zero.
pub fn ask(
    collection: &Collection,
    question: &str,
    history: &[Message],
    replies: &Replies<'_>,
    options: &QueryOptions,
) -> Result<QueryResult, QueryError> {
    let question = question.trim();
    if question.is_empty() {
        return Err(QueryError::EmptyQuestion);
    }
    let retriever = Retriever::new(collection, question, options)?;
    let all: Vec<usize> = (0..collection.documents().len()).collect();
    let built = match options.mode {
        Mode::Entire => entire(collection, &all, "entire-document mode".into()),
        Mode::Adaptive => {
            let chars: usize = collection.documents().iter().map(|d| d.chars).sum();
            if chars < ENTIRE_CHAR_CAP {
                entire(
                    collection,
                    &all,
                    format!(
                        "adaptive mode: {chars} characters, below the {ENTIRE_CHAR_CAP}-character cap"
                    ),
                )
            } else {
                let mut b = rag(&retriever, question, None, replies, options);
                b.accounting.reason = format!(
                    "adaptive mode: {chars} characters, over the {ENTIRE_CHAR_CAP}-character cap; {}",
                    b.accounting.reason
                );
                b
            }
        }
        Mode::AdaptiveRag => adaptive_rag(&retriever, question, &all, history, options),
        Mode::Rag(n) => rag(&retriever, question, n, replies, options),
    };
    Ok(finish(collection, built, question, history, options))
}

/// Turns a selection into numbered sources and context parts.
fn number(collection: &Collection, sel: &Selection, max: usize, b: &mut Built) {
    let docs = collection.documents();
    let mut sources: Vec<(Source, usize)> = Vec::new();
    for p in &sel.picks {
        if let Some(chunk) = docs.get(p.doc).and_then(|d| d.chunks.get(p.seq)) {
            sources.push((Source::from_chunk(chunk, p.score), p.doc));
        }
    }
    let doc_pos = |s: &Source| collection.position(&s.doc_id).unwrap_or(usize::MAX);
    let mut kept = citations::rank(sources.into_iter().map(|(s, _)| s).collect(), max);
    crate::order::sort_by(&mut kept, |a, b| {
        doc_pos(a).cmp(&doc_pos(b)).then(a.seq.cmp(&b.seq))
    });
    for (i, s) in kept.iter_mut().enumerate() {
        s.number = i + 1;
        if let Some(chunk) = docs.get(doc_pos(s)).and_then(|d| d.chunks.get(s.seq)) {
            b.parts.push(format!("[{}] {}", s.number, chunk.text));
        }
    }
    b.sources = kept;
}

/// Turns excerpts into numbered sources and context parts (as [`number`]).
fn number_excerpts(collection: &Collection, asm: &Assembly, max: usize, b: &mut Built) {
    let docs = collection.documents();
    let mut sources = Vec::new();
    for e in &asm.excerpts {
        if let Some(chunk) = docs.get(e.doc).and_then(|d| d.chunks.get(e.seq)) {
            sources.push(Source::from_chunk(chunk, e.score));
        }
    }
    let doc_pos = |s: &Source| collection.position(&s.doc_id).unwrap_or(usize::MAX);
    let mut kept = citations::rank(sources, max);
    crate::order::sort_by(&mut kept, |a, b| {
        doc_pos(a).cmp(&doc_pos(b)).then(a.seq.cmp(&b.seq))
    });
    for (i, s) in kept.iter_mut().enumerate() {
        s.number = i + 1;
        let pos = doc_pos(s);
        if let Some(e) = asm.excerpts.iter().find(|e| e.doc == pos && e.seq == s.seq) {
            b.parts.push(format!("[{}] {}", s.number, e.text));
        }
    }
    b.sources = kept;
}

fn rag(
    r: &Retriever<'_>,
    question: &str,
    n: Option<usize>,
    replies: &Replies<'_>,
    options: &QueryOptions,
) -> Built {
    let c = r.collection();
    let all: Vec<usize> = (0..c.documents().len()).collect();
    let total = c.total_tokens();
    let budget = if n.is_none() {
        options.token_budget
    } else {
        None
    };
    let everything = match budget {
        // 0 disables sending everything in both modes.
        Some(b) => options.small_collection_tokens > 0 && total <= b,
        None => n.is_none() && total < options.small_collection_tokens,
    };
    if everything {
        let why = match budget {
            Some(b) => format!(
                "the collection has {total} tokens, within the {b}-token budget: every chunk is sent"
            ),
            None => format!(
                "the collection has {total} tokens, below the {}-token threshold: every chunk is sent",
                options.small_collection_tokens
            ),
        };
        let mut b = Built::new(PathTaken::Everything, why);
        let sel = select::whole_documents(c, &all);
        b.accounting.retrieval_tokens = sel.retrieval_tokens;
        number(c, &sel, options.max_sources, &mut b);
        b.vector_chunks = VectorChunks::Chunks(b.sources.clone());
        return b;
    }

    let mut docs = all.clone();
    let mut forced_broad = None;
    let mut routing_tokens = 0usize;
    let mut decision = None;
    if let Some(reply) = replies.routing {
        let (index, _) = c.index_document(None);
        let req = route::routing_request(&index, question);
        routing_tokens +=
            req.messages.iter().map(Message::tokens).sum::<usize>() + tokens::count(reply);
        let ids: Vec<&str> = c.documents().iter().map(|d| d.doc_id.as_str()).collect();
        let d = route::decide(
            &route::parse_routing_reply(reply, &ids),
            options.confidence_threshold,
        );
        match &d {
            RoutingDecision::Index => {
                let mut b = Built::new(
                    PathTaken::Index,
                    "the routing model said the index document answers the question".into(),
                );
                b.instructions = INDEX_ANSWER_PROMPT.to_string();
                b.accounting.retrieval_tokens = tokens::count(&index);
                b.accounting.routing_tokens = routing_tokens;
                b.plain.push(index.clone());
                b.parts.push(index);
                b.routing = Some(d);
                return b;
            }
            RoutingDecision::Restrict { choices } => {
                docs = choices
                    .iter()
                    .filter_map(|ch| c.position(&ch.doc_id))
                    .collect();
                let chosen: usize = docs
                    .iter()
                    .filter_map(|&p| c.documents().get(p))
                    .map(|x| x.tokens)
                    .sum();
                let chunks = c.total_chunks().max(1);
                let allowance = budget.unwrap_or_else(|| {
                    total / chunks * retrieval_quota(chunks, options.retrieval_percent)
                        + enrichment_total(total, options.enrichment_percent)
                });
                if chosen <= allowance {
                    let mut b = Built::new(
                        PathTaken::RoutedWhole,
                        format!(
                            "routing chose {} document(s) of {chosen} tokens, within the {allowance}-token allowance: sent whole",
                            docs.len()
                        ),
                    );
                    let sel = select::whole_documents(c, &docs);
                    b.accounting.retrieval_tokens = sel.retrieval_tokens;
                    b.accounting.routing_tokens = routing_tokens;
                    number(c, &sel, options.max_sources, &mut b);
                    b.vector_chunks = VectorChunks::Chunks(b.sources.clone());
                    b.routing = Some(d);
                    return b;
                }
                forced_broad = Some(format!(
                    "routing chose {} document(s) of {chosen} tokens, over the {allowance}-token allowance: searched as a broad question",
                    docs.len()
                ));
            }
            RoutingDecision::Whole { .. } => {}
        }
        decision = Some(d);
    }

    let (scope, why) = match (&forced_broad, replies.classification) {
        (Some(why), _) => (Scope::Broad, why.clone()),
        (None, Some(reply)) => {
            let req = route::classify_request(question);
            routing_tokens +=
                req.messages.iter().map(Message::tokens).sum::<usize>() + tokens::count(reply);
            let s = route::parse_classify_reply(reply);
            (
                s,
                format!(
                    "the classification model called the question {}",
                    scope_word(s)
                ),
            )
        }
        (None, None) => {
            let s = route::classify_heuristic(question);
            (
                s,
                format!(
                    "the heuristic classifier called the question {}",
                    scope_word(s)
                ),
            )
        }
    };
    if let Some(budget) = budget {
        // The classifier (a reply, or routing's too-much-to-send) decides broad when
        // it spoke; otherwise the assembler's own question analysis does.
        let told = forced_broad.is_some() || replies.classification.is_some();
        let asm = assemble::assemble(
            r,
            question,
            &docs,
            budget,
            told.then_some(scope == Scope::Broad),
        );
        let broad = asm.analysis.broad;
        let path = if broad {
            PathTaken::Broad
        } else {
            PathTaken::Pointed
        };
        let why = if told {
            why
        } else {
            format!(
                "the question analysis called the question {}",
                if broad { "broad" } else { "pointed" }
            )
        };
        let excerpts = asm.excerpts.iter().filter(|e| !e.whole).count();
        let mut reason = format!(
            "{why}; {budget}-token budget over {} document(s): {} chunk(s) in the context, {excerpts} as excerpts",
            docs.len(),
            asm.excerpts.len()
        );
        if let Some(n) = &asm.narrowed {
            reason = format!("{reason}; {n}");
        }
        if let Some(RoutingDecision::Whole { reason: r }) = &decision {
            reason = format!("{r}; {reason}");
        }
        let mut b = Built::new(path, reason);
        b.accounting.retrieval_tokens = asm.retrieval_tokens;
        b.accounting.enrichment_tokens = asm.enrichment_tokens;
        b.accounting.routing_tokens = routing_tokens;
        b.accounting.broad = Some(broad);
        b.accounting.retrieval = r.retrieval();
        b.accounting.reason.push_str(&r.reason());
        number_excerpts(c, &asm, options.max_sources, &mut b);
        b.vector_chunks = VectorChunks::Chunks(b.sources.clone());
        b.routing = decision;
        return b;
    }
    let in_scope: usize = docs
        .iter()
        .filter_map(|&p| c.documents().get(p))
        .map(|d| d.chunks.len())
        .sum();
    let k = n
        .unwrap_or_else(|| {
            retrieval_quota(in_scope, options.retrieval_percent).max(DEFAULT_RAG_CHUNKS)
        })
        .min(in_scope);
    let path = match scope {
        Scope::Broad => PathTaken::Broad,
        Scope::Pointed => PathTaken::Pointed,
    };
    let mut reason = format!("{why}; top-k {k} over {} document(s)", docs.len());
    if let Some(RoutingDecision::Whole { reason: r }) = &decision {
        reason = format!("{r}; {reason}");
    }
    let mut b = Built::new(path, reason);
    let sel = select::retrieve(
        r,
        &docs,
        k,
        scope,
        options.coverage_percent,
        options.enrichment_percent,
    );
    b.accounting.retrieval_tokens = sel.retrieval_tokens;
    b.accounting.enrichment_tokens = sel.enrichment_tokens;
    b.accounting.routing_tokens = routing_tokens;
    b.accounting.broad = Some(scope == Scope::Broad);
    b.accounting.retrieval = r.retrieval();
    b.accounting.reason.push_str(&r.reason());
    number(c, &sel, options.max_sources, &mut b);
    b.vector_chunks = VectorChunks::Chunks(b.sources.clone());
    b.routing = decision;
    b
}

fn scope_word(s: Scope) -> &'static str {
    match s {
        Scope::Broad => "broad",
        Scope::Pointed => "pointed",
    }
}

fn entire(c: &Collection, docs: &[usize], reason: String) -> Built {
    let mut b = Built::new(PathTaken::Entire, reason);
    b.instructions = SYSTEM_MESSAGE.to_string();
    let texts: Vec<String> = docs
        .iter()
        .filter_map(|&p| c.documents().get(p))
        .map(|d| d.full_text())
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let t = fair_truncate(&refs, ENTIRE_CHAR_CAP);
    let mut retrieval = 0usize;
    for ((text, cut), &p) in t.texts.iter().zip(&t.cut).zip(docs) {
        retrieval += if *cut {
            tokens::count(text)
        } else {
            c.documents().get(p).map_or(0, |d| d.tokens)
        };
    }
    b.accounting.retrieval_tokens = retrieval;
    b.accounting.truncated = t.truncated;
    b.vector_chunks = VectorChunks::Marker(if t.truncated { TRUNCATED } else { "" });
    b.plain = t.texts.clone();
    b.parts = t.texts;
    b
}

fn adaptive_rag(
    r: &Retriever<'_>,
    question: &str,
    docs: &[usize],
    history: &[Message],
    options: &QueryOptions,
) -> Built {
    let c = r.collection();
    let in_scope = c.total_chunks();
    let k = DEFAULT_RAG_CHUNKS.min(in_scope);
    let mut b = Built::new(PathTaken::AdaptiveRag, String::new());
    let sel = select::retrieve(r, docs, k, Scope::Pointed, 0, 0);
    number(c, &sel, options.max_sources, &mut b);
    let chunk_tokens: usize = sel.retrieval_tokens;
    // Reserve room for the instructions, the history budget, the question and the
    // reply.
    let reserve = tokens::count(&b.instructions)
        + options
            .history_tokens
            .min(history.iter().map(Message::tokens).sum())
        + tokens::count(question)
        + options.answer_tokens;
    let budget = options
        .context_window
        .saturating_sub(reserve + chunk_tokens);
    let per_doc: Vec<Vec<usize>> = docs
        .iter()
        .filter_map(|&p| c.documents().get(p))
        .map(|d| (0..d.chunks.len()).map(|s| d.chunk_tokens(s)).collect())
        .collect();
    let (keep, cut) = fit_chunks(&per_doc, budget);
    let mut full_tokens = 0usize;
    for (&p, &n) in docs.iter().zip(&keep) {
        let Some(d) = c.documents().get(p) else {
            continue;
        };
        let mut text: Vec<&str> = d.chunks.iter().take(n).map(|ch| ch.text.as_str()).collect();
        if n < d.chunks.len() {
            text.push(TRUNCATED_MARKER.trim_start());
        }
        full_tokens += (0..n).map(|s| d.chunk_tokens(s)).sum::<usize>();
        b.parts.push(text.join("\n\n"));
    }
    b.accounting.reason = format!(
        "adaptive RAG: {} retrieved chunk(s) first, then the full text within a {}-token context window{}",
        b.sources.len(),
        options.context_window,
        if cut { " (truncated)" } else { "" }
    );
    b.accounting.retrieval = r.retrieval();
    b.accounting.reason.push_str(&r.reason());
    b.accounting.retrieval_tokens = chunk_tokens + full_tokens;
    b.accounting.truncated = cut;
    b.vector_chunks = VectorChunks::Chunks(b.sources.clone());
    b
}

fn finish(
    c: &Collection,
    b: Built,
    question: &str,
    history: &[Message],
    options: &QueryOptions,
) -> QueryResult {
    // A question about the collection as such is answered from the per-document
    // records, and the context carries them so a chat model reads the same counts.
    let all: Vec<usize> = (0..c.documents().len()).collect();
    let records = inventory::read(c, question, &assemble::analyze(question), &all)
        .map(|ask| (inventory::facts(c, &ask, &all), ask));
    let block = records
        .as_ref()
        .map(|(facts, _)| inventory::block(facts, all.len()));
    let context = context_message(
        &b.instructions,
        b.parts.iter().map(String::as_str).chain(block.as_deref()),
    );
    let reduced = history::reduce(history, options.history_tokens);
    let payload = Payload::new(context, &reduced.messages, question);
    let mut accounting = b.accounting;
    accounting.count_payload(&payload);

    // Source parts are "[n] " + chunk text, in source order.
    let mut passages: Vec<Passage<'_>> = b
        .sources
        .iter()
        .zip(&b.parts)
        .map(|(s, t)| Passage {
            number: s.number,
            text: t.split_once(' ').map_or(t.as_str(), |(_, rest)| rest),
            file: c
                .position(&s.doc_id)
                .and_then(|p| c.documents().get(p))
                .map_or("", |d| d.file_name.as_str()),
        })
        .collect();
    if passages.is_empty() {
        passages = b
            .plain
            .iter()
            .map(|t| Passage {
                number: 0,
                text: t,
                file: "",
            })
            .collect();
    }
    let extractive = || {
        answer::answer(
            question,
            &passages,
            options.answer_tokens,
            options.answer_sentences,
        )
    };
    let answer = match &records {
        Some((facts, ask)) => {
            let mut a = records_answer(c, facts, ask, &b.sources, options.answer_tokens * 2);
            // "Which documents are in Russian, and what is each about?": the records
            // say which, the documents' text what they are about.
            if inventory::asks_content(question) {
                append(&mut a, extractive());
            }
            a
        }
        None => extractive(),
    };
    let citations = citations::build(&answer.text, &b.sources);
    QueryResult {
        payload,
        accounting,
        sources: b.sources,
        vector_chunks: b.vector_chunks,
        routing: b.routing,
        answer,
        citations,
    }
}

/// The answer from the per-document records: a line per qualifying document, citing
/// the first source the context holds from it (none when it holds none), or the
/// statement that no document qualifies.
fn records_answer(
    c: &Collection,
    facts: &[inventory::Fact],
    ask: &inventory::Ask,
    sources: &[Source],
    max_tokens: usize,
) -> Answer {
    let cite = |d: usize| {
        let id = c.documents().get(d).map_or("", |x| x.doc_id.as_str());
        sources
            .iter()
            .find(|s| s.doc_id == id)
            .map_or(0, |s| s.number)
    };
    let lines: Vec<answer::draft::Line> = if facts.is_empty() {
        vec![answer::draft::Line::new(
            inventory::none(ask, c.documents().len()),
            0,
        )]
    } else {
        facts
            .iter()
            .map(|f| answer::draft::Line::new(f.text.clone(), cite(f.doc)))
            .collect()
    };
    let draft = answer::draft::Draft {
        kind: "records",
        lines,
        score: 1.0,
        list: true,
        at: None,
    };
    answer::compose::write(vec![draft], max_tokens)
}

/// `more` written after `a` (its statements, text, Markdown and tokens added).
fn append(a: &mut Answer, more: Answer) {
    if more.declined {
        return;
    }
    a.text = format!("{}\n{}", a.text, more.text);
    a.markdown = format!("{}\n\n{}", a.markdown, more.markdown);
    a.quotes.extend(more.quotes);
    a.tokens = tokens::count(&a.text);
}
