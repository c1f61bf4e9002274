//! The [`Summarizer`] state machine: it hands out model requests and takes replies,
//! and never does I/O itself.
//!
//! A driver loops: [`Summarizer::next_requests`] gives every request that can be sent
//! now ([`Step::Requests`]: all the map calls of a document at once, so the driver
//! can run them concurrently under its own limit), [`Step::Waiting`] while replies
//! are still outstanding, or [`Step::Done`] with the [`Summary`]. Each reply goes back
//! through [`Summarizer::submit`] under its [`RequestId`], in any order.
//!
//! Citation validation: each reply's markers are checked against the chunks of that
//! call's input (for a reduce call: the chunks its notes cite). A reply with no
//! marker or with an unknown one is retried once, as a new request with a firmer
//! instruction ([`super::prompts::FIRMER`]); a second failure is kept, the summary is
//! marked unverified ([`super::trace::UNVERIFIED`]) and the invalid markers are
//! listed. Invalid markers are removed from intermediate notes so they do not travel
//! up; the final text keeps them as the model wrote them.
//!
//! Budget: every request, retries included, has at most
//! [`SummaryOptions::request_budget`] tokens (message contents, o200k_base). Text that
//! cannot fit is cut (a chunk, a note, the running summary) and counted in
//! [`SummaryTrace::truncated_inputs`]. Reply limits (`max_tokens`) never exceed the
//! context window minus the request.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::query::collection::Collection;
use crate::query::error::QueryError;
use crate::query::payload::ModelRequest;
use crate::tokens;

use super::cite::{self, CiteStyle, Key, Namer};
use super::extractive;
use super::options::{SummaryMode, SummaryOptions, TopicSource};
use super::prompts::{self, RETRY_RESERVE, fit_text, request_tokens};
use super::source::Source;
use super::topics;
use super::trace::{self, Summary, SummaryTrace, UNVERIFIED};

/// Reply limit of a map call, in tokens.
pub const MAP_REPLY_TOKENS: usize = 400;
/// Reply limit of an intermediate reduce call, in tokens.
pub const MERGE_REPLY_TOKENS: usize = 800;
/// Reply limit of a final reduce or synthesis call, in tokens.
pub const FINAL_REPLY_TOKENS: usize = 1_500;
/// Reply limit of an iterative step, in tokens (also the room kept for the running
/// summary in the next step's request).
pub const ITERATE_REPLY_TOKENS: usize = 1_000;
/// Reply limit of the topics call, in tokens.
pub const TOPICS_REPLY_TOKENS: usize = 200;

/// One request of a run (unique within it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestId(pub u64);

/// What to do next.
#[derive(Debug, Clone)]
pub enum Step {
    /// Send these requests (in any order, concurrently if you like) and submit each
    /// reply under its id.
    Requests(Vec<(RequestId, ModelRequest)>),
    /// Replies are outstanding; submit them before asking again.
    Waiting,
    /// The run is over.
    Done(Box<Summary>),
}

/// The phase of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The topics call.
    Topics,
    /// Chunks to notes.
    Map,
    /// Notes to fewer notes, or to the summary.
    Reduce,
    /// The running summary.
    Iterate,
    /// The topic synthesis.
    Synthesize,
    /// Finished.
    Done,
}

/// How far a run is: `done` of `total` calls of the phase (retries not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// The phase.
    pub phase: Phase,
    /// The reduce level (1 = the first reduce over the map notes); 0 outside reduce.
    pub level: usize,
    /// Calls of the phase answered.
    pub done: usize,
    /// Calls of the phase.
    pub total: usize,
}

impl fmt::Display for Progress {
    /// `map 12/40`, `reduce 2/13 (level 1)`, `done`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.phase {
            Phase::Topics => "topics",
            Phase::Map => "map",
            Phase::Reduce => "reduce",
            Phase::Iterate => "iterate",
            Phase::Synthesize => "synthesize",
            Phase::Done => return f.write_str("done"),
        };
        write!(f, "{name} {}/{}", self.done, self.total)?;
        if self.phase == Phase::Reduce {
            write!(f, " (level {})", self.level)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Topics,
    Map,
    Merge,
    Final,
    Iterate { last: bool },
    Synthesis,
}

#[derive(Debug, Clone)]
struct Call {
    kind: Kind,
    slot: usize,
    request: ModelRequest,
    allowed: BTreeSet<Key>,
    retried: bool,
    handed: bool,
}

/// Text with the valid chunks it cites.
#[derive(Debug, Clone, Default)]
struct Note {
    text: String,
    keys: BTreeSet<Key>,
}

#[derive(Debug)]
enum Stage {
    Start,
    Topics {
        reply: Option<String>,
    },
    Map {
        notes: Vec<Option<Note>>,
    },
    Reduce {
        level: usize,
        last: bool,
        notes: Vec<Option<Note>>,
    },
    Iterate {
        groups: Vec<Vec<Key>>,
        next: usize,
        summary: Option<Note>,
    },
    Synthesis {
        text: Option<Note>,
    },
    Done,
}

/// The summary state machine (see the module docs).
#[derive(Debug)]
pub struct Summarizer {
    opts: SummaryOptions,
    mode: SummaryMode,
    fallback: Option<String>,
    source: Source,
    namer: Namer,
    topic_material: String,
    stage: Stage,
    calls: BTreeMap<RequestId, Call>,
    next_id: u64,
    used: BTreeSet<Key>,
    trace: SummaryTrace,
    flagged: bool,
    invalid: Vec<String>,
    notices: Vec<String>,
    done: Option<Summary>,
}

fn label(namer: &Namer, p: &super::source::Part) -> String {
    format!("[{}] Section: {}", namer.id(p.key), p.section())
}

impl Summarizer {
    /// A run over the documents `doc_ids` of `collection` (all of them when None).
    /// One document cites `[chunk-N]`, several cite `[docId:N]` (N = `ssSeq`). The
    /// text is copied, so the collection may change afterwards.
    ///
    /// # Errors
    /// [`QueryError::UnknownDocument`] for an id not in the collection;
    /// [`QueryError::InvalidOption`] (`docIds`) when the documents have no chunks.
    pub fn new(
        collection: &Collection,
        doc_ids: Option<&[&str]>,
        options: SummaryOptions,
    ) -> Result<Self, QueryError> {
        let source = Source::new(collection, doc_ids)?;
        let style = if source.doc_ids.len() == 1 {
            CiteStyle::Chunk
        } else {
            CiteStyle::DocSeq
        };
        let namer = Namer {
            style,
            doc_ids: source.doc_ids.clone(),
        };
        let mut topic_material = String::new();
        if options.mode == SummaryMode::Topics && options.topic_source == TopicSource::Model {
            let mut heads: Vec<String> = Vec::new();
            for p in &source.parts {
                if !p.heading_path.is_empty() && heads.last() != Some(&p.heading_path) {
                    heads.push(p.heading_path.clone());
                }
            }
            heads.dedup();
            topic_material = format!(
                "Titles: {}\n\nHeadings:\n{}",
                source.titles.join("; "),
                heads
                    .iter()
                    .map(|h| format!("- {h}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            for id in &source.doc_ids {
                let entry = collection
                    .position(id)
                    .and_then(|p| collection.documents()[p].enricher.as_ref())
                    .and_then(|e| e.index_document(crate::enrich::DEFAULT_INDEX_PERCENT).ok());
                if let Some(e) = entry {
                    topic_material.push_str("\n\nIndex phrases:\n");
                    topic_material.push_str(&e.text());
                }
            }
        }
        let trace = SummaryTrace {
            doc_ids: source.doc_ids.clone(),
            chunks_total: source.parts.len(),
            chunks_processed: 0,
            topics: Vec::new(),
            model_calls: 0,
            retries: 0,
            tokens_sent: 0,
            tokens_received: 0,
            wall_ms: None,
            reduce_levels: 0,
            request_budget_tokens: options.request_budget(),
            max_request_tokens: 0,
            truncated_inputs: 0,
            headings_total: 0,
            headings_covered: 0,
            coverage: None,
            bullets: 0,
            bullets_cited: 0,
            citation_rate: None,
        };
        Ok(Summarizer {
            mode: options.mode,
            opts: options,
            fallback: None,
            source,
            namer,
            topic_material,
            stage: Stage::Start,
            calls: BTreeMap::new(),
            next_id: 0,
            used: BTreeSet::new(),
            trace,
            flagged: false,
            invalid: Vec::new(),
            notices: Vec::new(),
            done: None,
        })
    }

    /// How markers are written in this run.
    pub fn style(&self) -> CiteStyle {
        self.namer.style
    }

    /// The trace so far (calls and tokens grow as the run goes).
    pub fn trace(&self) -> &SummaryTrace {
        &self.trace
    }

    /// The requests to send now, [`Step::Waiting`], or the summary.
    pub fn next_requests(&mut self) -> Step {
        loop {
            if let Some(s) = &self.done {
                return Step::Done(Box::new(s.clone()));
            }
            let fresh: Vec<RequestId> = self
                .calls
                .iter()
                .filter(|(_, c)| !c.handed)
                .map(|(id, _)| *id)
                .collect();
            if !fresh.is_empty() {
                let mut out = Vec::with_capacity(fresh.len());
                for id in fresh {
                    if let Some(c) = self.calls.get_mut(&id) {
                        c.handed = true;
                        let t = request_tokens(&c.request);
                        self.trace.model_calls += 1;
                        self.trace.tokens_sent += t;
                        self.trace.max_request_tokens = self.trace.max_request_tokens.max(t);
                        out.push((id, c.request.clone()));
                    }
                }
                return Step::Requests(out);
            }
            if !self.calls.is_empty() {
                return Step::Waiting;
            }
            self.advance();
        }
    }

    /// Hands back the reply to request `id`.
    ///
    /// # Errors
    /// [`QueryError::InvalidOption`] (`requestId`) for an id that was not handed out
    /// or was already answered; nothing changes then.
    pub fn submit(&mut self, id: RequestId, reply: &str) -> Result<(), QueryError> {
        if !self.calls.get(&id).is_some_and(|c| c.handed) {
            return Err(QueryError::InvalidOption {
                name: "requestId".into(),
                detail: format!("request {} is not awaiting a reply", id.0),
            });
        }
        let Some(call) = self.calls.remove(&id) else {
            return Ok(());
        };
        self.trace.tokens_received += tokens::count(reply);
        if call.kind == Kind::Topics {
            if let Stage::Topics { reply: r } = &mut self.stage {
                *r = Some(reply.to_string());
            }
            return Ok(());
        }
        let check = cite::check(reply, &self.namer, &call.allowed);
        let note = if check.passes() {
            Note {
                text: reply.trim().to_string(),
                keys: check.valid.into_iter().collect(),
            }
        } else if !call.retried {
            let reason = if check.invalid.is_empty() {
                "it has no citation markers".to_string()
            } else {
                format!(
                    "it cites markers that are not in the document data: {}",
                    check.invalid.join(", ")
                )
            };
            let valid: Vec<String> = call
                .allowed
                .iter()
                .map(|&k| format!("[{}]", self.namer.id(k)))
                .collect();
            let request = prompts::firmer(&call.request, &reason, &valid);
            self.trace.retries += 1;
            self.push(Call {
                request,
                retried: true,
                handed: false,
                ..call
            });
            return Ok(());
        } else {
            self.flagged = true;
            for i in check.invalid {
                if !self.invalid.contains(&i) {
                    self.invalid.push(i);
                }
            }
            let keeps_raw = matches!(
                call.kind,
                Kind::Final | Kind::Synthesis | Kind::Iterate { last: true }
            );
            let text = if keeps_raw {
                reply.trim().to_string()
            } else {
                cite::strip_invalid(reply.trim(), &self.namer, &call.allowed)
            };
            // A note that cites nothing valid stays citable through its input.
            let keys = if check.valid.is_empty() {
                call.allowed.clone()
            } else {
                check.valid.into_iter().collect()
            };
            Note { text, keys }
        };
        match &mut self.stage {
            Stage::Map { notes } | Stage::Reduce { notes, .. } => {
                if let Some(s) = notes.get_mut(call.slot) {
                    *s = Some(note);
                }
            }
            Stage::Iterate { summary, next, .. } => {
                *summary = Some(note);
                *next += 1;
            }
            Stage::Synthesis { text } => *text = Some(note),
            _ => {}
        }
        Ok(())
    }

    /// Where the run is.
    pub fn progress(&self) -> Progress {
        let count = |v: &Vec<Option<Note>>| (v.iter().filter(|n| n.is_some()).count(), v.len());
        let (phase, level, (done, total)) = match &self.stage {
            Stage::Start => (Phase::Map, 0, (0, 0)),
            Stage::Topics { reply } => (Phase::Topics, 0, (usize::from(reply.is_some()), 1)),
            Stage::Map { notes } => (Phase::Map, 0, count(notes)),
            Stage::Reduce { level, notes, .. } => (Phase::Reduce, *level, count(notes)),
            Stage::Iterate { groups, next, .. } => (Phase::Iterate, 0, (*next, groups.len())),
            Stage::Synthesis { text } => (Phase::Synthesize, 0, (usize::from(text.is_some()), 1)),
            Stage::Done => (Phase::Done, 0, (0, 0)),
        };
        Progress {
            phase,
            level,
            done,
            total,
        }
    }

    fn push(&mut self, call: Call) {
        let id = RequestId(self.next_id);
        self.next_id += 1;
        self.calls.insert(id, call);
    }

    fn budget(&self) -> usize {
        self.opts.request_budget()
    }

    fn reply_cap(&self, req: &ModelRequest, want: usize) -> usize {
        want.min(self.opts.context_window.saturating_sub(request_tokens(req)))
            .max(1)
    }

    fn example(&self, allowed: &BTreeSet<Key>) -> String {
        let k = allowed.iter().next().copied().unwrap_or((0, 0));
        format!("[{}]", self.namer.id(k))
    }

    /// Moves to the next stage when every call of this one is answered.
    fn advance(&mut self) {
        match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Start => self.start(),
            Stage::Topics { reply } => {
                let mut topics = reply
                    .as_deref()
                    .map(topics::parse_topics)
                    .unwrap_or_default();
                if topics.is_empty() {
                    topics = topics::from_headings(&self.source);
                    self.notices
                        .push("the topics reply listed no topic; the headings were used".into());
                }
                self.synthesize(topics);
            }
            Stage::Map { notes } => {
                let notes = notes.into_iter().flatten().collect();
                self.reduce(1, notes);
            }
            Stage::Reduce { level, last, notes } => {
                let notes: Vec<Note> = notes.into_iter().flatten().collect();
                if last {
                    let text = notes.into_iter().next().unwrap_or_default().text;
                    self.finish(text);
                } else {
                    self.reduce(level + 1, notes);
                }
            }
            Stage::Iterate {
                groups,
                next,
                summary,
            } => {
                if next >= groups.len() {
                    self.finish(summary.unwrap_or_default().text);
                } else {
                    self.iterate(groups, next, summary);
                }
            }
            Stage::Synthesis { text } => self.finish(text.unwrap_or_default().text),
            Stage::Done => {}
        }
    }

    fn start(&mut self) {
        if self.mode == SummaryMode::Iterative {
            let t = self.source.tokens();
            if t > self.opts.iterative_max_tokens {
                let why = format!(
                    "iterative mode is for short documents: {t} tokens is over the {}-token limit, so hierarchical reduce ran instead",
                    self.opts.iterative_max_tokens
                );
                self.notices.push(why.clone());
                self.fallback = Some(why);
                self.mode = SummaryMode::Hierarchical;
            }
        }
        match self.mode {
            SummaryMode::Extractive => {
                let (text, used) = extractive::summarize(
                    &self.source,
                    &self.namer,
                    self.opts.sentences_per_section,
                );
                self.used = used;
                self.finish(text);
            }
            SummaryMode::MapReduce | SummaryMode::Hierarchical => self.map(),
            SummaryMode::Iterative => {
                let groups = self.iterate_groups();
                self.iterate(groups, 0, None);
            }
            SummaryMode::Topics => match self.opts.topic_source {
                TopicSource::Headings => {
                    let t = topics::from_headings(&self.source);
                    self.synthesize(t);
                }
                TopicSource::Model => {
                    let budget = self.budget();
                    let empty = prompts::request(
                        prompts::TOPICS_PROMPT,
                        "",
                        self.opts.focus.as_deref(),
                        [""],
                        "List the topics.",
                        TOPICS_REPLY_TOKENS,
                    );
                    let room = budget.saturating_sub(request_tokens(&empty) + 8);
                    let (material, cut) = fit_text(&self.topic_material, room);
                    self.trace.truncated_inputs += usize::from(cut);
                    let mut req = prompts::request(
                        prompts::TOPICS_PROMPT,
                        "",
                        self.opts.focus.as_deref(),
                        [material.as_str()],
                        "List the topics.",
                        TOPICS_REPLY_TOKENS,
                    );
                    req.max_tokens = self.reply_cap(&req, TOPICS_REPLY_TOKENS);
                    self.push(Call {
                        kind: Kind::Topics,
                        slot: 0,
                        request: req,
                        allowed: BTreeSet::new(),
                        retried: false,
                        handed: false,
                    });
                    self.stage = Stage::Topics { reply: None };
                }
            },
        }
    }

    /// The labelled text of chunk `key`, cut to `room` tokens.
    fn chunk_part(&mut self, key: Key, room: usize) -> String {
        let Some(p) = self.source.part(key) else {
            return String::new();
        };
        let label = label(&self.namer, p);
        let (text, cut) = fit_text(&p.text, room.saturating_sub(tokens::count(&label) + 2));
        self.trace.truncated_inputs += usize::from(cut);
        format!("{label}\n{text}")
    }

    fn map(&mut self) {
        let keys: Vec<Key> = self.source.parts.iter().map(|p| p.key).collect();
        let budget = self.budget();
        let focus = self.opts.focus.clone();
        for (slot, key) in keys.iter().copied().enumerate() {
            let allowed: BTreeSet<Key> = [key].into();
            let example = self.example(&allowed);
            let task = "Write the bullet notes of this excerpt.";
            let empty = prompts::request(
                prompts::MAP_PROMPT,
                &example,
                focus.as_deref(),
                [""],
                task,
                0,
            );
            let room = budget.saturating_sub(request_tokens(&empty) + RETRY_RESERVE + 4);
            let part = self.chunk_part(key, room);
            let mut req = prompts::request(
                prompts::MAP_PROMPT,
                &example,
                focus.as_deref(),
                [part.as_str()],
                task,
                0,
            );
            req.max_tokens = self.reply_cap(&req, MAP_REPLY_TOKENS);
            self.used.insert(key);
            self.push(Call {
                kind: Kind::Map,
                slot,
                request: req,
                allowed,
                retried: false,
                handed: false,
            });
        }
        self.stage = Stage::Map {
            notes: vec![None; keys.len()],
        };
    }

    fn reduce_request(&self, last: bool, notes: &[&Note]) -> (ModelRequest, BTreeSet<Key>) {
        let allowed: BTreeSet<Key> = notes.iter().flat_map(|n| n.keys.iter().copied()).collect();
        let (prompt, task, want) = if last {
            (
                prompts::FINAL_PROMPT,
                "Write the summary from these notes.",
                FINAL_REPLY_TOKENS,
            )
        } else {
            (
                prompts::MERGE_PROMPT,
                "Merge these notes.",
                MERGE_REPLY_TOKENS,
            )
        };
        let mut req = prompts::request(
            prompt,
            &self.example(&allowed),
            self.opts.focus.as_deref(),
            notes.iter().map(|n| n.text.as_str()),
            task,
            0,
        );
        req.max_tokens = self.reply_cap(&req, want);
        (req, allowed)
    }

    fn fits(&self, req: &ModelRequest) -> bool {
        request_tokens(req) + RETRY_RESERVE <= self.budget()
    }

    fn reduce(&mut self, level: usize, notes: Vec<Note>) {
        self.trace.reduce_levels = level;
        let mut notes: Vec<Note> = notes.into_iter().filter(|n| !n.text.is_empty()).collect();
        let refs: Vec<&Note> = notes.iter().collect();
        let (req, allowed) = self.reduce_request(true, &refs);
        let forced = self.mode == SummaryMode::MapReduce || level >= self.opts.max_depth;
        if self.fits(&req) || forced {
            let (req, allowed) = if self.fits(&req) {
                (req, allowed)
            } else {
                let before = notes.len();
                let cut = self.squeeze(&mut notes);
                self.notices.push(format!(
                    "the notes did not fit one {}-token request at reduce level {level}: {cut} of {before} were cut to fit{}",
                    self.budget(),
                    if self.mode == SummaryMode::MapReduce {
                        " (hierarchical mode reduces them in batches instead)"
                    } else {
                        " (depth limit reached)"
                    }
                ));
                let refs: Vec<&Note> = notes.iter().collect();
                self.reduce_request(true, &refs)
            };
            self.push(Call {
                kind: Kind::Final,
                slot: 0,
                request: req,
                allowed,
                retried: false,
                handed: false,
            });
            self.stage = Stage::Reduce {
                level,
                last: true,
                notes: vec![None],
            };
            return;
        }
        // Batches in order, each as full as the budget allows.
        let mut batches: Vec<(ModelRequest, BTreeSet<Key>)> = Vec::new();
        let mut start = 0;
        while start < notes.len() {
            let mut end = start + 1;
            // A single note over the budget is cut to fit.
            let single: Vec<&Note> = vec![&notes[start]];
            if !self.fits(&self.reduce_request(false, &single).0) {
                let empty = self.reduce_request(false, &[]).0;
                let room = self
                    .budget()
                    .saturating_sub(request_tokens(&empty) + RETRY_RESERVE + 4);
                let (t, _) = fit_text(&notes[start].text, room);
                notes[start].text = t;
                self.trace.truncated_inputs += 1;
            }
            // Grow by estimate, then confirm with a real count.
            let base = request_tokens(&self.reduce_request(false, &[]).0) + RETRY_RESERVE;
            let mut est = base + tokens::count(&notes[start].text) + 2;
            while end < notes.len() {
                let t = tokens::count(&notes[end].text) + 2;
                if est + t > self.budget() {
                    break;
                }
                est += t;
                end += 1;
            }
            loop {
                let refs: Vec<&Note> = notes[start..end].iter().collect();
                let (req, allowed) = self.reduce_request(false, &refs);
                if self.fits(&req) || end == start + 1 {
                    batches.push((req, allowed));
                    break;
                }
                end -= 1;
            }
            start = end;
        }
        let n = batches.len();
        for (slot, (request, allowed)) in batches.into_iter().enumerate() {
            self.push(Call {
                kind: Kind::Merge,
                slot,
                request,
                allowed,
                retried: false,
                handed: false,
            });
        }
        self.stage = Stage::Reduce {
            level,
            last: false,
            notes: vec![None; n],
        };
    }

    /// Cuts every note to one common token cap (whole lines first) so that all fit
    /// one final request; notes cut to nothing are dropped. Returns how many were
    /// cut.
    fn squeeze(&mut self, notes: &mut Vec<Note>) -> usize {
        let sizes: Vec<usize> = notes.iter().map(|n| tokens::count(&n.text)).collect();
        let empty = self.reduce_request(true, &[]).0;
        let room = self
            .budget()
            .saturating_sub(request_tokens(&empty) + RETRY_RESERVE);
        let total = |cap: usize| sizes.iter().map(|&s| s.min(cap) + 2).sum::<usize>();
        let (mut lo, mut hi) = (0usize, sizes.iter().copied().max().unwrap_or(0));
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if total(mid) <= room {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let mut cap = lo;
        loop {
            let mut cut = 0;
            let kept: Vec<Note> = notes
                .iter()
                .zip(&sizes)
                .filter_map(|(n, &s)| {
                    if s <= cap {
                        return Some(n.clone());
                    }
                    cut += 1;
                    let (t, _) = fit_text(&n.text, cap);
                    (!t.is_empty()).then(|| Note {
                        keys: n.keys.clone(),
                        text: t,
                    })
                })
                .collect();
            let refs: Vec<&Note> = kept.iter().collect();
            if self.fits(&self.reduce_request(true, &refs).0) || cap == 0 {
                // Keys of cut text are kept only when still cited.
                let kept = kept
                    .into_iter()
                    .map(|mut n| {
                        let all: BTreeSet<Key> = n.keys.clone();
                        n.keys = cite::check(&n.text, &self.namer, &all)
                            .valid
                            .into_iter()
                            .collect();
                        n
                    })
                    .collect();
                *notes = kept;
                self.trace.truncated_inputs += cut;
                return cut;
            }
            cap = cap * 9 / 10;
        }
    }

    fn iterate_groups(&mut self) -> Vec<Vec<Key>> {
        let empty = prompts::request(
            prompts::ITERATE_PROMPT,
            "[chunk-0]",
            self.opts.focus.as_deref(),
            [""],
            "",
            0,
        );
        let room = self
            .budget()
            .saturating_sub(request_tokens(&empty) + RETRY_RESERVE + ITERATE_REPLY_TOKENS + 64);
        let mut groups: Vec<Vec<Key>> = Vec::new();
        let mut used = room;
        for p in &self.source.parts {
            let t = p.tokens + 24;
            if groups.is_empty() || used + t > room {
                groups.push(Vec::new());
                used = 0;
            }
            used += t;
            if let Some(g) = groups.last_mut() {
                g.push(p.key);
            }
        }
        groups
    }

    fn iterate(&mut self, groups: Vec<Vec<Key>>, next: usize, summary: Option<Note>) {
        let last = next + 1 == groups.len();
        let so_far = summary.clone().unwrap_or_default();
        let (text, cut) = fit_text(&so_far.text, ITERATE_REPLY_TOKENS);
        self.trace.truncated_inputs += usize::from(cut);
        let mut allowed: BTreeSet<Key> = so_far.keys.clone();
        allowed.extend(groups[next].iter().copied());
        let example = self.example(&groups[next].iter().copied().collect());
        let empty = prompts::request(
            prompts::ITERATE_PROMPT,
            &example,
            self.opts.focus.as_deref(),
            [""],
            "",
            0,
        );
        let head = format!(
            "Summary so far:\n{}",
            if text.is_empty() { "(none yet)" } else { &text }
        );
        let mut room = self
            .budget()
            .saturating_sub(request_tokens(&empty) + RETRY_RESERVE + tokens::count(&head) + 8);
        let per = room / groups[next].len().max(1);
        let mut parts = vec![head];
        for &k in &groups[next] {
            let part = self.chunk_part(k, per.min(room));
            room = room.saturating_sub(tokens::count(&part) + 2);
            self.used.insert(k);
            parts.push(part);
        }
        let task = "Return the whole updated summary.";
        let mut req = prompts::request(
            prompts::ITERATE_PROMPT,
            &example,
            self.opts.focus.as_deref(),
            parts.iter().map(String::as_str),
            task,
            0,
        );
        req.max_tokens = self.reply_cap(&req, ITERATE_REPLY_TOKENS);
        self.push(Call {
            kind: Kind::Iterate { last },
            slot: next,
            request: req,
            allowed,
            retried: false,
            handed: false,
        });
        self.stage = Stage::Iterate {
            groups,
            next,
            summary,
        };
    }

    fn synthesize(&mut self, topics: Vec<String>) {
        self.trace.topics = topics.clone();
        let head = format!(
            "Topics, in order:\n{}",
            topics
                .iter()
                .map(|t| format!("- {t}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        let task = "Write the summary by the topics listed at the start of the document data.";
        let empty = prompts::request(
            prompts::SYNTHESIS_PROMPT,
            "[chunk-0]",
            self.opts.focus.as_deref(),
            [head.as_str()],
            task,
            0,
        );
        let room = self
            .budget()
            .saturating_sub(request_tokens(&empty) + RETRY_RESERVE);
        let budget = self
            .opts
            .retrieval_budget_tokens
            .unwrap_or(room * 9 / 10)
            .min(room * 9 / 10);
        let mut keys = topics::retrieve(
            &self.source,
            &topics,
            self.opts.focus.as_deref(),
            self.opts.topic_k,
            budget,
        );
        loop {
            let allowed: BTreeSet<Key> = keys.iter().copied().collect();
            let mut parts = vec![head.clone()];
            for &k in &keys {
                parts.push(self.chunk_part(k, room));
            }
            let mut req = prompts::request(
                prompts::SYNTHESIS_PROMPT,
                &self.example(&allowed),
                self.opts.focus.as_deref(),
                parts.iter().map(String::as_str),
                task,
                0,
            );
            if !self.fits(&req) && keys.len() > 1 {
                // Labels made it a little too long: drop the last chunk.
                keys.pop();
                self.trace.truncated_inputs += 1;
                continue;
            }
            req.max_tokens = self.reply_cap(&req, FINAL_REPLY_TOKENS);
            self.used = allowed.clone();
            self.push(Call {
                kind: Kind::Synthesis,
                slot: 0,
                request: req,
                allowed,
                retried: false,
                handed: false,
            });
            break;
        }
        self.stage = Stage::Synthesis { text: None };
    }

    fn finish(&mut self, text: String) {
        trace::measure(
            &mut self.trace,
            &self.source,
            &self.namer,
            &self.used,
            &text,
        );
        let citations = trace::cited(&text, &self.source, &self.namer, &self.used);
        if self.flagged && self.invalid.is_empty() {
            self.notices
                .push("a reply had no citation markers after its retry".into());
        }
        self.done = Some(Summary {
            mode: self.mode,
            requested_mode: self.opts.mode,
            fallback: self.fallback.clone(),
            text,
            citations,
            verified: !self.flagged,
            warning: self.flagged.then(|| UNVERIFIED.to_string()),
            invalid_citations: self.invalid.clone(),
            notices: self.notices.clone(),
            trace: self.trace.clone(),
        });
        self.stage = Stage::Done;
    }
}
